//! "Design keys": the refactoring that completes a schema with the key
//! templates and indexes `crate::design` proposes — offered on a table,
//! entity or pattern when the design changes anything (an entity lacks
//! keys, or a pattern no Query serves gets an index) and leaves fewer
//! errors than the schema has.
//!
//! The designer runs several full checks of the schema, and its cost grows
//! faster than the file: on generated schemas of keyless entities, a debug
//! build took 40 ms at 3.5 KB, 1.5 s at 8 KB, 3.3 s at 16 KB and 22 s at
//! 60 KB. A code-action request comes with every cursor move, so the design
//! runs only when the range touches a declaration and the file has errors,
//! at most once per revision (cached in [`File`]), never over syntax errors
//! (as `dyno design` refuses), and never on a file above [`MAX_BYTES`];
//! `dyno design FILE` works on any size.

use super::File;
use crate::design::{self, Options};
use crate::diagnostic::Severity;
use crate::syntax::Span;

/// Files larger than this get no "Design keys" action (16 KB: a few
/// times the examples, and well under a second of designing).
pub const MAX_BYTES: usize = 16 * 1024;

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
/// has; `None` otherwise. The design is made once per file (see
/// [`File::designed`]).
pub fn design_keys(file: &File, range: Span) -> Option<DesignKeys> {
    let touches = file
        .analysis
        .parse
        .file
        .items
        .iter()
        .map(|item| item.span())
        .any(|span| span.start() <= range.end() && range.start() <= span.end());
    if !touches {
        return None;
    }
    file.designed().cloned()
}

/// The design of a whole file, when it is worth offering: what
/// [`File::designed`] caches.
pub(super) fn design_file(file: &File) -> Option<DesignKeys> {
    // As `dyno design` refuses: a file with syntax errors (one being
    // typed) is not designed.
    // A file of a schema folder is not a schema on its own: `dyno design`
    // refuses it too.
    if file.text.len() > MAX_BYTES || !file.analysis.parse.diagnostics.is_empty() || !file.alone() {
        return None;
    }
    // Offered only when it helps by the checker's count: what lacks keys
    // or a Query is an error, so a useful design leaves fewer errors than
    // there are now. A schema without errors (the usual case) costs
    // nothing, and a design that would leave more is never offered.
    let errors = file
        .analysis
        .diagnostics()
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    if errors == 0 {
        return None;
    }
    let design = design::design(&file.text, &Options::default());
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
