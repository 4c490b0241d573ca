//! The LSP latency benchmark: drives the release `dyno lsp` over stdio like
//! an editor and prints p50/p95/max latencies and the server's peak RSS.
//!
//! cargo build --release && cargo run --release --example lsp_latency -- --lines 5000
//! cargo run --release --example lsp_latency -- --lines 50000 [--edits 200] [--requests 100] [--seed 1]
//!
//! It opens a generated schema (`dyno::synth`, about `--lines` lines), then
//! makes `--edits` single-character edits one after the other — a letter
//! typed at a random place, then deleted again — each timed from sending
//! `didChange` to receiving the `publishDiagnostics` of that version. For a
//! large file the server may first publish the syntax errors (with the
//! checker's diagnostics of the previous analysis carried over) and the
//! complete diagnostics later: both are timed ("first" and "complete"; a
//! publish is complete when its codes are those of `dyno::check::analyze`
//! of the edited text, computed here before the edit is sent). Then
//! the same in key templates (a letter typed right after a hole's `{`, which
//! renames the attribute the key is built from), then the same edits with
//! a hover sent right after each typed letter (timed from request to
//! response, before the analysis of the edit is done). Then `--requests`
//! hovers and as many completions at random positions of the settled
//! document. Then `--words` words of `--letters` letters typed as an
//! editor sends them, a key every `--interval` ms without waiting for the
//! server, each timed from its last key to the complete diagnostics. Last,
//! the server's peak resident memory (`VmHWM`), before the typing and after.
//!
//! `--server PATH` picks the binary (default: `dyno` next to this example's
//! directory, i.e. `target/release/dyno`).

use std::path::PathBuf;
use std::time::Duration;

use serde_json::{Value, json};

#[path = "support/lsp_server.rs"]
mod lsp_server;

use lsp_server::Server;

const TIMEOUT: Duration = Duration::from_secs(60);
const URI: &str = "file:///bench/schema.dyno";

/// xorshift64*, deterministic by seed.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n.max(1) as u64) as usize
    }
}

/// The codes a complete publish of `text` has, in order.
fn expected_codes(text: &str) -> Vec<Value> {
    let analysis = dyno::check::analyze(text);
    let codes = analysis.diagnostics().iter().take(500);
    codes.map(|d| json!(d.code.as_str())).collect()
}

fn codes(message: &Value) -> Vec<Value> {
    let diagnostics = message["params"]["diagnostics"].as_array();
    diagnostics.map_or(Vec::new(), |ds| ds.iter().map(|d| d["code"].clone()).collect())
}

/// The byte offset of (`line`, `column` in characters) in `text`.
fn offset(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
    let rest = &text[start..];
    start + rest.char_indices().nth(column).map_or(rest.len(), |(i, _)| i)
}

struct Stats {
    name: &'static str,
    samples: Vec<Duration>,
}

impl Stats {
    fn new(name: &'static str) -> Stats {
        Stats {
            name,
            samples: Vec::new(),
        }
    }

    fn row(&self) -> String {
        let mut sorted = self.samples.clone();
        sorted.sort();
        let at = |q: f64| sorted[((sorted.len() as f64 - 1.0) * q).round() as usize];
        let ms = |d: Duration| format!("{:.2}", d.as_secs_f64() * 1e3);
        if sorted.is_empty() {
            return format!("| {} | 0 | - | - | - |", self.name);
        }
        format!(
            "| {} | {} | {} | {} | {} |",
            self.name,
            sorted.len(),
            ms(at(0.5)),
            ms(at(0.95)),
            ms(*sorted.last().unwrap())
        )
    }
}

/// Which edits a series makes, and what it times.
#[derive(Clone, Copy, PartialEq)]
enum Series {
    /// Letters typed anywhere: the diagnostics.
    Anywhere,
    /// Letters typed into key template holes: the diagnostics.
    InKeys,
    /// Letters typed anywhere: a hover sent right after each.
    Hover,
}

