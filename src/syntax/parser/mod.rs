//! The parser (chumsky over the logos tokens) with error recovery: the
//! result is always a syntax tree, possibly partial, plus diagnostics.
//! Recovery happens at three levels: a broken member of a `{}` body skips to
//! the next member, a broken `()` list is skipped as a whole, and a broken
//! item skips to the next `table`, `entity` or `pattern` keyword.

mod atoms;
mod entity;
mod pattern;
mod table;

use chumsky::error::{EmptyErr, RichPattern, RichReason};
use chumsky::prelude::*;

use super::ast::{Docs, Item, SourceFile};
use super::lexer::{self, Token};
use super::{FileId, Span, in_text};
use crate::diagnostic::{Code, Diagnostic};
use atoms::{Extra, Fail, Tokens};

/// The result of parsing one file.
#[derive(Clone, Debug, Default)]
pub struct Parse {
    pub file: SourceFile,
    /// Lexical and syntax errors, in source order.
    pub diagnostics: Vec<Diagnostic>,
}

/// A text on its own: its diagnostics are in file 0 (see [`FileId`]).
pub fn parse(text: &str) -> Parse {
    parse_in(FileId::default(), text)
}

/// Parses the text of `file`; its diagnostics say they are in `file`.
pub fn parse_in(file: FileId, text: &str) -> Parse {
    let mut diagnostics = Vec::new();
    // Comments are trivia and unknown bytes were reported by the lexer:
    // neither reaches the parser. They are kept apart (for the docs), so
    // that no second list of every token is built.
    let mut significant: Vec<(Token<'_>, SimpleSpan)> = Vec::with_capacity(text.len() / 8);
    let mut others: Vec<(Token<'_>, Span)> = Vec::new();
    lexer::lex_into(text, &mut diagnostics, |token, span| {
        if token.is_trivia() || matches!(token, Token::Error(_)) {
            others.push((token, span));
        } else {
            significant.push((token, SimpleSpan::from(span.range())));
        }
    });
    // "Found end of file" points just after the last token, not at a blank
    // last line.
    let end = significant.last().map_or(0, |(_, s)| s.end);
    let eoi = SimpleSpan::from(end..end);
    let input = significant.as_slice().split_token_span(eoi);
    // Most files have no syntax error: a first pass with errors that record
    // nothing is enough for them. Only when it finds one does the parser
    // run again to say what was expected; without errors both passes take
    // the same path and build the same tree.
    let fast = file_parser::<_, EmptyErr>().parse(input);
    let (items, errors) = if fast.has_errors() {
        file_parser::<_, Rich<'_, Token<'_>>>()
            .parse(input)
            .into_output_errors()
    } else {
        (fast.into_output(), Vec::new())
    };
    diagnostics.extend(errors.iter().map(|error| {
        let mut diagnostic = to_diagnostic(error);
        if diagnostic.code == Code::UnexpectedToken {
            diagnostic.span = at_line_end_if_next_line(text, &significant, diagnostic.span);
        }
        diagnostic
    }));
    diagnostics.sort_by_key(|d| (d.span.start, d.span.end));
    // The lexer and parser work on one text and know no file.
    for diagnostic in &mut diagnostics {
        diagnostic.file = file;
    }

    let mut tree = SourceFile {
        items: items.unwrap_or_default().into_iter().flatten().collect(),
    };
    attach_docs(&mut tree, &significant, &others);
    Parse {
        file: tree,
        diagnostics,
    }
}

fn file_parser<'t, 'src: 't, I: Tokens<'t, 'src>, E: Fail<'t, 'src, I>>()
-> impl Parser<'t, I, Vec<Option<Item>>, Extra<E>> {
    let item_start = one_of([Token::Table, Token::Entity, Token::Pattern]).ignored();
    let item = choice((
        table::table().map(Item::Table).boxed(),
        entity::entity().map(Item::Entity).boxed(),
        pattern::pattern().map(Item::Pattern).boxed(),
    ))
    .map(Some)
    .labelled("`table`, `entity` or `pattern`");
    item.recover_with(via_parser(
        any().then(any().and_is(item_start.not()).repeated()).map(|_| None),
    ))
    .repeated()
    .collect()
    .then_ignore(end())
}

/// When the unexpected token starts a new line, the mistake is at the end
/// of the previous one (`email:` with nothing after it), so point there.
fn at_line_end_if_next_line(text: &str, tokens: &[(Token<'_>, SimpleSpan)], at: Span) -> Span {
    let index = tokens.partition_point(|(_, s)| s.start < at.start);
    match index.checked_sub(1).map(|i| tokens[i].1.end) {
        Some(previous_end) if text[previous_end..at.start].contains('\n') => Span::empty(previous_end),
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

/// Gives every item and member the `///` lines directly above it: the
/// doc comments right before it, with no other token in between (the
/// tokens come in two ordered lists, significant and the others).
fn attach_docs(file: &mut SourceFile, significant: &[(Token<'_>, SimpleSpan)], others: &[(Token<'_>, Span)]) {
    let docs_before = |start: usize| -> Option<Docs> {
        let index = others.partition_point(|(_, s)| s.start < start);
        // The last significant token before `start` ends any run of docs.
        let barrier = match significant.partition_point(|(_, s)| s.start < start) {
            0 => None,
            k => Some(significant[k - 1].1.start),
        };
        let first = others[..index]
            .iter()
            .rposition(|(t, s)| !matches!(t, Token::DocComment(_)) || barrier.is_some_and(|b| b > s.start))
            .map_or(0, |i| i + 1);
        let lines = &others[first..index];
        let (_, first_span) = lines.first()?;
        let text = lines
            .iter()
            .map(|(t, _)| match t {
                Token::DocComment(line) => line[3..].strip_prefix(' ').unwrap_or(&line[3..]).trim_end(),
                _ => "",
            })
            .collect::<Vec<_>>()
            .join("\n");
        Some(Docs {
            text,
            span: first_span.cover(lines.last()?.1),
        })
    };
    for item in &mut file.items {
        match item {
            Item::Table(table) => {
                table.docs = docs_before(table.span.start);
                for index in &mut table.indexes {
                    index.docs = docs_before(index.span.start);
                }
            }
            Item::Entity(entity) => {
                entity.docs = docs_before(entity.span.start);
                for attribute in &mut entity.attributes {
                    attribute.docs = docs_before(attribute.span.start);
                }
                for key in entity
                    .keys
                    .iter_mut()
                    .chain(entity.items.iter_mut().flat_map(|i| i.keys.iter_mut()))
                {
                    key.docs = docs_before(key.span.start);
                }
            }
            Item::Pattern(pattern) => pattern.docs = docs_before(pattern.span.start),
        }
    }
}
