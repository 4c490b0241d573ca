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

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::scratch::Scratch;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Fails the test, naming what is missing and how to get it.
fn require(present: bool, what: &str, fix: &str) {
    assert!(present, "{what}: {fix} (README: Tests)");
}

fn on_path(program: &str) -> bool {
    let Some(paths) = std::env::var_os("PATH") else {
        return false;
    };
    std::env::split_paths(&paths).any(|dir| dir.join(program).is_file())
}

/// Runs a command to completion within `limit`, killing it past that, and
/// panics with its output unless it succeeds. Returns its standard output.
fn run(what: &str, command: &mut Command, limit: Duration) -> String {
    // A process group of its own, so that a timeout also ends what it started
    // (npm starts node, which would otherwise keep the output pipes open).
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(command, 0);
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {what}: {e}"));
    let mut stdout_pipe = child.stdout.take().unwrap();
    let mut stderr_pipe = child.stderr.take().unwrap();
    let stdout_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout_pipe.read_to_string(&mut s);
        s
    });
    let stderr_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr_pipe.read_to_string(&mut s);
        s
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if started.elapsed() > limit {
            #[cfg(unix)]
            let _ = Command::new("kill")
                .args(["-s", "KILL", "--", &format!("-{}", child.id())])
                .status();
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let stdout = stdout_reader.join().unwrap();
    let stderr = stderr_reader.join().unwrap();
    match status {
        Some(status) if status.success() => stdout,
        Some(status) => panic!("{what} failed ({status})\n--- stdout\n{stdout}\n--- stderr\n{stderr}"),
        None => panic!("{what} did not finish within {limit:?}\n--- stdout\n{stdout}\n--- stderr\n{stderr}"),
    }
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
#[ignore = "needs Neovim 0.9+ on PATH (README: Tests)"]
fn neovim_filetype_syntax_and_server_start() {
    require(on_path("nvim"), "nvim is not on PATH", "apt-get install -y neovim");
    let root = root();
    let runtime = root.join("editors/neovim");
    let check = runtime.join("test/check.lua");
    let scratch = Scratch::new("nvim-check");
    let home = scratch.path();
    let out = run(
        "nvim --headless (editors/neovim/test/check.lua)",
        Command::new("nvim")
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
