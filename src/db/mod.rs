//! The workspace database: the files of a workspace (open documents
//! overlaid on files on disk) and the queries over them, each computed at
//! most once per revision of what it reads.
//!
//! ```text
//! inputs        file_text(file)            set by the server or the CLI
//! per file      parse(file) -> items(file)
//! per schema    schema(files): model, resolution(pattern), lints, diagnostics
//! ```
//!
//! The engine is a hand-written revision cache with salsa's shape (inputs
//! set on `&mut self`, queries on `&self`, snapshots that later edits do
//! not change) rather than the `salsa` crate: a schema is checked as one
//! unit today, so a per-file memo and a per-schema memo are all it needs,
//! and it costs no dependency. docs/architecture.md says why in full.

mod disk;
pub mod folder;
pub mod git;
mod items;
mod turns;

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use ropey::Rope;

use crate::check::model::PatternId;
use crate::check::{self, Analysis, Defaults, Schema, Source};
use crate::syntax::{self, FileId, Parse};
pub use disk::Stamp;
pub use items::{Declared, DeclaredKind, Items};
use turns::Turns;

/// One revision of one file's text, with what is derived from it alone.
/// Shared by every snapshot that sees this revision.
struct FileInput {
    revision: u64,
    /// The text as a rope (an editor's, edited in place) and as one string
    /// (what is parsed): one is given, the other made when first asked for.
    /// A command that never edits keeps one copy of a large file, not two.
    rope: OnceLock<Rope>,
    text: OnceLock<Arc<str>>,
    /// Where the text came from: an editor, or the disk at this stamp.
    origin: Origin,
    parse: OnceLock<Arc<Parse>>,
    items: OnceLock<Arc<Items>>,
    /// The text and parse of an earlier revision of the file, until this
    /// one's parse is computed from them: the items on lines an edit did
    /// not touch are kept, not parsed again.
    previous: Mutex<Option<Previous>>,
}

type Previous = (Arc<str>, Arc<Parse>);

/// A superseded revision gives up its parse at once (the next revision
/// holds it as its previous one, so this frees nothing): when no one else
/// holds it either, the next parse moves the items it keeps out of the old
/// tree instead of copying them.
fn let_go_of_parse(input: &mut Arc<FileInput>) {
    if let Some(input) = Arc::get_mut(input) {
        input.parse.take();
        input
            .previous
            .get_mut()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .take();
    }
}

impl FileInput {
    fn new(revision: u64, content: Content, origin: Origin, previous: Option<Previous>) -> FileInput {
        let (rope, text) = match content {
            Content::Rope(rope) => (OnceLock::from(rope), OnceLock::new()),
            Content::Text(text) => (OnceLock::new(), OnceLock::from(text)),
        };
        FileInput {
            revision,
            rope,
            text,
            origin,
            parse: OnceLock::new(),
            items: OnceLock::new(),
            previous: Mutex::new(previous),
        }
    }

    fn rope(&self) -> &Rope {
        self.rope
            .get_or_init(|| Rope::from_str(self.text.get().expect("an input has its text in one form")))
    }

    fn text(&self) -> &Arc<str> {
        self.text
            .get_or_init(|| rope_text(self.rope.get().expect("an input has its text in one form")))
    }

    /// What a later revision can re-parse from: this one's parse, or the
    /// earlier one this one had not used yet.
    fn to_previous(&self) -> Option<Previous> {
        match (self.text.get(), self.parse.get()) {
            (Some(text), Some(parse)) => Some((text.clone(), parse.clone())),
            _ => lock(&self.previous).clone(),
        }
    }
}

