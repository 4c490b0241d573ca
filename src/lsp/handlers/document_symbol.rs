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

/// The outline, cut to [`symbols::MAX_OUTLINE_SYMBOLS`] symbols on a
/// very large document: its last symbol then says how many items were
/// left out, and spans them (choosing it goes to the first).
pub fn handle(state: &State, params: DocumentSymbolParams) -> Option<DocumentSymbolResponse> {
    let snapshot = state.snapshot(&params.text_document.uri)?;
    let encoding = state.encoding();
    let outline = symbols::bounded_outline(&snapshot.file, symbols::MAX_OUTLINE_SYMBOLS);
    let mut out: Vec<DocumentSymbol> = outline
        .symbols
        .into_iter()
        .map(|s| convert(&snapshot, encoding, s))
        .collect();
    if let Some(omitted) = outline.omitted {
        out.push(omitted_note(&snapshot, encoding, omitted));
    }
    Some(DocumentSymbolResponse::Nested(out))
}

#[allow(deprecated)] // `deprecated` is a required field of the struct
fn omitted_note(snapshot: &Snapshot, encoding: Encoding, omitted: symbols::Omitted) -> DocumentSymbol {
    DocumentSymbol {
        name: format!("… {} more items not listed", omitted.items),
        detail: Some(format!(
            "outline cut at {} symbols; {} symbols left out",
            symbols::MAX_OUTLINE_SYMBOLS,
            omitted.symbols
        )),
        kind: SymbolKind::NULL,
        tags: None,
        deprecated: None,
        range: position::range(&snapshot.rope, omitted.span, encoding),
        selection_range: position::range(&snapshot.rope, omitted.selection, encoding),
        children: Some(Vec::new()),
    }
}
