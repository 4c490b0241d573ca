//! A line-based reader for the small TOML files of the editor integrations
//! (editors/zed, editors/helix): `[section]` and `[[section]]` headers and
//! `key = value` lines, a value spanning lines while its brackets are open.
//! Enough to check their fields without a TOML crate.

use std::collections::BTreeMap;

/// `section.key` (or `key` before any header) to the value's raw text.
pub fn read(text: &str) -> BTreeMap<String, String> {
    let mut fields = BTreeMap::new();
    let mut section = String::new();
    let mut open: Option<(String, String)> = None;
    for line in text.lines() {
        let trimmed = line.trim();
        if let Some((_, value)) = &mut open {
            value.push('\n');
            value.push_str(trimmed);
            if depth(value) == 0 {
                let (key, value) = open.take().unwrap();
                fields.insert(key, value);
            }
            continue;
        }
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if trimmed.starts_with('[') && !trimmed.contains('=') {
            section = trimmed.trim_matches(|c| c == '[' || c == ']').to_string();
            continue;
        }
        let (key, value) = trimmed
            .split_once('=')
            .unwrap_or_else(|| panic!("not `key = value`: {line}"));
        let key = if section.is_empty() {
            key.trim().to_string()
        } else {
            format!("{section}.{}", key.trim())
        };
        let value = value.trim().to_string();
        if depth(&value) > 0 {
            open = Some((key, value));
        } else {
            fields.insert(key, value);
        }
    }
    assert!(open.is_none(), "a value is never closed");
    fields
}

fn depth(value: &str) -> i32 {
    let mut depth = 0;
    let mut in_string = false;
    let mut escaped = false;
    for c in value.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' if in_string => escaped = true,
            '"' => in_string = !in_string,
            '[' | '{' if !in_string => depth += 1,
            ']' | '}' if !in_string => depth -= 1,
            _ => {}
        }
    }
    depth
}

/// The text of a `"quoted"` value.
pub fn string(value: &str) -> &str {
    value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .unwrap_or_else(|| panic!("not a string: {value}"))
}

/// The strings of a `["a", "b"]` value.
pub fn strings(value: &str) -> Vec<String> {
    let inner = value
        .trim()
        .strip_prefix('[')
        .and_then(|v| v.strip_suffix(']'))
        .unwrap_or_else(|| panic!("not an array: {value}"));
    inner
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| string(s).to_string())
        .collect()
}

/// Every query file of tree-sitter-dyno is in `dir`, byte for byte, and
/// `dir` has no other but `extra` (queries only that editor reads).
pub fn assert_same_queries(dir: &std::path::Path, extra: &[&str]) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let names = |d: &std::path::Path| {
        let mut names: Vec<String> = std::fs::read_dir(d)
            .unwrap_or_else(|e| panic!("{}: {e}", d.display()))
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".scm"))
            .collect();
        names.sort();
        names
    };
    let source = root.join("editors/tree-sitter/queries");
    let expected = names(&source);
    assert_eq!(expected, ["folds.scm", "highlights.scm", "indents.scm", "locals.scm"]);
    let mut wanted: Vec<String> = expected
        .iter()
        .cloned()
        .chain(extra.iter().map(|e| e.to_string()))
        .collect();
    wanted.sort();
    assert_eq!(names(dir), wanted, "{} has other query files", dir.display());
    for name in expected {
        let a = std::fs::read(source.join(&name)).unwrap();
        let b = std::fs::read(dir.join(&name)).unwrap();
        assert!(
            a == b,
            "{}/{name} differs from editors/tree-sitter/queries/{name}: copy it again",
            dir.display()
        );
    }
}
