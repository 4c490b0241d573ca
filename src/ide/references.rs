//! Find references: every occurrence of the symbol under the cursor.

use super::File;
use super::locate::{self};
use crate::syntax::FileSpan;

/// Each in its file: today every occurrence is in the file itself (a
/// schema of several files will add the others' here).
pub fn references(file: &File, offset: usize, include_declaration: bool) -> Vec<FileSpan> {
    let Some(target) = locate::at(file.occurrences(), offset) else {
        return Vec::new();
    };
    file.occurrences()
        .iter()
        .filter(|o| o.symbol == target.symbol && (include_declaration || !o.declaration))
        .map(|o| file.analysis.file.at(o.span))
        .collect()
}
