#![allow(dead_code)] // each test binary uses a different part of these helpers

//! Data-driven tests: every `NAME.dyno` fixture sits beside `NAME.expected`.
//! Run with `UPDATE_EXPECT=1` to rewrite the expected files after a
//! deliberate change, then review the diff.

pub mod cli;
pub mod cursor;
pub mod editor_e2e;
pub mod framing;
pub mod lsp_client;
pub mod markdown;
pub mod rng;
#[cfg(feature = "verify")]
pub mod scenario;
pub mod scratch;
pub mod toml_lines;
pub mod tools;
pub mod typescript;

use std::path::{Path, PathBuf};

use dyno::diagnostic::render::SourceText;

/// The DynamoDB endpoint of the tests that need one (`DYNO_TEST_ENDPOINT`):
/// they run only when asked for (`--include-ignored`), and then need it.
pub fn endpoint() -> String {
    let endpoint = std::env::var("DYNO_TEST_ENDPOINT").unwrap_or_default();
    assert!(
        !endpoint.is_empty(),
        "DYNO_TEST_ENDPOINT is not set: start moto's server (or DynamoDB Local) and set DYNO_TEST_ENDPOINT=http://127.0.0.1:PORT (README: Tests)"
    );
    endpoint
}

pub fn fixtures(dir: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "dyno"))
        .collect();
    files.sort();
    files
}

/// A source with a path relative to the crate root, so rendered output is
/// the same on every machine.
pub fn load(path: &Path) -> SourceText {
    let text = std::fs::read_to_string(path).unwrap();
    let relative = path.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap_or(path);
    SourceText::new(relative.to_path_buf(), text)
}

/// Compares `actual(fixture)` with each fixture's `.expected` file and
/// reports every mismatch at once.
pub fn check_fixtures(dir: &str, actual: impl Fn(&SourceText) -> String) {
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut failures = Vec::new();
    let files = fixtures(dir);
    assert!(!files.is_empty(), "no fixtures in {dir}");
    for path in files {
        let source = load(&path);
        let got = actual(&source);
        let expected_path = path.with_extension("expected");
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if got != expected {
            if update {
                std::fs::write(&expected_path, &got).unwrap();
            } else {
                failures.push(format!(
                    "--- {} (expected)\n{expected}\n--- actual\n{got}",
                    expected_path.display()
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} fixture(s) differ (rerun with UPDATE_EXPECT=1 to accept):\n\n{}",
        failures.len(),
        failures.join("\n")
    );
}
