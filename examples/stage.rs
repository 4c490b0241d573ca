//! Runs one pipeline stage on a file N times and prints the time per run:
//! a quick measurement, and the program to run under callgrind.
//!
//! cargo build --profile profiling --example stage
//! valgrind --tool=callgrind target/profiling/examples/stage check schema.dyno 1

use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [stage, path, rest @ ..] = args.as_slice() else {
        eprintln!("usage: stage lex|parse|check|format|occurrences|json FILE [RUNS]");
        std::process::exit(2);
    };
    let runs: u32 = rest.first().and_then(|r| r.parse().ok()).unwrap_or(1);
    let text = std::fs::read_to_string(path).expect("readable file");
    let start = Instant::now();
    for _ in 0..runs {
        match stage.as_str() {
            "lex" => drop(std::hint::black_box(dyno::syntax::lexer::lex(&text))),
            "parse" => drop(std::hint::black_box(dyno::syntax::parse(&text))),
            "check" => drop(std::hint::black_box(dyno::check::analyze(&text))),
            "format" => drop(std::hint::black_box(dyno::ide::format::format(&text))),
            // What the first hover or rename after an edit adds to the analysis.
            "occurrences" => {
                let file = dyno::ide::File::new(text.clone());
                std::hint::black_box(file.occurrences().len());
            }
            "json" => drop(std::hint::black_box(dyno::synth::parse_json(&text))),
            other => panic!("unknown stage {other}"),
        }
    }
    let per_run = start.elapsed() / runs;
    eprintln!("{stage}: {per_run:?} per run ({runs} runs)");
}
