//! Where the cursor stands, in the places that need more than the previous
//! token: the phases of a pattern declaration, the parts of a pinned query
//! and its key condition, and the inside of a string literal.

use super::{Completion, is_compare};
use crate::check::model::TableId;
use crate::syntax::lexer::Token;
use crate::syntax::{Span, names};

#[derive(Clone, Copy, Debug)]
pub(super) enum Phase {
    /// `pattern name`
    Head,
    /// Inside the `( ... )` of known values.
    Knowns { open: usize, depth: usize },
    /// After `)`, before `->`.
    AfterKnowns,
    /// After `->`.
    Returns,
    /// After `by`, `consistent` or `limit`.
    Modifiers,
    /// After `where`: inside the filter.
    Filter,
    /// After the `=` at token `eq`.
    Query { eq: usize },
}

pub(super) enum QueryPlace {
    ExpectQuery,
    ExpectTable,
    ExpectIndex(TableId),
    ExpectWhere,
    Condition {
        table: TableId,
        /// `None` for an index the table does not declare.
        access: Option<usize>,
        cond: Cond,
    },
    Dead,
}

/// Where a key condition stands after some tokens.
#[derive(Clone, Debug)]
pub(super) enum Cond {
    /// A new condition.
    Start,
    /// `begins_with`
    BwOpen,
    /// `begins_with(`
    BwKey,
    /// `begins_with(sk`
    BwComma(String),
    /// An operand for `key`; `bw` inside `begins_with(...)`, `low` the lower
    /// bound of a `between`.
    Operand {
        key: String,
        bw: bool,
        low: bool,
    },
    /// `begins_with(sk, "X"`
    BwClose,
    /// `sk`
    AfterKey(String),
    /// `sk between "A"`
    AfterLow(String),
    /// A complete condition.
    After,
    Dead,
}

impl Cond {
    pub(super) fn step(self, token: Token<'_>) -> Cond {
        match (self, token) {
            (Cond::Start, Token::Ident("begins_with")) => Cond::BwOpen,
            (Cond::Start, Token::Ident(key)) => Cond::AfterKey(key.to_string()),
            (Cond::Start, Token::Str(key)) => Cond::AfterKey(names::read(key).into_owned()),
            (Cond::BwOpen, Token::LParen) => Cond::BwKey,
            (Cond::BwKey, Token::Ident(key)) => Cond::BwComma(key.to_string()),
            (Cond::BwKey, Token::Str(key)) => Cond::BwComma(names::read(key).into_owned()),
            (Cond::BwComma(key), Token::Comma) => Cond::Operand {
                key,
                bw: true,
                low: false,
            },
            (
                Cond::Operand { key, bw, low },
                Token::Str(_) | Token::UnterminatedStr(_) | Token::Number(_) | Token::Ident(_),
            ) => {
                if bw {
                    Cond::BwClose
                } else if low {
                    Cond::AfterLow(key)
                } else {
                    Cond::After
                }
            }
            (Cond::BwClose, Token::RParen) => Cond::After,
            (Cond::AfterKey(key), Token::Ident("between")) => Cond::Operand {
                key,
                bw: false,
                low: true,
            },
            (Cond::AfterKey(key), t) if t == Token::Eq || is_compare(t) => Cond::Operand {
                key,
                bw: false,
                low: false,
            },
            (Cond::AfterLow(key), Token::Ident("and")) => Cond::Operand {
                key,
                bw: false,
                low: false,
            },
            (Cond::After, Token::Ident("and")) => Cond::Start,
            _ => Cond::Dead,
        }
    }
}

/// Where the cursor is inside a string literal.
#[derive(Debug)]
pub(super) enum StringPlace {
    /// In the literal text before the first hole: `typed` is its value so
    /// far (escapes resolved); `replace` covers it.
    Prefix { typed: String, replace: Span },
    /// Inside `{...`: `typed` is the name so far; `replace` covers the name
    /// and its `}` when present.
    Hole { typed: String, replace: Span },
    /// In literal text after a hole.
    AfterHole,
}

impl StringPlace {
    pub(super) fn read(text: &str, span: Span, offset: usize) -> Option<StringPlace> {
        let body_start = span.start() + 1;
        let body = &text[body_start..offset];
        let mut literal = String::new();
        let mut hole: Option<usize> = None;
        let mut seen_hole = false;
        let mut chars = body.char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '\\' => {
                    if let Some((_, escaped)) = chars.next()
                        && !seen_hole
                    {
                        literal.push(escaped);
                    }
                }
                '{' => {
                    hole = Some(i);
                    seen_hole = true;
                }
                '}' => hole = None,
                _ if !seen_hole => literal.push(c),
                _ => {}
            }
        }
        if let Some(open) = hole {
            let typed = &body[open + 1..];
            if !typed.chars().all(|c| c.is_alphanumeric() || c == '_') {
                return None;
            }
            // The rest of the name after the cursor, and the closing brace.
            let rest = &text[offset..span.end()];
            let name_len = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            let mut end = offset + name_len;
            if rest[name_len..].starts_with('}') {
                end += 1;
            }
            return Some(StringPlace::Hole {
                typed: typed.to_string(),
                replace: Span::new(body_start + open + 1, end),
            });
        }
        if seen_hole {
            return Some(StringPlace::AfterHole);
        }
        Some(StringPlace::Prefix {
            typed: literal,
            replace: Span::new(body_start, offset),
        })
    }
}

/// Names for a `{` hole: each inserted with its closing brace.
pub(super) fn hole_names(names: Vec<Completion>, typed: &str, replace: Span) -> Vec<Completion> {
    names
        .into_iter()
        // A hole names an attribute with an identifier name.
        .filter(|c| c.label.starts_with(typed) && crate::syntax::template::is_identifier(&c.label))
        .map(|c| {
            let insert = format!("{}}}", c.label);
            c.insert(insert).replacing(replace)
        })
        .collect()
}

pub(super) fn escape(literal: &str) -> String {
    let mut out = String::new();
    for c in literal.chars() {
        if matches!(c, '"' | '\\' | '{' | '}') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}
