//! W304: a partition key value that receives more than one partition
//! serves. DynamoDB serves at most 1,000 write units and 3,000 read units a
//! second for each partition (AWS, *Best practices for designing and using
//! partition keys effectively*; *Warm throughput scenarios*), and every item
//! of one partition key value lives in one partition.
//!
//! Writes: an entity's rate hint (`entity Score ~2500/s`) times the write
//! units of one item (1 WCU per KB started, on an index its projected entry)
//! is what its key values receive together. When every hole of a partition
//! key is *concentrated* — a date or time (writes happen now, so the writes
//! of this moment share one value), an enum or bool (dyno cannot know how
//! writes spread over its values, so it assumes the worst one takes them
//! all), or no hole at all — that whole rate lands on one value, divided only
//! by the write shards (`shard(N)`) in the key. Any other hole (`id`, `uuid`,
//! `string`, …) spreads the writes, and nothing is said.
//!
//! Reads: a pattern's rate hint (`~200/s`) times the read units of one of its
//! Queries, when its partition key value is built from literals and known
//! values of concentrated types. A read over a random shard is one Query per
//! shard, each reading its own shard's partition.
//!
//! One pass over the entities and one over the patterns.

use std::collections::HashSet;

use crate::check::cost::{self, KB};
use crate::check::model::{AccessKind, AttrType, Entity, EntityId, KeySchema, Model};
use crate::check::resolve::registry::Registry;
use crate::check::resolve::{Read, Resolution};
use crate::check::shard::MAX_SHARDS;
use crate::check::value::ValuePart;
use crate::diagnostic::{Code, Diagnostic};

/// Write capacity one partition serves per second.
pub const WRITE_LIMIT: f64 = 1000.0;
/// Read capacity one partition serves per second.
pub const READ_LIMIT: f64 = 3000.0;

/// How a hole of a partition key spreads what goes to the key.
pub(crate) enum Hole {
    /// Everything can land on one value; why, as a phrase.
    Concentrated(String),
    /// A write shard: spread evenly over this many values.
    Shard(u32),
    /// Many values: nothing concentrates.
    Spread,
}

/// What a hole named `name` of type `ty` does to the `verb` (`writes`,
/// `reads`) of a key.
pub(crate) fn hole(name: &str, ty: &AttrType, verb: &str) -> Hole {
    match ty {
        AttrType::Date => Hole::Concentrated(format!(
            "`{name}` is a `date`, and the {verb} of one day all share its value"
        )),
        AttrType::DateTime(_) | AttrType::Epoch(_) => Hole::Concentrated(format!(
            "`{name}` is a `{}`, and the {verb} of one moment all share its value",
            ty.name()
        )),
        AttrType::Enum(_) | AttrType::Bool => Hole::Concentrated(format!(
            "`{name}` is {} `{}`: dyno cannot know how the {verb} spread over its values, so it assumes one value takes them all",
            if matches!(ty, AttrType::Enum(_)) { "an" } else { "a" },
            ty.name()
        )),
        AttrType::Shard { count, .. } => Hole::Shard(*count),
        _ => Hole::Spread,
    }
}

/// What gathers on one value of a partition key.
#[derive(Debug, Default)]
pub(crate) struct Concentration {
    /// The shard attributes of the key with their counts.
    pub shards: Vec<(String, u32)>,
    /// Why the rest of the key has one value, one phrase per hole.
    pub why: Vec<String>,
}

impl Concentration {
    /// The values the shards spread over (1 without a shard).
    pub fn spread(&self) -> u32 {
        self.shards.iter().map(|(_, n)| *n).product::<u32>().max(1)
    }

    /// Adds a hole; `false` when it spreads.
    fn add(&mut self, name: &str, ty: &AttrType, verb: &str) -> bool {
        match hole(name, ty, verb) {
            Hole::Concentrated(why) => self.why.push(why),
            Hole::Shard(count) => self.shards.push((name.to_string(), count)),
            Hole::Spread => return false,
        }
        true
    }
}

