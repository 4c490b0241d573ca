//! `cargo bench --bench design`: `dyno design` on a synthetic schema of 50
//! entities and 100 patterns (`dyno::synth`) with its keys stripped
//! (`dyno design --fresh`), the size issue 16 asks to design in under a
//! second; and, for scale, on 10 entities / 20 patterns. Prints the median
//! time per design after criterion's report.
//!
//! Arguments after `--` are criterion's (a filter such as `design/50`).

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion};
use dyno::design::{Options, design, without_keys};
use dyno::synth::{Config, generate};

const SIZES: [(usize, usize); 2] = [(10, 20), (50, 100)];

static SAMPLES: Mutex<BTreeMap<usize, Vec<f64>>> = Mutex::new(BTreeMap::new());

fn main() {
    let mut criterion = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(10))
        .configure_from_args();
    let mut shapes = BTreeMap::new();
    let mut group = criterion.benchmark_group("design");
    for (entities, patterns) in SIZES {
        let generated = generate(&Config {
            entities,
            patterns,
            seed: 1,
            hazard_rate: 0.05,
        });
        let input = without_keys(&generated.dyno);
        let once = design(&input, &Options::default());
        shapes.insert(
            entities,
            (
                patterns,
                input.lines().count(),
                once.indexes,
                once.errors,
                once.unserved.len(),
            ),
        );
        group.bench_function(BenchmarkId::from_parameter(entities), |b| {
            b.iter_custom(|iters| {
                let start = Instant::now();
                for _ in 0..iters {
                    std::hint::black_box(design(&input, &Options::default()));
                }
                let elapsed = start.elapsed();
                SAMPLES
                    .lock()
                    .unwrap()
                    .entry(entities)
                    .or_default()
                    .push(elapsed.as_secs_f64() / iters.max(1) as f64);
                elapsed
            })
        });
    }
    group.finish();
    criterion.final_summary();
    println!("\n| entities | patterns | lines | median per design | indexes | errors | unserved |");
    println!("|---------:|---------:|------:|------------------:|--------:|-------:|---------:|");
    let samples = SAMPLES.lock().unwrap();
    for (entities, (patterns, lines, indexes, errors, unserved)) in &shapes {
        let Some(times) = samples.get(entities).filter(|t| !t.is_empty()) else {
            continue;
        };
        let mut sorted = times.clone();
        sorted.sort_by(f64::total_cmp);
        let median = sorted[sorted.len() / 2];
        println!(
            "| {entities} | {patterns} | {lines} | {:.1} ms | {indexes} | {errors} | {unserved} |",
            median * 1e3
        );
    }
}
