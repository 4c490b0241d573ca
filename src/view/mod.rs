//! `dyno view`: the DynoTable page. One self-contained HTML file showing
//! the base table and each index as item collections (sample items, or
//! the user's own), every key decoded by its entity's template, the prefix
//! registry, and a pattern picker that highlights the items each pattern's
//! read returns. The highlighted rows come from `dyno verify`'s plan
//! (`verify::plan`), evaluated here in Rust; the page's script only toggles
//! classes. Pure and deterministic: the same input gives the same bytes.

mod items;
mod model;
mod render;
#[cfg(test)]
mod tests;

pub use items::{Items, Source, ViewItem};
pub use model::{Grid, KeyCell, Page, PatternView, Row, Segment};
pub use render::esc;

use crate::check::Analysis;

/// The page model of a schema (`texts`: its files' texts, by `FileId`)
/// over the items.
pub fn page_model(texts: &[&str], analysis: &Analysis, items: Source) -> Page {
    let items = items::collect(&analysis.schema.model, items);
    model::build(texts, analysis, items)
}

/// The HTML page; `title` names the schema; `initial` is the pattern
/// picked when the page opens (unknown names pick none).
pub fn page(title: &str, texts: &[&str], analysis: &Analysis, items: Source, initial: Option<&str>) -> String {
    let page = page_model(texts, analysis, items);
    render::html(&analysis.schema.model, &page, title, initial)
}
