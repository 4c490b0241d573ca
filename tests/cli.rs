//! `dyno check` as a user runs it: the built binary, real files, exit codes.

mod common;

use std::path::Path;
use std::process::Command;

use common::cli::{dyno, path_str, stderr, stdout};
use common::scratch::Scratch;

#[test]
fn bundled_examples_check_clean() {
    for example in ["examples/billing.dyno", "examples/shop.dyno", "examples/teams.dyno"] {
        let output = dyno(&["check", example]);
        assert_eq!(output.status.code(), Some(0), "{example}: {}", stdout(&output));
        let text = stdout(&output);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{text}");
        assert!(lines[0].starts_with(&format!("{example}: ")), "{text}");
        assert!(lines[0].ends_with("; 0 errors, 0 warnings"), "{text}");
        assert_eq!(
            lines[1],
            format!("`dyno explain {example}` prints each Query and its cost")
        );
    }
}

/// A clean check says what it proved: the patterns, that each is one
/// Query, and which indexes they read.
#[test]
fn a_clean_check_says_what_it_proved() {
    let output = dyno(&["check", "examples/billing.dyno"]);
    assert_eq!(
        stdout(&output).lines().next(),
        Some("examples/billing.dyno: 11 patterns, each one Query (3 on gsi1); 0 errors, 0 warnings")
    );
    let scratch = Scratch::new("cli-proved");
    let two = scratch.file(
        "two.dyno",
        "table Things {\n  key pk\n}\n\nentity A {\n  id: id\n  pk = \"A#{id}\"\n}\n\npattern getA(id) -> A\npattern allA() -> A[]\n",
    );
    let output = dyno(&["check", path_str(&two)]);
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    let summary = format!(
        "{}: 2 patterns: 1 one Query each, 1 with no single Query; 1 error, 0 warnings",
        two.display()
    );
    assert!(text.contains(&summary), "{text}");
}

#[test]
fn three_syntax_errors_are_each_reported_at_their_line_and_column() {
    let output = dyno(&["check", "tests/fixtures/syntax/three_errors.dyno"]);
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    for at in [
        "three_errors.dyno:3:10",
        "three_errors.dyno:8:9",
        "three_errors.dyno:12:47",
    ] {
        assert!(text.contains(at), "missing {at} in:\n{text}");
    }
    assert!(
        text.contains("tests/fixtures/syntax/three_errors.dyno: 1 pattern, one Query; 3 errors, 0 warnings\n"),
        "{text}"
    );
}

