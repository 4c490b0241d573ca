//! The real language server in a real Neovim: `nvim --headless` configured
//! with exactly the `init.lua` lines docs/editors.md gives (the repository's
//! `editors/neovim` on the runtime path, `vim.lsp.enable('dyno')` on 0.11+),
//! the freshly built `dyno` first on PATH, and a copy of
//! `examples/billing.dyno` with a `USERS#` typo planted in a pinned query.
//! `editors/neovim/test/e2e.lua` then checks, with bounded polling: the E203
//! diagnostic and its line, go to definition (the cursor lands on a key
//! template), hover naming the resolved index, completion offering `USER#`
//! inside `begins_with(sk, "`, the error clearing once the typo is fixed,
//! and the "Design keys" code action on a second schema's keyless entity,
//! applied as Neovim applies a workspace edit, leaving no errors.
//!
//! Ignored unless asked for (`--include-ignored`), and then a missing `nvim`
//! fails it. `DYNO_TEST_NVIM=/path/to/nvim` runs another Neovim.

mod common;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::editor_e2e;
use common::scratch::Scratch;
use common::tools;

/// The bound of the whole Neovim run; each wait inside it is bounded too.
const LIMIT: Duration = Duration::from_secs(60);
/// The bound of each wait in e2e.lua.
const WAIT_MS: u32 = 20_000;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `init.lua` block of docs/editors.md's Neovim section, with
/// `/path/to/dyno` replaced by this repository.
fn documented_init_lua() -> String {
    let docs = std::fs::read_to_string(root().join("docs/editors.md")).unwrap();
    let section = docs
        .split("\n## Neovim\n")
        .nth(1)
        .expect("docs/editors.md has no `## Neovim` section");
    let block = section
        .split("```lua\n")
        .nth(1)
        .and_then(|rest| rest.split("\n```").next())
        .expect("the Neovim section of docs/editors.md has no ```lua block");
    let lines = block.lines().filter(|l| !l.trim().is_empty()).count();
    assert_eq!(
        lines, 3,
        "docs/editors.md promises three lines of Neovim configuration, its first lua block has {lines}:\n{block}"
    );
    assert!(
        block.contains("/path/to/dyno/editors/neovim"),
        "the Neovim configuration in docs/editors.md does not add /path/to/dyno/editors/neovim:\n{block}"
    );
    let repo = root().display().to_string();
    assert!(
        !repo.contains(['\'', '"', '\\']),
        "cannot put the repository path {repo} in a Lua string"
    );
    block.replace("/path/to/dyno", &repo) + "\n"
}

#[test]
#[ignore = "needs Neovim 0.7+ (`nvim` on PATH or DYNO_TEST_NVIM; README: Tests)"]
fn neovim_with_the_real_server() {
    let nvim = tools::program("DYNO_TEST_NVIM", "nvim", "apt-get install -y neovim");
    let root = root();
    let dyno = PathBuf::from(env!("CARGO_BIN_EXE_dyno"));
    let script = root.join("editors/neovim/test/e2e.lua");

    let scratch = Scratch::new("nvim-e2e");
    let temp = scratch.path();
    let project = temp.join("project");
    // The billing example with a typo in the pinned query's sort-key prefix.
    let (schema, typo_line) = editor_e2e::billing_with_a_typo(&project);

    let init = temp.join("init.lua");
    std::fs::write(&init, documented_init_lua()).unwrap();

    let mut command = Command::new(&nvim);
    command
        .args(["--headless", "--clean", "-i", "NONE", "-u"])
        .arg(&init)
        .arg("-c")
        .arg(format!("luafile {}", vim_path(&script)))
        .args(["-c", "cquit 2"])
        .current_dir(&project)
        // The fresh build first on PATH, so `cmd = { "dyno", "lsp" }` finds it.
        .env("PATH", editor_e2e::path_with_dyno_first(&dyno))
        .env("DYNO_E2E_SCHEMA", &schema)
        .env("DYNO_E2E_TYPO_LINE", typo_line.to_string())
        .env("DYNO_E2E_BIN", &dyno)
        .env("DYNO_E2E_INIT", &init)
        .env("DYNO_E2E_TIMEOUT_MS", WAIT_MS.to_string())
        // Keep the user's configuration, data, state and logs out of it.
        .env("XDG_CONFIG_HOME", temp.join("config"))
        .env("XDG_DATA_HOME", temp.join("data"))
        .env("XDG_STATE_HOME", temp.join("state"))
        .env("XDG_CACHE_HOME", temp.join("cache"))
        .env("NVIM_LOG_FILE", temp.join("nvim.log"))
        .env_remove("NVIM")
        .env_remove("NVIM_LISTEN_ADDRESS");

    let started = Instant::now();
    let (status, stdout, stderr) = run_bounded(&mut command, LIMIT);
    let elapsed = started.elapsed();
    let report = format!(
        "{} ({:.1} s)\n--- stdout\n{stdout}\n--- stderr\n{stderr}",
        nvim,
        elapsed.as_secs_f64()
    );
    let Some(status) = status else {
        panic!("nvim did not finish within {LIMIT:?}: {report}");
    };
    assert!(status.success(), "nvim failed ({status}): {report}");
    assert!(
        stdout.contains("all checks passed"),
        "nvim exited 0 without finishing the checks: {report}"
    );
    println!("{report}");
}

/// Runs a command in a process group of its own with piped output, killing
/// the whole group past `limit` — and after it exits, so a language server
/// it left behind cannot keep the pipes open. Returns the exit status (None
/// on timeout), standard output and standard error.
fn run_bounded(command: &mut Command, limit: Duration) -> (Option<std::process::ExitStatus>, String, String) {
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(command, 0);
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start nvim: {e}"));
    let reader = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            String::from_utf8_lossy(&bytes).into_owned()
        })
    };
    let stdout = reader(Box::new(child.stdout.take().unwrap()));
    let stderr = reader(Box::new(child.stderr.take().unwrap()));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if started.elapsed() > limit {
            kill_group(child.id());
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    kill_group(child.id());
    (status, stdout.join().unwrap(), stderr.join().unwrap())
}

/// Kills every process left in the group `id` leads.
fn kill_group(id: u32) {
    #[cfg(unix)]
    let _ = Command::new("kill")
        .args(["-s", "KILL", "--", &format!("-{id}")])
        .stderr(Stdio::null())
        .status();
    #[cfg(not(unix))]
    let _ = id;
}

/// A path for an Ex command line: spaces and backslashes escaped.
fn vim_path(path: &Path) -> String {
    path.display().to_string().replace('\\', "\\\\").replace(' ', "\\ ")
}
