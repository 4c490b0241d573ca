//! Code lenses through the real `dyno lsp`: "View table" above a table;
//! above each pattern how it is read (`gsi1 · Query · 0.5 RCU`) or its
//! errors, "Copy Query" and "Copy AWS CLI"; and the commands they run.

mod common;

use common::lsp_client::LspClient;
use serde_json::{Value, json};

const BILLING: &str = include_str!("../examples/billing.dyno");

fn doc_uri(name: &str) -> String {
    format!("file:///dyno-e2e/{name}")
}

fn open(client: &mut LspClient, uri: &str, text: &str) {
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "dyno", "version": 1, "text": text } }),
    );
    client.diagnostics_for(uri, 1);
}

fn lenses(client: &mut LspClient, uri: &str) -> Vec<Value> {
    let answer = client.result("textDocument/codeLens", json!({ "textDocument": { "uri": uri } }));
    answer.as_array().cloned().unwrap_or_default()
}

/// The lenses on the pattern `name`, by title.
fn on<'a>(lenses: &'a [Value], name: &str) -> Vec<&'a Value> {
    lenses.iter().filter(|l| l["command"]["arguments"][1] == name).collect()
}

fn line_of(text: &str, needle: &str) -> usize {
    text[..text.find(needle).unwrap()].matches('\n').count()
}

fn run(client: &mut LspClient, lens: &Value) -> Value {
    client.request(
        "workspace/executeCommand",
        json!({ "command": lens["command"]["command"], "arguments": lens["command"]["arguments"] }),
    )
}

