//! Sample items for a schema: realistic values shaped by each attribute's
//! type, several partitions with several items each, and deliberate
//! near-misses that expose key hazards — ids that are prefixes of other ids
//! (`k3x9qz` and `k3x9qz0`), numbers that sort wrongly as text (`9`, `10`,
//! `42`, `420`), values at the bounds of their range (`000`, `999`), every
//! value of every enum. Key attributes are filled from the templates.
//! Deterministic: the same schema, count and seed give the same items.
//!
//! Used by `dyno sample`, `dyno verify` and the NoSQL Workbench export;
//! [`example_item`] is the one typical item a hover shows.

mod example;

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value as Json, json};

use super::model::{AttrType, Entity, EntityId, EpochUnit, ItemShape, Model, Part, TableId, Template, Zone};
use crate::syntax::ast::KeyType;
use example::{EXAMPLE_DATE, EXAMPLE_DATETIME, EXAMPLE_DECIMAL, EXAMPLE_EPOCH, EXAMPLE_INT};
pub use example::{example_item, example_value};

pub const DEFAULT_PER_ENTITY: usize = 6;
pub const DEFAULT_SEED: u64 = 1;
/// DynamoDB's BatchWriteItem takes at most 25 puts per request.
pub const BATCH_SIZE: usize = 25;

#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Records per entity (raised to the longest enum, so every value appears).
    pub per_entity: usize,
    pub seed: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            per_entity: DEFAULT_PER_ENTITY,
            seed: DEFAULT_SEED,
        }
    }
}

/// One attribute's value in a record.
#[derive(Clone, Debug, PartialEq)]
pub struct AttrValue {
    /// The value as it appears inside a key: `000042` for `int(pad 6)`.
    pub text: String,
    /// The value as the item stores it, in DynamoDB JSON: `{"N": "42"}`.
    pub stored: Json,
}

impl AttrValue {
    /// A UTC `datetime` value (`...Z`) as the zone spells it: without the
    /// `Z` (local), or with offsets that vary by `k` (so samples show
    /// that offset text does not sort by time).
    fn in_zone(self, zone: Zone, k: usize) -> AttrValue {
        let Some(utc) = self.text.strip_suffix('Z') else {
            return self;
        };
        let text = match zone {
            Zone::Utc => return self,
            Zone::Local => utc.to_string(),
            Zone::Offset => format!("{utc}{}", ["Z", "+02:00", "-05:00", "+05:30"][k % 4]),
        };
        AttrValue {
            stored: json!({ "S": text }),
            text,
        }
    }
}

/// One instance of an entity: a value per attribute (an optional attribute
/// may be absent). It writes one item per item shape.
#[derive(Clone, Debug)]
pub struct Record {
    pub entity: EntityId,
    /// In the entity's attribute order.
    pub values: Vec<(String, AttrValue)>,
}

impl Record {
    pub fn value(&self, attr: &str) -> Option<&AttrValue> {
        self.values.iter().find(|(name, _)| name == attr).map(|(_, v)| v)
    }
}

/// One item as written to the table.
#[derive(Clone, Debug)]
pub struct SampleItem {
    /// Into `Samples::records`.
    pub record: usize,
    pub entity: EntityId,
    /// Into the entity's item shapes.
    pub shape: usize,
    /// DynamoDB JSON: key attributes first, then the entity's attributes.
    pub item: Map<String, Json>,
}

#[derive(Clone, Debug)]
pub struct TableSamples {
    pub table: TableId,
    pub items: Vec<SampleItem>,
}

#[derive(Clone, Debug, Default)]
pub struct Samples {
    pub records: Vec<Record>,
    /// One per table of the model, in model order.
    pub tables: Vec<TableSamples>,
    /// Records that could not be written, and why (a key every attempt
    /// collided with, an item shape without the table's keys).
    pub notes: Vec<String>,
}

impl Samples {
    pub fn item_count(&self) -> usize {
        self.tables.iter().map(|t| t.items.len()).sum()
    }
}

/// The identity of an item in its table: its primary key, with numbers
/// normalised so that `007` and `7` are the same key.
pub fn primary_key_identity(item: &Map<String, Json>, pk: &str, sk: Option<&str>) -> Option<String> {
    let part = |name: &str| -> Option<String> {
        let value = item.get(name)?;
        Some(match value {
            Json::Object(typed) => match typed.iter().next() {
                Some((ty, Json::String(n))) if ty == "N" => format!("N:{}", normalize_number(n)),
                Some((ty, v)) => format!("{ty}:{}", v.as_str().map_or_else(|| v.to_string(), str::to_string)),
                None => String::new(),
            },
            other => other.to_string(),
        })
    };
    let mut id = part(pk)?;
    if let Some(sk) = sk {
        id.push('\u{1}');
        id.push_str(&part(sk)?);
    }
    Some(id)
}

