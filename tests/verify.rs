//! `dyno verify` against a DynamoDB-compatible endpoint: every bundled
//! example passes, and each fixture in `tests/fixtures/verify/` fails on the
//! pattern its `// expect-fail: PATTERN KIND WORD` line names, with WORD (the
//! leaked entity, the attribute) in the report, while its other patterns pass.
//!
//! The endpoint is `DYNO_TEST_ENDPOINT` (`.ci/run` starts moto's server and
//! sets it). Without it the tests print a notice and pass, except under
//! `CI=true`, where a missing endpoint fails them.
#![cfg(feature = "verify")]

mod common;

use std::process::{Command, Output};

use serde_json::Value as Json;

fn endpoint() -> Option<String> {
    match std::env::var("DYNO_TEST_ENDPOINT") {
        Ok(endpoint) if !endpoint.is_empty() => Some(endpoint),
        _ => {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "CI=true but DYNO_TEST_ENDPOINT is not set: .ci/run starts moto's server and exports it"
            );
            eprintln!(
                "notice: verify tests skipped: set DYNO_TEST_ENDPOINT=http://127.0.0.1:PORT (moto's server or DynamoDB Local; see docs/verify.md)"
            );
            None
        }
    }
}

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
fn every_bundled_example_passes_against_the_endpoint() {
    let Some(endpoint) = endpoint() else { return };
    for example in EXAMPLES {
        let (code, json, text) = verify_json(example, &endpoint, &[]);
        assert_eq!(code, Some(0), "{example}:\n{text}");
        let patterns = json["patterns"].as_array().unwrap();
        assert!(!patterns.is_empty());
        for p in patterns {
            assert_eq!(p["status"], "pass", "{example}: {p:#}");
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

#[test]
fn billing_prints_every_pattern_passing() {
    let Some(endpoint) = endpoint() else { return };
    let output = dyno(&["verify", "examples/billing.dyno", "--endpoint", &endpoint]);
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(0), "{text}");
    let source = std::fs::read_to_string(format!("{}/examples/billing.dyno", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let patterns = dyno::check::analyze(&source).model.patterns;
    for pattern in &patterns {
        assert!(
            text.lines()
                .any(|l| l.starts_with("pass  ") && l.contains(&pattern.name.text)),
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

/// `// expect-fail: PATTERN KIND WORD`
fn expectation(source: &str) -> (String, String, String) {
    let line = source
        .lines()
        .find_map(|l| l.trim().strip_prefix("// expect-fail:"))
        .expect("an `// expect-fail: PATTERN KIND WORD` line");
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words.len(), 3, "`// expect-fail: PATTERN KIND WORD`, got {line:?}");
    (words[0].into(), words[1].into(), words[2].into())
}

#[test]
fn each_hazard_fixture_fails_on_its_pattern_and_names_what_went_wrong() {
    let Some(endpoint) = endpoint() else { return };
    let fixtures = common::fixtures("tests/fixtures/verify");
    assert!(fixtures.len() >= 4);
    for path in fixtures {
        let file = path
            .strip_prefix(env!("CARGO_MANIFEST_DIR"))
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        let (pattern, kind, word) = expectation(&std::fs::read_to_string(&path).unwrap());
        let (code, json, text) = verify_json(&file, &endpoint, &[]);
        assert_eq!(code, Some(1), "{file}: exits 1 on a failure:\n{text}");
        for p in json["patterns"].as_array().unwrap() {
            if p["pattern"] == pattern.as_str() {
                assert_eq!(p["status"], "fail", "{file}: {p:#}");
                let failure = p["failures"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|f| f["kind"] == kind.as_str())
                    .unwrap_or_else(|| panic!("{file}: `{pattern}` fails with `{kind}`: {p:#}"));
                assert!(
                    failure.to_string().contains(&word),
                    "{file}: the `{kind}` failure names `{word}`: {failure:#}"
                );
            } else {
                assert_eq!(p["status"], "pass", "{file}: only `{pattern}` fails: {p:#}");
            }
        }
        assert_eq!(json["deleted"], true);
    }
}

#[test]
fn the_leaking_pinned_query_is_shown_failing_with_the_user_group_items() {
    let Some(endpoint) = endpoint() else { return };
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
fn keep_leaves_the_tables_and_a_second_run_under_the_same_prefix_cannot_create_them() {
    let Some(endpoint) = endpoint() else { return };
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
