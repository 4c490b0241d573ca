//! Properties of the printer (`dyno::syntax::print`), on every schema the
//! repository holds without syntax errors (the fixtures, the examples, the
//! docs' ```dyno blocks), on schemas from `dyno::synth` and on syntax trees
//! built by proptest:
//!
//! - the printed text parses, without errors, to the same tree up to spans;
//! - printing is idempotent: `print(parse(print(t))) == print(t)`;
//! - the printed text is what `dyno fmt` makes of it: formatting it changes
//!   nothing;
//! - on a formatted file without `//` comments, whose members and blank
//!   lines follow the printer's choices (see `syntax/print.rs`), the printer
//!   gives the formatter's text.

mod common;
mod syntax_trees;

use std::path::{Path, PathBuf};

use dyno::diagnostic::Severity;
use dyno::ide::format::format;
use dyno::syntax::ast::SourceFile;
use dyno::syntax::lexer::{Token, lex};
use dyno::syntax::parse;
use dyno::syntax::print::print;
use dyno::synth;
use proptest::prelude::*;

/// The tree as text with every span blanked: two trees are equal up to spans
/// when these are equal. `Debug` shows every field, so a field added to the
/// tree is compared without this function changing.
fn without_spans(file: &SourceFile) -> String {
    let debug = format!("{file:?}");
    let mut out = String::with_capacity(debug.len());
    let mut rest = debug.as_str();
    while let Some(at) = rest.find("Span { start: ") {
        out.push_str(&rest[..at]);
        let end = rest[at..].find('}').map_or(rest.len(), |k| at + k + 1);
        out.push_str("Span");
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

fn syntax_errors(text: &str) -> Vec<String> {
    parse(text)
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| format!("{d:?}"))
        .collect()
}

/// Checks the first three properties on one tree; returns the printed text.
fn check_tree(name: &str, tree: &SourceFile) -> String {
    let printed = print(tree);
    let errors = syntax_errors(&printed);
    assert!(
        errors.is_empty(),
        "{name}: printed text has errors {errors:?}:\n{printed}"
    );
    let reparsed = parse(&printed).file;
    assert_eq!(
        without_spans(&reparsed),
        without_spans(tree),
        "{name}: the tree changed; printed:\n{printed}"
    );
    assert_eq!(print(&reparsed), printed, "{name}: not idempotent");
    let formatted = format(&printed).unwrap_or_else(|e| panic!("{name}: {e}\n{printed}"));
    assert_eq!(formatted, printed, "{name}: `dyno fmt` would change the printed text");
    printed
}

fn dyno_files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            dyno_files_under(&path, out);
        } else if path.extension().is_some_and(|e| e == "dyno") {
            out.push(path);
        }
    }
}

/// Every schema in the repository without syntax errors, by name.
fn clean_corpus() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    dyno_files_under(&root.join("tests/fixtures"), &mut paths);
    paths.extend(common::fixtures("examples"));
    paths.sort();
    let mut out: Vec<(String, String)> = paths
        .iter()
        .map(|path| {
            let text = std::fs::read_to_string(path).unwrap();
            (path.strip_prefix(root).unwrap().display().to_string(), text)
        })
        .collect();
    for doc in ["docs/language.md", "README.md"] {
        let markdown = std::fs::read_to_string(root.join(doc)).unwrap();
        for block in common::markdown::blocks(&markdown) {
            if block.info.starts_with("dyno") {
                out.push((format!("{doc}:{}", block.line), block.code));
            }
        }
    }
    out.retain(|(_, text)| syntax_errors(text).is_empty());
    out
}

#[test]
fn every_clean_schema_in_the_repository_prints_back_to_its_tree() {
    let corpus = clean_corpus();
    let fixtures = corpus.iter().filter(|(n, _)| n.starts_with("tests/fixtures")).count();
    let examples = corpus.iter().filter(|(n, _)| n.starts_with("examples")).count();
    assert!(
        fixtures >= 50 && examples >= 3,
        "{fixtures} fixtures, {examples} examples"
    );
    for (name, text) in &corpus {
        check_tree(name, &parse(text).file);
    }
}

#[test]
fn synthetic_schemas_print_back_to_their_trees() {
    for (lines, seed) in [(100, 1), (400, 7), (1_000, 42), (3_000, 2024)] {
        let generated = synth::generate(&synth::Config::for_lines(lines, seed));
        check_tree(&format!("synth {lines}/{seed}"), &parse(&generated.dyno).file);
    }
}

