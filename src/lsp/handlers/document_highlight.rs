//! `textDocument/documentHighlight`

use tower_lsp::lsp_types::{DocumentHighlight, DocumentHighlightKind, DocumentHighlightParams};

use crate::ide::highlight::{Access, highlights};
use crate::lsp::position;
use crate::lsp::state::State;

pub fn handle(state: &State, params: DocumentHighlightParams) -> Option<Vec<DocumentHighlight>> {
    let (snapshot, offset) = super::locate(state, &params.text_document_position_params)?;
    let found = highlights(&snapshot.file, offset);
    Some(
        found
            .into_iter()
            .map(|h| DocumentHighlight {
                range: position::range(&snapshot.rope, h.span, state.encoding()),
                kind: Some(match h.access {
                    Access::Write => DocumentHighlightKind::WRITE,
                    Access::Read => DocumentHighlightKind::READ,
                }),
            })
            .collect(),
    )
}