/// A decimal number in its shortest form: `007` → `7`, `1.50` → `1.5`,
/// `-0` → `0`. Text that is not a plain decimal number is returned as is.
pub fn normalize_number(text: &str) -> String {
    let (sign, digits) = match text.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", text.strip_prefix('+').unwrap_or(text)),
    };
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    if int.is_empty() && frac.is_empty()
        || !int.bytes().all(|b| b.is_ascii_digit())
        || !frac.bytes().all(|b| b.is_ascii_digit())
    {
        return text.to_string();
    }
    let int = int.trim_start_matches('0');
    let frac = frac.trim_end_matches('0');
    let int = if int.is_empty() { "0" } else { int };
    if int == "0" && frac.is_empty() {
        return "0".into();
    }
    if frac.is_empty() {
        format!("{sign}{int}")
    } else {
        format!("{sign}{int}.{frac}")
    }
}

/// Generates the samples of every entity that lives in a table.
pub fn generate(model: &Model, options: &Options) -> Samples {
    let mut generator = Generator {
        model,
        seed: options.seed,
        fresh: HashMap::new(),
    };
    let mut samples = Samples {
        tables: (0..model.tables.len())
            .map(|table| TableSamples {
                table: TableId::new(table),
                items: Vec::new(),
            })
            .collect(),
        ..Samples::default()
    };
    let mut written: Vec<HashSet<String>> = vec![HashSet::new(); model.tables.len()];
    for (entity_id, entity) in model.entity_ids() {
        let Some(table_id) = entity.table else { continue };
        let table = model.table(table_id);
        let Some(base) = table.base() else { continue };
        let pooled = pooled_attributes(model, entity);
        let base_keyed: Vec<usize> = (0..entity.attributes.len())
            .filter(|&a| {
                entity.items.iter().any(|shape| {
                    shape
                        .keys
                        .iter()
                        .filter(|k| k.attr == base.pk.name || base.sk.as_ref().is_some_and(|sk| k.attr == sk.name))
                        .any(|k| k.implicit || k.template.holes().any(|(_, h)| h == Some(a)))
                })
            })
            .collect();
        let longest_enum = entity
            .attributes
            .iter()
            .filter_map(|a| match &a.ty {
                AttrType::Enum(values) => Some(values.len()),
                _ => None,
            })
            .max()
            .unwrap_or(0);
        if options.per_entity == 0 {
            continue;
        }
        let count = options.per_entity.max(longest_enum);
        // Two to four shared partitions of about three records each.
        let partitions = if options.per_entity >= 4 {
            (options.per_entity / 3).clamp(2, 4)
        } else {
            1
        };
        for i in 0..count {
            let mut committed = false;
            for attempt in 0..12 {
                let record = generator.record(entity_id, entity, &pooled, &base_keyed, i, attempt, count, partitions);
                let mut items = Vec::new();
                let mut ids = Vec::new();
                let mut ok = true;
                for (shape_id, shape) in entity.items.iter().enumerate() {
                    let item = build_item(model, entity, shape, &record);
                    let Some(id) =
                        primary_key_identity(&item, &base.pk.name, base.sk.as_ref().map(|k| k.name.as_str()))
                    else {
                        ok = false;
                        break;
                    };
                    if written[table_id.index()].contains(&id) || ids.contains(&id) {
                        ok = false;
                        break;
                    }
                    ids.push(id);
                    items.push((shape_id, item));
                }
                if !ok || items.is_empty() {
                    continue;
                }
                let record_id = samples.records.len();
                samples.records.push(record);
                written[table_id.index()].extend(ids);
                for (shape, item) in items {
                    samples.tables[table_id.index()].items.push(SampleItem {
                        record: record_id,
                        entity: entity_id,
                        shape,
                        item,
                    });
                }
                committed = true;
                break;
            }
            if !committed {
                samples.notes.push(format!(
                    "`{}`: record {i} skipped: every attempt produced a key that is already written (or no table key)",
                    entity.name.text
                ));
            }
        }
    }
    samples
}

/// The attributes that fill a hole of a partition-key template (of the
/// table or an index): their values come from a small pool shared by every
/// entity of the file, so that several entities share each partition and
/// each partition holds several items. Enums and booleans are not pooled:
/// they have few values anyway, and every one of them appears.
fn pooled_attributes(model: &Model, entity: &Entity) -> Vec<usize> {
    let Some(table) = entity.table.map(|t| model.table(t)) else {
        return Vec::new();
    };
    let mut pooled = Vec::new();
    // A multi-attribute key's partition attributes are the entity's own.
    let multi_partition = table
        .access
        .iter()
        .filter(|a| a.is_multi_attribute())
        .flat_map(|a| a.partition_keys())
        .filter_map(|k| entity.attribute_id(&k.name));
    for attr in multi_partition {
        let ty = &entity.attributes[attr].ty;
        if !matches!(ty, AttrType::Enum(_) | AttrType::Bool | AttrType::Shard { .. }) && !pooled.contains(&attr) {
            pooled.push(attr);
        }
    }
    for shape in &entity.items {
        for key in shape.keys.iter().filter(|k| !k.implicit) {
            if !table.access.iter().any(|a| a.pk.name == key.attr) {
                continue;
            }
            for (_, attr) in key.template.holes() {
                let Some(attr) = attr else { continue };
                let ty = &entity.attributes[attr].ty;
                if !matches!(ty, AttrType::Enum(_) | AttrType::Bool | AttrType::Shard { .. }) && !pooled.contains(&attr)
                {
                    pooled.push(attr);
                }
            }
        }
    }
    pooled.sort_unstable();
    pooled
}

