//! A pattern without a pinned query: search the base table, then the local
//! indexes, then the global ones, for one Query that returns exactly the
//! declared entities in the declared order.

use super::condition::{SortOp, successor, upper_bound_of_prefix};
use super::knowns::{Next, Range, instantiate};
use super::{Context, Resolution, matches_exactly};
use crate::check::lang;
use crate::check::model::{AccessKind, EntityId, KeyValue, Pattern};
use crate::check::value::Value;
use crate::syntax::ast::CompareOp;

/// The chosen item of one returned entity and its key values.
struct Chosen<'m> {
    entity: EntityId,
    pk: &'m KeyValue,
    sk: Option<&'m KeyValue>,
}

/// The access paths in search order: the table, its local indexes, then
/// its global indexes.
pub fn search_order(kinds: &[AccessKind]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..kinds.len()).collect();
    order.sort_by_key(|&i| match kinds[i] {
        AccessKind::Base => 0,
        AccessKind::Lsi => 1,
        AccessKind::Gsi => 2,
    });
    order
}

pub fn try_access(cx: &Context, pattern: &Pattern, access_id: usize) -> Result<Resolution, String> {
    let table = &cx.model.tables[cx.table];
    let access = &table.access[access_id];
    if pattern.consistent.is_some() && access.kind == AccessKind::Gsi {
        return Err("a global index is only eventually consistent, and the pattern asks for `consistent`".into());
    }

    let mut chosen = Vec::new();
    let mut partition: Option<(Value, EntityId)> = None;
    for &entity_id in &cx.returns {
        let entity = &cx.model.entities[entity_id];
        // Why the entity cannot be read here, formatted only when it cannot.
        let mut missing_hole: Option<String> = None;
        let mut found = None;
        for item in &entity.items {
            let Some(pk) = item.key(&access.pk.name) else { continue };
            let sk = match &access.sk {
                Some(sk) => match item.key(&sk.name) {
                    Some(kv) => Some(kv),
                    None => continue,
                },
                None => None,
            };
            match instantiate(&pk.template, &cx.knowns) {
                (value, Next::End) => {
                    found = Some((
                        Chosen {
                            entity: entity_id,
                            pk,
                            sk,
                        },
                        value,
                    ));
                    break;
                }
                (_, Next::Hole { attr, .. }) => missing_hole = Some(attr),
            }
        }
        let Some((item, value)) = found else {
            return Err(match missing_hole {
                Some(attr) => format!(
                    "the partition key `{}` of `{}` needs `{attr}`, which the pattern does not know",
                    access.pk.name, entity.name.text
                ),
                None => format!("`{}` is not in it: no item writes its keys", entity.name.text),
            });
        };
        match &partition {
            Some((first, first_entity)) if !same_text(first, &value) => {
                return Err(format!(
                    "the entities are in different partitions: `{}` has `{first}`, `{}` has `{value}`",
                    cx.model.entities[*first_entity].name.text, entity.name.text
                ));
            }
            Some(_) => {}
            None => partition = Some((value, entity_id)),
        }
        chosen.push(item);
    }
    let Some((partition, _)) = partition else {
        return Err("the pattern returns nothing".into());
    };

    let sort = match &access.sk {
        None => {
            if let Some((attr, _)) = &cx.knowns.range {
                return Err(format!("it has no sort key for the range on `{attr}`"));
            }
            if let Some(order) = &pattern.order {
                return Err(format!("it has no sort key to order by `{}`", order.attr.text));
            }
            None
        }
        Some(sk) => sort_condition(cx, pattern, &sk.name, &chosen)?,
    };

    let resolution = Resolution {
        table: cx.table,
        access: access_id,
        partition,
        sort,
        descending: pattern.order.as_ref().is_some_and(|o| o.descending),
        consistent: pattern.consistent.is_some(),
        limit: pattern.limit,
        returns: cx.returns.clone(),
        relies_on: relied_on(table.access[access_id].span, &chosen),
        pinned: false,
    };
    let returned = matches_exactly(cx, &resolution)?;
    check_single_item(cx, pattern, &resolution, &returned)?;
    Ok(resolution)
}

fn relied_on(access_span: crate::syntax::Span, chosen: &[Chosen]) -> Vec<crate::syntax::Span> {
    let mut spans = vec![access_span];
    for c in chosen {
        spans.push(c.pk.span);
        spans.extend(c.sk.map(|s| s.span));
    }
    spans
}

/// `-> E` promises one item: the Query must name a whole key, or say `limit 1`.
fn check_single_item(cx: &Context, pattern: &Pattern, resolution: &Resolution, _: &[EntityId]) -> Result<(), String> {
    let single = pattern.returns.iter().all(|r| !r.many);
    let has_sk = cx.model.tables[cx.table].access[resolution.access].sk.is_some();
    let whole_key = !has_sk || matches!(resolution.sort, Some(SortOp::Eq(_)));
    if single && !whole_key && pattern.limit != Some(1) {
        let what = pattern
            .returns
            .iter()
            .map(|r| r.name.text.as_str())
            .collect::<Vec<_>>()
            .join(", ");
        return Err(format!(
            "it can return several items, but the pattern returns one `{what}` (write `{what}[]`, or `limit 1`)"
        ));
    }
    Ok(())
}

