//! `completionItem/resolve` through the real `dyno lsp`: the list carries
//! no documentation; resolving an entity item adds its hover (keys, an
//! example item), and any other item comes back unchanged.

mod common;

use common::lsp_client::LspClient;
use serde_json::json;

const BILLING: &str = include_str!("../examples/billing.dyno");

#[test]
fn an_entity_item_is_documented_when_resolved() {
    let (mut client, result) = LspClient::start_with(json!({}), &[]);
    assert_eq!(result["capabilities"]["completionProvider"]["resolveProvider"], true);
    let uri = "file:///dyno-e2e/billing.dyno";
    let text = format!("{BILLING}\npattern more(tenantId) -> ");
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "dyno", "version": 1, "text": text } }),
    );
    client.diagnostics_for(uri, 1);
    let line = text.lines().count() - 1;
    let column = text.lines().last().unwrap().len();
    let list = client.result(
        "textDocument/completion",
        json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": column } }),
    );
    let items = list["items"].as_array().or(list.as_array()).expect("items").clone();
    let user = items.iter().find(|i| i["label"] == "User").expect("User is offered");
    assert!(user.get("documentation").is_none(), "not in the list: {user}");
    assert_eq!(user["data"]["name"], "User");

    let resolved = client.result("completionItem/resolve", user.clone());
    let docs = resolved["documentation"]["value"]
        .as_str()
        .expect("markdown documentation");
    assert_eq!(resolved["documentation"]["kind"], "markdown");
    // User's hover: its key templates.
    assert!(
        docs.contains("TENANT#{tenantId}") && docs.contains("USER#{userId}"),
        "{docs}"
    );
    assert_eq!(resolved["label"], "User");

    // An item without data (a keyword, say) is answered as it was sent.
    let plain = json!({ "label": "consistent", "kind": 14 });
    assert_eq!(client.result("completionItem/resolve", plain.clone()), plain);
    // A document that is gone: unchanged, no error.
    let gone = json!({ "label": "User", "data": { "uri": "file:///dyno-e2e/closed.dyno", "name": "User" } });
    assert_eq!(client.result("completionItem/resolve", gone.clone()), gone);
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}
