//! What a pattern means, with no code shared with the resolver: the items
//! this test writes (keys rendered from the templates by the few lines of
//! `render`), and for a pattern and its parameters the rows it must return
//! — the written items of the declared entities, in the access path's index,
//! whose attributes satisfy every known value.

use std::cmp::Ordering;
use std::collections::{BTreeMap, HashSet};

use serde_json::{Map, Value as Json, json};

use super::design::{Design, Entity, Known, Part, Pattern, Rng, Template, Ty};

#[derive(Clone, Debug)]
pub struct Item {
    pub entity: String,
    /// Attribute → its value, canonical (`7` for an `int(pad 4)`).
    pub attrs: BTreeMap<String, String>,
    /// Key attribute → its rendered value, for the keys the item has.
    pub keys: BTreeMap<String, String>,
}

pub type Id = (String, String);

impl Item {
    pub fn id(&self) -> Id {
        (self.keys["pk"].clone(), self.keys["sk"].clone())
    }
}

/// The template with the entity's values substituted; `None` when a hole's
/// attribute is absent (the item is then not in that index).
pub fn render(entity: &Entity, attrs: &BTreeMap<String, String>, t: &Template) -> Option<String> {
    let mut out = String::new();
    for part in t {
        match part {
            Part::Lit(s) => out.push_str(s),
            Part::Hole(h) => out.push_str(&entity.attr(h)?.ty.key_text(attrs.get(h)?)),
        }
    }
    Some(out)
}

pub fn key_names(design: &Design) -> Vec<String> {
    let mut names = vec!["pk".to_string(), "sk".to_string()];
    for i in &design.indexes {
        for k in std::iter::once(&i.pk).chain(&i.sk) {
            if !names.contains(k) {
                names.push(k.clone());
            }
        }
    }
    names
}

/// A handful of items per entity, values from the shared pools; an item
/// whose primary key is already taken is skipped.
pub fn items(design: &Design, rng: &mut Rng) -> Vec<Item> {
    let keys = key_names(design);
    let mut out: Vec<Item> = Vec::new();
    let mut taken: HashSet<Id> = HashSet::new();
    for entity in &design.entities {
        for _ in 0..4 + rng.below(5) {
            let mut attrs = BTreeMap::new();
            for a in &entity.attrs {
                let absent = a.optional && rng.chance(30);
                if !absent && !matches!(a.ty, Ty::ShardOf(..)) {
                    attrs.insert(a.name.clone(), rng.pick(&a.ty.pool()).clone());
                }
            }
            // A calculated shard, as the application computes it (the
            // documented contract: FNV-1a of the source's key text, mod N).
            for a in &entity.attrs {
                if let Ty::ShardOf(n, source) = &a.ty
                    && let Some(value) = attrs.get(source)
                {
                    let text = entity.attr(source).unwrap().ty.key_text(value);
                    attrs.insert(a.name.clone(), dyno::check::shard::of(&text, *n).to_string());
                }
            }
            let mut item_keys = BTreeMap::new();
            for k in &keys {
                if let Some(v) = entity.key_source(k).and_then(|t| render(entity, &attrs, &t)) {
                    item_keys.insert(k.clone(), v);
                }
            }
            let item = Item {
                entity: entity.name.clone(),
                attrs,
                keys: item_keys,
            };
            if taken.insert(item.id()) {
                out.push(item);
            }
        }
    }
    out
}

/// The item in DynamoDB JSON: keys as strings, numbers as `N`.
pub fn dynamo_item(design: &Design, item: &Item) -> Map<String, Json> {
    let entity = design.entity(&item.entity);
    let mut out = Map::new();
    for (name, value) in &item.attrs {
        let v = if entity.attr(name).unwrap().ty.numeric() {
            json!({ "N": value })
        } else {
            json!({ "S": value })
        };
        out.insert(name.clone(), v);
    }
    for (k, v) in &item.keys {
        out.insert(k.clone(), json!({ "S": v }));
    }
    out.insert("entity".into(), json!({ "S": item.entity }));
    out
}

/// Compares two values of a type as the pattern means them.
pub fn compare(ty: &Ty, a: &str, b: &str) -> Ordering {
    if ty.numeric()
        && let (Ok(x), Ok(y)) = (a.parse::<f64>(), b.parse::<f64>())
    {
        return x.partial_cmp(&y).unwrap_or(Ordering::Equal);
    }
    a.as_bytes().cmp(b.as_bytes())
}

