//! The parser over the logos tokens, with error recovery: the result is
//! always a syntax tree, possibly partial, plus diagnostics. Two readers of
//! one grammar: a hand-written one (`direct`) reads the items that have no
//! error, and the grammar written with chumsky's combinators reads again
//! an item the first one found an error in, to say what was expected and
//! to recover (the tests hold both to the same trees).
//! Recovery happens at three levels: a broken member of a `{}` body skips to
//! the next member, a broken `()` list is skipped as a whole, and a broken
//! item skips to the next `table`, `entity` or `pattern` keyword. None of
//! them reads past an item keyword, so a text is parsed item by item
//! (`chunks`), and an edit re-parses only the items it touched.

mod atoms;
mod chunks;
mod direct;
mod entity;
mod pattern;
mod table;

use std::sync::Arc;

use chumsky::error::{RichPattern, RichReason};
use chumsky::prelude::*;

use super::ast::{Docs, Item, SourceFile};
use super::lexer::Token;
use super::{FileId, Span, in_text};
use crate::diagnostic::{Code, Diagnostic};
use atoms::{Extra, Fail, Tokens};

/// The result of parsing one file.
#[derive(Clone, Debug, Default)]
pub struct Parse {
    pub file: SourceFile,
    /// Lexical and syntax errors, in source order.
    pub diagnostics: Vec<Diagnostic>,
    /// The stretch of text of each top-level item, in order: what lets
    /// [`reparse_in`] keep the items an edit did not touch.
    chunks: Vec<chunks::Chunk>,
}

/// A text on its own: its diagnostics are in file 0 (see [`FileId`]).
pub fn parse(text: &str) -> Parse {
    parse_in(FileId::default(), text)
}

/// Parses the text of `file`; its diagnostics say they are in `file`.
pub fn parse_in(file: FileId, text: &str) -> Parse {
    chunks::parse_all(file, text)
}

/// Parses `text`, a new revision of `old_text` whose parse is `old`: the
/// items on lines the change did not touch are taken from `old` (moved
/// when no one else holds it, else copied) and shifted, the rest parsed
/// again. The tree and diagnostics equal `parse_in(file, text)`'s.
pub fn reparse_in(file: FileId, text: &str, old: Arc<Parse>, old_text: &str) -> Parse {
    chunks::reparse(file, text, old, old_text)
}

/// Item keywords are hard: no item holds one, and every recovery stops at
/// one. So each item's stretch of text (its keyword to the next) parses
/// alone exactly as within the whole text, which is what lets a file be
/// parsed item by item and an edit re-parse only the items it touches.
fn item_start<'t, 'src: 't, I: Tokens<'t, 'src>, E: Fail<'t, 'src, I>>() -> impl Parser<'t, I, (), Extra<E>> + Clone {
    one_of([Token::Table, Token::Entity, Token::Pattern]).ignored()
}

/// An item with recovery: a broken one skips to the next item keyword.
fn item<'t, 'src: 't, I: Tokens<'t, 'src>, E: Fail<'t, 'src, I>>() -> impl Parser<'t, I, Option<Item>, Extra<E>> + Clone
{
    let any_item = choice((
        table::table().map(Item::Table).boxed(),
        entity::entity().map(Item::Entity).boxed(),
        pattern::pattern().map(Item::Pattern).boxed(),
    ))
    .map(Some)
    .labelled("`table`, `entity` or `pattern`");
    any_item.recover_with(via_parser(
        any().then(any().and_is(item_start().not()).repeated()).map(|_| None),
    ))
}

/// The last stretch of a text: its items up to the end.
fn file_parser<'t, 'src: 't, I: Tokens<'t, 'src>, E: Fail<'t, 'src, I>>()
-> impl Parser<'t, I, Vec<Option<Item>>, Extra<E>> {
    item().repeated().collect().then_ignore(end())
}

/// A stretch followed by the next item's keyword (its last token, which
/// it reads only to stop at, as the whole text's parse stops at it).
fn chunk_parser<'t, 'src: 't, I: Tokens<'t, 'src>, E: Fail<'t, 'src, I>>()
-> impl Parser<'t, I, Vec<Option<Item>>, Extra<E>> {
    let next_item = item_start().then(end());
    next_item
        .clone()
        .not()
        .ignore_then(item())
        .repeated()
        .collect()
        .then_ignore(next_item)
}

