//! Document highlight: the occurrences of the symbol under the cursor in
//! this file, each marked as where the name is declared or written
//! (`Write`) or where it is used (`Read`). The lookup is find-references'
//! (`references::of_symbols`); what is added here is which symbols a
//! cursor means and the kind of each occurrence.

use super::File;
use super::locate::{self, Symbol};
use super::references;
use crate::syntax::Span;
use crate::syntax::ast::Item;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// A declaration, or a key template writing a type tag into items.
    Write,
    /// Every other use.
    Read,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Highlight {
    pub span: Span,
    pub access: Access,
}

/// The highlights for the cursor, in source order, or none where the
/// cursor is on no name. A name standing for several symbols at once (a
/// pattern's known `userId` binds `userId` in each entity it returns)
/// highlights the occurrences of all of them.
pub fn highlights(file: &File, offset: usize) -> Vec<Highlight> {
    let occurrences = file.occurrences();
    let Some(target) = locate::at(occurrences, offset) else {
        return Vec::new();
    };
    let mut symbols: Vec<Symbol> = Vec::new();
    for o in occurrences.iter().filter(|o| o.span == target.span) {
        if !symbols.contains(&o.symbol) {
            symbols.push(o.symbol.clone());
        }
    }
    let patterns: Vec<Span> = file
        .analysis
        .parse
        .file
        .items
        .iter()
        .filter(|item| matches!(item, Item::Pattern(_)))
        .map(Item::span)
        .collect();
    let mut out: Vec<Highlight> = Vec::new();
    for o in references::of_symbols(file, &symbols) {
        // A type tag has no declaration: the key templates of entities
        // write it into items, a pinned query's condition reads it.
        let writes_tag = matches!(o.symbol, Symbol::Tag { .. }) && !patterns.iter().any(|p| p.contains(o.span.start()));
        let access = if o.declaration || writes_tag {
            Access::Write
        } else {
            Access::Read
        };
        match out.iter_mut().find(|h| h.span == o.span) {
            // One name, several symbols: a declaration of any is a write.
            Some(seen) => {
                if access == Access::Write {
                    seen.access = Access::Write;
                }
            }
            None => out.push(Highlight { span: o.span, access }),
        }
    }
    out
}
