//! `dyno lsp` on a file large enough that its analysis takes a while: the
//! syntax errors of an edit are published first, and the checker's
//! diagnostics of the last complete analysis stay on screen meanwhile —
//! they must not vanish and come back on every keystroke. And on a file
//! over the size limit of whole-document answers, the outline and the
//! semantic tokens are bounded while ranges still answer.

mod common;

use std::collections::HashSet;

use common::lsp_client::{LspClient, TIMEOUT};
use serde_json::{Value, json};

const URI: &str = "file:///dyno-e2e/large.dyno";

fn is_syntax(diagnostic: &Value) -> bool {
    diagnostic["code"].as_str().is_some_and(|c| c.starts_with("E0"))
}

/// `(code, range)` of each diagnostic, as the wire has them.
fn keys(diagnostics: &[Value]) -> Vec<String> {
    diagnostics
        .iter()
        .map(|d| format!("{} {}", d["code"], d["range"]))
        .collect()
}

/// Every publish of `version`, up to the complete one: the one whose codes
/// are those of a fresh analysis of `text`.
fn publishes_until_complete(client: &mut LspClient, version: i64, text: &str) -> Vec<Vec<Value>> {
    let expected: Vec<String> = dyno::check::analyze(text)
        .diagnostics()
        .iter()
        .take(500)
        .map(|d| format!("\"{}\"", d.code.as_str()))
        .collect();
    let mut publishes = Vec::new();
    loop {
        let params = client.wait_for_notification(
            "textDocument/publishDiagnostics",
            |p| p["uri"] == URI && p["version"] == version,
            TIMEOUT,
        );
        let diagnostics = params["diagnostics"].as_array().cloned().unwrap_or_default();
        let codes: Vec<String> = diagnostics.iter().map(|d| d["code"].to_string()).collect();
        publishes.push(diagnostics);
        if codes == expected {
            return publishes;
        }
    }
}

#[test]
fn checker_diagnostics_outside_an_edit_stay_while_a_large_file_is_reanalysed() {
    // About 20,000 lines (470 KB). An edit of a table is checked from
    // scratch, which takes far longer than the 50 ms after which the server
    // publishes syntax errors first (an edit of an entity or a pattern is
    // checked from the check before it, often sooner).
    // Large enough to pass `AFTER` on a fast machine too: a debug build
    // checked 20,000 lines in about 110 ms on one.
    let generated = dyno::synth::generate(&dyno::synth::Config::for_lines(150_000, 7));
    let mut text = generated.dyno;
    let mut client = LspClient::start();
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": URI, "languageId": "dyno", "version": 1, "text": text } }),
    );
    let mut shown = publishes_until_complete(&mut client, 1, &text).pop().unwrap();
    assert!(
        shown.iter().any(|d| !is_syntax(d)),
        "the generated schema has planted hazards"
    );

    let lines: Vec<&str> = text.lines().collect();
    let index_lines: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("  index gsi2 "))
        .collect();
    assert!(index_lines.len() >= 3);
    let mut partial_publishes = 0;
    for (n, &line) in index_lines.iter().step_by(index_lines.len() / 3).take(3).enumerate() {
        // `} ` at the start of an index line: the table ends early, what
        // follows is a syntax error, and the patterns on that index have no
        // Query. Undone before the next one, so that the diagnostics stay
        // under the 500 a file publishes.
        let version = 2 + 2 * n as i64;
        client.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": URI, "version": version }, "contentChanges": [{
                "range": { "start": { "line": line, "character": 0 }, "end": { "line": line, "character": 0 } },
                "text": "} " }] }),
        );
        let at: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
        text.insert_str(at, "} ");

        let mut publishes = publishes_until_complete(&mut client, version, &text);
        let complete = publishes.pop().unwrap();
        assert!(complete.iter().any(is_syntax), "the edit is a syntax error");
        // What the last complete publish showed away from the edited line
        // (the edit adds no line, so nothing else moves).
        let kept: HashSet<String> = keys(&shown)
            .into_iter()
            .zip(&shown)
            .filter(|(_, d)| !is_syntax(d) && d["range"]["start"]["line"] != line && d["range"]["end"]["line"] != line)
            .map(|(key, _)| key)
            .collect();
        for partial in &publishes {
            partial_publishes += 1;
            assert!(
                partial.iter().any(is_syntax),
                "a syntax-first publish has the syntax error"
            );
            let partial_keys: HashSet<String> = keys(partial).into_iter().collect();
            let missing: Vec<_> = kept.difference(&partial_keys).collect();
            assert!(
                missing.is_empty(),
                "{} of {} diagnostics dropped while re-analysing, e.g. {:?}",
                missing.len(),
                kept.len(),
                &missing[..missing.len().min(3)]
            );
        }
        client.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": URI, "version": version + 1 }, "contentChanges": [{
                "range": { "start": { "line": line, "character": 0 }, "end": { "line": line, "character": 2 } },
                "text": "" }] }),
        );
        text.replace_range(at..at + 2, "");
        shown = publishes_until_complete(&mut client, version + 1, &text).pop().unwrap();
        let checker = |ds: &[Value]| ds.iter().filter(|d| !is_syntax(d)).count();
        assert!(
            checker(&complete) > checker(&shown),
            "the edit adds checker diagnostics beyond its syntax error"
        );
    }
    assert!(
        partial_publishes > 0,
        "no edit of a 20,000-line file's tables got a syntax-first publish; its analysis is expected to take longer than 50 ms"
    );
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

