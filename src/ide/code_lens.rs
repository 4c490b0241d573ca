//! Code lenses: above each table "View table"; above each pattern how it
//! is read (`gsi1 · Query · 0.5 RCU`, or `2 errors` while no single Query
//! serves it), which opens the DynoTable page with the pattern picked, and
//! "Copy Query" / "Copy AWS CLI" for the request itself.

use super::File;
use crate::diagnostic::Severity;
use crate::syntax::Span;

/// What a lens does when clicked; each is a command of the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Opens the DynoTable page (`ide::view`).
    View,
    /// Answers the request JSON of the pattern, for the clipboard.
    CopyQuery,
    /// Answers `aws dynamodb query --cli-input-json '…'`.
    CopyAwsCli,
}

impl Action {
    pub const ALL: [Action; 3] = [Action::View, Action::CopyQuery, Action::CopyAwsCli];

    /// The `workspace/executeCommand` name; its arguments are the
    /// document's URI and the pattern (absent on a table's view).
    pub fn command(self) -> &'static str {
        match self {
            Action::View => super::view::COMMAND,
            Action::CopyQuery => "dyno.copyQuery",
            Action::CopyAwsCli => "dyno.copyAwsCli",
        }
    }

    pub fn from_command(command: &str) -> Option<Action> {
        Action::ALL.into_iter().find(|a| a.command() == command)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lens {
    /// The table's or pattern's name.
    pub span: Span,
    pub title: String,
    pub action: Action,
    pub pattern: Option<String>,
}

pub fn lenses(file: &File) -> Vec<Lens> {
    let model = &file.analysis.schema.model;
    // Only what this file declares: a folder's other files have their own.
    let this = file.analysis.file;
    let mut out: Vec<Lens> = model
        .tables
        .iter()
        .filter(|table| table.file == this)
        .map(|table| Lens {
            span: table.name.span,
            title: "View table".into(),
            action: Action::View,
            pattern: None,
        })
        .collect();
    let errors: Vec<Span> = file
        .analysis
        .diagnostics()
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.span)
        .collect();
    for (id, pattern) in model.pattern_ids().filter(|(_, p)| p.file == this) {
        let lens = |title: String, action| Lens {
            span: pattern.name.span,
            title,
            action,
            pattern: Some(pattern.name.text.to_string()),
        };
        match file.served(id) {
            Some(served) => {
                let title = format!(
                    "{} · {} · {}",
                    served.place(),
                    served.read.name(),
                    served.cost.rcu_label()
                );
                out.push(lens(title, Action::View));
                out.push(lens("Copy Query".into(), Action::CopyQuery));
                out.push(lens("Copy AWS CLI".into(), Action::CopyAwsCli));
            }
            None => {
                let n = errors
                    .iter()
                    .filter(|e| e.start() >= pattern.span.start() && e.end() <= pattern.span.end())
                    .count();
                let title = match n {
                    0 => "no single Query".to_string(),
                    1 => "1 error".to_string(),
                    n => format!("{n} errors"),
                };
                out.push(lens(title, Action::View));
            }
        }
    }
    out
}

/// The text a copy lens puts on the clipboard: the pattern's request
/// JSON (pretty) or its AWS CLI command. `None` for a pattern no single
/// Query serves, or no copy action.
pub fn copied(file: &File, action: Action, pattern: &str) -> Option<String> {
    let (id, _) = file
        .analysis
        .schema
        .model
        .pattern_ids()
        .find(|(_, p)| p.name.text == pattern)?;
    let served = file.served(id)?;
    match action {
        Action::CopyQuery => serde_json::to_string_pretty(&served.request).ok(),
        Action::CopyAwsCli => Some(served.aws_cli()),
        Action::View => None,
    }
}
