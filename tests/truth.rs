//! The differential test behind the checker's promise (docs/truth.md): for
//! random small designs, every pattern the checker calls ok is run as its
//! resolved Query on real DynamoDB-compatible endpoints (moto's server in
//! `DYNO_TEST_ENDPOINT`, dynalite in `DYNO_TEST_DYNALITE`), and the rows must
//! be exactly those an independent oracle says the pattern means: the right
//! items, at most one for a single return, in the declared order, and the
//! first `limit N` of them on the first page.
//!
//! `DYNO_TRUTH_DESIGNS` (default 100) and `DYNO_TRUTH_SEED` (default 1)
//! choose the designs. Run: `cargo test --locked --features verify --test
//! truth -- --include-ignored --nocapture` with both endpoints running.

#[cfg(feature = "verify")]
#[path = "truth/design.rs"]
mod design;
#[cfg(feature = "verify")]
#[path = "truth/endpoint.rs"]
mod endpoint;
#[cfg(feature = "verify")]
#[path = "truth/generate.rs"]
mod generate;
#[cfg(feature = "verify")]
#[path = "truth/judge.rs"]
mod judge;
#[cfg(feature = "verify")]
#[path = "truth/oracle.rs"]
mod oracle;

#[cfg(feature = "verify")]
use std::collections::BTreeMap;
#[cfg(feature = "verify")]
use std::time::Instant;

use dyno::check::Analysis;
use dyno::check::model::PatternId;
use dyno::diagnostic::{Code, Severity};

#[cfg(feature = "verify")]
use endpoint::Endpoint;
#[cfg(feature = "verify")]
use judge::{Case, Tally};

#[cfg(feature = "verify")]
fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// The error and warning codes the checker reports on pattern `index`: a
/// pattern the checker warns about is not one it calls ok (W202: a single
/// return an index key cannot guarantee).
fn pattern_errors(analysis: &Analysis, index: PatternId) -> Vec<Code> {
    let span = analysis.schema.model.pattern(index).span;
    analysis
        .diagnostics()
        .iter()
        .filter(|d| d.severity <= Severity::Warning && d.span.start() >= span.start() && d.span.end() <= span.end())
        .map(|d| d.code)
        .collect()
}

#[cfg(feature = "verify")]
/// The checker's verdict on every pattern of one design, and the cases to
/// run: each ok pattern (and each one rejected with E202 only, as a sanity
/// signal) with a few parameter sets.
fn cases(
    seed: u64,
    design: &design::Design,
    analysis: &Analysis,
    items: &[oracle::Item],
    tally: &mut Tally,
) -> Vec<Case> {
    for d in analysis.diagnostics() {
        let own = d.code.is_syntax() || d.code.as_str().starts_with("E1");
        assert!(
            !own || d.severity != Severity::Error,
            "seed {seed}: the generator wrote a design the checker cannot read ({} {}):\n{}",
            d.code.as_str(),
            d.message,
            design.source()
        );
    }
    let mut rng = design::Rng::new(seed ^ 0x5eed);
    let mut out = Vec::new();
    for (i, pattern) in design.patterns.iter().enumerate() {
        let id = PatternId::new(i);
        assert_eq!(analysis.schema.model.pattern(id).name.text, pattern.name);
        tally.patterns += 1;
        let errors = pattern_errors(analysis, id);
        for code in &errors {
            *tally.rejected.entry(code.as_str()).or_default() += 1;
        }
        let Some(resolution) = analysis.schema.resolution(id) else {
            if errors.is_empty() {
                tally.unresolved_without_error += 1;
            }
            continue;
        };
        let ok = errors.is_empty();
        if ok {
            tally.ok += 1;
            match &resolution.shards {
                Some(s) if s.from.is_none() => {
                    tally.ok_sharded += 1;
                    let shapes = [
                        ("limit", pattern.limit.is_some()),
                        ("by", pattern.by.is_some()),
                        ("collection", pattern.returns.len() > 1),
                        ("index", resolution.key_schema(&analysis.schema.model).is_index()),
                        ("single", pattern.returns.iter().any(|(_, many)| !many)),
                    ];
                    for (shape, _) in shapes.iter().filter(|(_, yes)| *yes) {
                        *tally.sharded_shapes.entry(shape).or_default() += 1;
                    }
                }
                Some(_) => tally.ok_calculated += 1,
                None => {}
            }
        } else if errors.iter().any(|c| *c != Code::ExtraEntities) {
            continue;
        }
        let access = resolution.key_schema(&analysis.schema.model);
        let path = oracle::in_path(
            pattern,
            items,
            &access.pk.name,
            access.sk.as_ref().map(|s| s.name.as_str()),
        );
        for q in 0..3 {
            let params = oracle::params(design, pattern, &path, &mut rng, q < 2);
            let expected = oracle::expected(design, pattern, &path, &params);
            out.push(Case::new(design, analysis, i, resolution, params, expected, ok));
        }
    }
    out
}

#[cfg(feature = "verify")]
async fn one_design(
    endpoint: &Endpoint,
    seed: u64,
    source: &str,
    analysis: &Analysis,
    writes: &[serde_json::Map<String, serde_json::Value>],
    cases: &[Case],
    tally: &mut Tally,
) {
    let name = format!("dyno-truth-{}-{seed}", std::process::id());
    let table = &analysis.schema.model.tables[0];
    dyno::verify::dynamo::create_table(&endpoint.client, table, &name)
        .await
        .unwrap_or_else(|e| panic!("{}: {e}\n{source}", endpoint.name));
    let refs: Vec<_> = writes.iter().collect();
    dyno::verify::dynamo::write_items(&endpoint.client, &name, &refs)
        .await
        .unwrap_or_else(|e| panic!("{}: {e}\n{source}", endpoint.name));
    tally.designs += 1;
    for case in cases {
        case.run(endpoint, analysis, &name, source, tally).await;
    }
    dyno::verify::dynamo::delete_table(&endpoint.client, &name)
        .await
        .unwrap_or_else(|e| panic!("{}: {e}", endpoint.name));
}

