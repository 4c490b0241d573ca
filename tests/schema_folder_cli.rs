//! A folder with a `dyno.json` is one schema (docs/language.md, "A schema
//! in several files"): `dyno check`, `explain`, `export`, `generate`,
//! `view`, `verify` (tests/verify.rs) and `diff` (tests/diff_folder.rs) read its files together, whichever of
//! them is named; `design`, which rewrites one file's text, refuses a member with a clear error.

mod common;

use common::cli::{dyno, dyno_in, path_str, stderr, stdout};
use common::scratch::Scratch;
use serde_json::Value;

const BILLING: &str = "tests/fixtures/schema_folder/billing";
const BROKEN: &str = "tests/fixtures/schema_folder/broken";

#[test]
fn a_folder_with_dyno_json_checks_as_one_schema_like_the_single_file() {
    let folder = dyno(&["check", BILLING]);
    assert_eq!(folder.status.code(), Some(0), "{}{}", stdout(&folder), stderr(&folder));
    let single = dyno(&["check", "examples/billing.dyno"]);
    // The same proof: the folder is billing.dyno cut in four.
    let proved = |out: &str| out.lines().next().unwrap().split_once(": ").unwrap().1.to_string();
    assert_eq!(proved(&stdout(&folder)), proved(&stdout(&single)));
    assert!(stdout(&folder).starts_with(&format!("{BILLING}: 11 patterns, each one Query")));
    // A file of the folder brings the others: the same answer.
    let member = dyno(&["check", &format!("{BILLING}/patterns.dyno")]);
    assert_eq!(stdout(&member), stdout(&folder));
    assert_eq!(member.status.code(), Some(0));
    // Named bare, from inside the folder: its folder is the working one.
    let bare = dyno_in(std::path::Path::new(BILLING), &["check", "patterns.dyno"]);
    assert_eq!(bare.status.code(), Some(0), "{}", stdout(&bare));
    assert!(
        stdout(&bare).starts_with(".: 11 patterns, each one Query"),
        "{}",
        stdout(&bare)
    );
    // Alone (no dyno.json), the patterns' file has no entities.
    let scratch = Scratch::new("schema-folder");
    let alone = scratch.file(
        "patterns.dyno",
        std::fs::read_to_string(format!("{BILLING}/patterns.dyno")).unwrap(),
    );
    let alone = dyno(&["check", path_str(&alone)]);
    assert_eq!(alone.status.code(), Some(1), "{}", stdout(&alone));
}

#[test]
fn each_diagnostic_is_reported_in_its_own_file_with_related_lines_in_the_others() {
    let output = dyno(&["check", "--format", "json", BROKEN]);
    assert_eq!(output.status.code(), Some(1));
    let json: Value = serde_json::from_str(&stdout(&output)).unwrap();
    let name = |v: &Value| v.as_str().unwrap().rsplit('/').next().unwrap().to_string();
    let mut found = Vec::new();
    for d in json["diagnostics"].as_array().expect("diagnostics") {
        let related: Vec<String> = d["related"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|r| name(&r["file"]))
            .collect();
        found.push(format!(
            "{} {} {}",
            name(&d["file"]),
            d["code"].as_str().unwrap(),
            related.join(",")
        ));
    }
    found.sort();
    assert_eq!(
        found,
        [
            "patterns.dyno E201 tables.dyno,tables.dyno",
            "patterns.dyno E201 tables.dyno,tables.dyno",
            "patterns.dyno E201 tables.dyno,tables.dyno",
            "patterns.dyno E203 ",
            "tenants.dyno E301 invoices.dyno",
        ],
        "{json:#}"
    );
    // Text: the related line of E301 is shown from the other file.
    let text = stdout(&dyno(&["check", BROKEN]));
    assert!(text.contains(&format!("::: {BROKEN}/invoices.dyno:10:3")), "{text}");
    assert!(
        text.contains(&format!("{BROKEN}: 11 patterns: 7 one Query each")),
        "{text}"
    );
}

#[test]
fn a_directory_of_schema_folders_checks_each_as_one_schema() {
    let output = dyno(&["check", "tests/fixtures/schema_folder"]);
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    let summaries: Vec<&str> = text.lines().filter(|l| l.contains(" patterns")).collect();
    assert_eq!(summaries.len(), 2, "{text}");
    assert!(summaries[0].starts_with(&format!("{BILLING}: ")), "{text}");
    assert!(summaries[1].starts_with(&format!("{BROKEN}: ")), "{text}");
}

