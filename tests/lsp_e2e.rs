//! `dyno lsp` end to end: the built binary, spawned as an editor would,
//! speaking `Content-Length`-framed JSON-RPC over stdio. Every wait is
//! bounded (see `common::lsp_client`); nothing sleeps for a fixed time.

mod common;

use common::lsp_client::{LspClient, TIMEOUT, file_uri, frame};
use common::rng::Rng;
use serde_json::{Value, json};

const BILLING: &str = include_str!("../examples/billing.dyno");

// ---------------------------------------------------------------------------
// Text helpers: the protocol's line and column model, independently of the
// server. Lines end at `\n`, `\r\n` or a lone `\r`.
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq)]
enum Enc {
    Utf8,
    Utf16,
}

fn width(s: &str, enc: Enc) -> usize {
    match enc {
        Enc::Utf8 => s.len(),
        Enc::Utf16 => s.encode_utf16().count(),
    }
}

/// Byte offsets where each line starts.
fn line_starts(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut starts = vec![0];
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')) {
            starts.push(i + 1);
        }
    }
    starts
}

/// The content of line `line` without its line break.
fn line_content(text: &str, starts: &[usize], line: usize) -> (usize, usize) {
    let start = starts[line];
    let mut end = starts.get(line + 1).copied().unwrap_or(text.len());
    let bytes = text.as_bytes();
    if end > start && bytes[end - 1] == b'\n' {
        end -= 1;
    }
    if end > start && bytes[end - 1] == b'\r' {
        end -= 1;
    }
    (start, end)
}

fn position_of(text: &str, offset: usize, enc: Enc) -> Value {
    let starts = line_starts(text);
    let line = starts.partition_point(|&s| s <= offset) - 1;
    json!({ "line": line, "character": width(&text[starts[line]..offset], enc) })
}

fn offset_of(text: &str, position: &Value, enc: Enc) -> usize {
    let starts = line_starts(text);
    let line = position["line"].as_u64().unwrap() as usize;
    if line >= starts.len() {
        return text.len();
    }
    let (start, end) = line_content(text, &starts, line);
    let column = position["character"].as_u64().unwrap() as usize;
    let mut used = 0;
    for (i, c) in text[start..end].char_indices() {
        let w = match enc {
            Enc::Utf8 => c.len_utf8(),
            Enc::Utf16 => c.len_utf16(),
        };
        if used + w > column {
            return start + i;
        }
        used += w;
    }
    end
}

fn range_of(text: &str, start: usize, end: usize, enc: Enc) -> Value {
    json!({ "start": position_of(text, start, enc), "end": position_of(text, end, enc) })
}

/// Applies LSP `TextEdit`s (non-overlapping, against the same text).
fn apply_edits(text: &str, edits: &[Value], enc: Enc) -> String {
    let mut spans: Vec<(usize, usize, String)> = edits
        .iter()
        .map(|e| {
            (
                offset_of(text, &e["range"]["start"], enc),
                offset_of(text, &e["range"]["end"], enc),
                e["newText"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    spans.sort_by_key(|s| std::cmp::Reverse(s.0));
    let mut out = text.to_string();
    for (start, end, new) in spans {
        out.replace_range(start..end, &new);
    }
    out
}

/// The (line, column) of the first occurrence of `needle`, plus `shift` bytes.
fn find(text: &str, needle: &str, shift: usize, enc: Enc) -> Value {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("`{needle}` not in the text"));
    position_of(text, at + shift, enc)
}

fn line_of(text: &str, needle: &str) -> u64 {
    find(text, needle, 0, Enc::Utf16)["line"].as_u64().unwrap()
}

fn doc_uri(name: &str) -> String {
    format!("file:///dyno-e2e/{name}")
}

fn open(client: &mut LspClient, uri: &str, text: &str, version: i64) -> Vec<Value> {
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "dyno", "version": version, "text": text } }),
    );
    client.diagnostics_for(uri, version)
}

fn at(uri: &str, position: Value) -> Value {
    json!({ "textDocument": { "uri": uri }, "position": position })
}

fn codes(diagnostics: &[Value]) -> Vec<String> {
    diagnostics
        .iter()
        .map(|d| d["code"].as_str().unwrap_or("?").to_string())
        .collect()
}

/// Offsets an LSP position can name: character boundaries, except between
/// the `\r` and `\n` of a CRLF.
fn addressable(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    text.char_indices()
        .map(|(i, _)| i)
        .chain(std::iter::once(text.len()))
        .filter(|&i| !(i > 0 && bytes[i - 1] == b'\r' && bytes.get(i) == Some(&b'\n')))
        .collect()
}

/// The billing example with a planted `USERS#` typo in its pinned query.
fn billing_with_typo() -> String {
    let typo = BILLING.replace(r#"begins_with(sk, "USER#")"#, r#"begins_with(sk, "USERS#")"#);
    assert_ne!(typo, BILLING);
    typo
}

// ---------------------------------------------------------------------------
// initialize and position encodings
// ---------------------------------------------------------------------------

#[test]
fn initialize_advertises_every_capability_and_defaults_to_utf16() {
    let (client, result) = LspClient::start_with(json!({}), &[]);
    let caps = &result["capabilities"];
    assert_eq!(caps["positionEncoding"], "utf-16", "{caps:#}");
    // Incremental sync with open/close.
    assert_eq!(caps["textDocumentSync"]["change"], 2, "{caps:#}");
    assert_eq!(caps["textDocumentSync"]["openClose"], true, "{caps:#}");
    for provider in [
        "hoverProvider",
        "definitionProvider",
        "referencesProvider",
        "documentSymbolProvider",
        "workspaceSymbolProvider",
        "foldingRangeProvider",
        "documentFormattingProvider",
        "inlayHintProvider",
        "codeLensProvider",
        "documentHighlightProvider",
        "selectionRangeProvider",
    ] {
        assert!(
            caps[provider] == true || caps[provider].is_object(),
            "{provider} not advertised: {caps:#}"
        );
    }
    assert_eq!(caps["renameProvider"]["prepareProvider"], true, "{caps:#}");
    assert_eq!(
        caps["executeCommandProvider"]["commands"],
        json!(["dyno.view", "dyno.copyQuery", "dyno.copyAwsCli"]),
        "{caps:#}"
    );
    let triggers = caps["completionProvider"]["triggerCharacters"].as_array().unwrap();
    for c in ["{", "\"", "#"] {
        assert!(triggers.contains(&json!(c)), "completion trigger {c:?}: {caps:#}");
    }
    assert!(
        caps["codeActionProvider"]["codeActionKinds"]
            .as_array()
            .is_some_and(|k| k.contains(&json!("quickfix")) && k.contains(&json!("refactor.rewrite"))),
        "{caps:#}"
    );
    let tokens = &caps["semanticTokensProvider"];
    assert_eq!(tokens["full"]["delta"], true, "{caps:#}");
    assert_eq!(tokens["range"], true, "{caps:#}");
    let types = tokens["legend"]["tokenTypes"].as_array().unwrap();
    for t in ["keyword", "type", "class", "property", "string", "comment"] {
        assert!(types.contains(&json!(t)), "legend lacks {t}: {tokens:#}");
    }
    assert!(tokens["legend"]["tokenModifiers"].is_array(), "{tokens:#}");
    assert_eq!(result["serverInfo"]["name"], "dyno");
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

/// A `USERS#` typo after a `🎉` on the same line: its column differs between
/// the encodings, and edits are read in the negotiated encoding too.
#[test]
fn positions_follow_the_negotiated_encoding() {
    let text = billing_with_typo().replace(
        r#"where pk = "TENANT#{tenantId}" and begins_with(sk, "USERS#")"#,
        r#"where pk = "TENANT#🎉" and begins_with(sk, "USERS#")"#,
    );
    assert!(text.contains('🎉'));
    let typo = text.find(r#""USERS#""#).unwrap();
    let mut seen = Vec::new();
    for (offered, enc, expected) in [
        (json!({}), Enc::Utf16, "utf-16"),
        (
            json!({ "general": { "positionEncodings": ["utf-8", "utf-16"] } }),
            Enc::Utf8,
            "utf-8",
        ),
    ] {
        let (mut client, result) = LspClient::start_with(offered, &[]);
        assert_eq!(result["capabilities"]["positionEncoding"], expected);
        let uri = doc_uri("emoji.dyno");
        let diagnostics = open(&mut client, &uri, &text, 1);
        assert_eq!(codes(&diagnostics), ["E203"], "{diagnostics:#?}");
        let range = &diagnostics[0]["range"];
        assert_eq!(
            *range,
            range_of(&text, typo, typo + r#""USERS#""#.len(), enc),
            "{expected}"
        );
        seen.push(range["start"]["character"].as_u64().unwrap());

        // A hover and an edit addressed in the same encoding, after the 🎉.
        let hover = client.result("textDocument/hover", at(&uri, find(&text, "sk, \"USERS#", 0, enc)));
        assert!(
            hover["contents"]["value"].as_str().is_some_and(|m| m.contains("sk")),
            "{expected}: {hover}"
        );
        let s = typo + r#""USER"#.len();
        client.notify(
            "textDocument/didChange",
            json!({
                "textDocument": { "uri": uri, "version": 2 },
                "contentChanges": [{ "range": range_of(&text, s, s + 1, enc), "text": "" }],
            }),
        );
        let fixed = client.diagnostics_for(&uri, 2);
        assert!(!codes(&fixed).contains(&"E203".to_string()), "{expected}: {fixed:#?}");
        assert_eq!(client.shutdown_and_exit().code(), Some(0));
    }
    assert_eq!(seen[1], seen[0] + 2, "🎉 is 2 UTF-16 code units but 4 UTF-8 bytes");
}

// ---------------------------------------------------------------------------
// Diagnostics and the editor features
// ---------------------------------------------------------------------------

#[test]
fn typo_is_reported_and_an_incremental_fix_clears_it() {
    let mut client = LspClient::start();
    let text = billing_with_typo();
    let uri = doc_uri("billing.dyno");
    let diagnostics = open(&mut client, &uri, &text, 7);
    assert_eq!(codes(&diagnostics), ["E203"], "{diagnostics:#?}");
    let d = &diagnostics[0];
    assert_eq!(d["range"]["start"]["line"], line_of(&text, "USERS#"));
    assert_eq!(d["severity"], 1);
    assert_eq!(d["source"], "dyno");
    assert!(d["message"].as_str().unwrap().contains("USER#"), "did-you-mean: {d}");

    // Delete the `S` of `USERS#`: one incremental change.
    let s = text.find("USERS#").unwrap() + "USER".len();
    client.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": uri, "version": 8 },
            "contentChanges": [{ "range": range_of(&text, s, s + 1, Enc::Utf16), "text": "" }],
        }),
    );
    let cleared = client.wait_for_notification(
        "textDocument/publishDiagnostics",
        |p| p["uri"] == uri && p["version"] != 7,
        TIMEOUT,
    );
    assert_eq!(cleared["version"], 8, "{cleared}");
    assert_eq!(cleared["diagnostics"], json!([]), "{cleared}");

    // And back: the typo comes back with the next version.
    client.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": uri, "version": 9 },
            "contentChanges": [{ "range": range_of(&text, s, s, Enc::Utf16), "text": "S" }],
        }),
    );
    assert_eq!(codes(&client.diagnostics_for(&uri, 9)), ["E203"]);

    // Closing clears the diagnostics.
    client.notify("textDocument/didClose", json!({ "textDocument": { "uri": uri } }));
    let closed = client.wait_for_notification(
        "textDocument/publishDiagnostics",
        |p| p["uri"] == uri && p["version"].is_null(),
        TIMEOUT,
    );
    assert_eq!(closed["diagnostics"], json!([]));
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

