//! `textDocument/codeAction`: the quick fixes of the diagnostics in the
//! requested range, each a `WorkspaceEdit` on the document and tied to the
//! diagnostic it fixes.

use std::collections::HashMap;

use tower_lsp::lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, CodeActionResponse, Diagnostic, NumberOrString,
    TextEdit, WorkspaceEdit,
};

use super::diagnostics;
use crate::ide;
use crate::lsp::position;
use crate::lsp::state::State;

pub fn handle(state: &State, params: CodeActionParams) -> Option<CodeActionResponse> {
    // Quick fixes are the only kind there is: a client asking only for
    // others (refactorings, source actions) gets none.
    if let Some(only) = &params.context.only
        && !only.iter().any(wants_quickfix)
    {
        return Some(Vec::new());
    }
    let snapshot = state.snapshot(&params.text_document.uri)?;
    let encoding = state.encoding();
    let range = position::span(&snapshot.rope, params.range, encoding)?;
    let analysis = &snapshot.file.analysis;
    let actions = ide::code_actions::actions(&snapshot.file, range)
        .into_iter()
        .map(|action| {
            let ours = diagnostics::convert(
                &snapshot.uri,
                &snapshot.rope,
                &analysis.diagnostics()[action.diagnostic],
                encoding,
            );
            // The client's copy of the diagnostic when it sent one, so it can
            // match the action to what it shows.
            let diagnostic = params
                .context
                .diagnostics
                .iter()
                .find(|d| same(d, &ours))
                .cloned()
                .unwrap_or(ours);
            // A document is a schema of its own: every edit is in it.
            let edits: Vec<TextEdit> = action
                .edits
                .iter()
                .filter(|(at, _)| at.file == analysis.file)
                .map(|(at, text)| TextEdit::new(position::range(&snapshot.rope, at.span, encoding), text.clone()))
                .collect();
            CodeActionOrCommand::CodeAction(CodeAction {
                title: action.title,
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![diagnostic]),
                edit: Some(WorkspaceEdit {
                    changes: Some(HashMap::from([(snapshot.uri.clone(), edits)])),
                    ..WorkspaceEdit::default()
                }),
                is_preferred: action.preferred.then_some(true),
                ..CodeAction::default()
            })
        })
        .collect();
    Some(actions)
}

/// `quickfix` itself, or a kind it falls under (`""` is every kind).
fn wants_quickfix(kind: &CodeActionKind) -> bool {
    let quickfix = CodeActionKind::QUICKFIX;
    let (quickfix, kind) = (quickfix.as_str(), kind.as_str());
    kind.is_empty() || kind == quickfix || quickfix.starts_with(&format!("{kind}."))
}

/// The same diagnostic: same place, same code, from dyno.
fn same(client: &Diagnostic, ours: &Diagnostic) -> bool {
    let code = |d: &Diagnostic| match &d.code {
        Some(NumberOrString::String(code)) => Some(code.clone()),
        _ => None,
    };
    client.range == ours.range && code(client) == code(ours) && client.source == ours.source
}

#[cfg(test)]
mod tests {
    use tower_lsp::lsp_types::{
        CodeActionContext, PartialResultParams, Position, Range, TextDocumentIdentifier, Url, WorkDoneProgressParams,
    };

    use super::*;

    const TEXT: &str = "table App {\n  key pk\n}\nentity User {\n  userId: id\n  pk = \"🎉#{userID}\"\n}\n\
                        pattern getUser(userId) -> User\n";

    fn params(
        uri: &Url,
        range: Range,
        diagnostics: Vec<Diagnostic>,
        only: Option<Vec<CodeActionKind>>,
    ) -> CodeActionParams {
        CodeActionParams {
            text_document: TextDocumentIdentifier::new(uri.clone()),
            range,
            context: CodeActionContext {
                diagnostics,
                only,
                trigger_kind: None,
            },
            work_done_progress_params: WorkDoneProgressParams::default(),
            partial_result_params: PartialResultParams::default(),
        }
    }

    fn open() -> (State, Url) {
        let state = State::default();
        let uri = Url::parse("file:///schema.dyno").unwrap();
        state.documents.open(uri.clone(), TEXT, 1);
        (state, uri)
    }

    /// `userID` on line 5, after `  pk = "🎉#{`: 12 UTF-16 code units in
    /// (14 bytes).
    const HOLE: Range = Range {
        start: Position { line: 5, character: 12 },
        end: Position { line: 5, character: 18 },
    };

    #[test]
    fn quick_fix_with_its_diagnostic_and_utf16_edit() {
        let (state, uri) = open();
        let cursor = Range::new(Position::new(5, 13), Position::new(5, 13));
        let response = handle(&state, params(&uri, cursor, Vec::new(), None)).unwrap();
        let [CodeActionOrCommand::CodeAction(action)] = response.as_slice() else {
            panic!("one code action expected: {response:#?}")
        };
        assert_eq!(action.title, "change to `userId`");
        assert_eq!(action.kind, Some(CodeActionKind::QUICKFIX));
        assert_eq!(action.is_preferred, Some(true));
        let diagnostics = action.diagnostics.as_ref().unwrap();
        assert_eq!(diagnostics.len(), 1);
        assert_eq!(diagnostics[0].range, HOLE);
        assert_eq!(diagnostics[0].code, Some(NumberOrString::String("E101".into())));
        let changes = action.edit.as_ref().unwrap().changes.as_ref().unwrap();
        assert_eq!(changes[&uri], vec![TextEdit::new(HOLE, "userId".into())]);
    }

    #[test]
    fn the_clients_diagnostic_is_echoed() {
        let (state, uri) = open();
        let client = Diagnostic {
            range: HOLE,
            code: Some(NumberOrString::String("E101".into())),
            source: Some("dyno".into()),
            message: "as the client has it".into(),
            ..Diagnostic::default()
        };
        let response = handle(&state, params(&uri, HOLE, vec![client.clone()], None)).unwrap();
        let [CodeActionOrCommand::CodeAction(action)] = response.as_slice() else {
            panic!("one code action expected: {response:#?}")
        };
        assert_eq!(action.diagnostics, Some(vec![client]));
    }

    #[test]
    fn nothing_elsewhere_for_other_kinds_or_unknown_documents() {
        let (state, uri) = open();
        let first_line = Range::new(Position::new(0, 0), Position::new(0, 5));
        assert_eq!(
            handle(&state, params(&uri, first_line, Vec::new(), None)),
            Some(Vec::new())
        );
        let refactor = Some(vec![CodeActionKind::REFACTOR]);
        assert_eq!(
            handle(&state, params(&uri, HOLE, Vec::new(), refactor)),
            Some(Vec::new())
        );
        let everything = Some(vec![CodeActionKind::EMPTY]);
        assert_eq!(
            handle(&state, params(&uri, HOLE, Vec::new(), everything)).map(|r| r.len()),
            Some(1)
        );
        let other = Url::parse("file:///other.dyno").unwrap();
        assert_eq!(handle(&state, params(&other, HOLE, Vec::new(), None)), None);
        let past_the_end = Range::new(Position::new(99, 0), Position::new(99, 0));
        assert_eq!(handle(&state, params(&uri, past_the_end, Vec::new(), None)), None);
    }
}
