//! Exports of a global index keyed on several attributes: CloudFormation
//! lists each partition attribute as HASH then each sort attribute as
//! RANGE; the Workbench model, whose indexes have one partition and one
//! sort key, leaves the index out and says so.

mod common;

use std::process::Output;

use common::cli::dyno;
use serde_json::Value as Json;

const SCHEMA: &str = "tests/fixtures/check/multi_attribute_keys.dyno";

fn json_of(output: &Output) -> Json {
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn cloudformation_lists_every_partition_attribute_as_hash_then_every_sort_attribute_as_range() {
    let template = json_of(&dyno(&["export", "cloudformation", SCHEMA, "--format", "json"]));
    let properties = &template["Resources"]["OrdersTable"]["Properties"];
    let index = &properties["GlobalSecondaryIndexes"][0];
    assert_eq!(index["IndexName"], "byRegion");
    let schema: Vec<(&str, &str)> = index["KeySchema"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| (k["AttributeName"].as_str().unwrap(), k["KeyType"].as_str().unwrap()))
        .collect();
    assert_eq!(
        schema,
        [
            ("tenantId", "HASH"),
            ("region", "HASH"),
            ("status", "RANGE"),
            ("createdAt", "RANGE")
        ]
    );
    let defined: Vec<(&str, &str)> = properties["AttributeDefinitions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["AttributeName"].as_str().unwrap(),
                d["AttributeType"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        defined,
        [
            ("pk", "S"),
            ("sk", "S"),
            ("tenantId", "S"),
            ("region", "S"),
            ("status", "S"),
            ("createdAt", "N")
        ]
    );
}

#[test]
fn workbench_leaves_a_multi_attribute_index_out_and_says_so() {
    let output = dyno(&["export", "workbench", SCHEMA]);
    let model = json_of(&output);
    let indexes = model["DataModel"][0]["GlobalSecondaryIndexes"].as_array().unwrap();
    assert!(indexes.is_empty(), "{indexes:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("warning: index `Orders.byRegion` is left out of the model"),
        "{stderr}"
    );
}
