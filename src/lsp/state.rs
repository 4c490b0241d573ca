//! What every handler can see: the documents, the negotiated position
//! encoding and the workspace folders.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use tower_lsp::lsp_types::Url;

use super::documents::{Documents, Snapshot};
use super::handlers::workspace_symbol::DiskCache;
use super::position::Encoding;

#[derive(Default)]
pub struct State {
    pub documents: Documents,
    utf8: AtomicBool,
    /// Whether the client takes snippets in completions.
    snippets: AtomicBool,
    pub workspace_folders: Mutex<Vec<PathBuf>>,
    /// Shared by every pinned view.
    pub disk_symbols: Arc<DiskCache>,
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
            workspace_folders: Mutex::new(self.folders()),
            disk_symbols: self.disk_symbols.clone(),
        }
    }

    pub fn folders(&self) -> Vec<PathBuf> {
        self.workspace_folders.lock().map(|f| f.clone()).unwrap_or_default()
    }
}
