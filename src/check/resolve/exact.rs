//! The one semantic check every resolution passes: the items the key
//! condition can match, given what each entity writes, are exactly the items
//! the pattern declares — no item of another entity, no item of a declared
//! entity whose known attributes differ from the caller's values (a known
//! value the Query does not use, a prefix that also matches longer values,
//! an enum word that prefixes another), and no more than one item where the
//! pattern returns one.

use std::collections::HashMap;

use super::condition::SortOp;
use super::registry::ItemRef;
use super::rejection::{OrderBreak, Rejection, Unpinned};
use super::{Context, Resolution, matching_items};
use crate::check::fxhash::FxHashMap;
use crate::check::lang::{self, Binding, Role};
use crate::check::model::{AccessKind, EntityId, KeyValue, Part, Pattern, Template};
use crate::check::value::{Value, ValuePart};

/// A pattern returning one item that the key cannot guarantee is one: the
/// index key is fully given, but an index does not enforce unique keys.
#[derive(Clone, Debug)]
pub struct NotUnique {
    pub entity: EntityId,
    pub index: String,
}

/// What a resolution is right about but the user should hear: single
/// returns only an index key vouches for, and an order that keys keep only
/// for most values.
#[derive(Clone, Debug, Default)]
pub struct Caveats {
    pub not_unique: Vec<NotUnique>,
    /// Why key order is not always the `by` attribute's order.
    pub order: Option<OrderBreak>,
    /// Undeclared entities the key condition reads and the filter removes.
    pub filtered_out: Vec<EntityId>,
}

/// Ok with the single returns only an index key vouches for, or why the
/// Query does not return exactly the declared items.
pub fn check(cx: &Context, pattern: &Pattern, resolution: &Resolution) -> Result<Caveats, Rejection> {
    check_matched(
        cx,
        pattern,
        resolution,
        matching_items(cx.model, cx.registry, resolution),
    )
}

/// [`check`], given the items the Query's key condition can match on their
/// own keys (`matching_items`), for a caller that has them already.
pub fn check_matched(
    cx: &Context,
    pattern: &Pattern,
    resolution: &Resolution,
    matched: Vec<ItemRef>,
) -> Result<Caveats, Rejection> {
    let vars = Vars::new(pattern, &cx.knowns.equal);
    let access = resolution.key_schema(cx.model);
    let partition = Condition::new(&resolution.partition, false);
    let (sort_value, sort_prefix) = sort_prefix(resolution.sort.as_ref());
    let sort = Condition::new(&sort_value, sort_prefix);
    // Each matched item with why its partition key does not pin a known
    // value (`None`: it pins them all).
    let mut items = Vec::new();
    for item in matched {
        let shape = &cx.model.entity(item.entity).items[item.item];
        let pk = shape
            .key(&access.pk.name)
            .expect("matching items write the partition key");
        let sk = access.sk.as_ref().and_then(|k| shape.key(&k.name));
        let pk_reason = vars.unpinned(pk, &partition);
        if pk_reason.is_some() || really_matches(&vars, resolution, &sort, pk, sk) {
            items.push((item, pk, sk, pk_reason));
        }
    }
    let (filtered_out, extra): (Vec<EntityId>, Vec<EntityId>) = items
        .iter()
        .map(|(i, ..)| i.entity)
        .filter(|e| !cx.returns.contains(e))
        .partition(|&e| super::removed_by_filter(cx, pattern, e));
    if !extra.is_empty() {
        return Err(Rejection::AlsoReturns { entities: extra });
    }
    // What the filter removes is read, not returned: no promise about it.
    items.retain(|(i, ..)| !filtered_out.contains(&i.entity));
    let mut filtered_out = filtered_out;
    filtered_out.dedup();
    let mut not_unique = Vec::new();
    for (item, pk, sk, pk_reason) in &items {
        let entity = cx.model.entity(item.entity);
        for (attr, _) in vars.bound() {
            if entity.attribute(attr).is_none() {
                continue;
            }
            let in_key = std::iter::once(*pk).chain(*sk).any(|k| has_hole(&k.template, attr));
            if !in_key {
                return Err(Rejection::NotInKeys {
                    attr: attr.to_string(),
                    entity: item.entity,
                });
            }
        }
        if let Some(reason) = pk_reason {
            return Err(unpinned(item, &access.pk.name, &partition, reason.clone()));
        }
        // The same attribute is one value: what the partition key pins is
        // pinned wherever else the item's keys use it.
        let mut sk_vars = vars.clone();
        sk_vars.release(pk.template.holes().map(|(name, _)| name.text.as_str()));
        if let Some(sk) = sk
            && let Some(reason) = sk_vars.unpinned(sk, &sort)
        {
            let key = &access.sk.as_ref().expect("a sort key").name;
            return Err(unpinned(item, key, &sort, reason));
        }
        single_item(cx, pattern, resolution, item, &vars, &mut not_unique)?;
    }
    Ok(Caveats {
        not_unique,
        order: None,
        filtered_out,
    })
}

