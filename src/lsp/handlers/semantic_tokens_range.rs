//! `textDocument/semanticTokens/range`: the tokens of the lines the range
//! touches, found without going over the rest of the file's text. A range
//! of more than `MAX_FULL_BYTES` of text is answered for its first
//! `MAX_FULL_BYTES`.

use tower_lsp::lsp_types::{SemanticTokens, SemanticTokensRangeParams, SemanticTokensRangeResult};

use crate::ide::semantic_tokens::tokens_in;
use crate::lsp::position;
use crate::lsp::state::State;
use crate::syntax::Span;

pub fn handle(state: &State, params: SemanticTokensRangeParams) -> Option<SemanticTokensRangeResult> {
    let snapshot = state.snapshot(&params.text_document.uri)?;
    let encoding = state.encoding();
    let start = position::offset_clamped(&snapshot.rope, params.range.start, encoding);
    let end = position::offset_clamped(&snapshot.rope, params.range.end, encoding)
        .clamp(start, start.saturating_add(super::semantic_tokens::MAX_FULL_BYTES));
    let found = tokens_in(&snapshot.file, Span::new(start, end));
    let data = super::semantic_tokens::encode(&found, &snapshot, encoding);
    Some(SemanticTokensRangeResult::Tokens(SemanticTokens {
        result_id: None,
        data,
    }))
}
