//! A pattern through a global index whose key is several attributes
//! (`index byRegion ([tenantId, region], [status, createdAt])`). DynamoDB
//! compares each key attribute by its own type, with no concatenation
//! ("Multi-attribute keys pattern",
//! https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.DesignPattern.MultiAttributeKeys.html):
//!
//! - every partition attribute is tested for equality;
//! - the sort attributes are used left to right: equality on the leading
//!   ones, then at most one range (or `begins_with`) on the next one, and
//!   no condition after it;
//! - an item lacking any key attribute is not in the index (sparse).
//!
//! Each key attribute is one attribute of the item, so the values the
//! caller knows are compared whole: there is no prefix, delimiter or
//! padding to reason about, and a number sorts numerically.

use std::collections::BTreeSet;

use super::condition::SortOp;
use super::declarative::same_text;
use super::exact::{Caveats, NotUnique};
use super::knowns::Range;
use super::rejection::Rejection;
use super::{Context, Resolution};
use crate::check::model::{AccessId, EntityId, ItemShape, KeyAttr, KeySchema, KeyValue, Model, Part, Pattern};
use crate::check::value::{self, Value};
use crate::syntax::ast::{CompareOp, KeyType};

/// One item of a returned entity, in the index.
struct Chosen<'m> {
    entity: EntityId,
    item: &'m ItemShape,
}

