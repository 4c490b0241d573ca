//! `dyno diff`'s outputs: rustc-style text pointing at the new file with
//! the old line in a note, one JSON document (docs/diff.md), and GitHub
//! annotations. The location blocks are the diagnostics renderer's.

use serde_json::{Value as Json, json};

use super::{At, Change, Class};
use crate::diagnostic::github;
use crate::diagnostic::render::{SourceText, excerpt};
use crate::syntax::{FileSpan, Span};

/// Items counted on a live table for a change's old templates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count {
    pub items: u64,
    /// False when the count stopped at `--max-items`: at least `items`.
    pub complete: bool,
    /// Read with one Query (a constant old partition key), else a Scan.
    pub query: bool,
}

/// Everything an output needs.
pub struct Report<'a> {
    /// The files of each side, by `FileId`; a schema folder has several.
    pub old: &'a [SourceText],
    pub new: &'a [SourceText],
    /// How each side is named: its file, or its folder.
    pub old_name: &'a str,
    pub new_name: &'a str,
    pub changes: &'a [Change],
    /// Classes accepted with `--allow`: reported, but not failing.
    pub allowed: &'a [Class],
    /// Per change, when `--endpoint` counted its items.
    pub counts: &'a [Option<Count>],
    /// The table counted in, when not the schema's (`--table`).
    pub counted_in: Option<&'a str>,
}

impl Report<'_> {
    /// Whether a change fails the run.
    pub fn fails(&self, change: &Change) -> bool {
        change.class.is_breaking() && !self.allowed.contains(&change.class)
    }

    pub fn failing(&self) -> usize {
        self.changes.iter().filter(|c| self.fails(c)).count()
    }

    fn count(&self, index: usize) -> Option<Count> {
        self.counts.get(index).copied().flatten()
    }

    fn located(&self, at: At) -> (&SourceText, Span) {
        match at {
            At::New(at) => (&self.new[at.file.index()], at.span),
            At::Old(at) => (&self.old[at.file.index()], at.span),
        }
    }

    /// The old declaration a change replaces: its file and its text.
    fn was(&self, was: FileSpan) -> (&SourceText, Span, &str) {
        let source = &self.old[was.file.index()];
        let text = source.text.get(was.span.start()..was.span.end()).unwrap_or("");
        (source, was.span, text)
    }

    /// `error`, `warning` (breaking but allowed) or `note`.
    fn level(&self, change: &Change) -> &'static str {
        if self.fails(change) {
            "error"
        } else if change.class.is_breaking() {
            "warning"
        } else {
            "note"
        }
    }
}

pub fn text(report: &Report<'_>) -> String {
    let mut out = String::new();
    for (index, change) in report.changes.iter().enumerate() {
        let (source, span) = report.located(change.at);
        out.push_str(&format!(
            "{}[{}]: {}\n",
            report.level(change),
            change.class.name(),
            change.message
        ));
        let label = matches!(change.at, At::Old(_)).then_some("in the old schema");
        out.push_str(&excerpt(source, span, label));
        let pad = " ".repeat((source.line_column(span.start()).0).to_string().len());
        if let Some(was) = change.was
            && matches!(change.at, At::New(_))
        {
            let (old, span, text) = report.was(was);
            let (line, column) = old.line_column(span.start());
            out.push_str(&format!(
                "{pad} = note: was `{}` ({}:{line}:{column})\n",
                first_line(text),
                old.display_path()
            ));
        }
        if let Some(affected) = &change.affected {
            out.push_str(&format!("{pad} = affects: {}", affected_text(affected)));
            if let Some(count) = report.count(index) {
                out.push_str(&format!(
                    "; {} on table `{}`",
                    count_text(count),
                    report.counted_in.unwrap_or(&affected.table)
                ));
            }
            out.push('\n');
        }
        for (n, step) in change.steps.iter().enumerate() {
            out.push_str(&format!("{pad} = step {}: {step}\n", n + 1));
        }
        out.push('\n');
    }
    out.push_str(&summary(report));
    out
}

fn affected_text(affected: &super::Affected) -> String {
    let keys = affected
        .keys
        .iter()
        .map(|(attr, text)| format!("{attr} `{text}`"))
        .collect::<Vec<_>>()
        .join(", ");
    format!("the `{}` items written with {keys}", affected.name)
}

