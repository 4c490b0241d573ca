//! `textDocument/completion` (being written).

use tower_lsp::lsp_types::{CompletionParams, CompletionResponse};

use crate::lsp::state::State;

pub fn handle(_state: &State, _params: CompletionParams) -> Option<CompletionResponse> {
    None
}
