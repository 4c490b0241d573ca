//! The Zed extension (editors/zed): its manifest keeps Zed's rules for an
//! extension (a kebab-case id without "zed", the required fields, a grammar
//! at a full commit, a language server for a language the extension
//! defines), its language config names that grammar, and its queries are
//! tree-sitter-dyno's. No Zed needed.

mod common;

use std::path::{Path, PathBuf};

use common::toml_lines::{assert_same_queries, read, string, strings};

fn zed() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("editors/zed")
}

fn manifest() -> std::collections::BTreeMap<String, String> {
    read(&std::fs::read_to_string(zed().join("extension.toml")).unwrap())
}

fn language_config() -> std::collections::BTreeMap<String, String> {
    read(&std::fs::read_to_string(zed().join("languages/dyno/config.toml")).unwrap())
}

#[test]
fn manifest_has_a_kebab_case_id_and_every_required_field() {
    let m = manifest();
    let id = string(&m["id"]);
    let kebab = !id.is_empty()
        && id
            .split('-')
            .all(|part| !part.is_empty() && part.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit()));
    assert!(kebab, "the id `{id}` is not kebab-case");
    assert!(
        !id.contains("zed") && !id.contains("extension"),
        "Zed refuses ids with `zed` or `extension`: {id}"
    );
    assert_eq!(id, "dyno");
    assert!(!string(&m["name"]).is_empty());
    assert!(!string(&m["name"]).to_lowercase().contains("zed"));
    let version = string(&m["version"]);
    assert!(
        version.split('.').count() == 3 && version.split('.').all(|p| p.parse::<u64>().is_ok()),
        "version `{version}` is not semver"
    );
    assert_eq!(m["schema_version"], "1");
    assert!(!strings(&m["authors"]).is_empty(), "no authors");
    assert!(!string(&m["description"]).is_empty());
    assert!(!string(&m["repository"]).is_empty());
}

#[test]
fn grammar_and_language_server_agree_with_the_language() {
    let m = manifest();
    let config = language_config();
    let language = string(&config["name"]);
    assert_eq!(language, "dyno");

    // The grammar: one entry, the one the language names, at a full commit,
    // at the folder holding tree-sitter-dyno.
    let grammars: Vec<&String> = m.keys().filter(|k| k.starts_with("grammars.")).collect();
    assert!(!grammars.is_empty(), "no [grammars.*]");
    let grammar = string(&config["grammar"]);
    assert!(!string(&m[&format!("grammars.{grammar}.repository")]).is_empty());
    let rev = string(&m[&format!("grammars.{grammar}.rev")]);
    assert!(
        rev.len() == 40 && rev.chars().all(|c| c.is_ascii_hexdigit()),
        "rev `{rev}` is not a full commit"
    );
    let path = string(&m[&format!("grammars.{grammar}.path")]);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let grammar_dir = root.join(path);
    assert!(
        grammar_dir.join("src/parser.c").is_file(),
        "no generated parser in {path}"
    );
    let grammar_js = std::fs::read_to_string(grammar_dir.join("grammar.js")).unwrap();
    assert!(
        grammar_js.contains(&format!("name: '{grammar}'")),
        "{path}/grammar.js is not `{grammar}`"
    );

    // The rev holds this grammar, when the commit is in this clone (a
    // squashed history may not have it).
    let at_rev = std::process::Command::new("git")
        .args(["show", &format!("{rev}:{path}/grammar.js")])
        .current_dir(root)
        .output();
    match at_rev {
        Ok(out) if out.status.success() => assert!(
            String::from_utf8_lossy(&out.stdout) == grammar_js,
            "editors/zed/extension.toml: rev {rev} holds another {path}/grammar.js; set it to a commit with this one"
        ),
        _ => eprintln!("commit {rev} is not in this clone: its grammar is not compared"),
    }

    // The language server: started for this language, by src/lib.rs.
    let servers: Vec<&String> = m.keys().filter(|k| k.starts_with("language_servers.")).collect();
    assert!(!servers.is_empty(), "no [language_servers.*]");
    assert!(!string(&m["language_servers.dyno.name"]).is_empty());
    assert!(
        strings(&m["language_servers.dyno.languages"])
            .iter()
            .any(|l| l == language)
    );
    let lib = std::fs::read_to_string(zed().join("src/lib.rs")).unwrap();
    assert!(lib.contains("register_extension!") && lib.contains("\"lsp\"") && lib.contains("which(\"dyno\")"));
    let cargo = std::fs::read_to_string(zed().join("Cargo.toml")).unwrap();
    assert!(cargo.contains("crate-type = [\"cdylib\"]") && cargo.contains("zed_extension_api"));
    assert!(
        zed().join("Cargo.lock").is_file(),
        "editors/zed/Cargo.lock pins zed_extension_api's dependencies"
    );
}

#[test]
fn language_config_names_files_comments_and_brackets() {
    let config = language_config();
    assert!(strings(&config["path_suffixes"]).iter().any(|s| s == "dyno"));
    let comments = strings(&config["line_comments"]);
    assert!(comments.iter().any(|c| c == "// "), "line_comments: {comments:?}");
    let brackets = &config["brackets"];
    for pair in [
        "start = \"{\", end = \"}\"",
        "start = \"(\", end = \")\"",
        "start = \"[\", end = \"]\"",
    ] {
        assert!(brackets.contains(pair), "brackets lack {pair}: {brackets}");
    }
}

#[test]
fn queries_are_tree_sitter_dynos() {
    // brackets.scm and outline.scm are Zed's own (run by tests/editors_tree_sitter.rs).
    assert_same_queries(&zed().join("languages/dyno"), &["brackets.scm", "outline.scm"]);
}

/// Zed's registry takes an extension only with a LICENSE file of an accepted
/// license. The project has not chosen one yet, so the extension is for dev
/// installs (editors/zed/README.md); once the file is there, it must be one
/// Zed accepts.
#[test]
fn a_license_file_is_one_zed_accepts() {
    let Ok(license) = std::fs::read_to_string(zed().join("LICENSE")) else {
        eprintln!("editors/zed/LICENSE is missing: Zed's registry will refuse the extension");
        return;
    };
    let accepted = [
        "MIT License",
        "Apache License",
        "BSD",
        "GNU GENERAL PUBLIC LICENSE",
        "zlib",
    ];
    assert!(
        accepted.iter().any(|a| license.contains(a)),
        "not a license Zed accepts"
    );
}
