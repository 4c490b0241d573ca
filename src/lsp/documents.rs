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
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use ropey::Rope;
use tower_lsp::lsp_types::{TextDocumentContentChangeEvent, Url};

use super::position::{self, Encoding};
use crate::check::Defaults;
use crate::db::{Superseded, Workspace, folder};
use crate::diagnostic::Diagnostic;
use crate::ide;
use crate::syntax::{FileId, FileSpan};

/// The editor view of one revision, computed by whoever needs it first.
type Analysed = Arc<OnceLock<Arc<ide::File>>>;

#[derive(Clone)]
struct Document {
    file: FileId,
    version: i32,
    view: Analysed,
    /// The schema folder the document belongs to (`db::folder`), if any.
    root: Option<PathBuf>,
    /// When `root` last changed: a revision of the workspace's clock.
    moved: u64,
}

/// The open documents: their texts live in the workspace database, which
/// caches what is derived from them per revision; this adds what only the
/// protocol knows (URIs, client versions) and the editor view of each.
#[derive(Clone, Default)]
struct Store {
    workspace: Workspace,
    docs: HashMap<Url, Document>,
    /// The files of each schema folder an open document belongs to, in the
    /// folder's order (as the CLI reads them): open ones as the editor has
    /// them, the others from disk.
    folders: HashMap<PathBuf, Arc<Vec<FileId>>>,
    /// When each folder's list of files last changed, on the same clock.
    listed: HashMap<PathBuf, u64>,
    /// The editor views of folder files no editor has open, shared by the
    /// requests that cross files (an open one's is its document's view).
    /// Emptied whenever a folder's files or texts change.
    member_views: HashMap<FileId, Analysed>,
    /// What each folder's `dyno.json` says (its cost defaults), as last read.
    markers: HashMap<PathBuf, folder::Marker>,
}

impl Store {
    /// The files of the document's schema: its folder's, or itself. A
    /// document the folder's walk leaves out (an ignored or hidden path)
    /// is read with the folder all the same, last.
    fn schema_of(&self, doc: &Document) -> Arc<Vec<FileId>> {
        match doc.root.as_ref().and_then(|root| self.folders.get(root)) {
            Some(files) if files.contains(&doc.file) => files.clone(),
            Some(files) => Arc::new(files.iter().copied().chain([doc.file]).collect()),
            None => Arc::new(vec![doc.file]),
        }
    }

    /// The cost defaults of the document's schema: the workspace's (the
    /// editor setting), with its folder's `dyno.json` over them.
    fn defaults_of(&self, doc: &Document) -> Defaults {
        let base = self.workspace.defaults();
        match doc.root.as_ref().and_then(|root| self.markers.get(root)) {
            Some(marker) => marker.defaults(base).0,
            None => base,
        }
    }

    /// A revision of the whole schema: it changes when any of its files does
    /// (revisions come from one counter, so the largest is the latest).
    fn revision_of(&self, doc: &Document) -> u64 {
        let listed = doc.root.as_ref().and_then(|r| self.listed.get(r)).copied();
        self.schema_of(doc)
            .iter()
            .map(|&f| self.workspace.revision(f))
            .chain([self.workspace.revision(doc.file), doc.moved])
            .chain(listed)
            .max()
            .unwrap_or_default()
    }

