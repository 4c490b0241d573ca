//! Any text at all lexes and parses without panicking, and the spans the
//! syntax layer hands out are sound: in bounds, on character boundaries, in
//! order, and covering every byte that is not whitespace.

use dyno::syntax::ast::Segment;
use dyno::syntax::lexer::{Token, lex};
use dyno::syntax::parse;
use proptest::prelude::*;

/// Pieces of real schemas and their usual mistakes, glued at random: this
/// reaches far deeper into the parser than uniformly random text.
fn soup() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "table",
        "entity",
        "pattern",
        "key",
        "index",
        "local",
        "item",
        "query",
        "where",
        "and",
        "by",
        "desc",
        "between",
        "begins_with",
        "limit",
        "consistent",
        "pad",
        "~",
        "2KB",
        "6",
        "1.5",
        "{",
        "}",
        "(",
        ")",
        "[",
        "]",
        ",",
        ":",
        "=",
        "<=",
        ">",
        "->",
        "?",
        ".",
        "\"",
        "\"USER#{userId}\"",
        "\"A{\"",
        "\"}\"",
        "\\",
        "{x}",
        "userId",
        "User",
        "id",
        "int",
        "enum",
        "// c\n",
        "/// d\n",
        "////\n",
        " ",
        "\n",
        "\r\n",
        "\t",
        "é",
        "🎉",
        "$",
        "\u{2028}",
        "\0",
    ]);
    prop::collection::vec(pieces, 0..60).prop_map(|pieces| pieces.concat())
}

fn check_spans(text: &str) {
    let (tokens, diagnostics) = lex(text);
    let mut covered = 0;
    for &(token, span) in &tokens {
        assert!(span.start() < span.end(), "empty token {token:?} at {span:?}");
        assert!(span.end() <= text.len() && text.is_char_boundary(span.start()) && text.is_char_boundary(span.end()));
        assert!(
            span.start() >= covered,
            "tokens overlap or are out of order at {span:?}"
        );
        // Whatever lies between tokens is whitespace: nothing is dropped.
        assert!(
            text[covered..span.start()].chars().all(char::is_whitespace),
            "lost {:?}",
            &text[covered..span.start()]
        );
        covered = span.end();
        if let Token::Str(raw) | Token::UnterminatedStr(raw) = token {
            assert_eq!(raw, &text[span.range()]);
        }
    }
    assert!(
        text[covered..].chars().all(char::is_whitespace),
        "lost the tail {:?}",
        &text[covered..]
    );
    for d in &diagnostics {
        assert!(
            d.span.start() <= d.span.end() && d.span.end() <= text.len(),
            "bad lexer diagnostic span {d:?}"
        );
    }

    let parse = parse(text);
    for d in &parse.diagnostics {
        assert!(
            d.span.start() <= d.span.end() && d.span.end() <= text.len(),
            "bad diagnostic span {d:?}"
        );
        assert!(text.is_char_boundary(d.span.start()) && text.is_char_boundary(d.span.end()));
    }
    for item in &parse.file.items {
        let span = item.span();
        assert!(span.start() <= span.end() && span.end() <= text.len());
        // A quoted name's span covers its quotes; its text is what they hold.
        assert_eq!(
            dyno::syntax::names::read(&text[item.name().span.range()]),
            item.name().text.as_str(),
            "a name's span must hold its text"
        );
    }
}

/// Template segments: in order, inside their string, each hole's name
/// inside its braces.
fn check_templates(text: &str) {
    for item in parse(text).file.items {
        let dyno::syntax::ast::Item::Entity(entity) = item else {
            continue;
        };
        for key in entity.keys.iter().chain(entity.items.iter().flat_map(|i| &i.keys)) {
            let string = key.template.span;
            let mut at = string.start();
            for segment in &key.template.segments {
                let span = segment.span();
                assert!(
                    span.start() >= at && span.end() <= string.end(),
                    "segment {segment:?} outside {string:?}"
                );
                at = span.end();
                if let Segment::Hole { name, span } = segment {
                    assert!(name.span.start() > span.start() && name.span.end() < span.end());
                    assert_eq!(&text[span.start()..span.start() + 1], "{");
                }
            }
        }
    }
}

/// Completion's token window at every offset (`dyno::fuzz::completion_window`).
fn check_completion_window(text: &str) {
    let (all, _) = lex(text);
    for offset in (0..=text.len()).filter(|&o| text.is_char_boundary(o)) {
        dyno::fuzz::completion_window(text, &all, offset);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn completion_windows_are_runs_of_the_files_tokens(text in soup()) {
        check_completion_window(&text);
    }

    #[test]
    fn arbitrary_text_is_handled(text in "(?s).{0,300}") {
        check_spans(&text);
        check_templates(&text);
    }

    #[test]
    fn schema_soup_is_handled(text in soup()) {
        check_spans(&text);
        check_templates(&text);
    }
}

#[test]
fn recovery_keeps_items_after_every_prefix_of_an_entity() {
    // Cutting an entity anywhere (as while typing) never loses the pattern
    // that follows it.
    let entity = "entity User {\n  userId: id\n  role: enum(admin, member)?\n  pk = \"USER#{userId}\"\n}\n";
    let tail = "pattern getUser(userId) -> User\n";
    for cut in (0..entity.len()).filter(|&i| entity.is_char_boundary(i)) {
        let text = format!("{}\n{tail}", &entity[..cut]);
        let parse = parse(&text);
        let kept = parse.file.items.iter().any(|i| i.name().text == "getUser");
        assert!(kept, "cut at {cut} lost the pattern:\n{text}");
    }
}
