//! `dyno design`: each fixture in tests/fixtures/design is designed and the
//! completed schema and the `--explain` report compared with its
//! `.expected` file (`UPDATE_EXPECT=1` accepts new output); every design is
//! checked again here, so a fixture can only pass when the checker agrees.
//! Then the command as a user runs it: exit codes, `--write`, `--fresh`,
//! `--max-indexes`, `--alternatives`, bad input.

mod common;

use common::cli::{dyno, path_str, stderr, stdout};
use common::scratch::Scratch;
use dyno::check::analyze;
use dyno::design::{self, Options};
use dyno::diagnostic::Severity;

/// The errors the checker reports on `text`, each with the pattern it is
/// in (if any).
fn errors(text: &str) -> Vec<(String, Option<String>)> {
    let analysis = analyze(text);
    let model = &analysis.schema.model;
    analysis
        .diagnostics()
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| {
            let pattern = model
                .patterns
                .iter()
                .find(|p| p.span.start() <= d.span.start() && d.span.end() <= p.span.end())
                .map(|p| p.name.text.to_string());
            (d.message.clone(), pattern)
        })
        .collect()
}

#[test]
fn fixtures_design_as_expected_and_check_clean_but_for_what_they_report() {
    common::check_fixtures("tests/fixtures/design", |source| {
        let design = design::design(&source.text, &Options::default());
        let left = errors(&design.text);
        assert_eq!(left.len(), design.errors, "{}", source.display_path());
        for (message, pattern) in &left {
            let pattern = pattern
                .as_deref()
                .unwrap_or_else(|| panic!("{}: an error outside the patterns: {message}", source.display_path()));
            assert!(
                design.unserved.iter().any(|u| u.pattern == pattern),
                "{}: `{pattern}` has an error the report does not mention: {message}",
                source.display_path()
            );
        }
        // Designing the design again changes nothing.
        let again = design::design(&design.text, &Options::default());
        assert!(
            again.edits.is_empty(),
            "{}: a second design edits {:?}",
            source.display_path(),
            again.edits
        );
        format!("{}---- report\n{}", design.text, design::report(&design, true, false))
    });
}

#[test]
fn bundled_examples_without_their_keys_design_clean_with_no_more_indexes() {
    for file in [
        "examples/billing.dyno",
        "examples/teams.dyno",
        "examples/games.dyno",
        "examples/shop.dyno",
    ] {
        let text = std::fs::read_to_string(file).unwrap();
        let original = analyze(&text);
        let indexes: usize = original.schema.model.tables.iter().map(|t| t.access.len() - 1).sum();
        let design = design::design(&design::without_keys(&text), &Options::default());
        assert_eq!(errors(&design.text), Vec::new(), "{file}:\n{}", design.text);
        assert!(
            design.indexes <= indexes,
            "{file}: {} indexes, the original has {indexes}",
            design.indexes
        );
        if file == "examples/billing.dyno" {
            assert_eq!(
                design.indexes, 1,
                "the README's billing example comes back with one GSI"
            );
        }
    }
}

#[test]
fn prints_the_design_and_exits_zero_when_every_pattern_is_one_query() {
    let output = dyno(&["design", "tests/fixtures/design/many_to_many.dyno"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stdout(&output).contains("item {"), "{}", stdout(&output));
    assert!(stderr(&output).contains("designed: 0 index(es)"), "{}", stderr(&output));
}

#[test]
fn exits_one_and_says_why_when_a_pattern_stays_unserved() {
    let output = dyno(&["design", "tests/fixtures/design/unservable.dyno"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let report = stderr(&output);
    assert!(
        report.contains("warning: `loudest` is not served: it reads a range of `at` but orders by `level`"),
        "{report}"
    );
    assert!(report.contains("= nearest:"), "{report}");
}

#[test]
fn max_indexes_leaves_the_patterns_that_need_another_one_unserved() {
    let output = dyno(&[
        "design",
        "tests/fixtures/design/billing_bare.dyno",
        "--max-indexes",
        "0",
    ]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let report = stderr(&output);
    assert!(
        report.contains("`openInvoices` is not served: it needs another index, beyond the limit of 0"),
        "{report}"
    );
    assert!(report.contains("= nearest:"), "{report}");
    assert!(!stdout(&output).contains("index gsi1"), "{}", stdout(&output));
}

#[test]
fn alternatives_lists_the_best_designs_best_first() {
    let output = dyno(&[
        "design",
        "tests/fixtures/design/billing_bare.dyno",
        "--alternatives",
        "3",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report = stderr(&output);
    let lines: Vec<&str> = report.lines().filter(|l| l.starts_with("design ")).collect();
    assert!(lines.len() >= 2 && lines.len() <= 3, "{report}");
    assert!(
        lines[0].starts_with("design 1: 0 error(s), 0 warning(s), 1 index(es)"),
        "{report}"
    );
}

#[test]
fn write_replaces_the_file_and_fresh_starts_from_the_patterns() {
    let scratch = Scratch::new("design-write");
    let path = scratch.path().join("billing.dyno");
    std::fs::copy("examples/billing.dyno", &path).unwrap();
    let output = dyno(&["design", "--fresh", "--write", path_str(&path)]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), "");
    let written = std::fs::read_to_string(&path).unwrap();
    assert!(written.contains("index gsi1 (gsi1pk, gsi1sk)"), "{written}");
    assert!(
        !written.contains("usersPinned(tenantId) -> User[] ="),
        "the pinned Query is dropped: {written}"
    );
    assert_eq!(errors(&written), Vec::new(), "{written}");
    // Every comment of the original is kept.
    for line in std::fs::read_to_string("examples/billing.dyno").unwrap().lines() {
        if line.trim_start().starts_with("//") {
            assert!(written.contains(line.trim()), "lost `{line}`");
        }
    }
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let missing = dyno(&["design", "tests/fixtures/design/nope.dyno"]);
    assert_eq!(missing.status.code(), Some(2), "{}", stderr(&missing));
    let scratch = Scratch::new("design-bad");
    let path = scratch.path().join("broken.dyno");
    std::fs::write(&path, "table T { key pk, sk }\nentity E { id: id\npattern p(id) -> E\n").unwrap();
    let broken = dyno(&["design", path_str(&path)]);
    assert_eq!(broken.status.code(), Some(1), "{}", stderr(&broken));
    assert!(stderr(&broken).contains("nothing designed"), "{}", stderr(&broken));
}

#[test]
fn the_documented_example_designs_as_docs_design_md_shows() {
    let markdown = std::fs::read_to_string("docs/design.md").unwrap();
    let blocks = common::markdown::blocks(&markdown);
    let input = blocks
        .iter()
        .find(|b| b.info == "dyno fails")
        .expect("the example's input");
    let output = blocks
        .iter()
        .find(|b| b.info == "dyno" && b.line > input.line)
        .expect("the example's output");
    let design = design::design(&input.code, &Options::default());
    assert_eq!(design.text, output.code, "docs/design.md's example is stale");
    let report = design::report(&design, true, false);
    let text = blocks
        .iter()
        .find(|b| b.info == "text" && b.line > output.line)
        .expect("the example's report");
    assert_eq!(report, text.code, "docs/design.md's report is stale");
}
