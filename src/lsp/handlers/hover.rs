//! `textDocument/hover`

use tower_lsp::lsp_types::{Hover, HoverContents, HoverParams, MarkupContent, MarkupKind};

use crate::ide;
use crate::lsp::position;
use crate::lsp::state::State;

pub fn handle(state: &State, params: HoverParams) -> Option<Hover> {
    let (snapshot, offset) = super::locate(state, &params.text_document_position_params)?;
    let result = ide::hover::hover(&snapshot.file, offset);
    // A line changed since `HEAD` also shows its migration (setting
    // `diffAgainstHead`).
    let warnings = super::schema_diff::warnings(state, &snapshot);
    let migration = ide::schema_diff::hover(&warnings, offset);
    let (span, markdown) = match (result, migration) {
        (Some(r), Some((_, m))) => (r.span, format!("{}\n\n---\n\n{m}", r.markdown)),
        (Some(r), None) => (r.span, r.markdown),
        (None, Some((span, m))) => (span, m),
        (None, None) => return None,
    };
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: markdown,
        }),
        range: Some(position::range(&snapshot.rope, span, state.encoding())),
    })
}