/// What one series of edits measured.
struct Edits {
    first: Stats,
    full: Stats,
    hover: Stats,
    /// Edits whose first publish was a syntax-first one.
    partial: usize,
}

/// At each of `at` (line, column), types a letter and deletes it again (two
/// versions), timing each typed letter from `didChange` to the first and
/// to the complete `publishDiagnostics` of its version; with `hover`, a
/// hover at a random place is sent right after the letter and timed
/// instead. Every deletion restores the text and is waited for, untimed.
fn type_and_delete(
    server: &mut Server,
    text: &mut String,
    version: &mut i64,
    at: &[(usize, usize)],
    rng: &mut Rng,
    series: Series,
) -> Edits {
    let (first, full) = match series {
        Series::InKeys => (
            "keystroke in a key template → first publishDiagnostics",
            "keystroke in a key template → complete publishDiagnostics",
        ),
        _ => (
            "keystroke → first publishDiagnostics",
            "keystroke → complete publishDiagnostics",
        ),
    };
    let hover = series == Series::Hover;
    let mut out = Edits {
        first: Stats::new(first),
        full: Stats::new(full),
        hover: Stats::new("hover right after a keystroke"),
        partial: 0,
    };
    let lines: Vec<usize> = text.lines().map(|l| l.chars().count()).collect();
    for &(line, column) in at {
        for letter in [Some((b'a' + rng.below(26) as u8) as char), None] {
            *version += 1;
            let offset = offset(text, line, column);
            let change = match letter {
                Some(letter) => {
                    text.insert(offset, letter);
                    json!({ "range": { "start": { "line": line, "character": column },
                                       "end": { "line": line, "character": column } },
                            "text": letter.to_string() })
                }
                None => {
                    text.remove(offset);
                    json!({ "range": { "start": { "line": line, "character": column },
                                       "end": { "line": line, "character": column + 1 } },
                            "text": "" })
                }
            };
            let expected = expected_codes(text);
            let sent = server.notify(
                "textDocument/didChange",
                json!({ "textDocument": { "uri": URI, "version": *version }, "contentChanges": [change] }),
            );
            let timed = letter.is_some();
            let published = |m: &Value| {
                m["method"] == "textDocument/publishDiagnostics" && m["params"]["version"] == json!(*version)
            };
            // Publishes that arrive while the hover is answered are kept.
            let mut early: Vec<Value> = Vec::new();
            if timed && hover {
                let line = rng.below(lines.len());
                let character = rng.below(lines[line] + 1);
                let (id, asked) = server.request(
                    "textDocument/hover",
                    json!({ "textDocument": { "uri": URI }, "position": { "line": line, "character": character } }),
                );
                let answer = server.wait(|m| {
                    if published(m) {
                        early.push(m.clone());
                        return false;
                    }
                    m.get("id") == Some(&json!(id)) && m.get("method").is_none()
                });
                out.hover.samples.push(answer.at - asked);
            }
            // Without a hover nothing arrived early: `at` is the publish's.
            let (mut message, mut at) = match early.pop() {
                Some(message) => (message, None),
                None => {
                    let received = server.wait(published);
                    (received.message, Some(received.at))
                }
            };
            let measured = timed && !hover;
            if let (true, Some(at)) = (measured, at) {
                out.first.samples.push(at - sent);
            }
            while codes(&message) != expected {
                out.partial += usize::from(measured);
                let received = server.wait(published);
                (message, at) = (received.message, Some(received.at));
            }
            if let (true, Some(at)) = (measured, at) {
                out.full.samples.push(at - sent);
            }
        }
    }
    out
}

