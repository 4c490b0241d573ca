//! Find references: every occurrence of the symbol under the cursor.

use super::File;
use super::locate::{self, Occurrence, Symbol};
use crate::syntax::FileSpan;

/// Each in its file: every occurrence is in the file itself.
pub fn references(file: &File, offset: usize, include_declaration: bool) -> Vec<FileSpan> {
    references_in(&[file], 0, offset, include_declaration)
}

/// [`references`] in a schema of several files (`files` share one
/// analysis; the cursor is in `files[current]`): every file's occurrences.
pub fn references_in(files: &[&File], current: usize, offset: usize, include_declaration: bool) -> Vec<FileSpan> {
    let Some(target) = locate::at(files[current].occurrences(), offset) else {
        return Vec::new();
    };
    let symbols = std::slice::from_ref(&target.symbol);
    files
        .iter()
        .flat_map(|file| {
            of_symbols(file, symbols)
                .filter(|o| include_declaration || !o.declaration)
                .map(|o| file.analysis.file.at(o.span))
        })
        .collect()
}

/// Every occurrence (declarations included) of any of the symbols, in
/// source order.
pub fn of_symbols<'f>(file: &'f File, symbols: &'f [Symbol]) -> impl Iterator<Item = &'f Occurrence> + 'f {
    file.occurrences().iter().filter(move |o| symbols.contains(&o.symbol))
}