/// Attributes that fill any hole of an explicit key template: always present,
/// so that every item shape can be written.
fn in_templates(entity: &Entity, attr: usize) -> bool {
    entity.items.iter().any(|shape| {
        shape
            .keys
            .iter()
            .filter(|k| !k.implicit)
            .any(|k| k.template.holes().any(|(_, a)| a == Some(attr)))
    })
}

struct Generator<'m> {
    model: &'m Model,
    seed: u64,
    /// Per pool: the next unused position past the shared partitions.
    fresh: HashMap<String, usize>,
}

impl Generator<'_> {
    /// Record `i` of `count`; `attempt` > 0 after a key collision, with fresh
    /// values.
    #[allow(clippy::too_many_arguments)]
    fn record(
        &mut self,
        entity_id: EntityId,
        entity: &Entity,
        pooled: &[usize],
        base_keyed: &[usize],
        i: usize,
        attempt: usize,
        count: usize,
        partitions: usize,
    ) -> Record {
        let delimiter = entity
            .table
            .map_or("#", |t| self.model.table(t).delimiter.as_str())
            .to_string();
        let ttl = entity.table.and_then(|t| self.model.table(t).ttl.as_ref());
        let mut values = Vec::new();
        for (index, attribute) in entity.attributes.iter().enumerate() {
            let name = &attribute.name.text;
            if attribute.optional && i % 3 == 2 && !in_templates(entity, index) {
                continue; // absent: optional attributes are sometimes missing
            }
            let (stream, k) = match pooled.iter().position(|&p| p == index) {
                Some(j) => {
                    let stream = format!("pool:{name}:{}", type_key(&attribute.ty));
                    // After a collision, only the attributes of the table's
                    // own key take fresh values: one only in an index's
                    // partition key (an order's `customerId` in `gsi1pk`)
                    // stays in the shared partitions, so they keep several
                    // items each.
                    let k = if attempt == 0 || !base_keyed.contains(&index) {
                        (i + (i / partitions) * j) % partitions
                    } else {
                        let next = self.fresh.entry(stream.clone()).or_insert(partitions);
                        *next += 1;
                        *next - 1
                    };
                    (stream, k)
                }
                None => {
                    // Neighbouring positions (an id and its prefix twin, `9`
                    // and `10`) go to the same partition; enums cycle through
                    // every value, and through several within each partition.
                    let per = count.div_ceil(partitions).max(1);
                    let k = match &attribute.ty {
                        AttrType::Enum(values) => enum_position(i, values.len(), partitions),
                        AttrType::Bool => enum_position(i, 2, partitions),
                        AttrType::Shard { .. } => i,
                        _ => (i % partitions) * per + i / partitions,
                    };
                    // Shared by every entity with an attribute of that name
                    // and type: an `OrderLine`'s `orderId` is an `Order`'s.
                    (
                        format!("attr:{name}:{}", type_key(&attribute.ty)),
                        k + attempt * count.max(1),
                    )
                }
            };
            let mut value = nth_value(self.seed, &stream, &attribute.ty, name, k, &delimiter);
            if ttl.is_some_and(|ttl| ttl.text == *name) {
                value = future_expiry(&attribute.ty, k).unwrap_or(value);
            }
            values.push((name.to_string(), value));
        }
        calculate_shards(entity, &mut values);
        Record {
            entity: entity_id,
            values,
        }
    }
}

/// `shard(N, of userId)`: the shard the application computes from the
/// record's `userId`.
fn calculate_shards(entity: &Entity, values: &mut [(String, AttrValue)]) {
    for attribute in &entity.attributes {
        let AttrType::Shard {
            count,
            of: Some(source),
        } = &attribute.ty
        else {
            continue;
        };
        let Some(source) = values.iter().find(|(name, _)| name == source) else {
            continue;
        };
        let text = crate::check::shard::of(&source.1.text, *count).to_string();
        if let Some((_, value)) = values.iter_mut().find(|(name, _)| *name == attribute.name.text) {
            *value = AttrValue {
                stored: json!({ "N": text }),
                text,
            };
        }
    }
}

