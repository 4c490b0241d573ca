//! A pattern without a pinned query: search the base table, then the local
//! indexes, then the global ones, for one Query that returns exactly the
//! declared entities in the declared order.

use super::condition::SortOp;
use super::exact::{self, Caveats};
use super::knowns::{Next, instantiate};
use super::rejection::{OrderBreak, Rejection};
use super::{Context, Resolution, range};
use crate::check::lang;
use crate::check::model::{AccessId, AccessKind, EntityId, KeyAttr, KeySchema, KeyValue, Pattern, Table};
use crate::check::value::Value;
use crate::syntax::FileSpan;
use crate::syntax::ast::KeyType;

/// The chosen item of one returned entity and its key values.
struct Chosen<'m> {
    entity: EntityId,
    pk: &'m KeyValue,
    sk: Option<&'m KeyValue>,
}

/// The access paths in search order: the table, its local indexes, then
/// its global indexes.
pub fn search_order(table: &Table) -> Vec<AccessId> {
    let mut order: Vec<AccessId> = table.access_ids().map(|(id, _)| id).collect();
    order.sort_by_key(|&id| match table.access(id).kind {
        AccessKind::Base => 0,
        AccessKind::Lsi => 1,
        AccessKind::Gsi => 2,
    });
    order
}

pub fn try_access(cx: &Context, pattern: &Pattern, access_id: AccessId) -> Result<(Resolution, Caveats), Rejection> {
    let access = cx.model.access(cx.table, access_id);
    if access.is_multi_attribute() {
        return super::multi::try_access(cx, pattern, access_id);
    }
    if pattern.consistent.is_some() && access.kind == AccessKind::Gsi {
        return Err(Rejection::ConsistentOnGlobalIndex);
    }
    let (partition, chosen) = one_partition(cx, access)?;
    let (sort, order_caveat) = match &access.sk {
        None => {
            without_sort_key(cx, pattern)?;
            (None, None)
        }
        Some(sk) => sort_condition(cx, pattern, sk, &chosen)?,
    };
    let resolution = Resolution {
        table: cx.table,
        access: access_id,
        partition,
        partition_rest: Vec::new(),
        sort_equal: Vec::new(),
        sort,
        descending: pattern.order.as_ref().is_some_and(|o| o.descending),
        consistent: pattern.consistent.is_some(),
        limit: pattern.limit,
        returns: cx.returns.clone(),
        filtered_out: Vec::new(),
        filter: pattern.filter.clone(),
        relies_on: relied_on(cx, cx.model.table(cx.table).at(access.span), &chosen),
        pinned: false,
        shards: None,
        read: super::Read::Query,
    };
    let mut caveats = exact::check(cx, pattern, &resolution)?;
    caveats.order = order_caveat;
    let resolution = Resolution {
        filtered_out: std::mem::take(&mut caveats.filtered_out),
        ..resolution
    };
    Ok((resolution, caveats))
}

/// The one partition every returned entity is read from, with the item of
/// each that is read.
fn one_partition<'m>(cx: &Context<'m>, access: &KeySchema) -> Result<(Value, Vec<Chosen<'m>>), Rejection> {
    let mut chosen = Vec::new();
    let mut partition: Option<(Value, EntityId)> = None;
    for &entity_id in &cx.returns {
        let (item, value) = choose_item(cx, access, entity_id)?;
        match &partition {
            Some((first, first_entity)) if !same_text(first, &value) => {
                return Err(Rejection::DifferentPartitions {
                    first: (*first_entity, first.clone()),
                    other: (entity_id, value),
                });
            }
            Some(_) => {}
            None => partition = Some((value, entity_id)),
        }
        chosen.push(item);
    }
    let Some((partition, _)) = partition else {
        return Err(Rejection::ReturnsNothing);
    };
    Ok((partition, chosen))
}

/// The first item of the entity in the access path whose partition key the
/// pattern knows, with that key's value.
fn choose_item<'m>(
    cx: &Context<'m>,
    access: &KeySchema,
    entity_id: EntityId,
) -> Result<(Chosen<'m>, Value), Rejection> {
    // The hole that keeps an item's partition key from being known.
    let mut missing_hole: Option<String> = None;
    for item in &cx.model.entity(entity_id).items {
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
                let chosen = Chosen {
                    entity: entity_id,
                    pk,
                    sk,
                };
                return Ok((chosen, value));
            }
            (_, Next::Hole { attr, .. }) => missing_hole = Some(attr),
        }
    }
    Err(match missing_hole {
        Some(attr) => Rejection::PartitionNeeds {
            pk: access.pk.name.clone(),
            entity: entity_id,
            attr,
        },
        None => Rejection::NotInIndex { entity: entity_id },
    })
}

