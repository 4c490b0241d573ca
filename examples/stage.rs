//! Runs one pipeline stage on a file N times and prints the time per run:
//! a quick measurement, and the program to run under callgrind. It also
//! counts the heap: the most bytes live at once during a run, and what the
//! result holds once built (before it is dropped) — the model's weight per
//! byte of schema, which issue 19's lean model is to bring under 20×.
//!
//! cargo build --profile profiling --example stage
//! valgrind --tool=callgrind target/profiling/examples/stage check schema.dyno 1

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

fn reparse(text: &str, old: Arc<dyno::syntax::Parse>, old_text: &str) -> dyno::syntax::Parse {
    dyno::syntax::reparse_in(dyno::syntax::FileId::default(), text, old, old_text)
}

/// The editor's analysis of an edit from `old_text` to `new_text` when the
/// earlier check is held by no one else: its Queries, model and registry
/// and reads are taken (what is kept moves, as in `db`). The earlier check's remains
/// are freed here (the server frees them on a thread of its own).
fn check_owned(
    mut schema: dyno::check::Schema,
    parse: Arc<dyno::syntax::Parse>,
    old_text: &str,
    new_text: &str,
) -> (dyno::check::Schema, Arc<dyno::syntax::Parse>) {
    let parse = Arc::new(reparse(new_text, parse, old_text));
    let texts = [(dyno::syntax::FileId::default(), old_text)];
    let resolutions = std::mem::take(&mut schema.resolutions);
    let model = std::mem::take(&mut schema.model);
    let registry = std::mem::take(&mut schema.registry);
    let reads = std::mem::take(&mut schema.reads);
    let mut earlier = dyno::check::incremental::Earlier::new(&texts, &schema);
    earlier.resolutions = std::borrow::Cow::Owned(resolutions);
    earlier.model = std::borrow::Cow::Owned(model);
    earlier.registry = std::borrow::Cow::Owned(registry);
    earlier.reads = std::borrow::Cow::Owned(reads);
    let source = dyno::check::Source {
        file: dyno::syntax::FileId::default(),
        text: new_text,
        parse: &parse,
    };
    let next = dyno::check::check_after(&[source], &Default::default(), &mut earlier);
    (next, parse)
}

/// `stage edits FILE N`: a letter typed at each of N random places and
/// deleted again, each edit re-parsed and checked after the check before
/// it ([`check_owned`]); the times' spread and the slowest edits, to find
/// what makes a keystroke's tail.
fn edit_costs(text: &str, places: usize) {
    let analysis = dyno::check::analyze(text);
    let mut schema = Arc::try_unwrap(analysis.schema).expect("held by no one else");
    let mut parse = analysis.parse;
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    if line_starts.len() < 2 || places == 0 {
        eprintln!("stage edits: the file needs a line ending in a newline, and RUNS at least 1");
        return;
    }
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut below = |n: usize| {
        // xorshift: the same places every run.
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n.max(1) as u64) as usize
    };
    let mut times = Vec::new();
    let mut current = text.to_string();
    for _ in 0..places {
        let line = below(line_starts.len() - 1);
        let (start, end) = (line_starts[line], line_starts[line + 1] - 1);
        let mut at = start + below(end - start + 1);
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        let typed = format!("{}x{}", &text[..at], &text[at..]);
        for next_text in [typed, text.to_string()] {
            let begun = Instant::now();
            let (next, next_parse) = check_owned(schema, parse, &current, &next_text);
            times.push((begun.elapsed(), at - start, &text[start..end]));
            (schema, parse, current) = (next, next_parse, next_text);
        }
    }
    let mut sorted: Vec<_> = times.iter().map(|t| t.0).collect();
    sorted.sort();
    let at = |q: usize| sorted[(sorted.len() * q / 100).min(sorted.len() - 1)];
    println!(
        "{} edits: p50 {:?}, p95 {:?}, max {:?}",
        sorted.len(),
        at(50),
        at(95),
        at(100)
    );
    times.sort_by_key(|t| std::cmp::Reverse(t.0));
    println!("the slowest (time, column, line):");
    for (time, column, line) in times.iter().take(12) {
        println!("{time:>12.2?}  {column:>3}  {line}");
    }
}

