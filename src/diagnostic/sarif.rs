//! `--format sarif`: a SARIF 2.1.0 log (docs/cli.md), for code scanning
//! services and the editors' SARIF viewers. A test validates it against the
//! OASIS schema in tests/schemas.

use serde_json::{Value, json};

use super::render::{SourceText, Sources, Unreadable};
use super::{Code, Diagnostic, Severity};
use crate::syntax::{FileId, Span};

/// The log of one run of `dyno check` over `checked`, with the paths that
/// could not be read as notifications of a run that did not succeed.
pub fn log(sources: &[SourceText], checked: &[(FileId, Vec<Diagnostic>)], unreadable: &[Unreadable]) -> Value {
    let diagnostics: Vec<&Diagnostic> = checked.iter().flat_map(|(_, ds)| ds).collect();
    let mut codes: Vec<Code> = diagnostics.iter().map(|d| d.code).collect();
    codes.sort();
    codes.dedup();
    let rules: Vec<Value> = codes.iter().map(|&code| rule(code)).collect();
    let results: Vec<Value> = diagnostics
        .iter()
        .filter_map(|d| {
            let index = codes.binary_search(&d.code).ok()?;
            result(sources, d, index)
        })
        .collect();
    let notifications: Vec<Value> = unreadable
        .iter()
        .map(|u| {
            json!({
                "level": "error",
                "message": { "text": u.message },
                "locations": [{ "physicalLocation": { "artifactLocation": { "uri": uri(&u.path) } } }],
            })
        })
        .collect();
    let mut driver = json!({
        "name": "dyno",
        "version": env!("CARGO_PKG_VERSION"),
        "rules": rules,
    });
    // It must be absolute: only with a repository in Cargo.toml.
    if let Some(repository) = repository() {
        driver["informationUri"] = json!(repository);
    }
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": driver },
            "invocations": [{
                "executionSuccessful": unreadable.is_empty(),
                "toolExecutionNotifications": notifications,
            }],
            // Columns count characters, as in the other outputs.
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    })
}

/// `package.repository` of Cargo.toml, when set.
fn repository() -> Option<&'static str> {
    option_env!("CARGO_PKG_REPOSITORY")
        .map(|r| r.trim_end_matches('/'))
        .filter(|r| !r.is_empty())
}

fn rule(code: Code) -> Value {
    let heading = format!("{} {}", code.as_str(), code.title());
    let link = format!("docs/diagnostics.md#{}", anchor(&heading));
    let mut rule = json!({
        "id": code.as_str(),
        "shortDescription": { "text": code.title() },
        "help": { "text": format!("See {link}"), "markdown": format!("See [{heading}]({link})") },
        "defaultConfiguration": { "level": level(code.severity()) },
    });
    // `helpUri` must be absolute: only with a repository to point into.
    if let Some(repository) = repository() {
        rule["helpUri"] = json!(format!("{repository}/blob/main/{link}"));
    }
    rule
}

/// The anchor GitHub gives a Markdown heading: lower case, punctuation
/// dropped, spaces made hyphens (`E003 unclosed `{` in ...` is
/// `e003-unclosed--in-...`).
pub fn anchor(heading: &str) -> String {
    heading
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .flat_map(char::to_lowercase)
        .collect()
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Hint => "note",
    }
}

fn result(sources: &[SourceText], d: &Diagnostic, rule_index: usize) -> Option<Value> {
    let location = physical(sources, d.file, d.span)?;
    let related: Vec<Value> = d
        .related
        .iter()
        .filter_map(|r| {
            Some(json!({ "physicalLocation": physical(sources, r.at.file, r.at.span)?, "message": { "text": r.message } }))
        })
        .enumerate()
        .map(|(id, mut location)| {
            location["id"] = json!(id);
            location
        })
        .collect();
    let fixes: Vec<Value> = d
        .fixes
        .iter()
        .map(|fix| {
            // One change per file, its replacements in the fix's order.
            let mut changes: Vec<(FileId, Vec<Value>)> = Vec::new();
            for (at, text) in &fix.edits {
                let Some(source) = sources.source(at.file) else {
                    continue;
                };
                let replacement =
                    json!({ "deletedRegion": region(source, at.span), "insertedContent": { "text": text } });
                match changes.iter_mut().find(|(file, _)| *file == at.file) {
                    Some((_, replacements)) => replacements.push(replacement),
                    None => changes.push((at.file, vec![replacement])),
                }
            }
            json!({
                "description": { "text": fix.title },
                "artifactChanges": changes.into_iter().filter_map(|(file, replacements)| Some(json!({
                    "artifactLocation": { "uri": uri(&sources.source(file)?.display_path()) },
                    "replacements": replacements,
                }))).collect::<Vec<_>>(),
            })
        })
        .collect();
    let mut result = json!({
        "ruleId": d.code.as_str(),
        "ruleIndex": rule_index,
        "level": level(d.severity),
        "message": { "text": d.message },
        "locations": [{ "physicalLocation": location }],
    });
    if !related.is_empty() {
        result["relatedLocations"] = json!(related);
    }
    if !fixes.is_empty() {
        result["fixes"] = json!(fixes);
    }
    Some(result)
}

fn physical(sources: &[SourceText], file: FileId, span: Span) -> Option<Value> {
    let source = sources.source(file)?;
    Some(json!({
        "artifactLocation": { "uri": uri(&source.display_path()) },
        "region": region(source, span),
    }))
}

/// Lines and columns one-based, the end column that of the character after
/// the range, as SARIF has them.
fn region(source: &SourceText, span: Span) -> Value {
    let (start_line, start_column) = source.line_column(span.start());
    let (end_line, end_column) = source.line_column(span.end());
    json!({ "startLine": start_line, "startColumn": start_column, "endLine": end_line, "endColumn": end_column })
}

/// A path as a URI reference: relative paths stay relative (to where dyno
/// ran), absolute ones become `file://` URIs; bytes outside the unreserved
/// set and `/` are percent-encoded.
pub fn uri(path: &str) -> String {
    let path = path.replace('\\', "/");
    let mut out = String::new();
    if path.starts_with('/') {
        out.push_str("file://");
    }
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_are_those_github_gives_the_headings_of_diagnostics_md() {
        let doc = include_str!("../../docs/diagnostics.md");
        assert_eq!(
            anchor("E003 unclosed `{` in a key template"),
            "e003-unclosed--in-a-key-template"
        );
        assert_eq!(
            anchor("E209 fixed value outside the attribute's type"),
            "e209-fixed-value-outside-the-attributes-type"
        );
        for &code in Code::ALL {
            let heading = format!("## {} {}\n", code.as_str(), code.title());
            assert!(doc.contains(&heading), "docs/diagnostics.md lacks {heading}");
        }
    }

    #[test]
    fn paths_become_uri_references() {
        assert_eq!(uri("schemas/a b,c.dyno"), "schemas/a%20b%2Cc.dyno");
        assert_eq!(uri("/tmp/x:y.dyno"), "file:///tmp/x%3Ay.dyno");
    }
}
