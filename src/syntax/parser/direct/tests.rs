//! The hand-written parser against the grammar, chunk by chunk: where one
//! reads items the other reads the same items without an error, and where
//! the grammar reports an error the hand-written parser gives up.

use proptest::prelude::*;

use super::super::chunks::{grammar_chunk, lex_region};
use super::chunk;
use crate::syntax::Span;
use crate::syntax::ast::Item;
use crate::syntax::lexer::{self, Token};
use crate::test_edits::{PIECES, edited, texts};

/// Every chunk of `text` read both ways; the first disagreement, if any.
fn disagreement(text: &str) -> Option<String> {
    let lexed = lex_region(text, Span::new(0, text.len()), None);
    for plan in &lexed.plans {
        let tokens = plan.tokens(&lexed.significant);
        let direct = chunk(tokens, plan.ends_text);
        let (output, errors) = grammar_chunk(tokens, plan.ends_text, lexed.eoi);
        let grammar: Option<Vec<Item>> = errors.is_empty().then_some(output);
        if direct != grammar {
            let errors: Vec<String> = errors.iter().map(|e| format!("{e:?}")).collect();
            return Some(format!(
                "chunk {:?}\nhand-written: {direct:#?}\ngrammar: {grammar:#?}\ngrammar's errors: {errors:?}",
                tokens.iter().map(|(t, _)| t.to_string()).collect::<Vec<_>>()
            ));
        }
    }
    None
}

fn schemas_under(dir: &str, out: &mut Vec<(String, String)>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            schemas_under(&path.to_string_lossy(), out);
        } else if path.extension().is_some_and(|e| e == "dyno")
            && let Ok(text) = std::fs::read_to_string(&path)
        {
            out.push((path.to_string_lossy().into_owned(), text));
        }
    }
}

/// Every schema of the repository: the examples (the real designs among
/// them) and the fixtures, broken ones included.
fn repository_schemas() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for dir in ["examples", "tests/fixtures", "tests/fuzz_regressions", "docs"] {
        schemas_under(dir, &mut out);
    }
    out
}

#[test]
fn every_schema_of_the_repository_reads_as_the_grammar_reads_it() {
    let schemas = repository_schemas();
    assert!(schemas.len() > 100, "found {} schemas", schemas.len());
    let mut read_by_hand = 0;
    for (path, text) in &schemas {
        if let Some(disagreement) = disagreement(text) {
            panic!("{path}: {disagreement}");
        }
        read_by_hand += usize::from(super::super::parse(text).diagnostics.is_empty());
    }
    // Most of them have no error: the fast path is the one they take.
    assert!(read_by_hand * 2 > schemas.len(), "{read_by_hand} of {}", schemas.len());
    let generated = crate::synth::generate(&crate::synth::Config::for_lines(3_000, 7)).dyno;
    assert_eq!(disagreement(&generated), None);
}

#[test]
fn a_deep_filter_goes_to_the_grammar() {
    let text = format!(
        "pattern p(a) -> E where {}a = 1{}",
        "not (".repeat(150),
        ")".repeat(150)
    );
    let lexed = lex_region(&text, Span::new(0, text.len()), None);
    let plan = &lexed.plans[0];
    assert_eq!(chunk(plan.tokens(&lexed.significant), plan.ends_text), None);
    // Not too deep for the hand-written parser.
    let text = format!("pattern p(a) -> E where {}a = 1{}", "not (".repeat(50), ")".repeat(50));
    assert_eq!(disagreement(&text), None);
    assert!(super::super::parse(&text).diagnostics.is_empty());
}

/// Words and signs where the grammar has to choose: contextual keywords,
/// hints, quoted names with and without holes, numbers it refuses.
const VOCABULARY: &[&str] = &[
    "table",
    "entity",
    "pattern",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ",",
    ":",
    ".",
    "=",
    "<",
    "<=",
    ">",
    ">=",
    "<>",
    "%",
    "->",
    "?",
    "~",
    "/",
    "key",
    "index",
    "local",
    "delimiter",
    "ttl",
    "all",
    "keys_only",
    "include",
    "in",
    "item",
    "pad",
    "of",
    "by",
    "asc",
    "desc",
    "consistent",
    "limit",
    "get",
    "batch",
    "scan",
    "segments",
    "where",
    "not",
    "and",
    "or",
    "between",
    "begins_with",
    "attribute_exists",
    "attribute_not_exists",
    "query",
    "true",
    "false",
    "s",
    "x",
    "pk",
    "sk",
    "number",
    "string",
    "5",
    "2.5",
    "2KB",
    "2XB",
    "0",
    "\"a\"",
    "\"{x}\"",
    "\"\"",
    "\"A#{x}\"",
    "\"by\"",
    "\"unterminated",
];

/// The tokens of the examples' items, as text, one list per item.
fn example_items() -> Vec<Vec<String>> {
    let mut items: Vec<Vec<String>> = Vec::new();
    for text in texts() {
        let (tokens, _) = lexer::lex(&text);
        for (token, span) in tokens {
            if token.is_trivia() {
                continue;
            }
            if matches!(token, Token::Table | Token::Entity | Token::Pattern) || items.is_empty() {
                items.push(Vec::new());
            }
            items.last_mut().expect("pushed").push(text[span.range()].to_string());
        }
    }
    items
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    /// An item of an example with tokens inserted, deleted and replaced:
    /// near the grammar's edges, where a wrong choice would read a
    /// different tree or none.
    #[test]
    fn mutated_items_read_as_the_grammar_reads_them(
        which in any::<proptest::sample::Index>(),
        edits in proptest::collection::vec(
            (any::<proptest::sample::Index>(), 0usize..3, proptest::sample::select(VOCABULARY)),
            1..5,
        ),
    ) {
        let items = example_items();
        let mut tokens = items[which.index(items.len())].clone();
        for (at, kind, word) in edits {
            let at = at.index(tokens.len() + 1);
            match kind {
                0 => tokens.insert(at, word.to_string()),
                1 if at < tokens.len() => { tokens.remove(at); }
                _ if at < tokens.len() => tokens[at] = word.to_string(),
                _ => tokens.push(word.to_string()),
            }
        }
        // Each token on a line of its own: `/` `/` is not a comment.
        let text = tokens.join("\n");
        prop_assert_eq!(disagreement(&text), None, "{}", text);
    }

    /// A few random edits of an example (the pieces that break and make
    /// items).
    #[test]
    fn edited_examples_read_as_the_grammar_reads_them(
        which in 0usize..5,
        edits in proptest::collection::vec((0.0..=1.0f64, 0usize..12, proptest::sample::select(PIECES)), 1..6),
    ) {
        let mut text = texts().swap_remove(which);
        for (at, delete, piece) in edits {
            text = edited(&text, at, delete, piece);
        }
        prop_assert_eq!(disagreement(&text), None, "{}", text);
    }
}