/// A new revision's text, in the form its caller has it.
enum Content {
    Rope(Rope),
    Text(Arc<str>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Origin {
    Editor,
    Disk(Stamp),
}

#[derive(Clone)]
struct FileSlot {
    path: String,
    input: Arc<FileInput>,
}

/// A schema's check for one revision of each of its files, under one set
/// of cost defaults.
type SchemaKey = (Vec<FileId>, Vec<u64>, Defaults);
type SchemaMemo = Arc<OnceLock<Checked>>;
/// A set of files checked together, under one set of defaults.
type SchemaOf = (Vec<FileId>, Defaults);

/// A schema's check and the texts it read: what the next check of the same
/// files, after an edit, starts from (`check::check_after`).
struct Checked {
    schema: Arc<Schema>,
    texts: Vec<Arc<str>>,
}

/// What an edit made stale: dropped by the caller where it suits it (the
/// server drops large analyses off the request path).
#[derive(Default)]
#[must_use = "stale results are freed when this is dropped"]
pub struct Superseded {
    inputs: Vec<Arc<FileInput>>,
    schemas: Vec<SchemaMemo>,
}

impl Superseded {
    /// Whether dropping it frees an analysis (worth a thread of its own).
    pub fn is_heavy(&self) -> bool {
        self.schemas.iter().any(|s| s.get().is_some()) || self.inputs.iter().any(|i| i.parse.get().is_some())
    }
}

/// The workspace: cheap to clone, and a clone is a snapshot — the same
/// texts, sharing every result computed through either.
#[derive(Clone, Default)]
pub struct Workspace {
    files: Vec<FileSlot>,
    /// Ids by path: a sync of a folder's files looks each one up.
    by_path: HashMap<String, FileId>,
    revisions: u64,
    schemas: Arc<Mutex<HashMap<SchemaKey, SchemaMemo>>>,
    /// Per set of files and defaults, the latest check an edit made stale:
    /// the next check reuses what the edit cannot have changed, then lets
    /// it go.
    earlier: Arc<Mutex<HashMap<SchemaOf, SchemaMemo>>>,
    /// Per set of files and defaults, the turns its checks take (`turns`):
    /// one at a time, so that a check an edit superseded while it ran is
    /// what the next starts from.
    turns: Arc<Mutex<HashMap<SchemaOf, Arc<Turns>>>>,
    /// Each file's latest revision, as the workspace that edits it has it:
    /// what tells a snapshot's check that an edit has superseded it.
    latest: Arc<Mutex<HashMap<FileId, u64>>>,
    /// What the cost model assumes where a schema gives no hint: an input
    /// like the texts (an editor setting).
    defaults: Defaults,
}

impl Workspace {
    pub fn new() -> Workspace {
        Workspace::default()
    }

    /// A workspace of these files (path, text), in this order: the one a
    /// command builds of the files it read, or the server of a schema's
    /// files at a git revision. Returns their ids, in the same order.
    pub fn of_files<T: Into<Arc<str>>>(files: impl IntoIterator<Item = (String, T)>) -> (Workspace, Vec<FileId>) {
        let mut workspace = Workspace::new();
        let ids = files
            .into_iter()
            .map(|(path, text)| workspace.set_source(&path, text.into()).0)
            .collect();
        (workspace, ids)
    }

    /// The file at `path` (a path or URI, as the caller names files).
    pub fn file(&self, path: &str) -> Option<FileId> {
        self.by_path.get(path).copied()
    }

    pub fn files(&self) -> impl Iterator<Item = FileId> + '_ {
        (0..self.files.len()).map(|i| FileId(i as u32))
    }

    pub fn path(&self, file: FileId) -> &str {
        &self.files[file.index()].path
    }

    /// Sets the text of the file at `path` as an editor has it, adding the
    /// file if it is new. Every call is a new revision.
    pub fn set_text(&mut self, path: &str, text: Rope) -> (FileId, Superseded) {
        self.set_input(path, Content::Rope(text), Origin::Editor)
    }

    /// Like `set_text`, for a caller that has the text as one string and
    /// will not edit it (a command): no rope is made unless one is asked for.
    pub fn set_source(&mut self, path: &str, text: Arc<str>) -> (FileId, Superseded) {
        self.set_input(path, Content::Text(text), Origin::Editor)
    }

    /// Applies `edit` to the file's text: a new revision.
    pub fn edit(&mut self, file: FileId, edit: impl FnOnce(&mut Rope)) -> Superseded {
        let mut rope = self.files[file.index()].input.rope().clone();
        edit(&mut rope);
        let path = self.files[file.index()].path.clone();
        self.set_input(&path, Content::Rope(rope), Origin::Editor).1
    }

    fn set_input(&mut self, path: &str, content: Content, origin: Origin) -> (FileId, Superseded) {
        self.revisions += 1;
        // A text to be read from disk later (a closed file) has nothing to
        // re-parse from or re-check from: the closed revision's text, parse
        // and checks go now.
        let closed = origin == Origin::Disk(Stamp::UNREAD);
        let previous = self
            .file(path)
            .filter(|_| !closed)
            .and_then(|file| self.files[file.index()].input.to_previous());
        let input = Arc::new(FileInput::new(self.revisions, content, origin, previous));
        let mut superseded = Superseded::default();
        let file = match self.file(path) {
            Some(file) => {
                let mut old = std::mem::replace(&mut self.files[file.index()].input, input);
                let_go_of_parse(&mut old);
                superseded.inputs.push(old);
                superseded.schemas = self.forget_schemas_of(file, !closed);
                file
            }
            None => {
                let file = FileId(self.files.len() as u32);
                self.files.push(FileSlot {
                    path: path.to_string(),
                    input,
                });
                self.by_path.insert(path.to_string(), file);
                file
            }
        };
        lock(&self.latest).insert(file, self.revisions);
        (file, superseded)
    }

    /// Drops the cached checks that read `file`; returns what is no longer
    /// needed. With `keep`, a computed one becomes the earlier check of its
    /// set of files, in place of any earlier check of a set sharing a file
    /// with it (a file's set changes when a folder gains or loses a file:
    /// the old set is not checked again).
    fn forget_schemas_of(&self, file: FileId, keep: bool) -> Vec<SchemaMemo> {
        let mut schemas = lock(&self.schemas);
        let mut earlier = lock(&self.earlier);
        let mut gone = Vec::new();
        let drop_earlier = |earlier: &mut HashMap<SchemaOf, SchemaMemo>, files: &[FileId], gone: &mut Vec<_>| {
            let overlapping: Vec<SchemaOf> = earlier
                .keys()
                .filter(|(set, _)| set.iter().any(|f| files.contains(f)))
                .cloned()
                .collect();
            gone.extend(overlapping.iter().filter_map(|key| earlier.remove(key)));
        };
        if !keep {
            drop_earlier(&mut earlier, &[file], &mut gone);
        }
        let stale: Vec<SchemaKey> = schemas
            .keys()
            .filter(|(files, _, _)| files.contains(&file))
            .cloned()
            .collect();
        for key in stale {
            let Some(memo) = schemas.remove(&key) else { continue };
            // A check never computed leaves the one before it in place:
            // the next check compares texts, so several edits are one.
            if keep && memo.get().is_some() {
                let (files, _, defaults) = key;
                drop_earlier(&mut earlier, &files, &mut gone);
                earlier.insert((files, defaults), memo);
            } else {
                gone.push(memo);
            }
        }
        gone
    }

    /// The cost defaults every schema is checked with from now on; the
    /// checks made with others are returned to be dropped.
    pub fn set_defaults(&mut self, defaults: Defaults) -> Superseded {
        if self.defaults == defaults {
            return Superseded::default();
        }
        self.defaults = defaults;
        let mut schemas = lock(&self.schemas);
        let earlier = lock(&self.earlier).drain().map(|(_, memo)| memo).collect::<Vec<_>>();
        Superseded {
            inputs: Vec::new(),
            schemas: schemas.drain().map(|(_, memo)| memo).chain(earlier).collect(),
        }
    }

    pub fn defaults(&self) -> Defaults {
        self.defaults
    }

    /// A new revision that belongs to no file's text: for a caller whose
    /// inputs are more than texts (which files form a schema) to mark a
    /// change of those, on the same clock.
    pub fn bump(&mut self) -> u64 {
        self.revisions += 1;
        self.revisions
    }

    /// The revision of the file's current text.
    pub fn revision(&self, file: FileId) -> u64 {
        self.files[file.index()].input.revision
    }

    pub fn rope(&self, file: FileId) -> Rope {
        self.files[file.index()].input.rope().clone()
    }

    pub fn text(&self, file: FileId) -> Arc<str> {
        self.files[file.index()].input.text().clone()
    }

    /// The file's syntax tree and syntax errors: re-parsed from an earlier
    /// revision's where there is one.
    pub fn parse(&self, file: FileId) -> Arc<Parse> {
        let input = &self.files[file.index()].input;
        input
            .parse
            .get_or_init(|| {
                let text = self.text(file);
                let previous = lock(&input.previous).take();
                Arc::new(match previous {
                    Some((old_text, old)) => syntax::reparse_in(file, &text, old, &old_text),
                    None => syntax::parse_in(file, &text),
                })
            })
            .clone()
    }

    /// What the file declares, by name: read without the other files.
    pub fn items(&self, file: FileId) -> Arc<Items> {
        let input = &self.files[file.index()].input;
        input
            .items
            .get_or_init(|| Arc::new(Items::of(&self.parse(file).file)))
            .clone()
    }

    /// The check of the schema made of `files` (in this order): computed
    /// once per revision of those files, by whichever caller asks first;
    /// the others wait for it.
    pub fn schema(&self, files: &[FileId]) -> Arc<Schema> {
        self.schema_with(files, &self.defaults)
    }

    /// [`Workspace::schema`] with the cost defaults of this schema (a
    /// folder's `dyno.json` may set its own over the workspace's).
    pub fn schema_with(&self, files: &[FileId], defaults: &Defaults) -> Arc<Schema> {
        let (key, memo) = self.memo_of(files, defaults);
        if let Some(checked) = memo.get() {
            return checked.schema.clone();
        }
        let set: SchemaOf = (files.to_vec(), *defaults);
        let turns = self.turns_of(&set);
        let _turn = turns.take(key.1.iter().copied().max().unwrap_or_default());
        let schema = memo
            .get_or_init(|| self.check_from_earlier(files, defaults))
            .schema
            .clone();
        // An edit superseded it (while it ran, or before: a request pinned
        // to an earlier revision): the next check of these files starts
        // from it, and an older one still waiting goes.
        if self.superseded(&key) {
            // A request pinned to this revision may have listed it again
            // after the edit; kept there, it could not be taken.
            let mut schemas = lock(&self.schemas);
            if schemas.get(&key).is_some_and(|listed| Arc::ptr_eq(listed, &memo)) {
                schemas.remove(&key);
            }
            drop(schemas);
            let older = lock(&self.earlier).insert(set, memo);
            if let Some(older) = older.filter(|memo| Arc::strong_count(memo) == 1) {
                free_elsewhere(older);
            }
        }
        schema
    }

    /// [`Workspace::schema_with`] for a command that checks the schema once
    /// and reads its diagnostics and model, never the files' trees: a tree
    /// no one has asked for is parsed for this check alone and let go of
    /// once the model is lowered from it (a third of a large check's
    /// peak). The schema is kept as `schema_with` keeps it.
    pub fn check_once(&self, files: &[FileId], defaults: &Defaults) -> Arc<Schema> {
        let (_, memo) = self.memo_of(files, defaults);
        memo.get_or_init(|| {
            let texts: Vec<Arc<str>> = files.iter().map(|&f| self.text(f)).collect();
            let sources = files
                .iter()
                .zip(&texts)
                .map(|(&file, text)| {
                    let parse = self.files[file.index()].input.parse.get().cloned();
                    let parse = parse.unwrap_or_else(|| Arc::new(syntax::parse_in(file, text)));
                    (file, text.clone(), parse)
                })
                .collect();
            Checked {
                schema: Arc::new(check::check_letting_go_of_trees(sources, defaults)),
                texts,
            }
        })
        .schema
        .clone()
    }

    /// The key of the check of `files` at their current revisions, and
    /// its memo (listed, empty, when there was none).
    fn memo_of(&self, files: &[FileId], defaults: &Defaults) -> (SchemaKey, SchemaMemo) {
        let revisions = files.iter().map(|&f| self.revision(f)).collect();
        let key: SchemaKey = (files.to_vec(), revisions, *defaults);
        let memo = lock(&self.schemas).entry(key.clone()).or_default().clone();
        (key, memo)
    }

    /// Whether a file of the check has had an edit since.
    fn superseded(&self, (files, revisions, _): &SchemaKey) -> bool {
        let latest = lock(&self.latest);
        files
            .iter()
            .zip(revisions)
            .any(|(file, revision)| latest.get(file).is_some_and(|latest| latest > revision))
    }

    fn turns_of(&self, set: &SchemaOf) -> Arc<Turns> {
        lock(&self.turns).entry(set.clone()).or_default().clone()
    }

    /// Waits while a check of an earlier revision of the schema made of
    /// `files` runs or waits: a check of the current revision then starts
    /// from it.
    pub fn wait_for_check(&self, files: &[FileId], defaults: &Defaults) {
        let revision = files.iter().map(|&f| self.revision(f)).max().unwrap_or_default();
        drop(self.turns_of(&(files.to_vec(), *defaults)).take(revision));
    }

    /// The check of `files` as they are now: from the earlier check of
    /// the same files when an edit made one stale, else from scratch.
    fn check_from_earlier(&self, files: &[FileId], defaults: &Defaults) -> Checked {
        let texts: Vec<Arc<str>> = files.iter().map(|&f| self.text(f)).collect();
        let parses: Vec<Arc<Parse>> = files.iter().map(|&f| self.parse(f)).collect();
        let sources: Vec<Source<'_>> = files
            .iter()
            .zip(&texts)
            .zip(&parses)
            .map(|((&file, text), parse)| Source { file, text, parse })
            .collect();
        let mut earlier = lock(&self.earlier).remove(&(files.to_vec(), *defaults));
        // Held by no one else, the earlier Queries, model and registry
        // are taken, so that what is kept moves rather than being copied.
        let taken = earlier
            .as_mut()
            .and_then(Arc::get_mut)
            .and_then(OnceLock::get_mut)
            .and_then(|before| Arc::get_mut(&mut before.schema))
            .map(|schema| {
                (
                    std::mem::take(&mut schema.resolutions),
                    std::mem::take(&mut schema.model),
                    std::mem::take(&mut schema.registry),
                    std::mem::take(&mut schema.reads),
                )
            });
        // What the check left of what was taken.
        let mut left = None;
        let schema = match earlier.as_ref().and_then(|memo| memo.get()) {
            Some(before) => {
                let texts: Vec<(FileId, &str)> = files.iter().copied().zip(before.texts.iter().map(|t| &**t)).collect();
                let mut earlier = check::incremental::Earlier::new(&texts, &before.schema);
                if let Some((resolutions, model, registry, reads)) = taken {
                    earlier.resolutions = Cow::Owned(resolutions);
                    earlier.model = Cow::Owned(model);
                    earlier.registry = Cow::Owned(registry);
                    earlier.reads = Cow::Owned(reads);
                }
                let schema = check::check_after(&sources, defaults, &mut earlier);
                if let (Cow::Owned(resolutions), Cow::Owned(model), Cow::Owned(registry)) =
                    (earlier.resolutions, earlier.model, earlier.registry)
                {
                    left = Some((resolutions, model, registry));
                }
                schema
            }
            None => check::check_with(&sources, defaults),
        };
        if left.is_some() || earlier.as_ref().is_some_and(|memo| Arc::strong_count(memo) == 1) {
            free_elsewhere((earlier, left));
        }
        Checked {
            schema: Arc::new(schema),
            texts,
        }
    }

    /// `file` as part of the schema made of `files`.
    pub fn analysis(&self, file: FileId, files: &[FileId]) -> Analysis {
        self.analysis_with(file, files, &self.defaults)
    }

    /// [`Workspace::analysis`] with the schema's own cost defaults.
    pub fn analysis_with(&self, file: FileId, files: &[FileId], defaults: &Defaults) -> Analysis {
        Analysis {
            file,
            parse: self.parse(file),
            schema: self.schema_with(files, defaults),
        }
    }

    /// The Query of `pattern` of the schema, when it has one.
    pub fn resolution(&self, files: &[FileId], pattern: PatternId) -> Option<check::resolve::Resolution> {
        self.schema(files).resolution(pattern).cloned()
    }

    /// The checker's findings on the schema (syntax errors left out).
    pub fn lints(&self, files: &[FileId]) -> Vec<crate::diagnostic::Diagnostic> {
        let schema = self.schema(files);
        schema
            .diagnostics
            .iter()
            .filter(|d| !d.code.is_syntax())
            .cloned()
            .collect()
    }
}

/// Drops `value` on a thread of its own: freeing the check of a large
/// schema takes milliseconds that a check's callers should not wait for.
/// (Should no thread be had, it is freed here.)
fn free_elsewhere<T: Send + 'static>(value: T) {
    let _ = std::thread::Builder::new()
        .name("dyno-free".into())
        .spawn(move || drop(value));
}

/// The rope's text as one string, copied chunk by chunk into room made
/// once: through `Display` each chunk went through the formatter and the
/// string grew as it went (at 50k lines, 112–174 µs a revision; 100–111).
fn rope_text(rope: &Rope) -> Arc<str> {
    let mut text = String::with_capacity(rope.len_bytes());
    for chunk in rope.chunks() {
        text.push_str(chunk);
    }
    text.into()
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(test)]
mod tests;