    /// Reads the folder's files again (the disk's where no editor has them)
    /// and drops the views of its open documents: each is analysed again
    /// with the others. Returns those documents.
    fn refresh_folder(&mut self, root: &Path, released: &mut Vec<(Superseded, Option<Analysed>)>) -> Vec<Url> {
        let members = folder::members(root, &mut |_| {});
        // An open document is found by its path: the client's URI may spell
        // the path otherwise than `Url::from_file_path` (escapes, drive letters).
        let open: HashMap<PathBuf, FileId> = self
            .docs
            .iter()
            .filter_map(|(uri, doc)| Some((std::fs::canonicalize(uri.to_file_path().ok()?).ok()?, doc.file)))
            .collect();
        let mut files = Vec::new();
        for path in members {
            if let Some(&file) = std::fs::canonicalize(&path).ok().and_then(|p| open.get(&p)) {
                files.push(file);
                continue;
            }
            let Ok(uri) = Url::from_file_path(&path) else { continue };
            if let Some((file, superseded)) = self.workspace.sync_from_disk(&path, uri.as_str()) {
                files.push(file);
                released.push((superseded, None));
            }
        }
        // An unreadable marker reads as `{}`: `dyno check` reports it.
        let marker = folder::read_marker(root).unwrap_or_default();
        let marker_changed = self.markers.get(root) != Some(&marker);
        self.markers.insert(root.to_path_buf(), marker);
        if marker_changed || self.folders.get(root).is_none_or(|old| **old != files) {
            let revision = self.workspace.bump();
            self.listed.insert(root.to_path_buf(), revision);
        }
        self.folders.insert(root.to_path_buf(), Arc::new(files));
        self.forget_member_views(released);
        let mut touched = Vec::new();
        for (uri, doc) in &mut self.docs {
            if doc.root.as_deref() == Some(root) {
                released.push((Superseded::default(), Some(std::mem::take(&mut doc.view))));
                touched.push(uri.clone());
            }
        }
        touched
    }

    /// The view cell of each file of the document's schema, in its order:
    /// an open document's own, else a shared one for the file on disk.
    fn views_of(&mut self, doc: &Document, schema: &[FileId]) -> Vec<Analysed> {
        if schema.len() == 1 {
            return vec![doc.view.clone()];
        }
        let open: HashMap<FileId, Analysed> = self.docs.values().map(|d| (d.file, d.view.clone())).collect();
        schema
            .iter()
            .map(|f| match open.get(f) {
                Some(view) => view.clone(),
                None => self.member_views.entry(*f).or_default().clone(),
            })
            .collect()
    }

    /// Drops the shared views of unopened folder files (off the caller's
    /// thread, with `released`): a folder's file changed.
    fn forget_member_views(&mut self, released: &mut Vec<(Superseded, Option<Analysed>)>) {
        released.extend(
            self.member_views
                .drain()
                .map(|(_, view)| (Superseded::default(), Some(view))),
        );
    }

    /// The open documents that share a schema folder with `uri`, but it.
    fn siblings(&self, uri: &Url) -> Vec<Url> {
        let Some(root) = self.docs.get(uri).and_then(|d| d.root.clone()) else {
            return Vec::new();
        };
        self.docs
            .iter()
            .filter(|(other, doc)| *other != uri && doc.root.as_ref() == Some(&root))
            .map(|(other, _)| other.clone())
            .collect()
    }
}

/// The schema folder of a document on disk.
fn root_of(uri: &Url) -> Option<PathBuf> {
    let path = uri.to_file_path().ok()?;
    let root = folder::schema_root(&path)?;
    // Absolute, as the watcher's and the members' paths are.
    Some(std::fs::canonicalize(&root).unwrap_or(root))
}

/// An immutable view of one document revision and its analysis.
#[derive(Clone)]
pub struct Snapshot {
    pub uri: Url,
    pub version: i32,
    /// The schema's revision (the document's, or the latest of its folder's
    /// files).
    pub revision: u64,
    pub rope: Rope,
    pub file: Arc<ide::File>,
    /// The workspace as it was, to read the schema's other files.
    workspace: Workspace,
    schema: Arc<Vec<FileId>>,
    pub defaults: Defaults,
    /// The schema folder the document belongs to, if any.
    pub root: Option<PathBuf>,
    /// The view cell of each file of `schema`: analysed once per revision
    /// by whichever request needs it first.
    views: Vec<Analysed>,
}

impl Snapshot {
    /// The views of every file of the schema (this one included, at
    /// `current`), sharing its analysis: what a feature that crosses files
    /// (definition, references, rename) reads. A file alone is just itself.
    pub fn schema_files(&self) -> (Vec<Arc<ide::File>>, usize) {
        let this = self.file.analysis.file;
        let views: Vec<Arc<ide::File>> = self
            .schema
            .iter()
            .zip(&self.views)
            .map(|(&f, cell)| {
                if f == this {
                    return self.file.clone();
                }
                cell.get_or_init(|| {
                    let analysis = self.workspace.analysis_with(f, &self.schema, &self.defaults);
                    Arc::new(ide::File::from_analysis(self.workspace.text(f), analysis))
                })
                .clone()
            })
            .collect();
        let current = self.schema.iter().position(|&f| f == this).unwrap_or(0);
        (views, current)
    }

