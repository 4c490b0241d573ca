//! Regressions found by fuzzing and by the property tests (issue 6; see
//! docs/performance.md). Every input a fuzz target ever failed on is kept
//! under `tests/fuzz_regressions/<target>/` and replayed here through the
//! same target body (`dyno::fuzz`); the repository's schemas are replayed
//! too, as a smoke corpus.

use std::path::{Path, PathBuf};

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files_under(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn replay(target: &str, run: fn(&[u8])) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut inputs = Vec::new();
    files_under(&root.join("tests/fuzz_regressions").join(target), &mut inputs);
    let mut schemas = Vec::new();
    files_under(&root.join("tests/fixtures"), &mut schemas);
    files_under(&root.join("editors"), &mut schemas);
    inputs.extend(
        schemas
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "dyno")),
    );
    inputs.sort();
    for path in inputs {
        let bytes = std::fs::read(&path).unwrap();
        if let Err(panic) = std::panic::catch_unwind(|| run(&bytes)) {
            std::panic::resume_unwind(Box::new(format!("{target} fails on {}: {panic:?}", path.display())));
        }
    }
}

#[test]
fn parse_inputs() {
    replay("parse", dyno::fuzz::parse);
}

#[test]
fn check_inputs() {
    // Untimed: the fuzzer enforces the time limit, a busy test machine cannot.
    replay("check", dyno::fuzz::check_analysis);
}

#[test]
fn format_inputs() {
    replay("format", dyno::fuzz::format);
}

#[test]
fn edits_inputs() {
    replay("edits", dyno::fuzz::edits);
}

#[test]
fn import_inputs() {
    replay("import_workbench", dyno::fuzz::import_workbench);
    replay("import_cloudformation", dyno::fuzz::import_cloudformation);
}

/// Found by `tests/edit_props.rs`: a did-you-mean among equally close entity
/// names came from a hash map's iteration order, so two analyses of one text
/// could suggest different names (and an editor's diagnostics flickered).
/// The first declared name wins now.
#[test]
fn unknown_entity_suggestion_is_deterministic() {
    let text = "table T { key pk, sk }\n\
                entity Item1 { id: id  pk = \"A#{id}\"  sk = \"A\" }\n\
                entity Item2 { id: id  pk = \"B#{id}\"  sk = \"B\" }\n\
                entity Item4 { id: id  pk = \"C#{id}\"  sk = \"C\" }\n\
                pattern p(id) -> Item3\n";
    for _ in 0..32 {
        let analysis = dyno::check::analyze(text);
        let message = analysis
            .diagnostics()
            .iter()
            .find(|d| d.message.starts_with("unknown entity"))
            .map(|d| d.message.clone());
        assert_eq!(
            message.as_deref(),
            Some("unknown entity `Item3`; did you mean `Item1`?")
        );
    }
}