#[test]
fn explain_export_generate_and_view_read_the_folder() {
    let folder = dyno(&["explain", BILLING]);
    let single = dyno(&["explain", "examples/billing.dyno"]);
    assert_eq!(folder.status.code(), Some(0), "{}", stderr(&folder));
    assert_eq!(stdout(&folder), stdout(&single));
    let member = dyno(&["explain", &format!("{BILLING}/tables.dyno")]);
    assert_eq!(stdout(&member), stdout(&single));

    let template = dyno(&["export", "cloudformation", &format!("{BILLING}/tenants.dyno")]);
    assert_eq!(template.status.code(), Some(0), "{}", stderr(&template));
    let template = stdout(&template);
    assert!(
        template.contains(&format!("DynamoDB tables of {BILLING} (generated")),
        "{template}"
    );
    assert!(template.contains("gsi1"), "{template}");

    let scratch = Scratch::new("schema-folder-generate");
    let out = scratch.path().join("ts");
    let generated = dyno(&["generate", "typescript", BILLING, "--out", path_str(&out)]);
    assert_eq!(generated.status.code(), Some(0), "{}", stderr(&generated));
    let code: String = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap_or_default())
        .collect();
    assert!(code.contains("listUsers"), "the folder's patterns are generated");

    // The DynoTable page of the folder: every pattern, titled by the folder.
    let page = scratch.path().join("page.html");
    let viewed = dyno(&["view", &format!("{BILLING}/tables.dyno"), "--out", path_str(&page)]);
    assert_eq!(viewed.status.code(), Some(0), "{}", stderr(&viewed));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains(&format!("<h1>{BILLING}</h1>")), "titled by the folder");
    assert!(html.contains(">usersPinned</option>") && html.contains(">listUsers</option>"));

    // The model document of the folder: its problems say in which file.
    let doc = dyno(&["doc", BROKEN]);
    assert_eq!(doc.status.code(), Some(0), "{}", stderr(&doc));
    let doc = stdout(&doc);
    assert!(doc.starts_with("# Model: `broken`"), "{doc}");
    assert!(doc.contains("| error | E301 | tenants.dyno:19 |"), "{doc}");
    assert!(doc.contains("| error | E203 | patterns.dyno:15 |"), "{doc}");

    // A folder with errors: explain says why, from the file that has them.
    let broken = dyno(&["explain", BROKEN]);
    assert_eq!(broken.status.code(), Some(1));
    assert!(stdout(&broken).contains("error[E201]"), "{}", stdout(&broken));
    let generated = dyno(&["generate", "typescript", BROKEN, "--out", path_str(&out)]);
    assert_eq!(generated.status.code(), Some(1));
    assert!(stderr(&generated).contains("error[E203]"), "{}", stderr(&generated));
}

#[test]
fn a_command_that_reads_one_file_refuses_a_member_and_says_which_read_folders() {
    let output = dyno(&["design", &format!("{BILLING}/tenants.dyno")]);
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(message.contains("is part of a schema of 4 files"), "{message}");
    assert!(
        message.contains(
            "`dyno check`, `explain`, `diff`, `doc`, `export`, `generate`, `view`, `verify`, `sample` and `size` read the folder"
        ),
        "{message}"
    );
    assert!(stdout(&output).is_empty());
}

#[test]
fn a_dyno_json_that_is_not_a_json_object_is_a_usage_error() {
    let scratch = Scratch::new("schema-folder-marker");
    scratch.file("dyno.json", "[1, 2]");
    let table = scratch.file("tables.dyno", "table App {\n  key pk, sk\n}\n");
    for command in [vec!["check", path_str(&table)], vec!["explain", path_str(&table)]] {
        let output = dyno(&command);
        assert_eq!(output.status.code(), Some(2), "{command:?}: {}", stdout(&output));
        assert!(
            stderr(&output).contains("must hold a JSON object"),
            "{}",
            stderr(&output)
        );
    }
    std::fs::write(scratch.path().join("dyno.json"), "{}").unwrap();
    assert_eq!(dyno(&["check", path_str(&table)]).status.code(), Some(0));
}

