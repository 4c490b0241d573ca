//! What every handler can see: the documents, the negotiated position
//! encoding and the workspace folders.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use tower_lsp::lsp_types::{SymbolInformation, Url};

use super::documents::{Documents, Snapshot};
use super::position::Encoding;
use crate::db::Workspace;
use crate::syntax::FileId;

/// The `.dyno` files of the workspace folders that are not open: a
/// workspace database of their own (a folder is not yet one schema), and
/// their symbols as the protocol has them, per revision.
#[derive(Default)]
pub struct DiskFiles {
    inner: Mutex<DiskInner>,
}

#[derive(Default)]
pub struct DiskInner {
    pub workspace: Workspace,
    pub symbols: HashMap<FileId, (u64, Arc<Vec<SymbolInformation>>)>,
}

impl DiskFiles {
    pub fn lock(&self) -> MutexGuard<'_, DiskInner> {
        self.inner.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[derive(Default)]
pub struct State {
    pub documents: Documents,
    utf8: AtomicBool,
    /// Whether the client takes snippets in completions.
    snippets: AtomicBool,
    /// Whether the client takes versioned document edits
    /// (`workspace.workspaceEdit.documentChanges`).
    versioned_edits: AtomicBool,
    pub workspace_folders: Mutex<Vec<PathBuf>>,
    /// Shared by every pinned view.
    pub disk: Arc<DiskFiles>,
    /// Setting `diffAgainstHead` (off by default): compare each open
    /// schema with its version at git `HEAD`.
    diff_against_head: AtomicBool,
    /// The versions at `HEAD` read so far, checked, by path: shared by
    /// every pinned view, so each is analysed once per text.
    pub heads: Arc<Mutex<HashMap<PathBuf, Arc<Head>>>>,
}

/// A file's text at git `HEAD` and its analysis.
pub struct Head {
    pub text: String,
    pub analysis: crate::check::Analysis,
}

impl State {
    pub fn encoding(&self) -> Encoding {
        if self.utf8.load(Ordering::Relaxed) {
            Encoding::Utf8
        } else {
            Encoding::Utf16
        }
    }

    pub fn set_encoding(&self, encoding: Encoding) {
        self.utf8.store(encoding == Encoding::Utf8, Ordering::Relaxed);
    }

    pub fn snippets(&self) -> bool {
        self.snippets.load(Ordering::Relaxed)
    }

    pub fn set_snippets(&self, supported: bool) {
        self.snippets.store(supported, Ordering::Relaxed);
    }

    pub fn diff_against_head(&self) -> bool {
        self.diff_against_head.load(Ordering::Relaxed)
    }

    pub fn set_diff_against_head(&self, on: bool) {
        self.diff_against_head.store(on, Ordering::Relaxed);
    }

    pub fn versioned_edits(&self) -> bool {
        self.versioned_edits.load(Ordering::Relaxed)
    }

    pub fn set_versioned_edits(&self, supported: bool) {
        self.versioned_edits.store(supported, Ordering::Relaxed);
    }

    pub fn snapshot(&self, uri: &Url) -> Option<Snapshot> {
        self.documents.snapshot(uri)
    }

    /// A copy that no later edit changes: the same texts and analyses
    /// (shared, so an analysis computed through it is cached for all), for
    /// a request to answer about the documents as they were when it came.
    pub fn pinned(&self) -> State {
        State {
            documents: self.documents.pinned(),
            utf8: AtomicBool::new(self.utf8.load(Ordering::Relaxed)),
            snippets: AtomicBool::new(self.snippets()),
            versioned_edits: AtomicBool::new(self.versioned_edits()),
            workspace_folders: Mutex::new(self.folders()),
            disk: self.disk.clone(),
            diff_against_head: AtomicBool::new(self.diff_against_head()),
            heads: self.heads.clone(),
        }
    }

    pub fn folders(&self) -> Vec<PathBuf> {
        self.workspace_folders.lock().map(|f| f.clone()).unwrap_or_default()
    }
}
