//! The DynoTable page in the editor: `dyno view`'s page of the file
//! (sample items), with a pattern picked; the lenses that open it are in
//! `code_lens`.

use super::File;
use crate::check::sample::Options;
use crate::view::{self, Source};

/// The command a lens runs; its arguments are the document's URI and the
/// pattern to pick (absent on a table).
pub const COMMAND: &str = "dyno.view";

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