#[test]
fn diagnostics_are_capped_per_file() {
    let mut client = LspClient::start();
    let uri = doc_uri("many.dyno");
    let text = format!("table App {{\n  key pk\n}}\n{}", "§\n".repeat(700));
    let diagnostics = open(&mut client, &uri, &text, 1);
    assert_eq!(diagnostics.len(), 500, "capped at 500");
    // The first ones, in source order.
    assert_eq!(diagnostics[0]["range"]["start"]["line"], 3);
    assert_eq!(diagnostics[499]["range"]["start"]["line"], 502);
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

/// Closing and reopening a document with the same version number (as an
/// editor does after a revert) serves the new text, even while the old
/// text's analysis is still running.
#[test]
fn reopening_with_the_same_version_never_serves_the_old_text() {
    let mut client = LspClient::start();
    let uri = doc_uri("reopened.dyno");
    let old = billing_with_typo();
    let new = "table Solo {\n  key pk\n}\n\nentity One {\n  id: id\n  pk = \"ONE#{id}\"\n}\n";
    for round in 0..25 {
        let from = client.notifications().len();
        let document =
            |text: &str| json!({ "textDocument": { "uri": uri, "languageId": "dyno", "version": 1, "text": text } });
        client.notify("textDocument/didOpen", document(&old));
        client.notify("textDocument/didClose", json!({ "textDocument": { "uri": uri } }));
        client.notify("textDocument/didOpen", document(new));
        let symbols = client.result("textDocument/documentSymbol", json!({ "textDocument": { "uri": uri } }));
        let names: Vec<&str> = symbols
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["name"].as_str().unwrap())
            .collect();
        assert!(
            names.contains(&"Solo") && !names.contains(&"Billing"),
            "round {round}: the old text's analysis was served: {names:?}"
        );
        // Settle: an edit's diagnostics come after every earlier analysis.
        client.notify(
            "textDocument/didChange",
            json!({
                "textDocument": { "uri": uri, "version": 2 },
                "contentChanges": [{ "range": range_of(new, 0, 0, Enc::Utf16), "text": "" }],
            }),
        );
        let settled = client.diagnostics_for(&uri, 2);
        assert!(!codes(&settled).contains(&"E203".to_string()), "{settled:#?}");
        // Once the new text's diagnostics are out, the old text's never follow.
        let mut new_text_published = false;
        for n in &client.notifications()[from..] {
            if n["method"] != "textDocument/publishDiagnostics" || n["params"]["uri"] != uri {
                continue;
            }
            let old_text = n["params"]["diagnostics"].to_string().contains("E203");
            assert!(
                !(old_text && new_text_published),
                "round {round}: the old text's diagnostics were published after the new text's: {n}"
            );
            new_text_published |= !old_text && !n["params"]["version"].is_null();
        }
        client.notify("textDocument/didClose", json!({ "textDocument": { "uri": uri } }));
    }
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

#[test]
fn hover_definition_references_and_rename_on_billing() {
    let mut client = LspClient::start();
    let uri = doc_uri("billing.dyno");
    assert_eq!(open(&mut client, &uri, BILLING, 1), Vec::<Value>::new());

    // Hover on a pattern served by the GSI: Markdown with its Query JSON.
    let hover = client.result(
        "textDocument/hover",
        at(&uri, find(BILLING, "pattern openInvoices(", 10, Enc::Utf16)),
    );
    assert_eq!(hover["contents"]["kind"], "markdown", "{hover}");
    let markdown = hover["contents"]["value"].as_str().unwrap();
    for needle in [
        "openInvoices",
        "index `gsi1`",
        "```json",
        r#""IndexName": "gsi1""#,
        "KeyConditionExpression",
    ] {
        assert!(markdown.contains(needle), "hover lacks {needle:?}:\n{markdown}");
    }
    assert_eq!(
        hover["range"]["start"]["line"],
        line_of(BILLING, "pattern openInvoices(")
    );

    // Definition on a pattern: the key templates its Query relies on.
    let lines: Vec<&str> = BILLING.lines().collect();
    let definition = client.result(
        "textDocument/definition",
        at(&uri, find(BILLING, "pattern listUsers(", 10, Enc::Utf16)),
    );
    let targets: Vec<u64> = definition
        .as_array()
        .unwrap_or_else(|| panic!("{definition}"))
        .iter()
        .map(|l| {
            assert_eq!(l["uri"], uri);
            l["range"]["start"]["line"].as_u64().unwrap()
        })
        .collect();
    let user = line_of(BILLING, "entity User {") as usize;
    let user_pk = user
        + lines[user..]
            .iter()
            .position(|l| l.trim_start().starts_with("pk "))
            .unwrap();
    let user_sk = user
        + lines[user..]
            .iter()
            .position(|l| l.trim_start().starts_with("sk "))
            .unwrap();
    assert!(
        targets.contains(&(user_pk as u64)) && targets.contains(&(user_sk as u64)),
        "definition {targets:?} should include User's pk/sk lines {user_pk}/{user_sk}"
    );
    for &line in &targets {
        let text = lines[line as usize].trim_start();
        assert!(
            text.starts_with("key ") || text.starts_with("index ") || text.contains(" = \"") || text.contains("= \""),
            "definition landed on a line that is no key template: {text:?}"
        );
    }

    // Rename the entity `User`: every reference, and nothing in comments.
    let entity_user = find(BILLING, "entity User", 7, Enc::Utf16);
    let prepared = client.result("textDocument/prepareRename", at(&uri, entity_user.clone()));
    let prepared_range = prepared.get("range").unwrap_or(&prepared);
    assert_eq!(prepared_range["start"], entity_user, "{prepared}");
    let mut params = at(&uri, entity_user.clone());
    params["newName"] = json!("Member");
    let edit = client.result("textDocument/rename", params);
    let edits = edit["changes"][&uri]
        .as_array()
        .unwrap_or_else(|| panic!("{edit}"))
        .clone();
    let renamed = apply_edits(BILLING, &edits, Enc::Utf16);
    let expected: String = BILLING
        .split_inclusive('\n')
        .map(|line| {
            let (code, comment) = line.split_at(line.find("//").unwrap_or(line.len()));
            let mut out = String::new();
            let mut rest = code;
            while let Some(i) = rest.find("User") {
                let before = rest[..i].chars().last();
                let after = rest[i + 4..].chars().next();
                let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
                out.push_str(&rest[..i]);
                out.push_str(if word(before) || word(after) { "User" } else { "Member" });
                rest = &rest[i + 4..];
            }
            out + rest + comment
        })
        .collect();
    assert!(edits.len() >= 5, "entity + four patterns: {edits:#?}");
    assert_eq!(renamed, expected);

    // References agree with the rename.
    let mut params = at(&uri, entity_user);
    params["context"] = json!({ "includeDeclaration": true });
    let references = client.result("textDocument/references", params);
    assert_eq!(references.as_array().map(Vec::len), Some(edits.len()), "{references}");

    // An invalid new name is refused with an error, not a crash.
    let mut params = at(&uri, find(BILLING, "entity User", 7, Enc::Utf16));
    params["newName"] = json!("not a name");
    let refused = client.request("textDocument/rename", params);
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

/// Completion inside a pinned-query string offers the registered prefixes
/// of the key being compared.
/// The "Design keys" actions of a codeAction response.
fn design_actions(response: &Value) -> Vec<&Value> {
    let actions = response.as_array().expect("a list of code actions");
    let design = |a: &&Value| a["title"].as_str().is_some_and(|t| t.starts_with("Design keys"));
    actions.iter().filter(design).collect()
}

#[test]
fn design_keys_over_the_real_server_gives_the_designed_schema() {
    let mut client = LspClient::start();
    let uri = doc_uri("design.dyno");
    // Billing without its keys and indexes. (The designer inserts whole
    // lines, so its edits start at column 0 whatever the encoding.)
    let text = dyno::design::without_keys(BILLING);
    let designed = dyno::design::design(&text, &dyno::design::Options::default()).text;
    assert_ne!(designed, text, "nothing to design: the test would prove nothing");
    open(&mut client, &uri, &text, 1);
    let code_action = |client: &mut LspClient, line: u64, only: Option<Vec<&str>>| {
        let mut context = json!({ "diagnostics": [] });
        if let Some(only) = only {
            context["only"] = json!(only);
        }
        let position = json!({ "line": line, "character": 2 });
        client.result(
            "textDocument/codeAction",
            json!({
                "textDocument": { "uri": uri },
                "range": { "start": position, "end": position },
                "context": context,
            }),
        )
    };

    let response = code_action(&mut client, line_of(&text, "entity User"), None);
    let [action] = design_actions(&response)[..] else {
        panic!("one Design keys action expected: {response:#}")
    };
    assert_eq!(action["kind"], "refactor.rewrite", "{action:#}");
    assert_eq!(action.get("isPreferred"), None, "{action:#}");
    assert_eq!(action.get("diagnostics"), None, "{action:#}");
    let edits = action["edit"]["changes"][&uri]
        .as_array()
        .expect("edits of the document");
    assert_eq!(action["edit"]["changes"].as_object().unwrap().len(), 1, "{action:#}");
    let applied = apply_edits(&text, edits, Enc::Utf16);
    assert_eq!(applied, designed);
    let errors = dyno::check::analyze(&applied)
        .diagnostics()
        .iter()
        .filter(|d| d.severity == dyno::diagnostic::Severity::Error)
        .count();
    assert_eq!(errors, 0, "{applied}");

    // Asked for refactorings: still there; for quick fixes only: not.
    let refactor = code_action(&mut client, line_of(&text, "pattern listUsers"), Some(vec!["refactor"]));
    assert_eq!(design_actions(&refactor).len(), 1, "{refactor:#}");
    let quickfix = code_action(&mut client, line_of(&text, "entity User"), Some(vec!["quickfix"]));
    assert_eq!(design_actions(&quickfix).len(), 0, "{quickfix:#}");
    // On the file's opening comment, away from every declaration: none.
    let comment = code_action(&mut client, 0, None);
    assert_eq!(design_actions(&comment).len(), 0, "{comment:#}");

    // Once applied, the designed schema needs nothing more.
    client.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": uri, "version": 2 },
            "contentChanges": [{ "text": applied }],
        }),
    );
    let after = code_action(&mut client, line_of(&applied, "entity User"), None);
    assert_eq!(design_actions(&after).len(), 0, "{after:#}");
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

