//! `dyno verify` against a DynamoDB-compatible endpoint: every bundled
//! example passes, and each fixture in `tests/fixtures/verify/` fails on the
//! pattern its `// expect-fail: PATTERN KIND WORD` line names, with WORD (the
//! leaked entity, the attribute) in the report, while its other patterns pass.
//!
//! The endpoint is `DYNO_TEST_ENDPOINT` (`.ci/run` starts moto's server and
//! sets it). The tests that need it are ignored unless asked for
//! (`--include-ignored`), and then fail without it or without the `verify`
//! feature.

mod common;

use std::process::{Command, Output};

use serde_json::Value as Json;

use common::endpoint;

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

fn verify_json(file: &str, endpoint: &str, extra: &[&str]) -> (Option<i32>, Json, String) {
    let mut args = vec!["verify", file, "--endpoint", endpoint, "--format", "json"];
    args.extend_from_slice(extra);
    let output = dyno(&args);
    let text = stdout(&output);
    let json = serde_json::from_str(&text).unwrap_or_else(|e| {
        panic!(
            "{file}: not one JSON document ({e}):\n{text}\nstderr:\n{}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (output.status.code(), json, text)
}

const EXAMPLES: [&str; 3] = ["examples/billing.dyno", "examples/shop.dyno", "examples/teams.dyno"];

#[test]
#[ignore = "needs `--features verify` and a DynamoDB endpoint in DYNO_TEST_ENDPOINT (README: Tests)"]
fn every_bundled_example_passes_against_the_endpoint() {
    let endpoint = endpoint();
    for example in EXAMPLES {
        let (code, json, text) = verify_json(example, &endpoint, &[]);
        assert_eq!(code, Some(0), "{example}:\n{text}");
        let patterns = json["patterns"].as_array().unwrap();
        assert!(!patterns.is_empty());
        for p in patterns {
            assert_eq!(p["status"], "pass", "{example}: {p:#}");
            assert!(
                p["matching"].as_u64().unwrap() > 0,
                "{example}: nothing matches the known values of `{}`",
                p["pattern"]
            );
            // The samples put several items in a partition: every `by` is
            // seen on at least two of them, every `limit` cuts a page.
            assert_eq!(
                p["unexercised"],
                serde_json::json!([]),
                "{example}: every check of `{}` is exercised: {p:#}",
                p["pattern"]
            );
            assert!(
                p["returned"].as_u64().unwrap() > 0,
                "{example}: `{}` was run with values that select nothing",
                p["pattern"]
            );
        }
        assert_eq!(json["summary"]["failed"], 0);
        assert_eq!(json["deleted"], true, "{example}: the tables are deleted");
        assert!(json["tables"][0]["name"].as_str().unwrap().starts_with("dyno-verify-"));
    }
}

/// Names only quotes can write (`orders-prod.v2`, `GSI-1`, `GSI1-PK`,
/// `State#Date`) reach DynamoDB as they are: the table is created under its
/// real name and every Query, pinned or not, passes.
#[test]
#[ignore = "needs `--features verify` and a DynamoDB endpoint in DYNO_TEST_ENDPOINT (README: Tests)"]
fn quoted_names_are_created_and_queried_under_their_real_names() {
    let endpoint = endpoint();
    let file = "tests/fixtures/check/quoted_names.dyno";
    let (code, json, text) = verify_json(file, &endpoint, &[]);
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(json["tables"][0]["table"], "orders-prod.v2");
    assert!(json["tables"][0]["name"].as_str().unwrap().ends_with("-orders-prod.v2"));
    assert_eq!(json["tables"][0]["global_indexes"], 2);
    let patterns = json["patterns"].as_array().unwrap();
    assert_eq!(patterns.len(), 5);
    for p in patterns {
        assert_eq!(p["status"], "pass", "{p:#}");
        assert!(p["returned"].as_u64().unwrap() > 0, "{p:#}");
    }
    let since = &patterns.iter().find(|p| p["pattern"] == "ordersSince").unwrap()["request"];
    assert_eq!(since["IndexName"], "by-state");
    assert_eq!(
        since["ExpressionAttributeNames"],
        serde_json::json!({ "#pk": "GSI1-PK", "#sk": "State#Date" })
    );
}

/// Epoch numbers (seconds as the TTL, milliseconds in a sort key) and local
/// ISO times are written and ranged over as the checker says they sort.
#[test]
#[ignore = "needs `--features verify` and a DynamoDB endpoint in DYNO_TEST_ENDPOINT (README: Tests)"]
fn time_formats_sort_as_declared_against_the_endpoint() {
    let endpoint = endpoint();
    let (code, json, text) = verify_json("tests/fixtures/check/time_formats.dyno", &endpoint, &[]);
    assert_eq!(code, Some(0), "{text}");
    for p in json["patterns"].as_array().unwrap() {
        assert_eq!(p["status"], "pass", "{p:#}");
        assert!(
            p["returned"].as_u64().unwrap() >= 2,
            "order is judged on two items at least: {p:#}"
        );
    }
}

/// `get`, `batch get` and `scan` run as GetItem, BatchGetItem and Scan
/// (every segment of a parallel scan, a sparse index, an index named like a
/// modifier), and return what the pattern declares.
#[test]
#[ignore = "needs `--features verify` and a DynamoDB endpoint in DYNO_TEST_ENDPOINT (README: Tests)"]
fn other_reads_run_as_their_operation_and_pass() {
    let endpoint = endpoint();
    let file = "tests/fixtures/check/reads.dyno";
    let (code, json, text) = verify_json(file, &endpoint, &[]);
    assert_eq!(code, Some(0), "{text}");
    let patterns = json["patterns"].as_array().unwrap();
    assert_eq!(patterns.len(), 6);
    for p in patterns {
        assert_eq!(p["status"], "pass", "{p:#}");
        assert!(p["returned"].as_u64().unwrap() > 0, "{p:#}");
    }
    let pattern = |name: &str| patterns.iter().find(|p| p["pattern"] == name).unwrap();
    let customer = &pattern("customer")["request"];
    assert!(
        customer.get("Key").is_some() && customer.get("KeyConditionExpression").is_none(),
        "{customer:#}"
    );
    assert_eq!(customer["ConsistentRead"], true);
    let batch = &pattern("customers")["request"]["RequestItems"];
    assert_eq!(batch.as_object().unwrap().len(), 1, "{batch:#}");
    let export = pattern("export");
    assert_eq!(export["request"]["TotalSegments"], 4);
    // Every item of the table: the scan read all 4 segments.
    let total = json["tables"][0]["items"].as_u64().unwrap();
    assert_eq!(export["returned"].as_u64().unwrap(), total, "{export:#}");
    // The sparse index holds customers only: fewer items than the table.
    let customers = pattern("allCustomers");
    assert_eq!(customers["request"]["IndexName"], "byEmail");
    assert!(customers["returned"].as_u64().unwrap() < total, "{customers:#}");
    assert_eq!(pattern("allOrders")["request"]["IndexName"], "limit");
}

#[test]
#[ignore = "needs `--features verify` and a DynamoDB endpoint in DYNO_TEST_ENDPOINT (README: Tests)"]
fn filtered_patterns_send_their_filter_and_return_only_what_it_keeps() {
    let endpoint = endpoint();
    let file = "tests/fixtures/check/filters_verified.dyno";
    let (code, json, text) = verify_json(file, &endpoint, &[]);
    assert_eq!(code, Some(0), "{text}");
    let patterns = json["patterns"].as_array().unwrap();
    let named = |name: &str| patterns.iter().find(|p| p["pattern"] == name).unwrap();
    for p in patterns {
        assert_eq!(p["status"], "pass", "{p:#}");
        assert!(p["returned"].as_u64().unwrap() > 0, "{p:#}");
    }
    // The same partition, read whole and filtered: the filter removed items.
    let everything = named("customerTickets")["returned"].as_u64().unwrap();
    let open = &named("openTickets");
    assert!(open["returned"].as_u64().unwrap() < everything, "{text}");
    assert_eq!(open["request"]["FilterExpression"], "#f0 = :f0", "{open:#}");
    assert_eq!(open["request"]["ExpressionAttributeNames"]["#f0"], "state");
    assert_eq!(
        open["request"]["ExpressionAttributeValues"][":f0"],
        serde_json::json!({ "S": "open" })
    );
    // A caller's value is sent as a number, taken from a sample item.
    let urgent = &named("urgent")["request"];
    assert!(
        urgent["ExpressionAttributeValues"][":f0"]["N"].is_string(),
        "{urgent:#}"
    );
    assert!(
        urgent["ExpressionAttributeNames"]
            .as_object()
            .unwrap()
            .values()
            .any(|n| n == "State#Date"),
        "{urgent:#}"
    );
}

/// A read over every write shard sends its Query once per shard and merges
/// the results: the leaderboard's items come back from several shards, in
/// order, and a calculated shard is one Query that finds the player's items.
#[test]
#[ignore = "needs `--features verify` and a DynamoDB endpoint in DYNO_TEST_ENDPOINT (README: Tests)"]
fn sharded_reads_query_every_shard_and_merge_them() {
    let endpoint = endpoint();
    let file = "tests/fixtures/check/sharded.dyno";
    let (code, json, text) = verify_json(file, &endpoint, &["--per-entity", "30"]);
    assert_eq!(code, Some(0), "{text}");
    let patterns = json["patterns"].as_array().unwrap();
    let named = |name: &str| patterns.iter().find(|p| p["pattern"] == name).unwrap();
    for p in patterns {
        assert_eq!(p["status"], "pass", "{p:#}");
        assert!(p["returned"].as_u64().unwrap() > 0, "{p:#}");
    }
    // Number keys on plain `epoch` and `shard` attributes: created, written
    // and read, the shard of a multi-attribute key one Query per value.
    let (code, json, text) = verify_json("tests/fixtures/check/number_plain_keys.dyno", &endpoint, &[]);
    assert_eq!(code, Some(0), "{text}");
    for p in json["patterns"].as_array().unwrap() {
        assert_eq!(p["status"], "pass", "{p:#}");
        assert!(p["returned"].as_u64().unwrap() > 0, "{p:#}");
    }
    let high = named("highScores");
    assert_eq!(high["requests"], 10, "{high:#}");
    // More items than any one shard's Query returns on its own.
    assert!(high["returned"].as_u64().unwrap() >= 2, "{high:#}");
    assert_eq!(high["returned"], high["matching"], "{high:#}");
    let player = named("playerScores");
    assert_eq!(player["requests"], 1, "{player:#}");
}

#[test]
#[ignore = "needs `--features verify` and a DynamoDB endpoint in DYNO_TEST_ENDPOINT (README: Tests)"]
fn billing_prints_every_pattern_passing() {
    let endpoint = endpoint();
    let output = dyno(&["verify", "examples/billing.dyno", "--endpoint", &endpoint]);
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(0), "{text}");
    let source = std::fs::read_to_string(format!("{}/examples/billing.dyno", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let patterns = dyno::check::analyze(&source).schema.model.patterns.clone();
    for pattern in &patterns {
        assert!(
            text.lines()
                .any(|l| l.starts_with("pass  ") && l.contains(pattern.name.text.as_str())),
            "`{}` passes:\n{text}",
            pattern.name.text
        );
    }
    assert!(
        text.contains(&format!("{0} patterns: {0} passed, 0 failed", patterns.len())),
        "{text}"
    );
    assert!(text.contains("tables deleted"), "{text}");
}

/// Every `// expect-fail: PATTERN KIND WORD` line.
fn expectations(source: &str) -> Vec<(String, String, String)> {
    let lines: Vec<(String, String, String)> = source
        .lines()
        .filter_map(|l| l.trim().strip_prefix("// expect-fail:"))
        .map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(words.len(), 3, "`// expect-fail: PATTERN KIND WORD`, got {line:?}");
            (words[0].into(), words[1].into(), words[2].into())
        })
        .collect();
    assert!(!lines.is_empty(), "an `// expect-fail: PATTERN KIND WORD` line");
    lines
}

/// A fixture's expected failure is a resolution the checker accepted when
/// the fixture was written. Once `dyno check` rejects the pattern, verify has
/// no Query to run and skips it (still exit 1); while the checker resolves it
/// (or it is pinned and run as written), verify must fail it.
#[test]
#[ignore = "needs `--features verify` and a DynamoDB endpoint in DYNO_TEST_ENDPOINT (README: Tests)"]
fn each_hazard_fixture_fails_on_its_pattern_and_names_what_went_wrong() {
    let endpoint = endpoint();
    let fixtures = common::fixtures("tests/fixtures/verify");
    assert!(fixtures.len() >= 8);
    for path in fixtures {
        let file = path
            .strip_prefix(env!("CARGO_MANIFEST_DIR"))
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        let source = std::fs::read_to_string(&path).unwrap();
        let expected = expectations(&source);
        let analysis = dyno::check::analyze(&source);
        let resolved = |name: &str| {
            let i = analysis
                .schema
                .model
                .patterns
                .iter()
                .position(|p| p.name.text == name)
                .unwrap_or_else(|| panic!("{file}: no pattern `{name}`"));
            analysis.schema.resolutions[i].is_some()
        };
        let (code, json, text) = verify_json(&file, &endpoint, &[]);
        assert_eq!(code, Some(1), "{file}: exits 1 on a failure:\n{text}");
        for p in json["patterns"].as_array().unwrap() {
            let name = p["pattern"].as_str().unwrap();
            let wanted: Vec<_> = expected.iter().filter(|(pattern, _, _)| pattern == name).collect();
            if wanted.is_empty() {
                assert_eq!(p["status"], "pass", "{file}: only the expected patterns fail: {p:#}");
                continue;
            }
            if p["status"] == "skipped" {
                assert!(
                    !resolved(name),
                    "{file}: `{name}` is skipped only when the checker rejects it: {p:#}"
                );
                continue;
            }
            assert_eq!(p["status"], "fail", "{file}: {p:#}");
            for (pattern, kind, word) in wanted {
                let failure = p["failures"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|f| f["kind"] == kind.as_str())
                    .unwrap_or_else(|| panic!("{file}: `{pattern}` fails with `{kind}`: {p:#}"));
                assert!(
                    failure.to_string().contains(word.as_str()),
                    "{file}: the `{kind}` failure names `{word}`: {failure:#}"
                );
                assert!(
                    !failure["items"].as_array().unwrap().is_empty() || kind == "consistent-gsi",
                    "{file}: the `{kind}` failure lists the items: {failure:#}"
                );
            }
        }
        assert_eq!(json["deleted"], true);
    }
}

/// The patterns of a wrong-but-accepted resolution, checked apart from the
/// fixture loop: verify fails each one on what the pattern means, naming the
/// items that break it (by primary key) and the rule.
#[test]
#[ignore = "needs `--features verify` and a DynamoDB endpoint in DYNO_TEST_ENDPOINT (README: Tests)"]
fn wrong_resolutions_fail_on_the_items_that_break_the_pattern() {
    let endpoint = endpoint();
    let cases = [
        ("plain_attribute_filter", "productsByColor", "wrong-item", "color = "),
        ("collection_by_parent", "orderWithLines", "wrong-item", "orderId = "),
        ("enum_prefix_word", "highTickets", "wrong-item", "priority = "),
        ("single_of_many", "oneOrder", "single", "promises at most one"),
    ];
    for (fixture, pattern, kind, rule) in cases {
        let file = format!("tests/fixtures/verify/{fixture}.dyno");
        let output = dyno(&["verify", &file, "--endpoint", &endpoint]);
        let text = stdout(&output);
        assert_eq!(output.status.code(), Some(1), "{text}");
        let source = std::fs::read_to_string(format!("{}/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        let analysis = dyno::check::analyze(&source);
        let i = analysis
            .schema
            .model
            .patterns
            .iter()
            .position(|p| p.name.text == pattern)
            .unwrap();
        if analysis.schema.resolutions[i].is_none() {
            assert!(
                text.lines().any(|l| l.starts_with(&format!("skip  {pattern} "))),
                "{text}"
            );
            continue;
        }
        let at = text
            .lines()
            .position(|l| l.starts_with(&format!("FAIL  {pattern} ")))
            .unwrap_or_else(|| panic!("a FAIL line for {pattern}:\n{text}"));
        let lines: Vec<&str> = text
            .lines()
            .skip(at + 1)
            .take_while(|l| l.starts_with("      "))
            .collect();
        let failure = lines
            .iter()
            .position(|l| l.trim_start().starts_with(&format!("{kind}: ")) && l.contains(rule))
            .unwrap_or_else(|| panic!("`{pattern}` fails with `{kind}` ({rule}):\n{text}"));
        assert!(
            lines
                .get(failure + 1)
                .is_some_and(|l| l.contains(" pk=\"") && l.contains(" sk=\"")),
            "the items are named by their primary key:\n{text}"
        );
    }
}

#[test]
#[ignore = "needs `--features verify` and a DynamoDB endpoint in DYNO_TEST_ENDPOINT (README: Tests)"]
fn the_leaking_pinned_query_is_shown_failing_with_the_user_group_items() {
    let endpoint = endpoint();
    let output = dyno(&[
        "verify",
        "tests/fixtures/verify/type_tag_prefix.dyno",
        "--endpoint",
        &endpoint,
    ]);
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    let line = text
        .lines()
        .find(|l| l.starts_with("FAIL  listUsers "))
        .unwrap_or_else(|| panic!("a FAIL line for listUsers:\n{text}"));
    assert!(line.contains(r#"begins_with(sk, "USER")"#), "{line}");
    assert!(line.contains("run as written: the checker rejects it"), "{line}");
    assert!(
        text.contains("leaked: returned") && text.contains("`UserGroup` item(s), which `listUsers` does not declare"),
        "{text}"
    );
    assert!(
        text.contains("UserGroup pk=\"TENANT#"),
        "the leaked items are listed:\n{text}"
    );
    assert!(text.lines().any(|l| l.starts_with("pass  listUsersFixed")), "{text}");
}

#[test]
#[ignore = "needs `--features verify` and a DynamoDB endpoint in DYNO_TEST_ENDPOINT (README: Tests)"]
fn keep_leaves_the_tables_and_a_second_run_under_the_same_prefix_cannot_create_them() {
    let endpoint = endpoint();
    let prefix = format!("dyno-test-keep-{}-", std::process::id());
    let file = "tests/fixtures/verify/unpadded_sort.dyno";
    let (_, json, text) = verify_json(file, &endpoint, &["--keep", "--table-prefix", &prefix]);
    assert_eq!(json["deleted"], false, "{text}");
    assert_eq!(json["tables"][0]["name"], format!("{prefix}Billing"));
    let again = dyno(&["verify", file, "--endpoint", &endpoint, "--table-prefix", &prefix]);
    assert_eq!(again.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert!(
        stderr.contains(&format!("creating table `{prefix}Billing`")),
        "{stderr}"
    );
}

#[test]
#[cfg_attr(not(feature = "verify"), ignore = "needs `--features verify`")]
fn an_endpoint_that_does_not_answer_is_a_usage_error() {
    // Needs no endpoint: port 9 on loopback refuses the connection.
    let output = dyno(&[
        "verify",
        "tests/fixtures/verify/unpadded_sort.dyno",
        "--endpoint",
        "http://127.0.0.1:9",
    ]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.starts_with("error: creating table `dyno-verify-"), "{stderr}");
}

/// A lean build (no `verify` feature) says in one line how to get it.
#[test]
#[cfg(not(feature = "verify"))]
fn without_the_feature_verify_says_how_to_get_it() {
    let output = dyno(&["verify", "examples/billing.dyno", "--endpoint", "http://127.0.0.1:9"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("--features verify"), "{stderr}");
}

#[test]
#[ignore = "needs `--features verify` and a DynamoDB endpoint in DYNO_TEST_ENDPOINT (README: Tests)"]
fn a_table_with_ttl_is_created_with_time_to_live_and_its_samples_are_read_back() {
    let endpoint = endpoint();
    let file = "tests/fixtures/check/ttl_not_a_number_fixed.dyno";
    // UpdateTimeToLive runs after CreateTable: an endpoint that rejected it
    // would fail verify before any pattern runs.
    let (code, json, text) = verify_json(file, &endpoint, &[]);
    assert_eq!(code, Some(0), "{text}");
    let patterns = json["patterns"].as_array().unwrap();
    assert_eq!(patterns.len(), 2);
    for p in patterns {
        assert_eq!(p["status"], "pass", "{p:#}");
        assert!(p["returned"].as_u64().unwrap() > 0, "{p:#}");
    }
}

/// A schema folder (a `dyno.json` beside its files) is verified as one
/// schema: the billing example cut in four passes like billing.dyno, and in
/// the broken copy the pinned query, read as written from patterns.dyno
/// (not the first file), fails on the items it misses.
#[test]
#[ignore = "needs `--features verify` and a DynamoDB endpoint in DYNO_TEST_ENDPOINT (README: Tests)"]
fn a_schema_folder_is_verified_as_one_schema() {
    let endpoint = endpoint();
    let (code, json, text) = verify_json("tests/fixtures/schema_folder/billing", &endpoint, &[]);
    assert_eq!(code, Some(0), "{text}");
    let (_, single, _) = verify_json("examples/billing.dyno", &endpoint, &[]);
    let statuses = |json: &serde_json::Value| -> Vec<(String, String, u64)> {
        json["patterns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                let name = p["pattern"].as_str().unwrap().to_string();
                (
                    name,
                    p["status"].as_str().unwrap().to_string(),
                    p["returned"].as_u64().unwrap_or(0),
                )
            })
            .collect()
    };
    assert_eq!(statuses(&json), statuses(&single));
    assert_eq!(json["summary"]["passed"], 11, "{text}");

    let (code, json, text) = verify_json("tests/fixtures/schema_folder/broken", &endpoint, &[]);
    assert_eq!(code, Some(1), "{text}");
    let pinned = json["patterns"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["pattern"] == "usersPinned")
        .unwrap();
    assert_eq!(pinned["status"], "fail", "{pinned:#}");
}