    /// Where a location of the schema is, as the protocol has it: its
    /// document and range. `None` for a file the workspace cannot name.
    pub fn location(&self, at: FileSpan, encoding: Encoding) -> Option<tower_lsp::lsp_types::Location> {
        let (uri, rope) = if at.file == self.file.analysis.file {
            (self.uri.clone(), self.rope.clone())
        } else {
            let uri = Url::parse(self.workspace.path(at.file)).ok()?;
            (uri, self.workspace.rope(at.file))
        };
        Some(tower_lsp::lsp_types::Location::new(
            uri,
            position::range(&rope, at.span, encoding),
        ))
    }
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

    /// Opens (or replaces) a document; returns its revision and the other
    /// open documents of its schema folder, whose analyses changed with it.
    pub fn open(&self, uri: Url, text: &str, version: i32) -> (u64, Vec<Url>) {
        let root = root_of(&uri);
        let mut store = self.lock();
        let (file, superseded) = store.workspace.set_text(uri.as_str(), Rope::from_str(text));
        let replaced = store.docs.insert(
            uri.clone(),
            Document {
                file,
                version,
                view: Analysed::default(),
                root: root.clone(),
                moved: 0,
            },
        );
        let mut released = vec![(superseded, replaced.map(|d| d.view))];
        let mut touched = Vec::new();
        if let Some(root) = &root {
            touched = store.refresh_folder(root, &mut released);
            touched.retain(|u| *u != uri);
        }
        let revision = store.docs.get(&uri).map(|d| store.revision_of(d)).unwrap_or_default();
        drop(store);
        for (superseded, view) in released {
            release(superseded, view);
        }
        (revision, touched)
    }

    /// Files of the workspace changed on disk (`didChangeWatchedFiles`):
    /// every open document's folder is found and read again. Returns the
    /// documents whose schema may have changed.
    pub fn disk_changed(&self) -> Vec<Url> {
        let uris = self.uris();
        let roots: Vec<(Url, Option<PathBuf>)> = uris.iter().map(|u| (u.clone(), root_of(u))).collect();
        let mut store = self.lock();
        let mut released = Vec::new();
        let mut touched = Vec::new();
        for (uri, root) in roots {
            let Store { docs, workspace, .. } = &mut *store;
            let Some(doc) = docs.get_mut(&uri) else { continue };
            if doc.root != root {
                // Moved into or out of a folder (a `dyno.json` came or went).
                doc.root = root;
                doc.moved = workspace.bump();
                released.push((Superseded::default(), Some(std::mem::take(&mut doc.view))));
                touched.push(uri);
            }
        }
        let mut roots: Vec<PathBuf> = store.docs.values().filter_map(|d| d.root.clone()).collect();
        roots.sort();
        roots.dedup();
        store.folders.retain(|root, _| roots.contains(root));
        store.listed.retain(|root, _| roots.contains(root));
        store.markers.retain(|root, _| roots.contains(root));
        for root in roots {
            touched.extend(store.refresh_folder(&root, &mut released));
        }
        drop(store);
        for (superseded, view) in released {
            release(superseded, view);
        }
        touched.sort();
        touched.dedup();
        touched
    }

    /// The cost model's defaults changed (the `dyno.defaults` setting):
    /// every document is analysed again with them. Returns whether they
    /// changed.
    pub fn set_defaults(&self, defaults: Defaults) -> bool {
        let mut store = self.lock();
        if store.workspace.defaults() == defaults {
            return false;
        }
        let mut released = vec![(store.workspace.set_defaults(defaults), None)];
        let Store { docs, workspace, .. } = &mut *store;
        for doc in docs.values_mut() {
            doc.moved = workspace.bump();
            released.push((Superseded::default(), Some(std::mem::take(&mut doc.view))));
        }
        store.forget_member_views(&mut released);
        drop(store);
        for (superseded, view) in released {
            release(superseded, view);
        }
        true
    }

    /// The documents as they are now, in a store of their own; their
    /// analyses are shared with this store.
    pub fn pinned(&self) -> Documents {
        Documents {
            store: Mutex::new(self.lock().clone()),
        }
    }

