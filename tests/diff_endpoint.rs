//! `dyno diff --endpoint URL --table NAME` against a DynamoDB-compatible
//! endpoint (`DYNO_TEST_ENDPOINT`, moto in `.ci/run`): items written under
//! the old template are counted, items of other templates are not, and
//! `--max-items` stops the count. Ignored unless asked for
//! (`--include-ignored`), like tests/verify.rs.
#![cfg(feature = "verify")]

mod common;

use serde_json::{Map, Value as Json, json};

use common::cli::{dyno, stderr, stdout};
use common::endpoint;
use dyno::verify::dynamo;

const PAIR: &str = "tests/diff/migration-prefix-renamed";

/// `{"pk": {"S": ...}, "sk": {"S": ...}}` plus the other attributes.
fn item(pk: &str, sk: &str, rest: &[(&str, &str)]) -> Map<String, Json> {
    let mut item = Map::new();
    item.insert("pk".into(), json!({ "S": pk }));
    item.insert("sk".into(), json!({ "S": sk }));
    for (name, value) in rest {
        item.insert((*name).into(), json!({ "S": value }));
    }
    item
}

/// Creates the old schema's table under a unique name and writes `users`
/// `User` items under the old template, plus items the old `User`
/// template does not produce; its name.
async fn table_with_old_users(endpoint: &str, users: usize) -> String {
    let text = std::fs::read_to_string(format!("{}/{PAIR}/old.dyno", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let analysis = dyno::check::analyze(&text);
    let model = &analysis.schema.model;
    let name = format!("{}App", dyno::verify::unique_prefix());
    let client = dynamo::client(endpoint).await;
    dynamo::create_table(&client, &model.tables[0], &name).await.unwrap();
    let mut items = Vec::new();
    for n in 0..users {
        let id = format!("u{n}");
        let email = format!("{id}@example.com");
        items.push(item(
            &format!("USER#{id}"),
            "PROFILE",
            &[
                ("gsi1pk", &format!("EMAIL#{email}")),
                ("gsi1sk", "USER"),
                ("userId", &id),
            ],
        ));
    }
    // An order in a user's partition, a user item already under the new
    // template, a `USER#` item whose sort key is not `PROFILE`, and one
    // whose keys begin like the old ones but that an `id` (no `#`) cannot
    // have written: none was written by the old `User` shape.
    items.push(item("USER#u0", "ORDER#01ARZ3NDEKTSV4RRFFQ69G5FAV", &[]));
    items.push(item(
        "U#u9",
        "PROFILE",
        &[("gsi1pk", "EMAIL#x@example.com"), ("gsi1sk", "USER")],
    ));
    items.push(item(
        "USER#u1",
        "SETTINGS",
        &[("gsi1pk", "EMAIL#y"), ("gsi1sk", "USER")],
    ));
    items.push(item(
        "USER#u1#x",
        "PROFILE",
        &[("gsi1pk", "EMAIL#z"), ("gsi1sk", "USER")],
    ));
    let refs: Vec<&Map<String, Json>> = items.iter().collect();
    dynamo::write_items(&client, &name, &refs).await.unwrap();
    name
}

fn count_of(output: &std::process::Output) -> Json {
    let json: Json = serde_json::from_str(&stdout(output)).unwrap_or_else(|e| panic!("{e}: {}", stderr(output)));
    let change = json["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["class"] == "migration")
        .unwrap_or_else(|| panic!("no migration: {json:#}"))
        .clone();
    change["affected"]["count"].clone()
}

#[tokio::test(flavor = "current_thread")]
#[ignore = "needs `--features verify` and a DynamoDB endpoint in DYNO_TEST_ENDPOINT (README: Tests)"]
async fn items_written_under_the_old_template_are_counted() {
    let endpoint = endpoint();
    let name = table_with_old_users(&endpoint, 7).await;
    let (old, new) = (format!("{PAIR}/old.dyno"), format!("{PAIR}/new.dyno"));
    let args = [
        "diff",
        &old,
        &new,
        "--format",
        "json",
        "--endpoint",
        &endpoint,
        "--table",
        &name,
    ];
    let all = dyno(&args);
    assert_eq!(all.status.code(), Some(1), "{}", stderr(&all));
    assert_eq!(
        count_of(&all),
        json!({ "items": 7, "complete": true, "read": "Scan", "table": name })
    );

    let mut bounded = args.to_vec();
    bounded.extend(["--max-items", "3"]);
    let bounded = dyno(&bounded);
    assert_eq!(
        count_of(&bounded),
        json!({ "items": 3, "complete": false, "read": "Scan", "table": name })
    );

    let text = dyno(&["diff", &old, &new, "--endpoint", &endpoint, "--table", &name]);
    assert!(
        stdout(&text).contains(&format!("; 7 existing items (counted with a Scan) on table `{name}`")),
        "{}",
        stdout(&text)
    );

    let client = dynamo::client(&endpoint).await;
    dynamo::delete_table(&client, &name).await.unwrap();
}

const SETTINGS: &str = "table Config {\n  key pk, sk\n}\n\nentity Setting {\n  name: id\n  value: string\n\n  pk = \"SETTINGS\"\n  sk = \"SETTING#{name}\"\n}\n\n/// Every setting.\npattern settings() -> Setting[]\n";

#[tokio::test(flavor = "current_thread")]
#[ignore = "needs `--features verify` and a DynamoDB endpoint in DYNO_TEST_ENDPOINT (README: Tests)"]
async fn a_constant_old_partition_key_is_counted_with_one_query() {
    let endpoint = endpoint();
    let scratch = common::scratch::Scratch::new("diff-endpoint-query");
    let old = scratch.file("old.dyno", SETTINGS);
    let new = scratch.file("new.dyno", SETTINGS.replace("SETTING#{name}", "S#{name}"));
    let analysis = dyno::check::analyze(SETTINGS);
    let name = format!("{}Config", dyno::verify::unique_prefix());
    let client = dynamo::client(&endpoint).await;
    dynamo::create_table(&client, &analysis.schema.model.tables[0], &name)
        .await
        .unwrap();
    let mut items: Vec<Map<String, Json>> = ["a", "b", "c", "d"]
        .iter()
        .map(|n| item("SETTINGS", &format!("SETTING#{n}"), &[("name", n), ("value", "1")]))
        .collect();
    // In the partition under another sort key, and in a partition whose
    // key only begins like the old one: neither counts.
    items.push(item("SETTINGS", "OTHER", &[]));
    items.push(item("SETTINGS2", "SETTING#e", &[]));
    let refs: Vec<&Map<String, Json>> = items.iter().collect();
    dynamo::write_items(&client, &name, &refs).await.unwrap();
    let run = dyno(&[
        "diff",
        old.to_str().unwrap(),
        new.to_str().unwrap(),
        "--format",
        "json",
        "--endpoint",
        &endpoint,
        "--table",
        &name,
    ]);
    assert_eq!(
        count_of(&run),
        json!({ "items": 4, "complete": true, "read": "Query", "table": name })
    );
    dynamo::delete_table(&client, &name).await.unwrap();
}

#[test]
#[ignore = "needs `--features verify` and a DynamoDB endpoint in DYNO_TEST_ENDPOINT (README: Tests)"]
fn a_table_that_does_not_exist_is_exit_2() {
    let endpoint = endpoint();
    let (old, new) = (format!("{PAIR}/old.dyno"), format!("{PAIR}/new.dyno"));
    let run = dyno(&[
        "diff",
        &old,
        &new,
        "--endpoint",
        &endpoint,
        "--table",
        "dyno-diff-no-such-table",
    ]);
    assert_eq!(run.status.code(), Some(2), "{}", stdout(&run));
    assert!(stderr(&run).contains("dyno-diff-no-such-table"), "{}", stderr(&run));
}
