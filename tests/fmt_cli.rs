//! `dyno fmt` as a user runs it: the built binary, scratch files, exit codes.

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::scratch::Scratch;

const MESSY: &str = "entity   User{userId:id\npk=\"USER#{userId}\" // the key\n}\npattern getUser(userId)->User\n";
const FORMATTED: &str = "entity User {\n  userId: id\n  pk = \"USER#{userId}\"             // the key\n}\n\npattern getUser(userId) -> User\n";
const BROKEN: &str = "entity User {\n  userId:\n  pk = \"USER#{userId}\n}\n";

fn dyno(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dyno"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run dyno")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn check_passes_on_formatted_files_and_changes_nothing() {
    let dir = Scratch::new("fmt-check_ok");
    let path = dir.file("ok.dyno", FORMATTED);
    let output = dyno(&["fmt", "--check", s(&path)]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), "");
    assert_eq!(read(&path), FORMATTED);
}

#[test]
fn check_lists_unformatted_files_exits_1_and_changes_nothing() {
    let dir = Scratch::new("fmt-check_messy");
    let messy = dir.file("messy.dyno", MESSY);
    let ok = dir.file("ok.dyno", FORMATTED);
    let output = dyno(&["fmt", "--check", s(&ok), s(&messy)]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stdout(&output), format!("{}\n", messy.display()));
    assert_eq!(read(&messy), MESSY);
    assert_eq!(read(&ok), FORMATTED);
}

#[test]
fn fmt_rewrites_in_place_and_then_check_passes() {
    let dir = Scratch::new("fmt-rewrite");
    let path = dir.file("messy.dyno", MESSY);
    let output = dyno(&["fmt", s(&path)]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(read(&path), FORMATTED);
    let output = dyno(&["fmt", "--check", s(&path)]);
    assert_eq!(output.status.code(), Some(0));
    // Formatting a formatted file is a no-op.
    let output = dyno(&["fmt", s(&path)]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(read(&path), FORMATTED);
}

#[test]
fn crlf_files_stay_crlf() {
    let dir = Scratch::new("fmt-crlf");
    let path = dir.file("crlf.dyno", MESSY.replace('\n', "\r\n"));
    let output = dyno(&["fmt", s(&path)]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(read(&path), FORMATTED.replace('\n', "\r\n"));
}

#[test]
fn a_file_with_syntax_errors_is_left_untouched_and_exits_1() {
    let dir = Scratch::new("fmt-broken");
    let broken = dir.file("broken.dyno", BROKEN);
    let messy = dir.file("messy.dyno", MESSY);
    for check in [false, true] {
        let mut args = vec!["fmt"];
        if check {
            args.push("--check");
        }
        args.extend([s(&broken), s(&messy)]);
        let output = dyno(&args);
        assert_eq!(output.status.code(), Some(1), "check={check}");
        assert_eq!(read(&broken), BROKEN, "check={check}");
        let err = stderr(&output);
        assert!(err.contains("has syntax errors: fix them first"), "{err}");
        assert!(err.contains("error[E002]: unterminated string"), "{err}");
    }
    // The other file was still formatted (by the run without --check).
    assert_eq!(read(&messy), FORMATTED);
}

#[test]
fn an_unreadable_file_exits_2_and_the_others_are_still_formatted() {
    let dir = Scratch::new("fmt-missing");
    let messy = dir.file("messy.dyno", MESSY);
    let missing = messy.with_file_name("nope.dyno");
    let output = dyno(&["fmt", s(&missing), s(&messy)]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("does not exist"), "{}", stderr(&output));
    assert_eq!(read(&messy), FORMATTED);

    let output = dyno(&["fmt", "--check", s(dir.path())]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("is a directory"), "{}", stderr(&output));
}

#[test]
fn fmt_needs_a_file() {
    let output = dyno(&["fmt"]);
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn the_bundled_examples_are_formatted() {
    let mut examples: Vec<String> = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "dyno"))
        .map(|p| format!("examples/{}", p.file_name().unwrap().to_str().unwrap()))
        .collect();
    examples.sort();
    assert!(!examples.is_empty());
    let mut args = vec!["fmt", "--check"];
    args.extend(examples.iter().map(String::as_str));
    let output = dyno(&args);
    assert_eq!(output.status.code(), Some(0), "not formatted:\n{}", stdout(&output));
}