/// Words typed as an editor sends them: a key every `interval`, without
/// waiting for any publish, at each of `at`; each word is then deleted in
/// one change. Timed from the word's last key to the complete
/// `publishDiagnostics` of that version (the earlier versions' publishes,
/// if any, are let pass).
fn type_words(
    server: &mut Server,
    text: &mut String,
    version: &mut i64,
    at: &[(usize, usize)],
    rng: &mut Rng,
    letters: usize,
    interval: Duration,
) -> Stats {
    let mut stats = Stats::new("word typed at one key an interval → complete publishDiagnostics after its last key");
    for &(line, column) in at {
        let word: String = (0..letters).map(|_| (b'a' + rng.below(26) as u8) as char).collect();
        let start = offset(text, line, column);
        let mut typed = text.clone();
        typed.insert_str(start, &word);
        // Computed before the first key: on two cores, the client's own
        // analysis would slow the server while it types.
        let expected = expected_codes(&typed);
        let mut last_sent = None;
        for (k, letter) in word.chars().enumerate() {
            *version += 1;
            let change = json!({ "range": { "start": { "line": line, "character": column + k },
                                            "end": { "line": line, "character": column + k } },
                                 "text": letter.to_string() });
            if k > 0 {
                std::thread::sleep(interval);
            }
            last_sent = Some(server.notify(
                "textDocument/didChange",
                json!({ "textDocument": { "uri": URI, "version": *version }, "contentChanges": [change] }),
            ));
        }
        *text = typed;
        let last = *version;
        let complete = server.wait(|m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["version"] == json!(last)
                && codes(m) == expected
        });
        stats.samples.push(complete.at - last_sent.expect("a word has letters"));
        // The word goes again in one change, waited for, untimed.
        text.replace_range(start..start + word.len(), "");
        let expected = expected_codes(text);
        *version += 1;
        let change = json!({ "range": { "start": { "line": line, "character": column },
                                        "end": { "line": line, "character": column + letters } },
                             "text": "" });
        server.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": URI, "version": *version }, "contentChanges": [change] }),
        );
        let restored = *version;
        server.wait(|m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["version"] == json!(restored)
                && codes(m) == expected
        });
    }
    stats
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let number = |flag: &str, default: usize| value(flag).and_then(|v| v.parse().ok()).unwrap_or(default);
    let lines = number("--lines", 5000);
    let edits = number("--edits", 200);
    let requests = number("--requests", 100);
    let seed = number("--seed", 1) as u64;
    let words = number("--words", 20);
    let letters = number("--letters", 8).max(1);
    let interval = Duration::from_millis(number("--interval", 50) as u64);
    let server_path = value("--server").map(PathBuf::from).unwrap_or_else(|| {
        let exe = std::env::current_exe().expect("current exe");
        exe.parent().and_then(|p| p.parent()).expect("target dir").join("dyno")
    });

    let mut text = dyno::synth::generate(&dyno::synth::Config::for_lines(lines, seed)).dyno;
    // Line lengths in characters: every generated character is in the BMP,
    // so they are UTF-16 columns too.
    let line_lengths: Vec<usize> = text.lines().map(|l| l.chars().count()).collect();
    eprintln!(
        "schema: {} lines, {} bytes; server: {}",
        line_lengths.len(),
        text.len(),
        server_path.display()
    );

    let mut server = Server::spawn(&server_path, TIMEOUT);
    let (id, _) = server.request(
        "initialize",
        json!({ "processId": null, "rootUri": null, "capabilities": {
            "textDocument": { "publishDiagnostics": { "versionSupport": true } } } }),
    );
    server.response(id);
    server.notify("initialized", json!({}));

    let is_publish_of = |version: i64| {
        move |m: &Value| m["method"] == "textDocument/publishDiagnostics" && m["params"]["version"] == json!(version)
    };
    let expected = expected_codes(&text);
    let sent = server.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": URI, "languageId": "dyno", "version": 0, "text": text } }),
    );
    let mut published = server.wait(is_publish_of(0));
    while codes(&published.message) != expected {
        published = server.wait(is_publish_of(0));
    }
    let open = published.at - sent;

    // Edits: a letter typed at a random place of a random line, then
    // deleted. The text is the generated one again after every deletion.
    let mut rng = Rng(seed.max(1) * 0x9E37_79B9);
    let anywhere: Vec<(usize, usize)> = (0..edits)
        .map(|_| {
            let line = rng.below(line_lengths.len());
            (line, rng.below(line_lengths[line] + 1))
        })
        .collect();
    let mut version = 0;
    let typed = type_and_delete(
        &mut server,
        &mut text,
        &mut version,
        &anywhere,
        &mut rng,
        Series::Anywhere,
    );
    // The same in key templates: a letter typed right after a hole's `{`
    // renames the attribute the key is built from (every pattern reading
    // through it is resolved again), then deleted.
    let holes: Vec<(usize, usize)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.trim_start().starts_with(|c: char| c.is_ascii_lowercase()) && l.contains("= \""))
        .flat_map(|(n, l)| {
            l.char_indices()
                .filter(|&(_, c)| c == '{')
                .map(move |(at, _)| (n, l[..at].chars().count() + 1))
        })
        .collect();
    let in_keys: Vec<(usize, usize)> = (0..edits).map(|_| holes[rng.below(holes.len())]).collect();
    let keyed = type_and_delete(&mut server, &mut text, &mut version, &in_keys, &mut rng, Series::InKeys);
    // Hover sent right after each typed letter, before its analysis.
    let hovered = type_and_delete(&mut server, &mut text, &mut version, &anywhere, &mut rng, Series::Hover);

    let mut hover = Stats::new("hover");
    let mut completion = Stats::new("completion");
    for _ in 0..requests {
        for (method, stats) in [
            ("textDocument/hover", &mut hover),
            ("textDocument/completion", &mut completion),
        ] {
            let line = rng.below(line_lengths.len());
            let character = rng.below(line_lengths[line] + 1);
            let (id, sent) = server.request(
                method,
                json!({ "textDocument": { "uri": URI }, "position": { "line": line, "character": character } }),
            );
            let at = server.response(id).at;
            stats.samples.push(at - sent);
        }
    }

    // Last, as its peak memory is read before and after it: words typed
    // faster than the file is checked.
    let before_typing = server.status_kib("VmHWM:");
    let places: Vec<(usize, usize)> = (0..words)
        .map(|_| {
            let line = rng.below(line_lengths.len());
            (line, rng.below(line_lengths[line] + 1))
        })
        .collect();
    let typing = type_words(
        &mut server,
        &mut text,
        &mut version,
        &places,
        &mut rng,
        letters,
        interval,
    );

    let rss = server.status_kib("VmHWM:");
    let (id, _) = server.request("shutdown", Value::Null);
    server.response(id);
    server.notify("exit", Value::Null);
    let _ = server.child.wait();

    println!(
        "\n## dyno lsp latency: {} lines, {} bytes ({} edits, {} hovers, {} completions)\n",
        line_lengths.len(),
        text.len(),
        edits,
        requests,
        requests
    );
    println!("didOpen → complete diagnostics: {:.2} ms", open.as_secs_f64() * 1e3);
    println!(
        "edits answered first by a syntax-first publish: {} of {edits} (in key templates: {} of {edits})\n",
        typed.partial, keyed.partial
    );
    println!("| what | n | p50 ms | p95 ms | max ms |");
    println!("|------|--:|-------:|-------:|-------:|");
    let mut rows = vec![&typed.first, &typed.full, &keyed.first, &keyed.full];
    rows.extend([&hovered.hover, &hover, &completion]);
    for stats in rows {
        println!("{}", stats.row());
    }
    println!(
        "\ntyping: {words} words of {letters} letters, one key every {} ms\n",
        interval.as_millis()
    );
    println!("| what | n | p50 ms | p95 ms | max ms |");
    println!("|------|--:|-------:|-------:|-------:|");
    println!("{}", typing.row());
    if let Some(kib) = before_typing {
        println!("\npeak RSS (VmHWM) before the typing: {:.1} MiB", kib as f64 / 1024.0);
    }
    match rss {
        Some(kib) => println!(
            "\npeak RSS (VmHWM): {:.1} MiB = {:.1}× the file size",
            kib as f64 / 1024.0,
            (kib * 1024) as f64 / text.len() as f64
        ),
        None => println!("\npeak RSS: unavailable (no /proc)"),
    }
}
