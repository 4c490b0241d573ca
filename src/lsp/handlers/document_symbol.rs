//! `textDocument/documentSymbol`

use tower_lsp::lsp_types::{DocumentSymbol, DocumentSymbolParams, DocumentSymbolResponse, SymbolKind};

use crate::ide::symbols::{self, SymbolKind as Kind};
use crate::lsp::documents::Snapshot;
use crate::lsp::position::{self, Encoding};
use crate::lsp::state::State;

pub fn kind(kind: Kind) -> SymbolKind {
    match kind {
        Kind::Table => SymbolKind::STRUCT,
        Kind::Index => SymbolKind::KEY,
        Kind::Entity => SymbolKind::CLASS,
        Kind::Attribute => SymbolKind::FIELD,
        Kind::Pattern => SymbolKind::FUNCTION,
    }
}

#[allow(deprecated)] // `deprecated` is a required field of the struct
fn convert(snapshot: &Snapshot, encoding: Encoding, symbol: symbols::DocumentSymbol) -> DocumentSymbol {
    DocumentSymbol {
        name: symbol.name,
        detail: symbol.detail,
        kind: kind(symbol.kind),
        tags: None,
        deprecated: None,
        range: position::range(&snapshot.rope, symbol.span, encoding),
        selection_range: position::range(&snapshot.rope, symbol.selection, encoding),
        children: Some(
            symbol
                .children
                .into_iter()
                .map(|c| convert(snapshot, encoding, c))
                .collect(),
        ),
    }
}

pub fn handle(state: &State, params: DocumentSymbolParams) -> Option<DocumentSymbolResponse> {
    let snapshot = state.snapshot(&params.text_document.uri)?;
    let symbols = symbols::document_symbols(&snapshot.file);
    Some(DocumentSymbolResponse::Nested(
        symbols
            .into_iter()
            .map(|s| convert(&snapshot, state.encoding(), s))
            .collect(),
    ))
}