    /// Forgets a document; `None` when it was not open, else the open
    /// documents of its schema folder (its file is the disk's again).
    pub fn close(&self, uri: &Url) -> Option<Vec<Url>> {
        let mut store = self.lock();
        let siblings = store.siblings(uri);
        let doc = store.docs.remove(uri)?;
        let mut released = vec![(store.workspace.close(doc.file), Some(doc.view))];
        if let Some(root) = &doc.root {
            store.refresh_folder(root, &mut released);
        }
        drop(store);
        for (superseded, view) in released {
            release(superseded, view);
        }
        Some(siblings)
    }

    /// Applies a `didChange` in order. Returns the new revision, or `None`
    /// for an unknown document.
    pub fn change(
        &self,
        uri: &Url,
        version: i32,
        changes: &[TextDocumentContentChangeEvent],
        encoding: Encoding,
    ) -> Option<(u64, Vec<Url>)> {
        let mut store = self.lock();
        let file = store.docs.get(uri)?.file;
        let superseded = store.workspace.edit(file, |rope| {
            for change in changes {
                match change.range {
                    None => *rope = Rope::from_str(&change.text),
                    Some(range) => {
                        let start = position::offset_clamped(rope, range.start, encoding);
                        let end = position::offset_clamped(rope, range.end, encoding).max(start);
                        // A span holds offsets up to 4 GiB: a change that
                        // would grow the text past that is not applied.
                        if rope.len_bytes() - (end - start) + change.text.len() > crate::syntax::MAX_TEXT {
                            continue;
                        }
                        let (start_char, end_char) = (rope.byte_to_char(start), rope.byte_to_char(end));
                        rope.remove(start_char..end_char);
                        rope.insert(start_char, &change.text);
                    }
                }
            }
        });
        let doc = store.docs.get_mut(uri)?;
        doc.version = version;
        let stale = std::mem::take(&mut doc.view);
        // The folder's other documents (and files) are analysed with this
        // text now.
        let siblings = store.siblings(uri);
        let mut released = vec![(superseded, Some(stale))];
        if store.docs.get(uri).is_some_and(|d| d.root.is_some()) {
            store.forget_member_views(&mut released);
        }
        for sibling in &siblings {
            if let Some(doc) = store.docs.get_mut(sibling) {
                released.push((Superseded::default(), Some(std::mem::take(&mut doc.view))));
            }
        }
        let revision = store.docs.get(uri).map(|d| store.revision_of(d))?;
        drop(store);
        for (superseded, view) in released {
            release(superseded, view);
        }
        Some((revision, siblings))
    }

    /// The current revision of an open document.
    pub fn revision(&self, uri: &Url) -> Option<u64> {
        let store = self.lock();
        store.docs.get(uri).map(|d| store.revision_of(d))
    }

    /// The current text, version and revision, without analysing it.
    pub fn text(&self, uri: &Url) -> Option<(Rope, i32, u64)> {
        let store = self.lock();
        let doc = store.docs.get(uri)?;
        Some((store.workspace.rope(doc.file), doc.version, store.revision_of(doc)))
    }

    pub fn uris(&self) -> Vec<Url> {
        self.lock().docs.keys().cloned().collect()
    }

    /// Waits while a check of the document's schema runs (one an edit has
    /// made stale, most likely): the check of the current revision then
    /// starts from it, and a caller whose revision went stale meanwhile can
    /// skip its own.
    pub fn wait_for_check(&self, uri: &Url) {
        let Some((workspace, schema, defaults)) = ({
            let store = self.lock();
            let doc = store.docs.get(uri);
            doc.map(|doc| (store.workspace.clone(), store.schema_of(doc), store.defaults_of(doc)))
        }) else {
            return;
        };
        workspace.wait_for_check(&schema, &defaults);
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
        let (workspace, doc, schema, defaults, revision, views) = {
            let mut store = self.lock();
            let doc = store.docs.get(uri)?.clone();
            let schema = store.schema_of(&doc);
            let defaults = store.defaults_of(&doc);
            let revision = store.revision_of(&doc);
            let views = store.views_of(&doc, &schema);
            // A snapshot of the database: cheap, and no later edit changes it.
            (store.workspace.clone(), doc, schema, defaults, revision, views)
        };
        let rope = workspace.rope(doc.file);
        // The cell belongs to this revision: an edit meanwhile (of this file
        // or of its folder) gives it a new one, so the result is never cached
        // for other text.
        let file = doc
            .view
            .get_or_init(|| {
                parsed(&rope, &workspace.parse(doc.file).diagnostics);
                // A document is a schema of its own, or one of its folder's.
                let analysis = workspace.analysis_with(doc.file, &schema, &defaults);
                Arc::new(ide::File::from_analysis(workspace.text(doc.file), analysis))
            })
            .clone();
        Some(Snapshot {
            uri: uri.clone(),
            version: doc.version,
            revision,
            rope,
            file,
            workspace,
            schema,
            defaults,
            root: doc.root.clone(),
            views,
        })
    }
}

