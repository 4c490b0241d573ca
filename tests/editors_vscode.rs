//! The editor integrations, exercised through their own tool chains:
//!
//! - VS Code (`editors/vscode`): `npm test` — the TypeScript compile and
//!   bundle, the annotated TextMate grammar tests (`grammar/tests/`), and
//!   tokenisation of every example, doc block and syntax fixture with
//!   vscode-textmate — then `npm run package`, which builds the `.vsix` and
//!   checks what is inside it.
//! - Neovim (`editors/neovim`): `nvim --headless` with only that directory
//!   added to the runtime path: filetype detection, the ftplugin, the syntax
//!   file on every example and fixture, and starting the language server
//!   with a stand-in `dyno`.
//!
//! Both are ignored unless asked for (`--include-ignored`), and then a
//! missing tool (`npm`, `node_modules`, `nvim`) fails them.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use common::scratch::Scratch;
use common::tools::{on_path, program, require, run};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
#[ignore = "needs npm and `npm ci` in editors/vscode (README: Tests)"]
fn vscode_extension_tests_and_package() {
    let dir = root().join("editors/vscode");
    require(on_path("npm"), "npm is not on PATH", "install Node.js 20 and npm");
    require(
        dir.join("node_modules").is_dir(),
        "editors/vscode/node_modules is missing",
        "run `npm ci` in editors/vscode (.ci/run does this)",
    );
    let npm = |args: &[&str]| {
        let mut command = Command::new("npm");
        command.args(args).current_dir(&dir).env("NO_COLOR", "1");
        command
    };
    let tests = run(
        "npm test (editors/vscode)",
        &mut npm(&["test"]),
        Duration::from_secs(600),
    );
    assert!(tests.contains("# fail 0"), "npm test reported failures:\n{tests}");

    let package = run(
        "npm run package (editors/vscode)",
        &mut npm(&["run", "package"]),
        Duration::from_secs(600),
    );
    assert!(package.contains("vsix ok"), "the .vsix check did not pass:\n{package}");
    let vsix = dir.join("dyno.vsix");
    let size = std::fs::metadata(&vsix)
        .unwrap_or_else(|e| panic!("{}: {e}", vsix.display()))
        .len();
    assert!(size > 10_000, "{} is only {size} bytes", vsix.display());
}

#[test]
#[ignore = "needs Neovim 0.7+ (`nvim` on PATH or DYNO_TEST_NVIM; README: Tests)"]
fn neovim_filetype_syntax_and_server_start() {
    // DYNO_TEST_NVIM runs another Neovim, as in tests/editors_neovim.rs.
    let nvim = program("DYNO_TEST_NVIM", "nvim", "apt-get install -y neovim");
    let root = root();
    let runtime = root.join("editors/neovim");
    let check = runtime.join("test/check.lua");
    let scratch = Scratch::new("nvim-check");
    let home = scratch.path();
    let out = run(
        "nvim --headless (editors/neovim/test/check.lua)",
        Command::new(&nvim)
            .args(["--headless", "--clean", "-i", "NONE", "--cmd"])
            .arg(format!("set rtp^={}", vim_path(&runtime)))
            .arg("-c")
            .arg(format!("luafile {}", vim_path(&check)))
            .args(["-c", "cquit 2"])
            .current_dir(&root)
            // Keep the user's configuration, data and state out of the check.
            .env("XDG_CONFIG_HOME", home.join("config"))
            .env("XDG_DATA_HOME", home.join("data"))
            .env("XDG_STATE_HOME", home.join("state"))
            .env("XDG_CACHE_HOME", home.join("cache")),
        Duration::from_secs(300),
    );
    assert!(
        out.contains(" 0 failed"),
        "unexpected output from the Neovim check:\n{out}"
    );
}

/// A path for an Ex command line: spaces and backslashes escaped.
fn vim_path(path: &Path) -> String {
    path.display().to_string().replace('\\', "\\\\").replace(' ', "\\ ")
}
