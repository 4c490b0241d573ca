//! `dyno design --fresh`: the schema without the key templates, the index
//! declarations and the pinned Queries written in it, so that the designer
//! starts from the entities and patterns alone (and a design can be
//! compared with the one written by hand).

use crate::syntax::ast::{Item, Pattern};
use crate::syntax::{Span, parse};

use super::render::apply;

/// `text` without its key templates, `item { }` blocks, indexes and pinned
/// Queries; a line left empty by a removal goes with it.
pub fn without_keys(text: &str) -> String {
    let parse = parse(text);
    let mut spans: Vec<Span> = Vec::new();
    for item in &parse.file.items {
        match item {
            Item::Table(table) => spans.extend(
                table
                    .indexes
                    .iter()
                    .map(|i| with_docs(i.span, i.docs.as_ref().map(|d| d.span))),
            ),
            Item::Entity(entity) => {
                spans.extend(
                    entity
                        .keys
                        .iter()
                        .map(|k| with_docs(k.span, k.docs.as_ref().map(|d| d.span))),
                );
                spans.extend(entity.items.iter().map(|i| i.span));
            }
            Item::Pattern(pattern) => spans.extend(pinned(pattern)),
        }
    }
    let edits: Vec<(Span, String)> = spans
        .into_iter()
        .map(|s| (whole_lines(text, s), String::new()))
        .collect();
    apply(text, &edits)
}

fn with_docs(span: Span, docs: Option<Span>) -> Span {
    docs.map_or(span, |d| Span::new(d.start().min(span.start()), span.end()))
}

/// From the end of the returns and modifiers (the `=`) to the Query's end.
fn pinned(pattern: &Pattern) -> Option<Span> {
    let query = pattern.query.as_ref()?;
    let end = pattern
        .returns
        .iter()
        .map(|r| r.span.end())
        .chain(pattern.modifiers.iter().map(|m| m.span().end()))
        .max()?;
    Some(Span::new(end, query.span.end()))
}

/// `span` grown to whole lines when nothing but blanks (and a comment
/// after it) shares them.
fn whole_lines(text: &str, span: Span) -> Span {
    let start = text[..span.start()].rfind('\n').map_or(0, |i| i + 1);
    let end = text[span.end()..].find('\n').map_or(text.len(), |i| span.end() + i + 1);
    let before = &text[start..span.start()];
    let after = text[span.end()..end].trim();
    if before.trim().is_empty() && (after.is_empty() || after.starts_with("//")) {
        Span::new(start, end)
    } else {
        span
    }
}
