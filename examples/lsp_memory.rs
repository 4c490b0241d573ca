//! What whole-document answers cost on a very large schema: drives the
//! release `dyno lsp` over stdio and prints, for `documentSymbol`,
//! `semanticTokens/full`, `semanticTokens/full/delta` and
//! `semanticTokens/range` (the first 100 lines), the size of each answer's
//! JSON body in bytes, how long it took, and the server's resident memory
//! (`VmRSS` from `/proc/PID/status`) after it; last, the peak (`VmHWM`).
//!
//! cargo build --release --bin dyno --example lsp_memory
//! target/release/examples/lsp_memory --mb 10 [--no-cancel-support] [--rounds 1] [--seed 1] [--server PATH]
//!
//! The schema is `dyno::synth`'s, of about `--mb` megabytes. The client
//! declares `semanticTokens.serverCancelSupport` as VS Code does, unless
//! `--no-cancel-support` is given (as Neovim does). `--rounds N` sends the
//! four requests N times over: memory that a request keeps shows as
//! `VmRSS` growing from round to round.

use std::path::PathBuf;
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

#[path = "support/lsp_server.rs"]
mod lsp_server;

use lsp_server::Server;

const TIMEOUT: Duration = Duration::from_secs(600);
const URI: &str = "file:///bench/large.dyno";

/// Sends a request and waits for its response: (body bytes, response, time).
fn request(server: &mut Server, method: &str, params: Value) -> (usize, Value, Duration) {
    let (id, sent) = server.request(method, params);
    let response = server.response(id);
    (response.len, response.message, response.at - sent)
}

/// `VmRSS` in MiB, once the server has had a moment to free what it
/// dropped.
fn rss_mib(server: &Server) -> f64 {
    thread::sleep(Duration::from_millis(500));
    server.status_kib("VmRSS:").unwrap_or(0) as f64 / 1024.0
}

fn count_symbols(symbols: &Value) -> usize {
    symbols
        .as_array()
        .map_or(0, |s| s.iter().map(|s| 1 + count_symbols(&s["children"])).sum())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let megabytes: f64 = value("--mb").and_then(|v| v.parse().ok()).unwrap_or(10.0);
    let seed: u64 = value("--seed").and_then(|v| v.parse().ok()).unwrap_or(1);
    let rounds: usize = value("--rounds").and_then(|v| v.parse().ok()).unwrap_or(1);
    let cancel_support = !args.iter().any(|a| a == "--no-cancel-support");
    let server_path = value("--server").map(PathBuf::from).unwrap_or_else(|| {
        let exe = std::env::current_exe().expect("current exe");
        exe.parent().and_then(|p| p.parent()).expect("target dir").join("dyno")
    });

    // The generator writes about 23.5 bytes a line.
    let lines = (megabytes * 1e6 / 23.5) as usize;
    let text = dyno::synth::generate(&dyno::synth::Config::for_lines(lines, seed)).dyno;
    let line_count = text.lines().count();
    println!(
        "schema: {line_count} lines, {} bytes; server: {}; serverCancelSupport: {cancel_support}",
        text.len(),
        server_path.display()
    );

    let mut server = Server::spawn(&server_path, TIMEOUT);
    request(
        &mut server,
        "initialize",
        json!({ "processId": null, "rootUri": null, "capabilities": { "textDocument": {
            "publishDiagnostics": { "versionSupport": true },
            "semanticTokens": {
                "requests": { "range": true, "full": { "delta": true } },
                "tokenTypes": [], "tokenModifiers": [], "formats": ["relative"],
                "serverCancelSupport": cancel_support
            } } } }),
    );
    server.notify("initialized", json!({}));
    let started = Instant::now();
    server.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": URI, "languageId": "dyno", "version": 0, "text": text } }),
    );
    // The complete publish (a large file may get its syntax errors first):
    // the one with the codes of the whole analysis.
    let expected: Vec<Value> = dyno::check::analyze(&text)
        .diagnostics()
        .iter()
        .take(500)
        .map(|d| json!(d.code.as_str()))
        .collect();
    drop(text);
    let codes = |m: &Value| -> Vec<Value> {
        let diagnostics = m["params"]["diagnostics"].as_array();
        diagnostics.map_or(Vec::new(), |ds| ds.iter().map(|d| d["code"].clone()).collect())
    };
    server.wait(|m| {
        m["method"] == "textDocument/publishDiagnostics" && m["params"]["version"] == 0 && codes(m) == expected
    });
    println!(
        "didOpen → complete publishDiagnostics: {:.1} s; VmRSS {:.1} MiB",
        started.elapsed().as_secs_f64(),
        rss_mib(&server)
    );

    println!("\n| request | answer bytes | what | ms | VmRSS after, MiB |");
    println!("|---|--:|---|--:|--:|");
    let document = json!({ "uri": URI });
    let row = |server: &Server, method: &str, len: usize, what: String, took: Duration| {
        println!(
            "| {method} | {len} | {what} | {:.0} | {:.1} |",
            took.as_secs_f64() * 1e3,
            rss_mib(server)
        );
    };

    for _ in 0..rounds {
        let (len, answer, took) = request(
            &mut server,
            "textDocument/documentSymbol",
            json!({ "textDocument": document }),
        );
        let result = &answer["result"];
        let last = result.as_array().and_then(|s| s.last()).map(|s| s["name"].clone());
        let what = format!(
            "{} top-level, {} in all; last: {}",
            result.as_array().map_or(0, Vec::len),
            count_symbols(result),
            last.unwrap_or(Value::Null)
        );
        drop(answer);
        row(&server, "documentSymbol", len, what, took);

        let describe = |answer: &Value| match (&answer["result"], &answer["error"]) {
            (Value::Null, Value::Null) => "null".to_string(),
            (_, Value::Object(error)) => format!("error {}", error["code"]),
            (result, _) => format!(
                "{} tokens{}",
                result["data"].as_array().map_or(0, |d| d.len() / 5),
                result["edits"]
                    .as_array()
                    .map_or(String::new(), |e| format!(", {} edits", e.len()))
            ),
        };
        let (len, answer, took) = request(
            &mut server,
            "textDocument/semanticTokens/full",
            json!({ "textDocument": document }),
        );
        let result_id = answer["result"]["resultId"].clone();
        let what = describe(&answer);
        drop(answer);
        row(&server, "semanticTokens/full", len, what, took);

        let (len, answer, took) = request(
            &mut server,
            "textDocument/semanticTokens/full/delta",
            json!({ "textDocument": document, "previousResultId": result_id.as_str().unwrap_or("0") }),
        );
        let what = describe(&answer);
        drop(answer);
        row(&server, "semanticTokens/full/delta", len, what, took);

        let (len, answer, took) = request(
            &mut server,
            "textDocument/semanticTokens/range",
            json!({ "textDocument": document, "range": {
                "start": { "line": line_count / 2, "character": 0 },
                "end": { "line": line_count / 2 + 100, "character": 0 } } }),
        );
        let what = describe(&answer);
        drop(answer);
        row(&server, "semanticTokens/range (100 lines)", len, what, took);
    }

    println!(
        "\nVmRSS at the end: {:.1} MiB; peak (VmHWM): {:.1} MiB",
        rss_mib(&server),
        server.status_kib("VmHWM:").unwrap_or(0) as f64 / 1024.0
    );
    request(&mut server, "shutdown", Value::Null);
    server.notify("exit", Value::Null);
    let _ = server.child.wait();
}
