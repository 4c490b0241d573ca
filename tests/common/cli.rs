//! The `dyno` binary as a user runs it, from the crate root.

use std::process::{Command, Output};

pub fn dyno(args: &[&str]) -> Output {
    dyno_in(std::path::Path::new(env!("CARGO_MANIFEST_DIR")), args)
}

/// `dyno ARGS` run in `dir` (for paths relative to it, `git:` sides).
pub fn dyno_in(dir: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dyno"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run dyno")
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

pub fn path_str(path: &std::path::Path) -> &str {
    path.to_str().unwrap()
}
