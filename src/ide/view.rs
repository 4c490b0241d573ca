//! The DynoTable page in the editor: `dyno view`'s page of the file
//! (sample items), with a pattern picked; the lenses that open it are in
//! `code_lens`.

use super::File;
use crate::check::sample::Options;
use crate::view::{self, Source};

/// The command a lens runs; its arguments are the document's URI and the
/// pattern to pick (absent on a table).
pub const COMMAND: &str = "dyno.view";

/// The page of the schema over its sample items: `files` are the views of
/// its files (one, or a folder's), `files[current]` the document asked
/// about; `title` names it.
pub fn page(files: &[&File], current: usize, title: &str, pattern: Option<&str>) -> String {
    // The texts by `FileId`, as the checker numbers the files.
    let len = files.iter().map(|f| f.analysis.file.index() + 1).max().unwrap_or(0);
    let mut texts = vec![""; len];
    for f in files {
        texts[f.analysis.file.index()] = &f.text;
    }
    view::page(
        title,
        &texts,
        &files[current].analysis,
        Source::Samples(Options::default()),
        pattern,
    )
}
