//! Splits a string literal into literal text and `{attribute}` holes, each
//! with its own byte span, so the checker, hover and go-to-definition can
//! point at one hole or one literal.

use smol_str::SmolStr;

use super::ast::{Name, Segment};
use super::{Span, in_text};
use crate::diagnostic::{Code, Diagnostic};

/// `raw` is the string as written, opening quote included (the closing one
/// may be missing); `offset` is where it starts in the file.
pub fn split(raw: &str, offset: usize, diagnostics: &mut Vec<Diagnostic>) -> Vec<Segment> {
    scan(raw, offset, diagnostics, true)
}

/// Reports exactly what [`split`] reports, without building the segments
/// (the lexer's check of every string).
pub fn check(raw: &str, offset: usize, diagnostics: &mut Vec<Diagnostic>) {
    scan(raw, offset, diagnostics, false);
}

/// Why bytes, not chars: the only characters with a meaning here (`\`, `{`,
/// `}`) are ASCII, so the text between them is copied a run at a time.
fn scan(raw: &str, offset: usize, diagnostics: &mut Vec<Diagnostic>, build: bool) -> Vec<Segment> {
    let body_end = if raw.len() >= 2 && raw.ends_with('"') && !ends_with_escape(&raw[..raw.len() - 1]) {
        raw.len() - 1
    } else {
        raw.len()
    };
    let mut segments = Vec::new();
    let mut literal = String::new();
    let body = &raw[..body_end];
    let bytes = body.as_bytes();
    // The opening quote is not part of the body.
    let mut i = body.chars().next().map_or(0, char::len_utf8);
    let mut literal_start = offset + i;

    let flush = |literal: &mut String, start: usize, end: usize, segments: &mut Vec<Segment>| {
        if build && start < end {
            segments.push(Segment::Literal {
                text: SmolStr::new(&*literal),
                span: Span::new(start, end),
            });
        }
        literal.clear();
    };

    while i < body.len() {
        let special = body[i..].find(['\\', '{', '}']).map_or(body.len(), |k| i + k);
        if special > i {
            if build {
                literal.push_str(&body[i..special]);
            }
            i = special;
            continue;
        }
        let at = offset + i;
        match bytes[i] {
            b'\\' => match body[i + 1..].chars().next() {
                Some(esc @ ('"' | '\\' | '{' | '}')) => {
                    if build {
                        literal.push(esc);
                    }
                    i += 2;
                }
                Some(other) => {
                    let next = i + 1 + other.len_utf8();
                    diagnostics.push(
                        Diagnostic::new(
                            Code::InvalidEscape,
                            in_text(Span::new(at, offset + next)),
                            format!("invalid escape `\\{other}`"),
                        )
                        .with_help("the escapes are \\\" \\\\ \\{ and \\}"),
                    );
                    if build {
                        literal.push(other);
                    }
                    i = next;
                }
                None => {
                    if build {
                        literal.push('\\');
                    }
                    i += 1;
                }
            },
            b'{' => {
                let close = body[i + 1..].find(['}', '{']).map(|k| i + 1 + k);
                match close {
                    Some(k) if bytes[k] == b'}' => {
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
                            diagnostics.push(
                                Diagnostic::new(Code::InvalidHole, in_text(hole_span), message).with_help(
                                    "a hole names one attribute: \"USER#{userId}\"; write \\{ for a literal brace",
                                ),
                            );
                        }
                        if build {
                            segments.push(Segment::Hole {
                                name: Name::new(name_text.trim(), name_span),
                                span: hole_span,
                            });
                        }
                        i = k + 1;
                        literal_start = offset + i;
                    }
                    _ => {
                        let end = close.map_or(offset + body_end, |k| offset + k);
                        diagnostics.push(
                            Diagnostic::new(
                                Code::UnclosedHole,
                                in_text(Span::new(at, end)),
                                "unclosed `{` in key template",
                            )
                            .with_label("this hole has no closing `}`")
                            .with_help("close the hole (\"{userId}\") or write \\{ for a literal brace"),
                        );
                        if build {
                            literal.push('{');
                        }
                        i += 1;
                    }
                }
            }
            _ => {
                diagnostics.push(
                    Diagnostic::new(
                        Code::UnmatchedBrace,
                        in_text(Span::new(at, at + 1)),
                        "unmatched `}` in key template",
                    )
                    .with_help("write \\} for a literal brace"),
                );
                if build {
                    literal.push('}');
                }
                i += 1;
            }
        }
    }
    flush(&mut literal, literal_start, offset + body_end, &mut segments);
    segments.shrink_to_fit();
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