/// `dyno::ide::symbols::MAX_OUTLINE_SYMBOLS` and
/// `semantic_tokens::MAX_FULL_BYTES`, as documented in docs/lsp.md.
const MAX_OUTLINE_SYMBOLS: usize = 10_000;
const MAX_FULL_BYTES: usize = 1 << 20;

/// A generated schema just over [`MAX_FULL_BYTES`], opened; returns its text.
fn open_just_over_the_limit(client: &mut LspClient) -> String {
    // About 23.5 bytes a line: 1.2 MB.
    let text = dyno::synth::generate(&dyno::synth::Config::for_lines(51_000, 3)).dyno;
    assert!(
        text.len() > MAX_FULL_BYTES && text.len() < MAX_FULL_BYTES * 3 / 2,
        "{}",
        text.len()
    );
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": URI, "languageId": "dyno", "version": 1, "text": text } }),
    );
    // The analysis takes a while in a debug build on a busy machine; the
    // requests below then answer from it.
    client.wait_for_notification(
        "textDocument/publishDiagnostics",
        |p| p["uri"] == URI && p["version"] == 1,
        TIMEOUT * 6,
    );
    text
}

fn count_symbols(symbols: &Value) -> usize {
    symbols
        .as_array()
        .map_or(0, |s| s.iter().map(|s| 1 + count_symbols(&s["children"])).sum())
}

/// The absolute line of each token of a `data` array.
fn token_lines(data: &Value) -> Vec<u64> {
    let data = data.as_array().expect("token data");
    let mut line = 0;
    data.chunks(5)
        .map(|t| {
            line += t[0].as_u64().unwrap();
            line
        })
        .collect()
}

