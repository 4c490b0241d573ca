//! `textDocument/formatting`: the same formatter as `dyno fmt`. A file with
//! syntax errors is left alone (no edits).

use tower_lsp::lsp_types::{DocumentFormattingParams, TextEdit};

use crate::ide;
use crate::lsp::position;
use crate::lsp::state::State;
use crate::syntax::Span;

pub fn handle(state: &State, params: DocumentFormattingParams) -> Option<Vec<TextEdit>> {
    let snapshot = state.snapshot(&params.text_document.uri)?;
    let text = &snapshot.file.text;
    let formatted = ide::format::format(text).ok()?;
    if *formatted == **text {
        return Some(Vec::new());
    }
    let whole = position::range(&snapshot.rope, Span::new(0, text.len()), state.encoding());
    Some(vec![TextEdit::new(whole, formatted)])
}
