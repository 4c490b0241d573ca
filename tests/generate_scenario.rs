//! The scenario every target's end-to-end test runs (tests/common/scenario.rs)
//! is sound on its own: each example's reads expect records, and the
//! comparison accepts exactly the expected records and rejects a missing,
//! an extra or a changed one.
#![cfg(feature = "verify")]

mod common;

use std::path::Path;

use common::scenario::{compare, scenario};
use serde_json::{Value as Json, json};

fn examples() -> Vec<std::path::PathBuf> {
    let mut files = common::fixtures("examples");
    files.extend(common::fixtures("examples/real"));
    files
}

#[test]
fn every_example_has_a_scenario_whose_reads_expect_records() {
    for path in examples() {
        let text = std::fs::read_to_string(&path).unwrap();
        let analysis = dyno::check::analyze(&text);
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let scenario = scenario(&analysis, &name, "t_");
        let model = &analysis.schema.model;
        assert!(!scenario["tables"].as_array().unwrap().is_empty(), "{name}");
        assert!(!scenario["puts"].as_array().unwrap().is_empty(), "{name}");
        let reads = scenario["reads"].as_array().unwrap();
        assert_eq!(reads.len(), model.patterns.len(), "{name}: every pattern resolves");
        let with_records = reads
            .iter()
            .filter(|r| !r["expected"].as_array().unwrap().is_empty())
            .count();
        assert!(with_records * 2 > reads.len(), "{name}: most reads expect records");
        for read in reads {
            let expected = read["expected"].as_array().unwrap().clone();
            compare(model, read, &expected).unwrap();
        }
    }
}

#[test]
fn compare_rejects_a_missing_an_extra_and_a_changed_record() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/billing.dyno");
    let analysis = dyno::check::analyze(&std::fs::read_to_string(path).unwrap());
    let scenario = scenario(&analysis, "billing.dyno", "t_");
    let model = &analysis.schema.model;
    let read = scenario["reads"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["pattern"] == "tenantEverything")
        .unwrap();
    let expected: Vec<Json> = read["expected"].as_array().unwrap().clone();
    assert!(expected.len() > 2);
    assert!(compare(model, read, &expected[1..]).is_err(), "missing");
    let mut extra = expected.clone();
    extra.push(expected[0].clone());
    assert!(compare(model, read, &extra).is_err(), "extra");
    let mut changed = expected.clone();
    changed[0]["record"]["tenantId"] = json!("someone-else");
    assert!(compare(model, read, &changed).is_err(), "changed");
    let mut partial = expected.clone();
    partial[0]["record"] = json!({ "tenantId": expected[0]["record"]["tenantId"] });
    assert!(compare(model, read, &partial).is_ok(), "a projection leaves fields out");
}
