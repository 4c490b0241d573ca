//! Sort-key conditions and what they can match.

use crate::check::lang::{self, Bound};
use crate::check::value::{self, Value, ValuePart};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SortOp {
    Eq(Value),
    Lt(Value),
    Le(Value),
    Gt(Value),
    Ge(Value),
    Between(Value, Value),
    BeginsWith(Value),
}

impl SortOp {
    /// The condition as DynamoDB writes it, with `#sk` and value placeholders.
    pub fn expression(&self, name: &str) -> String {
        match self {
            SortOp::Eq(_) => format!("{name} = :sk"),
            SortOp::Lt(_) => format!("{name} < :sk"),
            SortOp::Le(_) => format!("{name} <= :sk"),
            SortOp::Gt(_) => format!("{name} > :sk"),
            SortOp::Ge(_) => format!("{name} >= :sk"),
            SortOp::Between(..) => format!("{name} BETWEEN :lo AND :hi"),
            SortOp::BeginsWith(_) => format!("begins_with({name}, :sk)"),
        }
    }

    /// `(placeholder, value)` pairs.
    pub fn values(&self) -> Vec<(&'static str, &Value)> {
        match self {
            SortOp::Eq(v) | SortOp::Lt(v) | SortOp::Le(v) | SortOp::Gt(v) | SortOp::Ge(v) | SortOp::BeginsWith(v) => {
                vec![(":sk", v)]
            }
            SortOp::Between(lo, hi) => vec![(":lo", lo), (":hi", hi)],
        }
    }

    /// Can a key of this language satisfy the condition for some values of
    /// the caller's parameters? A witness when it can. Parameters make a
    /// bound vary, so a bound with parameters counts at its widest: every
    /// value that starts with its literal head.
    pub fn can_match(&self, template: &lang::Template) -> Option<String> {
        match self {
            SortOp::Eq(v) => value::can_equal(template, v),
            SortOp::BeginsWith(v) => value::can_begin_with(template, v),
            SortOp::Ge(v) => template.can_be_in_range(&lowest(v, true), &Bound::Unbounded),
            SortOp::Gt(v) => template.can_be_in_range(&lowest(v, false), &Bound::Unbounded),
            SortOp::Le(v) => template.can_be_in_range(&Bound::Unbounded, &highest(v, true)),
            SortOp::Lt(v) => template.can_be_in_range(&Bound::Unbounded, &highest(v, false)),
            SortOp::Between(lo, hi) => template.can_be_in_range(&lowest(lo, true), &highest(hi, true)),
        }
    }
}

/// A sort-key condition with its automata built once, to ask
/// [`SortOp::can_match`] (without the witness) about many templates.
pub enum Prepared<'v> {
    Eq(value::Prepared<'v>),
    BeginsWith(value::Prepared<'v>),
    Range(lang::Automaton),
}

impl SortOp {
    pub fn prepare(&self) -> Prepared<'_> {
        let range = |lower: &Bound, upper: &Bound| Prepared::Range(lang::Automaton::range(lower, upper));
        match self {
            SortOp::Eq(v) => Prepared::Eq(value::Prepared::new(v)),
            SortOp::BeginsWith(v) => Prepared::BeginsWith(value::Prepared::new(v)),
            SortOp::Ge(v) => range(&lowest(v, true), &Bound::Unbounded),
            SortOp::Gt(v) => range(&lowest(v, false), &Bound::Unbounded),
            SortOp::Le(v) => range(&Bound::Unbounded, &highest(v, true)),
            SortOp::Lt(v) => range(&Bound::Unbounded, &highest(v, false)),
            SortOp::Between(lo, hi) => range(&lowest(lo, true), &highest(hi, true)),
        }
    }
}

impl Prepared<'_> {
    /// `can_match(template).is_some()`.
    pub fn can_match(&self, template: &lang::Template) -> bool {
        match self {
            Prepared::Eq(v) => v.can_equal(template),
            Prepared::BeginsWith(v) => v.can_begin_with(template),
            Prepared::Range(condition) => template.meets(condition),
        }
    }
}

/// The lowest a lower bound can be.
fn lowest(value: &Value, inclusive: bool) -> Bound {
    match value.constant() {
        Some(text) if inclusive => Bound::Included(text.to_string()),
        Some(text) => Bound::Excluded(text.to_string()),
        None => Bound::Included(value.literal_head().to_string()),
    }
}

/// The highest an upper bound can be.
fn highest(value: &Value, inclusive: bool) -> Bound {
    match value.constant() {
        Some(text) if inclusive => Bound::Included(text.to_string()),
        Some(text) => Bound::Excluded(text.to_string()),
        None => lang::prefix_upper_bound(value.literal_head()).map_or(Bound::Unbounded, Bound::Excluded),
    }
}

/// The smallest text above every string that starts with `value`, when
/// `value` ends in literal text: `ORDER#` → `ORDER$`.
pub fn upper_bound_of_prefix(value: &Value) -> Option<Value> {
    let Some(ValuePart::Literal(last)) = value.parts.last() else {
        return None;
    };
    let bumped = lang::prefix_upper_bound(last)?;
    let mut out = Value {
        parts: value.parts[..value.parts.len() - 1].to_vec(),
    };
    out.push_literal(&bumped);
    Some(out)
}

/// The character right after `c` (for a bound just above a delimiter).
pub fn successor(c: char) -> Option<char> {
    (c as u32 + 1..=0x10FFFF).find_map(char::from_u32)
}
