//! The Helix integration (editors/helix): the language entry, its language
//! server and grammar, and queries identical to tree-sitter-dyno's. No
//! Helix needed; the queries themselves are run by tests/editors_tree_sitter.rs.

mod common;

use std::path::{Path, PathBuf};

use common::toml_lines::{assert_same_queries, read, string, strings};

fn helix() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("editors/helix")
}

#[test]
fn language_entry_server_and_grammar() {
    let m = read(&std::fs::read_to_string(helix().join("languages.toml")).unwrap());
    assert_eq!(string(&m["language.name"]), "dyno");
    assert_eq!(string(&m["language.scope"]), "source.dyno");
    assert_eq!(strings(&m["language.file-types"]), ["dyno"]);
    assert_eq!(string(&m["language.comment-token"]), "//");
    assert_eq!(strings(&m["language.language-servers"]), ["dyno"]);
    assert_eq!(string(&m["language-server.dyno.command"]), "dyno");
    assert_eq!(strings(&m["language-server.dyno.args"]), ["lsp"]);
    assert_eq!(string(&m["grammar.name"]), "dyno");
    let source = &m["grammar.source"];
    assert!(
        source.contains("editors/tree-sitter"),
        "the grammar source is not tree-sitter-dyno: {source}"
    );

    // The scope is tree-sitter-dyno's.
    let config =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("editors/tree-sitter/tree-sitter.json"))
            .unwrap();
    assert!(config.contains("\"scope\": \"source.dyno\""));
}

#[test]
fn queries_are_tree_sitter_dynos() {
    assert_same_queries(&helix().join("queries/dyno"), &[]);
}
