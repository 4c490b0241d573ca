//! What a pattern's caller knows, and key templates instantiated with it.

use std::collections::HashMap;

use crate::check::lang;
use crate::check::model::{Part, Template};
use crate::check::value::Value;
use crate::syntax::ast::{self, CompareOp, KnownKind, Literal};

/// The one range a pattern may have.
#[derive(Clone, Debug)]
pub enum Range {
    Compare(CompareOp, String),
    Between(String, String),
    BeginsWith(String),
}

#[derive(Clone, Debug, Default)]
pub struct Knowns {
    /// attribute → the value the caller gives for it (a parameter or a constant).
    pub equal: HashMap<String, Value>,
    /// The ranged attribute and its bounds.
    pub range: Option<(String, Range)>,
}

/// The text of a fixed value: `status = "open"`, `= open`, `= 3`, `= true`.
pub fn literal_text(literal: &Literal) -> Option<String> {
    match literal {
        Literal::Str(s) => s.constant(),
        Literal::Number(n, _) => Some(n.clone()),
        Literal::Bool(b, _) => Some(b.to_string()),
        Literal::Word(w) => Some(w.text.to_string()),
    }
}

/// A fixed value as it appears in a key: `version = 7` on an `int(pad 4)`
/// is `0007`.
pub fn key_text(text: String, shape: &lang::Shape) -> String {
    match shape {
        lang::Shape::Int { pad: Some(width) } if text.bytes().all(|b| b.is_ascii_digit()) => {
            format!("{text:0>width$}", width = *width as usize)
        }
        _ => text,
    }
}

impl Knowns {
    /// `shape_of` gives the shape of an attribute (from the returned entities).
    pub fn new(known: &[ast::Known], shape_of: impl Fn(&str) -> lang::Shape) -> Knowns {
        let mut knowns = Knowns::default();
        for k in known {
            let attr = k.attr.text.as_str();
            match &k.kind {
                KnownKind::Equal => {
                    let mut value = Value::default();
                    value.push_param(attr, shape_of(attr));
                    knowns.equal.insert(attr.to_string(), value);
                }
                KnownKind::Fixed(literal) => {
                    if let Some(text) = literal_text(literal) {
                        let text = key_text(text, &shape_of(attr));
                        knowns.equal.insert(attr.to_string(), Value::literal(&text));
                    }
                }
                KnownKind::Compare(op, bound) => {
                    knowns.range = Some((attr.to_string(), Range::Compare(*op, bound.text.to_string())))
                }
                KnownKind::Between(lo, hi) => {
                    knowns.range = Some((
                        attr.to_string(),
                        Range::Between(lo.text.to_string(), hi.text.to_string()),
                    ))
                }
                KnownKind::BeginsWith(p) => {
                    knowns.range = Some((attr.to_string(), Range::BeginsWith(p.text.to_string())))
                }
            }
        }
        knowns
    }
}

/// Where instantiating a template stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Next {
    /// Every hole is known: the value is complete.
    End,
    /// The first hole the caller does not know (by equality), and its
    /// position among the template's parts.
    Hole { attr: String, at: usize },
}

/// The known beginning of a template's value: literals and known holes up
/// to the first hole the caller does not know.
pub fn instantiate(template: &Template, knowns: &Knowns) -> (Value, Next) {
    let mut value = Value::default();
    for (i, part) in template.parts.iter().enumerate() {
        match part {
            Part::Literal { text, .. } => value.push_literal(text),
            Part::Hole { name, .. } => match knowns.equal.get(name.text.as_str()) {
                Some(known) => value.extend(known),
                None => {
                    return (
                        value,
                        Next::Hole {
                            attr: name.text.to_string(),
                            at: i,
                        },
                    );
                }
            },
        }
    }
    (value, Next::End)
}
