//! The DynoTable page in the editor: a lens above each table and each
//! pattern that opens `dyno view`'s page of the file (sample items), with
//! that pattern picked.

use super::File;
use crate::check::sample::Options;
use crate::syntax::Span;
use crate::view::{self, Source};

/// The command a lens runs; its arguments are the document's URI and the
/// pattern to pick (absent on a table).
pub const COMMAND: &str = "dyno.view";

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lens {
    /// The table's or pattern's name.
    pub span: Span,
    pub title: String,
    pub pattern: Option<String>,
}

pub fn lenses(file: &File) -> Vec<Lens> {
    let model = &file.analysis.schema.model;
    let tables = model.tables.iter().map(|table| Lens {
        span: table.name.span,
        title: "View table".into(),
        pattern: None,
    });
    let patterns = model.patterns.iter().map(|pattern| Lens {
        span: pattern.name.span,
        title: "View items read".into(),
        pattern: Some(pattern.name.text.clone()),
    });
    tables.chain(patterns).collect()
}

/// The page of the file over its sample items; `title` names the file.
pub fn page(file: &File, title: &str, pattern: Option<&str>) -> String {
    view::page(
        title,
        &file.text,
        &file.analysis,
        Source::Samples(Options::default()),
        pattern,
    )
}
