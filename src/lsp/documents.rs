//! Open documents. Edits are applied here synchronously — handlers call
//! this before their first `.await`, so edits land in the order the client
//! sent them even though tower-lsp runs handlers concurrently. Analyses are
//! cached per document version: a request never re-analyses an unchanged
//! document, and every result carries the version it was computed from.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use ropey::Rope;
use tower_lsp::lsp_types::{TextDocumentContentChangeEvent, Url};

use super::position::{self, Encoding};
use crate::ide;

struct Document {
    rope: Rope,
    version: i32,
    file: Option<Arc<ide::File>>,
}

/// An immutable view of one document version and its analysis.
#[derive(Clone)]
pub struct Snapshot {
    pub uri: Url,
    pub version: i32,
    pub rope: Rope,
    pub file: Arc<ide::File>,
}

#[derive(Default)]
pub struct Documents {
    docs: Mutex<HashMap<Url, Document>>,
}

impl Documents {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Url, Document>> {
        // A panic elsewhere must not take every document down with it.
        self.docs.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub fn open(&self, uri: Url, text: &str, version: i32) {
        self.lock().insert(
            uri,
            Document {
                rope: Rope::from_str(text),
                version,
                file: None,
            },
        );
    }

    pub fn close(&self, uri: &Url) {
        self.lock().remove(uri);
    }

    /// Applies a `didChange` in order. Returns the new version, or `None`
    /// for an unknown document.
    pub fn change(
        &self,
        uri: &Url,
        version: i32,
        changes: &[TextDocumentContentChangeEvent],
        encoding: Encoding,
    ) -> Option<i32> {
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
        doc.file = None;
        Some(version)
    }

    pub fn version(&self, uri: &Url) -> Option<i32> {
        self.lock().get(uri).map(|d| d.version)
    }

    pub fn uris(&self) -> Vec<Url> {
        self.lock().keys().cloned().collect()
    }

    /// The current version with its analysis, computed at most once per
    /// version (outside the lock, so edits are never held up by it).
    pub fn snapshot(&self, uri: &Url) -> Option<Snapshot> {
        let (rope, version) = {
            let docs = self.lock();
            let doc = docs.get(uri)?;
            if let Some(file) = &doc.file {
                return Some(Snapshot {
                    uri: uri.clone(),
                    version: doc.version,
                    rope: doc.rope.clone(),
                    file: file.clone(),
                });
            }
            (doc.rope.clone(), doc.version)
        };
        let file = Arc::new(ide::File::new(rope.to_string()));
        let mut docs = self.lock();
        if let Some(doc) = docs.get_mut(uri)
            && doc.version == version
        {
            doc.file = Some(file.clone());
        }
        Some(Snapshot {
            uri: uri.clone(),
            version,
            rope,
            file,
        })
    }
}
