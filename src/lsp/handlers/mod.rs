//! One handler per request: each turns protocol params into a byte offset,
//! calls the pure feature in `crate::ide`, and converts the result back.
//! Unknown documents and positions outside the text give empty results.

pub mod code_action;
pub mod code_lens;
pub mod completion;
pub mod definition;
pub mod diagnostics;
pub mod document_diagnostic;
pub mod document_highlight;
pub mod document_symbol;
pub mod execute_command;
pub mod folding_range;
pub mod formatting;
pub mod hover;
pub mod inlay_hint;
pub mod references;
pub mod rename;
pub mod schema_diff;
pub mod selection_range;
pub mod semantic_tokens;
pub mod semantic_tokens_delta;
pub mod semantic_tokens_range;
pub mod signature_help;
pub mod workspace_diagnostic;
pub mod workspace_symbol;

use tower_lsp::lsp_types::TextDocumentPositionParams;

use super::documents::Snapshot;
use super::position;
use super::state::State;

/// The document and byte offset a position request is about.
pub fn locate(state: &State, params: &TextDocumentPositionParams) -> Option<(Snapshot, usize)> {
    let snapshot = state.snapshot(&params.text_document.uri)?;
    let offset = position::offset(&snapshot.rope, params.position, state.encoding())?;
    Some((snapshot, offset))
}
