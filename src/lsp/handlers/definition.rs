//! `textDocument/definition`

use tower_lsp::lsp_types::{GotoDefinitionParams, GotoDefinitionResponse, Location};

use crate::ide;
use crate::lsp::position;
use crate::lsp::state::State;

pub fn handle(state: &State, params: GotoDefinitionParams) -> Option<GotoDefinitionResponse> {
    let (snapshot, offset) = super::locate(state, &params.text_document_position_params)?;
    // A document is a schema of its own: every definition is in it.
    let this = snapshot.file.analysis.file;
    let locations: Vec<Location> = ide::goto::definition(&snapshot.file, offset)
        .into_iter()
        .filter(|at| at.file == this)
        .map(|at| {
            Location::new(
                snapshot.uri.clone(),
                position::range(&snapshot.rope, at.span, state.encoding()),
            )
        })
        .collect();
    (!locations.is_empty()).then_some(GotoDefinitionResponse::Array(locations))
}