/// Without a sort key, a pattern can neither read a range nor order.
fn without_sort_key(cx: &Context, pattern: &Pattern) -> Result<(), Rejection> {
    if let Some((attr, _)) = &cx.knowns.range {
        return Err(Rejection::NoSortKeyForRange { attr: attr.clone() });
    }
    if let Some(order) = &pattern.order {
        return Err(Rejection::NoSortKeyForOrder {
            attr: order.attr.text.to_string(),
        });
    }
    Ok(())
}

fn relied_on(cx: &Context, access: FileSpan, chosen: &[Chosen]) -> Vec<FileSpan> {
    let mut spans = vec![access];
    for c in chosen {
        let entity = cx.model.entity(c.entity);
        spans.push(entity.at(c.pk.span));
        spans.extend(c.sk.map(|s| entity.at(s.span)));
    }
    spans
}

/// The sort-key condition, and why its order is not always `by`'s, if so.
fn sort_condition(
    cx: &Context,
    pattern: &Pattern,
    sk: &KeyAttr,
    chosen: &[Chosen],
) -> Result<(Option<SortOp>, Option<OrderBreak>), Rejection> {
    let sk_name = sk.name.as_str();
    // A `number` sort key compares numerically: its one hole is the value.
    let text_key = sk.ty == KeyType::String;
    let starts: Vec<(Value, Next)> = chosen
        .iter()
        .map(|c| instantiate(&c.sk.expect("an index with a sort key").template, &cx.knowns))
        .collect();
    if let Some(order) = &pattern.order {
        order_hole_next(&order.attr.text, sk_name, chosen, &starts)?;
    }
    // Around the first open hole of each member: its shape and what follows.
    let around: Vec<Option<Around>> = chosen
        .iter()
        .zip(&starts)
        .map(|(c, (_, next))| match next {
            Next::Hole { at, .. } => Some(around_hole(&c.sk.expect("an index with a sort key").template, *at)),
            Next::End => None,
        })
        .collect();
    let mut caveat = None;
    if let Some(order) = &pattern.order
        && text_key
    {
        // Every member has the open hole: checked just above.
        let around: Vec<&Around> = around.iter().flatten().collect();
        caveat = key_order(&order.attr.text, pattern.limit, chosen, &around)?;
    }
    let (first_prefix, _) = &starts[0];
    if let Some((ranged, range)) = &cx.knowns.range {
        let members = range_members(ranged, sk_name, chosen, &starts, &around)?;
        return range::condition(first_prefix, ranged, range, &members, text_key).map(|op| (Some(op), caveat));
    }
    Ok((known_sort_condition(&starts), caveat))
}

/// `by order` needs `{order}` to be the first hole the pattern does not
/// fill in every chosen sort key.
fn order_hole_next(order: &str, sk_name: &str, chosen: &[Chosen], starts: &[(Value, Next)]) -> Result<(), Rejection> {
    for (c, (prefix, next)) in chosen.iter().zip(starts) {
        match next {
            Next::Hole { attr, .. } if attr == order => {}
            Next::Hole { attr, .. } => {
                return Err(Rejection::OrderNotNext {
                    order: order.to_string(),
                    prefix: prefix.clone(),
                    sk: sk_name.to_string(),
                    entity: c.entity,
                    first: attr.clone(),
                });
            }
            Next::End => {
                return Err(Rejection::NothingToOrder {
                    sk: sk_name.to_string(),
                    entity: c.entity,
                });
            }
        }
    }
    Ok(())
}

