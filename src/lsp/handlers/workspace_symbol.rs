//! `workspace/symbol`: open documents, and `.dyno` files in the workspace
//! folders (read from disk and parsed when not open, cached until they
//! change, in the workspace database of [`DiskFiles`]).

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use ropey::Rope;
use tower_lsp::lsp_types::{Location, SymbolInformation, Url, WorkspaceSymbolParams};

use crate::ide::symbols::{self, DocumentSymbol};
use crate::lsp::position::{self, Encoding};
use crate::lsp::state::{DiskFiles, State};

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

/// The symbols of the file at `path`, read from disk through the workspace
/// database (read again only when its modification time or length
/// changed) and converted once per revision. Empty when it cannot be read.
fn disk_symbols(disk: &DiskFiles, path: &Path, uri: &Url, encoding: Encoding) -> Arc<Vec<SymbolInformation>> {
    let mut disk = disk.lock();
    let Some((file, _stale)) = disk.workspace.sync_from_disk(path, uri.as_str()) else {
        return Arc::default();
    };
    let revision = disk.workspace.revision(file);
    if let Some((cached, symbols)) = disk.symbols.get(&file)
        && *cached == revision
    {
        return symbols.clone();
    }
    let (text, parse, rope) = (
        disk.workspace.text(file),
        disk.workspace.parse(file),
        disk.workspace.rope(file),
    );
    let all = symbols::flatten(symbols::outline(&text, &parse.file));
    let converted: Arc<Vec<_>> = Arc::new(all.into_iter().map(|s| information(uri, &rope, s, encoding)).collect());
    disk.symbols.insert(file, (revision, converted.clone()));
    converted
}

/// Frees the files that are no longer among `paths` (deleted, or now open).
fn forget_all_but(disk: &DiskFiles, paths: &[PathBuf]) {
    let mut disk = disk.lock();
    let keep: HashSet<String> = paths
        .iter()
        .filter_map(|p| Url::from_file_path(p).ok())
        .map(String::from)
        .collect();
    let gone: Vec<_> = disk
        .workspace
        .files()
        .filter(|&f| disk.symbols.contains_key(&f) && !keep.contains(disk.workspace.path(f)))
        .collect();
    for file in gone {
        disk.symbols.remove(&file);
        drop(disk.workspace.close(file));
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
        let symbols = disk_symbols(&state.disk, path, &uri, encoding);
        out.extend(symbols.iter().filter(|s| symbols::matches(&s.name, &query)).cloned());
    }
    forget_all_but(&state.disk, &paths);
    Some(out)
}
