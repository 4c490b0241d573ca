//! `textDocument/completion`

use tower_lsp::lsp_types::{
    CompletionItem, CompletionItemKind, CompletionList, CompletionParams, CompletionResponse, CompletionTextEdit,
    InsertTextFormat, TextEdit,
};

use crate::ide;
use crate::ide::completion::CompletionKind;
use crate::lsp::position;
use crate::lsp::state::State;

pub fn handle(state: &State, params: CompletionParams) -> Option<CompletionResponse> {
    let (snapshot, offset) = super::locate(state, &params.text_document_position)?;
    let completions = ide::completion::completions(&snapshot.file, offset);
    if completions.is_empty() {
        return None;
    }
    let (completions, is_incomplete) = ide::completion::limit(completions, &snapshot.file.text, offset, MAX_ITEMS);
    let items = completions
        .into_iter()
        .enumerate()
        .map(|(i, mut c)| {
            // Clients that take no snippets get the placeholders' defaults.
            if c.snippet && !state.snippets() {
                c.insert_text = c.insert_text.as_deref().map(ide::completion::plain_text);
                c.snippet = false;
            }
            let new_text = c.insert_text.clone().unwrap_or_else(|| c.label.clone());
            let text_edit = c.replace.map(|span| {
                CompletionTextEdit::Edit(TextEdit::new(
                    position::range(&snapshot.rope, span, state.encoding()),
                    new_text.clone(),
                ))
            });
            CompletionItem {
                kind: Some(kind(c.kind)),
                detail: c.detail,
                // The server's order is the context's order of relevance.
                sort_text: Some(format!("{i:04}")),
                insert_text: if text_edit.is_none() { c.insert_text } else { None },
                insert_text_format: Some(if c.snippet {
                    InsertTextFormat::SNIPPET
                } else {
                    InsertTextFormat::PLAIN_TEXT
                }),
                text_edit,
                label: c.label,
                ..CompletionItem::default()
            }
        })
        .collect();
    Some(CompletionResponse::List(CompletionList { is_incomplete, items }))
}

/// Longer lists are cut to what matches the typed word (`ide::completion::limit`).
const MAX_ITEMS: usize = 200;

fn kind(kind: CompletionKind) -> CompletionItemKind {
    match kind {
        CompletionKind::Keyword => CompletionItemKind::KEYWORD,
        CompletionKind::Type => CompletionItemKind::TYPE_PARAMETER,
        CompletionKind::Entity => CompletionItemKind::CLASS,
        CompletionKind::Attribute => CompletionItemKind::FIELD,
        CompletionKind::Index => CompletionItemKind::INTERFACE,
        CompletionKind::Table => CompletionItemKind::MODULE,
        CompletionKind::Key => CompletionItemKind::PROPERTY,
        CompletionKind::Value => CompletionItemKind::VARIABLE,
        CompletionKind::EnumMember => CompletionItemKind::ENUM_MEMBER,
        CompletionKind::Prefix => CompletionItemKind::CONSTANT,
        CompletionKind::Snippet => CompletionItemKind::SNIPPET,
    }
}
