//! Open documents. Edits are applied here synchronously — handlers call
//! this before their first `.await`, so edits land in the order the client
//! sent them even though tower-lsp runs handlers concurrently. Analyses are
//! cached per document revision: a request never re-analyses an unchanged
//! document, requests that need a revision while it is being analysed wait
//! for that analysis instead of starting their own, and every result
//! carries the revision it was computed from.
//!
//! A revision names one exact text: every open and every change gets a new
//! one, from one counter for the whole store. The client's version number
//! is not enough — a document closed and reopened starts again at the same
//! version with another text.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use ropey::Rope;
use tower_lsp::lsp_types::{TextDocumentContentChangeEvent, Url};

use super::position::{self, Encoding};
use crate::db::{Superseded, Workspace};
use crate::diagnostic::Diagnostic;
use crate::ide;
use crate::syntax::FileId;

/// The editor view of one revision, computed by whoever needs it first.
type Analysed = Arc<OnceLock<Arc<ide::File>>>;

#[derive(Clone)]
struct Document {
    file: FileId,
    version: i32,
    view: Analysed,
}

/// The open documents: their texts live in the workspace database, which
/// caches what is derived from them per revision; this adds what only the
/// protocol knows (URIs, client versions) and the editor view of each.
#[derive(Clone, Default)]
struct Store {
    workspace: Workspace,
    docs: HashMap<Url, Document>,
}

/// An immutable view of one document revision and its analysis.
#[derive(Clone)]
pub struct Snapshot {
    pub uri: Url,
    pub version: i32,
    pub revision: u64,
    pub rope: Rope,
    pub file: Arc<ide::File>,
}

#[derive(Default)]
pub struct Documents {
    store: Mutex<Store>,
}

impl Documents {
    fn lock(&self) -> std::sync::MutexGuard<'_, Store> {
        // A panic elsewhere must not take every document down with it.
        self.store.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Opens (or replaces) a document; returns its revision.
    pub fn open(&self, uri: Url, text: &str, version: i32) -> u64 {
        let mut store = self.lock();
        let (file, superseded) = store.workspace.set_text(uri.as_str(), Rope::from_str(text));
        let replaced = store.docs.insert(
            uri,
            Document {
                file,
                version,
                view: Analysed::default(),
            },
        );
        let revision = store.workspace.revision(file);
        drop(store);
        release(superseded, replaced.map(|d| d.view));
        revision
    }

    /// The documents as they are now, in a store of their own; their
    /// analyses are shared with this store.
    pub fn pinned(&self) -> Documents {
        Documents {
            store: Mutex::new(self.lock().clone()),
        }
    }

    /// Forgets a document; `false` when it was not open.
    pub fn close(&self, uri: &Url) -> bool {
        let mut store = self.lock();
        let Some(doc) = store.docs.remove(uri) else {
            return false;
        };
        let superseded = store.workspace.close(doc.file);
        drop(store);
        release(superseded, Some(doc.view));
        true
    }

    /// Applies a `didChange` in order. Returns the new revision, or `None`
    /// for an unknown document.
    pub fn change(
        &self,
        uri: &Url,
        version: i32,
        changes: &[TextDocumentContentChangeEvent],
        encoding: Encoding,
    ) -> Option<u64> {
        let mut store = self.lock();
        let file = store.docs.get(uri)?.file;
        let superseded = store.workspace.edit(file, |rope| {
            for change in changes {
                match change.range {
                    None => *rope = Rope::from_str(&change.text),
                    Some(range) => {
                        let start = position::offset_clamped(rope, range.start, encoding);
                        let end = position::offset_clamped(rope, range.end, encoding).max(start);
                        let (start_char, end_char) = (rope.byte_to_char(start), rope.byte_to_char(end));
                        rope.remove(start_char..end_char);
                        rope.insert(start_char, &change.text);
                    }
                }
            }
        });
        let revision = store.workspace.revision(file);
        let doc = store.docs.get_mut(uri)?;
        doc.version = version;
        let stale = std::mem::take(&mut doc.view);
        drop(store);
        release(superseded, Some(stale));
        Some(revision)
    }

    /// The current revision of an open document.
    pub fn revision(&self, uri: &Url) -> Option<u64> {
        let store = self.lock();
        store.docs.get(uri).map(|d| store.workspace.revision(d.file))
    }

    /// The current text, version and revision, without analysing it.
    pub fn text(&self, uri: &Url) -> Option<(Rope, i32, u64)> {
        let store = self.lock();
        let doc = store.docs.get(uri)?;
        Some((
            store.workspace.rope(doc.file),
            doc.version,
            store.workspace.revision(doc.file),
        ))
    }

