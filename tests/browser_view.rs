//! `dyno view`'s page in a real browser: `tests/browser/view.test.mjs`,
//! run by node against the dyno binary built here and Debian's chromium
//! (headless, through puppeteer-core, which downloads no browser). It
//! checks the grids, the decoded keys, that each of several patterns
//! highlights exactly the items its Query returns (worked out in the
//! script, from `dyno sample`'s items), the keyboard, both themes, and a
//! non-blank screenshot.
//!
//! Ignored unless asked for (`--include-ignored`); then it needs the
//! browser in `DYNO_CHROMIUM` (e.g. `/usr/bin/chromium`) and `npm ci` in
//! tests/browser, and fails without them. `.ci/run` sets both up.

mod common;

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use common::scratch::Scratch;
use common::tools::{browser, run};

#[test]
#[ignore = "needs chromium in DYNO_CHROMIUM and `npm ci` in tests/browser (README: Tests)"]
fn the_page_in_chromium_highlights_what_each_query_returns() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/browser");
    let chromium = browser("puppeteer-core");
    let screenshots = Scratch::new("view-browser");
    let out = run(
        "node --test view.test.mjs (tests/browser)",
        Command::new("node")
            .args(["--test", "view.test.mjs"])
            .current_dir(&dir)
            .env("DYNO_BIN", env!("CARGO_BIN_EXE_dyno"))
            .env("DYNO_CHROMIUM", &chromium)
            .env("DYNO_VIEW_ARTIFACTS", screenshots.path())
            .env("NO_COLOR", "1"),
        Duration::from_secs(300),
    );
    assert!(out.contains("# fail 0") && out.contains("# pass 6"), "{out}");
    for theme in ["light", "dark"] {
        let shot = screenshots.path().join(format!("view-{theme}.png"));
        assert!(shot.is_file(), "no {theme} screenshot: {out}");
    }
}