#[test]
fn design_keys_carries_the_version_for_clients_that_take_versioned_edits() {
    let capabilities = json!({ "workspace": { "workspaceEdit": { "documentChanges": true } } });
    let (mut client, _) = LspClient::start_with(capabilities, &[]);
    let uri = doc_uri("design-versioned.dyno");
    let text = dyno::design::without_keys(BILLING);
    open(&mut client, &uri, &text, 7);
    let position = json!({ "line": line_of(&text, "entity Invoice"), "character": 0 });
    let response = client.result(
        "textDocument/codeAction",
        json!({
            "textDocument": { "uri": uri },
            "range": { "start": position, "end": position },
            "context": { "diagnostics": [], "only": ["refactor.rewrite"] },
        }),
    );
    let [action] = design_actions(&response)[..] else {
        panic!("one Design keys action expected: {response:#}")
    };
    let edit = &action["edit"];
    assert_eq!(edit.get("changes"), None, "{action:#}");
    let documents = edit["documentChanges"].as_array().expect("document changes");
    assert_eq!(documents.len(), 1, "{action:#}");
    assert_eq!(documents[0]["textDocument"], json!({ "uri": uri, "version": 7 }));
    let edits = documents[0]["edits"].as_array().unwrap();
    let designed = dyno::design::design(&text, &dyno::design::Options::default()).text;
    assert_eq!(apply_edits(&text, edits, Enc::Utf16), designed);
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

#[test]
fn completion_offers_registered_prefixes_inside_begins_with() {
    let mut client = LspClient::start();
    let uri = doc_uri("billing.dyno");
    let text = BILLING.replace(r#"begins_with(sk, "USER#")"#, r#"begins_with(sk, "")"#);
    open(&mut client, &uri, &text, 1);
    let mut params = at(
        &uri,
        find(&text, r#"begins_with(sk, ""#, r#"begins_with(sk, ""#.len(), Enc::Utf16),
    );
    params["context"] = json!({ "triggerKind": 2, "triggerCharacter": "\"" });
    let result = client.result("textDocument/completion", params);
    let items = result
        .as_array()
        .or_else(|| result["items"].as_array())
        .unwrap_or_else(|| panic!("completion returned no items: {result}"));
    let labels: Vec<&str> = items.iter().filter_map(|i| i["label"].as_str()).collect();
    for prefix in ["USER#", "INVOICE#", "EVENT#"] {
        assert!(labels.contains(&prefix), "{prefix} not offered: {labels:?}");
    }
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

#[test]
fn snippets_only_for_clients_that_take_them() {
    // After the last pattern: `= query …` pins its Query, a snippet.
    let text = format!("{BILLING}\n");
    let position = position_of(&text, text.len(), Enc::Utf16);
    let pin_query = |capabilities: Value| {
        let (mut client, _) = LspClient::start_with(capabilities, &[]);
        let uri = doc_uri("billing.dyno");
        open(&mut client, &uri, &text, 1);
        let result = client.result("textDocument/completion", at(&uri, position.clone()));
        let items = result
            .as_array()
            .or_else(|| result["items"].as_array())
            .cloned()
            .unwrap_or_default();
        let item = items
            .into_iter()
            .find(|i| i["label"] == "= query …")
            .unwrap_or_else(|| panic!("no `= query` completion in {result}"));
        assert_eq!(client.shutdown_and_exit().code(), Some(0));
        let inserted = item["textEdit"]["newText"].as_str().or(item["insertText"].as_str());
        (
            item["insertTextFormat"].clone(),
            inserted.unwrap_or_default().to_string(),
        )
    };
    let (format, inserted) =
        pin_query(json!({ "textDocument": { "completion": { "completionItem": { "snippetSupport": true } } } }));
    assert_eq!(format, json!(2), "a snippet");
    assert!(inserted.contains("${1:"), "{inserted}");
    let (format, inserted) = pin_query(json!({}));
    assert_eq!(format, json!(1), "plain text");
    assert_eq!(inserted, "= query Table where ");
}

#[test]
fn formatting_symbols_and_workspace_symbols() {
    let scratch = common::scratch::Scratch::new("lsp-workspace");
    let workspace = scratch.path().to_path_buf();
    let on_disk = workspace.join("inventory.dyno");
    std::fs::write(
        &on_disk,
        "table Stock {\n  key pk\n}\n\nentity Widget {\n  id: id\n  pk = \"WIDGET#{id}\"\n}\n",
    )
    .unwrap();
    // Open in the editor with unsaved changes: the buffer wins over the disk.
    let open_path = workspace.join("open.dyno");
    std::fs::write(
        &open_path,
        "table Old {\n  key pk\n}\n\nentity Gizmo {\n  id: id\n  pk = \"G#{id}\"\n}\n",
    )
    .unwrap();
    let (mut client, _) = LspClient::start_with(json!({}), std::slice::from_ref(&workspace));

    // Formatting: a messy copy of the example formats back to it.
    let messy = BILLING
        .replace("\n  ", "\n      ")
        .replace("key pk, sk", "key   pk ,sk")
        .replace("-> User[]", "->User[ ]");
    let billing = file_uri(&open_path);
    open(&mut client, &billing, &messy, 1);
    let edits = client.result(
        "textDocument/formatting",
        json!({
            "textDocument": { "uri": billing },
            "options": { "tabSize": 2, "insertSpaces": true },
        }),
    );
    let edits = edits.as_array().unwrap_or_else(|| panic!("{edits}")).clone();
    assert!(!edits.is_empty(), "a messy file needs edits");
    assert_eq!(apply_edits(&messy, &edits, Enc::Utf16), BILLING);

    // Document symbols: tables > indexes, entities > attributes, patterns.
    let symbols = client.result(
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": billing } }),
    );
    let symbols = symbols.as_array().unwrap_or_else(|| panic!("{symbols}"));
    let named = |name: &str| {
        symbols
            .iter()
            .find(|s| s["name"] == name)
            .unwrap_or_else(|| panic!("no symbol {name}: {symbols:#?}"))
    };
    for name in [
        "Billing",
        "Tenant",
        "User",
        "Invoice",
        "AuditEvent",
        "openInvoices",
        "allAdmins",
    ] {
        named(name);
    }
    let children = |name: &str| -> Vec<String> {
        named(name)["children"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|c| c["name"].as_str().unwrap().to_string())
            .collect()
    };
    assert!(
        children("Billing").contains(&"gsi1".to_string()),
        "{:?}",
        children("Billing")
    );
    assert!(
        children("User").contains(&"email".to_string()),
        "{:?}",
        children("User")
    );
    let user = named("User");
    assert_eq!(
        user["selectionRange"]["start"],
        find(&messy, "entity User", 7, Enc::Utf16)
    );

    // Workspace symbols: the open buffer and a file that is only on disk.
    let mut buffer = BILLING.to_string();
    buffer.push_str("\nentity Gadget {\n  id: id\n  pk = \"TENANT#{id}\"\n  sk = \"GADGET#{id}\"\n}\n");
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": billing, "version": 2 }, "contentChanges": [{ "text": buffer }] }),
    );
    client.diagnostics_for(&billing, 2);
    let found = client.result("workspace/symbol", json!({ "query": "dget" }));
    let found = found.as_array().unwrap_or_else(|| panic!("{found}"));
    let widget = found.iter().find(|s| s["name"] == "Widget");
    let gadget = found.iter().find(|s| s["name"] == "Gadget");
    assert_eq!(
        widget.map(|s| &s["location"]["uri"]),
        Some(&json!(file_uri(&on_disk))),
        "{found:#?}"
    );
    assert_eq!(
        widget.unwrap()["location"]["range"]["start"],
        json!({ "line": 4, "character": 7 })
    );
    assert_eq!(
        gadget.map(|s| &s["location"]["uri"]),
        Some(&json!(billing)),
        "{found:#?}"
    );
    assert_eq!(found.len(), 2, "{found:#?}");
    let stale = client.result("workspace/symbol", json!({ "query": "Gizmo" }));
    assert_eq!(stale, json!([]), "the open buffer replaces the file on disk");
    // A file that changes on disk is read again (its symbols are cached
    // until its modification time or length changes).
    let before = std::fs::read_to_string(&on_disk).unwrap();
    std::fs::write(&on_disk, before.replace("Widget", "Sprocket")).unwrap();
    let found = client.result("workspace/symbol", json!({ "query": "sprocket" }));
    assert_eq!(found.as_array().map(Vec::len), Some(1), "{found}");
    let gone = client.result("workspace/symbol", json!({ "query": "widget" }));
    assert_eq!(gone, json!([]));
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

// ---------------------------------------------------------------------------
// Lifecycle and malformed input
// ---------------------------------------------------------------------------

#[test]
fn exit_codes_follow_the_protocol() {
    assert_eq!(LspClient::start().shutdown_and_exit().code(), Some(0));

    // After shutdown, requests are refused; exit still ends with 0.
    let mut client = LspClient::start();
    assert_eq!(client.result("shutdown", Value::Null), Value::Null);
    let refused = client.request("workspace/symbol", json!({ "query": "" }));
    assert_eq!(refused["error"]["code"], -32600, "{refused}");
    client.notify("exit", Value::Null);
    assert_eq!(client.wait_exit(TIMEOUT).code(), Some(0), "exit after shutdown");

    let mut client = LspClient::start();
    client.notify("exit", Value::Null);
    assert_eq!(client.wait_exit(TIMEOUT).code(), Some(1), "exit without shutdown");

    // Eglot and LSP4IJ send `"params": null` for `shutdown` (its params are
    // `void`): accepted like no params.
    let mut client = LspClient::start();
    client.send(&json!({ "jsonrpc": "2.0", "id": 77, "method": "shutdown", "params": null }));
    let response = client.response(&json!(77));
    assert!(
        response.get("error").is_none() && response["result"].is_null(),
        "{response}"
    );
    client.send(&json!({ "jsonrpc": "2.0", "method": "exit", "params": null }));
    assert_eq!(
        client.wait_exit(TIMEOUT).code(),
        Some(0),
        "shutdown and exit with null params"
    );

    let mut client = LspClient::start();
    client.close_stdin();
    assert_eq!(client.wait_exit(TIMEOUT).code(), Some(1), "input that just ends");
}

#[test]
fn malformed_messages_get_errors_and_the_server_keeps_serving() {
    let mut client = LspClient::start();
    let uri = doc_uri("billing.dyno");
    open(&mut client, &uri, BILLING, 1);
    let hover_works = |client: &mut LspClient| {
        let hover = client.result(
            "textDocument/hover",
            at(&uri, find(BILLING, "pattern listUsers", 9, Enc::Utf16)),
        );
        assert!(
            hover["contents"]["value"]
                .as_str()
                .is_some_and(|m| m.contains("listUsers")),
            "{hover}"
        );
    };

    // Not JSON.
    client.send_raw(&frame(b"{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": "));
    let error = client.null_id_response();
    assert_eq!(error["error"]["code"], -32700, "{error}");
    hover_works(&mut client);

    // A frame without Content-Length.
    client.send_raw(b"Content-Type: application/vscode-jsonrpc\r\n\r\n");
    let error = client.null_id_response();
    assert_eq!(error["error"]["code"], -32700, "{error}");
    hover_works(&mut client);

    // JSON, but not JSON-RPC.
    for body in [
        r#"{"hello": "world"}"#,
        "[]",
        "42",
        r#"{"jsonrpc": "1.0", "method": "x"}"#,
    ] {
        client.send_raw(&frame(body.as_bytes()));
        let error = client.null_id_response();
        assert_eq!(error["error"]["code"], -32600, "{body}: {error}");
    }
    client.send_raw(&frame(br#"{"jsonrpc": "2.0", "id": 4242}"#));
    let error = client.response(&json!(4242));
    assert_eq!(error["error"]["code"], -32600, "{error}");
    hover_works(&mut client);

    // Unknown method; wrong params.
    let error = client.request("textDocument/noSuchThing", json!({}));
    assert_eq!(error["error"]["code"], -32601, "{error}");
    let error = client.request("textDocument/hover", json!({ "position": "nowhere" }));
    assert_eq!(error["error"]["code"], -32602, "{error}");
    let error = client.request("textDocument/definition", json!([1, 2, 3]));
    assert_eq!(error["error"]["code"], -32602, "{error}");
    hover_works(&mut client);

    // Unknown documents and positions off the text: empty, not errors.
    let nowhere = uri_unknown();
    for method in [
        "textDocument/hover",
        "textDocument/definition",
        "textDocument/completion",
        "textDocument/prepareRename",
    ] {
        for (document, position) in [
            (nowhere.as_str(), json!({ "line": 0, "character": 0 })),
            (uri.as_str(), json!({ "line": 9999, "character": 0 })),
            (uri.as_str(), json!({ "line": 0, "character": 99999 })),
        ] {
            let result = client.result(method, at(document, position.clone()));
            assert!(
                result.is_null() || result == json!([]) || result["items"] == json!([]),
                "{method} at {document} {position}: {result}"
            );
        }
    }
    let mut params = at(&nowhere, json!({ "line": 0, "character": 0 }));
    params["context"] = json!({ "includeDeclaration": true });
    let references = client.result("textDocument/references", params);
    assert!(references.is_null() || references == json!([]), "{references}");
    for method in [
        "textDocument/documentSymbol",
        "textDocument/semanticTokens/full",
        "textDocument/foldingRange",
    ] {
        let result = client.result(method, json!({ "textDocument": { "uri": nowhere } }));
        assert!(result.is_null() || result == json!([]), "{method}: {result}");
    }

    // Notifications about unknown documents, or unknown notifications: ignored.
    client.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": nowhere, "version": 2 },
            "contentChanges": [{ "range": range_of("", 0, 0, Enc::Utf16), "text": "x" }],
        }),
    );
    client.notify("textDocument/didClose", json!({ "textDocument": { "uri": nowhere } }));
    client.notify("textDocument/didSave", json!({ "textDocument": { "uri": nowhere } }));
    client.notify("custom/somethingElse", json!({ "x": 1 }));
    client.notify("$/cancelRequest", json!({ "id": 999 }));
    hover_works(&mut client);
    // A notification that is not even well-formed params.
    client.notify("textDocument/didChange", json!({ "nonsense": true }));
    hover_works(&mut client);
    let stray: Vec<&Value> = client.pending().iter().filter(|m| m.get("method").is_none()).collect();
    assert!(stray.is_empty(), "responses nobody asked for: {stray:#?}");
    let published_for_unknown: Vec<&Value> = client
        .notifications()
        .iter()
        .filter(|n| n["method"] == "textDocument/publishDiagnostics" && n["params"]["uri"] == nowhere)
        .collect();
    assert!(published_for_unknown.is_empty(), "{published_for_unknown:#?}");
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

fn uri_unknown() -> String {
    doc_uri("never-opened.dyno")
}

// ---------------------------------------------------------------------------
// Ordering and robustness
// ---------------------------------------------------------------------------

/// Replaces `uri` by a placeholder so two documents' diagnostics compare.
fn without_uri(diagnostics: &[Value], uri: &str) -> String {
    serde_json::to_string(diagnostics).unwrap().replace(uri, "URI")
}

#[test]
fn five_hundred_quick_edits_apply_in_order_and_never_publish_stale_diagnostics() {
    let mut client = LspClient::start();
    let uri = doc_uri("edited.dyno");
    // Half the example with CRLF line ends, half with LF.
    let half = BILLING.len() / 2;
    let cut = half + BILLING[half..].find('\n').unwrap() + 1;
    let mut text = BILLING[..cut].replace('\n', "\r\n") + &BILLING[cut..];
    open(&mut client, &uri, &text, 1);

    const SNIPPETS: &[&str] = &[
        "x",
        "é",
        "🎉",
        "日本語",
        "\r\n",
        "\n",
        " ",
        "\"",
        "}",
        "{userId}",
        "USER#",
        "// 🎉 comment\r\n",
        "entity E {\r\n  a: id\r\n  pk = \"E#{a}\"\r\n}\r\n",
        "pattern p(tenantId) -> User[]\n",
    ];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let edits = 500;
    let mut last_version = 1;
    for n in 0..edits {
        let version = 2 + n;
        let mut changes = Vec::new();
        // Mostly one change per notification, sometimes two in sequence.
        for _ in 0..if rng.below(8) == 0 { 2 } else { 1 } {
            let offsets = addressable(&text);
            let start_index = rng.below(offsets.len());
            let start = offsets[start_index];
            let end = if rng.below(2) == 0 {
                start
            } else {
                offsets[(start_index + 1 + rng.below(8)).min(offsets.len() - 1)]
            };
            let insert = if start == end || rng.below(3) == 0 {
                *rng.pick(SNIPPETS)
            } else {
                ""
            };
            changes.push(json!({ "range": range_of(&text, start, end, Enc::Utf16), "text": insert }));
            text.replace_range(start..end, insert);
        }
        client.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": changes }),
        );
        last_version = version;
    }
    assert!(text.contains('🎉') && text.contains("\r\n"));

    let edited = client.diagnostics_for(&uri, last_version as i64);
    // A fresh open of the text the edits should have produced.
    let fresh = doc_uri("fresh.dyno");
    let reference = open(&mut client, &fresh, &text, 1);
    assert_eq!(without_uri(&edited, &uri), without_uri(&reference, &fresh));
    assert!(!reference.is_empty(), "500 random edits leave something to report");
    // The same text, token for token.
    let tokens = |client: &mut LspClient, uri: &str| {
        // The data: each full answer has a result id of its own.
        client.result(
            "textDocument/semanticTokens/full",
            json!({ "textDocument": { "uri": uri } }),
        )["data"]
            .clone()
    };
    assert_eq!(tokens(&mut client, &uri), tokens(&mut client, &fresh));
    let symbols = |client: &mut LspClient, uri: &str| {
        let s = client.result("textDocument/documentSymbol", json!({ "textDocument": { "uri": uri } }));
        s.to_string().replace(uri, "URI")
    };
    assert_eq!(symbols(&mut client, &uri), symbols(&mut client, &fresh));

    // Versions only ever go up on the wire.
    let versions: Vec<i64> = client
        .notifications()
        .iter()
        .filter(|n| n["method"] == "textDocument/publishDiagnostics" && n["params"]["uri"] == uri)
        .map(|n| n["params"]["version"].as_i64().unwrap())
        .collect();
    assert!(
        versions.windows(2).all(|w| w[0] <= w[1]),
        "an older version was published after a newer one: {versions:?}"
    );
    assert_eq!(versions.last(), Some(&(last_version as i64)));
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

#[test]
fn random_requests_on_a_broken_document_never_fail_internally() {
    let mut client = LspClient::start();
    let uri = doc_uri("broken.dyno");
    // Cut braces, an unterminated string, stray tokens, astral characters.
    let mut text = BILLING
        .replacen("}\n", "\n", 2)
        .replace("sk = \"META\"", "sk = \"META")
        .replace("pattern listUsers(tenantId)", "pattern listUsers(tenantId, , 🎉)")
        .replace("-> Invoice[] by dueDate", "-> Invoice[ by {{ dueDate \r\n ->");
    text.insert_str(text.len() / 3, "entity { 日本 : : = \"{\"\r\n");
    let diagnostics = open(&mut client, &uri, &text, 1);
    assert!(!diagnostics.is_empty());

    let methods = [
        "textDocument/hover",
        "textDocument/definition",
        "textDocument/completion",
        "textDocument/references",
        "textDocument/prepareRename",
        "textDocument/rename",
        "textDocument/semanticTokens/full",
        "textDocument/documentSymbol",
        "textDocument/foldingRange",
        "textDocument/inlayHint",
        "textDocument/codeAction",
        "textDocument/formatting",
        "textDocument/documentHighlight",
        "textDocument/selectionRange",
        "textDocument/signatureHelp",
    ];
    let mut rng = Rng(0xDEAD_BEEF_CAFE_F00D);
    let mut version = 1;
    let mut sent = Vec::new();
    for round in 0..6 {
        let mut ids = Vec::new();
        for _ in 0..50 {
            let method = *rng.pick(&methods);
            let lines = line_starts(&text).len();
            let random_position = |rng: &mut Rng| json!({ "line": rng.below(lines + 2), "character": rng.below(90) });
            let position = random_position(&mut rng);
            let document = json!({ "uri": uri });
            let params = match method {
                "textDocument/references" => json!({
                    "textDocument": document, "position": position,
                    "context": { "includeDeclaration": rng.below(2) == 0 },
                }),
                "textDocument/rename" => json!({
                    "textDocument": document, "position": position,
                    "newName": *rng.pick(&["Renamed", "x", "USR", "not valid", ""]),
                }),
                "textDocument/inlayHint" => json!({
                    "textDocument": document,
                    "range": { "start": position, "end": random_position(&mut rng) },
                }),
                "textDocument/codeAction" => json!({
                    "textDocument": document,
                    "range": { "start": position, "end": random_position(&mut rng) },
                    "context": { "diagnostics": diagnostics.iter().take(3).collect::<Vec<_>>() },
                }),
                "textDocument/formatting" => json!({
                    "textDocument": document, "options": { "tabSize": 2, "insertSpaces": true },
                }),
                "textDocument/selectionRange" => json!({
                    "textDocument": document, "positions": [position, random_position(&mut rng)],
                }),
                "textDocument/semanticTokens/full" | "textDocument/documentSymbol" | "textDocument/foldingRange" => {
                    json!({ "textDocument": document })
                }
                _ => json!({ "textDocument": document, "position": position }),
            };
            ids.push((client.send_request(method, params.clone()), method, params));
        }
        // Keep the document moving under the requests.
        let offsets = addressable(&text);
        let at_offset = offsets[rng.below(offsets.len())];
        let insert = *rng.pick(&["{", "\"", "🎉", "\r\n", "} ->", "USER#{"]);
        version += 1;
        client.notify(
            "textDocument/didChange",
            json!({
                "textDocument": { "uri": uri, "version": version },
                "contentChanges": [{ "range": range_of(&text, at_offset, at_offset, Enc::Utf16), "text": insert }],
            }),
        );
        text.insert_str(at_offset, insert);
        sent.extend(client.expect_answered(ids, round));
    }
    assert_eq!(sent.len(), 300);
    assert!(client.is_running());
    let internal = client.logged_errors();
    assert!(internal.is_empty(), "errors logged: {internal:#?}");
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

#[test]
fn a_frame_split_across_writes_and_many_frames_in_one_write_are_read() {
    let mut client = LspClient::start();
    let uri = doc_uri("split.dyno");
    let open_message = json!({
        "jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": { "textDocument": { "uri": uri, "languageId": "dyno", "version": 1, "text": BILLING } },
    });
    let bytes = frame(open_message.to_string().as_bytes());
    let (a, b) = bytes.split_at(10);
    client.send_raw(a);
    client.send_raw(b);
    assert_eq!(client.diagnostics_for(&uri, 1), Vec::<Value>::new());

    let mut batch = Vec::new();
    for id in 100..110 {
        let request = json!({
            "jsonrpc": "2.0", "id": id, "method": "textDocument/hover",
            "params": at(&uri, find(BILLING, "pattern allAdmins", 9, Enc::Utf16)),
        });
        batch.extend(frame(request.to_string().as_bytes()));
    }
    client.send_raw(&batch);
    for id in 100..110 {
        let response = client.response(&json!(id));
        assert!(
            response["result"]["contents"]["value"]
                .as_str()
                .is_some_and(|m| m.contains("allAdmins"))
        );
    }
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

/// The parse errors (`-32700`, `id: null`) received so far, taken from the
/// queue.
fn take_parse_errors(client: &mut LspClient) -> usize {
    let all: Vec<Value> = client.drain(std::time::Duration::from_millis(200));
    let mut errors = 0;
    for message in all {
        if message.get("method").is_none() && message.get("id") == Some(&Value::Null) {
            assert_eq!(message["error"]["code"], -32700, "{message}");
            errors += 1;
        }
    }
    errors
}

#[test]
fn the_reported_deaf_session_answers_initialize() {
    let mut client = LspClient::spawn();
    let mut bytes = b"Content-Length: 10\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\"}".to_vec();
    bytes.extend(frame(
        br#"{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"capabilities":{}}}"#,
    ));
    client.send_raw(&bytes);
    let response = client.response(&json!(2));
    assert!(response["result"]["capabilities"].is_object(), "{response}");
    assert_eq!(take_parse_errors(&mut client), 1);
}

#[test]
fn a_wrong_content_length_costs_one_parse_error_and_reading_resumes_at_the_next_header() {
    let mut client = LspClient::start();
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"x"}"#;
    let cases = [
        ("too short", "10".to_string()),
        ("too long, into the next frame", (body.len() + 30).to_string()),
        (
            "too long by the next header's first bytes",
            (body.len() + 3).to_string(),
        ),
        ("too long by a whole next frame", (body.len() + 200).to_string()),
        ("non-numeric", "ten".to_string()),
        ("missing value", String::new()),
        ("negative", "-5".to_string()),
        ("huge", "99999999999999999999999".to_string()),
        ("larger than the limit", (65 << 20).to_string()),
    ];
    for (case, length) in cases {
        client.send_raw(format!("Content-Length: {length}\r\n\r\n{body}").as_bytes());
        let hover = client.request(
            "textDocument/hover",
            at(&uri_unknown(), json!({ "line": 0, "character": 0 })),
        );
        assert_eq!(hover["result"], Value::Null, "{case}: {hover}");
        assert_eq!(take_parse_errors(&mut client), 1, "{case}");
    }
    // Glued to the next header without a line break, in one write.
    let mut glued = format!("Content-Length: 10\r\n\r\n{body}").into_bytes();
    let id = 7777;
    glued.extend(frame(
        json!({ "jsonrpc": "2.0", "id": id, "method": "textDocument/hover",
                "params": at(&uri_unknown(), json!({ "line": 0, "character": 0 })) })
        .to_string()
        .as_bytes(),
    ));
    client.send_raw(&glued);
    assert_eq!(client.response(&json!(id))["result"], Value::Null);
    assert_eq!(take_parse_errors(&mut client), 1, "glued");
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

#[test]
fn a_too_long_frame_at_the_end_of_input_is_answered_and_the_server_exits() {
    let mut client = LspClient::start();
    client.send_raw(b"Content-Length: 500\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\"}");
    client.close_stdin();
    assert_eq!(client.wait_exit(TIMEOUT).code(), Some(1));
    let errors = client
        .pending()
        .iter()
        .filter(|m| m.get("id") == Some(&Value::Null) && m["error"]["code"] == -32700)
        .count();
    assert_eq!(errors, 1, "{:#?}", client.pending());
}

#[test]
fn a_lone_surrogate_in_an_opened_text_keeps_the_document() {
    let mut client = LspClient::start();
    let uri = doc_uri("surrogate.dyno");
    let text = format!("// LONE_SURROGATE here\n{}", billing_with_typo());
    let message = json!({
        "jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": { "textDocument": { "uri": uri, "languageId": "dyno", "version": 1, "text": text } },
    })
    .to_string()
    .replace("LONE_SURROGATE", r"\ud800 and \udc00 and a pair \ud83d\ude00");
    client.send_raw(&frame(message.as_bytes()));
    let diagnostics = client.diagnostics_for(&uri, 1);
    assert!(!diagnostics.is_empty(), "the typo is reported");
    // The first line is `// \u{fffd} and \u{fffd} and a pair 😀 here`:
    // replace it (UTF-16 columns), then the typo.
    let first_line = "// \u{fffd} and \u{fffd} and a pair \u{1F600} here";
    client.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": uri, "version": 2 },
            "contentChanges": [
                { "range": { "start": { "line": 0, "character": 0 },
                             "end": { "line": 0, "character": first_line.encode_utf16().count() } },
                  "text": "// fine" },
            ],
        }),
    );
    let after_edit = client.diagnostics_for(&uri, 2);
    let ranges = |d: &[Value]| d.iter().map(|d| d["range"].clone()).collect::<Vec<_>>();
    assert_eq!(ranges(&after_edit), ranges(&diagnostics), "the edit kept line 0 a line");
    client.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": uri, "version": 3 },
            "contentChanges": [{ "text": BILLING }],
        }),
    );
    assert_eq!(client.diagnostics_for(&uri, 3), Vec::<Value>::new());
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

// ---------------------------------------------------------------------------
// documentHighlight, selectionRange, signatureHelp
// ---------------------------------------------------------------------------

/// The text each returned range covers, with its `kind` when it has one.
fn covered(text: &str, ranges: &[Value], enc: Enc) -> Vec<String> {
    ranges
        .iter()
        .map(|r| {
            let range = if r["range"].is_object() { &r["range"] } else { r };
            let (start, end) = (
                offset_of(text, &range["start"], enc),
                offset_of(text, &range["end"], enc),
            );
            match r["kind"].as_u64() {
                Some(kind) => format!("{kind}:{}", &text[start..end]),
                None => text[start..end].to_string(),
            }
        })
        .collect()
}

#[test]
fn document_highlight_marks_the_declaration_as_write_and_uses_as_read() {
    let text = BILLING;
    let mut client = LspClient::start();
    let uri = doc_uri("billing.dyno");
    open(&mut client, &uri, text, 1);
    let highlights = client.result(
        "textDocument/documentHighlight",
        at(&uri, find(text, "role: enum", 1, Enc::Utf16)),
    );
    let highlights = highlights.as_array().unwrap();
    // 3 = Write (the declaration), 2 = Read (the hole and the pattern's value).
    assert_eq!(
        covered(text, highlights, Enc::Utf16),
        ["3:role", "2:role", "2:role"],
        "{highlights:#?}"
    );
    assert_eq!(
        highlights[1]["range"]["start"]["line"],
        line_of(text, "gsi1pk = \"ROLE#")
    );
    assert_eq!(
        highlights[2]["range"]["start"]["line"],
        line_of(text, "pattern allAdmins")
    );

    // A type tag: the templates writing it, the pinned query reading it.
    let tag = client.result(
        "textDocument/documentHighlight",
        at(&uri, find(text, "sk     = \"USER#", 10, Enc::Utf16)),
    );
    let kinds = covered(text, tag.as_array().unwrap(), Enc::Utf16);
    assert_eq!(kinds, ["3:USER", "3:USER", "2:USER"], "{tag:#?}");

    // Nothing under the cursor: an empty list, not an error.
    let none = client.result(
        "textDocument/documentHighlight",
        at(&uri, json!({ "line": 0, "character": 0 })),
    );
    assert_eq!(none, json!([]));
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

#[test]
fn selection_ranges_grow_from_a_hole_to_the_file_for_each_position() {
    let mut client = LspClient::start();
    let uri = doc_uri("billing.dyno");
    open(&mut client, &uri, BILLING, 1);
    let hole = find(BILLING, "gsi1pk = \"ROLE#{ro", 17, Enc::Utf16);
    let keyword = find(BILLING, "entity Tenant", 2, Enc::Utf16);
    let answer = client.result(
        "textDocument/selectionRange",
        json!({ "textDocument": { "uri": uri }, "positions": [hole, keyword] }),
    );
    let answer = answer.as_array().unwrap();
    assert_eq!(answer.len(), 2, "one chain per position: {answer:#?}");
    let chain = |mut node: &Value| {
        let mut out = Vec::new();
        loop {
            out.push(node["range"].clone());
            match node.get("parent") {
                Some(parent) if parent.is_object() => node = parent,
                _ => return out,
            }
        }
    };
    let first = covered(BILLING, &chain(&answer[0]), Enc::Utf16);
    let entity = &BILLING[BILLING.find("entity User {").unwrap()..];
    let entity = &entity[..entity.find("\n}").unwrap() + 2];
    let body = &entity[entity.find('{').unwrap()..];
    let doc_start = BILLING.find("/// A person who can sign in").unwrap();
    let with_docs = &BILLING[doc_start..doc_start + BILLING[doc_start..].find("\n}").unwrap() + 2];
    assert_eq!(
        first,
        [
            "role",
            "{role}",
            "ROLE#{role}",
            "\"ROLE#{role}\"",
            "gsi1pk = \"ROLE#{role}\"",
            body,
            entity,
            with_docs,
            BILLING,
        ],
    );
    let second = covered(BILLING, &chain(&answer[1]), Enc::Utf16);
    assert_eq!(second[0], "entity");
    assert_eq!(second.last().map(String::as_str), Some(BILLING));
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

#[test]
fn signature_help_inside_a_patterns_known_values() {
    let (mut client, result) = LspClient::start_with(json!({}), &[]);
    let triggers = &result["capabilities"]["signatureHelpProvider"]["triggerCharacters"];
    assert_eq!(*triggers, json!(["(", ","]), "{result:#}");
    let uri = doc_uri("billing.dyno");
    open(&mut client, &uri, BILLING, 1);
    let help = client.result(
        "textDocument/signatureHelp",
        at(
            &uri,
            find(BILLING, "pattern auditSince(tenantId, at >= s", 36, Enc::Utf16),
        ),
    );
    let signature = &help["signatures"][0];
    let label = signature["label"].as_str().unwrap();
    assert_eq!(
        label, "pattern auditSince(tenantId: id, at >= since: datetime)",
        "{help:#}"
    );
    assert_eq!(help["activeParameter"], 1, "{help:#}");
    let offsets: Vec<Vec<u64>> = signature["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            p["label"]
                .as_array()
                .unwrap()
                .iter()
                .map(|n| n.as_u64().unwrap())
                .collect()
        })
        .collect();
    let part = |o: &Vec<u64>| &label[o[0] as usize..o[1] as usize];
    assert_eq!(
        offsets.iter().map(part).collect::<Vec<_>>(),
        ["tenantId: id", "at >= since: datetime"]
    );
    let documentation = signature["documentation"]["value"].as_str().unwrap();
    assert!(documentation.contains("`eventId: ulid`"), "{documentation}");

    // Outside the parentheses: no signature.
    let outside = client.result(
        "textDocument/signatureHelp",
        at(&uri, find(BILLING, "-> AuditEvent[] by at desc\n", 3, Enc::Utf16)),
    );
    assert_eq!(outside, Value::Null);
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

// ---------------------------------------------------------------------------
// Pull diagnostics
// ---------------------------------------------------------------------------

fn pull(client: &mut LspClient, uri: &str, previous: Option<&str>) -> Value {
    let mut params = json!({ "textDocument": { "uri": uri } });
    if let Some(previous) = previous {
        params["previousResultId"] = json!(previous);
    }
    client.result("textDocument/diagnostic", params)
}

#[test]
fn pulled_diagnostics_report_full_then_unchanged_and_stop_the_pushes() {
    let capabilities = json!({
        "textDocument": { "diagnostic": { "dynamicRegistration": false } },
        "workspace": { "diagnostic": { "refreshSupport": true } },
    });
    let (mut client, result) = LspClient::start_with(capabilities, &[]);
    let provider = &result["capabilities"]["diagnosticProvider"];
    assert_eq!(provider["workspaceDiagnostics"], true, "{result:#}");
    assert_eq!(provider["interFileDependencies"], false, "{result:#}");
    let uri = doc_uri("billing.dyno");
    let text = billing_with_typo();
    // Until the client pulls, the server pushes (it cannot know it will).
    assert_eq!(codes(&open(&mut client, &uri, &text, 1)), ["E203"]);

    let first = pull(&mut client, &uri, None);
    assert_eq!(first["kind"], "full", "{first:#}");
    assert_eq!(codes(first["items"].as_array().unwrap()), ["E203"]);
    let id = first["resultId"].as_str().unwrap().to_string();
    assert!(id.starts_with("1-"), "the version leads the result id: {id}");
    // The pushed copy is cleared, so the client shows them once.
    let cleared = client.wait_for_notification(
        "textDocument/publishDiagnostics",
        |p| p["uri"] == uri && p["version"].is_null(),
        TIMEOUT,
    );
    assert_eq!(cleared["diagnostics"], json!([]));

    let again = pull(&mut client, &uri, Some(&id));
    assert_eq!(again, json!({ "kind": "unchanged", "resultId": id }));
    // A stale or foreign id gets the full report.
    let other = pull(&mut client, &uri, Some("0-0"));
    assert_eq!(other["kind"], "full");
    assert_eq!(other["resultId"], id.as_str());

    // Fix the typo: a new version, a new id, no diagnostics, and no push.
    let s = text.find("USERS#").unwrap() + "USER".len();
    client.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": uri, "version": 2 },
            "contentChanges": [{ "range": range_of(&text, s, s + 1, Enc::Utf16), "text": "" }],
        }),
    );
    let fixed = pull(&mut client, &uri, Some(&id));
    assert_eq!(fixed["kind"], "full", "{fixed:#}");
    assert_eq!(fixed["items"], json!([]));
    let fixed_id = fixed["resultId"].as_str().unwrap().to_string();
    assert!(fixed_id.starts_with("2-"), "{fixed_id}");

    // The workspace pull: every open document, unchanged where the id holds.
    let other_uri = doc_uri("other.dyno");
    open(
        &mut client,
        &other_uri,
        "table T {\n  key pk\n}\npattern p(x) -> Nobody\n",
        5,
    );
    let workspace = client.result(
        "workspace/diagnostic",
        json!({ "previousResultIds": [{ "uri": uri, "value": fixed_id }] }),
    );
    let items = workspace["items"].as_array().unwrap();
    assert_eq!(items.len(), 2, "{workspace:#}");
    let billing = items.iter().find(|i| i["uri"] == uri).unwrap();
    assert_eq!(billing["kind"], "unchanged", "{billing:#}");
    assert_eq!(billing["version"], 2);
    let other = items.iter().find(|i| i["uri"] == other_uri).unwrap();
    assert_eq!(other["kind"], "full", "{other:#}");
    assert_eq!(other["version"], 5);
    assert!(!other["items"].as_array().unwrap().is_empty(), "{other:#}");

    // A document that is not open: an empty full report.
    let unknown = pull(&mut client, &doc_uri("closed.dyno"), None);
    assert_eq!(unknown["kind"], "full");
    assert_eq!(unknown["items"], json!([]));

    // Nothing was pushed for the pulled documents' later versions.
    let late: Vec<Value> = client
        .drain(std::time::Duration::from_millis(300))
        .into_iter()
        .chain(client.notifications().iter().cloned())
        .filter(|m| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri && m["params"]["version"] == 2
        })
        .collect();
    assert!(late.is_empty(), "pushed after the client pulled: {late:#?}");
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

// ---------------------------------------------------------------------------
// Semantic tokens: range and delta
// ---------------------------------------------------------------------------

/// Relative token data decoded to absolute `[line, column, length, type,
/// modifiers]`.
fn absolute(data: &[Value]) -> Vec<[u64; 5]> {
    let numbers: Vec<u64> = data.iter().map(|n| n.as_u64().unwrap()).collect();
    let (mut line, mut column) = (0, 0);
    numbers
        .chunks(5)
        .map(|t| {
            line += t[0];
            column = if t[0] == 0 { column + t[1] } else { t[1] };
            [line, column, t[2], t[3], t[4]]
        })
        .collect()
}

#[test]
fn semantic_tokens_for_a_range_and_as_a_delta_against_the_last_result() {
    let mut client = LspClient::start();
    let uri = doc_uri("billing.dyno");
    open(&mut client, &uri, BILLING, 1);
    let document = json!({ "uri": uri });
    let full = client.result("textDocument/semanticTokens/full", json!({ "textDocument": document }));
    let full_tokens = absolute(full["data"].as_array().unwrap());
    let first_id = full["resultId"].as_str().expect("a result id").to_string();

    // A range: exactly the full result's tokens on the lines it touches.
    let (from, to) = (line_of(BILLING, "entity User {"), line_of(BILLING, "gsi1sk = \"USER#"));
    let range = client.result(
        "textDocument/semanticTokens/range",
        json!({ "textDocument": document, "range": {
            "start": { "line": from, "character": 3 }, "end": { "line": to, "character": 4 } } }),
    );
    let expected: Vec<[u64; 5]> = full_tokens
        .iter()
        .copied()
        .filter(|t| (from..=to).contains(&t[0]))
        .collect();
    assert!(expected.len() > 10);
    assert_eq!(absolute(range["data"].as_array().unwrap()), expected);

    // Rename an attribute in the text: the delta against the first result,
    // applied as a client does, gives the full tokens of the new text.
    let start = BILLING.find("  email: string").unwrap();
    client.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": uri, "version": 2 },
            "contentChanges": [{ "range": range_of(BILLING, start, start + "  email: string".len(), Enc::Utf16),
                                 "text": "  emailAddress: string\n  phone: string?" }],
        }),
    );
    client.diagnostics_for(&uri, 2);
    let delta = client.result(
        "textDocument/semanticTokens/full/delta",
        json!({ "textDocument": document, "previousResultId": first_id }),
    );
    let edits = delta["edits"]
        .as_array()
        .unwrap_or_else(|| panic!("a delta: {delta:#}"));
    assert_eq!(edits.len(), 1, "{delta:#}");
    let mut data: Vec<Value> = full["data"].as_array().unwrap().clone();
    let edit = &edits[0];
    let (at, deleted) = (
        edit["start"].as_u64().unwrap() as usize,
        edit["deleteCount"].as_u64().unwrap() as usize,
    );
    assert!(deleted < data.len() / 4, "a small edit, not the whole file: {edit}");
    data.splice(at..at + deleted, edit["data"].as_array().cloned().unwrap_or_default());
    let second_id = delta["resultId"].as_str().unwrap().to_string();
    assert_ne!(second_id, first_id);
    let fresh = client.result("textDocument/semanticTokens/full", json!({ "textDocument": document }));
    assert_eq!(data, *fresh["data"].as_array().unwrap());

    // An id that is not the last one kept: the full tokens.
    let stale = client.result(
        "textDocument/semanticTokens/full/delta",
        json!({ "textDocument": document, "previousResultId": second_id }),
    );
    assert!(stale["data"].is_array(), "{stale:#}");
    assert_eq!(stale["data"], fresh["data"]);
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

