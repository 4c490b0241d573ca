//! `textDocument/semanticTokens/full`

use tower_lsp::lsp_types::{
    SemanticToken, SemanticTokenModifier, SemanticTokenType, SemanticTokens, SemanticTokensLegend,
    SemanticTokensParams, SemanticTokensResult,
};

use crate::ide::semantic_tokens::{Kind, tokens};
use crate::lsp::documents::Snapshot;
use crate::lsp::position::{self, Encoding};
use crate::lsp::state::State;

fn token_type(kind: Kind) -> SemanticTokenType {
    match kind {
        Kind::Keyword => SemanticTokenType::KEYWORD,
        Kind::Type => SemanticTokenType::TYPE,
        Kind::Table => SemanticTokenType::STRUCT,
        Kind::Index => SemanticTokenType::INTERFACE,
        Kind::Key => SemanticTokenType::PROPERTY,
        Kind::Entity => SemanticTokenType::CLASS,
        Kind::Attribute => SemanticTokenType::PROPERTY,
        Kind::Pattern => SemanticTokenType::FUNCTION,
        Kind::Parameter => SemanticTokenType::PARAMETER,
        Kind::TypeTag => SemanticTokenType::ENUM_MEMBER,
        Kind::Delimiter => SemanticTokenType::OPERATOR,
        Kind::String => SemanticTokenType::STRING,
        Kind::Number => SemanticTokenType::NUMBER,
        Kind::Comment => SemanticTokenType::COMMENT,
    }
}

const MODIFIERS: [SemanticTokenModifier; 2] =
    [SemanticTokenModifier::DECLARATION, SemanticTokenModifier::DOCUMENTATION];

pub fn legend() -> SemanticTokensLegend {
    let mut types: Vec<SemanticTokenType> = Vec::new();
    for kind in Kind::ALL {
        let t = token_type(*kind);
        if !types.contains(&t) {
            types.push(t);
        }
    }
    SemanticTokensLegend {
        token_types: types,
        token_modifiers: MODIFIERS.to_vec(),
    }
}

pub fn handle(state: &State, params: SemanticTokensParams) -> Option<SemanticTokensResult> {
    let uri = params.text_document.uri;
    let snapshot = state.snapshot(&uri)?;
    let data = encode(&tokens(&snapshot.file), &snapshot, state.encoding());
    let result_id = state.remember_semantic_tokens(&uri, data.clone());
    Some(SemanticTokensResult::Tokens(SemanticTokens {
        result_id: Some(result_id),
        data,
    }))
}

/// Tokens as the protocol has them: each relative to the one before.
pub fn encode(
    tokens: &[crate::ide::semantic_tokens::SemanticToken],
    snapshot: &Snapshot,
    encoding: Encoding,
) -> Vec<SemanticToken> {
    let legend = legend();
    let mut data = Vec::new();
    let (mut line, mut column) = (0, 0);
    for token in tokens {
        let start = position::position(&snapshot.rope, token.span.start, encoding);
        let end = position::position(&snapshot.rope, token.span.end, encoding);
        if end.line != start.line || end.character <= start.character {
            continue; // tokens never span lines
        }
        let delta_line = start.line - line;
        let delta_start = if delta_line == 0 {
            start.character - column
        } else {
            start.character
        };
        let type_index = legend
            .token_types
            .iter()
            .position(|t| *t == token_type(token.kind))
            .unwrap_or(0) as u32;
        let modifiers = u32::from(token.declaration) | (u32::from(token.documentation) << 1);
        data.push(SemanticToken {
            delta_line,
            delta_start,
            length: end.character - start.character,
            token_type: type_index,
            token_modifiers_bitset: modifiers,
        });
        (line, column) = (start.line, start.character);
    }
    data
}
