//! A pattern's range (`at >= since`, `sku between lo and hi`, `name
//! begins_with p`) as one sort-key condition that matches exactly the items
//! whose ranged attribute is in the range — or why no condition can.
//!
//! The sort key is `K · u · s`: the known prefix `K`, the ranged value `u`,
//! and what follows it, `s`. DynamoDB compares the whole key, so comparing
//! keys compares `u` only when no `u` can be a proper prefix of another `u`
//! whose next byte sorts below the first byte of `s` (otherwise `van der#…`
//! sorts before `van#…` although `van` < `van der`). Then:
//! - `u >= x` is `K·x <= key`; `u > x` is `K·x·c' <= key` where `c'` is the
//!   byte after every first byte of `s`; `u <= x` is `key <= K·x·c'`;
//!   `u < x` is `key <= K·x` when `s` is never empty;
//! - the other side is bounded by `K` itself (`K <= key < K'`, `K'` the text
//!   right after every key that starts with `K`), so the range never leaves
//!   the known prefix (`dairy#…`, not also `bakery#…`).

use super::condition::{SortOp, successor, upper_bound_of_prefix};
use super::knowns::Range;
use super::rejection::Rejection;
use crate::check::lang::{self, Shape};
use crate::check::model::EntityId;
use crate::check::value::Value;
use crate::syntax::ast::CompareOp;

/// One returned entity's sort key around the ranged hole.
pub type Member = (EntityId, Shape, lang::Template);

pub fn condition(
    prefix: &Value,
    attr: &str,
    range: &Range,
    members: &[Member],
    text_key: bool,
) -> Result<SortOp, Rejection> {
    if text_key
        && !matches!(range, Range::BeginsWith(_))
        && let Some(&(entity, ..)) = members.iter().find(|(_, shape, _)| unordered_number(shape))
    {
        return Err(Rejection::UnpaddedRange {
            attr: attr.to_string(),
            entity,
        });
    }
    let after = highest_first_byte(members.iter().map(|(_, _, rest)| rest));
    for &(entity, ref shape, ref rest) in members {
        let prefix_search = matches!(range, Range::BeginsWith(_));
        if let Some(byte) = continuation(shape, rest, after, prefix_search) {
            let attr = attr.to_string();
            return Err(match prefix_search {
                true => Rejection::PrefixContinues { attr, entity, byte },
                false => Rejection::RangeContinues {
                    attr,
                    entity,
                    byte,
                    after,
                },
            });
        }
    }
    let upper = if prefix.is_empty() {
        None
    } else {
        Some(
            upper_bound_of_prefix(prefix).ok_or_else(|| Rejection::PrefixEndsInValue {
                prefix: prefix.clone(),
                attr: attr.to_string(),
            })?,
        )
    };
    let shape = members[0].1.clone();
    let with = |param: &str| {
        let mut value = prefix.clone();
        value.push_param(param, shape.clone());
        value
    };
    // Just above every key whose ranged value is `param`.
    let stepped = |param: &str| {
        let c = successor(after? as char)?;
        let mut value = with(param);
        value.push_literal(&c.to_string());
        Some(value)
    };
    let inside = |low: Value| match &upper {
        Some(high) => SortOp::Between(low, high.clone()),
        None => SortOp::Ge(low),
    };
    let below = |high: Value| match &upper {
        Some(_) => SortOp::Between(prefix.clone(), high),
        None => SortOp::Le(high),
    };
    let one_sided = |op, instead| Rejection::OneSided {
        attr: attr.to_string(),
        prefix: prefix.clone(),
        op,
        instead,
    };
    Ok(match range {
        Range::Compare(CompareOp::Ge, x) => inside(with(x)),
        Range::Compare(CompareOp::Gt, x) => match stepped(x) {
            Some(low) => inside(low),
            None if upper.is_none() => SortOp::Gt(with(x)),
            None => return Err(one_sided(">", ">=")),
        },
        Range::Compare(CompareOp::Le, x) => below(stepped(x).unwrap_or_else(|| with(x))),
        Range::Compare(CompareOp::Lt, x) => match (after, &upper) {
            (_, None) => SortOp::Lt(with(x)),
            // `s` is never empty: `K·x` itself is no key, and every key with `x` is above it.
            (Some(_), Some(_)) if members.iter().all(|(_, _, rest)| !rest.parts.is_empty()) => {
                SortOp::Between(prefix.clone(), with(x))
            }
            _ => return Err(one_sided("<", "<=")),
        },
        Range::Compare(CompareOp::Eq, x) => SortOp::Eq(with(x)),
        Range::Between(lo, hi) => SortOp::Between(with(lo), stepped(hi).unwrap_or_else(|| with(hi))),
        Range::BeginsWith(p) => SortOp::BeginsWith(with(p)),
    })
}

/// The highest byte a key can have right after the ranged value, over what
/// follows it in each returned entity's key; `None` when nothing follows.
pub(super) fn highest_first_byte<'t>(rests: impl Iterator<Item = &'t lang::Template>) -> Option<u8> {
    rests.filter_map(|rest| rest.first_bytes().max()).max()
}

/// Numbers whose text does not sort like their value.
pub(super) fn unordered_number(shape: &Shape) -> bool {
    matches!(shape, Shape::Int { pad: None } | Shape::Decimal)
}

/// Why a key of `K · u · s` (with `u` of `shape`, `s` of `rest`, `after`
/// the highest first byte of any returned entity's `s`) does not compare
/// like `u`: a value can continue with a byte that sorts before what follows
/// it (for a prefix search: with a byte that can start what follows it).
pub(super) fn continuation(shape: &Shape, rest: &lang::Template, after: Option<u8>, prefix_search: bool) -> Option<u8> {
    let extension = shape.extension_bytes();
    let first_bytes = rest.first_bytes();
    let breaking: Vec<u8> = (0..=255u8)
        .filter(|&b| extension.contains(b))
        .filter(|&b| match prefix_search {
            true => !rest.parts.is_empty() && first_bytes.contains(b),
            false => after.is_some_and(|a| b <= a),
        })
        .collect();
    // The most telling example: a printable byte, a space first.
    breaking
        .iter()
        .find(|&&b| b == b' ')
        .or_else(|| breaking.iter().find(|b| b.is_ascii_graphic()))
        .or(breaking.first())
        .copied()
}

pub(super) fn show(byte: u8) -> String {
    match byte {
        b' ' => "a space".to_string(),
        0x21..=0x7e => format!("`{}`", byte as char),
        _ => format!("0x{byte:02X}"),
    }
}