#[test]
fn whole_document_answers_on_a_file_over_the_limit_are_bounded() {
    let capabilities = json!({ "textDocument": { "semanticTokens": {
        "requests": { "range": true, "full": { "delta": true } },
        "tokenTypes": [], "tokenModifiers": [], "formats": ["relative"],
        "serverCancelSupport": true } } });
    let (mut client, _) = LspClient::start_with(capabilities, &[]);
    let text = open_just_over_the_limit(&mut client);
    let document = json!({ "uri": URI });

    // The outline: whole items from the start, then one note.
    let symbols = client.result("textDocument/documentSymbol", json!({ "textDocument": document }));
    let symbols = symbols.as_array().expect("symbols");
    let total = count_symbols(&Value::Array(symbols.clone()));
    assert!(total <= MAX_OUTLINE_SYMBOLS, "{total} symbols");
    assert!(
        total > MAX_OUTLINE_SYMBOLS - 100,
        "{total} symbols: cut far below the cap"
    );
    let (note, listed) = symbols.split_last().unwrap();
    let parse = dyno::syntax::parse(&text);
    let outline = dyno::ide::symbols::outline(&text, &parse.file);
    let left_out = outline.len() - listed.len();
    assert_eq!(
        note["name"],
        format!("… {left_out} more items not listed"),
        "the last symbol says how many items were left out"
    );
    assert_eq!(note["kind"], 21, "kind Null");
    assert!(note["detail"].as_str().unwrap().contains("10000 symbols"), "{note}");
    let names = |s: &[Value]| {
        s.iter()
            .map(|s| s["name"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    let expected: Vec<String> = outline[..listed.len()].iter().map(|s| s.name.clone()).collect();
    assert_eq!(names(listed), expected, "the first items, in order");
    // The note spans the items left out and selects the first one's name.
    let first_left_out = &outline[listed.len()];
    let line_of = |offset: usize| text[..offset].matches('\n').count();
    assert_eq!(
        note["selectionRange"]["start"]["line"],
        line_of(first_left_out.selection.start())
    );
    assert_eq!(note["range"]["start"]["line"], line_of(first_left_out.span.start()));
    assert_eq!(
        note["range"]["end"]["line"],
        line_of(outline.last().unwrap().span.end())
    );

    // No full tokens, as a delta neither: `ServerCancelled`.
    for (method, params) in [
        ("textDocument/semanticTokens/full", json!({ "textDocument": document })),
        (
            "textDocument/semanticTokens/full/delta",
            json!({ "textDocument": document, "previousResultId": "1" }),
        ),
    ] {
        let response = client.request(method, params);
        assert_eq!(response["error"]["code"], -32802, "{method}: {response}");
    }

    // The visible range is coloured, exactly as for a small file.
    let middle = text.lines().count() / 2;
    let range = json!({ "start": { "line": middle, "character": 0 }, "end": { "line": middle + 60, "character": 0 } });
    let answer = client.result(
        "textDocument/semanticTokens/range",
        json!({ "textDocument": document, "range": range }),
    );
    let lines = token_lines(&answer["data"]);
    assert!(lines.len() > 60, "{} tokens in 60 lines", lines.len());
    assert!(lines.iter().all(|&l| l >= middle as u64 && l <= middle as u64 + 60));
    let file = dyno::ide::File::new(text.clone());
    let start: usize = text.split_inclusive('\n').take(middle).map(str::len).sum();
    let end: usize = text.split_inclusive('\n').take(middle + 60).map(str::len).sum();
    let expected = dyno::ide::semantic_tokens::tokens_in(&file, dyno::syntax::Span::new(start, end));
    assert_eq!(lines.len(), expected.len(), "the tokens of the range");

    // A range over the whole document is answered for its first MiB.
    let last = text.lines().count();
    let range = json!({ "start": { "line": 0, "character": 0 }, "end": { "line": last, "character": 0 } });
    let id = client.send_request(
        "textDocument/semanticTokens/range",
        json!({ "textDocument": document, "range": range }),
    );
    let answer = client.response_within(&json!(id), TIMEOUT * 6);
    let lines = token_lines(&answer["result"]["data"]);
    let within = text[..MAX_FULL_BYTES].matches('\n').count() as u64;
    assert!(lines.len() > 10_000, "{} tokens", lines.len());
    assert!(
        lines.iter().all(|&l| l <= within),
        "a token past the first MiB of the range"
    );

    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

#[test]
fn a_client_without_server_cancel_gets_the_tokens_of_the_first_megabyte() {
    let mut client = LspClient::start();
    let text = open_just_over_the_limit(&mut client);
    let id = client.send_request(
        "textDocument/semanticTokens/full",
        json!({ "textDocument": { "uri": URI } }),
    );
    let response = client.response_within(&json!(id), TIMEOUT * 6);
    let answer = &response["result"];
    assert!(
        answer.get("resultId").is_none_or(Value::is_null),
        "no result id: {}",
        answer["resultId"]
    );
    let lines = token_lines(&answer["data"]);
    // The lines that end within the first MAX_FULL_BYTES.
    let within = text[..MAX_FULL_BYTES].matches('\n').count() as u64;
    assert!(lines.len() > 10_000, "{} tokens", lines.len());
    assert!(lines.iter().all(|&l| l < within), "a token past the first megabyte");
    assert!(
        *lines.last().unwrap() > within - 10,
        "the tokens reach the end of the first megabyte"
    );
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

/// A client that takes `$/progress` sees one report for an analysis that
/// takes a while (created, begun, ended), and none for a small file.
#[test]
fn a_slow_analysis_is_reported_as_progress_and_a_quick_one_is_not() {
    let (mut client, _) = LspClient::start_with(json!({ "window": { "workDoneProgress": true } }), &[]);
    let small = "file:///dyno-e2e/billing.dyno";
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": small, "languageId": "dyno", "version": 1,
            "text": include_str!("../examples/billing.dyno") } }),
    );
    client.diagnostics_for(small, 1);
    // Longer than the 200 ms after which a report starts.
    let quiet = client.drain(std::time::Duration::from_millis(600));
    assert!(
        !quiet
            .iter()
            .any(|m| m["method"] == "window/workDoneProgress/create" || m["method"] == "$/progress"),
        "a quick analysis started a report: {quiet:#?}"
    );

    // Large enough to pass `AFTER` on a fast machine too: a debug build
    // checked 20,000 lines in about 110 ms on one.
    let generated = dyno::synth::generate(&dyno::synth::Config::for_lines(150_000, 7));
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": URI, "languageId": "dyno", "version": 1, "text": generated.dyno } }),
    );
    let created = client.wait_for_server_request("window/workDoneProgress/create", TIMEOUT);
    let token = created["token"].clone();
    let begin = client.wait_for_notification("$/progress", |p| p["token"] == token, TIMEOUT);
    assert_eq!(begin["value"]["kind"], "begin", "{begin}");
    assert_eq!(begin["value"]["title"], "dyno: checking large.dyno");
    let end = client.wait_for_notification("$/progress", |p| p["token"] == token, TIMEOUT);
    assert_eq!(end["value"]["kind"], "end", "{end}");
    client.wait_for_notification(
        "textDocument/publishDiagnostics",
        |p| {
            p["uri"] == URI
                && p["diagnostics"]
                    .as_array()
                    .is_some_and(|d| d.iter().any(|d| !is_syntax(d)))
        },
        TIMEOUT,
    );
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}
