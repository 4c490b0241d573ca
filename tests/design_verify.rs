//! Designs `dyno design` makes pass `dyno verify` against a DynamoDB
//! endpoint: the bundled billing, teams and games schemas and the real
//! designs whose fresh design is clean, with their keys stripped (`dyno
//! design --fresh`), two synthetic schemas (`dyno::synth`) stripped the same
//! way, and a few generated servable sets (`design/generate.rs`) are
//! designed, written to a scratch file, and every pattern of each must pass.
//!
//! Like tests/verify.rs: the endpoint is `DYNO_TEST_ENDPOINT`; the test is
//! ignored unless asked for (`--include-ignored`), and then fails without
//! the endpoint or without the `verify` feature.

mod common;

#[allow(dead_code)] // the shrinker is design_props'
#[path = "design/generate.rs"]
mod generate;

use std::process::Command;

use dyno::design::{Options, design, without_keys};
use serde_json::Value as Json;

use common::endpoint;
use common::scratch::Scratch;

/// The generated sets verified: the first ones whose designs carry no
/// warning (parents, edges, consistent reads and ranges appear among them).
const SEEDS: [u64; 10] = [1, 2, 3, 4, 5, 6, 7, 10, 11, 13];

/// Sets whose designs read a single item through an index key that does
/// not keep it unique (W202: the designer cannot always avoid it, e.g.
/// `getTask(taskId) -> Task` on `gsi1pk = "TASK#{taskId}"` while the table
/// keys Task under its project). `dyno verify` writes several items with
/// one `taskId` and the Query returns them all: only those patterns may
/// fail.
const W202_SEEDS: [u64; 2] = [12, 32];

/// `Err((report, failing patterns))` unless every pattern passes.
fn verify(name: &str, text: &str, endpoint: &str) -> Result<(), (String, Vec<String>)> {
    let scratch = Scratch::new("design-verify");
    let file = scratch.file(&format!("{name}.dyno"), text);
    let output = Command::new(env!("CARGO_BIN_EXE_dyno"))
        .args([
            "verify",
            file.to_str().unwrap(),
            "--endpoint",
            endpoint,
            "--format",
            "json",
        ])
        .output()
        .expect("run dyno");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let json: Json = serde_json::from_str(&stdout).map_err(|e| {
        let report = format!(
            "{name}: not one JSON document ({e}):\n{stdout}\nstderr:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        (report, Vec::new())
    })?;
    let mut failing = Vec::new();
    let mut wrong = Vec::new();
    if output.status.code() != Some(0) {
        wrong.push(format!("exit code {:?}", output.status.code()));
    }
    let patterns = json["patterns"].as_array().cloned().unwrap_or_default();
    if patterns.is_empty() {
        wrong.push("no pattern verified".into());
    }
    for p in &patterns {
        if p["status"] != "pass" {
            wrong.push(format!("{p:#}"));
            failing.push(p["pattern"].as_str().unwrap_or_default().to_string());
        } else if p["returned"] != p["expected"] {
            wrong.push(format!("returned is not expected: {p:#}"));
            failing.push(p["pattern"].as_str().unwrap_or_default().to_string());
        }
    }
    if json["summary"]["failed"] != 0 {
        wrong.push(format!("summary: {}", json["summary"]));
    }
    if json["deleted"] != true {
        wrong.push("the tables are not deleted".into());
    }
    if wrong.is_empty() {
        Ok(())
    } else {
        let report = format!("{name}:\n{}\ndesigned schema:\n{text}", wrong.join("\n"));
        Err((report, failing))
    }
}

#[test]
#[ignore = "needs `--features verify` and a DynamoDB endpoint in DYNO_TEST_ENDPOINT (README: Tests)"]
fn fresh_designs_pass_verify_against_the_endpoint() {
    let endpoint = endpoint();
    let mut inputs: Vec<(String, String)> = Vec::new();
    for example in ["billing", "teams", "games"] {
        let path = format!("{}/examples/{example}.dyno", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap();
        inputs.push((format!("{example}-fresh"), without_keys(&text)));
    }
    for seed in SEEDS {
        inputs.push((format!("generated-{seed}"), generate::generate(seed).render()));
    }
    for (entities, patterns, seed) in [(8, 16, 2), (12, 24, 3)] {
        let synth = dyno::synth::generate(&dyno::synth::Config {
            entities,
            patterns,
            seed,
            hazard_rate: 0.05,
        });
        inputs.push((format!("synth-{entities}-{seed}"), without_keys(&synth.dyno)));
    }
    for real in [
        "device-state-log",
        "online-shop",
        "recurring-payments",
        "session-management",
        "social-network",
    ] {
        let path = format!("{}/examples/real/{real}.dyno", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap();
        inputs.push((format!("{real}-fresh"), without_keys(&text)));
    }
    let mut failures = Vec::new();
    for (name, input) in &inputs {
        let d = design(input, &Options::default());
        if d.errors != 0 {
            failures.push(format!(
                "{name}: the design has {} error(s), unserved: {:?}\n{}",
                d.errors,
                d.unserved.iter().map(|u| (&u.pattern, &u.why)).collect::<Vec<_>>(),
                d.text
            ));
            continue;
        }
        if let Err((report, _)) = verify(name, &d.text, &endpoint) {
            failures.push(report);
        }
    }
    for seed in W202_SEEDS {
        let name = format!("generated-{seed}");
        let d = design(&generate::generate(seed).render(), &Options::default());
        assert_eq!(d.errors, 0, "{name}:\n{}", d.text);
        let warned: Vec<String> = dyno::check::analyze(&d.text)
            .diagnostics()
            .iter()
            .filter(|w| w.code.as_str() == "W202")
            // W202 points at the pattern's name.
            .map(|w| d.text[w.span.start()..w.span.end()].to_string())
            .collect();
        assert!(
            !warned.is_empty(),
            "{name}: no W202 any more: move it to SEEDS\n{}",
            d.text
        );
        if let Err((report, failing)) = verify(&name, &d.text, &endpoint)
            && failing.iter().any(|p| !warned.contains(p))
        {
            failures.push(format!("a pattern without W202 fails (warned: {warned:?}):\n{report}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
