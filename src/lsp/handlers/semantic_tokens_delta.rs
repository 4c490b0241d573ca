//! `textDocument/semanticTokens/full/delta`: the edit that turns the
//! client's last full result (by its id) into the current tokens, or the
//! full tokens when that result is not the last one kept.

use tower_lsp::jsonrpc::Result;
use tower_lsp::lsp_types::{
    SemanticToken, SemanticTokens, SemanticTokensDelta, SemanticTokensDeltaParams, SemanticTokensEdit,
    SemanticTokensFullDeltaResult,
};

use crate::ide::semantic_tokens::tokens;
use crate::lsp::state::State;

pub fn handle(state: &State, params: SemanticTokensDeltaParams) -> Result<Option<SemanticTokensFullDeltaResult>> {
    let uri = params.text_document.uri;
    let Some(snapshot) = state.snapshot(&uri) else {
        return Ok(None);
    };
    if let Some(bounded) = super::semantic_tokens::over_limit(state, &uri, &snapshot)? {
        return Ok(Some(SemanticTokensFullDeltaResult::Tokens(bounded)));
    }
    let data = super::semantic_tokens::encode(&tokens(&snapshot.file), &snapshot, state.encoding());
    let previous = state.semantic_tokens_with_id(&uri, &params.previous_result_id);
    let result_id = state.remember_semantic_tokens(&uri, data.clone());
    Ok(Some(match previous {
        Some(previous) => SemanticTokensFullDeltaResult::TokensDelta(SemanticTokensDelta {
            result_id: Some(result_id),
            edits: edits(&previous, &data),
        }),
        None => SemanticTokensFullDeltaResult::Tokens(SemanticTokens {
            result_id: Some(result_id),
            data,
        }),
    }))
}

/// One edit replacing what lies between the common prefix and suffix of
/// the two token lists (none when they are equal). Positions count the
/// integers of the flattened data, five per token.
pub fn edits(old: &[SemanticToken], new: &[SemanticToken]) -> Vec<SemanticTokensEdit> {
    let (prefix, suffix) = crate::slices::common_ends(old, new);
    let (deleted, inserted) = (&old[prefix..old.len() - suffix], &new[prefix..new.len() - suffix]);
    if deleted.is_empty() && inserted.is_empty() {
        return Vec::new();
    }
    vec![SemanticTokensEdit {
        start: 5 * prefix as u32,
        delete_count: 5 * deleted.len() as u32,
        data: Some(inserted.to_vec()),
    }]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token(delta_line: u32, length: u32) -> SemanticToken {
        SemanticToken {
            delta_line,
            delta_start: 0,
            length,
            token_type: 0,
            token_modifiers_bitset: 0,
        }
    }

    /// Applies edits to the flattened data, as a client does.
    fn apply(old: &[SemanticToken], edits: &[SemanticTokensEdit]) -> Vec<u32> {
        let flat = |tokens: &[SemanticToken]| -> Vec<u32> {
            tokens
                .iter()
                .flat_map(|t| {
                    [
                        t.delta_line,
                        t.delta_start,
                        t.length,
                        t.token_type,
                        t.token_modifiers_bitset,
                    ]
                })
                .collect()
        };
        let mut data = flat(old);
        for edit in edits.iter().rev() {
            let (start, end) = (edit.start as usize, (edit.start + edit.delete_count) as usize);
            data.splice(start..end, flat(edit.data.as_deref().unwrap_or_default()));
        }
        data
    }

    #[test]
    fn edits_turn_the_old_tokens_into_the_new() {
        let a = [token(0, 1), token(1, 2), token(1, 3), token(2, 4)];
        let cases: [&[SemanticToken]; 6] = [
            &a,
            &[token(0, 1), token(1, 2), token(1, 9), token(2, 4)],
            &[token(0, 1), token(2, 4)],
            &[token(0, 1), token(1, 2), token(1, 2), token(1, 3), token(2, 4)],
            &[],
            &[token(5, 5)],
        ];
        for new in cases {
            let edits = edits(&a, new);
            assert_eq!(apply(&a, &edits), apply(new, &[]), "{new:?}");
            assert!(edits.len() <= 1);
            if new == a {
                assert!(edits.is_empty());
            }
        }
        // Repeated tokens: the prefix and the suffix never overlap.
        let b = [token(1, 1), token(1, 1)];
        let c = [token(1, 1), token(1, 1), token(1, 1)];
        assert_eq!(apply(&b, &edits(&b, &c)), apply(&c, &[]));
        assert_eq!(apply(&c, &edits(&c, &b)), apply(&b, &[]));
    }
}
