//! `textDocument/codeLens`: "View table" above each table and "View items
//! read" above each pattern, running `dyno.view` (see `execute_command`).

use serde_json::json;
use tower_lsp::lsp_types::{CodeLens, CodeLensParams, Command};

use crate::ide::view::{COMMAND, lenses};
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
                command: COMMAND.into(),
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
