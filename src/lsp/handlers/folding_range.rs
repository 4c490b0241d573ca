//! `textDocument/foldingRange`

use tower_lsp::lsp_types::{FoldingRange, FoldingRangeKind, FoldingRangeParams};

use crate::ide::folding::{FoldKind, folds};
use crate::lsp::state::State;

pub fn handle(state: &State, params: FoldingRangeParams) -> Option<Vec<FoldingRange>> {
    let snapshot = state.snapshot(&params.text_document.uri)?;
    let rope = &snapshot.rope;
    let line = |offset: usize| rope.byte_to_line(offset.min(rope.len_bytes())) as u32;
    let ranges = folds(&snapshot.file)
        .into_iter()
        .map(|fold| FoldingRange {
            start_line: line(fold.span.start()),
            end_line: line(fold.span.end().saturating_sub(1).max(fold.span.start())),
            kind: Some(match fold.kind {
                FoldKind::Region => FoldingRangeKind::Region,
                FoldKind::Comment => FoldingRangeKind::Comment,
            }),
            ..FoldingRange::default()
        })
        .filter(|r| r.end_line > r.start_line)
        .collect();
    Some(ranges)
}
