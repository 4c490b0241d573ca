//! `dyno generate` as a user runs it: one module per table for every
//! example and every language, byte-identical on a second run; a schema
//! with errors generates nothing (exit 1); an unreadable schema or an
//! unwritable directory is exit 2.

mod common;

use common::cli::{dyno, path_str, stderr, stdout};
use common::scratch::Scratch;

fn examples() -> Vec<std::path::PathBuf> {
    let mut files = common::fixtures("examples");
    files.extend(common::fixtures("examples/real"));
    files
}

#[test]
fn every_example_generates_one_module_per_table_in_every_language_deterministically() {
    let scratch = Scratch::new("generate-all");
    for language in ["typescript", "python", "rust"] {
        for path in examples() {
            let stem = path.file_stem().unwrap().to_string_lossy().to_string();
            let out = scratch.path().join(language).join(&stem);
            let run = || dyno(&["generate", language, path_str(&path), "--out", path_str(&out)]);
            let first = run();
            assert_eq!(first.status.code(), Some(0), "{language} {stem}: {}", stderr(&first));
            let text = std::fs::read_to_string(&path).unwrap();
            let tables = dyno::check::analyze(&text).schema.model.tables.len();
            let printed = stdout(&first);
            let written: Vec<&str> = printed.lines().map(str::trim).collect();
            assert_eq!(written.len(), tables, "{language} {stem}: {written:?}");
            let contents: Vec<Vec<u8>> = written.iter().map(|p| std::fs::read(p).unwrap()).collect();
            let second = run();
            assert_eq!(second.status.code(), Some(0));
            let again: Vec<Vec<u8>> = written.iter().map(|p| std::fs::read(p).unwrap()).collect();
            assert_eq!(
                contents, again,
                "{language} {stem}: the same schema gives the same bytes"
            );
        }
    }
}

#[test]
fn a_schema_with_errors_generates_nothing() {
    let scratch = Scratch::new("generate-errors");
    let schema = scratch.file(
        "broken.dyno",
        "table T {\n  key pk, sk\n}\nentity E {\n  id: id\n  pk = \"E#{id}\"\n  sk = \"E\"\n}\npattern byName(name) -> E\n",
    );
    let out = scratch.path().join("out");
    let run = dyno(&["generate", "typescript", path_str(&schema), "--out", path_str(&out)]);
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    assert!(stderr(&run).contains("nothing generated"), "{}", stderr(&run));
    assert!(!out.exists(), "no directory, no file");

    let missing = dyno(&[
        "generate",
        "python",
        path_str(&scratch.path().join("none.dyno")),
        "--out",
        path_str(&out),
    ]);
    assert_eq!(missing.status.code(), Some(2));

    let billing = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/billing.dyno");
    let a_file = scratch.file("a-file", "");
    let unwritable = dyno(&["generate", "rust", path_str(&billing), "--out", path_str(&a_file)]);
    assert_eq!(unwritable.status.code(), Some(2), "{}", stderr(&unwritable));
}
