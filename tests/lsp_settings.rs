//! Settings through the real `dyno lsp` (docs/lsp.md, "Settings"): the
//! cost model's `defaults` from `workspace/configuration`, from a pushed
//! `didChangeConfiguration` and from a schema folder's `dyno.json` (which
//! wins, as `dyno check` reads it); and the `positionEncoding`
//! initialization option. Severity overrides are tested in lsp_e2e.rs.

mod common;

use std::time::{Duration, Instant};

use common::lsp_client::{LspClient, file_uri};
use common::scratch::Scratch;
use serde_json::{Value, json};

const BILLING: &str = include_str!("../examples/billing.dyno");
const TIMEOUT: Duration = Duration::from_secs(20);

fn open(client: &mut LspClient, uri: &str, text: &str) {
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "dyno", "version": 1, "text": text } }),
    );
}

/// The title of the first lens on the pattern `name` (how it is read).
fn read_lens(client: &mut LspClient, uri: &str, name: &str) -> String {
    let lenses = client.result("textDocument/codeLens", json!({ "textDocument": { "uri": uri } }));
    lenses
        .as_array()
        .into_iter()
        .flatten()
        .find(|l| l["command"]["arguments"][1] == name)
        .map(|l| l["command"]["title"].as_str().unwrap().to_string())
        .unwrap_or_default()
}

