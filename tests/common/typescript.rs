//! The TypeScript that `dyno generate typescript` writes, as the tests
//! compile and run it: every example's modules in one scratch folder that
//! sees tests/generate/typescript's packages (`npm ci` there), and one
//! `tsc --strict` over all of them.

use std::path::{Path, PathBuf};
use std::process::Command;

use dyno::generate::{self, OutFile, Target};

use super::scratch::Scratch;

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn examples() -> Vec<PathBuf> {
    let mut files = super::fixtures("examples");
    files.extend(super::fixtures("examples/real"));
    files
}

/// The modules of a schema, named as the user would: relative to the crate.
pub fn modules(path: &Path) -> Vec<OutFile> {
    let text = std::fs::read_to_string(path).unwrap();
    let analysis = dyno::check::analyze(&text);
    let relative = path.strip_prefix(root()).unwrap_or(path);
    generate::generate(Target::TypeScript, &relative.to_string_lossy(), &analysis.schema)
}

/// The compiler's directory: tests/generate/typescript with `npm ci` run.
pub fn node_modules() -> PathBuf {
    let dir = root().join("tests/generate/typescript/node_modules");
    assert!(
        dir.join("typescript/bin/tsc").is_file()
            && dir.join("prettier/bin/prettier.cjs").is_file()
            && dir.join("@aws-sdk/client-dynamodb").is_dir(),
        "{} is missing: run `npm ci` in tests/generate/typescript (README: Tests)",
        dir.display()
    );
    dir
}

/// Every example's modules (each example in its own folder) and the
/// driver, in one folder that sees tests/generate/typescript's packages.
pub fn workspace(scratch: &Scratch) -> Vec<(PathBuf, Vec<OutFile>)> {
    let modules_dir = node_modules();
    std::os::unix::fs::symlink(&modules_dir, scratch.path().join("node_modules")).unwrap();
    let mut out = Vec::new();
    for path in examples() {
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        let files = modules(&path);
        for file in &files {
            scratch.file(&format!("{stem}/{}", file.name), &file.text);
        }
        out.push((path, files));
    }
    let driver = std::fs::read_to_string(root().join("tests/generate/typescript/driver.ts")).unwrap();
    scratch.file("driver.ts", driver);
    out
}

/// Runs tsc, strict and with unused code an error, over the workspace.
pub fn tsc(scratch: &Scratch, emit: bool) {
    let mut command = Command::new("node");
    command
        .arg(node_modules().join("typescript/bin/tsc"))
        .args([
            "--strict",
            "--noUnusedLocals",
            "--noUnusedParameters",
            "--noFallthroughCasesInSwitch",
            "--noImplicitReturns",
            "--target",
            "es2022",
            "--module",
            "node16",
            "--types",
            "node",
            "--pretty",
            "false",
        ])
        .current_dir(scratch.path());
    if emit {
        command.args(["--outDir", "out"]);
    } else {
        command.arg("--noEmit");
    }
    let mut sources: Vec<String> = Vec::new();
    for entry in walk(scratch.path()) {
        if entry.extension().is_some_and(|e| e == "ts") {
            sources.push(
                entry
                    .strip_prefix(scratch.path())
                    .unwrap()
                    .to_string_lossy()
                    .to_string(),
            );
        }
    }
    sources.sort();
    command.args(&sources);
    succeed("tsc --strict fails on the generated TypeScript", &mut command);
}

/// Runs a node command, failing with what it printed unless it succeeds.
pub fn succeed(what: &str, command: &mut Command) {
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("cannot run node (README: Tests): {e}"));
    assert!(
        output.status.success(),
        "{what}:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.file_name().is_some_and(|n| n == "node_modules" || n == "out") {
            continue;
        }
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}
