//! Signature help inside a pattern's known values, `pattern name(…)`: the
//! values written so far, each with the type of the attribute it binds in
//! the returned entities, the one under the cursor active, and the
//! attributes those entities declare (what a known value can name).
//!
//! It works on tokens, not the syntax tree: while a value is being typed
//! the pattern seldom parses.

use std::fmt::Write as _;

use super::File;
use crate::check::model::{EntityId, Model};
use crate::syntax::lexer::{self, Token};
use crate::syntax::{Span, names};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    /// `pattern name(tenantId: id, at >= since: datetime)`
    pub label: String,
    /// Each known value's byte range in `label`.
    pub parameters: Vec<Span>,
    /// The value the cursor is in (by the commas before it); may be one
    /// past the last when the cursor is after a trailing comma.
    pub active: usize,
    /// Markdown: the attributes of the returned entities.
    pub documentation: String,
}

/// The signature when the cursor is between a pattern's `(` and its `)`.
pub fn signature(file: &File, offset: usize) -> Option<Signature> {
    let text = &*file.text;
    let mut tokens: Vec<(Token<'_>, Span)> = Vec::new();
    lexer::lex_into(text, &mut Vec::new(), |token, span| {
        if !token.is_trivia() {
            tokens.push((token, span));
        }
    });
    // The `(` of the pattern: the last token that ends at or before the
    // cursor, walking back over what a known value can hold.
    let before = tokens.partition_point(|(_, s)| s.end() <= offset);
    let open = (0..before).rev().find(|&i| !can_be_inside(tokens[i].0))?;
    if tokens[open].0 != Token::LParen || open < 2 {
        return None;
    }
    let (Token::Ident(_), Token::Pattern) = (tokens[open - 1].0, tokens[open - 2].0) else {
        return None;
    };
    let name = &text[tokens[open - 1].1.range()];
    // The values: comma-separated runs up to the `)` (or whatever ends them
    // while the list is unfinished).
    let mut values: Vec<Vec<(Token<'_>, Span)>> = vec![Vec::new()];
    let mut close = None;
    for (i, &(token, span)) in tokens.iter().enumerate().skip(open + 1) {
        match token {
            Token::Comma => values.push(Vec::new()),
            Token::RParen => {
                close = Some(i);
                break;
            }
            t if can_be_inside(t) => values.last_mut().map_or((), |v| v.push((token, span))),
            _ => break,
        }
    }
    if let Some(close) = close
        && tokens[close].1.start() < offset
    {
        return None; // after the `)`
    }
    let active = tokens[open + 1..before]
        .iter()
        .filter(|(t, _)| *t == Token::Comma)
        .count();
    let model = &file.analysis.schema.model;
    let returned = close
        .map(|c| returned_entities(model, text, &tokens[c + 1..]))
        .unwrap_or_default();

    let mut label = format!("pattern {name}(");
    let mut parameters = Vec::new();
    for (i, value) in values.iter().enumerate() {
        let (Some(first), Some(last)) = (value.first(), value.last()) else {
            continue; // an empty slot after a trailing comma
        };
        if i > 0 && !parameters.is_empty() {
            label.push_str(", ");
        }
        let start = label.len();
        let written = text[first.1.start()..last.1.end()]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        label.push_str(&written);
        // A value with its own type (`at <= until: date`) or a fixed one
        // (`status = "open"`) keeps what is written.
        let plain = !value.iter().any(|(t, _)| matches!(t, Token::Colon | Token::Eq));
        if plain
            && let Token::Ident(_) | Token::Str(_) = first.0
            && let Some(ty) = attribute_type(model, &returned, &names::read(&text[first.1.range()]))
        {
            let _ = write!(label, ": {ty}");
        }
        parameters.push(Span::new(start, label.len()));
    }
    label.push(')');
    // An empty slot before the cursor counts for the active index only.
    let empty_before = values[..active.min(values.len())]
        .iter()
        .filter(|v| v.is_empty())
        .count();
    Some(Signature {
        label,
        parameters,
        active: active - empty_before,
        documentation: documentation(model, &returned),
    })
}

/// Tokens a known value can hold: `tenantId`, `at >= since`,
/// `status = "open"`, `at <= until: date`, `name begins_with prefix`.
fn can_be_inside(token: Token<'_>) -> bool {
    matches!(
        token,
        Token::Ident(_)
            | Token::Str(_)
            | Token::UnterminatedStr(_)
            | Token::Number(_)
            | Token::Comma
            | Token::Colon
            | Token::Eq
            | Token::Lt
            | Token::Le
            | Token::Gt
            | Token::Ge
            | Token::Ne
    )
}

/// `-> User, Order[] ~20 by …`: the entities named after the arrow.
fn returned_entities(model: &Model, text: &str, after: &[(Token<'_>, Span)]) -> Vec<EntityId> {
    let mut out = Vec::new();
    let mut rest = after.iter();
    if !matches!(rest.next(), Some((Token::Arrow, _))) {
        return out;
    }
    let mut expect_name = true;
    for (token, span) in rest {
        match token {
            Token::Ident(_) | Token::Str(_) if expect_name => {
                if let Some(entity) = model.entity_named(&names::read(&text[span.range()])) {
                    out.push(entity);
                }
                expect_name = false;
            }
            Token::LBracket | Token::RBracket | Token::Tilde | Token::Number(_) if !expect_name => {}
            Token::Comma if !expect_name => expect_name = true,
            _ => break,
        }
    }
    out
}

fn attribute_type(model: &Model, returned: &[EntityId], name: &str) -> Option<String> {
    returned.iter().find_map(|&entity| {
        let entity = model.entity(entity);
        let attribute = &entity.attributes[entity.attribute_id(name)?];
        let optional = if attribute.optional { "?" } else { "" };
        Some(format!("{}{optional}", attribute.ty.name()))
    })
}

fn documentation(model: &Model, returned: &[EntityId]) -> String {
    let mut out = String::new();
    for &id in returned {
        let entity = model.entity(id);
        let _ = write!(out, "`{}`:", entity.name.text);
        for attribute in &entity.attributes {
            let optional = if attribute.optional { "?" } else { "" };
            let _ = write!(
                out,
                " `{}: {}{optional}`",
                names::written(&attribute.name.text),
                attribute.ty.name()
            );
        }
        out.push('\n');
    }
    if out.is_empty() {
        "A known value names an attribute of the returned entities (`-> Entity[]`), written after the `)`.".into()
    } else {
        format!("A known value names an attribute of the returned entities:\n\n{out}")
    }
}
