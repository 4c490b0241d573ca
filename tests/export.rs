//! `dyno export cloudformation`, `dyno export workbench` and `dyno sample` as
//! a user runs them. The CloudFormation template of every bundled example
//! must pass `cfn-lint` (`DYNO_CFN_LINT`, or `cfn-lint` on the PATH; `.ci/run`
//! installs it). The lint test is ignored unless asked for (`--include-ignored`),
//! and then fails without cfn-lint.

mod common;

use std::process::{Command, Output};

use serde_json::Value as Json;

fn dyno(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dyno"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run dyno")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// `dyno export cloudformation FILE --format json`, which must succeed, as JSON.
fn cloudformation_json(file: &str) -> Json {
    let output = dyno(&["export", "cloudformation", file, "--format", "json"]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{file}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_str(&stdout(&output)).unwrap()
}

const EXAMPLES: [&str; 3] = ["examples/billing.dyno", "examples/shop.dyno", "examples/teams.dyno"];

/// cfn-lint: `DYNO_CFN_LINT`, else `cfn-lint` on the PATH; its test runs
/// only when asked for, and then needs it.
fn cfn_lint() -> String {
    if let Ok(path) = std::env::var("DYNO_CFN_LINT")
        && !path.is_empty()
    {
        return path;
    }
    let on_path = Command::new("cfn-lint")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        on_path,
        "cfn-lint is missing: `pip install cfn-lint` or set DYNO_CFN_LINT (README: Tests)"
    );
    "cfn-lint".into()
}

#[test]
#[ignore = "needs cfn-lint (DYNO_CFN_LINT or on PATH; README: Tests)"]
fn the_cloudformation_export_of_every_example_passes_cfn_lint() {
    let lint = cfn_lint();
    // One cfn-lint run over every template: it takes seconds to start.
    let scratch = common::scratch::Scratch::new("export-cfn");
    let mut paths = Vec::new();
    // The examples, a table with Time to Live (an example would carry its
    // expired-items hint, and the examples have no diagnostics), and a
    // global index keyed on several attributes (four KeySchema elements).
    let multi_attribute = "tests/fixtures/check/multi_attribute_keys.dyno";
    for example in EXAMPLES.into_iter().chain([TTL, multi_attribute]) {
        for format in ["yaml", "json"] {
            let output = dyno(&["export", "cloudformation", example, "--format", format]);
            assert_eq!(output.status.code(), Some(0), "{example}");
            let stem = std::path::Path::new(example).file_stem().unwrap().to_str().unwrap();
            paths.push(scratch.file(&format!("{stem}.{format}"), stdout(&output)));
        }
    }
    let lint = Command::new(&lint).args(&paths).output().expect("run cfn-lint");
    assert!(
        lint.status.success(),
        "cfn-lint finds problems:\n{}{}",
        String::from_utf8_lossy(&lint.stdout),
        String::from_utf8_lossy(&lint.stderr),
    );
}

#[test]
fn yaml_and_json_templates_say_the_same() {
    for example in EXAMPLES {
        let json = cloudformation_json(example);
        let yaml = stdout(&dyno(&["export", "cloudformation", example]));
        for (id, resource) in json["Resources"].as_object().unwrap() {
            assert!(
                yaml.contains(&format!("\n  {id}:\n    Type: AWS::DynamoDB::Table\n")),
                "{yaml}"
            );
            for definition in resource["Properties"]["AttributeDefinitions"].as_array().unwrap() {
                let line = format!(
                    "- AttributeName: {}\n          AttributeType: {}\n",
                    definition["AttributeName"].as_str().unwrap(),
                    definition["AttributeType"].as_str().unwrap()
                );
                assert!(yaml.contains(&line), "{line} in\n{yaml}");
            }
        }
    }
}

