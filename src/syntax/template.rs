//! Splits a string literal into literal text and `{attribute}` holes, each
//! with its own byte span, so the checker, hover and go-to-definition can
//! point at one hole or one literal.

use super::Span;
use super::ast::{Name, Segment};
use crate::diagnostic::{Code, Diagnostic};

/// `raw` is the string as written, opening quote included (the closing one
/// may be missing); `offset` is where it starts in the file.
pub fn split(raw: &str, offset: usize, diagnostics: &mut Vec<Diagnostic>) -> Vec<Segment> {
    let body_start = 1;
    let body_end = if raw.len() >= 2 && raw.ends_with('"') && !ends_with_escape(&raw[..raw.len() - 1]) {
        raw.len() - 1
    } else {
        raw.len()
    };
    let mut segments = Vec::new();
    let mut literal = String::new();
    let mut literal_start = offset + body_start;
    let body = &raw[..body_end];
    let mut chars = body.char_indices().skip(1).peekable();

    let flush = |literal: &mut String, start: usize, end: usize, segments: &mut Vec<Segment>| {
        if start < end {
            segments.push(Segment::Literal {
                text: std::mem::take(literal),
                span: Span::new(start, end),
            });
        }
    };

    while let Some((i, c)) = chars.next() {
        let at = offset + i;
        match c {
            '\\' => match chars.next() {
                Some((_, esc @ ('"' | '\\' | '{' | '}'))) => literal.push(esc),
                Some((j, other)) => {
                    let end = offset + j + other.len_utf8();
                    diagnostics.push(
                        Diagnostic::new(
                            Code::InvalidEscape,
                            Span::new(at, end),
                            format!("invalid escape `\\{other}`"),
                        )
                        .with_help("the escapes are \\\" \\\\ \\{ and \\}"),
                    );
                    literal.push(other);
                }
                None => literal.push('\\'),
            },
            '{' => {
                let close = body[i + 1..].find(['}', '{']).map(|k| i + 1 + k);
                match close {
                    Some(k) if body.as_bytes()[k] == b'}' => {
                        flush(&mut literal, literal_start, at, &mut segments);
                        let name_text = &body[i + 1..k];
                        let hole_span = Span::new(at, offset + k + 1);
                        let name_span = Span::new(at + 1, offset + k);
                        if !is_identifier(name_text) {
                            let message = if name_text.trim().is_empty() {
                                "empty template hole".to_string()
                            } else {
                                format!("`{name_text}` is not an attribute name")
                            };
                            diagnostics.push(Diagnostic::new(Code::InvalidHole, hole_span, message).with_help(
                                "a hole names one attribute: \"USER#{userId}\"; write \\{ for a literal brace",
                            ));
                        }
                        segments.push(Segment::Hole {
                            name: Name::new(name_text.trim(), name_span),
                            span: hole_span,
                        });
                        // Skip the hole's characters.
                        while chars.peek().is_some_and(|&(j, _)| j <= k) {
                            chars.next();
                        }
                        literal_start = offset + k + 1;
                    }
                    _ => {
                        let end = close.map_or(offset + body_end, |k| offset + k);
                        diagnostics.push(
                            Diagnostic::new(Code::UnclosedHole, Span::new(at, end), "unclosed `{` in key template")
                                .with_label("this hole has no closing `}`")
                                .with_help("close the hole (\"{userId}\") or write \\{ for a literal brace"),
                        );
                        literal.push('{');
                    }
                }
            }
            '}' => {
                diagnostics.push(
                    Diagnostic::new(
                        Code::UnmatchedBrace,
                        Span::new(at, at + 1),
                        "unmatched `}` in key template",
                    )
                    .with_help("write \\} for a literal brace"),
                );
                literal.push('}');
            }
            c => literal.push(c),
        }
    }
    flush(&mut literal, literal_start, offset + body_end, &mut segments);
    segments
}

fn ends_with_escape(s: &str) -> bool {
    s.bytes().rev().take_while(|&b| b == b'\\').count() % 2 == 1
}

/// The same words the lexer reads as identifiers.
pub fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_') && chars.all(|c| c.is_alphanumeric() || c == '_')
}
