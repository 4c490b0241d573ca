//! `textDocument/definition`: the target may be in another file of the
//! document's schema folder.

use tower_lsp::lsp_types::{GotoDefinitionParams, GotoDefinitionResponse, Location};

use crate::ide;
use crate::lsp::state::State;

pub fn handle(state: &State, params: GotoDefinitionParams) -> Option<GotoDefinitionResponse> {
    let (snapshot, offset) = super::locate(state, &params.text_document_position_params)?;
    let (files, current) = snapshot.schema_files();
    let files: Vec<&ide::File> = files.iter().map(|f| &**f).collect();
    let locations: Vec<Location> = ide::goto::definition_in(&files, current, offset)
        .into_iter()
        .filter_map(|at| snapshot.location(at, state.encoding()))
        .collect();
    (!locations.is_empty()).then_some(GotoDefinitionResponse::Array(locations))
}