/// Asks for the lens until it reads `expected`: settings are applied in
/// the background, so the first answers may come before them.
fn wait_for_lens(client: &mut LspClient, uri: &str, name: &str, expected: &str) {
    let deadline = Instant::now() + TIMEOUT;
    loop {
        let title = read_lens(client, uri, name);
        if title == expected {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "the lens on {name} stayed {title:?}, not {expected:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn hover_at(client: &mut LspClient, uri: &str, text: &str, needle: &str) -> String {
    let offset = text.find(needle).unwrap();
    let line = text[..offset].matches('\n').count();
    let character = offset - text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let hover = client.result(
        "textDocument/hover",
        json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": character } }),
    );
    hover["contents"]["value"].as_str().unwrap_or_default().to_string()
}

/// `listUsers` (`-> User[]`, no hints) costs 0.5 RCU with the built-in
/// defaults (10 items of 217 B); the setting's 200 items of 1 KB strings
/// make it 29 RCU, a pushed section of 20 items 1 RCU (and the client is
/// asked to refresh its lenses and inlay hints), and a section without
/// `defaults` goes back to the built-in ones. The figures are the
/// CLI's for a folder whose `dyno.json` says the same
/// (tests/schema_folder_cli.rs).
#[test]
fn defaults_from_the_settings_change_the_costs_in_lenses_and_hovers() {
    let mut client = LspClient::spawn();
    client.answer(
        "workspace/configuration",
        json!([{ "defaults": { "items": 200, "sizes": { "string": "1KB", "blob": 3 } } }]),
    );
    let response = client.request(
        "initialize",
        json!({ "processId": null, "rootUri": null,
                "capabilities": { "workspace": { "configuration": true,
                    "codeLens": { "refreshSupport": true }, "inlayHint": { "refreshSupport": true } } } }),
    );
    assert!(response["result"].is_object(), "{response}");
    client.notify("initialized", json!({}));
    let uri = "file:///dyno-settings/billing.dyno";
    open(&mut client, uri, BILLING);
    wait_for_lens(&mut client, uri, "listUsers", "table · Query · 29 RCU");
    let ignored = client.wait_for_notification("window/logMessage", |p| p["type"] == 2, TIMEOUT);
    assert!(ignored["message"].as_str().unwrap().contains("sizes.blob"), "{ignored}");
    let hover = hover_at(&mut client, uri, BILLING, "listUsers");
    assert!(hover.contains("200 items per `E[]` without `~N`"), "{hover}");

    client.notify(
        "workspace/didChangeConfiguration",
        json!({ "settings": { "dyno": { "defaults": { "items": 20 } } } }),
    );
    // The client is told its lenses and hints (which show costs) are stale.
    client.wait_for_server_request("workspace/codeLens/refresh", TIMEOUT);
    client.wait_for_server_request("workspace/inlayHint/refresh", TIMEOUT);
    wait_for_lens(&mut client, uri, "listUsers", "table · Query · 1 RCU");
    let hover = hover_at(&mut client, uri, BILLING, "listUsers");
    assert!(hover.contains("~20 items × 217 B"), "{hover}");

    // Announced without the section: fetched again, and it has none.
    client.answer("workspace/configuration", json!([{}]));
    client.notify("workspace/didChangeConfiguration", json!({ "settings": null }));
    wait_for_lens(&mut client, uri, "listUsers", "table · Query · 0.5 RCU");
    assert!(client.logged_errors().is_empty(), "{:?}", client.logged_errors());
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

/// In a schema folder the project's `dyno.json` is read over the editor
/// setting, key by key, so the editor shows what `dyno check` in CI does;
/// a change of the file on disk reaches the open documents.
#[test]
fn a_folders_dyno_json_defaults_win_over_the_editor_setting() {
    let scratch = Scratch::new("lsp-settings-folder");
    let source = std::path::Path::new("tests/fixtures/schema_folder/billing");
    for entry in std::fs::read_dir(source).unwrap() {
        let path = entry.unwrap().path();
        scratch.file(
            path.file_name().unwrap().to_str().unwrap(),
            std::fs::read(&path).unwrap(),
        );
    }
    scratch.file("dyno.json", r#"{"defaults": {"items": 200}}"#);
    let capabilities = json!({ "workspace": { "didChangeWatchedFiles": { "dynamicRegistration": true } } });
    let mut client = LspClient::spawn();
    let response = client.request(
        "initialize",
        json!({ "processId": null, "rootUri": null, "capabilities": capabilities,
                "initializationOptions": { "defaults": { "items": 20, "sizes": { "string": "1KB" } } },
                "workspaceFolders": [{ "uri": file_uri(scratch.path()), "name": "billing" }] }),
    );
    assert!(response["result"].is_object(), "{response}");
    client.notify("initialized", json!({}));
    let patterns = scratch.path().join("patterns.dyno");
    let uri = file_uri(&patterns);
    open(&mut client, &uri, &std::fs::read_to_string(&patterns).unwrap());
    // 200 items from dyno.json, 1 KB strings from the editor.
    wait_for_lens(&mut client, &uri, "listUsers", "table · Query · 29 RCU");

    std::fs::write(scratch.path().join("dyno.json"), "{}").unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": file_uri(&scratch.path().join("dyno.json")), "type": 2 }] }),
    );
    // The editor's 20 items of 1 KB strings now.
    wait_for_lens(&mut client, &uri, "listUsers", "table · Query · 3 RCU");
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

fn negotiated(options: Value) -> Value {
    let mut client = LspClient::spawn();
    let response = client.request(
        "initialize",
        json!({ "processId": null, "rootUri": null, "initializationOptions": options,
                "capabilities": { "general": { "positionEncodings": ["utf-8", "utf-16"] } } }),
    );
    let encoding = response["result"]["capabilities"]["positionEncoding"].clone();
    client.notify("initialized", json!({}));
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
    encoding
}

/// UTF-8 when the client offers it, unless `positionEncoding` asks for
/// UTF-16 (a client whose plugins count in UTF-16).
#[test]
fn the_position_encoding_option_keeps_utf16_for_a_client_that_offers_utf8() {
    assert_eq!(negotiated(Value::Null), "utf-8");
    assert_eq!(negotiated(json!({ "positionEncoding": "utf-16" })), "utf-16");
    assert_eq!(negotiated(json!({ "positionEncoding": "utf-8" })), "utf-8");
}
