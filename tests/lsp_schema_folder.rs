//! A schema folder (a `dyno.json` beside its `.dyno` files) in the real
//! `dyno lsp`: a document is analysed with its folder's other files (open
//! ones as the editor has them, the rest from disk), gives the CLI's
//! diagnostics, goes to definitions and finds references in the other
//! files, renames across them, and follows the disk through the watcher.

mod common;

use std::path::{Path, PathBuf};

use common::lsp_client::{LspClient, TIMEOUT, file_uri};
use common::rng::Rng;
use common::scratch::Scratch;
use serde_json::{Value, json};

const FOLDER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/schema_folder");

/// A copy of a fixture folder, so the test may change its files on disk.
fn copy(scratch: &Scratch, name: &str) -> PathBuf {
    scratch.copy_folder(&Path::new(FOLDER).join(name), name)
}

fn start(folder: &Path) -> LspClient {
    let capabilities = json!({ "workspace": { "didChangeWatchedFiles": { "dynamicRegistration": true } } });
    let (client, _) = LspClient::start_with(capabilities, &[folder.to_path_buf()]);
    client
}

fn open(client: &mut LspClient, path: &Path) -> (String, String) {
    let uri = file_uri(path);
    let text = std::fs::read_to_string(path).unwrap();
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "dyno", "version": 1, "text": text } }),
    );
    (uri, text)
}

/// The next publish for `uri`, as `code@line` sorted.
fn next_codes(client: &mut LspClient, uri: &str) -> Vec<String> {
    let params = client.wait_for_notification("textDocument/publishDiagnostics", |p| p["uri"] == uri, TIMEOUT);
    let mut codes: Vec<String> = params["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| format!("{}@{}", d["code"].as_str().unwrap(), d["range"]["start"]["line"]))
        .collect();
    codes.sort();
    codes
}

/// What `dyno check --format json` reports for one file of the folder.
fn cli_codes(folder: &Path, file: &str) -> Vec<String> {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_dyno"))
        .args(["check", "--format", "json", folder.to_str().unwrap()])
        .output()
        .unwrap();
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    let mut codes: Vec<String> = json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["file"].as_str().unwrap().ends_with(file))
        .map(|d| {
            format!(
                "{}@{}",
                d["code"].as_str().unwrap(),
                d["range"]["start"]["line"].as_u64().unwrap() - 1
            )
        })
        .collect();
    codes.sort();
    codes
}

fn position_of(text: &str, needle: &str) -> Value {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} not in the text"));
    let line = text[..at].matches('\n').count();
    let column = at - text[..at].rfind('\n').map_or(0, |n| n + 1);
    json!({ "line": line, "character": column })
}

