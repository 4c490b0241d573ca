//! Find references: every occurrence of the symbol under the cursor.

use super::File;
use super::locate::{self, Occurrence, Symbol};
use crate::syntax::FileSpan;

/// Each in its file: today every occurrence is in the file itself (a
/// schema of several files will add the others' here).
pub fn references(file: &File, offset: usize, include_declaration: bool) -> Vec<FileSpan> {
    let Some(target) = locate::at(file.occurrences(), offset) else {
        return Vec::new();
    };
    of_symbols(file, std::slice::from_ref(&target.symbol))
        .filter(|o| include_declaration || !o.declaration)
        .map(|o| file.analysis.file.at(o.span))
        .collect()
}

/// Every occurrence (declarations included) of any of the symbols, in
/// source order.
pub fn of_symbols<'f>(file: &'f File, symbols: &'f [Symbol]) -> impl Iterator<Item = &'f Occurrence> + 'f {
    file.occurrences().iter().filter(move |o| symbols.contains(&o.symbol))
}