/// A file the folder's walk leaves out (`.gitignore`d) is still read with
/// the folder when it is named itself.
#[test]
fn a_named_file_the_walk_ignores_is_checked_with_its_folder() {
    let scratch = Scratch::new("schema-folder-ignored");
    scratch.file("dyno.json", "{}");
    scratch.file(".gitignore", "draft.dyno\n");
    scratch.file("tables.dyno", "table App {\n  key pk, sk\n}\n");
    let draft = scratch.file(
        "draft.dyno",
        "entity User {\n  userId: id\n  pk = \"USER#{userId}\"\n  sk = \"USER\"\n}\n\npattern getUser(userId) -> User\n",
    );
    let output = dyno(&["check", path_str(&draft)]);
    assert_eq!(output.status.code(), Some(0), "{}{}", stdout(&output), stderr(&output));
    assert!(
        stdout(&output).contains(": 1 pattern, one Query; 0 errors"),
        "{}",
        stdout(&output)
    );
    let explained = dyno(&["explain", path_str(&draft)]);
    assert_eq!(explained.status.code(), Some(0), "{}", stderr(&explained));
    assert!(stdout(&explained).contains("pattern getUser"));
}

/// A copy of the billing folder whose `dyno.json` says `marker`.
fn billing_with_marker(label: &str, marker: &str) -> Scratch {
    let scratch = Scratch::new(label);
    scratch.copy_folder(std::path::Path::new(BILLING), ".");
    scratch.file("dyno.json", marker);
    scratch
}

fn list_users_cost(folder: &std::path::Path) -> String {
    let output = dyno(&["explain", path_str(folder), "listUsers"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let out = stdout(&output);
    out.lines()
        .find(|l| l.trim_start().starts_with("cost:"))
        .unwrap()
        .trim()
        .to_string()
}

/// `dyno.json` may set the cost model's defaults for its schema: `listUsers`
/// (`-> User[]`, no hints) then counts 200 items of 1 KB strings instead of
/// 10 items of 64-byte ones in `explain`.
#[test]
fn a_folder_sets_its_cost_defaults_in_dyno_json() {
    let plain = list_users_cost(std::path::Path::new(BILLING));
    assert!(plain.contains("~10 items × 217 B"), "{plain}");
    assert!(plain.contains("0.5 RCU"), "{plain}");
    let scratch = billing_with_marker(
        "schema-folder-defaults",
        r#"{"defaults": {"items": 200, "sizes": {"string": "1KB"}}}"#,
    );
    let set = list_users_cost(scratch.path());
    assert!(set.contains("~200 items × "), "{set}");
    assert!(set.contains("200 items per `E[]` without `~N`"), "{set}");
    assert!(set.contains("29 RCU"), "{set}");
    assert_eq!(dyno(&["check", path_str(scratch.path())]).status.code(), Some(0));
}

/// The warnings that depend on sizes follow the defaults in `dyno check`:
/// ~300 writes a second to one partition key value are 300 WCU with the
/// built-in 64-byte strings, 1,500 WCU (W304) with 4 KB ones.
#[test]
fn dyno_check_warns_by_the_defaults_of_dyno_json() {
    let scratch = Scratch::new("schema-folder-w304");
    scratch.file(
        "scores.dyno",
        "table App {\n  key pk, sk\n}\n\nentity Score ~300/s {\n  userId: id\n  note: string\n\n  pk = \"LEADERBOARD\"\n  sk = \"USER#{userId}\"\n}\n\n/// Every score.\npattern leaderboard() -> Score[] ~100\n",
    );
    scratch.file("dyno.json", "{}");
    let plain = dyno(&["check", path_str(scratch.path())]);
    assert_eq!(plain.status.code(), Some(0));
    assert!(!stdout(&plain).contains("W304"), "{}", stdout(&plain));
    scratch.file("dyno.json", r#"{"defaults": {"sizes": {"string": "4KB"}}}"#);
    let large = dyno(&["check", "--deny", "warnings", path_str(scratch.path())]);
    assert_eq!(large.status.code(), Some(1));
    assert!(
        stdout(&large).contains("warning[W304]: one `pk` value takes ~1,500 WCU/s"),
        "{}",
        stdout(&large)
    );
}

/// An entry that cannot be read would change every cost silently: it is a
/// usage error naming the key, for `check` and for the other commands.
#[test]
fn defaults_in_dyno_json_that_cannot_be_read_are_a_usage_error() {
    let scratch = billing_with_marker(
        "schema-folder-bad-defaults",
        r#"{"defaults": {"items": "many", "sizes": {"bool": 2}}, "include": []}"#,
    );
    for command in ["check", "explain"] {
        let output = dyno(&[command, path_str(scratch.path())]);
        assert_eq!(output.status.code(), Some(2), "{command}: {}", stdout(&output));
        let err = stderr(&output);
        for key in ["defaults.items", "defaults.sizes.bool", "include: unknown"] {
            assert!(err.contains(key), "{command}: no {key} in {err}");
        }
    }
}
