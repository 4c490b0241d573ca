//! Rendering diagnostics at the edge: rustc-style text and the stable JSON
//! of `--format json` (documented in docs/cli.md). The CLI prints them; the
//! checker's fixture tests compare them, without going through the CLI.

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::{Value, json};

use super::{Diagnostic, Severity};
use crate::syntax::{FileId, LineIndex, Span};

/// A file's text with its path and line index, to show locations in.
pub struct SourceText {
    pub path: PathBuf,
    /// Shared: a command hands the same text to its workspace to check.
    pub text: Arc<str>,
    pub lines: LineIndex,
}

impl SourceText {
    pub fn new(path: PathBuf, text: impl Into<Arc<str>>) -> SourceText {
        let text = text.into();
        let lines = LineIndex::new(&text);
        SourceText { path, text, lines }
    }

    pub fn display_path(&self) -> String {
        self.path.display().to_string()
    }

    /// The one-based line and one-based column in characters of a byte
    /// offset, as every output format gives them.
    pub fn line_column(&self, offset: usize) -> (usize, usize) {
        let at = self.lines.line_col(offset);
        (at.line + 1, self.lines.char_col(&self.text, at))
    }
}

/// A path given (or found) that could not be read, with the one-line
/// reason, e.g. "`x.dyno` does not exist".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unreadable {
    pub path: String,
    pub message: String,
}

/// The texts of the files locations point into.
pub trait Sources {
    fn source(&self, file: FileId) -> Option<&SourceText>;
}

/// One text checked on its own: it is file 0.
impl Sources for SourceText {
    fn source(&self, file: FileId) -> Option<&SourceText> {
        (file == FileId::default()).then_some(self)
    }
}

/// The files of a workspace, in the order of their ids.
impl Sources for [SourceText] {
    fn source(&self, file: FileId) -> Option<&SourceText> {
        self.get(file.index())
    }
}

const TAB: &str = "    ";