/// The position of record `i`'s value among an enum's `words`: record `i`
/// lies in shared partition `i % partitions`, so cycling by `i` alone would
/// give a partition one word whenever the count of words divides the count
/// of partitions (`red, blue` in two partitions: every product of a store
/// red). Stepping one further per round keeps every word in the first
/// round and varies the words within each partition.
fn enum_position(i: usize, words: usize, partitions: usize) -> usize {
    if words > 0 && partitions.is_multiple_of(words) {
        i + i / partitions
    } else {
        i
    }
}

fn type_key(ty: &AttrType) -> String {
    match ty {
        AttrType::Int { pad: Some(n) } => format!("int{n}"),
        other => other.name().to_string(),
    }
}

/// One item of a record: its keys from the templates, then its attributes.
fn build_item(model: &Model, entity: &Entity, shape: &ItemShape, record: &Record) -> Map<String, Json> {
    let mut item = Map::new();
    let Some(table) = entity.table.map(|t| model.table(t)) else {
        return item;
    };
    let key_type = |attr: &str| {
        table
            .key_attributes()
            .find(|k| k.name == attr)
            .map_or(KeyType::String, |k| k.ty)
    };
    // Keys in the table's order: base keys first, then each index's.
    let mut key_names: Vec<&str> = Vec::new();
    for key in table.key_attributes() {
        if !key_names.contains(&key.name.as_str()) {
            key_names.push(&key.name);
        }
    }
    for name in key_names {
        let Some(kv) = shape.key(name) else { continue };
        let text = if kv.implicit {
            match record.value(name) {
                Some(value) => {
                    if let (KeyType::Binary, Json::Object(stored)) = (key_type(name), &value.stored)
                        && stored.contains_key("B")
                    {
                        item.insert(name.to_string(), value.stored.clone());
                        continue;
                    }
                    value.text.clone()
                }
                None => continue, // an optional attribute left out: sparse
            }
        } else {
            let filled = fill_template(&kv.template, |name, attr| match attr {
                Some(a) => record.value(&entity.attributes[a].name.text).map(|v| v.text.clone()),
                None => Some(name.to_string()),
            });
            match filled {
                Some(text) => text,
                None => continue, // an optional attribute left out: sparse
            }
        };
        let typed = match key_type(name) {
            KeyType::String => json!({ "S": text }),
            KeyType::Number => json!({ "N": normalize_number(&text) }),
            KeyType::Binary => json!({ "B": base64(text.as_bytes()) }),
        };
        item.insert(name.to_string(), typed);
    }
    for (name, value) in &record.values {
        if !item.contains_key(name) {
            item.insert(name.clone(), value.stored.clone());
        }
    }
    item
}

/// A key template's text with each hole filled by `hole(name, attr)`;
/// `None` when some hole has no value.
fn fill_template(template: &Template, mut hole: impl FnMut(&str, Option<usize>) -> Option<String>) -> Option<String> {
    let mut text = String::new();
    for part in &template.parts {
        match part {
            Part::Literal { text: literal, .. } => text.push_str(literal),
            Part::Hole { name, attr, .. } => text.push_str(&hole(&name.text, *attr)?),
        }
    }
    Some(text)
}

/// 2100-01-01T00:00:00Z in epoch seconds: sample expiry times after it do
/// not depend on the day the samples are made, and are not in the past.
const FUTURE_EPOCH_SECONDS: u64 = 4_102_444_800;

/// The `k`-th value of a table's ttl attribute: epoch seconds in the future,
/// an hour apart, so that sample items do not look expired (DynamoDB would
/// delete them). `None` for a type that cannot hold it (E117 reports it) or
/// an `int(pad N)` too narrow for it.
fn future_expiry(ty: &AttrType, k: usize) -> Option<AttrValue> {
    let n = FUTURE_EPOCH_SECONDS + k as u64 * 3600;
    let text = match ty {
        AttrType::Int { pad: None } | AttrType::Decimal | AttrType::Epoch(EpochUnit::Seconds) => n.to_string(),
        AttrType::Int { pad: Some(width) } if n.to_string().len() <= *width as usize => {
            format!("{n:0>width$}", width = *width as usize)
        }
        _ => return None,
    };
    Some(AttrValue {
        text,
        stored: json!({ "N": n.to_string() }),
    })
}

