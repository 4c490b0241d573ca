//! The Mason registry draft (editors/mason/package.yaml): the fields
//! mason-org/mason-registry's package schema requires, a cargo source that
//! installs this crate, and a `dyno` binary. Read with a small line-based
//! reader (block mappings, `- item` lists and plain scalars: all the draft
//! uses), so no YAML crate is needed.

use std::collections::BTreeMap;
use std::path::Path;

/// `a.b` paths to a scalar, or to the items of a `- item` list.
#[derive(Debug, PartialEq)]
enum Value {
    Scalar(String),
    List(Vec<String>),
}

fn read(text: &str) -> BTreeMap<String, Value> {
    let mut fields = BTreeMap::new();
    // (indent, key) of the mappings the current line is inside.
    let mut parents: Vec<(usize, String)> = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed == "---" {
            continue;
        }
        assert!(!line.contains('\t'), "line {}: a tab", number + 1);
        let indent = line.len() - line.trim_start().len();
        while parents.last().is_some_and(|(i, _)| *i >= indent) {
            parents.pop();
        }
        let path = |key: &str| {
            let mut names: Vec<&str> = parents.iter().map(|(_, k)| k.as_str()).collect();
            names.push(key);
            names.join(".")
        };
        if let Some(item) = trimmed.strip_prefix("- ") {
            assert!(!parents.is_empty(), "line {}: a list item outside a key", number + 1);
            let owner: Vec<&str> = parents.iter().map(|(_, k)| k.as_str()).collect();
            match fields.entry(owner.join(".")).or_insert_with(|| Value::List(Vec::new())) {
                Value::List(items) => items.push(item.trim().to_string()),
                Value::Scalar(s) => panic!("line {}: a list item under the scalar {s}", number + 1),
            }
            continue;
        }
        let (key, value) = trimmed
            .split_once(':')
            .unwrap_or_else(|| panic!("line {}: not `key: value`: {line}", number + 1));
        let value = value.trim();
        if value.is_empty() {
            parents.push((indent, key.to_string()));
        } else {
            let value = value.trim_matches('"').to_string();
            assert!(
                fields.insert(path(key), Value::Scalar(value)).is_none(),
                "line {}: {key} twice",
                number + 1
            );
        }
    }
    fields
}

fn scalar<'a>(fields: &'a BTreeMap<String, Value>, key: &str) -> &'a str {
    match fields.get(key) {
        Some(Value::Scalar(s)) => s,
        other => panic!("package.yaml: {key} is {other:?}, expected a scalar"),
    }
}

fn list<'a>(fields: &'a BTreeMap<String, Value>, key: &str) -> &'a [String] {
    match fields.get(key) {
        Some(Value::List(items)) if !items.is_empty() => items,
        other => panic!("package.yaml: {key} is {other:?}, expected a non-empty list"),
    }
}

#[test]
fn the_mason_draft_has_the_registry_fields_and_installs_dyno() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("editors/mason/package.yaml")).unwrap();
    let fields = read(&text);

    assert_eq!(scalar(&fields, "name"), "dyno");
    assert!(scalar(&fields, "description").contains(".dyno"));
    assert!(scalar(&fields, "homepage").starts_with("https://"));
    list(&fields, "licenses");
    assert_eq!(list(&fields, "languages"), ["Dyno"]);
    assert_eq!(list(&fields, "categories"), ["LSP"]);
    assert_eq!(scalar(&fields, "bin.dyno"), "cargo:dyno");

    // The cargo source names this crate at this version (a purl).
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let version = manifest
        .lines()
        .find_map(|l| l.strip_prefix("version = "))
        .unwrap()
        .trim_matches('"');
    let id = scalar(&fields, "source.id");
    let want = format!("pkg:cargo/dyno@{version}");
    assert!(
        id == want || id.starts_with(&format!("{want}?")),
        "source.id is {id}, expected {want} (Cargo.toml's version), optionally with ?repository_url=…"
    );

    // Every key is one the registry's schema knows.
    for key in fields.keys() {
        let top = key.split('.').next().unwrap();
        assert!(
            [
                "name",
                "description",
                "homepage",
                "licenses",
                "languages",
                "categories",
                "source",
                "bin",
                "neovim"
            ]
            .contains(&top),
            "package.yaml: unknown key {key}"
        );
    }
}

#[test]
fn the_reader_reads_nesting_and_lists() {
    let fields = read("---\na: 1\nb:\n  - x\n  - y\nc:\n  d: \"e\"\n  f:\n    - g\nh: i\n");
    assert_eq!(fields["a"], Value::Scalar("1".into()));
    assert_eq!(fields["b"], Value::List(vec!["x".into(), "y".into()]));
    assert_eq!(fields["c.d"], Value::Scalar("e".into()));
    assert_eq!(fields["c.f"], Value::List(vec!["g".into()]));
    assert_eq!(fields["h"], Value::Scalar("i".into()));
}
