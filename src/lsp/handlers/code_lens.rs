//! `textDocument/codeLens`: "View table" above each table; above each
//! pattern how it is read (`gsi1 · Query · 0.5 RCU`, or its errors), which
//! runs `dyno.view`, and "Copy Query" / "Copy AWS CLI" (see
//! `execute_command`).

use serde_json::json;
use tower_lsp::lsp_types::{CodeLens, CodeLensParams, Command};

use crate::ide::code_lens::lenses;
use crate::lsp::position;
use crate::lsp::state::State;

pub fn handle(state: &State, params: CodeLensParams) -> Option<Vec<CodeLens>> {
    let snapshot = state.snapshot(&params.text_document.uri)?;
    let out = lenses(&snapshot.file)
        .into_iter()
        .map(|lens| CodeLens {
            range: position::range(&snapshot.rope, lens.span, state.encoding()),
            command: Some(Command {
                title: lens.title,
                command: lens.action.command().into(),
                arguments: Some(match lens.pattern {
                    Some(pattern) => vec![json!(snapshot.uri), json!(pattern)],
                    None => vec![json!(snapshot.uri)],
                }),
            }),
            data: None,
        })
        .collect();
    Some(out)
}