#[test]
fn the_billing_template_defines_only_key_attributes_and_its_index() {
    let json = cloudformation_json("examples/billing.dyno");
    let table = &json["Resources"]["BillingTable"];
    assert_eq!(table["Type"], "AWS::DynamoDB::Table");
    let p = &table["Properties"];
    assert_eq!(p["BillingMode"], "PAY_PER_REQUEST");
    let defined: Vec<&str> = p["AttributeDefinitions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["AttributeName"].as_str().unwrap())
        .collect();
    assert_eq!(defined, ["pk", "sk", "gsi1pk", "gsi1sk"]);
    assert_eq!(p["KeySchema"][0]["KeyType"], "HASH");
    assert_eq!(p["KeySchema"][1]["KeyType"], "RANGE");
    assert_eq!(p["GlobalSecondaryIndexes"][0]["IndexName"], "gsi1");
    assert_eq!(p["GlobalSecondaryIndexes"][0]["Projection"]["ProjectionType"], "ALL");
    assert!(p.get("LocalSecondaryIndexes").is_none());
}

#[test]
fn the_workbench_model_has_a_facet_per_item_shape_and_sample_data() {
    let output = dyno(&["export", "workbench", "examples/teams.dyno"]);
    assert_eq!(output.status.code(), Some(0));
    let json: Json = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(json["ModelName"], "teams");
    assert_eq!(json["ModelMetadata"]["AWSService"], "Amazon DynamoDB");
    let table = &json["DataModel"][0];
    assert_eq!(table["TableName"], "Teams");
    assert_eq!(table["KeyAttributes"]["PartitionKey"]["AttributeName"], "pk");
    assert_eq!(table["KeyAttributes"]["SortKey"]["AttributeType"], "S");
    let facets: Vec<&str> = table["TableFacets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["FacetName"].as_str().unwrap())
        .collect();
    assert_eq!(
        facets,
        ["User", "Team", "Membership", "Membership_2", "Project", "Grant"]
    );
    let membership = &table["TableFacets"][2];
    assert_eq!(membership["KeyAttributeAlias"]["PartitionKeyAlias"], "USER#{userId}");
    assert_eq!(membership["KeyAttributeAlias"]["SortKeyAlias"], "TEAM#{teamId}");
    assert_eq!(table["GlobalSecondaryIndexes"][0]["IndexName"], "inverted");
    let attributes: Vec<&str> = table["NonKeyAttributes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["AttributeName"].as_str().unwrap())
        .collect();
    assert!(
        attributes.contains(&"lsi1sk") && attributes.contains(&"joinedAt"),
        "{attributes:?}"
    );
    assert!(!attributes.contains(&"pk"));
    let data = table["TableData"].as_array().unwrap();
    assert!(data.len() >= 20, "{}", data.len());
    assert!(data.iter().all(|item| item["pk"]["S"].is_string()));
}

#[test]
fn sample_output_is_deterministic_by_seed() {
    for example in EXAMPLES {
        let a = stdout(&dyno(&["sample", example, "--seed", "3"]));
        let b = stdout(&dyno(&["sample", example, "--seed", "3"]));
        let c = stdout(&dyno(&["sample", example, "--seed", "4"]));
        assert_eq!(a, b, "{example}");
        assert_ne!(a, c, "{example}");
    }
}

#[test]
fn sample_lines_are_batch_write_requests_of_at_most_25_items() {
    let output = dyno(&["sample", "examples/shop.dyno", "--per-entity", "10"]);
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    let mut total = 0;
    for line in text.lines() {
        let request: Json = serde_json::from_str(line).unwrap();
        let puts = request["RequestItems"]["Shop"].as_array().unwrap();
        assert!(!puts.is_empty() && puts.len() <= 25);
        for put in puts {
            let item = &put["PutRequest"]["Item"];
            assert!(item["pk"]["S"].is_string() && item["sk"]["S"].is_string(), "{item}");
        }
        total += puts.len();
    }
    // 10 records each of Customer, Address, Order, OrderItem.
    assert_eq!(total, 40);
}

#[test]
fn sample_values_are_shaped_by_their_types() {
    let output = dyno(&["sample", "examples/billing.dyno", "--format", "json"]);
    assert_eq!(output.status.code(), Some(0));
    let json: Json = serde_json::from_str(&stdout(&output)).unwrap();
    let items = json["tables"][0]["items"].as_array().unwrap();
    let of = |entity: &'static str| items.iter().filter(move |i| i["entity"] == entity).map(|i| &i["item"]);
    let mut statuses = std::collections::BTreeSet::new();
    for invoice in of("Invoice") {
        let sk = invoice["sk"].as_str().unwrap();
        let number = sk.strip_prefix("INVOICE#").unwrap();
        assert!(number.len() == 6 && number.bytes().all(|b| b.is_ascii_digit()), "{sk}");
        assert_eq!(invoice["number"].as_u64().unwrap(), number.parse::<u64>().unwrap());
        let due = invoice["dueDate"].as_str().unwrap();
        assert!(due.len() == 10 && &due[4..5] == "-" && &due[7..8] == "-", "{due}");
        assert!(invoice["total"].is_number());
        statuses.insert(invoice["status"].as_str().unwrap().to_string());
    }
    assert_eq!(statuses.into_iter().collect::<Vec<_>>(), ["open", "paid", "void"]);
    for event in of("AuditEvent") {
        let ulid = event["eventId"].as_str().unwrap();
        assert_eq!(ulid.len(), 26);
        let at = event["at"].as_str().unwrap();
        assert!(at.ends_with('Z') && at.contains('T'), "{at}");
        assert_eq!(event["sk"], format!("EVENT#{at}#{ulid}"));
    }
    // Ids with prefix twins: some user id is a prefix of another.
    let users: Vec<String> = of("User").map(|u| u["userId"].as_str().unwrap().to_string()).collect();
    assert!(
        users
            .iter()
            .any(|a| users.iter().any(|b| a != b && b.starts_with(a.as_str()))),
        "{users:?}"
    );
}

#[test]
fn exports_of_a_file_with_syntax_errors_fail() {
    for args in [
        &["export", "cloudformation", "tests/fixtures/syntax/three_errors.dyno"][..],
        &["export", "workbench", "tests/fixtures/syntax/three_errors.dyno"][..],
        &["sample", "tests/fixtures/syntax/three_errors.dyno"][..],
    ] {
        let output = dyno(args);
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        assert!(stdout(&output).is_empty());
    }
}

/// Quoted names (`"GSI1-PK"`, table `"orders-prod.v2"`) reach DynamoDB as
/// the names they spell.
const QUOTED: &str = "tests/fixtures/check/quoted_names.dyno";
const TTL: &str = "tests/fixtures/check/ttl_not_a_number_fixed.dyno";

#[test]
fn cloudformation_uses_the_real_names_of_quoted_names() {
    let json = cloudformation_json(QUOTED);
    let resources = json["Resources"].as_object().unwrap();
    assert_eq!(resources.len(), 1);
    let (logical_id, table) = resources.iter().next().unwrap();
    // A logical id is alphanumeric whatever the table is called.
    assert!(logical_id.chars().all(|c| c.is_ascii_alphanumeric()), "{logical_id}");
    let p = &table["Properties"];
    assert_eq!(p["TableName"], "orders-prod.v2");
    let defined: Vec<&str> = p["AttributeDefinitions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["AttributeName"].as_str().unwrap())
        .collect();
    assert_eq!(defined, ["PK", "SK", "GSI1-PK", "GSI1-SK", "State#Date"]);
    let key_names = |schema: &Json| -> Vec<String> {
        schema
            .as_array()
            .unwrap()
            .iter()
            .map(|k| k["AttributeName"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(key_names(&p["KeySchema"]), ["PK", "SK"]);
    let indexes = p["GlobalSecondaryIndexes"].as_array().unwrap();
    assert_eq!(indexes[0]["IndexName"], "GSI-1");
    assert_eq!(key_names(&indexes[0]["KeySchema"]), ["GSI1-PK", "GSI1-SK"]);
    assert_eq!(indexes[1]["IndexName"], "by-state");
    assert_eq!(key_names(&indexes[1]["KeySchema"]), ["GSI1-PK", "State#Date"]);
}

#[test]
fn workbench_and_sample_use_the_real_names_of_quoted_names() {
    let output = dyno(&["export", "workbench", QUOTED]);
    assert_eq!(output.status.code(), Some(0));
    let json: Json = serde_json::from_str(&stdout(&output)).unwrap();
    let table = &json["DataModel"][0];
    assert_eq!(table["TableName"], "orders-prod.v2");
    assert_eq!(table["KeyAttributes"]["PartitionKey"]["AttributeName"], "PK");
    assert_eq!(table["GlobalSecondaryIndexes"][0]["IndexName"], "GSI-1");

    let output = dyno(&["sample", QUOTED, "--format", "json"]);
    assert_eq!(output.status.code(), Some(0));
    let json: Json = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(json["tables"][0]["table"], "orders-prod.v2");
    let order = json["tables"][0]["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["entity"] == "Order")
        .unwrap();
    let item = &order["item"];
    assert!(item["GSI1-PK"].as_str().unwrap().starts_with("CUSTOMER#"), "{item}");
    assert!(item["GSI1-SK"].as_str().unwrap().starts_with("ORDER#"), "{item}");
    assert!(
        item["State#Date"].is_string() && item["Order.Total"].is_number(),
        "{item}"
    );
}

#[test]
fn cloudformation_enables_time_to_live_on_the_ttl_attribute() {
    let json = cloudformation_json(TTL);
    let table = json["Resources"].as_object().unwrap().values().next().unwrap();
    let spec = &table["Properties"]["TimeToLiveSpecification"];
    assert_eq!(spec["AttributeName"], "expiresAt", "{table:#}");
    assert_eq!(spec["Enabled"], true);
    // The TTL attribute is not a key: CloudFormation defines key attributes only.
    let defined = table["Properties"]["AttributeDefinitions"].as_array().unwrap();
    assert!(defined.iter().all(|d| d["AttributeName"] != "expiresAt"), "{defined:?}");
    // A table without `ttl` gets no specification.
    let json = cloudformation_json(QUOTED);
    for table in json["Resources"].as_object().unwrap().values() {
        assert!(table["Properties"].get("TimeToLiveSpecification").is_none());
    }
}

#[test]
fn sample_expiry_times_are_epoch_seconds_in_the_future() {
    let output = dyno(&["sample", TTL, "--format", "json"]);
    assert_eq!(output.status.code(), Some(0));
    let json: Json = serde_json::from_str(&stdout(&output)).unwrap();
    let items = json["tables"][0]["items"].as_array().unwrap();
    // Whatever day the samples are made: 2100-01-01 in epoch seconds.
    let year_2100 = 4_102_444_800u64;
    let sessions: Vec<&Json> = items.iter().filter(|i| i["entity"] == "Session").collect();
    assert!(!sessions.is_empty());
    for session in sessions {
        let expires = session["item"]["expiresAt"].as_u64().unwrap();
        assert!(expires >= year_2100, "{session}");
    }
    // An entity without the attribute gets none.
    assert!(
        items
            .iter()
            .filter(|i| i["entity"] == "User")
            .all(|u| u["item"].get("expiresAt").is_none())
    );
}
