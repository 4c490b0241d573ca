//! `textDocument/references`

use tower_lsp::lsp_types::{Location, ReferenceParams};

use crate::ide;
use crate::lsp::position;
use crate::lsp::state::State;

pub fn handle(state: &State, params: ReferenceParams) -> Option<Vec<Location>> {
    let (snapshot, offset) = super::locate(state, &params.text_document_position)?;
    let spans = ide::references::references(&snapshot.file, offset, params.context.include_declaration);
    Some(
        spans
            .into_iter()
            .map(|s| {
                Location::new(
                    snapshot.uri.clone(),
                    position::range(&snapshot.rope, s, state.encoding()),
                )
            })
            .collect(),
    )
}