/// Frees a superseded analysis off the caller's thread when a runtime is
/// there to do it: dropping the tree and model of a large file takes
/// milliseconds, which the edit that made them stale should not wait for.
fn release(superseded: Superseded, mut view: Option<Analysed>) {
    // The stale view's parse and check go at once (the new revision holds
    // them as its previous parse and its earlier check): held by no one
    // else, what they keep then moves into the next parse and check
    // instead of being copied (`syntax::reparse_in`, `check::check_after`).
    if let Some(file) = view
        .as_mut()
        .and_then(Arc::get_mut)
        .and_then(OnceLock::get_mut)
        .and_then(Arc::get_mut)
    {
        file.analysis.parse = Arc::default();
        file.analysis.schema = Arc::default();
    }
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
        let (first, _) = docs.open(uri.clone(), "table A {\n  key pk\n}\n", 1);
        assert_eq!(docs.snapshot(&uri).unwrap().revision, first);
        assert!(docs.close(&uri).is_some());
        assert!(docs.close(&uri).is_none(), "already closed");
        // Reopened at the same version with another text: another revision,
        // and the cached analysis of the first text is gone with it.
        let (second, _) = docs.open(uri.clone(), "table B {\n  key pk\n}\n", 1);
        assert_ne!(first, second);
        let snapshot = docs.snapshot(&uri).unwrap();
        assert_eq!((snapshot.revision, snapshot.version), (second, 1));
        assert!(snapshot.file.text.contains("table B"));
        let change = TextDocumentContentChangeEvent {
            range: None,
            range_length: None,
            text: "table C {\n  key pk\n}\n".into(),
        };
        let (third, _) = docs.change(&uri, 2, &[change], Encoding::Utf16).unwrap();
        assert!(third > second);
        assert_eq!(docs.revision(&uri), Some(third));
        assert!(docs.snapshot(&uri).unwrap().file.text.contains("table C"));
    }

    #[test]
    fn a_folders_unopened_file_is_analysed_once_per_revision() {
        let dir = std::env::temp_dir().join(format!("dyno-documents-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("dyno.json"), "{}").unwrap();
        std::fs::write(dir.join("a.dyno"), "table A {\n  key pk\n}\n").unwrap();
        std::fs::write(dir.join("b.dyno"), "entity B {\n  id: id\n  pk = \"B#{id}\"\n}\n").unwrap();
        let docs = Documents::default();
        let uri = Url::from_file_path(dir.join("a.dyno")).unwrap();
        docs.open(uri.clone(), "table A {\n  key pk\n}\n", 1);
        let b_of = |docs: &Documents| {
            let snapshot = docs.snapshot(&uri).unwrap();
            let (files, current) = snapshot.schema_files();
            assert_eq!(files.len(), 2);
            files[1 - current].clone()
        };
        // Two requests share the other file's view; an edit makes a new one.
        let first = b_of(&docs);
        assert!(Arc::ptr_eq(&first, &b_of(&docs)));
        let change = TextDocumentContentChangeEvent {
            range: None,
            range_length: None,
            text: "table A {\n  key pk, sk\n}\n".into(),
        };
        docs.change(&uri, 2, &[change], Encoding::Utf16).unwrap();
        assert!(!Arc::ptr_eq(&first, &b_of(&docs)));
        let _ = std::fs::remove_dir_all(&dir);
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
