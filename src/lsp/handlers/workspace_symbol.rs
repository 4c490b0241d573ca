//! `workspace/symbol`: open documents, and `.dyno` files in the workspace
//! folders (read from disk when not open).

use std::path::{Path, PathBuf};

use ropey::Rope;
use tower_lsp::lsp_types::{Location, SymbolInformation, Url, WorkspaceSymbolParams};

use crate::ide::{self, symbols};
use crate::lsp::position;
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
fn information(uri: &Url, rope: &Rope, file: &ide::File, query: &str, state: &State, out: &mut Vec<SymbolInformation>) {
    for symbol in symbols::matching(file, query) {
        out.push(SymbolInformation {
            name: symbol.name,
            kind: super::document_symbol::kind(symbol.kind),
            tags: None,
            deprecated: None,
            location: Location::new(uri.clone(), position::range(rope, symbol.selection, state.encoding())),
            container_name: None,
        });
    }
}

pub fn handle(state: &State, params: WorkspaceSymbolParams) -> Option<Vec<SymbolInformation>> {
    let mut out = Vec::new();
    let open = state.documents.uris();
    for uri in &open {
        if let Some(snapshot) = state.snapshot(uri) {
            information(uri, &snapshot.rope, &snapshot.file, &params.query, state, &mut out);
        }
    }
    let mut paths = Vec::new();
    for folder in state.folders() {
        dyno_files(&folder, &mut paths);
    }
    for path in paths {
        let Ok(uri) = Url::from_file_path(&path) else { continue };
        if open.contains(&uri) {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let rope = Rope::from_str(&text);
        let file = ide::File::new(text);
        information(&uri, &rope, &file, &params.query, state, &mut out);
    }
    Some(out)
}
