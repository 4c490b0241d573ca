//! What every handler can see: the documents, the negotiated position
//! encoding and the workspace folders.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use tower_lsp::lsp_types::{SemanticToken, SymbolInformation, Url};

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
    /// The documents the client has pulled diagnostics for: they are no
    /// longer pushed (the client would show them twice). Shared by every
    /// pinned view.
    pub pulled: Arc<Mutex<HashSet<Url>>>,
    /// Whether the client takes `workspace/diagnostic/refresh`.
    diagnostic_refresh: AtomicBool,
    /// Whether the client takes `workspace/codeLens/refresh` and
    /// `workspace/inlayHint/refresh` (lenses and hints show costs, which a
    /// setting or another file of a folder can change).
    lens_refresh: AtomicBool,
    inlay_refresh: AtomicBool,
    /// Bumped when a setting changes what is published: a publish computed
    /// under an older count is not sent (the republish after the change
    /// sends the right one), so a stale analysis cannot win the race.
    settings_generation: AtomicU64,
    /// Whether the client takes `$/progress` reports the server starts
    /// (`window.workDoneProgress`).
    work_done_progress: AtomicBool,
    /// Whether the client registers file watchers the server asks for
    /// (`workspace.didChangeWatchedFiles.dynamicRegistration`).
    watch_files: AtomicBool,
    /// Whether the client takes `ServerCancelled` for semantic tokens
    /// (`textDocument.semanticTokens.serverCancelSupport`).
    semantic_tokens_cancel: AtomicBool,
    /// The last full semantic tokens answered per document, with their
    /// result id, for `semanticTokens/full/delta`. Shared by every pinned
    /// view.
    pub semantic_tokens: Arc<Mutex<SemanticTokensCache>>,
    /// Setting `severity`: per diagnostic code, `off` or the severity to
    /// report it with.
    severities: Mutex<Arc<Severities>>,
}

/// The `dyno.severity` setting: `{"W301": "off", "H221": "warning"}`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Severities {
    /// By code, sorted; `None` turns the code off.
    overrides: Vec<(String, Option<Level>)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    Error,
    Warning,
    Information,
    Hint,
}

impl Severities {
    /// Reads the setting's object; returns it with the entries it could
    /// not read (a value that is no severity), which are left out.
    pub fn read(value: &serde_json::Value) -> (Severities, Vec<String>) {
        let mut overrides = Vec::new();
        let mut unread = Vec::new();
        for (code, level) in value.as_object().into_iter().flatten() {
            let level = match level.as_str().map(str::to_ascii_lowercase).as_deref() {
                Some("off" | "none") => None,
                Some("error") => Some(Level::Error),
                Some("warning") => Some(Level::Warning),
                Some("information" | "info") => Some(Level::Information),
                Some("hint") => Some(Level::Hint),
                _ => {
                    unread.push(format!("{code}: {level}"));
                    continue;
                }
            };
            overrides.push((code.clone(), level));
        }
        overrides.sort_by(|a, b| a.0.cmp(&b.0));
        (Severities { overrides }, unread)
    }

    /// `None`: not overridden; `Some(None)`: off.
    pub fn get(&self, code: &str) -> Option<Option<Level>> {
        let at = self.overrides.binary_search_by(|(c, _)| c.as_str().cmp(code)).ok()?;
        Some(self.overrides[at].1)
    }

    pub fn is_off(&self, code: &str) -> bool {
        self.get(code) == Some(None)
    }
}

#[derive(Default)]
pub struct SemanticTokensCache {
    next_id: u64,
    last: HashMap<Url, (String, Arc<Vec<SemanticToken>>)>,
}

/// A schema's files at git `HEAD` (one, or a folder's) and its analysis.
pub struct Head {
    /// The git object read (a folder's tree, a file's blob).
    pub id: String,
    pub defaults: crate::check::Defaults,
    pub texts: Vec<String>,
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

    pub fn watch_files(&self) -> bool {
        self.watch_files.load(Ordering::Relaxed)
    }

    pub fn set_watch_files(&self, supported: bool) {
        self.watch_files.store(supported, Ordering::Relaxed);
    }

    pub fn work_done_progress(&self) -> bool {
        self.work_done_progress.load(Ordering::Relaxed)
    }

