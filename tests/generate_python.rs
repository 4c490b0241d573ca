//! `dyno generate python` (docs/generate.md): the modules of billing and
//! games as snapshots (`UPDATE_EXPECT=1` rewrites them), every request
//! constant equal to `dyno explain --format json`'s request, and — with
//! `DYNO_PYTHON`, a Python that has tests/generate/python/requirements.txt —
//! the modules of every example passing `mypy --strict`, `ruff format
//! --check` and `ruff check`, and the runtime they carry passing
//! tests/generate/python/runtime_test.py. The end-to-end run against an endpoint is
//! tests/generate_python_e2e.rs.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::cli::{dyno, stdout};
use common::scratch::Scratch;
use dyno::generate::{self, Target};
use serde_json::{Map, Value as Json};

fn examples() -> Vec<PathBuf> {
    let mut files = common::fixtures("examples");
    files.extend(common::fixtures("examples/real"));
    files
}

/// The modules of a schema, as `dyno generate python` writes them.
fn modules(path: &Path) -> Vec<generate::OutFile> {
    let text = std::fs::read_to_string(path).unwrap();
    let analysis = dyno::check::analyze(&text);
    let relative = path.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap_or(path);
    generate::generate(Target::Python, &relative.to_string_lossy(), &analysis.schema)
}

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples").join(name)
}

/// The module of `examples/NAME.dyno` against tests/generated/python/NAME.py.
fn snapshot(name: &str, expected: expect_test::ExpectFile) {
    let files = modules(&example(&format!("{name}.dyno")));
    assert_eq!(files.len(), 1);
    assert_eq!(files[0].name, format!("{name}.py"));
    expected.assert_eq(&files[0].text);
}

#[test]
fn billing_module_snapshot() {
    snapshot("billing", expect_test::expect_file!["generated/python/billing.py"]);
}

#[test]
fn games_module_snapshot() {
    snapshot("games", expect_test::expect_file!["generated/python/games.py"]);
}

#[test]
fn the_output_is_deterministic() {
    for path in examples() {
        assert_eq!(modules(&path), modules(&path), "{}", path.display());
    }
}

/// Every request constant of every example is `dyno explain`'s request.
#[test]
fn each_request_constant_is_explains_request() {
    for path in examples() {
        let relative = path.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap();
        let relative = relative.to_str().unwrap();
        let output = dyno(&["explain", "--format", "json", relative]);
        let explained: Json = serde_json::from_str(&stdout(&output)).unwrap();
        let texts: Vec<String> = modules(&path).into_iter().map(|f| f.text).collect();
        let mut checked = 0;
        for pattern in explained["patterns"].as_array().unwrap() {
            let name = pattern["pattern"].as_str().unwrap();
            let constant = generate::python::request_constant(name);
            let found: Vec<Json> = texts.iter().filter_map(|t| constant_value(t, &constant)).collect();
            assert_eq!(found.len(), 1, "{relative}: {constant} in one module");
            assert_eq!(found[0], pattern["request"], "{relative}: {name}");
            checked += 1;
        }
        assert!(checked > 0, "{relative}");
    }
}

/// The value of `NAME: Final[...] = <literal>` in a module, as JSON.
fn constant_value(text: &str, name: &str) -> Option<Json> {
    let start = text.find(&format!("\n{name}: Final["))? + 1;
    let line_end = text[start..].find(" = ")? + start + 3;
    let mut parser = Literal {
        text: &text[line_end..],
        at: 0,
    };
    Some(parser.value())
}

/// A parser of the Python literals a request constant is made of: dicts,
/// lists, strings, integers, `True`, `False`, `None`.
struct Literal<'a> {
    text: &'a str,
    at: usize,
}

