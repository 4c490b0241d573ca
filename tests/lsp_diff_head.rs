//! The language server compares an open schema with its version at git
//! `HEAD` when the `diffAgainstHead` setting is on (off by default): a key
//! template changed since the commit is a warning on its line, and the
//! hover there gives the migration.

mod common;

use serde_json::{Value, json};

use common::lsp_client::{LspClient, file_uri};
use common::scratch::Scratch;

const PAIR: &str = "tests/diff/migration-prefix-renamed";

/// A repository whose `HEAD` has the old schema; the new text and its URI.
fn repository(scratch: &Scratch) -> (String, String) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let old = std::fs::read_to_string(root.join(PAIR).join("old.dyno")).unwrap();
    let new = std::fs::read_to_string(root.join(PAIR).join("new.dyno")).unwrap();
    scratch.git(&["init", "-q"]);
    let path = scratch.file("schema.dyno", &old);
    scratch.git(&["add", "schema.dyno"]);
    scratch.git(&["commit", "-q", "-m", "old"]);
    (new, file_uri(&path))
}

fn started(options: Value) -> LspClient {
    let mut client = LspClient::spawn();
    let response = client.request(
        "initialize",
        json!({ "processId": null, "rootUri": null, "capabilities": {}, "initializationOptions": options }),
    );
    assert!(response.get("result").is_some(), "{response}");
    client.notify("initialized", json!({}));
    client
}

fn open(client: &mut LspClient, uri: &str, text: &str, version: i64) -> Vec<Value> {
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "dyno", "version": version, "text": text } }),
    );
    client.diagnostics_for(uri, version)
}

fn from_diff(diagnostics: &[Value]) -> Vec<&Value> {
    diagnostics.iter().filter(|d| d["source"] == "dyno diff").collect()
}

#[test]
fn with_the_setting_a_template_changed_since_head_warns_and_hovers_its_migration() {
    let scratch = Scratch::new("lsp-diff-head");
    let (new, uri) = repository(&scratch);
    let mut client = started(json!({ "diffAgainstHead": true }));
    let diagnostics = open(&mut client, &uri, &new, 1);
    let warnings = from_diff(&diagnostics);
    let template = warnings
        .iter()
        .find(|d| d["code"] == "diff:migration")
        .unwrap_or_else(|| panic!("{diagnostics:#?}"));
    assert_eq!(template["severity"], 2, "a warning");
    // `  pk = "U#{userId}"` is line 12 (11 zero-based).
    assert_eq!(template["range"]["start"], json!({ "line": 11, "character": 2 }));
    assert!(
        template["message"]
            .as_str()
            .unwrap()
            .contains("was: pk = \"USER#{userId}\"")
    );
    let hover = client.result(
        "textDocument/hover",
        json!({ "textDocument": { "uri": uri }, "position": { "line": 11, "character": 6 } }),
    );
    let markdown = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(markdown.contains("Migration:"), "{hover}");
    assert!(
        markdown.contains("write it again with the new keys pk `U#{userId}`"),
        "{markdown}"
    );
    client.shutdown_and_exit();
}

#[test]
fn without_the_setting_nothing_is_compared_until_it_is_turned_on() {
    let scratch = Scratch::new("lsp-diff-head-off");
    let (new, uri) = repository(&scratch);
    let mut client = started(Value::Null);
    let diagnostics = open(&mut client, &uri, &new, 1);
    assert!(from_diff(&diagnostics).is_empty(), "{diagnostics:#?}");
    client.notify(
        "workspace/didChangeConfiguration",
        json!({ "settings": { "dyno": { "diffAgainstHead": true } } }),
    );
    let params = client.wait_for_notification(
        "textDocument/publishDiagnostics",
        |p| {
            p["uri"] == uri
                && p["diagnostics"]
                    .as_array()
                    .is_some_and(|d| d.iter().any(|d| d["source"] == "dyno diff"))
        },
        std::time::Duration::from_secs(20),
    );
    assert!(!params["diagnostics"].as_array().unwrap().is_empty());
    client.shutdown_and_exit();
}

/// A document of a schema folder is compared as the folder: its files at
/// `HEAD` against the files now (open ones as edited). The changed template
/// warns in its own file; the pattern it breaks warns in the other one,
/// and nothing else does (a file alone at `HEAD` would miss its tables).
#[test]
fn a_schema_folder_is_compared_with_the_folder_at_head() {
    let scratch = Scratch::new("lsp-diff-head-folder");
    let source = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/schema_folder/billing");
    scratch.copy_folder(&source, "billing");
    scratch.git(&["init", "-q"]);
    scratch.git(&["add", "."]);
    scratch.git(&["commit", "-q", "-m", "billing"]);
    let folder = scratch.path().join("billing");
    let mut client = started(json!({ "diffAgainstHead": true }));

    let patterns = file_uri(&folder.join("patterns.dyno"));
    let patterns_text = std::fs::read_to_string(folder.join("patterns.dyno")).unwrap();
    let unchanged = open(&mut client, &patterns, &patterns_text, 1);
    assert!(from_diff(&unchanged).is_empty(), "{unchanged:#?}");

    let tenants = file_uri(&folder.join("tenants.dyno"));
    let text = std::fs::read_to_string(folder.join("tenants.dyno"))
        .unwrap()
        .replace("gsi1sk = \"USER#{userId}\"", "gsi1sk = \"MEMBER#{userId}\"");
    let diagnostics = open(&mut client, &tenants, &text, 1);
    let warnings = from_diff(&diagnostics);
    assert_eq!(warnings.len(), 1, "{diagnostics:#?}");
    assert_eq!(warnings[0]["code"], "diff:migration");
    assert_eq!(warnings[0]["range"]["start"], json!({ "line": 20, "character": 2 }));
    assert!(
        warnings[0]["message"]
            .as_str()
            .unwrap()
            .contains("was: gsi1sk = \"USER#{userId}\"")
    );
    // The edit of tenants.dyno republishes patterns.dyno: `allAdmins`
    // reads `MEMBER#` now.
    let republished = client.wait_for_notification(
        "textDocument/publishDiagnostics",
        |p| {
            p["uri"] == patterns
                && p["diagnostics"]
                    .as_array()
                    .is_some_and(|d| d.iter().any(|d| d["source"] == "dyno diff"))
        },
        std::time::Duration::from_secs(20),
    );
    let in_patterns: Vec<&Value> = republished["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["source"] == "dyno diff")
        .collect();
    assert_eq!(in_patterns.len(), 1, "{republished:#}");
    assert_eq!(in_patterns[0]["code"], "diff:breaks-readers");
    assert_eq!(in_patterns[0]["range"]["start"]["line"], 33);
    client.shutdown_and_exit();
}
