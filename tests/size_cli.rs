//! `dyno size` as a user runs it: the built binary, item files, exit codes.

mod common;

use std::path::Path;

use common::cli::{dyno, path_str, stderr, stdout};
use common::scratch::Scratch;
use serde_json::{Value as Json, json};

fn size_json(args: &[&str]) -> (Option<i32>, Json) {
    let mut all = vec!["size"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--format", "json"]);
    let output = dyno(&all);
    let report = serde_json::from_str(&stdout(&output)).unwrap_or_else(|e| panic!("{e}: {}", stderr(&output)));
    (output.status.code(), report)
}

/// AWS's example item (rule 2.4): 23 bytes, one read unit, one write unit.
#[test]
fn a_dynamodb_json_item_is_measured() {
    let scratch = Scratch::new("size-ddb");
    let file = scratch.file("shirt.json", r#"{"shirt-color": {"S": "R"}, "shirt-size": {"S": "M"}}"#);
    let output = dyno(&["size", path_str(&file)]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.starts_with("$: 23 B\n"), "{text}");
    assert!(
        text.contains("  read (GetItem): 1 RCU strongly consistent, 0.5 eventually consistent, 2 transactional\n"),
        "{text}"
    );
    assert!(text.contains("  write (PutItem): 1 WCU, 2 transactional\n"), "{text}");
    assert!(
        text.contains("1 item: min 23 B, avg 23 B, max 23 B, 23 B in all\n"),
        "{text}"
    );
}

#[test]
fn plain_json_items_are_summed_per_item_and_per_query() {
    let scratch = Scratch::new("size-plain");
    // About 3,000 and 5,000 bytes: two GetItems of one and two 4 KB units,
    // but one Query of 8,018 B rounded once to 8 KB (rules 3.4, 3.5).
    let items = json!([
        {"id": "a", "n": 12, "text": "x".repeat(3000 - 9)},
        {"id": "b", "n": 12.5, "ok": true, "none": null, "text": "y".repeat(5000 - 21), "tags": ["p", "q"], "m": {"k": 1}},
    ]);
    let file = scratch.file("items.json", items.to_string());
    let (status, report) = size_json(&[path_str(&file)]);
    assert_eq!(status, Some(0));
    let bytes: Vec<u64> = report["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["bytes"].as_u64().unwrap())
        .collect();
    // id 2+1, n 1+2, text 4+2991 = 3001; id 2+1, n 1+3, ok 2+1, none 4+1,
    // text 4+4979, tags 4+3+2+2, m 1+3+(1+2+1) = 5017.
    assert_eq!(bytes, [3001, 5017]);
    assert_eq!(report["items"][0]["format"], "plain");
    assert_eq!(report["items"][1]["read"]["strong"], 2.0);
    assert_eq!(report["items"][1]["write"]["standard"], 5.0);
    let summary = &report["summary"];
    assert_eq!(summary["count"], 2);
    assert_eq!(
        (summary["min"].as_u64(), summary["max"].as_u64()),
        (Some(3001), Some(5017))
    );
    assert_eq!(summary["avg"], 4009.0);
    assert_eq!(summary["batch_get"]["strong"], 3.0);
    assert_eq!(summary["query"]["strong"], 2.0);
    assert_eq!(summary["query"]["eventual"], 1.0);
    assert_eq!(summary["batch_write"]["standard"], 8.0);
    assert!(report["items"][0].get("entity").is_none(), "no schema, no entity");
}

/// The items `dyno sample --format json` prints for each bundled and real
/// design are each identified as the entity sample wrote them for (in
/// complaint-management the table's partition key is a plain attribute).
#[test]
fn the_schema_names_each_sample_item_s_entity() {
    let mut schemas: Vec<String> = ["examples/billing.dyno", "examples/shop.dyno", "examples/teams.dyno"]
        .map(String::from)
        .to_vec();
    for entry in std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/real")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "dyno") {
            schemas.push(format!("examples/real/{}", path.file_name().unwrap().to_str().unwrap()));
        }
    }
    assert!(
        schemas.iter().any(|s| s.ends_with("complaint-management.dyno")),
        "{schemas:?}"
    );
    let scratch = Scratch::new("size-schema");
    for schema in &schemas {
        let sample = dyno(&["sample", schema, "--format", "json"]);
        assert_eq!(sample.status.code(), Some(0), "{schema}");
        let sample: Json = serde_json::from_str(&stdout(&sample)).unwrap();
        let mut items = Vec::new();
        let mut entities = Vec::new();
        for table in sample["tables"].as_array().unwrap() {
            for item in table["items"].as_array().unwrap() {
                items.push(item["item"].clone());
                entities.push(item["entity"].as_str().unwrap().to_string());
            }
        }
        assert!(items.len() >= 4, "{schema}: {items:?}");
        let file = scratch.file("items.json", Json::Array(items).to_string());
        let (status, report) = size_json(&[path_str(&file), "--schema", schema]);
        assert_eq!(status, Some(0), "{schema}: {report}");
        let found: Vec<String> = report["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["entity"]["name"].as_str().unwrap_or("(none)").to_string())
            .collect();
        assert_eq!(found, entities, "{schema}");
        for item in report["items"].as_array().unwrap() {
            assert_eq!(item["entity"]["also"], json!([]), "{schema}: {item}");
            assert!(
                item["entity"]["expected_bytes"].as_f64().unwrap() > 0.0,
                "{schema}: {item}"
            );
        }
    }
}

/// `dyno sample`'s own output (BatchWriteItem requests in DynamoDB JSON)
/// is read as it is: every put is an item of some billing entity.
#[test]
fn sample_s_batch_write_requests_are_read_directly() {
    let sample = dyno(&["sample", "examples/billing.dyno"]);
    let scratch = Scratch::new("size-batch");
    let file = scratch.file("sample.jsonl", sample.stdout);
    let output = dyno(&["size", path_str(&file), "--schema", "examples/billing.dyno"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains(".RequestItems.Billing[0].PutRequest.Item: "), "{text}");
    assert!(text.contains("  entity Tenant: "), "{text}");
    assert!(text.contains("  entity Invoice: "), "{text}");
    assert!(!text.contains("entity: none"), "{text}");
}

#[test]
fn an_item_no_entity_writes_says_so() {
    let scratch = Scratch::new("size-none");
    let file = scratch.file("odd.json", r#"{"pk": "TENANT#t1", "sk": "PAYMENT#1"}"#);
    let output = dyno(&["size", path_str(&file), "--schema", "examples/billing.dyno"]);
    assert_eq!(output.status.code(), Some(0));
    assert!(
        stdout(&output).contains(
            "  entity: none of the schema's entities writes these keys (pk = \"TENANT#t1\", sk = \"PAYMENT#1\")\n"
        ),
        "{}",
        stdout(&output)
    );
}

#[test]
fn a_key_dynamodb_would_reject_is_an_error_with_a_schema() {
    let scratch = Scratch::new("size-key");
    let file = scratch.file(
        "key.json",
        format!(r#"{{"pk": "TENANT#t1", "sk": "USER#{}"}}"#, "u".repeat(1100)),
    );
    let output = dyno(&["size", path_str(&file)]);
    assert_eq!(output.status.code(), Some(0), "without a schema the keys are unknown");
    let output = dyno(&["size", path_str(&file), "--schema", "examples/billing.dyno"]);
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    assert!(text.contains("  entity User: "), "{text}");
    assert!(
        text.contains("  error: `sk` is 1105 B: a sort key value holds at most 1024 B (rule 2.5)\n"),
        "{text}"
    );
}

#[test]
fn an_item_over_400_kb_is_an_error() {
    let scratch = Scratch::new("size-big");
    let items = json!([{"pk": {"S": "small"}}, {"pk": {"S": "big"}, "blob": {"S": "z".repeat(400 * 1024)}}]);
    let file = scratch.file("big.json", items.to_string());
    let output = dyno(&["size", path_str(&file)]);
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    // pk 2 + 3, blob 4 + 409,600: nine bytes over.
    assert!(text.contains("$[1]: 409609 B (400.01 KB)\n"), "{text}");
    assert!(
        text.contains("  error: 409609 B is over DynamoDB's 400 KB item limit (409600 B): a write of it is rejected\n"),
        "{text}"
    );
    assert!(text.ends_with("1 item DynamoDB would reject\n"), "{text}");
    let (status, report) = size_json(&[path_str(&file)]);
    assert_eq!(status, Some(1));
    assert_eq!(report["items"][1]["over_limit"], true);
    assert_eq!(report["items"][0]["over_limit"], false);
}

#[test]
fn malformed_input_is_a_usage_error_with_where() {
    let scratch = Scratch::new("size-bad");
    let not_json = scratch.file("broken.json", "[{\"pk\": {\"S\": \"a\"}},\n {\"pk\": }]\n");
    let output = dyno(&["size", path_str(&not_json)]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stdout(&output), "");
    let err = stderr(&output);
    assert!(err.contains("broken.json: line 2 column 9: not JSON: "), "{err}");

    let bad_values = scratch.file(
        "values.json",
        r#"[{"n": {"N": "12abc"}}, {"b": {"B": "not base64!"}}, {"ok": {"S": "fine"}}, 7]"#,
    );
    let output = dyno(&["size", path_str(&bad_values)]);
    assert_eq!(output.status.code(), Some(2));
    let err = stderr(&output);
    assert!(
        err.contains("values.json: $[0].n.N: `12abc` is not a number\n"),
        "{err}"
    );
    assert!(
        err.contains("values.json: $[1].b.B: invalid base64: ` ` is not a base64 character\n"),
        "{err}"
    );
    assert!(
        err.contains("values.json: $[3]: expected an item (a JSON object), found a number\n"),
        "{err}"
    );

    let output = dyno(&["size", "does/not/exist.json"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stderr(&output), "error: `does/not/exist.json` does not exist\n");
}

/// `dyno explain --items`: sizes measured from real items replace the
/// schema's type-default estimates in every pattern's cost.
#[test]
fn explain_sizes_entities_by_the_items_given() {
    let scratch = Scratch::new("size-explain");
    // One big user: its measured size, not the estimate, prices the read.
    let user = json!({"pk": "TENANT#t1", "sk": "USER#u1", "email": "a@example.com", "bio": "z".repeat(9000)});
    let file = scratch.file("users.json", user.to_string());
    let schema = scratch.file(
        "app.dyno",
        r#"table App {
  key pk, sk
}

entity User {
  tenantId: id
  userId: id
  email: string
  bio: string
  pk = "TENANT#{tenantId}"
  sk = "USER#{userId}"
}

pattern user(tenantId, userId) -> User
"#,
    );
    let estimated = dyno(&["explain", path_str(&schema), "--format", "json"]);
    let estimated: Json = serde_json::from_str(&stdout(&estimated)).unwrap();
    assert_eq!(estimated["patterns"][0]["cost"]["estimated"], true);
    let output = dyno(&[
        "explain",
        path_str(&schema),
        "--items",
        path_str(&file),
        "--format",
        "json",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let measured: Json = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(measured["measured"][0]["entity"], "User");
    assert_eq!(measured["measured"][0]["items"], 1);
    let cost = &measured["patterns"][0]["cost"];
    assert_eq!(cost["estimated"], false, "{cost:#}");
    // 9,000+ bytes: three 4 KB units, half for an eventually consistent read.
    assert_eq!(cost["rcu"], 1.5, "{cost:#}");
    let text = stdout(&dyno(&["explain", path_str(&schema), "--items", path_str(&file)]));
    assert!(text.starts_with("sized from "), "{text}");
}