/// The table's lens and the pattern's first lens run `dyno.view`, which
/// writes the DynoTable page of the open text and answers its path.
#[test]
fn lenses_say_how_each_pattern_is_read_and_open_the_dynotable_page() {
    let mut client = LspClient::start();
    let uri = doc_uri("billing.dyno");
    open(&mut client, &uri, BILLING);
    let lenses = lenses(&mut client, &uri);
    let patterns = BILLING.lines().filter(|l| l.starts_with("pattern ")).count();
    // billing.dyno checks clean: every pattern is served.
    assert_eq!(
        lenses.len(),
        1 + 3 * patterns,
        "a table and three per pattern: {lenses:#?}"
    );
    let table = &lenses[0];
    assert_eq!(table["command"]["title"], "View table");
    assert_eq!(table["command"]["arguments"].as_array().unwrap().len(), 1);

    let list_users = on(&lenses, "listUsers");
    let titles: Vec<&str> = list_users
        .iter()
        .map(|l| l["command"]["title"].as_str().unwrap())
        .collect();
    // listUsers reads a tenant's users from the table: one Query, half a
    // unit (eventually consistent, one 4 KB unit at most).
    assert_eq!(
        titles,
        ["table · Query · 0.5 RCU", "Copy Query", "Copy AWS CLI"],
        "{list_users:#?}"
    );
    for lens in &list_users {
        assert_eq!(lens["range"]["start"]["line"], line_of(BILLING, "pattern listUsers"));
    }
    let open_invoices = on(&lenses, "openInvoices");
    let title = open_invoices[0]["command"]["title"].as_str().unwrap();
    assert!(title.starts_with("gsi1 · Query · "), "{title}");

    let answer = run(&mut client, list_users[0])["result"].clone();
    let path = std::path::PathBuf::from(answer["path"].as_str().expect("a path"));
    let html = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let _ = std::fs::remove_file(&path);
    assert!(html.starts_with("<!doctype html>"), "{}", &html[..100.min(html.len())]);
    assert!(html.contains("<h1>billing.dyno</h1>"));
    let picked = html.lines().find(|l| l.contains(" selected>")).unwrap_or_default();
    assert!(picked.ends_with(">listUsers</option>"), "{picked}");

    // Not an open document, or not a command of ours: an error, and the
    // server keeps serving.
    let closed = client.request(
        "workspace/executeCommand",
        json!({ "command": "dyno.view", "arguments": [doc_uri("closed.dyno")] }),
    );
    assert!(
        closed["error"]["message"]
            .as_str()
            .unwrap()
            .contains("not an open document"),
        "{closed}"
    );
    let other = client.request(
        "workspace/executeCommand",
        json!({ "command": "dyno.other", "arguments": [] }),
    );
    assert!(other["error"].is_object(), "{other}");
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

/// "Copy Query" answers the request `dyno explain` prints; "Copy AWS CLI"
/// the same request as `aws dynamodb query --cli-input-json '…'`.
#[test]
fn copy_lenses_answer_the_request_and_the_aws_cli_command() {
    let mut client = LspClient::start();
    let uri = doc_uri("billing.dyno");
    open(&mut client, &uri, BILLING);
    let lenses = lenses(&mut client, &uri);
    let list_users = on(&lenses, "listUsers");

    let query = run(&mut client, list_users[1])["result"]["text"]
        .as_str()
        .expect("a text")
        .to_string();
    let request: Value = serde_json::from_str(&query).expect("the Query is JSON");
    assert_eq!(request["TableName"], "Billing", "{request:#}");
    assert!(request.get("IndexName").is_none(), "{request:#}");
    let condition = request["KeyConditionExpression"].as_str().unwrap();
    let values = request["ExpressionAttributeValues"].to_string();
    assert!(condition.contains("begins_with"), "{condition}");
    assert!(
        values.contains("TENANT#{tenantId}") && values.contains("USER#"),
        "{values}"
    );

    let cli = run(&mut client, list_users[2])["result"]["text"]
        .as_str()
        .expect("a text")
        .to_string();
    let json = cli
        .strip_prefix("aws dynamodb query --cli-input-json '")
        .and_then(|rest| rest.strip_suffix('\''))
        .unwrap_or_else(|| panic!("not one quoted query command: {cli}"));
    assert!(!json.contains('\n'), "one line: {cli}");
    assert_eq!(
        serde_json::from_str::<Value>(json).unwrap(),
        request,
        "the same request"
    );

    // The same request as `dyno explain --format json` prints for the file.
    let explained = std::process::Command::new(env!("CARGO_BIN_EXE_dyno"))
        .args([
            "explain",
            concat!(env!("CARGO_MANIFEST_DIR"), "/examples/billing.dyno"),
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    let explained: Value = serde_json::from_slice(&explained.stdout).expect("explain's JSON");
    let from_explain = explained["patterns"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["pattern"] == "listUsers")
        .map(|p| p["request"].clone());
    assert_eq!(from_explain, Some(request));
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

/// A pattern no single Query serves: one lens with its error count, no
/// copies, and a copy command for it is an error that says why.
#[test]
fn an_unserved_pattern_shows_its_errors_and_has_nothing_to_copy() {
    let text = BILLING.replace(
        "pattern listUsers(tenantId) -> User[]",
        "pattern listUsers(email) -> User[]",
    );
    assert_ne!(text, BILLING);
    let mut client = LspClient::start();
    let uri = doc_uri("unserved.dyno");
    open(&mut client, &uri, &text);
    let lenses = lenses(&mut client, &uri);
    let list_users = on(&lenses, "listUsers");
    assert_eq!(list_users.len(), 1, "{list_users:#?}");
    let title = list_users[0]["command"]["title"].as_str().unwrap();
    let errors = dyno::check::analyze(&text)
        .diagnostics()
        .iter()
        .filter(|d| d.severity == dyno::diagnostic::Severity::Error)
        .count();
    assert!(errors >= 1);
    let expected = if errors == 1 {
        "1 error".to_string()
    } else {
        format!("{errors} errors")
    };
    assert_eq!(title, expected);
    let copy = client.request(
        "workspace/executeCommand",
        json!({ "command": "dyno.copyQuery", "arguments": [uri, "listUsers"] }),
    );
    assert!(
        copy["error"]["message"]
            .as_str()
            .unwrap()
            .contains("no single Query serves `listUsers`"),
        "{copy}"
    );
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}
