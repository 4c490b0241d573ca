//! `textDocument/codeAction` (being written).

use tower_lsp::lsp_types::{CodeActionParams, CodeActionResponse};

use crate::lsp::state::State;

pub fn handle(_state: &State, _params: CodeActionParams) -> Option<CodeActionResponse> {
    None
}