/// `text` without its `//` comments (doc comments stay).
fn without_plain_comments(text: &str) -> String {
    let (tokens, _) = lex(text);
    let mut out = String::with_capacity(text.len());
    let mut copied_to = 0;
    for (token, span) in tokens {
        if matches!(token, Token::Comment(_)) {
            out.push_str(&text[copied_to..span.start()]);
            copied_to = span.end();
        }
    }
    out.push_str(&text[copied_to..]);
    out
}

fn without_blank_lines(text: &str) -> String {
    text.lines()
        .filter(|line| !line.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The repository's formatted files whose printed text differs from the
/// formatter's by more than blank lines: each file, a text in it, and the
/// spelling the tree does not keep.
const NOT_KEPT_BY_THE_TREE: &[(&str, &str, &str)] = &[
    (
        "tests/fixtures/format/doc_comments.dyno",
        "///A",
        "`///A` is printed `/// A`",
    ),
    (
        "tests/fixtures/format/only_comments.dyno",
        "/// A dangling",
        "a `///` above nothing",
    ),
    ("tests/fixtures/format/trailing_commas.dyno", ",)", "a trailing comma"),
    (
        "tests/fixtures/format/quoted_names.dyno",
        "key \"pk\"",
        "a quoted name that is an identifier (`\"pk\"`) is printed bare",
    ),
    (
        "tests/fixtures/check/quoted_names.dyno",
        "\"PK\" = ",
        "a quoted name that is an identifier (`\"PK\"`) is printed bare",
    ),
    (
        "tests/fixtures/format/item_shapes.dyno",
        "sk = \"B#{teamId}\"\n\n",
        "a blank line between key templates, which aligns each run on its own",
    ),
    (
        "docs/language.md",
        "  /// Base keys:",
        "a `///` above a table's `key` line",
    ),
    (
        "docs/language.md",
        "by number asc",
        "`by number asc` is printed `by number`",
    ),
    (
        "tests/fixtures/format/multi_attribute_keys.dyno",
        "region,]",
        "a trailing comma in a key list",
    ),
];

/// `dyno fmt` output without `//` comments, printed from its tree: the same
/// text up to blank lines, except where the tree does not keep a spelling;
/// the bundled examples (whose blank lines follow the printer's choices)
/// are the same text exactly.
#[test]
fn on_formatted_files_the_printer_gives_the_formatters_text() {
    let mut exact = Vec::new();
    let mut unexplained = Vec::new();
    let mut explained = Vec::new();
    for (name, text) in clean_corpus() {
        let formatted = format(&without_plain_comments(&text)).unwrap().replace("\r\n", "\n");
        let printed = print(&parse(&formatted).file);
        if printed == formatted {
            exact.push(name);
        } else if without_blank_lines(&printed) != without_blank_lines(&formatted) {
            let reason = NOT_KEPT_BY_THE_TREE
                .iter()
                .position(|(file, snippet, _)| name.starts_with(file) && formatted.contains(snippet));
            match reason {
                Some(reason) => explained.push(reason),
                None => unexplained.push(format!("{name}:\n--- formatted\n{formatted}--- printed\n{printed}")),
            }
        }
    }
    assert!(unexplained.is_empty(), "{}", unexplained.join("\n"));
    explained.sort();
    let all: Vec<usize> = (0..NOT_KEPT_BY_THE_TREE.len()).collect();
    assert_eq!(explained, all, "every listed difference occurs once");
    for example in ["examples/billing.dyno", "examples/shop.dyno"] {
        assert!(
            exact.iter().any(|n| n == example),
            "{example} differs; exact: {exact:?}"
        );
    }
    assert!(
        exact.len() >= 25,
        "only {} files are the same exactly: {exact:?}",
        exact.len()
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn generated_trees_print_back_to_themselves(tree in syntax_trees::source_file()) {
        check_tree("generated tree", &tree);
    }
}

#[test]
fn the_span_free_comparison_sees_every_difference_but_spans() {
    let text = "table T {\n  key pk\n}\n";
    let moved = format!("\n\n{text}");
    assert_eq!(without_spans(&parse(text).file), without_spans(&parse(&moved).file));
    assert_ne!(parse(text).file, parse(&moved).file);
    for changed in [
        "table T {\n  key pk: string\n}\n",
        "table U {\n  key pk\n}\n",
        "table T {\n  key pk, sk\n}\n",
    ] {
        assert_ne!(
            without_spans(&parse(text).file),
            without_spans(&parse(changed).file),
            "{changed}"
        );
    }
}
