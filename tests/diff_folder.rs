//! `dyno diff` on schema folders (docs/diff.md): a side is a folder with a
//! `dyno.json`, any file of one, or `git:REV:PATH` naming either at a
//! revision. Changes are located in the file that declares them.

mod common;

use std::path::Path;

use common::cli::{dyno, dyno_in, path_str, stderr, stdout};
use common::scratch::Scratch;
use serde_json::Value as Json;

const BILLING: &str = "tests/fixtures/schema_folder/billing";
const CHANGED: (&str, &str) = ("gsi1sk = \"USER#{userId}\"", "gsi1sk = \"MEMBER#{userId}\"");

/// A copy of the billing folder at `into` in the scratch directory, with
/// `tenants.dyno` changed; its path.
fn changed_copy(scratch: &Scratch, into: &str) -> std::path::PathBuf {
    let dir = scratch.copy_folder(Path::new(BILLING), into);
    let text = std::fs::read_to_string(dir.join("tenants.dyno")).unwrap();
    assert!(text.contains(CHANGED.0));
    std::fs::write(dir.join("tenants.dyno"), text.replace(CHANGED.0, CHANGED.1)).unwrap();
    dir
}

fn changes(output: &std::process::Output) -> Vec<Json> {
    let json: Json = serde_json::from_str(&stdout(output)).unwrap_or_else(|e| panic!("{e}: {}", stdout(output)));
    json["changes"].as_array().unwrap().clone()
}

/// What a change says, without where its files are.
fn gist(change: &Json) -> (String, String, Json) {
    let name = |v: &Json| v.as_str().unwrap_or_default().rsplit('/').next().unwrap().to_string();
    (
        change["class"].as_str().unwrap().to_string(),
        format!("{} {}", name(&change["file"]), change["message"].as_str().unwrap()),
        change["range"].clone(),
    )
}

