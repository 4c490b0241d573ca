//! `dyno lsp` on a file large enough that its analysis takes a while: the
//! syntax errors of an edit are published first, and the checker's
//! diagnostics of the last complete analysis stay on screen meanwhile —
//! they must not vanish and come back on every keystroke.

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
    // About 20,000 lines (470 KB): its analysis takes far longer than the
    // 50 ms after which the server publishes syntax errors first.
    let generated = dyno::synth::generate(&dyno::synth::Config::for_lines(20_000, 7));
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
    let member_lines: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("  status: "))
        .collect();
    assert!(member_lines.len() >= 3);
    let mut partial_publishes = 0;
    for (n, &line) in member_lines.iter().step_by(member_lines.len() / 3).take(3).enumerate() {
        // `} ` at the start of a member line: the entity ends early and what
        // follows is a syntax error.
        let version = 2 + n as i64;
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
        shown = complete;
    }
    assert!(
        partial_publishes > 0,
        "no edit of a 20,000-line file got a syntax-first publish; the analysis is expected to take longer than 50 ms"
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

    let generated = dyno::synth::generate(&dyno::synth::Config::for_lines(20_000, 7));
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
