//! `dyno diff OLD NEW` as a user runs it. Every directory under
//! `tests/diff/` is a pair of schemas, `old.dyno` and `new.dyno`, named
//! after the class of change it shows (`migration-prefix-renamed`): the
//! run must report a change of that class, exit 0 for `safe`, `rename` and
//! `none` and 1 otherwise, and print exactly `expected.txt` (text, with the
//! exit code) and `expected.json`. `UPDATE_EXPECT=1` rewrites both.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::cli::{dyno, dyno_in, path_str, stderr, stdout};
use common::scratch::Scratch;
use serde_json::Value as Json;

fn pairs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/diff");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs
}

/// `tests/diff/NAME/old.dyno`, relative to the crate root (where `dyno` runs).
fn side(dir: &Path, name: &str) -> String {
    let dir = dir.file_name().unwrap().to_str().unwrap();
    format!("tests/diff/{dir}/{name}.dyno")
}

/// The class a fixture's name promises: `new-table-lsi-added` → `new-table`.
fn promised(dir: &Path) -> &'static str {
    let name = dir.file_name().unwrap().to_str().unwrap();
    ["safe", "rename", "migration", "new-table", "breaks-readers", "none"]
        .into_iter()
        .find(|class| name.starts_with(&format!("{class}-")) || name == *class)
        .unwrap_or_else(|| panic!("{name}: the name does not start with a class"))
}

