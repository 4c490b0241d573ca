//! `dyno doc`'s Mermaid diagrams in mermaid itself: `tests/browser/mermaid.test.mjs`
//! loads the mermaid package into Debian's chromium (headless, through
//! puppeteer-core) and parses and renders every ```mermaid block of every
//! example's model document, checking each node label is drawn.
//!
//! Ignored unless asked for (`--include-ignored`); then it needs the
//! browser in `DYNO_CHROMIUM` and `npm ci` in tests/browser, and fails
//! without them. `.ci/run` sets both up.

mod common;

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use common::tools::{browser, run};

#[test]
#[ignore = "needs chromium in DYNO_CHROMIUM and `npm ci` in tests/browser (README: Tests)"]
fn every_mermaid_block_of_every_example_document_renders() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/browser");
    let chromium = browser("mermaid");
    let out = run(
        "node --test mermaid.test.mjs (tests/browser)",
        Command::new("node")
            .args(["--test", "mermaid.test.mjs"])
            .current_dir(&dir)
            .env("DYNO_BIN", env!("CARGO_BIN_EXE_dyno"))
            .env("DYNO_CHROMIUM", &chromium)
            .env("NO_COLOR", "1"),
        Duration::from_secs(300),
    );
    assert!(out.contains("# fail 0") && out.contains("# pass 2"), "{out}");
}
