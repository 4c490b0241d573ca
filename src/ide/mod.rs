//! Editor features as pure functions of a file's analysis and a byte
//! offset, returning plain data. One file per feature; `src/lsp` turns the
//! data into protocol types.

pub mod code_actions;
pub mod code_lens;
pub mod completion;
pub mod design;
pub mod folding;
pub mod format;
pub mod goto;
pub mod highlight;
pub mod hover;
pub mod inlay;
pub mod locate;
pub mod references;
pub mod rename;
pub mod schema_diff;
pub mod selection;
pub mod semantic_tokens;
pub mod signature;
pub mod symbols;
pub mod view;

use std::sync::{Arc, OnceLock};

use crate::check::describe::{self, Served};
use crate::check::model::PatternId;
use crate::check::{self, Analysis};
use locate::Occurrence;

/// One analysed file. Built once per document version; whatever an editor
/// feature derives from it that is costly is computed at most once, here.
pub struct File {
    pub text: Arc<str>,
    pub analysis: Analysis,
    occurrences: OnceLock<Vec<Occurrence>>,
    /// Per pattern, filled as hovers and hints ask: a hover describes one
    /// pattern, and must not wait for all of a large file's. Boxed: most
    /// are never asked, and an empty slot would be as large as an answer.
    served: Vec<OnceLock<Option<Box<Served>>>>,
    /// The "Design keys" action, designed at most once: the designer runs
    /// several full checks.
    designed: OnceLock<Option<design::DesignKeys>>,
}

impl File {
    /// A text on its own, as a schema of one file.
    pub fn new(text: String) -> File {
        let analysis = check::analyze(&text);
        File::from_analysis(text.into(), analysis)
    }

    /// The editor view of a file the workspace database analysed.
    pub fn from_analysis(text: Arc<str>, analysis: Analysis) -> File {
        let served = (0..analysis.schema.model.patterns.len())
            .map(|_| OnceLock::new())
            .collect();
        File {
            text,
            analysis,
            occurrences: OnceLock::new(),
            served,
            designed: OnceLock::new(),
        }
    }

    /// Every name in the file with what it refers to, in source order.
    pub fn occurrences(&self) -> &[Occurrence] {
        self.occurrences.get_or_init(|| locate::occurrences(&self.analysis))
    }

    /// The occurrence under the cursor: from the file's index once built,
    /// else from the items at `offset` alone (a hover right after an edit
    /// should not wait for an index of the whole file).
    pub fn occurrence_at(&self, offset: usize) -> Option<Occurrence> {
        match self.occurrences.get() {
            Some(all) => locate::at(all, offset).cloned(),
            None => locate::at(&locate::occurrences_near(&self.analysis, offset), offset).cloned(),
        }
    }

    /// The type tags the entities' key templates write (and, once the
    /// index is built, every other occurrence too: the caller filters).
    pub fn tags_written(&self) -> std::borrow::Cow<'_, [Occurrence]> {
        match self.occurrences.get() {
            Some(all) => std::borrow::Cow::Borrowed(all),
            None => std::borrow::Cow::Owned(locate::tags_written(&self.analysis)),
        }
    }

    /// How the pattern is served (`None` where no single Query serves it),
    /// computed once: hovers and inlay hints ask for it on every request.
    pub fn served(&self, pattern: PatternId) -> Option<&Served> {
        self.served
            .get(pattern.index())?
            .get_or_init(|| describe::served(&self.analysis.schema, pattern).map(Box::new))
            .as_deref()
    }

    /// Whether the schema is this file alone (not a folder's files): the
    /// features that rewrite the whole schema's text need that.
    pub fn alone(&self) -> bool {
        let this = self.analysis.file;
        let model = &self.analysis.schema.model;
        model.tables.iter().all(|t| t.file == this)
            && model.entities.iter().all(|e| e.file == this)
            && model.patterns.iter().all(|p| p.file == this)
    }

    /// The "Design keys" action of the whole file, when one is worth
    /// offering, computed once.
    pub fn designed(&self) -> Option<&design::DesignKeys> {
        self.designed.get_or_init(|| design::design_file(self)).as_ref()
    }
}
