//! Rendering diagnostics: rustc-style text and the stable JSON of
//! `--format json` (documented in docs/cli.md).

use serde_json::{Value, json};

use super::input::SourceText;
use crate::diagnostic::{Diagnostic, Severity};
use crate::syntax::Span;

const TAB: &str = "    ";

/// ```text
/// error[E002]: unterminated string
///   --> billing.dyno:3:9
///    |
///  3 |   pk = "TENANT#{tenantId}
///    |        ^^^^^^^^^^^^^^^^^^ missing closing `"`
///    = help: ...
/// ```
pub fn text(source: &SourceText, diagnostic: &Diagnostic) -> String {
    let start = source.lines.line_col(diagnostic.span.start);
    let mut lines = vec![diagnostic.span.start];
    lines.extend(diagnostic.related.iter().map(|r| r.span.start));
    let gutter = lines
        .iter()
        .map(|&o| (source.lines.line_col(o).line + 1).to_string().len())
        .max()
        .unwrap_or(1);
    let pad = " ".repeat(gutter);

    let mut out = format!(
        "{}[{}]: {}\n",
        diagnostic.severity.as_str(),
        diagnostic.code.as_str(),
        diagnostic.message
    );
    out.push_str(&format!(
        "{pad}--> {}:{}:{}\n",
        source.display_path(),
        start.line + 1,
        source.lines.char_col(&source.text, start)
    ));
    out.push_str(&format!("{pad} |\n"));
    snippet(
        &mut out,
        source,
        diagnostic.span,
        '^',
        diagnostic.label.as_deref(),
        gutter,
    );
    for related in &diagnostic.related {
        let at = source.lines.line_col(related.span.start);
        out.push_str(&format!(
            "{pad}::: {}:{}:{}\n",
            source.display_path(),
            at.line + 1,
            source.lines.char_col(&source.text, at)
        ));
        out.push_str(&format!("{pad} |\n"));
        snippet(&mut out, source, related.span, '-', Some(&related.message), gutter);
    }
    if let Some(help) = &diagnostic.help {
        out.push_str(&format!("{pad} = help: {help}\n"));
    }
    for fix in &diagnostic.fixes {
        out.push_str(&format!("{pad} = fix: {}\n", fix.title));
    }
    out.push('\n');
    out
}

/// One source line and a marker under the span (to the end of that line
/// when the span runs on).
fn snippet(out: &mut String, source: &SourceText, span: Span, mark: char, label: Option<&str>, gutter: usize) {
    let at = source.lines.line_col(span.start);
    let line = source.lines.line_text(&source.text, at.line);
    let before = &line[..at.col.min(line.len())];
    let end_col = (at.col + span.len()).min(line.len()).max(at.col.min(line.len()));
    let marked = &line[at.col.min(line.len())..end_col];
    let width = |s: &str| s.chars().map(|c| if c == '\t' { TAB.len() } else { 1 }).sum::<usize>();
    let markers = mark.to_string().repeat(width(marked).max(1));
    let label = label.map(|l| format!(" {l}")).unwrap_or_default();
    out.push_str(&format!("{:>gutter$} | {}\n", at.line + 1, line.replace('\t', TAB)));
    out.push_str(&format!(
        "{:gutter$} | {}{markers}{label}\n",
        "",
        " ".repeat(width(before))
    ));
}

pub fn summary(source: &SourceText, diagnostics: &[Diagnostic]) -> String {
    let count = |severity| diagnostics.iter().filter(|d| d.severity == severity).count();
    let (errors, warnings) = (count(Severity::Error), count(Severity::Warning));
    if errors == 0 && warnings == 0 {
        return format!("{}: ok\n", source.display_path());
    }
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    format!(
        "{}: {}, {}\n",
        source.display_path(),
        plural(errors, "error"),
        plural(warnings, "warning")
    )
}

pub fn json(checked: &[(SourceText, Vec<Diagnostic>)]) -> Value {
    let position = |source: &SourceText, offset: usize| {
        let at = source.lines.line_col(offset);
        json!({ "line": at.line + 1, "column": source.lines.char_col(&source.text, at), "offset": offset })
    };
    let range = |source: &SourceText, span: Span| json!({ "start": position(source, span.start), "end": position(source, span.end) });
    let mut diagnostics = Vec::new();
    for (source, file_diagnostics) in checked {
        let file = source.display_path();
        for d in file_diagnostics {
            diagnostics.push(json!({
                "file": file,
                "range": range(source, d.span),
                "severity": d.severity.as_str(),
                "code": d.code.as_str(),
                "message": d.message,
                "label": d.label,
                "help": d.help,
                "related": d.related.iter().map(|r| json!({
                    "file": file,
                    "range": range(source, r.span),
                    "message": r.message,
                })).collect::<Vec<_>>(),
                "fixes": d.fixes.iter().map(|f| json!({
                    "title": f.title,
                    "edits": f.edits.iter().map(|(span, text)| json!({
                        "range": range(source, *span),
                        "text": text,
                    })).collect::<Vec<_>>(),
                })).collect::<Vec<_>>(),
            }));
        }
    }
    let count = |severity: Severity| {
        checked
            .iter()
            .flat_map(|(_, ds)| ds)
            .filter(|d| d.severity == severity)
            .count()
    };
    json!({
        "version": 1,
        "files": checked.iter().map(|(s, _)| s.display_path()).collect::<Vec<_>>(),
        "diagnostics": diagnostics,
        "summary": { "errors": count(Severity::Error), "warnings": count(Severity::Warning), "hints": count(Severity::Hint) },
    })
}