#[test]
fn a_document_of_a_folder_gets_the_clis_diagnostics_and_crosses_files() {
    let scratch = Scratch::new("lsp-folder");
    let folder = copy(&scratch, "broken");
    let mut client = start(&folder);
    // The server watches the schema files (and dyno.json) on disk.
    let registration = client.wait_for_server_request("client/registerCapability", TIMEOUT);
    let watchers = &registration["registrations"][0];
    assert_eq!(watchers["method"], "workspace/didChangeWatchedFiles", "{registration}");

    let (patterns, text) = open(&mut client, &folder.join("patterns.dyno"));
    let published = next_codes(&mut client, &patterns);
    // The same as the CLI on the folder: E201 ×3 and E203, nothing about
    // entities or tables missing (they are in the other files).
    assert_eq!(published, cli_codes(&folder, "patterns.dyno"));
    assert_eq!(
        published.iter().filter(|c| c.starts_with("E201")).count(),
        3,
        "{published:?}"
    );

    // `User` in a pattern leads to tenants.dyno, which is not open.
    let at = position_of(&text, "-> User[]\n");
    let at = json!({ "line": at["line"], "character": at["character"].as_u64().unwrap() + 3 });
    let params = json!({ "textDocument": { "uri": patterns }, "position": at });
    let definition = client.result("textDocument/definition", params.clone());
    let targets: Vec<&str> = definition
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["uri"].as_str().unwrap())
        .collect();
    let tenants = file_uri(&folder.join("tenants.dyno"));
    assert!(targets.contains(&tenants.as_str()), "{definition:#}");

    let references = client.result(
        "textDocument/references",
        json!({ "textDocument": { "uri": patterns }, "position": at, "context": { "includeDeclaration": true } }),
    );
    let mut files: Vec<&str> = references
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["uri"].as_str().unwrap())
        .collect();
    files.sort();
    files.dedup();
    assert_eq!(files, [patterns.as_str(), tenants.as_str()], "{references:#}");

    // The fix of listUsers's E201 adds an index in tables.dyno and its keys
    // in tenants.dyno: one change per file, none dropped.
    let at_list = position_of(&text, "listUsers");
    let actions = client.result(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": patterns }, "range": { "start": at_list, "end": at_list },
                "context": { "diagnostics": [] } }),
    );
    let fix = actions
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["kind"] == "quickfix" && a["title"].as_str().unwrap().contains("gsi2"))
        .unwrap_or_else(|| panic!("a fix adding gsi2: {actions:#}"));
    let mut edited: Vec<&str> = fix["edit"]["changes"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    edited.sort();
    let tables = file_uri(&folder.join("tables.dyno"));
    let mut expected = vec![tables.as_str(), tenants.as_str()];
    expected.sort();
    assert_eq!(edited, expected, "{fix:#}");

    // Lenses and hints only for what a file declares: tables.dyno has its
    // table's lens, no pattern's.
    let (tables_doc, _) = open(&mut client, &folder.join("tables.dyno"));
    let lenses = client.result(
        "textDocument/codeLens",
        json!({ "textDocument": { "uri": tables_doc } }),
    );
    let titles: Vec<&str> = lenses
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["command"]["title"].as_str().unwrap())
        .collect();
    assert_eq!(titles, ["View table"], "{lenses:#}");
    let hints = client.result(
        "textDocument/inlayHint",
        json!({ "textDocument": { "uri": tables_doc },
                "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 100, "character": 0 } } }),
    );
    assert!(hints.as_array().is_none_or(|h| h.is_empty()), "{hints:#}");

    // Renaming `User` edits both files.
    let rename = client.result(
        "textDocument/rename",
        json!({ "textDocument": { "uri": patterns }, "position": at, "newName": "Member" }),
    );
    let changes = rename["changes"].as_object().unwrap();
    assert!(!changes[&patterns].as_array().unwrap().is_empty(), "{rename:#}");
    let declaration = changes[&tenants].as_array().unwrap();
    assert!(
        declaration.iter().any(|e| e["newText"] == "Member"),
        "the declaration in tenants.dyno is renamed: {rename:#}"
    );
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

#[test]
fn an_edit_in_one_file_and_a_change_on_disk_republish_the_others() {
    let scratch = Scratch::new("lsp-folder-edit");
    let folder = copy(&scratch, "billing");
    let mut client = start(&folder);
    let (patterns, _) = open(&mut client, &folder.join("patterns.dyno"));
    assert_eq!(
        next_codes(&mut client, &patterns),
        Vec::<String>::new(),
        "the folder checks clean"
    );

    // Opened and edited in the editor: User's sort key loses its tag, and
    // the pinned Query in patterns.dyno no longer matches it.
    let (tenants, text) = open(&mut client, &folder.join("tenants.dyno"));
    next_codes(&mut client, &tenants);
    // patterns.dyno is published again with tenants.dyno's open text.
    next_codes(&mut client, &patterns);
    let start = position_of(&text, "\"USER#{userId}\"");
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": tenants, "version": 2 }, "contentChanges": [{
            "range": { "start": start, "end": { "line": start["line"], "character": start["character"].as_u64().unwrap() + 6 } },
            "text": "\"MEMBER#" }] }),
    );
    let after = next_codes(&mut client, &patterns);
    assert!(
        after.iter().any(|c| c.starts_with('E')),
        "patterns.dyno sees the edit: {after:?}"
    );

    // Closed unsaved: the disk's text counts again.
    client.notify("textDocument/didClose", json!({ "textDocument": { "uri": tenants } }));
    let closed = loop {
        let codes = next_codes(&mut client, &patterns);
        if codes.is_empty() {
            break codes;
        }
    };
    assert!(closed.is_empty());

    // On disk: invoices.dyno goes away; the watcher's notice brings the
    // patterns that return Invoice errors.
    std::fs::remove_file(folder.join("invoices.dyno")).unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": file_uri(&folder.join("invoices.dyno")), "type": 3 }] }),
    );
    let removed = next_codes(&mut client, &patterns);
    assert!(!removed.is_empty(), "patterns returning Invoice are errors now");
    assert_eq!(removed, cli_codes(&folder, "patterns.dyno"));

    // Without dyno.json, patterns.dyno is a schema of its own.
    std::fs::remove_file(folder.join("dyno.json")).unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": file_uri(&folder.join("dyno.json")), "type": 3 }] }),
    );
    let alone = next_codes(&mut client, &patterns);
    assert!(alone.len() > removed.len(), "alone, no entity is known: {alone:?}");
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