/// ```text
/// error[E002]: unterminated string
///   --> billing.dyno:3:9
///    |
///  3 |   pk = "TENANT#{tenantId}
///    |        ^^^^^^^^^^^^^^^^^^ missing closing `"`
///    = help: ...
/// ```
pub fn text(sources: &(impl Sources + ?Sized), diagnostic: &Diagnostic) -> String {
    let Some(source) = sources.source(diagnostic.file) else {
        return String::new();
    };
    // Related locations in a file that is not loaded cannot be shown.
    let related: Vec<_> = diagnostic
        .related
        .iter()
        .filter_map(|r| Some((sources.source(r.at.file)?, r)))
        .collect();
    let mut lines = vec![(source, diagnostic.span.start())];
    lines.extend(related.iter().map(|(s, r)| (*s, r.at.span.start())));
    let gutter = lines
        .iter()
        .map(|&(s, o)| (s.lines.line_col(o).line + 1).to_string().len())
        .max()
        .unwrap_or(1);
    let pad = " ".repeat(gutter);

    let mut out = format!(
        "{}[{}]: {}\n",
        diagnostic.severity.as_str(),
        diagnostic.code.as_str(),
        diagnostic.message
    );
    let primary = Marked {
        arrow: "-->",
        mark: '^',
        label: diagnostic.label.as_deref(),
    };
    located(&mut out, source, diagnostic.span, primary, gutter);
    for (source, related) in related {
        let secondary = Marked {
            arrow: ":::",
            mark: '-',
            label: Some(&related.message),
        };
        located(&mut out, source, related.at.span, secondary, gutter);
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

/// `--> path:line:column` and the source line with `span` marked by
/// carets and `label`: the location block of [`text`], for reports that are
/// not diagnostics (`dyno diff`).
pub fn excerpt(source: &SourceText, span: Span, label: Option<&str>) -> String {
    let gutter = (source.lines.line_col(span.start()).line + 1).to_string().len();
    let mut out = String::new();
    let how = Marked {
        arrow: "-->",
        mark: '^',
        label,
    };
    located(&mut out, source, span, how, gutter);
    out
}

/// How a location is drawn: the primary one with `-->` and carets, a
/// related one with `:::` and dashes.
struct Marked<'a> {
    arrow: &'a str,
    mark: char,
    label: Option<&'a str>,
}

/// `--> path:line:column`, then the source line with the span marked.
fn located(out: &mut String, source: &SourceText, span: Span, how: Marked<'_>, gutter: usize) {
    let pad = " ".repeat(gutter);
    let at = source.lines.line_col(span.start());
    out.push_str(&format!(
        "{pad}{} {}:{}:{}\n",
        how.arrow,
        source.display_path(),
        at.line + 1,
        source.lines.char_col(&source.text, at)
    ));
    out.push_str(&format!("{pad} |\n"));
    snippet(out, source, span, how.mark, how.label, gutter);
}

/// Lines longer than this (in characters) are shown as a window around the
/// span: a minified schema with thousands of errors on one line would
/// otherwise print the whole line once per error.
const LONGEST_LINE: usize = 200;
/// The characters shown on each side of the span in such a window.
const CONTEXT: usize = 60;

/// One source line and a marker under the span (to the end of that line
/// when the span runs on).
fn snippet(out: &mut String, source: &SourceText, span: Span, mark: char, label: Option<&str>, gutter: usize) {
    let at = source.lines.line_col(span.start());
    let line = source.lines.line_text(&source.text, at.line);
    let start = at.col.min(line.len());
    let end = (at.col + span.len()).min(line.len()).max(start);
    let (shown, before, marked) = window(line, start, end);
    let width = |s: &str| s.chars().map(|c| if c == '\t' { TAB.len() } else { 1 }).sum::<usize>();
    let markers = mark.to_string().repeat(width(&marked).max(1));
    let label = label.map(|l| format!(" {l}")).unwrap_or_default();
    out.push_str(&format!("{:>gutter$} | {}\n", at.line + 1, shown.replace('\t', TAB)));
    out.push_str(&format!(
        "{:gutter$} | {}{markers}{label}\n",
        "",
        " ".repeat(width(&before))
    ));
}

/// The part of `line` shown for the span `start..end` (byte offsets on
/// character boundaries): the whole line when it is short, else the span
/// (at most [`LONGEST_LINE`] − 2 × [`CONTEXT`] characters of it) with
/// [`CONTEXT`] characters on each side and `...` where the line was cut.
/// Returns the shown text, the shown text before the span, and the marked part.
fn window(line: &str, start: usize, end: usize) -> (String, String, String) {
    // At most LONGEST_LINE characters, without counting all of a long line.
    if line.chars().nth(LONGEST_LINE).is_none() {
        return (
            line.to_string(),
            line[..start].to_string(),
            line[start..end].to_string(),
        );
    }
    let back = |from: usize, n: usize| match n {
        0 => from,
        n => line[..from].char_indices().rev().nth(n - 1).map_or(0, |(i, _)| i),
    };
    let forward = |from: usize, n: usize| line[from..].char_indices().nth(n).map_or(line.len(), |(i, _)| from + i);
    let from = back(start, CONTEXT);
    let marked_end = forward(start, LONGEST_LINE - 2 * CONTEXT).min(end);
    let to = forward(marked_end, CONTEXT);
    let (cut_before, cut_after) = (
        if from > 0 { "..." } else { "" },
        if to < line.len() { "..." } else { "" },
    );
    (
        format!("{cut_before}{}{cut_after}", &line[from..to]),
        format!("{cut_before}{}", &line[from..start]),
        line[start..marked_end].to_string(),
    )
}

/// A file's last line: what was proved about it (`proved`, the checker's
/// words) and how many errors and warnings it has.
pub fn summary(source: &SourceText, proved: &str, diagnostics: &[Diagnostic]) -> String {
    let count = |severity| diagnostics.iter().filter(|d| d.severity == severity).count();
    let (errors, warnings) = (count(Severity::Error), count(Severity::Warning));
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    format!(
        "{}: {proved}; {}, {}\n",
        source.display_path(),
        plural(errors, "error"),
        plural(warnings, "warning")
    )
}

pub fn json(sources: &[SourceText], checked: &[(FileId, Vec<Diagnostic>)], unreadable: &[Unreadable]) -> Value {
    let position = |source: &SourceText, offset: usize| {
        let at = source.lines.line_col(offset);
        json!({ "line": at.line + 1, "column": source.lines.char_col(&source.text, at), "offset": offset })
    };
    let range = |source: &SourceText, span: Span| json!({ "start": position(source, span.start()), "end": position(source, span.end()) });
    // A location in a file that is not loaded cannot be given a line.
    let location = |file: FileId, span: Span| {
        let source = sources.source(file)?;
        Some((source.display_path(), range(source, span)))
    };
    let mut diagnostics = Vec::new();
    for d in checked.iter().flat_map(|(_, ds)| ds) {
        let Some((file, at)) = location(d.file, d.span) else {
            continue;
        };
        diagnostics.push(json!({
            "file": file,
            "range": at,
            "severity": d.severity.as_str(),
            "code": d.code.as_str(),
            "message": d.message,
            "label": d.label,
            "help": d.help,
            "related": d.related.iter().filter_map(|r| {
                let (file, at) = location(r.at.file, r.at.span)?;
                Some(json!({ "file": file, "range": at, "message": r.message }))
            }).collect::<Vec<_>>(),
            "fixes": d.fixes.iter().map(|f| json!({
                "title": f.title,
                "edits": f.edits.iter().filter_map(|(at, text)| {
                    let (file, at) = location(at.file, at.span)?;
                    Some(json!({ "file": file, "range": at, "text": text }))
                }).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        }));
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
        "files": checked.iter().filter_map(|(f, _)| Some(sources.source(*f)?.display_path())).collect::<Vec<_>>(),
        "diagnostics": diagnostics,
        "unreadable": unreadable.iter().map(|u| json!({ "path": u.path, "message": u.message })).collect::<Vec<_>>(),
        "summary": { "errors": count(Severity::Error), "warnings": count(Severity::Warning), "hints": count(Severity::Hint) },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_line_is_shown_whole() {
        let line = "  pk = \"A#{id\"";
        let (shown, before, marked) = window(line, 9, 12);
        assert_eq!(
            (shown.as_str(), before.as_str(), marked.as_str()),
            (line, "  pk = \"A", "#{i")
        );
    }

    #[test]
    fn a_long_line_is_cut_around_the_span_on_character_boundaries() {
        let line = format!("{}X{}", "é".repeat(500), "日".repeat(500));
        let start = "é".repeat(500).len();
        let (shown, before, marked) = window(&line, start, start + 1);
        assert_eq!(marked, "X");
        assert_eq!(before, format!("...{}", "é".repeat(CONTEXT)));
        assert_eq!(shown, format!("...{}X{}...", "é".repeat(CONTEXT), "日".repeat(CONTEXT)));
        // At the start of the line nothing is cut before the span.
        let (shown, before, _) = window(&line, 0, 2);
        assert_eq!(before, "");
        assert!(shown.starts_with("éé") && shown.ends_with("..."));
        // A span longer than the window is marked only in part.
        let (_, _, marked) = window(&line, 0, line.len());
        assert_eq!(marked.chars().count(), LONGEST_LINE - 2 * CONTEXT);
    }
}