/// The `k`-th value of a stream of values of one type. Early positions hold
/// the near-misses; later ones are drawn from the seed.
fn nth_value(seed: u64, stream: &str, ty: &AttrType, name: &str, k: usize, delimiter: &str) -> AttrValue {
    let mut rng = Rng::new(seed, stream, k as u64);
    let s = |text: String| AttrValue {
        stored: json!({ "S": text }),
        text,
    };
    match ty {
        AttrType::Id => s(nth_id(seed, stream, k, delimiter)),
        AttrType::String => s(nth_string(name, k, &mut rng, delimiter)),
        AttrType::Int { pad } => {
            let max = pad.map_or(u64::MAX / 4, |p| 10u64.saturating_pow(p.min(18)) - 1);
            // `9` before `10` and `42` before `420`: wrong as text.
            const NEAR: [u64; 8] = [9, 10, EXAMPLE_INT, 420, 0, 7, 100, 1];
            let near: Vec<u64> = match pad {
                // Both bounds of the padded range early on.
                Some(_) => [EXAMPLE_INT, 420, 0, max, 9, 10, 1, 7]
                    .into_iter()
                    .filter(|&n| n <= max)
                    .collect(),
                None => NEAR.to_vec(),
            };
            let n = near.get(k).copied().unwrap_or_else(|| rng.below(max.min(99_999) + 1));
            let text = match pad {
                Some(width) => format!("{n:0>width$}", width = *width as usize),
                None => n.to_string(),
            };
            AttrValue {
                text,
                stored: json!({ "N": n.to_string() }),
            }
        }
        AttrType::Decimal => {
            const NEAR: [&str; 6] = [EXAMPLE_DECIMAL, "0", "199.9", "5", "0.5", "1000"];
            let text = NEAR.get(k).map_or_else(
                || format!("{}.{:02}", rng.below(500), rng.below(100)),
                |t| t.to_string(),
            );
            AttrValue {
                stored: json!({ "N": text }),
                text,
            }
        }
        AttrType::Bool => {
            let b = k.is_multiple_of(2);
            AttrValue {
                text: b.to_string(),
                stored: json!({ "BOOL": b }),
            }
        }
        AttrType::Date => {
            const NEAR: [&str; 4] = [EXAMPLE_DATE, "2026-01-01", "2026-12-31", "2025-12-31"];
            s(NEAR.get(k).map_or_else(|| random_date(&mut rng), |t| t.to_string()))
        }
        AttrType::Epoch(unit) => {
            // 2020 to 2030: ten digits of seconds, thirteen of milliseconds.
            const NEAR: [u64; 4] = [EXAMPLE_EPOCH, 1_767_225_600, 1_798_761_599, EXAMPLE_EPOCH + 1];
            let seconds = NEAR
                .get(k)
                .copied()
                .unwrap_or_else(|| 1_577_836_800 + rng.below(315_619_200));
            let text = match unit {
                EpochUnit::Seconds => seconds.to_string(),
                EpochUnit::Millis => format!("{seconds}{:03}", rng.below(1000)),
            };
            AttrValue {
                stored: json!({ "N": text }),
                text,
            }
        }
        // 09:00, 10:00, 11:00 and 12:00 UTC, written in offsets whose text
        // sorts otherwise (`06:00-05:00` before `14:30+05:30`): the samples
        // show what W303 says of `datetime(offset)` in a key.
        AttrType::DateTime(Zone::Offset) if k < 4 => s([
            "2026-03-14T14:30:00+05:30",
            "2026-03-14T10:00:00Z",
            "2026-03-14T06:00:00-05:00",
            "2026-03-14T07:00:00-05:00",
        ][k]
            .to_string()),
        AttrType::DateTime(zone) => {
            const NEAR: [&str; 4] = [
                EXAMPLE_DATETIME,
                "2026-01-01T00:00:00Z",
                "2026-12-31T23:59:59Z",
                "2026-03-14T09:26:54Z",
            ];
            s(NEAR.get(k).map_or_else(
                || {
                    format!(
                        "{}T{:02}:{:02}:{:02}Z",
                        random_date(&mut rng),
                        rng.below(24),
                        rng.below(60),
                        rng.below(60)
                    )
                },
                |t| t.to_string(),
            ))
            .in_zone(*zone, k)
        }
        AttrType::Uuid => {
            let hi = rng.next();
            let lo = rng.next();
            let hex = format!("{hi:016x}{lo:016x}");
            // Version 4, RFC 4122 variant.
            let variant = ["8", "9", "a", "b"][(lo >> 62) as usize];
            s(format!(
                "{}-{}-4{}-{variant}{}-{}",
                &hex[0..8],
                &hex[8..12],
                &hex[13..16],
                &hex[17..20],
                &hex[20..32]
            ))
        }
        AttrType::Ulid => {
            // Time-ordered: later positions are later in time.
            let ms = 1_767_225_600_000u64 + k as u64 * 3_600_000 + rng.below(1000);
            let mut text = String::with_capacity(26);
            for i in (0..10).rev() {
                text.push(CROCKFORD[((ms >> (i * 5)) & 31) as usize] as char);
            }
            for _ in 0..16 {
                text.push(CROCKFORD[rng.below(32) as usize] as char);
            }
            s(text)
        }
        AttrType::Enum(values) => s(if values.is_empty() {
            "value".into()
        } else {
            values[k % values.len()].clone()
        }),
        // A random shard: items spread over every shard.
        AttrType::Shard { count, .. } => {
            let text = (k % (*count).max(1) as usize).to_string();
            AttrValue {
                stored: json!({ "N": text }),
                text,
            }
        }
        AttrType::Binary => {
            let bytes: Vec<u8> = (0..6).map(|_| rng.below(256) as u8).collect();
            let text = base64(&bytes);
            AttrValue {
                stored: json!({ "B": text }),
                text,
            }
        }
        AttrType::List => AttrValue {
            text: String::new(),
            stored: json!({ "L": [{ "S": WORDS[k % WORDS.len()] }, { "N": (k + 1).to_string() }] }),
        },
        AttrType::Map => AttrValue {
            text: String::new(),
            stored: json!({ "M": { "note": { "S": WORDS[k % WORDS.len()] }, "count": { "N": (k + 1).to_string() } } }),
        },
    }
}