#[test]
fn every_fixture_pair_reports_its_class_and_matches_its_snapshots() {
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut failures = Vec::new();
    let dirs = pairs();
    assert!(dirs.len() >= 20, "{} pairs", dirs.len());
    for dir in dirs {
        let (old, new) = (side(&dir, "old"), side(&dir, "new"));
        let class = promised(&dir);
        let text_run = dyno(&["diff", &old, &new]);
        let json_run = dyno(&["diff", &old, &new, "--format", "json"]);
        let expected_exit = if matches!(class, "safe" | "rename" | "none") {
            0
        } else {
            1
        };
        for run in [&text_run, &json_run] {
            assert_eq!(run.status.code(), Some(expected_exit), "{old}: {}", stderr(run));
        }
        let json: Json = serde_json::from_str(&stdout(&json_run)).unwrap();
        let changes = json["changes"].as_array().unwrap();
        if class == "none" {
            assert!(changes.is_empty(), "{old}: {changes:#?}");
        } else {
            assert!(
                changes.iter().any(|c| c["class"] == class),
                "{old}: no `{class}` change in {changes:#?}"
            );
        }
        let text = format!("{}exit: {}\n", stdout(&text_run), expected_exit);
        for (name, got) in [("expected.txt", text), ("expected.json", stdout(&json_run))] {
            let path = dir.join(name);
            let expected = std::fs::read_to_string(&path).unwrap_or_default();
            if got != expected {
                if update {
                    std::fs::write(&path, &got).unwrap();
                } else {
                    failures.push(format!(
                        "--- {} (expected)\n{expected}\n--- actual\n{got}",
                        path.display()
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} snapshot(s) differ (rerun with UPDATE_EXPECT=1 to accept):\n\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn allowing_a_class_turns_its_changes_into_warnings_and_exit_0() {
    let dir = Path::new("tests/diff/migration-prefix-renamed");
    let old = path_str(&dir.join("old.dyno")).to_string();
    let new = path_str(&dir.join("new.dyno")).to_string();
    // The prefix change also changes `getUser`'s request: both classes.
    let one = dyno(&["diff", &old, &new, "--allow", "migration"]);
    assert_eq!(one.status.code(), Some(1), "{}", stdout(&one));
    assert!(stdout(&one).contains("warning[migration]"), "{}", stdout(&one));
    assert!(stdout(&one).contains("error[breaks-readers]"), "{}", stdout(&one));
    let both = dyno(&["diff", &old, &new, "--allow", "migration", "--allow", "breaks-readers"]);
    assert_eq!(both.status.code(), Some(0), "{}", stdout(&both));
    assert!(stdout(&both).contains("0 breaking, 2 allowed"), "{}", stdout(&both));
    let json = dyno(&["diff", &old, &new, "--allow", "migration", "--format", "json"]);
    let json: Json = serde_json::from_str(&stdout(&json)).unwrap();
    assert_eq!(json["summary"]["breaking"], 1);
    assert!(json["changes"].as_array().unwrap().iter().any(|c| c["allowed"] == true));
    let unknown = dyno(&["diff", &old, &new, "--allow", "safe"]);
    assert_eq!(unknown.status.code(), Some(2), "`safe` is not a breaking class");
}

#[test]
fn github_format_is_one_annotation_per_change_at_the_new_line() {
    let dir = "tests/diff/migration-prefix-renamed";
    let run = dyno(&[
        "diff",
        &format!("{dir}/old.dyno"),
        &format!("{dir}/new.dyno"),
        "--format",
        "github",
    ]);
    assert_eq!(run.status.code(), Some(1));
    let out = stdout(&run);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[0].starts_with(&format!(
            "::error file={dir}/new.dyno,line=12,col=3,endLine=12,endColumn=20,title=dyno diff%3A migration::"
        )),
        "{out}"
    );
    assert!(lines[0].contains("%0Awas: pk = \"USER#{userId}\""), "{out}");
}

#[test]
fn a_side_can_be_a_git_revision() {
    let scratch = Scratch::new("diff-git");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let old = std::fs::read_to_string(root.join("tests/diff/migration-prefix-renamed/old.dyno")).unwrap();
    let new = std::fs::read_to_string(root.join("tests/diff/migration-prefix-renamed/new.dyno")).unwrap();
    scratch.git(&["init", "-q", "-b", "main"]);
    scratch.file("schema.dyno", &old);
    scratch.git(&["add", "schema.dyno"]);
    scratch.git(&["commit", "-q", "-m", "old"]);
    scratch.file("schema.dyno", &new);
    let run = |args: &[&str]| dyno_in(scratch.path(), args);
    let changed = run(&["diff", "git:main:schema.dyno", "schema.dyno"]);
    assert_eq!(changed.status.code(), Some(1), "{}", stderr(&changed));
    assert!(
        stdout(&changed).contains("= note: was `pk = \"USER#{userId}\"` (main:schema.dyno:12:3)"),
        "{}",
        stdout(&changed)
    );
    let same = run(&["diff", "git:HEAD:schema.dyno", "git:main:schema.dyno"]);
    assert_eq!(same.status.code(), Some(0), "{}", stderr(&same));
    assert!(
        stdout(&same).ends_with("HEAD:schema.dyno → main:schema.dyno: no changes\n"),
        "{}",
        stdout(&same)
    );
    let missing = run(&["diff", "git:main:nothing.dyno", "schema.dyno"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        stderr(&missing).contains("`git:main:nothing.dyno` cannot be read"),
        "{}",
        stderr(&missing)
    );
    let malformed = run(&["diff", "git:main", "schema.dyno"]);
    assert_eq!(malformed.status.code(), Some(2));
    assert!(
        stderr(&malformed).contains("is not `git:REV:PATH`"),
        "{}",
        stderr(&malformed)
    );
}

#[test]
fn unreadable_or_unparsable_sides_are_exit_2() {
    let scratch = Scratch::new("diff-usage");
    let good = "tests/diff/none/old.dyno";
    let missing = scratch.path().join("none.dyno");
    let run = dyno(&["diff", path_str(&missing), good]);
    assert_eq!(run.status.code(), Some(2));
    assert!(stderr(&run).contains("does not exist"), "{}", stderr(&run));
    let broken = scratch.file("broken.dyno", "table T {\n  key pk, sk\n");
    let run = dyno(&["diff", good, path_str(&broken)]);
    assert_eq!(run.status.code(), Some(2));
    assert!(
        stderr(&run).contains("has syntax errors: nothing compared"),
        "{}",
        stderr(&run)
    );
}

#[cfg(not(feature = "verify"))]
#[test]
fn counting_needs_the_verify_feature() {
    let dir = "tests/diff/migration-prefix-renamed";
    let run = dyno(&[
        "diff",
        &format!("{dir}/old.dyno"),
        &format!("{dir}/new.dyno"),
        "--endpoint",
        "http://127.0.0.1:1",
    ]);
    assert_eq!(run.status.code(), Some(2));
    assert!(stderr(&run).contains("--features verify"), "{}", stderr(&run));
}

/// docs/diff.md shows, per class, a schema before and after and what
/// `dyno diff before.dyno after.dyno` prints: each such ```text block must
/// be exactly what the two ```dyno blocks above it give.
#[test]
fn the_examples_in_docs_diff_md_print_what_the_page_shows() {
    const COMMAND: &str = "$ dyno diff before.dyno after.dyno\n";
    let markdown = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/diff.md")).unwrap();
    let blocks = common::markdown::blocks(&markdown);
    let mut shown = 0;
    for (at, block) in blocks.iter().enumerate() {
        let Some(expected) = block.code.strip_prefix(COMMAND).filter(|_| block.info == "text") else {
            continue;
        };
        let [before, after] = [&blocks[at - 2], &blocks[at - 1]];
        assert!(
            before.info == "dyno" && after.info == "dyno",
            "docs/diff.md:{}: two ```dyno blocks must come before the output",
            block.line
        );
        let scratch = Scratch::new("diff-docs");
        scratch.file("before.dyno", &before.code);
        scratch.file("after.dyno", &after.code);
        let run = Command::new(env!("CARGO_BIN_EXE_dyno"))
            .args(["diff", "before.dyno", "after.dyno"])
            .current_dir(scratch.path())
            .output()
            .unwrap();
        assert_eq!(stdout(&run), expected, "docs/diff.md:{}", block.line);
        shown += 1;
    }
    assert_eq!(shown, 5, "one example per class");
}

/// Every bundled example against itself is no change (exit 0), and
/// against every other example a report, never a crash (exit 0 or 1).
#[test]
fn examples_against_themselves_are_unchanged_and_against_each_other_do_not_crash() {
    let mut files = common::fixtures("examples");
    files.extend(common::fixtures("examples/real"));
    assert!(files.len() >= 10);
    for a in &files {
        let same = dyno(&["diff", path_str(a), path_str(a)]);
        assert_eq!(same.status.code(), Some(0), "{}", a.display());
        assert!(
            stdout(&same).ends_with(": no changes\n"),
            "{}: {}",
            a.display(),
            stdout(&same)
        );
        for b in &files {
            let run = dyno(&["diff", path_str(a), path_str(b), "--format", "json"]);
            assert!(
                matches!(run.status.code(), Some(0 | 1)),
                "{} → {}: {}",
                a.display(),
                b.display(),
                stderr(&run)
            );
            let json: Json = serde_json::from_str(&stdout(&run)).unwrap();
            assert_eq!(
                run.status.code() == Some(1),
                json["summary"]["breaking"].as_u64().unwrap() > 0,
                "{} → {}",
                a.display(),
                b.display()
            );
        }
    }
}
