//! `textDocument/semanticTokens/full`

use tower_lsp::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp::lsp_types::{
    SemanticToken, SemanticTokenModifier, SemanticTokenType, SemanticTokens, SemanticTokensLegend,
    SemanticTokensParams, SemanticTokensResult, Url,
};

use crate::ide::semantic_tokens::{Kind, tokens, tokens_in};
use crate::lsp::documents::Snapshot;
use crate::lsp::position::{self, Encoding};
use crate::lsp::state::State;
use crate::syntax::Span;

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

/// Above this size a document gets no full semantic tokens: a 10 MB
/// schema's were 16 MB of JSON (docs/performance.md), and keeping them
/// for deltas cost memory again. Ranges are answered at any size (each
/// at most this many bytes of text).
pub const MAX_FULL_BYTES: usize = 1 << 20;

/// The error `ServerCancelled` (LSP 3.17), which a client that declares
/// `serverCancelSupport` takes as "not available now": it keeps asking
/// for the ranges it shows.
const SERVER_CANCELLED: i64 = -32802;

pub fn handle(state: &State, params: SemanticTokensParams) -> Result<Option<SemanticTokensResult>> {
    let uri = params.text_document.uri;
    let Some(snapshot) = state.snapshot(&uri) else {
        return Ok(None);
    };
    if let Some(bounded) = over_limit(state, &uri, &snapshot)? {
        return Ok(Some(SemanticTokensResult::Tokens(bounded)));
    }
    let data = encode(&tokens(&snapshot.file), &snapshot, state.encoding());
    let result_id = state.remember_semantic_tokens(&uri, data.clone());
    Ok(Some(SemanticTokensResult::Tokens(SemanticTokens {
        result_id: Some(result_id),
        data,
    })))
}

/// The answer to a full (or delta) request on a document larger than
/// [`MAX_FULL_BYTES`], `None` for a smaller one. The document's last full
/// tokens are forgotten. A client that takes `ServerCancelled` gets it,
/// and asks for ranges instead (VS Code then colours what it shows with
/// `semanticTokens/range`); any other gets the tokens of the lines within
/// the first [`MAX_FULL_BYTES`], without a result id, so that its next
/// request is a full one again.
pub fn over_limit(state: &State, uri: &Url, snapshot: &Snapshot) -> Result<Option<SemanticTokens>> {
    let text = &*snapshot.file.text;
    if text.len() <= MAX_FULL_BYTES {
        return Ok(None);
    }
    state.forget_semantic_tokens(uri);
    if state.semantic_tokens_cancel() {
        return Err(Error {
            code: ErrorCode::ServerError(SERVER_CANCELLED),
            message: format!(
                "dyno: no full semantic tokens for a document over {MAX_FULL_BYTES} bytes; ask for ranges"
            )
            .into(),
            data: None,
        });
    }
    // The lines that end within the limit (at `\n`, `\r\n` or a lone `\r`).
    let end = text.as_bytes()[..MAX_FULL_BYTES]
        .iter()
        .rposition(|&b| b == b'\n' || b == b'\r')
        .unwrap_or(0);
    let found = tokens_in(&snapshot.file, Span::new(0, end));
    Ok(Some(SemanticTokens {
        result_id: None,
        data: encode(&found, snapshot, state.encoding()),
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
        let start = position::position(&snapshot.rope, token.span.start(), encoding);
        let end = position::position(&snapshot.rope, token.span.end(), encoding);
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
