//! `dyno verify` on a global index keyed on several attributes. moto
//! creates such an index and every pattern passes: equality on each
//! partition attribute, sort attributes left to right, a number range and
//! `by` a number in numeric order. dynalite rejects the index (its key
//! schema has at most two elements): verify then creates the table without
//! it and skips each pattern the index serves, with the endpoint's answer.
//! Needs moto in `DYNO_TEST_ENDPOINT` and dynalite in `DYNO_TEST_DYNALITE`
//! (README: Tests).

mod common;

use common::cli::dyno;
use serde_json::Value as Json;

const SCHEMA: &str = "tests/fixtures/check/multi_attribute_keys.dyno";
const ON_THE_INDEX: [&str; 3] = ["recentOpenOrders", "regionOrders", "ordersBetween"];

fn endpoint(var: &str) -> String {
    let endpoint = std::env::var(var).unwrap_or_default();
    assert!(!endpoint.is_empty(), "{var} is not set (README: Tests)");
    endpoint
}

fn verify(endpoint: &str) -> Json {
    let output = dyno(&["verify", SCHEMA, "--endpoint", endpoint, "--format", "json"]);
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&output.stderr)))
}

/// Each pattern's status and reason.
fn statuses(report: &Json) -> Vec<(String, String, String)> {
    report["patterns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let text = |v: &Json| v.as_str().unwrap_or_default().to_string();
            (text(&p["pattern"]), text(&p["status"]), text(&p["reason"]))
        })
        .collect()
}

#[test]
#[ignore = "needs `--features verify`, moto in DYNO_TEST_ENDPOINT and dynalite in DYNO_TEST_DYNALITE (README: Tests)"]
fn moto_runs_multi_attribute_queries_and_dynalite_is_said_not_to_support_them() {
    let moto = verify(&endpoint("DYNO_TEST_ENDPOINT"));
    assert_eq!(moto["tables"][0]["global_indexes"], 1, "{moto:#}");
    for (pattern, status, why) in statuses(&moto) {
        assert_eq!(status, "pass", "{pattern}: {why}\n{moto:#}");
    }
    // Several items per partition, so order and ranges are judged on more than one.
    let served = moto["patterns"].as_array().unwrap().iter();
    for p in served.filter(|p| ON_THE_INDEX.contains(&p["pattern"].as_str().unwrap())) {
        assert!(p["returned"].as_u64().unwrap() >= 2, "{p:#}");
    }

    let dynalite = verify(&endpoint("DYNO_TEST_DYNALITE"));
    assert_eq!(dynalite["tables"][0]["global_indexes"], 0, "{dynalite:#}");
    for (pattern, status, why) in statuses(&dynalite) {
        if ON_THE_INDEX.contains(&pattern.as_str()) {
            assert_eq!(status, "skipped", "{pattern}");
            assert!(
                why.contains("the endpoint does not support index `byRegion`"),
                "{pattern}: {why}"
            );
        } else {
            assert_eq!(status, "pass", "{pattern}: {why}");
        }
    }
    let notes = dynalite["notes"].to_string();
    assert!(
        notes.contains("created without its indexes keyed on several attributes"),
        "{notes}"
    );
}