#[test]
fn two_folders_compare_as_schemas_and_each_change_is_in_its_own_file() {
    let scratch = Scratch::new("diff-folder");
    let new = changed_copy(&scratch, "billing");
    let output = dyno(&["diff", "--format", "json", BILLING, path_str(&new)]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let json: Json = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(json["old"], BILLING);
    assert_eq!(json["new"], path_str(&new));
    let found = changes(&output);
    let template = found
        .iter()
        .find(|c| c["class"] == "migration")
        .unwrap_or_else(|| panic!("{found:#?}"));
    assert!(
        template["file"].as_str().unwrap().ends_with("billing/tenants.dyno"),
        "{template:#}"
    );
    assert_eq!(template["was"]["text"], CHANGED.0, "{template:#}");
    assert!(template["was"]["file"].as_str().unwrap().ends_with("tenants.dyno"));
    let text = std::fs::read_to_string(new.join("tenants.dyno")).unwrap();
    let start = template["range"]["start"]["offset"].as_u64().unwrap() as usize;
    assert!(text[start..].starts_with(CHANGED.1), "{template:#}");

    // A file of either folder brings its folder: the same changes.
    let member = dyno(&[
        "diff",
        "--format",
        "json",
        &format!("{BILLING}/patterns.dyno"),
        path_str(&new.join("tables.dyno")),
    ]);
    assert_eq!(member.status.code(), Some(1));
    assert_eq!(changes(&member), found);

    // The text output points at the file and quotes the old line there.
    let text_out = dyno(&["diff", BILLING, path_str(&new)]);
    let shown = stdout(&text_out);
    assert!(shown.contains("tenants.dyno:21:"), "{shown}");
    assert!(
        shown.contains(&format!("= note: was `{}` ({BILLING}/tenants.dyno:21:", CHANGED.0)),
        "{shown}"
    );
}

/// The folder is billing.dyno cut in four: as schemas they are the same.
#[test]
fn a_folder_and_the_one_file_it_was_cut_from_have_no_changes() {
    for (old, new) in [("examples/billing.dyno", BILLING), (BILLING, "examples/billing.dyno")] {
        let output = dyno(&["diff", old, new]);
        assert_eq!(output.status.code(), Some(0), "{}{}", stdout(&output), stderr(&output));
        assert!(
            stdout(&output).ends_with(&format!("{old} → {new}: no changes\n")),
            "{}",
            stdout(&output)
        );
    }
}

/// `git:REV:DIR` reads the folder from the revision's tree (the disk has
/// the changed one); `git:REV:DIR/FILE` brings the folder too; a folder
/// without a marker at that revision is no schema.
#[test]
fn a_side_can_be_a_folder_at_a_git_revision() {
    let scratch = Scratch::new("diff-folder-git");
    let folder = scratch.copy_folder(Path::new(BILLING), "schema/billing");
    // Not read with the folder, at the revision as on disk: another schema
    // nested in it, and a hidden folder (either would be a syntax error).
    let elsewhere = [
        ("schema/billing/other/dyno.json", "{}"),
        ("schema/billing/other/broken.dyno", "table {"),
        ("schema/billing/.drafts/broken.dyno", "table {"),
        // A file in a sub-folder is a member (a comment: the same schema).
        ("schema/billing/sub/notes.dyno", "// notes\n"),
    ];
    for (name, text) in elsewhere {
        scratch.file(name, text);
    }
    scratch.git(&["init", "-q", "-b", "main"]);
    scratch.git(&["add", "."]);
    scratch.git(&["commit", "-q", "-m", "billing"]);
    std::fs::remove_dir_all(&folder).unwrap();
    changed_copy(&scratch, "schema/billing");
    for (name, text) in elsewhere {
        scratch.file(name, text);
    }
    let run = |args: &[&str]| dyno_in(scratch.path(), args);
    let expected: Vec<_> = changes(&dyno(&["diff", "--format", "json", BILLING, path_str(&folder)]))
        .iter()
        .map(gist)
        .collect();
    for old in ["git:main:schema/billing", "git:main:schema/billing/patterns.dyno"] {
        let output = run(&["diff", "--format", "json", old, "schema/billing"]);
        assert_eq!(output.status.code(), Some(1), "{old}: {}", stderr(&output));
        let json: Json = serde_json::from_str(&stdout(&output)).unwrap();
        assert_eq!(json["old"], "main:schema/billing", "{old}");
        let found: Vec<_> = changes(&output).iter().map(gist).collect();
        assert_eq!(found, expected, "{old}");
        let was = changes(&output)
            .iter()
            .find_map(|c| c["was"]["file"].as_str().map(str::to_string));
        assert_eq!(was.as_deref(), Some("main:schema/billing/tenants.dyno"), "{old}");
    }
    // From a sub-folder, `./` names paths from there (as `git show` does).
    let inside = dyno_in(
        &scratch.path().join("schema"),
        &["diff", "--format", "json", "git:main:./billing", "billing"],
    );
    assert_eq!(inside.status.code(), Some(1), "{}", stderr(&inside));
    assert_eq!(changes(&inside).iter().map(gist).collect::<Vec<_>>(), expected);
    // A file of a sub-folder brings the folder above it, on both sides.
    let below = dyno_in(
        &scratch.path().join("schema/billing/sub"),
        &["diff", "--format", "json", "git:main:./notes.dyno", "notes.dyno"],
    );
    assert_eq!(below.status.code(), Some(1), "{}", stderr(&below));
    assert_eq!(changes(&below).iter().map(gist).collect::<Vec<_>>(), expected);
    let same = run(&["diff", "git:main:schema/billing", "git:HEAD:schema/billing/tables.dyno"]);
    assert_eq!(same.status.code(), Some(0), "{}", stderr(&same));
    let no_marker = run(&["diff", "git:main:schema", "schema/billing"]);
    assert_eq!(no_marker.status.code(), Some(2));
    assert!(
        stderr(&no_marker).contains("without a `dyno.json`"),
        "{}",
        stderr(&no_marker)
    );
}
