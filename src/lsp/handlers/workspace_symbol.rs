//! `workspace/symbol`: open documents, and `.dyno` files in the workspace
//! folders (read from disk and parsed when not open, cached until they
//! change).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use ropey::Rope;
use tower_lsp::lsp_types::{Location, SymbolInformation, Url, WorkspaceSymbolParams};

use crate::ide::symbols::{self, DocumentSymbol};
use crate::lsp::position::{self, Encoding};
use crate::lsp::state::State;

/// Enough for any real workspace, and a bound on a huge one.
const MAX_FILES: usize = 2_000;

fn dyno_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        if out.len() >= MAX_FILES
            || name.to_string_lossy().starts_with('.')
            || name == "node_modules"
            || name == "target"
        {
            continue;
        }
        if path.is_dir() {
            dyno_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "dyno") {
            out.push(path);
        }
    }
}

#[allow(deprecated)] // `deprecated` is a required field of the struct
fn information(uri: &Url, rope: &Rope, symbol: DocumentSymbol, encoding: Encoding) -> SymbolInformation {
    SymbolInformation {
        name: symbol.name,
        kind: super::document_symbol::kind(symbol.kind),
        tags: None,
        deprecated: None,
        location: Location::new(uri.clone(), position::range(rope, symbol.selection, encoding)),
        container_name: None,
    }
}

/// The symbols of `.dyno` files that are not open, read from disk: kept
/// while a file's modification time and length stay the same, so a search
/// does not read and parse the whole workspace again on every keystroke.
#[derive(Default)]
pub struct DiskCache {
    files: Mutex<HashMap<PathBuf, Cached>>,
}

struct Cached {
    stamp: (SystemTime, u64),
    symbols: Arc<Vec<SymbolInformation>>,
}

impl DiskCache {
    /// Every symbol of the file at `path` (empty when it cannot be read).
    fn symbols(&self, path: &Path, uri: &Url, encoding: Encoding) -> Arc<Vec<SymbolInformation>> {
        let stamp = std::fs::metadata(path).map(|m| (m.modified().unwrap_or(SystemTime::UNIX_EPOCH), m.len()));
        let Ok(stamp) = stamp else {
            return Arc::default();
        };
        let mut files = self.files.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(cached) = files.get(path).filter(|c| c.stamp == stamp) {
            return cached.symbols.clone();
        }
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let rope = Rope::from_str(&text);
        let tree = crate::syntax::parse(&text).file;
        let all = symbols::flatten(symbols::outline(&text, &tree));
        let symbols: Arc<Vec<_>> = Arc::new(all.into_iter().map(|s| information(uri, &rope, s, encoding)).collect());
        files.insert(
            path.to_path_buf(),
            Cached {
                stamp,
                symbols: symbols.clone(),
            },
        );
        symbols
    }

    /// Forgets files that are no longer among `paths`.
    fn keep_only(&self, paths: &[PathBuf]) {
        let mut files = self.files.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        files.retain(|path, _| paths.contains(path));
    }
}

pub fn handle(state: &State, params: WorkspaceSymbolParams) -> Option<Vec<SymbolInformation>> {
    let encoding = state.encoding();
    let query = params.query.to_lowercase();
    let mut out = Vec::new();
    let open = state.documents.uris();
    for uri in &open {
        if let Some(snapshot) = state.snapshot(uri) {
            for symbol in symbols::matching(&snapshot.file, &query) {
                out.push(information(uri, &snapshot.rope, symbol, encoding));
            }
        }
    }
    let mut paths = Vec::new();
    for folder in state.folders() {
        dyno_files(&folder, &mut paths);
    }
    for path in &paths {
        let Ok(uri) = Url::from_file_path(path) else { continue };
        if open.contains(&uri) {
            continue;
        }
        let symbols = state.disk_symbols.symbols(path, &uri, encoding);
        out.extend(symbols.iter().filter(|s| symbols::matches(&s.name, &query)).cloned());
    }
    state.disk_symbols.keep_only(&paths);
    Some(out)
}
