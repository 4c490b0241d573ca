//! `cargo bench --bench pipeline`: lex, parse, check, format and the full
//! pipeline on generated 1k, 10k, 50k and 100k-line schemas, next to the
//! serde_json baseline (parsing the same schema rendered as JSON), then a
//! table of our time / serde_json time and of the scaling ratios
//! time(10×)/time(1×).
//!
//! Stages (each includes the ones before it, as a caller would run them):
//! - `lex`: `syntax::lexer::lex`, tokens with trivia and lexical diagnostics;
//! - `parse`: `syntax::parse`, lexing included;
//! - `reparse`: `syntax::reparse_in` after one letter typed into the middle
//!   line, the previous parse still held elsewhere (so the kept items are
//!   copied, as in the editor), the drop of the result included;
//! - `recheck`: the same keystroke's re-parse and `check::check_after`, the
//!   check that starts from the check before the keystroke (the editor's
//!   analysis of an edit; the middle line is in an entity, so the patterns
//!   of its table are resolved again);
//! - `check`: `check::analyze`, what `dyno check` computes: parse, lower,
//!   registry, pattern resolution, lints and cost;
//! - `format`: `ide::format::format` (`dyno fmt`), which lexes and parses;
//! - `full`: `dyno check` end to end without the file system (analyze and
//!   render every diagnostic as text) followed by `dyno fmt`'s format;
//! - `serde_json`: `serde_json::from_str::<Value>` on `Generated::json`.
//!
//! Arguments after `--` are criterion's (a filter such as `check/50k`);
//! `DYNO_BENCH_SIZES=1k,10k` limits the sizes.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, SamplingMode, Throughput};
use dyno::diagnostic::render::SourceText;
use dyno::synth::{Config, generate};

const SIZES: [(&str, usize); 4] = [("1k", 1_000), ("10k", 10_000), ("50k", 50_000), ("100k", 100_000)];
const STAGES: [&str; 8] = [
    "lex",
    "parse",
    "reparse",
    "recheck",
    "check",
    "format",
    "full",
    "serde_json",
];

/// One letter typed into the middle line of a text, and the parse and
/// check of the text before it, still held elsewhere (as the editor's last
/// analysis holds them): what `reparse` and `recheck` time.
struct Keystroke {
    before: dyno::check::Analysis,
    typed: String,
}

impl Keystroke {
    fn new(text: &str) -> Keystroke {
        let middle = text[..text.len() / 2].rfind('\n').map_or(0, |i| i + 1);
        Keystroke {
            before: dyno::check::analyze(text),
            typed: format!("{}x{}", &text[..middle], &text[middle..]),
        }
    }

    fn reparse(&self, text: &str) -> dyno::syntax::Parse {
        dyno::syntax::reparse_in(self.before.file, &self.typed, self.before.parse.clone(), text)
    }

    fn recheck(&self, text: &str) -> dyno::check::Schema {
        let parse = self.reparse(text);
        let texts = [(self.before.file, text)];
        // Borrowed: the kept Queries are copied (the editor moves them when
        // no request holds the earlier check any more).
        let mut earlier = dyno::check::incremental::Earlier::new(&texts, &self.before.schema);
        let source = dyno::check::Source {
            file: self.before.file,
            text: &self.typed,
            parse: &parse,
        };
        dyno::check::check_after(&[source], &Default::default(), &mut earlier)
    }
}

/// Per-iteration times (ns) of every sample criterion took, by (stage, size).
static SAMPLES: Mutex<BTreeMap<(String, String), Vec<f64>>> = Mutex::new(BTreeMap::new());

fn record(stage: &str, size: &str, per_iter: Duration) {
    let mut samples = SAMPLES.lock().unwrap();
    samples
        .entry((stage.to_string(), size.to_string()))
        .or_default()
        .push(per_iter.as_secs_f64() * 1e9);
}

fn run_stage(stage: &str, dyno: &str, json: &str, source: &SourceText, keystroke: &Keystroke) {
    match stage {
        "lex" => drop(std::hint::black_box(dyno::syntax::lexer::lex(dyno))),
        "parse" => drop(std::hint::black_box(dyno::syntax::parse(dyno))),
        "reparse" => drop(std::hint::black_box(keystroke.reparse(dyno))),
        "recheck" => drop(std::hint::black_box(keystroke.recheck(dyno))),
        "check" => drop(std::hint::black_box(dyno::check::analyze(dyno))),
        "format" => drop(std::hint::black_box(dyno::ide::format::format(dyno))),
        "full" => {
            let analysis = dyno::check::analyze(dyno);
            let diagnostics = analysis.diagnostics();
            let mut out = String::new();
            for diagnostic in diagnostics {
                out.push_str(&dyno::diagnostic::render::text(source, diagnostic));
            }
            let proved = dyno::check::describe::proved(&analysis.schema).to_string();
            out.push_str(&dyno::diagnostic::render::summary(source, &proved, diagnostics));
            std::hint::black_box(out);
            drop(std::hint::black_box(dyno::ide::format::format(dyno)));
        }
        "serde_json" => drop(std::hint::black_box(dyno::synth::parse_json(json))),
        _ => unreachable!(),
    }
}