// ---------------------------------------------------------------------------
// Settings: dyno.severity
// ---------------------------------------------------------------------------

fn severities_of(diagnostics: &Value) -> Vec<(String, u64)> {
    diagnostics
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["code"].as_str().unwrap().to_string(), d["severity"].as_u64().unwrap()))
        .collect()
}

/// The overrides come from `workspace/configuration` after `initialized`,
/// from a `didChangeConfiguration` carrying the section, and again from
/// `workspace/configuration` when one comes without it; pushed and pulled
/// diagnostics both follow them.
#[test]
fn severity_overrides_from_the_configuration_apply_to_pushed_and_pulled_diagnostics() {
    let mut client = LspClient::spawn();
    client.answer(
        "workspace/configuration",
        json!([{ "severity": { "E203": "warning", "W999": "loud" } }]),
    );
    let response = client.request(
        "initialize",
        json!({ "processId": null, "rootUri": null,
                "capabilities": { "workspace": { "configuration": true } } }),
    );
    assert!(response["result"].is_object(), "{response}");
    client.notify("initialized", json!({}));
    let uri = doc_uri("billing.dyno");
    let text = billing_with_typo();
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "dyno", "version": 1, "text": text } }),
    );
    // The server asked for the section: E203 comes as a warning (2), at
    // once or after a first publish made before the answer arrived.
    let warned = client.wait_for_notification(
        "textDocument/publishDiagnostics",
        |p| p["uri"] == uri && p["diagnostics"][0]["severity"] == 2,
        TIMEOUT,
    );
    assert_eq!(severities_of(&warned["diagnostics"]), [("E203".to_string(), 2)]);
    let ignored = client.wait_for_notification("window/logMessage", |p| p["type"] == 2, TIMEOUT);
    assert!(
        ignored["message"].as_str().unwrap().contains("W999: \"loud\""),
        "{ignored}"
    );

    // Pushed with the notification: turned off.
    client.notify(
        "workspace/didChangeConfiguration",
        json!({ "settings": { "dyno": { "severity": { "E203": "off" } } } }),
    );
    let off = client.wait_for_notification(
        "textDocument/publishDiagnostics",
        |p| p["uri"] == uri && p["diagnostics"] == json!([]),
        TIMEOUT,
    );
    assert_eq!(off["version"], 1);
    let pulled = client.result("textDocument/diagnostic", json!({ "textDocument": { "uri": uri } }));
    assert_eq!(pulled["items"], json!([]), "{pulled:#}");
    let off_id = pulled["resultId"].as_str().unwrap().to_string();

    // Announced without the section: fetched again. A hint now (4), and
    // the old result id no longer holds: the settings changed.
    client.answer("workspace/configuration", json!([{ "severity": { "E203": "hint" } }]));
    client.notify("workspace/didChangeConfiguration", json!({ "settings": null }));
    let deadline = std::time::Instant::now() + TIMEOUT;
    let hinted = loop {
        let pulled = client.result(
            "textDocument/diagnostic",
            json!({ "textDocument": { "uri": uri }, "previousResultId": off_id }),
        );
        if pulled["kind"] == "full" {
            break pulled;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the settings were never fetched again"
        );
    };
    assert_eq!(severities_of(&hinted["items"]), [("E203".to_string(), 4)]);
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}