/// When the unexpected token starts a new line, the mistake is at the end
/// of the previous one (`email:` with nothing after it), so point there.
fn at_line_end_if_next_line(text: &str, tokens: &[(Token<'_>, Span)], at: Span) -> Span {
    let index = tokens.partition_point(|(_, s)| s.start() < at.start());
    match index.checked_sub(1).map(|i| tokens[i].1.end()) {
        Some(previous_end) if text[previous_end..at.start()].contains('\n') => Span::empty(previous_end),
        _ => at,
    }
}

fn to_diagnostic(error: &Rich<'_, Token<'_>>) -> Diagnostic {
    let at = atoms::span(*error.span());
    match error.reason() {
        RichReason::Custom(message) => {
            let (code, message) = message
                .split_once('|')
                .and_then(|(code, message)| Some((Code::parse(code)?, message)))
                .unwrap_or((Code::UnexpectedToken, message.as_str()));
            Diagnostic::new(code, in_text(at), message)
        }
        RichReason::ExpectedFound { expected, found } => {
            let mut wanted: Vec<String> = Vec::new();
            for pattern in expected {
                let text = match pattern {
                    RichPattern::Token(token) => token.describe(),
                    RichPattern::Label(label) => label.to_string(),
                    RichPattern::Identifier(word) => format!("`{word}`"),
                    RichPattern::EndOfInput => "end of file".to_string(),
                    RichPattern::Any => "more input".to_string(),
                    _ => continue,
                };
                // A label may itself be a list (`table`, `entity` or
                // `pattern`): its words join the one list of the message.
                for text in text.split(", ").flat_map(|part| part.split(" or ")) {
                    if !wanted.iter().any(|w| w == text) {
                        wanted.push(text.to_string());
                    }
                }
            }
            let found = found.as_deref().map_or("end of file".to_string(), |t| t.describe());
            let message = match wanted.as_slice() {
                [] => format!("unexpected {found}"),
                [one] => format!("expected {one}, found {found}"),
                [init @ .., last] => {
                    format!("expected {} or {last}, found {found}", init.join(", "))
                }
            };
            Diagnostic::new(Code::UnexpectedToken, in_text(at), message)
        }
    }
}

/// Where the `///` lines directly above `start` are: the doc comments right
/// before it, with no other token in between (the tokens come in two
/// ordered lists, significant and the others).
fn docs_span_before(start: usize, significant: &[(Token<'_>, Span)], others: &[(Token<'_>, Span)]) -> Option<Span> {
    let index = others.partition_point(|(_, s)| s.start() < start);
    // The last significant token before `start` ends any run of docs.
    let barrier = match significant.partition_point(|(_, s)| s.start() < start) {
        0 => None,
        k => Some(significant[k - 1].1.start()),
    };
    let first = others[..index]
        .iter()
        .rposition(|(t, s)| !matches!(t, Token::DocComment(_)) || barrier.is_some_and(|b| b > s.start()))
        .map_or(0, |i| i + 1);
    let lines = &others[first..index];
    Some(lines.first()?.1.cover(lines.last()?.1))
}

/// The docs whose `///` lines are at `span` (nothing but those lines and
/// the whitespace between them): each line without the slashes and one
/// leading space, joined with newlines. Boxed, as the tree holds docs.
fn docs_at(text: &str, span: Span) -> Box<Docs> {
    // A doc comment runs to the end of its line, which `\r` alone also ends.
    let text = text[span.range()]
        .split(['\n', '\r'])
        .map(str::trim)
        .filter(|line| line.starts_with("///"))
        .map(|line| line[3..].strip_prefix(' ').unwrap_or(&line[3..]).trim_end())
        .collect::<Vec<_>>()
        .join("\n");
    Box::new(Docs { text, span })
}

/// Gives every item and member the `///` lines directly above it.
fn attach_docs(text: &str, items: &mut [Item], significant: &[(Token<'_>, Span)], others: &[(Token<'_>, Span)]) {
    let docs_before = |start: usize| docs_span_before(start, significant, others).map(|span| docs_at(text, span));
    for item in items {
        match item {
            Item::Table(table) => {
                table.docs = docs_before(table.span.start());
                for index in &mut table.indexes {
                    index.docs = docs_before(index.span.start());
                }
            }
            Item::Entity(entity) => {
                entity.docs = docs_before(entity.span.start());
                for attribute in &mut entity.attributes {
                    attribute.docs = docs_before(attribute.span.start());
                }
                for key in entity
                    .keys
                    .iter_mut()
                    .chain(entity.items.iter_mut().flat_map(|i| i.keys.iter_mut()))
                {
                    key.docs = docs_before(key.span.start());
                }
            }
            Item::Pattern(pattern) => pattern.docs = docs_before(pattern.span.start()),
        }
    }
}