const CROCKFORD: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

const WORDS: [&str; 16] = [
    "amber", "birch", "cedar", "delta", "ember", "fjord", "grove", "harbor", "iris", "juniper", "kestrel", "lumen",
    "maple", "nova", "onyx", "pine",
];

/// Ids: every even position is fresh; every odd one extends the one before
/// it by a digit, so each id has a twin it is a prefix of (`42` / `420`).
fn nth_id(seed: u64, stream: &str, k: usize, delimiter: &str) -> String {
    if k % 2 == 1 {
        let mut rng = Rng::new(seed, stream, k as u64);
        let mut base = nth_id(seed, stream, k - 1, delimiter);
        let digit = (b'0' + rng.below(10) as u8) as char;
        base.push(if delimiter.contains(digit) { 'z' } else { digit });
        return base;
    }
    let mut rng = Rng::new(seed, stream, k as u64);
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
    let mut id = String::new();
    while id.len() < 6 {
        let c = ALPHABET[rng.below(ALPHABET.len() as u64) as usize] as char;
        if !(delimiter.contains(c) || id.is_empty() && c.is_ascii_digit()) {
            id.push(c);
        }
    }
    id
}

fn nth_string(name: &str, k: usize, rng: &mut Rng, delimiter: &str) -> String {
    let lower = name.to_ascii_lowercase();
    let word = |i: usize| WORDS[i % WORDS.len()];
    let capital = |w: &str| {
        let mut c = w.chars();
        c.next()
            .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
            .unwrap_or_default()
    };
    let r = rng.below(1000) as usize;
    if lower.contains("email") {
        format!("{}.{}@example.com", word(k), k)
    } else if lower.contains("phone") {
        format!("+44 20 7946 0{:03}", r)
    } else if lower.contains("url") {
        format!("https://example.com/{}", word(k + r))
    } else if lower.contains("sku") {
        format!("SKU-{:05}", k * 37 + r)
    } else if lower.contains("country") {
        ["GB", "DE", "US", "FR"][k % 4].to_string()
    } else if lower.contains("postal") || lower.contains("zip") {
        format!("{:05}", r * 97 % 100_000)
    } else if k == 3 && !delimiter.is_empty() {
        // A near-miss: a free-text value that contains the delimiter.
        format!("{}{delimiter}{}", capital(word(k)), capital(word(k + 5)))
    } else if lower.contains("name") || lower.contains("title") || lower.contains("label") || lower.contains("city") {
        format!("{} {}", capital(word(k)), capital(word(k + r)))
    } else {
        format!("{} {}", word(k), word(k + 3 + r))
    }
}

fn random_date(rng: &mut Rng) -> String {
    format!(
        "{}-{:02}-{:02}",
        2025 + rng.below(2),
        1 + rng.below(12),
        1 + rng.below(28)
    )
}

/// Standard base64 with padding.
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Standard base64 (RFC 4648 alphabet `A–Z a–z 0–9 + /`), padding optional,
/// as the AWS CLI and SDKs write binary values in DynamoDB JSON; what is not
/// base64 is an error that says why.
pub fn base64_decode(text: &str) -> Result<Vec<u8>, String> {
    fn sextet(b: u8) -> Option<u32> {
        match b {
            b'A'..=b'Z' => Some(u32::from(b - b'A')),
            b'a'..=b'z' => Some(u32::from(b - b'a') + 26),
            b'0'..=b'9' => Some(u32::from(b - b'0') + 52),
            b'+' => Some(62),
            b'/' => Some(63),
            _ => None,
        }
    }
    let body = text.trim_end_matches('=');
    let padding = text.len() - body.len();
    if padding > 2 || (padding > 0 && !text.len().is_multiple_of(4)) || body.len() % 4 == 1 {
        return Err(format!(
            "invalid base64: `{}` has a wrong length or padding",
            shorten(text)
        ));
    }
    let mut out = Vec::with_capacity(body.len() * 3 / 4);
    for chunk in body.as_bytes().chunks(4) {
        let mut bits = 0u32;
        for (i, &b) in chunk.iter().enumerate() {
            let Some(v) = sextet(b) else {
                return Err(format!(
                    "invalid base64: `{}` is not a base64 character",
                    char::from(b).escape_default()
                ));
            };
            bits |= v << (18 - 6 * i);
        }
        let bytes = [(bits >> 16) as u8, (bits >> 8) as u8, bits as u8];
        out.extend_from_slice(&bytes[..chunk.len() - 1]);
    }
    Ok(out)
}

