//! `dyno verify` on a global index keyed on several attributes. moto
//! creates such an index; dynalite rejects it (its key schema has at most
//! two elements), and verify then creates the table without it and says so
//! for each pattern the index serves. Needs moto in `DYNO_TEST_ENDPOINT` and
//! dynalite in `DYNO_TEST_DYNALITE` (README: Tests).

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

fn check(report: &Json, global_indexes: u64, reason: &str) {
    assert_eq!(report["tables"][0]["global_indexes"], global_indexes, "{report:#}");
    for (pattern, status, why) in statuses(report) {
        if ON_THE_INDEX.contains(&pattern.as_str()) {
            assert_eq!(status, "skipped", "{pattern}");
            assert!(why.contains(reason), "{pattern}: {why}");
        } else {
            assert_eq!(status, "pass", "{pattern}: {why}");
        }
    }
}

#[test]
#[ignore = "needs `--features verify`, moto in DYNO_TEST_ENDPOINT and dynalite in DYNO_TEST_DYNALITE (README: Tests)"]
fn each_endpoint_says_per_pattern_why_a_multi_attribute_query_is_not_run() {
    let moto = verify(&endpoint("DYNO_TEST_ENDPOINT"));
    check(&moto, 1, "verify does not run such a Query yet");
    let dynalite = verify(&endpoint("DYNO_TEST_DYNALITE"));
    check(&dynalite, 0, "the endpoint does not support index `byRegion`");
    let notes = dynalite["notes"].to_string();
    assert!(
        notes.contains("created without its indexes keyed on several attributes"),
        "{notes}"
    );
}
