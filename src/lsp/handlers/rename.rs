//! `textDocument/prepareRename` and `textDocument/rename`

use std::collections::HashMap;

use tower_lsp::lsp_types::{PrepareRenameResponse, RenameParams, TextDocumentPositionParams, TextEdit, WorkspaceEdit};

use crate::ide;
use crate::lsp::position;
use crate::lsp::state::State;

pub fn prepare(state: &State, params: TextDocumentPositionParams) -> Option<PrepareRenameResponse> {
    let (snapshot, offset) = super::locate(state, &params)?;
    let span = ide::rename::prepare(&snapshot.file, offset)?;
    Some(PrepareRenameResponse::Range(position::range(
        &snapshot.rope,
        span,
        state.encoding(),
    )))
}

/// `Err` carries the reason a rename is refused (an invalid new name).
pub fn handle(state: &State, params: RenameParams) -> Result<Option<WorkspaceEdit>, String> {
    let Some((snapshot, offset)) = super::locate(state, &params.text_document_position) else {
        return Ok(None);
    };
    // Every file of the schema: a folder's other files are renamed too.
    let (files, current) = snapshot.schema_files();
    let files: Vec<&ide::File> = files.iter().map(|f| &**f).collect();
    let edits = ide::rename::rename_in(&files, current, offset, &params.new_name)?;
    let mut changes: HashMap<_, Vec<TextEdit>> = HashMap::new();
    for (at, text) in edits {
        if let Some(location) = snapshot.location(at, state.encoding()) {
            changes
                .entry(location.uri)
                .or_default()
                .push(TextEdit::new(location.range, text));
        }
    }
    changes.entry(snapshot.uri.clone()).or_default();
    Ok(Some(WorkspaceEdit {
        changes: Some(changes),
        ..WorkspaceEdit::default()
    }))
}
