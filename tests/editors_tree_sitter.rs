//! tree-sitter-dyno (editors/tree-sitter) driven by the tree-sitter CLI:
//! its corpus and highlight tests, a parse of every file the dyno parser
//! accepts (which must have no ERROR or MISSING node), and each query file
//! run over the examples.
//!
//! The CLI is `DYNO_TREE_SITTER`, else `tree-sitter` on the PATH; these
//! tests run only when asked for (`--include-ignored`), and then need it.
//! `.ci/run` installs it with `cargo install --locked tree-sitter-cli`.
//! The CLI compiles the parser with the C compiler (`cc`).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use common::tools;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn grammar_dir() -> PathBuf {
    root().join("editors/tree-sitter")
}

/// The CLI: `DYNO_TREE_SITTER`, else `tree-sitter` on the PATH.
fn cli() -> String {
    tools::program(
        "DYNO_TREE_SITTER",
        "tree-sitter",
        "cargo install --locked tree-sitter-cli@0.27.1",
    )
}

/// A command of the CLI with its own configuration directory, so that no
/// user configuration or parser directory is read.
fn tree_sitter(scratch: &Path) -> Command {
    let mut command = Command::new(cli());
    command.env("TREE_SITTER_DIR", scratch.join("config"));
    command.env("NO_COLOR", "1");
    command
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dyno-tree-sitter-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("config")).unwrap();
    dir
}

fn dyno_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            dyno_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "dyno") {
            out.push(path);
        }
    }
}

/// Every schema that `dyno::syntax::parse` reads without a diagnostic: the
/// examples, the fixtures and the docs' `dyno` code blocks (written to
/// `scratch`). Returns their paths and how many were left out.
fn accepted_schemas(scratch: &Path) -> (Vec<PathBuf>, usize) {
    let mut candidates = Vec::new();
    dyno_files(&root().join("examples"), &mut candidates);
    dyno_files(&root().join("tests/fixtures"), &mut candidates);
    let mut docs = vec![root().join("README.md")];
    let mut pages: Vec<_> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    docs.extend(pages);
    let blocks_dir = scratch.join("docs");
    std::fs::create_dir_all(&blocks_dir).unwrap();
    for page in docs {
        let markdown = std::fs::read_to_string(&page).unwrap();
        let stem = page.file_stem().unwrap().to_string_lossy().into_owned();
        for block in common::markdown::blocks(&markdown) {
            if block.info == "dyno" {
                let path = blocks_dir.join(format!("{stem}-{}.dyno", block.line));
                std::fs::write(&path, &block.code).unwrap();
                candidates.push(path);
            }
        }
    }
    let total = candidates.len();
    let accepted: Vec<PathBuf> = candidates
        .into_iter()
        .filter(|path| {
            let text = std::fs::read_to_string(path).unwrap();
            dyno::syntax::parse(&text).diagnostics.is_empty()
        })
        .collect();
    let left_out = total - accepted.len();
    eprintln!(
        "{} schemas the dyno parser accepts, {left_out} it rejects",
        accepted.len()
    );
    (accepted, left_out)
}

#[test]
#[ignore = "needs the tree-sitter CLI (DYNO_TREE_SITTER or on PATH; README: Tests)"]
fn corpus_and_highlight_tests_pass() {
    let scratch = scratch("test");
    let out = tools::run(
        "tree-sitter test",
        tree_sitter(&scratch).arg("test").current_dir(grammar_dir()),
        Duration::from_secs(300),
    );
    assert!(out.contains("successful parses"), "no corpus test ran:\n{out}");
    assert!(!out.contains('✗'), "a tree-sitter test failed:\n{out}");
    assert!(out.contains("basics.dyno"), "the highlight test did not run:\n{out}");
}

#[test]
#[ignore = "needs the tree-sitter CLI (DYNO_TREE_SITTER or on PATH; README: Tests)"]
fn parses_every_schema_the_dyno_parser_accepts_without_error_nodes() {
    let scratch = scratch("parse");
    let (accepted, left_out) = accepted_schemas(&scratch);
    // The examples, the clean fixtures and the docs' blocks: a collapse of
    // this count would make the test pass on nothing.
    assert!(
        accepted.len() >= 200,
        "only {} schemas accepted ({left_out} left out)",
        accepted.len()
    );
    let list = scratch.join("paths.txt");
    let paths: Vec<String> = accepted.iter().map(|p| p.display().to_string()).collect();
    std::fs::write(&list, paths.join("\n")).unwrap();
    let mut command = tree_sitter(&scratch);
    command
        .arg("parse")
        .arg("--quiet")
        .arg("--grammar-path")
        .arg(grammar_dir())
        .arg("--paths")
        .arg(&list);
    let out = tools::run("tree-sitter parse", &mut command, Duration::from_secs(300));
    let bad: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("ERROR") || l.contains("MISSING"))
        .collect();
    assert!(
        bad.is_empty(),
        "tree-sitter-dyno rejects schemas dyno accepts:\n{}",
        bad.join("\n")
    );

    // And every file is really parsed: the tree of one example holds each
    // kind of item.
    let tree = tools::run(
        "tree-sitter parse",
        tree_sitter(&scratch)
            .arg("parse")
            .arg("--grammar-path")
            .arg(grammar_dir())
            .arg(root().join("examples/shop.dyno")),
        Duration::from_secs(120),
    );
    for node in [
        "(table",
        "(entity",
        "(pattern",
        "(pinned_query",
        "(hole",
        "(doc_comment",
    ] {
        assert!(
            tree.contains(node),
            "no {node} in the tree of examples/shop.dyno:\n{tree}"
        );
    }
}

