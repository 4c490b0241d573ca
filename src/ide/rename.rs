//! Rename entities, attributes (and the holes that use them), indexes,
//! keys, patterns, values, and type tags (`USER` → `USR` in every template
//! and condition literal that uses the tag, and nowhere else).

use super::File;
use super::locate::{self, Symbol};
use crate::syntax::Span;
use crate::syntax::template::is_identifier;

/// The span that would be renamed, or `None` where nothing can be.
pub fn prepare(file: &File, offset: usize) -> Option<Span> {
    locate::at(file.occurrences(), offset).map(|o| o.span)
}

/// Every edit of the rename, or why it cannot be done.
pub fn rename(file: &File, offset: usize, new_name: &str) -> Result<Vec<(Span, String)>, String> {
    let target = locate::at(file.occurrences(), offset).ok_or("there is nothing to rename here")?;
    match &target.symbol {
        Symbol::Tag { table, .. } => {
            let delimiter = &file.analysis.model.tables[*table].delimiter;
            if new_name.is_empty() || new_name.contains(delimiter.as_str()) || new_name.contains(['"', '{', '}', '\\'])
            {
                return Err(format!(
                    "a type tag is non-empty literal text without `{delimiter}`, quotes or braces"
                ));
            }
        }
        _ if !is_identifier(new_name) => return Err(format!("`{new_name}` is not a valid name")),
        _ => {}
    }
    let edits: Vec<(Span, String)> = file
        .occurrences()
        .iter()
        .filter(|o| o.symbol == target.symbol)
        .map(|o| (o.span, new_name.to_string()))
        .collect();
    Ok(edits)
}