fn sort_condition(cx: &Context, pattern: &Pattern, sk_name: &str, chosen: &[Chosen]) -> Result<Option<SortOp>, String> {
    let starts: Vec<(Value, Next)> = chosen
        .iter()
        .map(|c| instantiate(&c.sk.expect("an index with a sort key").template, &cx.knowns))
        .collect();
    if let Some(order) = &pattern.order {
        for (c, (prefix, next)) in chosen.iter().zip(&starts) {
            let entity = &cx.model.entities[c.entity].name.text;
            match next {
                Next::Hole { attr, .. } if *attr == order.attr.text => {}
                Next::Hole { attr, .. } => {
                    return Err(format!(
                        "`by {}` needs `{}` right after `{prefix}` in the sort key `{sk_name}` of `{entity}`, but `{attr}` comes first",
                        order.attr.text, order.attr.text
                    ));
                }
                Next::End => {
                    return Err(format!(
                        "the sort key `{sk_name}` of `{entity}` is fully known, so there is nothing to order by"
                    ));
                }
            }
        }
    }
    let (first_prefix, first_next) = &starts[0];
    let shared = starts
        .iter()
        .all(|(p, n)| same_text(p, first_prefix) && n == first_next);
    if !shared {
        if let Some((attr, _)) = &cx.knowns.range {
            return Err(format!(
                "a range on `{attr}` needs every returned entity's sort key to start the same way"
            ));
        }
        let heads: Vec<&str> = starts.iter().map(|(p, _)| p.literal_head()).collect();
        let common = common_prefix(&heads);
        return Ok((!common.is_empty()).then(|| SortOp::BeginsWith(Value::literal(common))));
    }
    match (first_next, &cx.knowns.range) {
        (Next::End, None) => Ok(Some(SortOp::Eq(first_prefix.clone()))),
        (Next::End, Some((attr, _))) => Err(format!("the range on `{attr}` is not on its sort key `{sk_name}`")),
        (Next::Hole { attr, .. }, Some((ranged, _))) if attr != ranged => Err(format!(
            "the range on `{ranged}` needs `{ranged}` right after `{first_prefix}` in the sort key `{sk_name}`, but `{attr}` comes first"
        )),
        (Next::Hole { followed_by, .. }, Some((ranged, range))) => {
            let shape = cx.shape_of(ranged);
            Ok(Some(range_condition(
                first_prefix,
                range,
                followed_by.as_deref(),
                shape,
            )))
        }
        (Next::Hole { .. }, None) if first_prefix.is_empty() => Ok(None),
        (Next::Hole { .. }, None) => Ok(Some(SortOp::BeginsWith(first_prefix.clone()))),
    }
}

/// Whether two values are written the same (`TENANT#{tenantId}`); equal
/// parts are, without formatting either.
fn same_text(a: &Value, b: &Value) -> bool {
    a.parts == b.parts || a.to_string() == b.to_string()
}

fn common_prefix<'a>(heads: &[&'a str]) -> &'a str {
    let first = heads[0];
    let mut end = first.len();
    for head in &heads[1..] {
        end = end.min(first.bytes().zip(head.bytes()).take_while(|(a, b)| a == b).count());
    }
    while !first.is_char_boundary(end) {
        end -= 1;
    }
    &first[..end]
}

/// A range on the hole right after the known `prefix`, bounded so that it
/// never leaks into keys outside the prefix: `>=` becomes a BETWEEN up to
/// the prefix's upper bound, and strict bounds step over the literal that
/// follows the hole.
fn range_condition(prefix: &Value, range: &Range, followed_by: Option<&str>, shape: lang::Shape) -> SortOp {
    let with = |param: &str| {
        let mut value = prefix.clone();
        value.push_param(param, shape.clone());
        value
    };
    let stepped = |param: &str| {
        let c = followed_by.and_then(|t| t.chars().next()).and_then(successor)?;
        let mut value = with(param);
        value.push_literal(&c.to_string());
        Some(value)
    };
    let upper = upper_bound_of_prefix(prefix);
    let lower_to = |low: Value| match &upper {
        Some(high) => SortOp::Between(low, high.clone()),
        None => SortOp::Ge(low),
    };
    let from_prefix = |high: Value| {
        if prefix.is_empty() {
            SortOp::Le(high)
        } else {
            SortOp::Between(prefix.clone(), high)
        }
    };
    match range {
        Range::Compare(CompareOp::Ge, x) => lower_to(with(x)),
        Range::Compare(CompareOp::Gt, x) => match stepped(x) {
            Some(low) => lower_to(low),
            None => SortOp::Gt(with(x)),
        },
        Range::Compare(CompareOp::Le, x) => from_prefix(stepped(x).unwrap_or_else(|| with(x))),
        Range::Compare(CompareOp::Lt, x) => match followed_by {
            Some(_) if !prefix.is_empty() => SortOp::Between(prefix.clone(), with(x)),
            _ => SortOp::Lt(with(x)),
        },
        Range::Compare(CompareOp::Eq, x) => SortOp::Eq(with(x)),
        Range::Between(lo, hi) => SortOp::Between(with(lo), stepped(hi).unwrap_or_else(|| with(hi))),
        Range::BeginsWith(p) => SortOp::BeginsWith(with(p)),
    }
}
