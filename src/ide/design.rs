//! "Design keys": the refactoring that completes a schema with the key
//! templates and indexes `crate::design` proposes — offered on a table,
//! entity or pattern when the design changes anything (an entity lacks
//! keys, or a pattern no Query serves gets an index).
//!
//! The designer runs several full checks of the schema (tens of
//! milliseconds on a small file, more on a large one), so it runs only
//! when the range touches a declaration, and never on a file above
//! [`MAX_BYTES`]: a code-action request comes with every cursor move, and
//! the action is not worth a stall there. `dyno design FILE` works on any
//! size. Nothing is designed over syntax errors, as `dyno design` refuses.

use super::File;
use crate::design::{self, Options};
use crate::diagnostic::Severity;
use crate::syntax::Span;

/// Files larger than this get no "Design keys" action (64 KB).
pub const MAX_BYTES: usize = 64 * 1024;

/// The designed schema as edits of the file, as plain data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DesignKeys {
    pub title: String,
    /// Non-overlapping edits of the file (byte spans); an empty span inserts.
    pub edits: Vec<(Span, String)>,
}

/// The "Design keys" action when `range` touches a table, entity or
/// pattern (an empty range is a cursor, which touches a declaration at
/// either end) and the design edits the file, leaving fewer errors than it
/// has; `None` otherwise.
pub fn design_keys(file: &File, range: Span) -> Option<DesignKeys> {
    // As `dyno design` refuses: a file with syntax errors (one being
    // typed) is not designed.
    if file.text.len() > MAX_BYTES || !file.analysis.parse.diagnostics.is_empty() {
        return None;
    }
    let touches = file
        .analysis
        .parse
        .file
        .items
        .iter()
        .map(|item| item.span())
        .any(|span| span.start <= range.end && range.start <= span.end);
    if !touches {
        return None;
    }
    let design = design::design(&file.text, &Options::default());
    // Offered only when it helps by the checker's count: what lacks keys
    // or a Query is an error, so a useful design leaves fewer errors than
    // there are now (and one that would leave more is never offered).
    let errors = file
        .analysis
        .diagnostics()
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    if design.edits.is_empty() || design.errors >= errors {
        return None;
    }
    Some(DesignKeys {
        title: title(&design),
        edits: design.edits,
    })
}

/// What the design achieves: its indexes, and whether every pattern is one
/// Query.
fn title(design: &design::Design) -> String {
    let plural = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let indexes = match design.indexes {
        0 => "no index".to_string(),
        n => plural(n, "index", "indexes"),
    };
    let outcome = match (design.errors, design.unserved.len()) {
        (0, _) => "every pattern one Query".to_string(),
        (_, 0) => format!("{} left", plural(design.errors, "error", "errors")),
        (errors, unserved) => {
            let unserved = format!("{} unserved", plural(unserved, "pattern stays", "patterns stay"));
            match errors > design.unserved.len() {
                true => format!("{unserved}, {}", plural(errors, "error", "errors")),
                false => unserved,
            }
        }
    };
    format!("Design keys: {indexes}, {outcome}")
}