/// A client that pulls diagnostics gets a new report for a document when
/// another file of its folder changed, not `unchanged` for its own text.
#[test]
fn a_pulled_report_changes_when_another_file_of_the_folder_does() {
    let scratch = Scratch::new("lsp-folder-pull");
    let folder = copy(&scratch, "billing");
    let mut client = start(&folder);
    let (patterns, _) = open(&mut client, &folder.join("patterns.dyno"));
    let pull = |client: &mut LspClient, previous: Option<&str>| {
        client.result(
            "textDocument/diagnostic",
            json!({ "textDocument": { "uri": patterns }, "previousResultId": previous }),
        )
    };
    let first = pull(&mut client, None);
    assert_eq!(first["kind"], "full");
    assert_eq!(first["items"], json!([]), "{first:#}");
    let id = first["resultId"].as_str().unwrap().to_string();
    assert_eq!(pull(&mut client, Some(&id))["kind"], "unchanged");

    let (tenants, text) = open(&mut client, &folder.join("tenants.dyno"));
    let start = position_of(&text, "\"USER#{userId}\"");
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": tenants, "version": 2 }, "contentChanges": [{
            "range": { "start": start, "end": { "line": start["line"], "character": start["character"].as_u64().unwrap() + 6 } },
            "text": "\"MEMBER#" }] }),
    );
    let after = pull(&mut client, Some(&id));
    assert_eq!(after["kind"], "full", "{after:#}");
    assert!(!after["items"].as_array().unwrap().is_empty(), "{after:#}");
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

/// Random requests on every file of a folder, while one of them is edited
/// into shapes its neighbours' spans do not fit: nothing fails inside the
/// server (a span of one file read in another's text would).
#[test]
fn random_requests_across_a_folders_files_never_fail_internally() {
    let scratch = Scratch::new("lsp-folder-random");
    let folder = copy(&scratch, "broken");
    let mut client = start(&folder);
    let mut docs = Vec::new();
    for name in ["patterns.dyno", "tables.dyno", "tenants.dyno", "invoices.dyno"] {
        docs.push(open(&mut client, &folder.join(name)));
    }
    let methods = [
        "textDocument/hover",
        "textDocument/definition",
        "textDocument/completion",
        "textDocument/references",
        "textDocument/rename",
        "textDocument/inlayHint",
        "textDocument/codeAction",
        "textDocument/codeLens",
        "textDocument/documentHighlight",
        "textDocument/signatureHelp",
        "textDocument/semanticTokens/full",
    ];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut below = |n: usize| rng.below(n);
    let mut version = 1;
    for round in 0..5 {
        let mut ids = Vec::new();
        for _ in 0..60 {
            let (uri, text) = &docs[below(docs.len())];
            let method = methods[below(methods.len())];
            let lines = text.lines().count() + 2;
            let position = json!({ "line": below(lines), "character": below(80) });
            let document = json!({ "uri": uri });
            let params = match method {
                "textDocument/references" => json!({ "textDocument": document, "position": position,
                    "context": { "includeDeclaration": true } }),
                "textDocument/rename" => {
                    json!({ "textDocument": document, "position": position, "newName": "Renamed" })
                }
                "textDocument/inlayHint" | "textDocument/codeAction" => json!({ "textDocument": document,
                    "range": { "start": position, "end": { "line": below(lines), "character": 0 } },
                    "context": { "diagnostics": [] } }),
                "textDocument/codeLens" | "textDocument/semanticTokens/full" => json!({ "textDocument": document }),
                _ => json!({ "textDocument": document, "position": position }),
            };
            ids.push((client.send_request(method, params.clone()), method, params));
        }
        // tables.dyno shrinks and grows under the others' analyses.
        version += 1;
        let (uri, text) = &mut docs[1];
        let cut = if round % 2 == 0 {
            ""
        } else {
            "table Billing {\n  key pk, sk\n  index gsi1 (gsi1pk, gsi1sk)\n}\n"
        };
        *text = format!(
            "{cut}\n// round {round}\n{}",
            if round % 2 == 0 { "" } else { text.as_str() }
        );
        client.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": [{ "text": text }] }),
        );
        client.expect_answered(ids, round);
    }
    assert!(client.is_running());
    let internal = client.logged_errors();
    assert!(internal.is_empty(), "errors logged: {internal:#?}");
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}