fn shorten(text: &str) -> String {
    match text.char_indices().nth(24) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

/// SplitMix64, seeded from the seed, a stream name and a position: every
/// value depends only on those, so adding an entity does not change the
/// values of another.
struct Rng(u64);

impl Rng {
    fn new(seed: u64, stream: &str, k: u64) -> Rng {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in stream.bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
        let mut rng = Rng(h ^ seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ k.wrapping_mul(0xd1b5_4a32_d192_ed03));
        rng.next();
        rng
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.next() % n }
    }
}

/// DynamoDB JSON (`{"S": "x"}`) as plain JSON (`"x"`): numbers as numbers,
/// binary as its base64 text.
pub fn plain(value: &Json) -> Json {
    let Json::Object(typed) = value else {
        return value.clone();
    };
    let Some((ty, inner)) = typed.iter().next() else {
        return Json::Null;
    };
    match (ty.as_str(), inner) {
        ("N", Json::String(n)) => serde_json::from_str::<Json>(n)
            .ok()
            .filter(Json::is_number)
            .unwrap_or_else(|| Json::String(n.clone())),
        ("S" | "B", v) => v.clone(),
        ("BOOL", v) => v.clone(),
        ("NULL", _) => Json::Null,
        ("L", Json::Array(items)) => Json::Array(items.iter().map(plain).collect()),
        ("M", Json::Object(fields)) => Json::Object(fields.iter().map(|(k, v)| (k.clone(), plain(v))).collect()),
        ("SS" | "BS", v) => v.clone(),
        ("NS", Json::Array(items)) => Json::Array(
            items
                .iter()
                .map(|n| plain(&json!({ "N": n.as_str().unwrap_or_default() })))
                .collect(),
        ),
        _ => inner.clone(),
    }
}