/// Each chosen sort key around the ranged hole, which must come right
/// after the same known prefix in every one.
fn range_members(
    ranged: &str,
    sk_name: &str,
    chosen: &[Chosen],
    starts: &[(Value, Next)],
    around: &[Option<Around>],
) -> Result<Vec<range::Member>, Rejection> {
    let (first_prefix, _) = &starts[0];
    let mut members = Vec::new();
    for ((c, (prefix, next)), around) in chosen.iter().zip(starts).zip(around) {
        if !same_text(prefix, first_prefix) {
            return Err(Rejection::RangePrefixesDiffer {
                ranged: ranged.to_string(),
                first: (chosen[0].entity, first_prefix.clone()),
                other: (c.entity, prefix.clone()),
            });
        }
        match next {
            Next::End => {
                return Err(Rejection::RangeNotOnSortKey {
                    ranged: ranged.to_string(),
                    sk: sk_name.to_string(),
                    entity: c.entity,
                });
            }
            Next::Hole { attr, .. } if attr != ranged => {
                return Err(Rejection::RangeNotNext {
                    ranged: ranged.to_string(),
                    prefix: prefix.clone(),
                    sk: sk_name.to_string(),
                    entity: c.entity,
                    first: attr.clone(),
                });
            }
            Next::Hole { .. } => {}
        }
        let (shape, rest) = around.clone().expect("an open hole");
        members.push((c.entity, shape, rest));
    }
    Ok(members)
}

/// Without a range: the sort condition that the known parts of the chosen
/// sort keys allow, if any.
fn known_sort_condition(starts: &[(Value, Next)]) -> Option<SortOp> {
    let (first_prefix, _) = &starts[0];
    let all_known = starts
        .iter()
        .all(|(p, n)| *n == Next::End && same_text(p, first_prefix));
    if all_known {
        return Some(SortOp::Eq(first_prefix.clone()));
    }
    // Singletons at constant sort keys (`profile`, `counters`): the span
    // between the lowest and the highest, which other items may sort outside.
    let constants: Option<Vec<&str>> = starts
        .iter()
        .map(|(p, n)| (*n == Next::End).then(|| p.constant()).flatten())
        .collect();
    if let Some(constants) = constants
        && let (Some(lo), Some(hi)) = (constants.iter().min(), constants.iter().max())
        && !lo.is_empty()
    {
        return Some(SortOp::Between(Value::literal(lo), Value::literal(hi)));
    }
    let common = starts[1..]
        .iter()
        .fold(first_prefix.clone(), |acc, (p, _)| exact::common_parts(&acc, p));
    (!common.is_empty()).then_some(SortOp::BeginsWith(common))
}

/// A hole's shape, and the template of what follows it in the key.
type Around = (lang::Shape, lang::Template);

fn around_hole(template: &crate::check::model::Template, at: usize) -> Around {
    let shape = match template.lang.parts.get(at) {
        Some(lang::Part::Hole(shape)) => shape.clone(),
        _ => lang::Shape::String,
    };
    let rest = lang::Template::new(template.lang.parts.get(at + 1..).unwrap_or_default().to_vec());
    (shape, rest)
}

/// `by attr` returns items in key order, which is `attr` order only when
/// keys compare like it: an unpadded number never does (`10` sorts before
/// `9`): an error. A value that can go on with a byte sorting below what
/// follows it in the key breaks it only for such values (`van der` before
/// `van`): a caveat, unless `limit N` cuts the first page there, which then
/// holds the wrong items: an error.
fn key_order(
    attr: &str,
    limit: Option<u64>,
    chosen: &[Chosen],
    around: &[&Around],
) -> Result<Option<OrderBreak>, Rejection> {
    let after = range::highest_first_byte(around.iter().map(|(_, rest)| rest));
    let mut caveat = None;
    for (c, (shape, rest)) in chosen.iter().zip(around) {
        if range::unordered_number(shape) {
            return Err(Rejection::UnpaddedOrder {
                attr: attr.to_string(),
                entity: c.entity,
            });
        }
        let Some(byte) = range::continuation(shape, rest, after, false) else {
            continue;
        };
        let order = OrderBreak {
            attr: attr.to_string(),
            entity: c.entity,
            byte,
        };
        if let Some(limit) = limit {
            return Err(Rejection::LimitOutOfOrder { limit, order });
        }
        caveat.get_or_insert(order);
    }
    Ok(caveat)
}

/// Whether two values are written the same (`TENANT#{tenantId}`); equal
/// parts are, without formatting either.
pub(super) fn same_text(a: &Value, b: &Value) -> bool {
    a.parts == b.parts || a.to_string() == b.to_string()
}
