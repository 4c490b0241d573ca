//! Running the external tools some opt-in tests drive (npm, nvim, node):
//! found on PATH or failing with how to get them, each run bounded in time.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Fails the test, naming what is missing and how to get it.
pub fn require(present: bool, what: &str, fix: &str) {
    assert!(present, "{what}: {fix} (README: Tests)");
}

pub fn on_path(program: &str) -> bool {
    let Some(paths) = std::env::var_os("PATH") else {
        return false;
    };
    std::env::split_paths(&paths).any(|dir| dir.join(program).is_file())
}

/// Runs a command to completion within `limit`, killing it past that, and
/// panics with its output unless it succeeds. Returns its standard output.
pub fn run(what: &str, command: &mut Command, limit: Duration) -> String {
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

/// What the headless-browser tests need (tests/browser_*.rs): the browser
/// in `DYNO_CHROMIUM`, node, and `npm ci` in tests/browser having
/// installed `package`. Returns the browser's path; fails naming what is
/// missing.
pub fn browser(package: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser");
    let chromium = std::env::var("DYNO_CHROMIUM").unwrap_or_default();
    require(
        !chromium.is_empty() && std::path::Path::new(&chromium).is_file(),
        "DYNO_CHROMIUM does not name a browser",
        "apt-get install -y chromium and set DYNO_CHROMIUM=/usr/bin/chromium",
    );
    require(on_path("node"), "node is not on PATH", "install Node.js 20");
    require(
        dir.join("node_modules").join(package).is_dir(),
        &format!("tests/browser/node_modules/{package} is missing"),
        "run `PUPPETEER_SKIP_DOWNLOAD=1 npm ci` in tests/browser (.ci/run does this)",
    );
    chromium
}

/// An outside program: the path in the environment variable `env` when it
/// is set (it must be a file), else `name` on the PATH. Fails saying how to
/// get it (`fix`).
pub fn program(env: &str, name: &str, fix: &str) -> String {
    if let Ok(path) = std::env::var(env)
        && !path.is_empty()
    {
        require(
            std::path::Path::new(&path).is_file(),
            &format!("{env}={path} is not a file"),
            fix,
        );
        return path;
    }
    require(
        on_path(name),
        &format!("{name} is not on PATH"),
        &format!("{fix}, or set {env}"),
    );
    name.into()
}