pub fn try_access(cx: &Context, pattern: &Pattern, access_id: AccessId) -> Result<(Resolution, Caveats), Rejection> {
    let access = cx.model.access(cx.table, access_id);
    if pattern.consistent.is_some() {
        return Err(Rejection::ConsistentOnGlobalIndex);
    }
    let chosen = chosen_items(cx, access)?;
    let mut used: BTreeSet<String> = BTreeSet::new();
    let mut relies_on = vec![cx.model.table(cx.table).at(access.span)];
    let mut component = |chosen: &Chosen, key: &KeyAttr| -> Result<String, Rejection> {
        let kv = chosen
            .item
            .key(&key.name)
            .expect("chosen items write every key attribute");
        relies_on.push(cx.model.entity(chosen.entity).at(kv.span));
        plain_attribute(cx.model, chosen.entity, kv)
    };

    // Every partition attribute by equality, the same value for every item.
    let mut partition: Vec<Value> = Vec::new();
    for key in access.partition_keys() {
        let mut first: Option<(EntityId, Value)> = None;
        for c in &chosen {
            let attr = component(c, key)?;
            let Some(value) = cx.knowns.equal.get(&attr) else {
                return Err(Rejection::PartitionNeeds {
                    pk: key.name.clone(),
                    entity: c.entity,
                    attr,
                });
            };
            match &first {
                Some((first_entity, first_value)) if !same_text(first_value, value) => {
                    return Err(Rejection::DifferentPartitions {
                        first: (*first_entity, first_value.clone()),
                        other: (c.entity, value.clone()),
                    });
                }
                Some(_) => {}
                None => first = Some((c.entity, value.clone())),
            }
            used.insert(attr);
        }
        partition.extend(first.map(|(_, v)| v));
    }

    // The leading sort attributes every item's caller value fixes.
    let sort_keys: Vec<&KeyAttr> = access.sort_keys().collect();
    if sort_keys.is_empty() {
        if let Some((attr, _)) = &cx.knowns.range {
            return Err(Rejection::NoSortKeyForRange { attr: attr.clone() });
        }
        if let Some(order) = &pattern.order {
            return Err(Rejection::NoSortKeyForOrder {
                attr: order.attr.text.to_string(),
            });
        }
    }
    let mut sort_equal: Vec<Value> = Vec::new();
    let mut next: Option<(&KeyAttr, Vec<String>)> = None;
    for key in &sort_keys {
        let attrs: Vec<String> = chosen.iter().map(|c| component(c, key)).collect::<Result<_, _>>()?;
        let values: Vec<Option<&Value>> = attrs.iter().map(|a| cx.knowns.equal.get(a)).collect();
        match values.first().copied().flatten() {
            Some(first) if values.iter().all(|v| v.is_some_and(|v| same_text(v, first))) => {
                sort_equal.push(first.clone());
                used.extend(attrs);
            }
            _ => {
                next = Some((key, attrs));
                break;
            }
        }
    }

    let sort = match &cx.knowns.range {
        None => None,
        Some((ranged, range)) => {
            let Some((key, attrs)) = &next else {
                return Err(Rejection::MultiAttribute(format!(
                    "the range on `{ranged}` has no sort attribute left: the pattern fixes every one by equality"
                )));
            };
            if attrs.iter().any(|a| a != ranged) {
                return Err(Rejection::MultiAttribute(format!(
                    "the range on `{ranged}` must be on `{}`, the first sort attribute the pattern does not \
                     fix: DynamoDB uses sort attributes left to right, with a range only on the last one used",
                    key.name
                )));
            }
            used.insert(ranged.clone());
            Some(range_condition(cx, ranged, range, key)?)
        }
    };
    if let Some(order) = &pattern.order {
        match &next {
            Some((_, attrs)) if attrs.iter().all(|a| *a == order.attr.text) => {}
            Some((key, _)) => {
                return Err(Rejection::MultiAttribute(format!(
                    "`by {}` needs `{}` to be the first sort attribute the pattern does not fix, and that is `{}`",
                    order.attr.text, order.attr.text, key.name
                )));
            }
            None => {
                return Err(Rejection::MultiAttribute(format!(
                    "`by {}`: the pattern fixes every sort attribute, so nothing is left to order by",
                    order.attr.text
                )));
            }
        }
    }
    // Every known value must narrow the Query: DynamoDB allows no condition
    // on a sort attribute after a skipped one or after the range.
    let unused = cx.knowns.equal.keys().find(|k| !used.contains(*k));
    if let Some(attr) = unused {
        let sorted = sort_keys.iter().any(|k| k.name == *attr);
        return Err(Rejection::MultiAttribute(match (&next, sorted) {
            (Some((key, _)), true) => format!(
                "the known `{attr}` comes after `{}` in the sort key, which the pattern does not fix by equality: \
                 DynamoDB uses sort attributes left to right, and no condition follows a skipped attribute or a range",
                key.name
            ),
            _ => format!("the known `{attr}` is not one of its key attributes"),
        }));
    }
    let mut also = other_entities(cx, access, &partition, &sort_equal, sort.as_ref());
    if !also.is_empty() {
        also.dedup();
        return Err(Rejection::AlsoReturns { entities: also });
    }
    let not_unique = pattern
        .returns
        .iter()
        .filter(|r| !r.many)
        .filter_map(|r| r.entity)
        .map(|entity| NotUnique {
            entity,
            index: access.name.text.to_string(),
        })
        .collect();
    let mut partition = partition.into_iter();
    let resolution = Resolution {
        table: cx.table,
        access: access_id,
        partition: partition.next().expect("a key has a partition attribute"),
        partition_rest: partition.collect(),
        sort_equal,
        sort,
        descending: pattern.order.as_ref().is_some_and(|o| o.descending),
        consistent: false,
        limit: pattern.limit,
        returns: cx.returns.clone(),
        relies_on,
        pinned: false,
        shards: None,
        read: super::Read::Query,
        // Another entity in the index is refused above, filter or not: the
        // filter is sent, never relied on to remove an entity here.
        filtered_out: Vec::new(),
        filter: pattern.filter.clone(),
    };
    let caveats = Caveats {
        not_unique,
        order: None,
        filtered_out: Vec::new(),
    };
    Ok((resolution, caveats))
}

/// Every item of each returned entity that is in the index: it writes every
/// key attribute of it.
fn chosen_items<'m>(cx: &Context<'m>, access: &KeySchema) -> Result<Vec<Chosen<'m>>, Rejection> {
    let mut chosen = Vec::new();
    for &entity in &cx.returns {
        let before = chosen.len();
        for item in &cx.model.entity(entity).items {
            if in_index(access, item) {
                chosen.push(Chosen { entity, item });
            }
        }
        if chosen.len() == before {
            return Err(Rejection::NotInIndex { entity });
        }
    }
    if chosen.is_empty() {
        return Err(Rejection::ReturnsNothing);
    }
    Ok(chosen)
}

/// An item is in an index only when it has every key attribute of it.
pub fn in_index(access: &KeySchema, item: &ItemShape) -> bool {
    access.key_attributes().all(|k| item.key(&k.name).is_some())
}

