//! The `dyno` binary as a user runs it, from the crate root.

use std::process::{Command, Output};

pub fn dyno(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dyno"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
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
