//! `textDocument/definition`

use tower_lsp::lsp_types::{GotoDefinitionParams, GotoDefinitionResponse, Location};

use crate::ide;
use crate::lsp::position;
use crate::lsp::state::State;

pub fn handle(state: &State, params: GotoDefinitionParams) -> Option<GotoDefinitionResponse> {
    let (snapshot, offset) = super::locate(state, &params.text_document_position_params)?;
    let locations: Vec<Location> = ide::goto::definition(&snapshot.file, offset)
        .into_iter()
        .map(|span| {
            Location::new(
                snapshot.uri.clone(),
                position::range(&snapshot.rope, span, state.encoding()),
            )
        })
        .collect();
    (!locations.is_empty()).then_some(GotoDefinitionResponse::Array(locations))
}