#[test]
#[ignore = "needs the tree-sitter CLI (DYNO_TREE_SITTER or on PATH) and node (README: Tests)"]
fn the_committed_parser_is_generated_from_grammar_js() {
    tools::require(tools::on_path("node"), "node is not on PATH", "install Node.js 20");
    let scratch = scratch("generate");
    let copy = scratch.join("grammar");
    std::fs::create_dir_all(&copy).unwrap();
    for file in ["grammar.js", "tree-sitter.json"] {
        std::fs::copy(grammar_dir().join(file), copy.join(file)).unwrap();
    }
    tools::run(
        "tree-sitter generate",
        tree_sitter(&scratch).arg("generate").current_dir(&copy),
        Duration::from_secs(300),
    );
    for file in ["parser.c", "grammar.json", "node-types.json", "tree_sitter/parser.h"] {
        let fresh = std::fs::read(copy.join("src").join(file)).unwrap();
        let committed = std::fs::read(grammar_dir().join("src").join(file)).unwrap();
        assert!(
            fresh == committed,
            "editors/tree-sitter/src/{file} is not what grammar.js generates: run `tree-sitter generate` there and commit"
        );
    }
}

/// The captures `tree-sitter query` reports, by name.
fn captures(out: &str) -> std::collections::BTreeMap<String, usize> {
    let mut names = std::collections::BTreeMap::new();
    for line in out.lines() {
        // `capture: 1 - name, start: …, text: …` on one line; a capture
        // spanning lines is `capture: name, start: …`.
        if let Some(rest) = line.trim_start().strip_prefix("capture: ")
            && let Some((head, _)) = rest.split_once(',')
        {
            let name = head.split_once(" - ").map_or(head, |(_, name)| name);
            *names.entry(name.to_string()).or_insert(0) += 1;
        }
    }
    names
}

#[test]
#[ignore = "needs the tree-sitter CLI (DYNO_TREE_SITTER or on PATH; README: Tests)"]
fn every_query_compiles_and_captures_over_the_examples() {
    let scratch = scratch("query");
    let mut examples = Vec::new();
    dyno_files(&root().join("examples"), &mut examples);
    assert!(examples.len() >= 10);
    let mut all = std::collections::BTreeMap::new();
    let zed = root().join("editors/zed/languages/dyno");
    for (query, file) in [
        ("highlights", grammar_dir().join("queries/highlights.scm")),
        ("locals", grammar_dir().join("queries/locals.scm")),
        ("folds", grammar_dir().join("queries/folds.scm")),
        ("indents", grammar_dir().join("queries/indents.scm")),
        ("zed brackets", zed.join("brackets.scm")),
        ("zed outline", zed.join("outline.scm")),
    ] {
        let mut command = tree_sitter(&scratch);
        command
            .arg("query")
            .arg("--grammar-path")
            .arg(grammar_dir())
            .arg(file)
            .args(&examples);
        let out = tools::run(
            &format!("tree-sitter query {query}.scm"),
            &mut command,
            Duration::from_secs(300),
        );
        let names = captures(&out);
        assert!(!names.is_empty(), "{query}.scm captured nothing:\n{out}");
        all.insert(query, names);
    }
    let highlights = &all["highlights"];
    for name in [
        "keyword",
        "keyword.operator",
        "string",
        "punctuation.special", // a hole's braces
        "variable",            // a hole's name
        "comment",
        "comment.documentation",
        "constant.numeric",
        "type",
        "type.definition",
        "function",
        "variable.member",
        "variable.parameter",
        "operator",
    ] {
        assert!(
            highlights.contains_key(name),
            "highlights.scm never captures @{name}: {highlights:?}"
        );
    }
    for (query, name) in [
        ("locals", "local.scope"),
        ("locals", "local.definition"),
        ("locals", "local.reference"),
        ("folds", "fold"),
        ("indents", "indent"),
        ("indents", "outdent"),
        ("zed brackets", "open"),
        ("zed brackets", "close"),
        ("zed outline", "item"),
        ("zed outline", "name"),
        ("zed outline", "context"),
    ] {
        assert!(
            all[query].contains_key(name),
            "{query}.scm never captures @{name}: {:?}",
            all[query]
        );
    }
}

#[test]
#[ignore = "needs the tree-sitter CLI (DYNO_TREE_SITTER or on PATH; README: Tests)"]
fn builds_the_shared_library_helix_loads() {
    // docs/editors.md (Helix): `tree-sitter build -o …/runtime/grammars/dyno.so`
    // builds this one grammar; Helix loads `<name>.so` and calls
    // `tree_sitter_<name>`, the name of languages.toml's [[grammar]].
    let scratch = scratch("build");
    let library = scratch.join("grammars/dyno.so");
    std::fs::create_dir_all(library.parent().unwrap()).unwrap();
    tools::run(
        "tree-sitter build",
        tree_sitter(&scratch)
            .arg("build")
            .arg("-o")
            .arg(&library)
            .current_dir(grammar_dir()),
        Duration::from_secs(300),
    );
    let bytes = std::fs::read(&library).unwrap_or_else(|e| panic!("{}: {e}", library.display()));
    assert!(
        bytes
            .windows(b"tree_sitter_dyno\0".len())
            .any(|w| w == b"tree_sitter_dyno\0"),
        "{} does not export tree_sitter_dyno",
        library.display()
    );
}
