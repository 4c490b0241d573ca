//! `textDocument/inlayHint`

use tower_lsp::lsp_types::{InlayHint, InlayHintLabel, InlayHintParams, InlayHintTooltip};

use crate::ide::inlay::hints;
use crate::lsp::position;
use crate::lsp::state::State;

pub fn handle(state: &State, params: InlayHintParams) -> Option<Vec<InlayHint>> {
    let snapshot = state.snapshot(&params.text_document.uri)?;
    let visible = position::span(&snapshot.rope, params.range, state.encoding());
    let out = hints(&snapshot.file)
        .into_iter()
        .filter(|h| visible.is_none_or(|v| v.touches(h.offset)))
        .map(|h| InlayHint {
            position: position::position(&snapshot.rope, h.offset, state.encoding()),
            label: InlayHintLabel::String(h.label),
            kind: None,
            text_edits: None,
            tooltip: Some(InlayHintTooltip::String(h.tooltip)),
            padding_left: Some(true),
            padding_right: None,
            data: None,
        })
        .collect();
    Some(out)
}