impl Literal<'_> {
    fn skip(&mut self) {
        while let Some(c) = self.text[self.at..].chars().next() {
            if c.is_whitespace() || c == ',' {
                self.at += c.len_utf8();
            } else {
                break;
            }
        }
    }

    fn value(&mut self) -> Json {
        self.skip();
        let rest = &self.text[self.at..];
        let first = rest.chars().next().expect("a value");
        match first {
            '{' => {
                self.at += 1;
                let mut map = Map::new();
                loop {
                    self.skip();
                    if self.text[self.at..].starts_with('}') {
                        self.at += 1;
                        return Json::Object(map);
                    }
                    let Json::String(key) = self.value() else {
                        panic!("a string key at {}", self.at)
                    };
                    self.skip();
                    assert!(self.text[self.at..].starts_with(':'), "':' at {}", self.at);
                    self.at += 1;
                    let value = self.value();
                    map.insert(key, value);
                }
            }
            '[' => {
                self.at += 1;
                let mut items = Vec::new();
                loop {
                    self.skip();
                    if self.text[self.at..].starts_with(']') {
                        self.at += 1;
                        return Json::Array(items);
                    }
                    items.push(self.value());
                }
            }
            '"' | '\'' => self.string(first),
            _ => {
                let end = rest
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '.'))
                    .unwrap_or(rest.len());
                let word = &rest[..end];
                self.at += end;
                match word {
                    "True" => Json::Bool(true),
                    "False" => Json::Bool(false),
                    "None" => Json::Null,
                    number => serde_json::from_str(number).unwrap_or_else(|_| panic!("a literal: {number}")),
                }
            }
        }
    }

    fn string(&mut self, quote: char) -> Json {
        self.at += 1;
        let mut out = String::new();
        let mut chars = self.text[self.at..].char_indices();
        while let Some((i, c)) = chars.next() {
            if c == quote {
                self.at += i + 1;
                return Json::String(out);
            }
            if c != '\\' {
                out.push(c);
                continue;
            }
            let (_, escaped) = chars.next().expect("an escape");
            match escaped {
                'n' => out.push('\n'),
                'r' => out.push('\r'),
                't' => out.push('\t'),
                'x' => {
                    let hex: String = (0..2).filter_map(|_| chars.next().map(|(_, c)| c)).collect();
                    out.push(char::from_u32(u32::from_str_radix(&hex, 16).unwrap()).unwrap());
                }
                other => out.push(other),
            }
        }
        panic!("an unterminated string");
    }
}

#[test]
fn the_literal_parser_reads_what_the_emitter_writes() {
    let text = "\nX: Final[Q] = {\n    \"a\": [True, None, 25],\n    'b\"': \"\\\\\\x01\",\n}\n";
    assert_eq!(
        constant_value(text, "X").unwrap(),
        serde_json::json!({"a": [true, null, 25], "b\"": "\\\u{1}"})
    );
}

/// The Python with the requirements, from `DYNO_PYTHON`.
pub fn python() -> String {
    let python = std::env::var("DYNO_PYTHON").unwrap_or_default();
    assert!(
        !python.is_empty(),
        "DYNO_PYTHON is not set: make a venv with `pip install -r tests/generate/python/requirements.txt` and set DYNO_PYTHON=VENV/bin/python (README: Tests)"
    );
    python
}

#[test]
#[ignore = "needs DYNO_PYTHON: a Python with tests/generate/python/requirements.txt (README: Tests)"]
fn every_example_passes_mypy_strict_and_ruff_and_the_runtime_checks() {
    let python = python();
    let scratch = Scratch::new("generate-python");
    let mut written = 0;
    for path in examples() {
        // A package per example: two examples may have tables of one name.
        let stem = path.file_stem().unwrap().to_string_lossy().replace('-', "_");
        let package = format!("example_{stem}");
        scratch.file(&format!("{package}/__init__.py"), "");
        for file in modules(&path) {
            scratch.file(&format!("{package}/{}", file.name), &file.text);
            written += 1;
        }
    }
    // The end-to-end driver and the runtime's checks are type-checked and
    // linted with the modules.
    for script in ["driver.py", "runtime_test.py"] {
        let from = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/generate/python")
            .join(script);
        std::fs::copy(&from, scratch.path().join(script)).unwrap();
    }
    assert!(written >= examples().len(), "every example generates a module");
    let run = |args: &[&str]| {
        let output = Command::new(&python)
            .args(args)
            .current_dir(scratch.path())
            .output()
            .unwrap_or_else(|e| panic!("{python}: {e}"));
        assert!(
            output.status.success(),
            "{python} {}:\n{}{}",
            args.join(" "),
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    };
    run(&[
        "-m",
        "mypy",
        "--strict",
        "--no-incremental",
        "--cache-dir",
        "/dev/null",
        ".",
    ]);
    run(&[
        "-m",
        "ruff",
        "format",
        "--isolated",
        "--no-cache",
        "--check",
        "--diff",
        ".",
    ]);
    run(&["-m", "ruff", "check", "--isolated", "--no-cache", "."]);
    run(&["runtime_test.py"]);
}