/// The concentration of the key written by these templates' holes (their
/// attributes in `entity`); `None` when some hole spreads the writes.
pub(crate) fn write_concentration<'a>(
    entity: &Entity,
    holes: impl IntoIterator<Item = (&'a str, Option<usize>)>,
) -> Option<Concentration> {
    let mut concentration = Concentration::default();
    for (name, attr) in holes {
        let attribute = entity.attributes.get(attr?)?;
        if !concentration.add(name, &attribute.ty, "writes") {
            return None;
        }
    }
    Some(concentration)
}

/// The write units of one write: 1 WCU per KB started, at least one.
pub(crate) fn write_units(bytes: f64) -> f64 {
    (bytes / KB).ceil().max(1.0)
}

/// The write shards `entity`'s writes need on a new global index (all
/// attributes projected) keyed on the attributes `holes`: `None` when they
/// fit in one partition (or spread, or the entity has no rate hint).
/// With the shards needed, the write units the writes take in all.
pub(crate) fn shards_needed_on_new_index(model: &Model, entity: EntityId, holes: &[&str]) -> Option<(u32, f64)> {
    let e = model.entity(entity);
    let rate = e.rate?;
    let concentration = write_concentration(e, holes.iter().map(|&h| (h, e.attribute_id(h))))?;
    let total = rate * write_units(cost::item_size(model, entity, 0).size.bytes);
    (total / f64::from(concentration.spread()) > WRITE_LIMIT).then(|| (needed(total, WRITE_LIMIT), total))
}

/// The fewest shards that bring `total` under `limit`.
fn needed(total: f64, limit: f64) -> u32 {
    let n = (total / limit).ceil();
    if n > f64::from(MAX_SHARDS) {
        MAX_SHARDS + 1
    } else {
        (n as u32).max(2)
    }
}

/// W304 for writes: each rated entity's partition keys, on the table and on
/// every global index its items are in.
pub fn hot_writes(model: &Model, diagnostics: &mut Vec<Diagnostic>) {
    let mut reported = HashSet::new();
    for (id, entity) in model.entity_ids() {
        let Some(rate) = entity.rate else { continue };
        let Some(table) = entity.table.map(|t| model.table(t)) else {
            continue;
        };
        let Some(base) = table.base() else { continue };
        for (item, shape) in entity.items.iter().enumerate() {
            let stores = |access: &KeySchema| access.key_attributes().all(|k| shape.key(&k.name).is_some());
            for access in table.access.iter().filter(|a| a.kind != AccessKind::Lsi && stores(a)) {
                let mut units = write_units(cost::entry_size(model, id, item, access, base).bytes);
                // Local index entries live in the partition of their item.
                let mut local = Vec::new();
                if access.kind == AccessKind::Base {
                    for lsi in table.access.iter().filter(|a| a.kind == AccessKind::Lsi && stores(a)) {
                        units += write_units(cost::entry_size(model, id, item, lsi, base).bytes);
                        local.push(format!("`{}`", lsi.name.text));
                    }
                }
                let keys: Vec<_> = access.partition_keys().filter_map(|k| shape.key(&k.name)).collect();
                let holes = keys
                    .iter()
                    .flat_map(|k| k.template.holes())
                    .map(|(name, attr)| (name.text.as_str(), attr));
                let Some(concentration) = write_concentration(entity, holes) else {
                    continue;
                };
                let total = rate * units;
                let estimate = total / f64::from(concentration.spread());
                if estimate <= WRITE_LIMIT || !reported.insert(keys[0].span) {
                    continue;
                }
                let key = keys[0];
                let via = if access.is_index() {
                    format!(" of index `{}`", access.name.text)
                } else {
                    String::new()
                };
                let with_local = if local.is_empty() {
                    String::new()
                } else {
                    format!(", its entries in local index {} included", local.join(", "))
                };
                let mut why = concentration.why.clone();
                if why.is_empty() && concentration.shards.is_empty() {
                    why.push(format!("`{}` is always `{}`", key.attr, key.template.lang_display()));
                }
                let over = match concentration.spread() {
                    1 => String::new(),
                    n => format!(" / {n} shards"),
                };
                diagnostics.push(
                    Diagnostic::new(
                        Code::HotPartition,
                        entity.at(key.span),
                        format!(
                            "one `{}` value{via} takes ~{} WCU/s of `{}`'s writes (~{}/s × {} WCU{with_local}{over}), over the {} WCU/s one partition serves: {}",
                            key.attr,
                            amount(estimate),
                            entity.name.text,
                            amount(rate),
                            amount(units),
                            amount(WRITE_LIMIT),
                            why.join("; ")
                        ),
                    )
                    .with_label(format!("~{} WCU/s on one partition", amount(estimate)))
                    .with_help(write_help(entity, &key.attr, &concentration, total)),
                );
            }
        }
    }
}

