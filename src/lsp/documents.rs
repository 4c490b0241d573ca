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
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use ropey::Rope;
use tower_lsp::lsp_types::{TextDocumentContentChangeEvent, Url};

use super::position::{self, Encoding};
use crate::diagnostic::Diagnostic;
use crate::ide;

/// The analysis of one revision, computed by whoever needs it first.
type Analysed = Arc<OnceLock<Arc<ide::File>>>;

#[derive(Clone)]
struct Document {
    rope: Rope,
    version: i32,
    revision: u64,
    file: Analysed,
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
    docs: Mutex<HashMap<Url, Document>>,
    revisions: AtomicU64,
}

impl Documents {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Url, Document>> {
        // A panic elsewhere must not take every document down with it.
        self.docs.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn next_revision(&self) -> u64 {
        self.revisions.fetch_add(1, Ordering::Relaxed) + 1
    }

    /// Opens (or replaces) a document; returns its revision.
    pub fn open(&self, uri: Url, text: &str, version: i32) -> u64 {
        let mut docs = self.lock();
        let revision = self.next_revision();
        let replaced = docs.insert(
            uri,
            Document {
                rope: Rope::from_str(text),
                version,
                revision,
                file: Analysed::default(),
            },
        );
        drop(docs);
        if let Some(old) = replaced {
            release(old.file);
        }
        revision
    }

    /// The documents as they are now, in a store of their own; their
    /// analyses are shared with this store.
    pub fn pinned(&self) -> Documents {
        Documents {
            docs: Mutex::new(self.lock().clone()),
            revisions: AtomicU64::new(self.revisions.load(Ordering::Relaxed)),
        }
    }

    /// Forgets a document; `false` when it was not open.
    pub fn close(&self, uri: &Url) -> bool {
        let removed = self.lock().remove(uri);
        removed.map(|doc| release(doc.file)).is_some()
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
        let mut docs = self.lock();
        let doc = docs.get_mut(uri)?;
        for change in changes {
            match change.range {
                None => doc.rope = Rope::from_str(&change.text),
                Some(range) => {
                    let start = position::offset_clamped(&doc.rope, range.start, encoding);
                    let end = position::offset_clamped(&doc.rope, range.end, encoding).max(start);
                    let (start_char, end_char) = (doc.rope.byte_to_char(start), doc.rope.byte_to_char(end));
                    doc.rope.remove(start_char..end_char);
                    doc.rope.insert(start_char, &change.text);
                }
            }
        }
        doc.version = version;
        doc.revision = self.next_revision();
        let revision = doc.revision;
        let superseded = std::mem::take(&mut doc.file);
        drop(docs);
        release(superseded);
        Some(revision)
    }

    /// The current revision of an open document.
    pub fn revision(&self, uri: &Url) -> Option<u64> {
        self.lock().get(uri).map(|d| d.revision)
    }

    /// The current text, version and revision, without analysing it.
    pub fn text(&self, uri: &Url) -> Option<(Rope, i32, u64)> {
        self.lock().get(uri).map(|d| (d.rope.clone(), d.version, d.revision))
    }

    pub fn uris(&self) -> Vec<Url> {
        self.lock().keys().cloned().collect()
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
        let (rope, version, revision, cell) = {
            let docs = self.lock();
            let doc = docs.get(uri)?;
            (doc.rope.clone(), doc.version, doc.revision, doc.file.clone())
        };
        // The cell belongs to this revision: an edit meanwhile gives the
        // document a new one, so the result is never cached for other text.
        let file = cell
            .get_or_init(|| {
                let text = rope.to_string();
                Arc::new(ide::File::new_with(text, |parse| parsed(&rope, &parse.diagnostics)))
            })
            .clone();
        Some(Snapshot {
            uri: uri.clone(),
            version,
            revision,
            rope,
            file,
        })
    }
}

/// Frees a superseded analysis off the caller's thread when a runtime is
/// there to do it: dropping the tree and model of a large file takes
/// milliseconds, which the edit that made them stale should not wait for.
fn release(file: Analysed) {
    if file.get().is_none() {
        return;
    }
    match tokio::runtime::Handle::try_current() {
        Ok(runtime) => drop(runtime.spawn_blocking(move || drop(file))),
        Err(_) => drop(file),
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
