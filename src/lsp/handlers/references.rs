//! `textDocument/references`: in every file of the document's schema (its
//! folder's, open or on disk).

use tower_lsp::lsp_types::{Location, ReferenceParams};

use crate::ide;
use crate::lsp::state::State;

pub fn handle(state: &State, params: ReferenceParams) -> Option<Vec<Location>> {
    let (snapshot, offset) = super::locate(state, &params.text_document_position)?;
    let (files, current) = snapshot.schema_files();
    let files: Vec<&ide::File> = files.iter().map(|f| &**f).collect();
    let found = ide::references::references_in(&files, current, offset, params.context.include_declaration);
    Some(
        found
            .into_iter()
            .filter_map(|at| snapshot.location(at, state.encoding()))
            .collect(),
    )
}