/// A key condition's value, its language compiled once for every item.
struct Condition<'v> {
    value: &'v Value,
    lang: lang::Template,
    /// Matches keys that begin with the value (else: keys equal to it).
    prefix: bool,
}

impl<'v> Condition<'v> {
    fn new(value: &'v Value, prefix: bool) -> Condition<'v> {
        Condition {
            value,
            lang: value.lang(),
            prefix,
        }
    }
}

/// Whether an item the key condition can match on its own keys still can
/// when its attributes are one value each: an attribute the partition key
/// pins (`FOLDER#{folderId}`; the caller has already checked that it pins
/// them) has the caller's value in the sort key too, so `FOLDER#{folderId}`
/// cannot begin with `FOLDER#<folderId>#NOTE#`.
fn really_matches(
    vars: &Vars,
    resolution: &Resolution,
    condition: &Condition,
    pk: &KeyValue,
    sk: Option<&KeyValue>,
) -> bool {
    let Some(sk) = sk else { return true };
    // A range matches more than its bounds' common prefix: not decided here.
    if !matches!(resolution.sort, Some(SortOp::Eq(_) | SortOp::BeginsWith(_))) {
        return true;
    }
    let mut tied = vec![false; vars.bindings.len()];
    for (name, _) in pk.template.holes() {
        if let Some(&var) = vars.ids.get(name.text.as_str())
            && vars.bindings[var as usize] == Binding::Param
        {
            tied[var as usize] = true;
        }
    }
    let (item_roles, query_roles) = vars.roles(sk, condition.value);
    lang::can_match(
        (&sk.template.lang, &item_roles),
        (&condition.lang, &query_roles),
        condition.prefix,
        &tied,
    )
}

/// A single return needs a key that at most one item of the entity has.
fn single_item(
    cx: &Context,
    pattern: &Pattern,
    resolution: &Resolution,
    item: &ItemRef,
    vars: &Vars,
    not_unique: &mut Vec<NotUnique>,
) -> Result<(), Rejection> {
    let returns_one = pattern.returns.iter().any(|r| r.entity == Some(item.entity) && !r.many);
    if !returns_one {
        return Ok(());
    }
    let table = cx.model.table(resolution.table);
    let access = table.access(resolution.access);
    let whole_key = access.sk.is_none() || matches!(resolution.sort, Some(SortOp::Eq(_)));
    if access.kind == AccessKind::Base && whole_key {
        return Ok(());
    }
    // The pattern knows every attribute of the item's primary key.
    let entity = cx.model.entity(item.entity);
    let shape = &entity.items[item.item];
    let base = table.base().expect("a resolved table has keys");
    let primary_known = std::iter::once(&base.pk)
        .chain(base.sk.as_ref())
        .all(|k| shape.key(&k.name).is_some_and(|kv| all_holes_known(&kv.template, vars)));
    if primary_known {
        return Ok(());
    }
    // The item's own index key known in full (`-> Shipment, ShipmentItem[]`
    // where the Shipment's index key is built from known values): the same
    // promise as a whole-key read of the index, not unique either (W202).
    let index_key_known = access.kind != AccessKind::Base
        && std::iter::once(&access.pk)
            .chain(access.sk.as_ref())
            .all(|k| shape.key(&k.name).is_some_and(|kv| all_holes_known(&kv.template, vars)));
    if whole_key || index_key_known {
        if !not_unique.iter().any(|n: &NotUnique| n.entity == item.entity) {
            not_unique.push(NotUnique {
                entity: item.entity,
                index: access.name.text.to_string(),
            });
        }
        return Ok(());
    }
    Err(Rejection::SeveralItems { entity: item.entity })
}

fn all_holes_known(template: &Template, vars: &Vars) -> bool {
    template
        .holes()
        .all(|(name, _)| vars.binding_of(&name.text) != Binding::Free)
}

fn has_hole(template: &Template, attr: &str) -> bool {
    template.holes().any(|(name, _)| name.text == attr)
}

/// The value a sort condition's matches all begin with (`true`), or equal
/// (`false`): for a range, what both bounds share.
pub(super) fn sort_prefix(sort: Option<&SortOp>) -> (Value, bool) {
    match sort {
        None => (Value::default(), true),
        Some(SortOp::Eq(v)) => (v.clone(), false),
        Some(SortOp::BeginsWith(v)) => (v.clone(), true),
        Some(SortOp::Between(lo, hi)) => (common_parts(lo, hi), true),
        Some(SortOp::Ge(_) | SortOp::Gt(_) | SortOp::Le(_) | SortOp::Lt(_)) => (Value::default(), true),
    }
}

/// The longest value both begin with, part by part (literal text by bytes,
/// cut at a character boundary).
pub fn common_parts(a: &Value, b: &Value) -> Value {
    let mut out = Value::default();
    for (x, y) in a.parts.iter().zip(&b.parts) {
        match (x, y) {
            _ if x == y => out.parts.push(x.clone()),
            (ValuePart::Literal(s), ValuePart::Literal(t)) => {
                let mut n = s.bytes().zip(t.bytes()).take_while(|(p, q)| p == q).count();
                while !s.is_char_boundary(n) {
                    n -= 1;
                }
                out.push_literal(&s[..n]);
                break;
            }
            _ => break,
        }
    }
    out
}

/// The pattern's known attributes as numbered variables.
#[derive(Clone)]
pub struct Vars {
    ids: FxHashMap<String, u32>,
    bindings: Vec<Binding>,
}

#[derive(Clone)]
struct Reason {
    attr: String,
    witness: String,
    condition: String,
}

impl Vars {
    fn new(pattern: &Pattern, equal: &HashMap<String, Value>) -> Vars {
        let mut vars = Vars {
            ids: FxHashMap::default(),
            bindings: Vec::new(),
        };
        for known in &pattern.known {
            let attr = &known.attr.text;
            let Some(value) = equal.get(attr.as_str()) else {
                continue;
            };
            let binding = match value.constant() {
                Some(text) => Binding::Fixed(text.to_string()),
                None => Binding::Param,
            };
            if !vars.ids.contains_key(attr.as_str()) {
                vars.ids.insert(attr.to_string(), vars.bindings.len() as u32);
                vars.bindings.push(binding);
            }
        }
        vars
    }

