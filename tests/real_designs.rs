//! The corpus of real single-table designs in `examples/real/`: public
//! designs ported as they are, so dyno is tested on schemas it was not
//! written for. Each file checks without errors and with exactly the
//! warnings its `// expect:` line lists (the hazards the source really has),
//! names its source and license, and writes as many patterns as its
//! `// Access patterns: N documented, M written` line says. With an
//! endpoint, `dyno verify` passes every pattern of every design.

use std::path::{Path, PathBuf};
use std::process::Command;

use dyno::check::analyze;
use dyno::diagnostic::Severity;
use serde_json::Value as Json;

fn designs() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/real");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "dyno"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 6,
        "expected at least six designs in {}, found {files:?}",
        dir.display()
    );
    files
}

/// The text after `// NAME:` on the file's header line of that name, if any.
fn header<'a>(text: &'a str, name: &str) -> Option<&'a str> {
    let prefix = format!("// {name}:");
    text.lines()
        .find_map(|line| line.strip_prefix(prefix.as_str()))
        .map(str::trim)
}

/// The codes of the `// expect:` line, sorted; none without the line.
fn expected_warnings(text: &str) -> Vec<String> {
    let mut codes: Vec<String> = header(text, "expect")
        .map(|list| list.split(',').map(|code| code.trim().to_string()).collect())
        .unwrap_or_default();
    codes.sort();
    codes
}

/// The `M` of `// Access patterns: N documented, M written`, checked against `N`.
fn written_patterns(text: &str, file: &Path) -> usize {
    let line =
        header(text, "Access patterns").unwrap_or_else(|| panic!("{}: no `// Access patterns:` line", file.display()));
    let numbers: Vec<usize> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter(|word| !word.is_empty())
        .map(|word| word.parse().unwrap())
        .collect();
    assert!(
        numbers.len() == 2 && line.contains("documented") && line.contains("written"),
        "{}: `// Access patterns: {line}` is not `N documented, M written`",
        file.display()
    );
    assert!(
        numbers[1] <= numbers[0],
        "{}: more written than documented",
        file.display()
    );
    numbers[1]
}

#[test]
fn every_design_checks_with_exactly_its_expected_warnings() {
    for file in designs() {
        let text = std::fs::read_to_string(&file).unwrap();
        let analysis = analyze(&text);
        let errors: Vec<String> = analysis
            .diagnostics()
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| format!("{} {}", d.code.as_str(), d.message))
            .collect();
        assert!(errors.is_empty(), "{}: errors:\n{}", file.display(), errors.join("\n"));
        let mut warnings: Vec<String> = analysis
            .diagnostics()
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .map(|d| d.code.as_str().to_string())
            .collect();
        warnings.sort();
        assert_eq!(
            warnings,
            expected_warnings(&text),
            "{}: the warnings are not the ones its `// expect:` line lists",
            file.display()
        );
    }
}

#[test]
fn every_design_names_its_source_and_license() {
    for file in designs() {
        let text = std::fs::read_to_string(&file).unwrap();
        let source = header(&text, "Source").unwrap_or_default();
        assert!(
            source.starts_with("https://github.com/") && source.contains("/tree/"),
            "{}: `// Source:` is not a repository URL at a commit: {source:?}",
            file.display()
        );
        let license = header(&text, "License").unwrap_or_default();
        assert!(!license.is_empty(), "{}: no `// License:` line", file.display());
    }
}

#[test]
fn every_design_writes_as_many_patterns_as_it_says() {
    for file in designs() {
        let text = std::fs::read_to_string(&file).unwrap();
        let written = written_patterns(&text, &file);
        let patterns = text.lines().filter(|line| line.starts_with("pattern ")).count();
        assert_eq!(
            patterns,
            written,
            "{}: the `// Access patterns:` line says {written} written",
            file.display()
        );
        // Each written pattern quotes the source in its doc comment.
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            if line.starts_with("pattern ") {
                let documented = lines[..i]
                    .iter()
                    .rev()
                    .take_while(|l| l.starts_with("//"))
                    .any(|l| l.starts_with("/// \""));
                assert!(
                    documented,
                    "{}: `{line}` has no doc comment quoting the source",
                    file.display()
                );
            }
        }
    }
}

#[test]
#[ignore = "needs `--features verify` and a DynamoDB endpoint in DYNO_TEST_ENDPOINT (README: Tests)"]
fn every_design_passes_verify_against_the_endpoint() {
    let endpoint = std::env::var("DYNO_TEST_ENDPOINT").unwrap_or_default();
    assert!(
        !endpoint.is_empty(),
        "DYNO_TEST_ENDPOINT is not set: start moto's server (or DynamoDB Local) and set DYNO_TEST_ENDPOINT=http://127.0.0.1:PORT (README: Tests)"
    );
    for file in designs() {
        let path = file.to_str().unwrap();
        let output = Command::new(env!("CARGO_BIN_EXE_dyno"))
            .args(["verify", path, "--endpoint", &endpoint, "--format", "json"])
            .output()
            .expect("run dyno");
        let text = String::from_utf8_lossy(&output.stdout);
        let json: Json = serde_json::from_str(&text).unwrap_or_else(|e| {
            panic!(
                "{path}: not one JSON document ({e}):\n{text}\nstderr:\n{}",
                String::from_utf8_lossy(&output.stderr)
            )
        });
        assert_eq!(output.status.code(), Some(0), "{path}:\n{text}");
        let source = std::fs::read_to_string(&file).unwrap();
        let patterns = json["patterns"].as_array().unwrap();
        assert_eq!(patterns.len(), written_patterns(&source, &file), "{path}");
        for p in patterns {
            assert_eq!(p["status"], "pass", "{path}: {p:#}");
            // Unlike the bundled examples, the samples are not tuned to each
            // design: a strict range can select nothing (chat-system's
            // `CreatedAt > FromPosition` on a room with one comment).
            assert_eq!(p["returned"], p["expected"], "{path}: {p:#}");
            // ... and then the report says the range was never exercised.
            if p["matching"] == 0 {
                let unexercised = p["unexercised"].to_string();
                assert!(
                    unexercised.contains("range"),
                    "{path}: an empty range is reported: {p:#}"
                );
            }
        }
        assert_eq!(json["summary"]["failed"], 0, "{path}");
        assert_eq!(json["deleted"], true, "{path}: the tables are deleted");
    }
}
