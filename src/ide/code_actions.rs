//! Quick fixes: the fixes the checker attached to the diagnostics a range
//! touches (did-you-mean names and prefixes, `pad` for an unpadded sort
//! value, the proposed index for a pattern no Query serves). The checker
//! builds each fix from what it knows; nothing here reads messages.

use super::File;
use crate::diagnostic::Code;
use crate::syntax::{FileSpan, Span};

/// One fix of one diagnostic, as plain data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Action {
    pub title: String,
    /// Non-overlapping edits, each in its file; an empty span inserts.
    pub edits: Vec<(FileSpan, String)>,
    /// The code of the diagnostic it fixes.
    pub code: Code,
    /// The diagnostic it fixes: an index into `analysis.diagnostics()`.
    pub diagnostic: usize,
    /// The one obvious fix: the only suggestion for a misspelt name or
    /// value, safe to apply without looking.
    pub preferred: bool,
}

/// Codes whose fix replaces a misspelling with the closest thing that exists.
const DID_YOU_MEAN: &[Code] = &[
    Code::UnknownHoleAttribute,
    Code::NotAKeyAttribute,
    Code::UnknownEntity,
    Code::UnknownValue,
    Code::UnknownTableOrIndex,
    Code::UnknownType,
    Code::NoTable,
    Code::UnknownPatternAttribute,
    Code::UnmatchedValue,
    Code::InvalidFixedValue,
];

/// The fixes of every diagnostic that overlaps `range` (an empty range is a
/// cursor, which touches a diagnostic at either end), in source order.
pub fn actions(file: &File, range: Span) -> Vec<Action> {
    let mut actions = Vec::new();
    for (index, diagnostic) in file.analysis.diagnostics().iter().enumerate() {
        let span = diagnostic.span;
        if span.start() > range.end() || range.start() > span.end() {
            continue;
        }
        let preferred = diagnostic.fixes.len() == 1 && DID_YOU_MEAN.contains(&diagnostic.code);
        actions.extend(diagnostic.fixes.iter().map(|fix| Action {
            title: fix.title.clone(),
            edits: fix.edits.clone(),
            code: diagnostic.code,
            diagnostic: index,
            preferred,
        }));
    }
    actions
}