/// Every item as BatchWriteItem request bodies of at most 25 puts each,
/// table by table: `{"RequestItems": {"T": [{"PutRequest": {"Item": …}}]}}`.
/// `name` gives the table name to write to.
pub fn batch_requests(model: &Model, samples: &Samples, name: impl Fn(TableId) -> String) -> Vec<Json> {
    let mut out = Vec::new();
    for table in &samples.tables {
        if model.tables.get(table.table.index()).is_none() {
            continue;
        }
        for chunk in table.items.chunks(BATCH_SIZE) {
            let puts: Vec<Json> = chunk
                .iter()
                .map(|i| json!({ "PutRequest": { "Item": Json::Object(i.item.clone()) } }))
                .collect();
            let mut tables = Map::new();
            tables.insert(name(table.table), Json::Array(puts));
            out.push(json!({ "RequestItems": Json::Object(tables) }));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::analyze;

    const BILLING: &str = include_str!("../../examples/billing.dyno");

    fn billing() -> (Model, Samples) {
        let analysis = analyze(BILLING);
        let samples = generate(&analysis.schema.model, &Options::default());
        (analysis.schema.model.clone(), samples)
    }

    #[test]
    fn the_same_seed_gives_the_same_items_and_another_seed_others() {
        let model = analyze(BILLING).schema.model.clone();
        let a = generate(&model, &Options { per_entity: 6, seed: 7 });
        let b = generate(&model, &Options { per_entity: 6, seed: 7 });
        let c = generate(&model, &Options { per_entity: 6, seed: 8 });
        let items = |s: &Samples| -> Vec<Map<String, Json>> {
            s.tables
                .iter()
                .flat_map(|t| t.items.iter().map(|i| i.item.clone()))
                .collect()
        };
        assert_eq!(items(&a), items(&b));
        assert_ne!(items(&a), items(&c));
    }

    #[test]
    fn keys_are_filled_from_the_templates_and_values_are_shaped_by_type() {
        let (model, samples) = billing();
        let invoice = model.entity_named("Invoice").unwrap();
        let invoices: Vec<_> = samples.tables[0].items.iter().filter(|i| i.entity == invoice).collect();
        assert!(invoices.len() >= 3);
        for i in &invoices {
            let sk = i.item["sk"]["S"].as_str().unwrap();
            let number = sk.strip_prefix("INVOICE#").unwrap();
            assert_eq!(number.len(), 6, "{sk}: zero-padded to 6");
            assert!(i.item["number"]["N"].as_str().is_some(), "the attribute is a number");
            let due = i.item["dueDate"]["S"].as_str().unwrap();
            assert_eq!(i.item["gsi1sk"]["S"].as_str(), Some(due));
            assert!(due.len() == 10 && due.as_bytes()[4] == b'-', "{due}");
        }
        // Every enum value appears.
        for status in ["open", "paid", "void"] {
            assert!(invoices.iter().any(|i| i.item["status"]["S"] == status), "{status}");
        }
        // Range bounds of the padded number.
        assert!(invoices.iter().any(|i| i.item["sk"]["S"] == "INVOICE#000000"));
        assert!(invoices.iter().any(|i| i.item["sk"]["S"] == "INVOICE#999999"));
    }

    #[test]
    fn partitions_are_shared_by_entities_and_ids_have_prefix_twins() {
        let (model, samples) = billing();
        let mut per_partition: HashMap<String, HashSet<EntityId>> = HashMap::new();
        for i in &samples.tables[0].items {
            per_partition
                .entry(i.item["pk"]["S"].as_str().unwrap().to_string())
                .or_default()
                .insert(i.entity);
        }
        let shared = per_partition.values().filter(|e| e.len() >= 3).count();
        assert!(
            shared >= 2,
            "several partitions hold several entities: {per_partition:?}"
        );
        let ids: Vec<&str> = per_partition
            .keys()
            .map(|k| k.strip_prefix("TENANT#").unwrap())
            .collect();
        assert!(
            ids.iter().any(|a| ids.iter().any(|b| a != b && b.starts_with(a))),
            "some tenant id is a prefix of another: {ids:?}"
        );
        let _ = model;
    }

    #[test]
    fn no_two_items_share_a_primary_key() {
        for example in [
            include_str!("../../examples/billing.dyno"),
            include_str!("../../examples/shop.dyno"),
            include_str!("../../examples/teams.dyno"),
        ] {
            let model = analyze(example).schema.model.clone();
            for seed in 0..5 {
                let samples = generate(&model, &Options { per_entity: 8, seed });
                assert!(samples.notes.is_empty(), "{:?}", samples.notes);
                for t in &samples.tables {
                    let base = model.table(t.table).base().unwrap();
                    let mut seen = HashSet::new();
                    for i in &t.items {
                        let id =
                            primary_key_identity(&i.item, &base.pk.name, base.sk.as_ref().map(|k| k.name.as_str()))
                                .unwrap();
                        assert!(seen.insert(id.clone()), "duplicate {id}");
                    }
                }
            }
        }
    }

    #[test]
    fn values_have_their_shapes() {
        let (model, samples) = billing();
        let audit = model.entity_named("AuditEvent").unwrap();
        for record in samples.records.iter().filter(|r| r.entity == audit) {
            let ulid = &record.value("eventId").unwrap().text;
            assert_eq!(ulid.len(), 26);
            assert!(ulid.bytes().all(|b| CROCKFORD.contains(&b)), "{ulid}");
            let at = &record.value("at").unwrap().text;
            assert!(at.ends_with('Z') && at.len() == 20, "{at}");
        }
        let shop = analyze(include_str!("../../examples/shop.dyno")).schema.model.clone();
        let samples = generate(&shop, &Options::default());
        let customer = shop.entity_named("Customer").unwrap();
        let emails: Vec<_> = samples
            .records
            .iter()
            .filter(|r| r.entity == customer)
            .map(|r| r.value("email").unwrap().text.clone())
            .collect();
        assert!(emails.iter().all(|e| e.contains('@')), "{emails:?}");
    }

    #[test]
    fn numbers_normalise_and_base64_round_trips() {
        assert_eq!(normalize_number("000042"), "42");
        assert_eq!(normalize_number("1.50"), "1.5");
        assert_eq!(normalize_number("0.0"), "0");
        assert_eq!(normalize_number("-007.10"), "-7.1");
        for bytes in [&b""[..], b"a", b"ab", b"abc", b"abcd", &[0, 255, 17, 3, 9]] {
            assert_eq!(base64_decode(&base64(bytes)).unwrap(), bytes);
        }
        assert_eq!(base64(b"Man"), "TWFu");
        assert_eq!(base64(b"Ma"), "TWE=");
    }

    #[test]
    fn batches_hold_at_most_25_puts() {
        let (model, samples) = billing();
        let batches = batch_requests(&model, &samples, |t| model.table(t).name.text.to_string());
        let total: usize = batches
            .iter()
            .map(|b| b["RequestItems"]["Billing"].as_array().unwrap().len())
            .sum();
        assert_eq!(total, samples.item_count());
        assert!(
            batches
                .iter()
                .all(|b| b["RequestItems"]["Billing"].as_array().unwrap().len() <= BATCH_SIZE)
        );
    }
}