    pub fn uris(&self) -> Vec<Url> {
        self.lock().docs.keys().cloned().collect()
    }

    /// The current revision with its analysis, computed at most once per
    /// revision (outside the lock, so edits are never held up by it).
    pub fn snapshot(&self, uri: &Url) -> Option<Snapshot> {
        self.snapshot_with(uri, |_, _| {})
    }

    /// [`Documents::snapshot`]; when this call is the one that analyses the
    /// revision, `parsed` gets its text and syntax errors as soon as they
    /// are known, before the semantic passes.
    pub fn snapshot_with(&self, uri: &Url, parsed: impl FnOnce(&Rope, &[Diagnostic])) -> Option<Snapshot> {
        let (workspace, doc) = {
            let store = self.lock();
            let doc = store.docs.get(uri)?.clone();
            // A snapshot of the database: cheap, and no later edit changes it.
            (store.workspace.clone(), doc)
        };
        let rope = workspace.rope(doc.file);
        // The cell belongs to this revision: an edit meanwhile gives the
        // document a new one, so the result is never cached for other text.
        let file = doc
            .view
            .get_or_init(|| {
                parsed(&rope, &workspace.parse(doc.file).diagnostics);
                // Each open document is a schema of its own (one file).
                let analysis = workspace.analysis(doc.file, &[doc.file]);
                Arc::new(ide::File::from_analysis(workspace.text(doc.file), analysis))
            })
            .clone();
        Some(Snapshot {
            uri: uri.clone(),
            version: doc.version,
            revision: workspace.revision(doc.file),
            rope,
            file,
        })
    }
}

/// Frees a superseded analysis off the caller's thread when a runtime is
/// there to do it: dropping the tree and model of a large file takes
/// milliseconds, which the edit that made them stale should not wait for.
fn release(superseded: Superseded, view: Option<Analysed>) {
    let heavy = superseded.is_heavy() || view.as_ref().is_some_and(|v| v.get().is_some());
    if !heavy {
        return;
    }
    match tokio::runtime::Handle::try_current() {
        Ok(runtime) => drop(runtime.spawn_blocking(move || drop((superseded, view)))),
        Err(_) => drop((superseded, view)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_open_and_change_is_a_new_revision() {
        let docs = Documents::default();
        let uri = Url::parse("file:///a.dyno").unwrap();
        let first = docs.open(uri.clone(), "table A {\n  key pk\n}\n", 1);
        assert_eq!(docs.snapshot(&uri).unwrap().revision, first);
        assert!(docs.close(&uri));
        assert!(!docs.close(&uri), "already closed");
        // Reopened at the same version with another text: another revision,
        // and the cached analysis of the first text is gone with it.
        let second = docs.open(uri.clone(), "table B {\n  key pk\n}\n", 1);
        assert_ne!(first, second);
        let snapshot = docs.snapshot(&uri).unwrap();
        assert_eq!((snapshot.revision, snapshot.version), (second, 1));
        assert!(snapshot.file.text.contains("table B"));
        let change = TextDocumentContentChangeEvent {
            range: None,
            range_length: None,
            text: "table C {\n  key pk\n}\n".into(),
        };
        let third = docs.change(&uri, 2, &[change], Encoding::Utf16).unwrap();
        assert!(third > second);
        assert_eq!(docs.revision(&uri), Some(third));
        assert!(docs.snapshot(&uri).unwrap().file.text.contains("table C"));
    }

    #[test]
    fn a_pinned_store_keeps_its_text_and_shares_analyses() {
        let docs = Documents::default();
        let uri = Url::parse("file:///a.dyno").unwrap();
        docs.open(uri.clone(), "table A {\n  key pk\n}\n", 1);
        let pinned = docs.pinned();
        // Analysed through the pinned store: cached for the live one too.
        let through_pinned = pinned.snapshot(&uri).unwrap();
        assert!(Arc::ptr_eq(&through_pinned.file, &docs.snapshot(&uri).unwrap().file));
        let change = TextDocumentContentChangeEvent {
            range: None,
            range_length: None,
            text: "table B {\n  key pk\n}\n".into(),
        };
        docs.change(&uri, 2, &[change], Encoding::Utf16).unwrap();
        let later = pinned.snapshot(&uri).unwrap();
        assert_eq!(later.version, 1);
        assert!(later.file.text.contains("table A"));
        assert!(docs.snapshot(&uri).unwrap().file.text.contains("table B"));
    }
}