/// The system allocator, counting the bytes live and the most at once.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed on to `System` unchanged; only counters are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let moved = unsafe { System.realloc(ptr, layout, new_size) };
        if !moved.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            let live = LIVE.fetch_add(new_size, Ordering::Relaxed) + new_size;
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        moved
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// The heap `result` holds (live bytes above `before`), then drops it.
fn hold<T>(result: T, before: usize) -> usize {
    let held = LIVE.load(Ordering::Relaxed) - before;
    drop(std::hint::black_box(result));
    held
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [stage, path, rest @ ..] = args.as_slice() else {
        eprintln!(
            "usage: stage lex|parse|reparse|reparse-owned|recheck|recheck-owned|check|format|occurrences|json|edits FILE [RUNS]"
        );
        std::process::exit(2);
    };
    let runs: u32 = rest.first().and_then(|r| r.parse().ok()).unwrap_or(1);
    let text = std::fs::read_to_string(path).expect("readable file");
    // For the re-parse and re-check stages: one keystroke in the middle of
    // the file (a letter typed into the middle line), and the parse before it.
    let middle = text[..text.len() / 2].rfind('\n').map_or(0, |i| i + 1);
    let typed = format!("{}x{}", &text[..middle], &text[middle..]);
    let mut last = stage
        .starts_with("re")
        .then(|| (Arc::new(dyno::syntax::parse(&text)), text.as_str(), typed.as_str()));
    let earlier = (stage == "recheck").then(|| dyno::check::analyze(&text));
    if stage == "edits" {
        edit_costs(&text, runs as usize);
        return;
    }
    let mut owned = (stage == "recheck-owned").then(|| {
        let analysis = dyno::check::analyze(&text);
        let schema = Arc::try_unwrap(analysis.schema).expect("held by no one else");
        (schema, analysis.parse, text.as_str(), typed.as_str())
    });
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let mut held = 0;
    let start = Instant::now();
    for _ in 0..runs {
        held = match stage.as_str() {
            "lex" => hold(dyno::syntax::lexer::lex(&text), before),
            "parse" => hold(dyno::syntax::parse(&text), before),
            // The editor's case: the previous parse is still held elsewhere,
            // so the kept items are copied.
            "reparse" => {
                let (old, old_text, new_text) = last.as_ref().expect("set up above");
                hold(reparse(new_text, old.clone(), old_text), before)
            }
            // The previous parse held by no one else: the kept items move.
            // The keystroke is typed and deleted in turn.
            "reparse-owned" => {
                let (old, old_text, new_text) = last.take().expect("set up above");
                let new = Arc::new(reparse(new_text, old, old_text));
                last = Some((new, new_text, old_text));
                0
            }
            // The keystroke's re-parse and the check that starts from the
            // check before it (the editor's analysis of an edit).
            "recheck" => {
                let (old, old_text, new_text) = last.as_ref().expect("set up above");
                let parse = reparse(new_text, old.clone(), old_text);
                let texts = [(dyno::syntax::FileId::default(), *old_text)];
                let schema = &earlier.as_ref().expect("set up above").schema;
                let mut earlier = dyno::check::incremental::Earlier::new(&texts, schema);
                let source = dyno::check::Source {
                    file: dyno::syntax::FileId::default(),
                    text: new_text,
                    parse: &parse,
                };
                hold(
                    dyno::check::check_after(&[source], &Default::default(), &mut earlier),
                    before,
                )
            }
            // The editor's case (`check_owned`); the keystroke is typed and
            // deleted in turn.
            "recheck-owned" => {
                let (schema, parse, old_text, new_text) = owned.take().expect("set up above");
                let (next, parse) = check_owned(schema, parse, old_text, new_text);
                owned = Some((next, parse, new_text, old_text));
                0
            }
            "check" => hold(dyno::check::analyze(&text), before),
            "format" => hold(dyno::ide::format::format(&text), before),
            // What the first hover or rename after an edit adds to the analysis.
            "occurrences" => {
                let file = dyno::ide::File::new(text.clone());
                std::hint::black_box(file.occurrences().len());
                hold(file, before)
            }
            "json" => hold(dyno::synth::parse_json(&text), before),
            other => panic!("unknown stage {other}"),
        };
    }
    let per_run = start.elapsed() / runs;
    let peak = PEAK.load(Ordering::Relaxed) - before;
    let times = |bytes: usize| bytes as f64 / text.len().max(1) as f64;
    eprintln!(
        "{stage}: {per_run:?} per run ({runs} runs); heap: {:.1} MiB held by the result ({:.1}× the file), {:.1} MiB at most ({:.1}×)",
        held as f64 / 1048576.0,
        times(held),
        peak as f64 / 1048576.0,
        times(peak)
    );
}