pub fn attr_ty(design: &Design, pattern: &Pattern, attr: &str) -> Ty {
    pattern
        .returns
        .iter()
        .find_map(|(e, _)| design.entity(e).attr(attr))
        .map(|a| a.ty.clone())
        .unwrap_or(Ty::Str)
}

/// Parameter values, canonical: from one item the path can return (so the
/// Query has hits) when `hit`, otherwise drawn from the pools.
pub fn params(
    design: &Design,
    pattern: &Pattern,
    candidates: &[&Item],
    rng: &mut Rng,
    hit: bool,
) -> BTreeMap<String, String> {
    let target = (hit && !candidates.is_empty()).then(|| candidates[rng.below(candidates.len())]);
    let mut out = BTreeMap::new();
    for known in &pattern.known {
        let attr = known.attr();
        let ty = attr_ty(design, pattern, attr);
        let mut pool = ty.pool();
        let own = target.and_then(|t| t.attrs.get(attr)).cloned();
        pool.extend(own.clone());
        let mut any = || {
            own.clone()
                .filter(|_| rng.chance(50))
                .unwrap_or_else(|| rng.pick(&pool).clone())
        };
        match known {
            Known::Eq(a) => {
                let v = own.clone().unwrap_or_else(|| rng.pick(&ty.pool()).clone());
                out.insert(a.clone(), v);
            }
            Known::Fixed(..) => {}
            Known::Cmp(_, _, b) => {
                out.insert(b.clone(), any());
            }
            Known::Between(_, lo, hi) => {
                let (mut x, mut y) = (any(), any());
                if compare(&ty, &x, &y) == Ordering::Greater {
                    std::mem::swap(&mut x, &mut y);
                }
                out.insert(lo.clone(), x);
                out.insert(hi.clone(), y);
            }
            Known::Begins(_, p) => {
                let v = any();
                let n = 1 + rng.below(v.chars().count().max(1));
                out.insert(p.clone(), v.chars().take(n).collect());
            }
        }
    }
    out
}

/// Does the item hold every known value of the pattern?
fn holds(design: &Design, pattern: &Pattern, item: &Item, params: &BTreeMap<String, String>) -> bool {
    pattern.known.iter().all(|known| {
        let attr = known.attr();
        // A known value binds the entities that have the attribute (as
        // `dyno verify` reads a pattern); an absent optional value fails it.
        let Some(declared) = design.entity(&item.entity).attr(attr) else {
            return true;
        };
        let Some(value) = item.attrs.get(attr) else {
            return false;
        };
        let ty = &declared.ty;
        let c = |p: &str| compare(ty, value, &params[p]);
        match known {
            Known::Eq(a) => c(a).is_eq(),
            Known::Fixed(_, v) => compare(ty, value, v).is_eq(),
            Known::Cmp(_, op, b) => match *op {
                "<" => c(b).is_lt(),
                "<=" => c(b).is_le(),
                ">" => c(b).is_gt(),
                _ => c(b).is_ge(),
            },
            Known::Between(_, lo, hi) => c(lo).is_ge() && c(hi).is_le(),
            Known::Begins(_, p) => value.starts_with(params[p].as_str()),
        }
    })
}

/// Items of the declared entities in the access path (pk and sk names).
pub fn in_path<'a>(pattern: &Pattern, items: &'a [Item], pk: &str, sk: Option<&str>) -> Vec<&'a Item> {
    items
        .iter()
        .filter(|i| pattern.returns.iter().any(|(e, _)| *e == i.entity))
        .filter(|i| i.keys.contains_key(pk) && sk.is_none_or(|s| i.keys.contains_key(s)))
        .collect()
}

/// The rows the pattern means, in its declared order when it has `by`.
pub fn expected<'a>(
    design: &Design,
    pattern: &Pattern,
    path: &[&'a Item],
    params: &BTreeMap<String, String>,
) -> Vec<&'a Item> {
    let mut rows: Vec<&Item> = path
        .iter()
        .copied()
        .filter(|i| holds(design, pattern, i, params))
        .collect();
    if let Some((attr, desc)) = &pattern.by {
        let ty = attr_ty(design, pattern, attr);
        rows.sort_by(|a, b| {
            let o = match (a.attrs.get(attr), b.attrs.get(attr)) {
                (Some(x), Some(y)) => compare(&ty, x, y),
                _ => Ordering::Equal,
            };
            if *desc { o.reverse() } else { o }
        });
    }
    rows
}
