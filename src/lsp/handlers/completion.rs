//! `textDocument/completion` and `completionItem/resolve`: an entity or
//! table offered gets its hover (keys, an example item, size) as
//! documentation only when the editor shows that item.

use serde_json::json;
use tower_lsp::lsp_types::{
    CompletionItem, CompletionItemKind, CompletionList, CompletionParams, CompletionResponse, CompletionTextEdit,
    Documentation, InsertTextFormat, MarkupContent, MarkupKind, TextEdit, Url,
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
            // Resolved later: which document, and the name to document.
            let data = matches!(c.kind, CompletionKind::Entity | CompletionKind::Table)
                .then(|| json!({ "uri": snapshot.uri, "name": c.label }));
            CompletionItem {
                kind: Some(kind(c.kind)),
                data,
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

/// Adds the documentation of an entity or table item; any other item, or
/// one whose document is gone, comes back as it was.
pub fn resolve(state: &State, mut item: CompletionItem) -> CompletionItem {
    let data = item.data.as_ref();
    let uri = data.and_then(|d| d["uri"].as_str()).and_then(|u| Url::parse(u).ok());
    let name = data.and_then(|d| d["name"].as_str());
    let (Some(uri), Some(name)) = (uri, name) else {
        return item;
    };
    if let Some(markdown) = state.snapshot(&uri).and_then(|s| ide::hover::of_name(&s.file, name)) {
        item.documentation = Some(Documentation::MarkupContent(MarkupContent {
            kind: MarkupKind::Markdown,
            value: markdown,
        }));
    }
    item
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
