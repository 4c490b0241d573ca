//! The item-by-item parse against the whole text's parse (the grammar read
//! in one go, as before chunks), and a re-parse after random edits against
//! a fresh parse.

use std::sync::Arc;

use chumsky::input::Input as _;
use chumsky::prelude::{Parser as _, Rich, SimpleSpan};
use proptest::prelude::*;

use super::super::{at_line_end_if_next_line, attach_docs, file_parser, to_diagnostic};
use super::{Parse, parse_all, parse_all_on, reparse};
use crate::diagnostic::{Code, Diagnostic};
use crate::syntax::ast::Item;
use crate::syntax::lexer::{self, Token};
use crate::syntax::{FileId, Span};
use crate::test_edits::{PIECES, edited, texts};

/// The grammar over every token of the text at once.
fn parse_whole(text: &str) -> (Vec<Item>, Vec<Diagnostic>) {
    let mut diagnostics = Vec::new();
    let mut significant: Vec<(Token<'_>, Span)> = Vec::new();
    let mut others: Vec<(Token<'_>, Span)> = Vec::new();
    lexer::lex_into(text, &mut diagnostics, |token, span| {
        if token.is_trivia() || matches!(token, Token::Error(_)) {
            others.push((token, span));
        } else {
            significant.push((token, span));
        }
    });
    let end = significant.last().map_or(0, |(_, s)| s.end());
    let spanned: Vec<(Token<'_>, SimpleSpan)> = significant
        .iter()
        .map(|&(t, s)| (t, SimpleSpan::from(s.range())))
        .collect();
    let input = spanned.as_slice().split_token_span(SimpleSpan::from(end..end));
    let (items, errors) = file_parser::<_, Rich<'_, Token<'_>>>()
        .parse(input)
        .into_output_errors();
    diagnostics.extend(errors.iter().map(|error| {
        let mut diagnostic = to_diagnostic(error);
        if diagnostic.code == Code::UnexpectedToken {
            diagnostic.span = at_line_end_if_next_line(text, &significant, diagnostic.span);
        }
        diagnostic
    }));
    diagnostics.sort_by_key(|d| (d.span.start(), d.span.end()));
    let mut items: Vec<Item> = items.unwrap_or_default().into_iter().flatten().collect();
    attach_docs(text, &mut items, &significant, &others);
    (items, diagnostics)
}

/// The same tree and diagnostics. The chunks may be cut differently: a
/// re-parse may keep a stretch of comments before an item as a chunk of its
/// own, which a fresh parse gives to the item.
fn same(a: &Parse, b: &Parse) -> bool {
    a.file.items == b.file.items && a.diagnostics == b.diagnostics
}

#[test]
fn the_examples_parse_as_the_whole_text() {
    for text in texts() {
        let parse = parse_all(FileId::default(), &text);
        let (items, diagnostics) = parse_whole(&text);
        assert_eq!(parse.file.items, items);
        assert_eq!(parse.diagnostics, diagnostics);
    }
}

#[test]
fn threads_do_not_change_the_parse() {
    let mut text = crate::synth::generate(&crate::synth::Config::for_lines(12_000, 2)).dyno;
    // Broken items on the way, in both halves.
    for at in [0.3, 0.7] {
        text = edited(&text, at, 40, "entity ( {");
    }
    let one = parse_all_on(FileId(2), &text, |_| 1);
    assert!(!one.diagnostics.is_empty());
    for threads in [2, 3] {
        let many = parse_all_on(FileId(2), &text, |_| threads);
        assert!(same(&many, &one), "{threads} threads");
        assert_eq!(many.chunks, one.chunks);
    }
}

/// Keystrokes all over a schema of thousands of items, the items after
/// each moved where they lie, and a broken item on the way.
#[test]
fn keystrokes_in_a_large_schema_reparse_as_a_fresh_parse() {
    let file = FileId(4);
    let mut text = crate::synth::generate(&crate::synth::Config::for_lines(12_000, 3)).dyno;
    let mut parse = Arc::new(parse_all(file, &text));
    assert!(parse.file.items.len() >= 1024);
    for at in [0.02, 0.25, 0.5, 0.75] {
        for (delete, piece) in [(0, "x"), (1, ""), (0, "entity ( {")] {
            let new = edited(&text, at, delete, piece);
            let again = reparse(file, &new, parse, &text);
            assert!(same(&again, &parse_all(file, &new)), "an edit at {at}");
            (parse, text) = (Arc::new(again), new);
        }
    }
}

#[test]
fn an_unchanged_text_and_an_empty_one_reparse() {
    let file = FileId(3);
    for (old, new) in [
        ("", "entity A {}"),
        ("entity A {}", ""),
        ("entity A {}", "entity A {}"),
        ("", ""),
    ] {
        let parse = reparse(file, new, Arc::new(parse_all(file, old)), old);
        assert!(same(&parse, &parse_all(file, new)), "{old:?} -> {new:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    /// A few random edits of an example: its items and diagnostics parsed
    /// chunk by chunk equal the whole text's.
    #[test]
    fn edited_examples_parse_as_the_whole_text(
        which in 0usize..5,
        edits in proptest::collection::vec((0.0..=1.0f64, 0usize..12, proptest::sample::select(PIECES)), 1..6),
    ) {
        let mut text = texts().swap_remove(which);
        for (at, delete, piece) in edits {
            text = edited(&text, at, delete, piece);
        }
        let parse = parse_all(FileId::default(), &text);
        let (items, diagnostics) = parse_whole(&text);
        prop_assert_eq!(&parse.file.items, &items, "{}", text);
        prop_assert_eq!(&parse.diagnostics, &diagnostics, "{}", text);
    }

    /// After each of a sequence of edits, the re-parse of the previous parse
    /// (held by another owner or not) equals a fresh parse of the text.
    #[test]
    fn a_reparse_equals_a_fresh_parse(
        which in 0usize..5,
        edits in proptest::collection::vec((0.0..=1.0f64, 0usize..12, proptest::sample::select(PIECES), proptest::bool::ANY), 1..10),
    ) {
        let file = FileId(1);
        let mut text = texts().swap_remove(which);
        let mut parse = Arc::new(parse_all(file, &text));
        for (at, delete, piece, shared) in edits {
            let new = edited(&text, at, delete, piece);
            let held = shared.then(|| parse.clone());
            let again = reparse(file, &new, parse, &text);
            let fresh = parse_all(file, &new);
            prop_assert!(same(&again, &fresh), "{:?}\n->\n{:?}", text, new);
            drop(held);
            text = new;
            parse = Arc::new(again);
        }
    }
}