    /// Attributes already pinned elsewhere: no longer a rule here.
    fn release<'a>(&mut self, attrs: impl Iterator<Item = &'a str>) {
        for attr in attrs {
            if let Some(&var) = self.ids.get(attr) {
                self.bindings[var as usize] = Binding::Free;
            }
        }
    }

    /// The bound attributes, in the order the pattern lists them (so that
    /// the first one reported is the same on every run).
    fn bound(&self) -> impl Iterator<Item = (&str, &Binding)> {
        let mut names: Vec<(&str, u32)> = self.ids.iter().map(|(a, &i)| (a.as_str(), i)).collect();
        names.sort_by_key(|&(_, i)| i);
        names.into_iter().map(|(a, i)| (a, &self.bindings[i as usize]))
    }

    fn binding_of(&self, attr: &str) -> Binding {
        self.ids
            .get(attr)
            .map_or(Binding::Free, |&i| self.bindings[i as usize].clone())
    }

    fn name(&self, var: u32) -> &str {
        self.ids
            .iter()
            .find(|(_, i)| **i == var)
            .map_or("", |(a, _)| a.as_str())
    }

    fn role(&self, name: &str, seen: &mut FxHashMap<u32, u32>) -> Role {
        match self.ids.get(name) {
            Some(&var) => {
                let ord = seen.entry(var).or_insert(0);
                *ord += 1;
                Role::Var { var, ord: *ord - 1 }
            }
            None => Role::Other,
        }
    }

    /// A key of `key`'s template that the condition matches while a known
    /// attribute differs.
    fn unpinned(&self, key: &KeyValue, condition: &Condition) -> Option<Reason> {
        let (item_roles, query_roles) = self.roles(key, condition.value);
        let found = lang::unpinned(
            (&key.template.lang, &item_roles),
            (&condition.lang, &query_roles),
            condition.prefix,
            &self.bindings,
        )?;
        Some(Reason {
            attr: self.name(found.var).to_string(),
            witness: found.witness,
            condition: found.condition,
        })
    }

    /// What each part of the key template and of the condition value stands for.
    fn roles(&self, key: &KeyValue, condition: &Value) -> (Vec<Role>, Vec<Role>) {
        let mut seen = FxHashMap::default();
        let item_roles: Vec<Role> = key
            .template
            .parts
            .iter()
            .map(|p| match p {
                Part::Literal { .. } => Role::Other,
                Part::Hole { name, .. } => self.role(&name.text, &mut seen),
            })
            .collect();
        let mut seen = FxHashMap::default();
        let query_roles: Vec<Role> = condition
            .parts
            .iter()
            .map(|p| match p {
                ValuePart::Literal(_) => Role::Other,
                // Only the caller's values of known attributes bind; a
                // range's bounds are checked where the range is built.
                ValuePart::Param { name, .. } if self.binding_of(name) == Binding::Param => self.role(name, &mut seen),
                ValuePart::Param { .. } => Role::Other,
            })
            .collect();
        (item_roles, query_roles)
    }
}

fn unpinned(item: &ItemRef, key: &str, condition: &Condition, reason: Reason) -> Rejection {
    Rejection::Unpinned(Box::new(Unpinned {
        entity: item.entity,
        key: key.to_string(),
        condition: condition.value.clone(),
        prefix: condition.prefix,
        instance: reason.condition,
        attr: reason.attr,
        witness: reason.witness,
    }))
}
