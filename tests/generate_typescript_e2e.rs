//! The generated TypeScript end to end (docs/generate.md, "How it is
//! tested"): for every example, the scenario of tests/common/scenario.rs
//! run by tests/generate/typescript/driver.ts through the modules `dyno
//! generate typescript` wrote, compiled with tsc, against the DynamoDB
//! endpoint in `DYNO_TEST_ENDPOINT`: tables created, every record written
//! with the generated `put`, every generated read called, and what each
//! returned must be exactly the records the scenario expects.
//!
//! Ignored unless asked for (`--include-ignored`); then it fails without
//! the endpoint, node or `npm ci` in tests/generate/typescript.
#![cfg(feature = "verify")]

mod common;

use std::process::Command;

use common::scenario::{compare, scenario};
use common::scratch::Scratch;
use common::typescript::{tsc, workspace};
use serde_json::{Value as Json, json};

#[test]
#[ignore = "needs `--features verify`, node, `npm ci` in tests/generate/typescript and a DynamoDB endpoint in DYNO_TEST_ENDPOINT (README: Tests)"]
fn every_example_round_trips_through_the_generated_typescript() {
    let endpoint = std::env::var("DYNO_TEST_ENDPOINT").unwrap_or_default();
    assert!(
        !endpoint.is_empty(),
        "DYNO_TEST_ENDPOINT is not set: start a DynamoDB endpoint (moto, DynamoDB Local) and set it (README: Tests)"
    );
    let scratch = Scratch::new("generate-typescript-e2e");
    let examples = workspace(&scratch);
    tsc(&scratch, true);
    let out = scratch.path().join("out");
    let mut failures = Vec::new();
    let (mut reads, mut items, mut puts) = (0, 0, 0);
    let mut sharded_merged = 0;
    for (path, _) in &examples {
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(path).unwrap();
        let analysis = dyno::check::analyze(&text);
        let model = &analysis.schema.model;
        let prefix = format!(
            "ts{}_{}_",
            std::process::id(),
            stem.replace(|c: char| !c.is_ascii_alphanumeric(), "_")
        );
        let mut scenario = scenario(&analysis, &format!("{stem}.dyno"), &prefix);
        for table in scenario["tables"].as_array_mut().unwrap() {
            let name = table["name"].as_str().unwrap();
            let module = out
                .join(&stem)
                .join(format!("{}.js", dyno::generate::names::snake(name)));
            assert!(module.is_file(), "{}: no module {}", stem, module.display());
            table["module"] = json!(module.to_string_lossy());
        }
        puts += scenario["puts"].as_array().unwrap().len();
        let file = scratch.file(&format!("{stem}.scenario.json"), scenario.to_string());
        let output = Command::new("node")
            .arg(out.join("driver.js"))
            .arg(&file)
            .env("DYNO_TEST_ENDPOINT", &endpoint)
            .env("AWS_ACCESS_KEY_ID", "x")
            .env("AWS_SECRET_ACCESS_KEY", "x")
            .env("AWS_REGION", "us-east-1")
            .output()
            .unwrap_or_else(|e| panic!("cannot run node (README: Tests): {e}"));
        let stdout = String::from_utf8_lossy(&output.stdout);
        if !output.status.success() {
            failures.push(format!(
                "{stem}: the driver failed:\n{stdout}{}",
                String::from_utf8_lossy(&output.stderr)
            ));
            continue;
        }
        let result: Json = serde_json::from_str(stdout.trim())
            .unwrap_or_else(|e| panic!("{stem}: the driver printed no JSON ({e}):\n{stdout}"));
        for error in result["errors"].as_array().into_iter().flatten() {
            failures.push(format!("{stem}: {}", error.as_str().unwrap_or_default()));
        }
        for read in scenario["reads"].as_array().unwrap() {
            let Some(got) = result["reads"]
                .as_array()
                .into_iter()
                .flatten()
                .find(|r| r["pattern"] == read["pattern"])
            else {
                failures.push(format!("{stem}: {} returned nothing (it failed)", read["pattern"]));
                continue;
            };
            let returned = got["returned"].as_array().cloned().unwrap_or_default();
            reads += 1;
            items += returned.len();
            if let Err(e) = compare(model, read, &returned) {
                failures.push(format!("{stem}: {e}"));
            }
            if let Some(pattern) = model.patterns.iter().find(|p| p.name.text.as_str() == read["pattern"])
                && let Some(order) = &pattern.order
                && let Err(e) = in_order(&returned, &order.attr.text, order.descending)
            {
                failures.push(format!("{stem}: {}: {e}", read["pattern"]));
            }
            if read["pattern"] == "leaderboard" {
                let shards: std::collections::BTreeSet<String> =
                    returned.iter().map(|r| r["record"]["shard"].to_string()).collect();
                sharded_merged = shards.len();
            }
        }
    }
    eprintln!(
        "{} examples: {puts} records put, {reads} reads compared, {items} records returned",
        examples.len()
    );
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        reads > 50 && items > 100,
        "{reads} reads, {items} records: the scenario ran"
    );
    assert!(
        sharded_merged > 1,
        "games' leaderboard returned the records of {sharded_merged} of its 10 shards, not several merged"
    );
}

/// The records of a read with `by attr` come in that order: numbers by
/// value, text by its UTF-8 bytes (DynamoDB's order of the sort key the
/// attribute leads).
fn in_order(returned: &[Json], attr: &str, descending: bool) -> Result<(), String> {
    let values: Vec<&Json> = returned.iter().filter_map(|r| r["record"].get(attr)).collect();
    let wrong = if descending {
        std::cmp::Ordering::Less
    } else {
        std::cmp::Ordering::Greater
    };
    for pair in values.windows(2) {
        let order = match (pair[0], pair[1]) {
            (Json::Number(a), Json::Number(b)) => a.as_f64().partial_cmp(&b.as_f64()),
            (Json::String(a), Json::String(b)) => Some(a.as_bytes().cmp(b.as_bytes())),
            _ => None,
        };
        if order == Some(wrong) {
            let by = if descending { " desc" } else { "" };
            return Err(format!("{} then {}: not by {attr}{by}", pair[0], pair[1]));
        }
    }
    Ok(())
}