fn count_text(count: Count) -> String {
    let plural = if count.items == 1 { "item" } else { "items" };
    let read = if count.query { "a Query" } else { "a Scan" };
    if count.complete {
        format!("{} existing {plural} (counted with {read})", count.items)
    } else {
        format!(
            "at least {} existing {plural} (counted with {read}, stopped at --max-items)",
            count.items
        )
    }
}

/// `old.dyno → new.dyno: 4 changes (1 safe, 3 migration); 3 breaking`.
pub fn summary(report: &Report<'_>) -> String {
    let head = format!("{} → {}", report.old_name, report.new_name);
    if report.changes.is_empty() {
        return format!("{head}: no changes\n");
    }
    let by_class: Vec<String> = Class::ALL
        .iter()
        .filter_map(|&class| {
            let n = report.changes.iter().filter(|c| c.class == class).count();
            (n > 0).then(|| format!("{n} {}", class.name()))
        })
        .collect();
    let changes = report.changes.len();
    let failing = report.failing();
    let allowed = report
        .changes
        .iter()
        .filter(|c| c.class.is_breaking() && !report.fails(c))
        .count();
    let mut out = format!(
        "{head}: {changes} change{} ({}); {failing} breaking",
        if changes == 1 { "" } else { "s" },
        by_class.join(", ")
    );
    if allowed > 0 {
        out.push_str(&format!(", {allowed} allowed"));
    }
    out.push('\n');
    out
}

pub fn json(report: &Report<'_>) -> Json {
    let position = |source: &SourceText, offset: usize| {
        let (line, column) = source.line_column(offset);
        json!({ "line": line, "column": column, "offset": offset })
    };
    let range = |source: &SourceText, span: Span| json!({ "start": position(source, span.start()), "end": position(source, span.end()) });
    let changes: Vec<Json> = report
        .changes
        .iter()
        .enumerate()
        .map(|(index, change)| {
            let (source, span) = report.located(change.at);
            json!({
                "class": change.class.name(),
                "breaking": change.class.is_breaking(),
                "allowed": change.class.is_breaking() && !report.fails(change),
                "subject": change.subject,
                "message": change.message,
                "side": match change.at { At::New(_) => "new", At::Old(_) => "old" },
                "file": source.display_path(),
                "range": range(source, span),
                "was": change.was.map(|was| {
                    let (old, span, text) = report.was(was);
                    json!({ "file": old.display_path(), "range": range(old, span), "text": text })
                }),
                "affected": change.affected.as_ref().map(|a| json!({
                    "entity": a.name,
                    "table": a.table,
                    "keys": a.keys.iter().map(|(attr, text)| (attr.clone(), Json::String(text.clone()))).collect::<serde_json::Map<_, _>>(),
                    "count": report.count(index).map(|c| json!({
                        "items": c.items,
                        "complete": c.complete,
                        "read": if c.query { "Query" } else { "Scan" },
                        "table": report.counted_in.unwrap_or(&a.table),
                    })),
                })),
                "steps": change.steps,
            })
        })
        .collect();
    let mut classes = serde_json::Map::new();
    for class in Class::ALL {
        let n = report.changes.iter().filter(|c| c.class == class).count();
        classes.insert(class.name().into(), json!(n));
    }
    json!({
        "old": report.old_name,
        "new": report.new_name,
        "changes": changes,
        "summary": { "classes": classes, "breaking": report.failing() },
    })
}

/// One workflow command per change: `::error` for a failing one,
/// `::warning` for an allowed breaking one, `::notice` for the rest.
pub fn github(report: &Report<'_>) -> String {
    let mut out = String::new();
    for change in report.changes {
        let (source, span) = report.located(change.at);
        let (line, col) = source.line_column(span.start());
        let (end_line, end_col) = source.line_column(span.end());
        let command = match report.level(change) {
            "error" => "error",
            "warning" => "warning",
            _ => "notice",
        };
        let mut message = change.message.clone();
        if let Some(was) = change.was {
            message.push_str(&format!("\nwas: {}", first_line(report.was(was).2)));
        }
        for (n, step) in change.steps.iter().enumerate() {
            message.push_str(&format!("\nstep {}: {step}", n + 1));
        }
        out.push_str(&format!(
            "::{command} file={},line={line},col={col},endLine={end_line},endColumn={end_col},title={}::{}\n",
            github::property(&source.display_path()),
            github::property(&format!("dyno diff: {}", change.class.name())),
            github::data(&message)
        ));
    }
    out
}

/// The first line of a declaration (a whole entity is shown by its head).
fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("").trim_end()
}
