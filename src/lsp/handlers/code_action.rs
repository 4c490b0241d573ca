//! `textDocument/codeAction`: the quick fixes of the diagnostics in the
//! requested range, each a `WorkspaceEdit` on the document and tied to the
//! diagnostic it fixes; then "Design keys" (`refactor.rewrite`) when the
//! range touches a declaration and the designer changes the schema.
//!
//! Like every request, this answers about the document as it was when the
//! request arrived (`Server::request` pins it): the edits are ranges of
//! that text, never of a newer one, and carry its version for clients that
//! take versioned edits, so an edit made meanwhile makes them refuse it.

use std::collections::HashMap;

use tower_lsp::lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, CodeActionResponse, Diagnostic, DocumentChanges,
    NumberOrString, OneOf, OptionalVersionedTextDocumentIdentifier, TextDocumentEdit, TextEdit, WorkspaceEdit,
};

use super::diagnostics;
use crate::ide;
use crate::lsp::documents::Snapshot;
use crate::lsp::position;
use crate::lsp::state::State;
use crate::syntax::Span;

pub fn handle(state: &State, params: CodeActionParams) -> Option<CodeActionResponse> {
    // A client asking only for other kinds (source actions, say) gets none
    // of ours.
    let wants = |ours: CodeActionKind| {
        params
            .context
            .only
            .as_ref()
            .is_none_or(|only| only.iter().any(|kind| falls_under(&ours, kind)))
    };
    let (quickfix, rewrite) = (wants(CodeActionKind::QUICKFIX), wants(CodeActionKind::REFACTOR_REWRITE));
    if !quickfix && !rewrite {
        return Some(Vec::new());
    }
    let snapshot = state.snapshot(&params.text_document.uri)?;
    let encoding = state.encoding();
    let range = position::span(&snapshot.rope, params.range, encoding)?;
    let mut actions = if quickfix {
        quick_fixes(state, &snapshot, &params, range)
    } else {
        Vec::new()
    };
    if rewrite && let Some(design) = ide::design::design_keys(&snapshot.file, range) {
        let edits = design
            .edits
            .iter()
            .map(|(at, text)| TextEdit::new(position::range(&snapshot.rope, *at, encoding), text.clone()))
            .collect();
        // Never preferred and tied to no diagnostic: it rewrites the whole
        // schema's keys, which is for the user to ask for.
        actions.push(CodeActionOrCommand::CodeAction(CodeAction {
            title: design.title,
            kind: Some(CodeActionKind::REFACTOR_REWRITE),
            edit: Some(workspace_edit(state, &snapshot, edits)),
            ..CodeAction::default()
        }));
    }
    Some(actions)
}

/// The fixes of the diagnostics `range` touches.
fn quick_fixes(state: &State, snapshot: &Snapshot, params: &CodeActionParams, range: Span) -> Vec<CodeActionOrCommand> {
    let encoding = state.encoding();
    let analysis = &snapshot.file.analysis;
    ide::code_actions::actions(&snapshot.file, range)
        .into_iter()
        .filter_map(|action| {
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
            // In a schema folder a fix may edit other files too (an index
            // in the tables' file, keys in an entity's): then one change
            // per file, by URI.
            let edit = if action.edits.iter().all(|(at, _)| at.file == analysis.file) {
                let edits = action
                    .edits
                    .iter()
                    .map(|(at, text)| TextEdit::new(position::range(&snapshot.rope, at.span, encoding), text.clone()))
                    .collect();
                workspace_edit(state, snapshot, edits)
            } else {
                let mut changes: HashMap<tower_lsp::lsp_types::Url, Vec<TextEdit>> = HashMap::new();
                for (at, text) in &action.edits {
                    let location = snapshot.location(*at, encoding)?;
                    changes
                        .entry(location.uri)
                        .or_default()
                        .push(TextEdit::new(location.range, text.clone()));
                }
                WorkspaceEdit {
                    changes: Some(changes),
                    ..WorkspaceEdit::default()
                }
            };
            Some(CodeActionOrCommand::CodeAction(CodeAction {
                title: action.title,
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![diagnostic]),
                edit: Some(edit),
                is_preferred: action.preferred.then_some(true),
                ..CodeAction::default()
            }))
        })
        .collect()
}

/// Edits of the document as the snapshot has it. A client that takes
/// versioned edits gets the snapshot's version with them, and refuses to
/// apply them to a document edited since; other clients get plain changes.
fn workspace_edit(state: &State, snapshot: &Snapshot, edits: Vec<TextEdit>) -> WorkspaceEdit {
    if state.versioned_edits() {
        let document = OptionalVersionedTextDocumentIdentifier {
            uri: snapshot.uri.clone(),
            version: Some(snapshot.version),
        };
        let edits = edits.into_iter().map(OneOf::Left).collect();
        WorkspaceEdit {
            document_changes: Some(DocumentChanges::Edits(vec![TextDocumentEdit {
                text_document: document,
                edits,
            }])),
            ..WorkspaceEdit::default()
        }
    } else {
        WorkspaceEdit {
            changes: Some(HashMap::from([(snapshot.uri.clone(), edits)])),
            ..WorkspaceEdit::default()
        }
    }
}

