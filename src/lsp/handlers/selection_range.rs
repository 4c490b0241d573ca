//! `textDocument/selectionRange`

use tower_lsp::lsp_types::{SelectionRange, SelectionRangeParams};

use crate::ide::selection::ranges;
use crate::lsp::position;
use crate::lsp::state::State;

/// One chain per position, in the order asked. A position outside the
/// text selects the whole file (the protocol wants one answer for each).
pub fn handle(state: &State, params: SelectionRangeParams) -> Option<Vec<SelectionRange>> {
    let snapshot = state.snapshot(&params.text_document.uri)?;
    let encoding = state.encoding();
    let answers = params.positions.iter().map(|&at| {
        let offset = position::offset(&snapshot.rope, at, encoding).unwrap_or(snapshot.rope.len_bytes());
        // Outermost first, each becoming the parent of the next.
        let mut chain: Option<SelectionRange> = None;
        for span in ranges(&snapshot.file, offset).into_iter().rev() {
            chain = Some(SelectionRange {
                range: position::range(&snapshot.rope, span, encoding),
                parent: chain.map(Box::new),
            });
        }
        chain.unwrap_or(SelectionRange {
            range: position::range(&snapshot.rope, crate::syntax::Span::new(0, 0), encoding),
            parent: None,
        })
    });
    Some(answers.collect())
}