fn selected_sizes() -> Vec<(&'static str, usize)> {
    match std::env::var("DYNO_BENCH_SIZES") {
        Ok(list) => SIZES
            .into_iter()
            .filter(|(name, _)| list.split(',').any(|s| s.trim() == *name))
            .collect(),
        Err(_) => SIZES.to_vec(),
    }
}

fn main() {
    let mut criterion = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .configure_from_args();
    let mut lines_of = BTreeMap::new();
    for (size, lines) in selected_sizes() {
        let generated = generate(&Config::for_lines(lines, 1));
        let dyno_text = generated.dyno;
        let json = generated.json;
        lines_of.insert(size, (dyno_text.lines().count(), dyno_text.len(), json.len()));
        let source = SourceText::new(PathBuf::from("bench.dyno"), dyno_text.clone());
        let keystroke = Keystroke::new(&dyno_text);
        let mut group = criterion.benchmark_group(size);
        group.throughput(Throughput::Bytes(dyno_text.len() as u64));
        if lines >= 50_000 {
            group.sampling_mode(SamplingMode::Flat);
            group.measurement_time(Duration::from_secs(3));
        } else {
            group.measurement_time(Duration::from_secs(2));
        }
        for stage in STAGES {
            group.bench_function(BenchmarkId::from_parameter(stage), |b| {
                b.iter_custom(|iters| {
                    let start = Instant::now();
                    for _ in 0..iters {
                        run_stage(stage, &dyno_text, &json, &source, &keystroke);
                    }
                    let elapsed = start.elapsed();
                    record(stage, size, elapsed / iters.max(1) as u32);
                    elapsed
                })
            });
        }
        group.finish();
    }
    criterion.final_summary();
    print_table(&lines_of);
}

fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted[sorted.len() / 2]
}

fn show(ns: f64) -> String {
    match ns {
        ns if ns >= 1e9 => format!("{:.2} s", ns / 1e9),
        ns if ns >= 1e6 => format!("{:.2} ms", ns / 1e6),
        ns => format!("{:.1} µs", ns / 1e3),
    }
}

fn print_table(lines_of: &BTreeMap<&str, (usize, usize, usize)>) {
    let samples = SAMPLES.lock().unwrap();
    let time = |stage: &str, size: &str| {
        samples
            .get(&(stage.to_string(), size.to_string()))
            .filter(|v| !v.is_empty())
            .map(|v| median(v))
    };
    println!("\n## dyno vs serde_json (median time per run; ratio = our time / serde_json time)\n");
    println!("| size | lines | .dyno bytes | .json bytes | stage | time | × serde_json |");
    println!("|------|------:|------------:|------------:|-------|-----:|-------------:|");
    for (size, _) in SIZES {
        let Some(&(lines, bytes, json_bytes)) = lines_of.get(size) else {
            continue;
        };
        let baseline = time("serde_json", size);
        for stage in STAGES {
            let Some(t) = time(stage, size) else { continue };
            let ratio = baseline.map_or("-".to_string(), |b| format!("{:.2}", t / b));
            println!(
                "| {size} | {lines} | {bytes} | {json_bytes} | {stage} | {} | {ratio} |",
                show(t)
            );
        }
    }
    println!("\n## Scaling: time(10× schema) / time(1× schema) (target ≤ 11)\n");
    println!("| stage | 10k / 1k | 100k / 10k |");
    println!("|-------|---------:|-----------:|");
    for stage in STAGES {
        let ratio = |big: &str, small: &str| match (time(stage, big), time(stage, small)) {
            (Some(b), Some(s)) => format!("{:.2}", b / s),
            _ => "-".to_string(),
        };
        println!("| {stage} | {} | {} |", ratio("10k", "1k"), ratio("100k", "10k"));
    }
    if let (Some(check), Some(json)) = (time("check", "50k"), time("serde_json", "50k")) {
        let ratio = check / json;
        let verdict = if ratio <= 3.0 { "met" } else { "missed" };
        println!("\ncheck on 50k lines: {ratio:.2}× serde_json (target ≤ 3×: {verdict})");
    }
}