    pub fn set_work_done_progress(&self, supported: bool) {
        self.work_done_progress.store(supported, Ordering::Relaxed);
    }

    pub fn diagnostic_refresh(&self) -> bool {
        self.diagnostic_refresh.load(Ordering::Relaxed)
    }

    pub fn set_diagnostic_refresh(&self, supported: bool) {
        self.diagnostic_refresh.store(supported, Ordering::Relaxed);
    }

    pub fn lens_refresh(&self) -> bool {
        self.lens_refresh.load(Ordering::Relaxed)
    }

    pub fn inlay_refresh(&self) -> bool {
        self.inlay_refresh.load(Ordering::Relaxed)
    }

    pub fn settings_generation(&self) -> u64 {
        self.settings_generation.load(Ordering::SeqCst)
    }

    pub fn bump_settings_generation(&self) {
        self.settings_generation.fetch_add(1, Ordering::SeqCst);
    }

    pub fn set_view_refresh(&self, lens: bool, inlay: bool) {
        self.lens_refresh.store(lens, Ordering::Relaxed);
        self.inlay_refresh.store(inlay, Ordering::Relaxed);
    }

    pub fn semantic_tokens_cancel(&self) -> bool {
        self.semantic_tokens_cancel.load(Ordering::Relaxed)
    }

    pub fn set_semantic_tokens_cancel(&self, supported: bool) {
        self.semantic_tokens_cancel.store(supported, Ordering::Relaxed);
    }

    /// Marks a document as pulled; `true` the first time.
    pub fn mark_pulled(&self, uri: &Url) -> bool {
        self.pulled.lock().map(|mut p| p.insert(uri.clone())).unwrap_or(false)
    }

    pub fn is_pulled(&self, uri: &Url) -> bool {
        self.pulled.lock().map(|p| p.contains(uri)).unwrap_or(false)
    }

    pub fn any_pulled(&self) -> bool {
        self.pulled.lock().map(|p| !p.is_empty()).unwrap_or(false)
    }

    /// Keeps a document's full semantic tokens as its last; returns their
    /// new result id.
    pub fn remember_semantic_tokens(&self, uri: &Url, data: Vec<SemanticToken>) -> String {
        let mut cache = self.semantic_tokens.lock().unwrap_or_else(|p| p.into_inner());
        cache.next_id += 1;
        let id = cache.next_id.to_string();
        cache.last.insert(uri.clone(), (id.clone(), Arc::new(data)));
        id
    }

    /// The document's last full semantic tokens, if their id is `id`.
    pub fn semantic_tokens_with_id(&self, uri: &Url, id: &str) -> Option<Arc<Vec<SemanticToken>>> {
        let cache = self.semantic_tokens.lock().unwrap_or_else(|p| p.into_inner());
        cache
            .last
            .get(uri)
            .filter(|(last, _)| last == id)
            .map(|(_, data)| data.clone())
    }

    pub fn forget_semantic_tokens(&self, uri: &Url) {
        let mut cache = self.semantic_tokens.lock().unwrap_or_else(|p| p.into_inner());
        cache.last.remove(uri);
    }

    pub fn severities(&self) -> Arc<Severities> {
        self.severities.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// Sets the overrides; `true` when they changed.
    pub fn set_severities(&self, severities: Severities) -> bool {
        let mut current = self.severities.lock().unwrap_or_else(|p| p.into_inner());
        let changed = **current != severities;
        *current = Arc::new(severities);
        changed
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
            pulled: self.pulled.clone(),
            diagnostic_refresh: AtomicBool::new(self.diagnostic_refresh()),
            lens_refresh: AtomicBool::new(self.lens_refresh()),
            inlay_refresh: AtomicBool::new(self.inlay_refresh()),
            settings_generation: AtomicU64::new(self.settings_generation()),
            work_done_progress: AtomicBool::new(self.work_done_progress()),
            watch_files: AtomicBool::new(self.watch_files()),
            semantic_tokens_cancel: AtomicBool::new(self.semantic_tokens_cancel()),
            semantic_tokens: self.semantic_tokens.clone(),
            severities: Mutex::new(self.severities()),
        }
    }

    pub fn folders(&self) -> Vec<PathBuf> {
        self.workspace_folders.lock().map(|f| f.clone()).unwrap_or_default()
    }
}