/// `ours` is the `asked` kind or falls under it (`refactor.rewrite` under
/// `refactor`; everything under `""`).
fn falls_under(ours: &CodeActionKind, asked: &CodeActionKind) -> bool {
    let (ours, asked) = (ours.as_str(), asked.as_str());
    asked.is_empty() || ours == asked || ours.starts_with(&format!("{asked}."))
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
        let response = handle(&state, params(&uri, cursor, Vec::new(), quickfix())).unwrap();
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
        let response = handle(&state, params(&uri, HOLE, vec![client.clone()], quickfix())).unwrap();
        let [CodeActionOrCommand::CodeAction(action)] = response.as_slice() else {
            panic!("one code action expected: {response:#?}")
        };
        assert_eq!(action.diagnostics, Some(vec![client]));
    }

    fn quickfix() -> Option<Vec<CodeActionKind>> {
        Some(vec![CodeActionKind::QUICKFIX])
    }

    /// The kinds of the actions a request gets.
    fn kinds(response: Option<CodeActionResponse>) -> Option<Vec<CodeActionKind>> {
        let kind = |action: CodeActionOrCommand| match action {
            CodeActionOrCommand::CodeAction(action) => action.kind.unwrap(),
            CodeActionOrCommand::Command(_) => panic!("a command: {action:?}"),
        };
        response.map(|actions| actions.into_iter().map(kind).collect())
    }

    #[test]
    fn each_kind_when_asked_for_and_nothing_for_unknown_documents() {
        let (state, uri) = open();
        let ask = |range, only| kinds(handle(&state, params(&uri, range, Vec::new(), only)));
        let first_line = Range::new(Position::new(0, 0), Position::new(0, 5));
        // The table is a declaration without diagnostics: only "Design keys".
        assert_eq!(ask(first_line, quickfix()), Some(Vec::new()));
        assert_eq!(ask(first_line, None), Some(vec![CodeActionKind::REFACTOR_REWRITE]));
        let (fix, rewrite) = (CodeActionKind::QUICKFIX, CodeActionKind::REFACTOR_REWRITE);
        assert_eq!(ask(HOLE, None), Some(vec![fix.clone(), rewrite.clone()]));
        assert_eq!(
            ask(HOLE, Some(vec![CodeActionKind::REFACTOR])),
            Some(vec![rewrite.clone()])
        );
        assert_eq!(ask(HOLE, Some(vec![CodeActionKind::SOURCE])), Some(Vec::new()));
        assert_eq!(ask(HOLE, Some(vec![CodeActionKind::EMPTY])), Some(vec![fix, rewrite]));
        let other = Url::parse("file:///other.dyno").unwrap();
        assert_eq!(handle(&state, params(&other, HOLE, Vec::new(), None)), None);
        let past_the_end = Range::new(Position::new(99, 0), Position::new(99, 0));
        assert_eq!(handle(&state, params(&uri, past_the_end, Vec::new(), None)), None);
    }

    #[test]
    fn versioned_edits_for_clients_that_take_them() {
        let (state, uri) = open();
        state.set_versioned_edits(true);
        let response = handle(&state, params(&uri, HOLE, Vec::new(), None)).unwrap();
        assert_eq!(response.len(), 2, "{response:#?}");
        for action in response {
            let CodeActionOrCommand::CodeAction(action) = action else {
                panic!("a command: {action:?}")
            };
            let edit = action.edit.unwrap();
            assert_eq!(edit.changes, None);
            let Some(DocumentChanges::Edits(documents)) = edit.document_changes else {
                panic!("no document edits: {edit:?}")
            };
            let [document] = documents.as_slice() else {
                panic!("one document expected: {documents:?}")
            };
            assert_eq!(document.text_document.uri, uri);
            assert_eq!(document.text_document.version, Some(1));
            assert!(!document.edits.is_empty());
        }
    }

    #[test]
    fn design_keys_is_a_rewrite_of_the_document_tied_to_no_diagnostic() {
        let (state, uri) = open();
        let response = handle(
            &state,
            params(&uri, HOLE, Vec::new(), Some(vec![CodeActionKind::REFACTOR])),
        )
        .unwrap();
        let [CodeActionOrCommand::CodeAction(action)] = response.as_slice() else {
            panic!("one code action expected: {response:#?}")
        };
        assert!(action.title.starts_with("Design keys: "), "{}", action.title);
        assert_eq!((action.diagnostics.as_ref(), action.is_preferred), (None, None));
        let changes = action.edit.as_ref().unwrap().changes.as_ref().unwrap();
        assert_eq!(changes.keys().collect::<Vec<_>>(), vec![&uri]);
        assert!(!changes[&uri].is_empty());
    }
}