/// How many shards fit `total` write units, and how to write them.
fn write_help(entity: &Entity, key: &str, concentration: &Concentration, total: f64) -> String {
    let n = needed(total, WRITE_LIMIT);
    if n > MAX_SHARDS {
        return format!(
            "even {MAX_SHARDS} shards leave ~{} WCU/s on each value: key the items on an attribute with many values",
            amount(total / f64::from(MAX_SHARDS))
        );
    }
    let each = amount(total / f64::from(n));
    let reading = format!("a Query for one value becomes {n} Queries, one per shard");
    match concentration.shards.as_slice() {
        [(attr, _)] => {
            let of = entity.attribute(attr).and_then(|a| match &a.ty {
                AttrType::Shard { of, .. } => of.clone(),
                _ => None,
            });
            let (ty, reading) = match of {
                Some(source) => (
                    format!("shard({n}, of {source})"),
                    format!("a Query that knows `{source}` is still one Query"),
                ),
                None => (format!("shard({n})"), reading),
            };
            format!("make `{attr}` `{ty}`: each value then takes ~{each} WCU/s, and {reading}")
        }
        [] => {
            let unused = entity
                .attributes
                .iter()
                .find(|a| matches!(a.ty, AttrType::Shard { count, of: None } if count >= n));
            match unused {
                Some(shard) => format!(
                    "end `{key}` with `.{{{}}}`: each value then takes ~{each} WCU/s, and {reading}",
                    shard.name.text
                ),
                None => {
                    let name = free_name(entity, "shard");
                    format!(
                        "add `{name}: shard({n})` to `{}` and end `{key}` with `.{{{name}}}`: each value then takes ~{each} WCU/s, and {reading}",
                        entity.name.text
                    )
                }
            }
        }
        _ => format!("raise the shard counts to {n} shards in all: each value then takes ~{each} WCU/s"),
    }
}

/// `base`, or `base2`, `base3`, … when the entity has an attribute of that name.
pub(crate) fn free_name(entity: &Entity, base: &str) -> String {
    std::iter::once(base.to_string())
        .chain((2..).map(|n| format!("{base}{n}")))
        .find(|name| entity.attribute(name).is_none())
        .unwrap_or_else(|| base.to_string())
}

/// The concentration of a Query's partition key value: literals, and known
/// values of concentrated types. The random shard of a read over every
/// shard is one request per shard, so it does not spread that read.
fn read_concentration(model: &Model, resolution: &Resolution) -> Option<Concentration> {
    let mut concentration = Concentration::default();
    let values = std::iter::once(&resolution.partition).chain(&resolution.partition_rest);
    for part in values.flat_map(|v| &v.parts) {
        let ValuePart::Param { name, .. } = part else { continue };
        if let Some(shards) = resolution.shards.as_ref().filter(|s| s.attr == *name) {
            if shards.from.is_some() {
                concentration.shards.push((name.to_string(), shards.count));
            }
            continue;
        }
        let attribute = model.attribute_among(&resolution.returns, name)?;
        if !concentration.add(name, &attribute.ty, "reads") {
            return None;
        }
    }
    Some(concentration)
}