/// The promise itself: every pattern the checker calls ok returns, on both
/// endpoints, exactly the rows the oracle predicts. The distinct
/// disagreements found on the way are minimised in `tests/fixtures/truth/`
/// (and must stay rejected: `every_minimised_disagreement_is_rejected`).
#[test]
#[ignore = "needs `--features verify`, moto in DYNO_TEST_ENDPOINT and dynalite in DYNO_TEST_DYNALITE (README: Tests)"]
#[cfg(feature = "verify")]
fn resolved_queries_return_exactly_what_the_patterns_mean() {
    let disagreements = run_truth();
    println!("truth: {disagreements} disagreement(s)");
    assert_eq!(
        disagreements, 0,
        "patterns the checker calls ok returned other rows than they mean (details above)"
    );
}

#[test]
#[ignore = "needs `--features verify`, moto in DYNO_TEST_ENDPOINT and dynalite in DYNO_TEST_DYNALITE (README: Tests)"]
#[cfg(not(feature = "verify"))]
fn resolved_queries_return_exactly_what_the_patterns_mean() {
    panic!("the truth test talks to its endpoints through `dyno verify`'s client: run it with `--features verify`");
}

/// Each minimised disagreement names its pattern on its first line
/// (`// truth: `name``): the checker must no longer call it ok.
#[test]
fn every_minimised_disagreement_is_rejected() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/truth");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "dyno") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let name = text
            .lines()
            .next()
            .and_then(|l| l.split('`').nth(1))
            .unwrap_or_else(|| panic!("{}: the first line names the pattern in backquotes", path.display()));
        let analysis = dyno::check::analyze(&text);
        let index = analysis
            .schema
            .model
            .pattern_named(name)
            .unwrap_or_else(|| panic!("{}: no pattern `{name}`", path.display()));
        let codes = pattern_errors(&analysis, index);
        assert!(
            !codes.is_empty(),
            "{}: the checker calls `{name}` ok again",
            path.display()
        );
        checked += 1;
    }
    assert!(checked >= 7, "found {checked} fixtures in {}", dir.display());
}

/// Runs the designs on both endpoints; the number of disagreements.
#[cfg(feature = "verify")]
fn run_truth() -> usize {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let mut endpoints = Vec::new();
    for (var, name) in [("DYNO_TEST_ENDPOINT", "moto"), ("DYNO_TEST_DYNALITE", "dynalite")] {
        let url = endpoint::from_env(var, name);
        let client = runtime.block_on(dyno::verify::dynamo::client(&url));
        endpoints.push(Endpoint { name, url, client });
    }
    let designs = env_number("DYNO_TRUTH_DESIGNS", 100);
    let first = env_number("DYNO_TRUTH_SEED", 1);
    let started = Instant::now();
    let mut tallies: Vec<Tally> = endpoints.iter().map(|_| Tally::default()).collect();
    let mut checker = Tally::default();
    for seed in first..first + designs {
        let design = generate::design(seed);
        let source = design.source();
        let analysis = dyno::check::analyze(&source);
        let items = oracle::items(&design, &mut design::Rng::new(seed ^ 0x17e5));
        let writes: Vec<_> = items.iter().map(|i| oracle::dynamo_item(&design, i)).collect();
        let cases = cases(seed, &design, &analysis, &items, &mut checker);
        checker.sharded_designs += usize::from(source.contains("shard("));
        runtime.block_on(async {
            let mut runs = Vec::new();
            for (endpoint, tally) in endpoints.iter().zip(tallies.iter_mut()) {
                runs.push(one_design(endpoint, seed, &source, &analysis, &writes, &cases, tally));
            }
            join_all(runs).await;
        });
    }
    let rejected: BTreeMap<_, _> = checker.rejected.iter().collect();
    println!(
        "truth: {designs} designs (seeds {first}..{}; {} write-sharded), {} patterns: {} ok ({} read over every write shard {:?}, {} with a computed shard), rejected by code {rejected:?}, {} unresolved without an error; {:.1}s",
        first + designs,
        checker.sharded_designs,
        checker.patterns,
        checker.ok,
        checker.ok_sharded,
        checker.sharded_shapes,
        checker.ok_calculated,
        checker.unresolved_without_error,
        started.elapsed().as_secs_f64()
    );
    for (endpoint, tally) in endpoints.iter().zip(&tallies) {
        println!("truth[{}] {}: {}", endpoint.name, endpoint.url, tally.summary());
    }
    for (endpoint, tally) in endpoints.iter().zip(&tallies) {
        assert!(
            tally.queries > 0 && tally.hits > 0,
            "{}: nothing was run",
            endpoint.name
        );
    }
    tallies.iter().map(|t| t.disagreements).sum()
}

#[cfg(feature = "verify")]
/// Polls the futures together on this thread (one per endpoint).
async fn join_all<F: std::future::Future<Output = ()>>(futures: Vec<F>) {
    let mut futures: Vec<_> = futures.into_iter().map(Box::pin).collect();
    std::future::poll_fn(|cx| {
        futures.retain_mut(|f| f.as_mut().poll(cx).is_pending());
        if futures.is_empty() {
            std::task::Poll::Ready(())
        } else {
            std::task::Poll::Pending
        }
    })
    .await
}
