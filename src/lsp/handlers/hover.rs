//! `textDocument/hover`

use tower_lsp::lsp_types::{Hover, HoverContents, HoverParams, MarkupContent, MarkupKind};

use crate::ide;
use crate::lsp::position;
use crate::lsp::state::State;

pub fn handle(state: &State, params: HoverParams) -> Option<Hover> {
    let (snapshot, offset) = super::locate(state, &params.text_document_position_params)?;
    let result = ide::hover::hover(&snapshot.file, offset)?;
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: result.markdown,
        }),
        range: Some(position::range(&snapshot.rope, result.span, state.encoding())),
    })
}
