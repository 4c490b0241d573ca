//! Editor features as pure functions of a file's analysis and a byte
//! offset, returning plain data. One file per feature; `src/lsp` turns the
//! data into protocol types.

pub mod code_actions;
pub mod completion;
pub mod folding;
pub mod format;
pub mod goto;
pub mod hover;
pub mod inlay;
pub mod locate;
pub mod references;
pub mod rename;
mod sample;
pub mod semantic_tokens;
pub mod symbols;

use std::sync::OnceLock;

use crate::check::{self, Analysis};
use locate::Occurrence;

/// One analysed file. Built once per document version; whatever an editor
/// feature derives from it that is costly is computed at most once, here.
pub struct File {
    pub text: String,
    pub analysis: Analysis,
    occurrences: OnceLock<Vec<Occurrence>>,
}

impl File {
    pub fn new(text: String) -> File {
        File::new_with(text, |_| {})
    }

    /// [`File::new`], handing the syntax tree to `parsed` before the
    /// semantic passes start (see [`check::analyze_with`]).
    pub fn new_with(text: String, parsed: impl FnOnce(&crate::syntax::Parse)) -> File {
        let analysis = check::analyze_with(&text, parsed);
        File {
            text,
            analysis,
            occurrences: OnceLock::new(),
        }
    }

    /// Every name in the file with what it refers to, in source order.
    pub fn occurrences(&self) -> &[Occurrence] {
        self.occurrences.get_or_init(|| locate::occurrences(&self.analysis))
    }
}