#[test]
fn json_output_has_the_documented_fields() {
    let output = dyno(&["check", "--format", "json", "tests/fixtures/syntax/three_errors.dyno"]);
    assert_eq!(output.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("one JSON document");
    assert_eq!(json["version"], 1);
    assert_eq!(json["summary"]["errors"], 3);
    let first = &json["diagnostics"][0];
    assert_eq!(first["file"], "tests/fixtures/syntax/three_errors.dyno");
    assert_eq!(first["severity"], "error");
    assert_eq!(first["code"], "E010");
    assert_eq!(first["range"]["start"]["line"], 3);
    assert_eq!(first["range"]["start"]["column"], 10);
    let offset = first["range"]["start"]["offset"].as_u64().unwrap() as usize;
    let source =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/syntax/three_errors.dyno"))
            .unwrap();
    assert!(
        source[offset..].starts_with("sk"),
        "offset {offset} should point at `sk`"
    );
    assert!(first["message"].as_str().unwrap().contains("found `sk`"));
    assert!(first["related"].is_array());
}

#[test]
fn fixes_are_printed_and_spelled_out_in_json() {
    let path = "tests/fixtures/check/hazard_prefix_typo.dyno";
    let text = stdout(&dyno(&["check", path]));
    assert!(text.contains("= fix: change `USERS#` to `USER#`\n"), "{text}");
    let output = dyno(&["check", "--format", "json", path]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("one JSON document");
    let fix = &json["diagnostics"][0]["fixes"][0];
    assert_eq!(fix["title"], "change `USERS#` to `USER#`");
    assert_eq!(fix["edits"][0]["text"], "USER#");
    let range = &fix["edits"][0]["range"];
    let (start, end) = (
        range["start"]["offset"].as_u64().unwrap(),
        range["end"]["offset"].as_u64().unwrap(),
    );
    let source = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap();
    assert_eq!(&source[start as usize..end as usize], "USERS#");
}

#[test]
fn missing_file_is_a_one_line_usage_error() {
    let output = dyno(&["check", "no/such/schema.dyno"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stderr(&output), "error: `no/such/schema.dyno` does not exist\n");
}

fn write(path: &Path, contents: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, contents).unwrap();
}

#[test]
fn a_directory_is_searched_for_schemas_in_sorted_order_respecting_gitignore() {
    let scratch = Scratch::new("cli-tree");
    let dir = scratch.path();
    let billing = std::fs::read_to_string("examples/billing.dyno").unwrap();
    write(&dir.join("b.dyno"), &billing);
    write(&dir.join("a/deep/z.dyno"), &billing);
    write(&dir.join("a/c.dyno"), &billing);
    write(&dir.join("a/notes.txt"), "not a schema");
    write(&dir.join("ignored/x.dyno"), "entity {");
    write(&dir.join("skip.dyno"), "entity {");
    write(&dir.join(".gitignore"), "ignored/\nskip.dyno\n");
    let proved = "11 patterns, each one Query (3 on gsi1); 0 errors, 0 warnings";
    let shown = |rel: &str| format!("{}: {proved}", dir.join(rel).display());
    let output = dyno(&["check", path_str(dir), "examples/shop.dyno"]);
    assert_eq!(output.status.code(), Some(0), "{}{}", stdout(&output), stderr(&output));
    let expected = [
        shown("a/c.dyno"),
        shown("a/deep/z.dyno"),
        shown("b.dyno"),
        format!(
            "examples/shop.dyno: {}",
            stdout(&dyno(&["check", "examples/shop.dyno"]))
                .lines()
                .next()
                .unwrap()
                .split_once(": ")
                .unwrap()
                .1
        ),
        "`dyno explain FILE` prints each Query and its cost".to_string(),
    ];
    assert_eq!(stdout(&output).lines().collect::<Vec<_>>(), expected);
}

#[test]
fn a_directory_without_schemas_is_only_a_warning() {
    let scratch = Scratch::new("cli-none");
    let dir = scratch.path();
    write(&dir.join("notes.txt"), "not a schema");
    let output = dyno(&["check", path_str(dir)]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout(&output), "");
    assert_eq!(
        stderr(&output),
        format!("warning: no .dyno files under `{}`\n", dir.display())
    );
}

#[test]
fn the_examples_directory_checks_clean() {
    let output = dyno(&["check", "examples"]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    assert!(stdout(&output).contains("examples/billing.dyno: 11 patterns, each one Query"));
}

#[test]
fn non_utf8_file_is_a_one_line_usage_error() {
    let scratch = Scratch::new("cli");
    let path = scratch.file("latin1.dyno", b"entity Caf\xe9 {}\n");
    let output = dyno(&["check", path_str(&path)]);
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(
        message.contains("is not UTF-8 text (invalid byte at offset 10)"),
        "{message}"
    );
    assert_eq!(message.lines().count(), 1);
}

#[test]
fn empty_file_is_reported_but_not_an_error() {
    let scratch = Scratch::new("cli");
    let path = scratch.file("empty.dyno", b"");
    let output = dyno(&["check", path_str(&path)]);
    assert_eq!(output.status.code(), Some(0));
    assert!(stderr(&output).contains("is empty: nothing to check"));
}

#[test]
fn unreadable_input_wins_over_errors_in_other_files() {
    let output = dyno(&["check", "tests/fixtures/syntax/three_errors.dyno", "missing.dyno"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stdout(&output).contains("3 errors"),
        "the readable file is still checked"
    );
}

#[test]
fn unreadable_files_are_listed_in_json() {
    let output = dyno(&[
        "check",
        "--format",
        "json",
        "examples/billing.dyno",
        "no/such/schema.dyno",
    ]);
    assert_eq!(output.status.code(), Some(2));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("one JSON document");
    assert_eq!(json["files"], serde_json::json!(["examples/billing.dyno"]));
    assert_eq!(
        json["unreadable"],
        serde_json::json!([{ "path": "no/such/schema.dyno", "message": "`no/such/schema.dyno` does not exist" }])
    );
    let clean = dyno(&["check", "--format", "json", "examples/billing.dyno"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&clean)).unwrap();
    assert_eq!(json["unreadable"], serde_json::json!([]));
}

#[test]
fn github_format_prints_one_annotation_per_diagnostic() {
    let output = dyno(&["check", "--format", "github", "tests/fixtures/syntax/three_errors.dyno"]);
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    let lines: Vec<_> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert_eq!(
        lines[1],
        "::error file=tests/fixtures/syntax/three_errors.dyno,line=8,col=9,endLine=8,endColumn=15,title=E010::expected `:` or `=`, found `string`"
    );

    let text = stdout(&dyno(&[
        "check",
        "--format",
        "github",
        "tests/fixtures/check/table_rules.dyno",
    ]));
    assert!(
        text.contains("::warning file=tests/fixtures/check/table_rules.dyno,line=8,col=7,endLine=8,endColumn=11,title=W101::table `Wide` has 22 global indexes"),
        "{text}"
    );
    assert!(
        text.contains("::notice file=tests/fixtures/check/table_rules.dyno,line=10,col=9,endLine=10,endColumn=13,title=H302::no pattern uses index `gsi1`\n"),
        "{text}"
    );
}

#[test]
fn github_format_escapes_properties_and_reports_unreadable_files() {
    let scratch = Scratch::new("cli");
    let path = scratch.file("odd,name:1.dyno", b"table T {");
    let output = dyno(&["check", "--format", "github", path_str(&path), "no/such/schema.dyno"]);
    assert_eq!(output.status.code(), Some(2));
    let text = stdout(&output);
    let escaped = path_str(&path).replace(',', "%2C").replace(':', "%3A");
    assert!(
        text.starts_with("::error file=no/such/schema.dyno::`no/such/schema.dyno` does not exist\n"),
        "{text}"
    );
    assert!(text.contains(&format!("::error file={escaped},line=1,")), "{text}");
}

/// Validates a document against the OASIS SARIF 2.1.0 schema in
/// tests/schemas, with `format` asserted; the errors, if any.
fn sarif_schema_errors(log: &serde_json::Value) -> Option<String> {
    let schema_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas/sarif-2.1.0.json");
    let schema: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(schema_path).unwrap()).unwrap();
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler.enable_format_assertions();
    compiler.add_resource("file:///sarif-2.1.0.json", schema).unwrap();
    let index = compiler.compile("file:///sarif-2.1.0.json", &mut schemas).unwrap();
    schemas.validate(log, index).err().map(|error| format!("{error:#}"))
}

fn sarif(args: &[&str]) -> (Option<i32>, serde_json::Value) {
    let output = dyno(&[&["check", "--format", "sarif"], args].concat());
    let log = serde_json::from_str(&stdout(&output)).expect("one JSON document");
    (output.status.code(), log)
}

#[test]
fn sarif_output_is_valid_against_the_sarif_2_1_0_schema() {
    let (code, log) = sarif(&[
        "tests/fixtures/check/hazard_prefix_typo.dyno",
        "tests/fixtures/check/hazard_overwrite.dyno",
        "tests/fixtures/check/table_rules.dyno",
        "tests/fixtures/syntax/three_errors.dyno",
        "no/such/schema.dyno",
    ]);
    assert_eq!(code, Some(2));
    if let Some(errors) = sarif_schema_errors(&log) {
        panic!("invalid SARIF:\n{errors}");
    }
    // The validator does reject what the schema forbids.
    let mut broken = log.clone();
    broken["runs"][0]["results"][0]["level"] = serde_json::json!("hint");
    assert!(sarif_schema_errors(&broken).is_some());
    let (_, clean) = sarif(&["examples/billing.dyno"]);
    assert_eq!(sarif_schema_errors(&clean), None);
    assert_eq!(clean["runs"][0]["results"], serde_json::json!([]));
}

#[test]
fn sarif_output_has_rules_results_locations_and_fixes() {
    let path = "tests/fixtures/check/hazard_prefix_typo.dyno";
    let (code, log) = sarif(&[path, "tests/fixtures/check/table_rules.dyno"]);
    assert_eq!(code, Some(1));
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    let driver = &run["tool"]["driver"];
    assert_eq!(driver["name"], "dyno");
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    let ids: Vec<_> = driver["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    // In the order of docs/diagnostics.md.
    assert_eq!(ids, ["E113", "E116", "W101", "E203", "H302"]);
    let h302 = &driver["rules"][4];
    assert_eq!(h302["shortDescription"]["text"], "index no pattern uses");
    assert_eq!(
        h302["help"]["text"],
        "See docs/diagnostics.md#h302-index-no-pattern-uses"
    );
    assert_eq!(run["invocations"][0]["executionSuccessful"], true);

    let results = run["results"].as_array().unwrap();
    let first = &results[0];
    assert_eq!(first["ruleId"], "E203");
    assert_eq!(
        driver["rules"][first["ruleIndex"].as_u64().unwrap() as usize]["id"],
        "E203"
    );
    assert_eq!(first["level"], "error");
    let location = &first["locations"][0]["physicalLocation"];
    assert_eq!(location["artifactLocation"]["uri"], path);
    assert_eq!(
        location["region"],
        serde_json::json!({ "startLine": 39, "startColumn": 106, "endLine": 39, "endColumn": 114 })
    );
    let fix = &first["fixes"][0];
    assert_eq!(fix["description"]["text"], "change `USERS#` to `USER#`");
    let replacement = &fix["artifactChanges"][0]["replacements"][0];
    assert_eq!(fix["artifactChanges"][0]["artifactLocation"]["uri"], path);
    assert_eq!(replacement["insertedContent"]["text"], "USER#");
    assert_eq!(
        replacement["deletedRegion"],
        serde_json::json!({ "startLine": 39, "startColumn": 107, "endLine": 39, "endColumn": 113 })
    );
    let levels: Vec<_> = results.iter().map(|r| r["level"].as_str().unwrap()).collect();
    assert!(levels.contains(&"warning") && levels.contains(&"note"), "{levels:?}");

    let (_, log) = sarif(&["tests/fixtures/check/hazard_overwrite.dyno"]);
    let related = &log["runs"][0]["results"][0]["relatedLocations"][0];
    assert_eq!(
        related["physicalLocation"]["artifactLocation"]["uri"],
        "tests/fixtures/check/hazard_overwrite.dyno"
    );
    assert!(related["message"]["text"].is_string(), "{related}");
}

#[test]
fn sarif_output_reports_unreadable_files_as_a_failed_execution() {
    let (code, log) = sarif(&["examples/billing.dyno", "no/such/schema.dyno"]);
    assert_eq!(code, Some(2));
    let invocation = &log["runs"][0]["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], false);
    let notification = &invocation["toolExecutionNotifications"][0];
    assert_eq!(notification["level"], "error");
    assert_eq!(notification["message"]["text"], "`no/such/schema.dyno` does not exist");
    assert_eq!(
        notification["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "no/such/schema.dyno"
    );
}

#[test]
fn usage_errors_exit_with_two() {
    assert_eq!(dyno(&[]).status.code(), Some(2));
    assert_eq!(dyno(&["check"]).status.code(), Some(2));
    assert_eq!(
        dyno(&["check", "--format", "xml", "examples/billing.dyno"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(dyno(&["--version"]).status.code(), Some(0));
}

/// `dyno sample FILE | head -c 10`: the reader goes away while dyno still
/// prints (far more than a pipe buffer), and dyno stops like any Unix tool,
/// without a panic.
#[test]
fn a_closed_pipe_ends_the_output_without_a_panic() {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_dyno"))
        .args(["sample", "examples/shop.dyno", "--per-entity", "3000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 10];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // The read end is closed here, with most of the output unwritten.
    let output = child.wait_with_output().unwrap();
    assert!(!output.status.success());
    assert_eq!(stderr(&output), "", "no panic message");
}

/// A quoted key name reaches the request as the name it spells, always
/// behind an `ExpressionAttributeNames` placeholder (`GSI1-PK` and
/// `State#Date` cannot stand in an expression), and every placeholder is one
/// DynamoDB accepts: `#` and then letters, digits or `_`.
#[test]
fn explain_requests_name_quoted_keys_by_their_real_names() {
    let output = dyno(&["explain", "tests/fixtures/check/quoted_names.dyno", "--format", "json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("one JSON document");
    let patterns = json["patterns"].as_array().unwrap();
    let request = |name: &str| &patterns.iter().find(|p| p["pattern"] == name).unwrap()["request"];

    let since = request("ordersSince");
    assert_eq!(since["TableName"], "orders-prod.v2");
    assert_eq!(since["IndexName"], "by-state");
    assert_eq!(since["KeyConditionExpression"], "#pk = :pk AND #sk >= :sk");
    assert_eq!(
        since["ExpressionAttributeNames"],
        serde_json::json!({ "#pk": "GSI1-PK", "#sk": "State#Date" })
    );
    let pinned = request("ordersPinned");
    assert_eq!(pinned["IndexName"], "GSI-1");
    assert_eq!(pinned["ExpressionAttributeNames"]["#sk"], "GSI1-SK");

    for pattern in patterns {
        let names = pattern["request"]["ExpressionAttributeNames"].as_object().unwrap();
        for placeholder in names.keys() {
            let rest = placeholder.strip_prefix('#').unwrap_or_else(|| panic!("{placeholder}"));
            assert!(
                !rest.is_empty() && rest.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
                "`{placeholder}` is not a valid expression attribute name"
            );
            let expression = pattern["request"]["KeyConditionExpression"].as_str().unwrap();
            assert!(expression.contains(placeholder.as_str()), "{expression}");
        }
    }
}
