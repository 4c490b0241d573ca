//! Emacs (editors/emacs): `dyno-mode.el` is the configuration
//! docs/editors.md shows (the doc's elisp block must be that file), and
//! `emacs --batch` runs `editors/emacs/test/e2e.el` against the freshly
//! built `dyno lsp` through eglot: the E203 of a planted `USERS#` typo in a
//! copy of `examples/billing.dyno` reaches Flymake, xref goes to the key
//! templates, completion-at-point offers `USER#` and the keywords, and
//! fixing the typo in the buffer clears the error.
//!
//! The Emacs run is ignored unless asked for (`--include-ignored`), and then
//! a missing `emacs` (or eglot) fails it. `DYNO_TEST_EMACS=/path/to/emacs`
//! runs another Emacs. Debian: `apt-get install emacs-nox elpa-eglot`
//! (eglot is built into Emacs 29 and later).

mod common;

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use common::editor_e2e;
use common::scratch::Scratch;
use common::tools;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The elisp block of docs/editors.md's Emacs section.
fn documented_elisp() -> String {
    let docs = std::fs::read_to_string(root().join("docs/editors.md")).unwrap();
    let section = docs
        .split("\n## Emacs")
        .nth(1)
        .expect("docs/editors.md has no `## Emacs` section");
    let section = section.split("\n## ").next().unwrap();
    let blocks: Vec<_> = common::markdown::blocks(section)
        .into_iter()
        .filter(|b| b.info == "elisp")
        .map(|b| b.code)
        .collect();
    blocks
        .iter()
        .find(|code| code.contains("define-derived-mode dyno-mode"))
        .unwrap_or_else(|| panic!("the Emacs section of docs/editors.md shows no dyno-mode:\n{blocks:#?}"))
        .clone()
}

#[test]
fn the_documented_mode_is_editors_emacs_dyno_mode_el() {
    let file = std::fs::read_to_string(root().join("editors/emacs/dyno-mode.el")).unwrap();
    let doc = documented_elisp();
    assert_eq!(
        doc.trim_end(),
        file.trim_end(),
        "docs/editors.md's Emacs block and editors/emacs/dyno-mode.el differ: keep them the same"
    );
    let docs = std::fs::read_to_string(root().join("docs/editors.md")).unwrap();
    assert!(
        docs.contains("(load \"/path/to/dyno/editors/emacs/dyno-mode.el\")"),
        "docs/editors.md does not show loading editors/emacs/dyno-mode.el"
    );
}

#[test]
#[ignore = "needs Emacs 28+ with eglot (`emacs` on PATH or DYNO_TEST_EMACS; README: Tests)"]
fn emacs_eglot_with_the_real_server() {
    let emacs = tools::program(
        "DYNO_TEST_EMACS",
        "emacs",
        "apt-get install -y emacs-nox elpa-eglot (Emacs 28+ with eglot)",
    );
    let dyno = PathBuf::from(env!("CARGO_BIN_EXE_dyno"));
    let scratch = Scratch::new("emacs-e2e");
    let temp = scratch.path();
    let (schema, typo_line) = editor_e2e::billing_with_a_typo(&temp.join("project"));
    let home = temp.join("home");
    std::fs::create_dir_all(&home).unwrap();

    let mut command = Command::new(&emacs);
    command
        .arg("--batch")
        .arg("-l")
        .arg(root().join("editors/emacs/test/e2e.el"))
        .current_dir(schema.parent().unwrap())
        .env("PATH", editor_e2e::path_with_dyno_first(&dyno))
        .env("HOME", &home) // no user configuration, nothing written to it
        .env("DYNO_E2E_SCHEMA", &schema)
        .env("DYNO_E2E_TYPO_LINE", typo_line.to_string())
        .env("DYNO_E2E_BIN", &dyno)
        .env("DYNO_E2E_TIMEOUT_MS", "20000");
    let out = tools::run("emacs --batch e2e.el", &mut command, Duration::from_secs(90));
    println!("{out}");
    assert!(
        out.contains("all checks passed"),
        "emacs exited 0 without finishing the checks:\n{out}"
    );
}