/// W304 for reads: each rated pattern's Query whose partition key value
/// concentrates.
pub fn hot_reads(
    model: &Model,
    registry: &Registry,
    resolutions: &[Option<Resolution>],
    diagnostics: &mut Vec<Diagnostic>,
) {
    for (id, pattern) in model.pattern_ids() {
        let Some(rate) = pattern.rate else { continue };
        let Some(Some(resolution)) = resolutions.get(id.index()) else {
            continue;
        };
        if resolution.read != Read::Query {
            continue;
        }
        let Some(concentration) = read_concentration(model, resolution) else {
            continue;
        };
        let cost = cost::unlimited_read_cost(model, registry, pattern, resolution);
        let limit = pattern.limit.or(resolution.limit);
        let random = resolution.shards.as_ref().filter(|s| s.from.is_none());
        let requests = random.map_or(1, |s| s.count);
        let each = cost.per_request(requests, limit);
        let estimate = rate * each.rcu / f64::from(concentration.spread());
        if estimate <= READ_LIMIT {
            continue;
        }
        let access = resolution.key_schema(model);
        let mut why = concentration.why.clone();
        if why.is_empty() && concentration.shards.is_empty() {
            why.push(format!("the Query always reads `{}`", resolution.partition));
        }
        let fan_out = match random {
            Some(s) => format!(" (one of its {} Queries, one per `{}`)", s.count, s.attr),
            None => String::new(),
        };
        let spread = match concentration.spread() {
            1 => String::new(),
            n => format!(" / {n} shards"),
        };
        let help = match concentration.shards.as_slice() {
            // The caller knows the shard (or computes it): more shards
            // spread the reads, and each is still one Query.
            [(attr, _)] => {
                let n = needed(rate * each.rcu, READ_LIMIT);
                let source = resolution.shards.as_ref().and_then(|s| s.from.as_ref());
                let ty = match source {
                    Some(source) => format!("shard({n}, of {source})"),
                    None => format!("shard({n})"),
                };
                format!(
                    "make `{attr}` `{ty}`: each value then takes ~{} RCU/s, and each read is still one Query",
                    amount(rate * each.rcu / f64::from(n))
                )
            }
            _ => read_help(access, random.map(|s| (s.attr.as_str(), s.count)), &cost, limit, rate),
        };
        diagnostics.push(
            Diagnostic::new(
                Code::HotPartition,
                pattern.at(pattern.name.span),
                format!(
                    "`{}` reads ~{} RCU/s from one `{}` value (~{}/s × {} RCU{fan_out}{spread}), over the {} RCU/s one partition serves: {}",
                    pattern.name.text,
                    amount(estimate),
                    access.pk.name,
                    amount(rate),
                    amount(each.rcu),
                    amount(READ_LIMIT),
                    why.join("; ")
                ),
            )
            .with_label(format!("~{} RCU/s on one partition", amount(estimate)))
            .with_help(help),
        );
    }
}

/// How many shards bring a read under the limit, each Query reading its
/// share of the items.
fn read_help(
    access: &KeySchema,
    sharded: Option<(&str, u32)>,
    cost: &cost::ReadCost,
    limit: Option<u64>,
    rate: f64,
) -> String {
    let per_second = |n: u32| rate * cost.per_request(n, limit).rcu;
    let from = sharded.map_or(2, |(_, count)| count + 1);
    let fits = (from..=MAX_SHARDS).find(|&n| per_second(n) <= READ_LIMIT);
    let Some(n) = fits else {
        return format!(
            "no number of shards helps: each Query costs at least {} RCU{}; read less often, or cache the result",
            amount(cost.per_request(MAX_SHARDS, limit).rcu),
            if limit.is_some() {
                ", and with `limit` each shard's Query reads its own first items"
            } else {
                ""
            }
        );
    };
    let each = amount(per_second(n));
    let shard = match sharded {
        Some((attr, _)) => format!("make `{attr}` `shard({n})`"),
        None => format!(
            "write-shard `{}`: add a `shard({n})` attribute to its template",
            access.pk.name
        ),
    };
    format!("{shard}; the read is then {n} Queries, each reading 1/{n} of the items (~{each} RCU/s on each partition)")
}

/// A rate for a message: `2,500`, `12.5`, `0.5` (tenths below 100).
pub(crate) fn amount(x: f64) -> String {
    let tenths = (x * 10.0).round() / 10.0;
    if x < 100.0 && tenths.fract() != 0.0 {
        return format!("{tenths}");
    }
    let digits = format!("{}", x.round() as u64);
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}
