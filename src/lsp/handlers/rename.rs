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
    let edits = ide::rename::rename(&snapshot.file, offset, &params.new_name)?;
    // A document is a schema of its own: every edit is in it.
    let this = snapshot.file.analysis.file;
    let edits: Vec<TextEdit> = edits
        .into_iter()
        .filter(|(at, _)| at.file == this)
        .map(|(at, text)| TextEdit::new(position::range(&snapshot.rope, at.span, state.encoding()), text))
        .collect();
    Ok(Some(WorkspaceEdit {
        changes: Some(HashMap::from([(snapshot.uri.clone(), edits)])),
        ..WorkspaceEdit::default()
    }))
}