/// The attribute a key attribute of a returned item is: the item's own
/// attribute of that name, or a template that is one hole.
fn plain_attribute(model: &Model, entity: EntityId, kv: &KeyValue) -> Result<String, Rejection> {
    match kv.template.parts.as_slice() {
        [Part::Hole { name, .. }] => Ok(name.text.to_string()),
        _ => Err(Rejection::MultiAttribute(format!(
            "`{}` writes `{}` from a template, and a multi-attribute key compares whole attributes: \
             declare `{}` as an attribute of `{}` instead",
            model.entity(entity).name.text,
            kv.attr,
            kv.attr,
            model.entity(entity).name.text
        ))),
    }
}

/// The range as a condition on the sort attribute `key`.
fn range_condition(cx: &Context, ranged: &str, range: &Range, key: &KeyAttr) -> Result<SortOp, Rejection> {
    let param = |name: &str| {
        let mut value = Value::default();
        value.push_param(name, cx.shape_of(ranged));
        value
    };
    Ok(match range {
        Range::Compare(op, bound) => {
            let bound = param(bound);
            match op {
                CompareOp::Eq => SortOp::Eq(bound),
                CompareOp::Lt => SortOp::Lt(bound),
                CompareOp::Le => SortOp::Le(bound),
                CompareOp::Gt => SortOp::Gt(bound),
                CompareOp::Ge => SortOp::Ge(bound),
            }
        }
        Range::Between(lo, hi) => SortOp::Between(param(lo), param(hi)),
        // "You cannot use this function with a sort key that is of type
        // Number" (Query, KeyConditionExpression).
        Range::BeginsWith(_) if key.ty == KeyType::Number => {
            return Err(Rejection::MultiAttribute(format!(
                "`begins_with` on `{}`, a number key attribute: DynamoDB allows it on strings and binary only",
                key.name
            )));
        }
        Range::BeginsWith(prefix) => SortOp::BeginsWith(param(prefix)),
    })
}

/// Whether the key condition can match `item`: every partition attribute
/// and every fixed sort attribute can have the caller's value, and the next
/// sort attribute can be in the range. A number is compared numerically,
/// which the string languages do not model: it may always be in a range.
fn can_match(access: &KeySchema, (partition, sort_equal, sort): Conditions, item: &ItemShape) -> bool {
    if !in_index(access, item) {
        return false;
    }
    let lang = |key: &KeyAttr| &item.key(&key.name).expect("in the index").template.lang;
    let equal = access
        .partition_keys()
        .zip(partition)
        .chain(access.sort_keys().zip(sort_equal));
    if !equal
        .into_iter()
        .all(|(key, v)| value::can_equal(lang(key), v).is_some())
    {
        return false;
    }
    match (sort, access.sort_keys().nth(sort_equal.len())) {
        (Some(op), Some(key)) if key.ty == KeyType::String => op.can_match(lang(key)).is_some(),
        _ => true,
    }
}

type Conditions<'a> = (&'a [Value], &'a [Value], Option<&'a SortOp>);

/// The entities not returned that have an item the Query can match.
fn other_entities(
    cx: &Context,
    access: &KeySchema,
    partition: &[Value],
    sort_equal: &[Value],
    sort: Option<&SortOp>,
) -> Vec<EntityId> {
    cx.model
        .entity_ids()
        .filter(|(id, e)| e.table == Some(cx.table) && !cx.returns.contains(id))
        .filter(|(_, e)| {
            e.items
                .iter()
                .any(|i| can_match(access, (partition, sort_equal, sort), i))
        })
        .map(|(id, _)| id)
        .collect()
}

/// Every item a multi-attribute resolution's Query can match, by entity
/// and item position.
pub fn matching_items(model: &Model, resolution: &Resolution) -> Vec<super::ItemRef> {
    let access = resolution.key_schema(model);
    let partition: Vec<Value> = std::iter::once(resolution.partition.clone())
        .chain(resolution.partition_rest.iter().cloned())
        .collect();
    let conditions = (
        partition.as_slice(),
        resolution.sort_equal.as_slice(),
        resolution.sort.as_ref(),
    );
    let mut found = Vec::new();
    for (entity, e) in model.entity_ids().filter(|(_, e)| e.table == Some(resolution.table)) {
        for (item, shape) in e.items.iter().enumerate() {
            if can_match(access, conditions, shape) {
                found.push(super::ItemRef { entity, item });
            }
        }
    }
    found
}
