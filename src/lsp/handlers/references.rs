//! `textDocument/references`

use tower_lsp::lsp_types::{Location, ReferenceParams};

use crate::ide;
use crate::lsp::position;
use crate::lsp::state::State;

pub fn handle(state: &State, params: ReferenceParams) -> Option<Vec<Location>> {
    let (snapshot, offset) = super::locate(state, &params.text_document_position)?;
    let found = ide::references::references(&snapshot.file, offset, params.context.include_declaration);
    // A document is a schema of its own: every reference is in it.
    let this = snapshot.file.analysis.file;
    Some(
        found
            .into_iter()
            .filter(|at| at.file == this)
            .map(|at| {
                Location::new(
                    snapshot.uri.clone(),
                    position::range(&snapshot.rope, at.span, state.encoding()),
                )
            })
            .collect(),
    )
}
