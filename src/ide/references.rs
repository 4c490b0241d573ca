//! Find references: every occurrence of the symbol under the cursor.

use super::File;
use super::locate::{self};
use crate::syntax::Span;

pub fn references(file: &File, offset: usize, include_declaration: bool) -> Vec<Span> {
    let Some(target) = locate::at(file.occurrences(), offset) else {
        return Vec::new();
    };
    file.occurrences()
        .iter()
        .filter(|o| o.symbol == target.symbol && (include_declaration || !o.declaration))
        .map(|o| o.span)
        .collect()
}
