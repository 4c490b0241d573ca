//! Cost estimates: the size of the items an entity writes and the read
//! capacity each resolved pattern consumes, by DynamoDB's published rules
//! (`shared/design/dynamodb-rules.md`, cited as "rule N.M"; `docs/cost.md`
//! explains the model).
//!
//! - Item size (rules 2.1, 2.2): the sum over attributes of the name's UTF-8
//!   bytes plus the value's size. Strings count their UTF-8 bytes; numbers
//!   about one byte per two significant digits plus one. Without a hint, a
//!   value takes its type's default size (`docs/language.md`, "Size and volume
//!   hints"); `string(~1500)` replaces one value's size and `entity E ~2KB`
//!   the whole item's.
//! - Read cost (rules 3.1, 3.5, 3.6, 3.8): a Query sums the sizes of every
//!   item it reads and rounds up once to the next 4 KB; one RCU per 4 KB
//!   strongly consistent, half for eventually consistent, and never less than
//!   one 4 KB unit. An index Query reads index entries, so it is charged on
//!   the projected entry size.
//!
//! Pure functions over the model: nothing here knows about the CLI or LSP.

use super::defaults::Defaults;
use super::model::Zone;
use super::model::{AttrType, Attribute, Entity, EntityId, ItemShape, KeySchema, Model, Part, Pattern, Projection};
use super::resolve::registry::Registry;
use super::resolve::{Read, Resolution};
use crate::syntax::ast::KeyType;

/// 1 KB = 1024 bytes, as DynamoDB counts (rules preamble).
pub const KB: f64 = 1024.0;
/// One read capacity unit covers up to 4 KB (rule 3.1).
pub const READ_UNIT: f64 = 4.0 * KB;
/// One write capacity unit covers up to 1 KB (rule 3.2).
pub const WRITE_UNIT: f64 = KB;
/// A Query reads at most 1 MB per call (rule 1.10).
pub const PAGE: f64 = 1024.0 * KB;

/// A size in bytes and whether a type default went into it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Size {
    pub bytes: f64,
    /// Some variable-length value (string, id, int, decimal, binary, list,
    /// map) had no size hint and took its type's default size.
    pub estimated: bool,
}

impl Size {
    fn exact(bytes: f64) -> Size {
        Size {
            bytes,
            estimated: false,
        }
    }

    const ZERO: Size = Size {
        bytes: 0.0,
        estimated: false,
    };

    fn assumed(bytes: f64) -> Size {
        Size { bytes, estimated: true }
    }

    fn add(self, other: Size) -> Size {
        Size {
            bytes: self.bytes + other.bytes,
            estimated: self.estimated || other.estimated,
        }
    }
}

/// The size of one item an entity writes.
#[derive(Clone, Debug, PartialEq)]
pub struct ItemSize {
    pub size: Size,
    /// The entity's `~2KB` hint gave the size.
    pub hinted: bool,
}

/// The read cost of one resolved pattern.
#[derive(Clone, Debug, PartialEq)]
pub struct ReadCost {
    /// Expected items read (after `limit`).
    pub items: f64,
    /// With a filter: the items it is expected to return out of `items`,
    /// and the share it keeps (`~N%`, else `filter::DEFAULT_KEEPS`).
    pub filtered: Option<Filtered>,
    /// Bytes read: item sizes, or projected entry sizes on an index, summed.
    pub bytes: f64,
    /// `bytes` rounded up once to the next 4 KB (at least 4 KB).
    pub billed_bytes: f64,
    /// Read capacity units (or on-demand read request units).
    pub rcu: f64,
    pub consistent: bool,
    /// Some item size came from type defaults rather than hints.
    pub estimated: bool,
    /// Some `E[]` return had no `~N` hint and counted the default number of
    /// items, given here (and no `limit` capped the total).
    pub default_count: Option<f64>,
    /// Query calls needed at 1 MB per page (BatchGetItem: 16 MB).
    pub pages: u64,
    /// BatchGetItem: each item was rounded up to 4 KB on its own.
    pub per_item: bool,
    /// Scan: every item stored in the table or index is read.
    pub scan: bool,
    /// Requests the read takes: one, or one Query per write shard (each
    /// rounded up to 4 KB on its own).
    pub requests: u32,
}

/// What a filter leaves of the items read: DynamoDB charges for every item
/// the key condition reads, before the filter runs (AWS, *Filter
/// expressions for Query*).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Filtered {
    pub returned: f64,
    pub share: f64,
    /// The share is the default, not a `~N%` hint.
    pub default_share: bool,
}

/// The size of a number value by rule 2.2: one byte per two significant
/// digits, plus one. Sign, decimal point, and leading and trailing zeros do
/// not count; zero still takes one digit. In the written form `1.5E+3` the
/// exponent is not a digit of the value: only the digits before `e`/`E`
/// count.
pub fn number_size(text: &str) -> f64 {
    let mantissa = text.split(['e', 'E']).next().unwrap_or_default();
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let significant = digits.trim_start_matches('0').trim_end_matches('0').len().max(1);
    significant.div_ceil(2) as f64 + 1.0
}

/// The size of a number of `digits` significant digits (rule 2.2).
fn digits_size(digits: u32) -> f64 {
    digits.max(1).div_ceil(2) as f64 + 1.0
}

/// The default size of a value of this type stored as an attribute of its
/// own: `docs/language.md`, "Defaults without hints". Fixed-format types
/// (`bool`, `date`, `datetime`, `uuid`, `ulid`, `enum`, `int(pad N)`) are
/// sized exactly by their format; the others are estimates.
pub fn default_value_size(defaults: &Defaults, ty: &AttrType) -> Size {
    match ty {
        AttrType::String => Size::assumed(defaults.string),
        AttrType::Id => Size::assumed(defaults.id),
        AttrType::Int { pad: None } => Size::assumed(defaults.int),
        // Stored as a number: leading zeros are trimmed, so N digits at most.
        AttrType::Int { pad: Some(n) } => Size::exact(digits_size(*n)),
        AttrType::Decimal => Size::assumed(defaults.decimal),
        AttrType::Bool => Size::exact(1.0),
        AttrType::Date => Size::exact(10.0),
        AttrType::DateTime(Zone::Utc) => Size::exact(24.0),
        AttrType::DateTime(Zone::Local) => Size::exact(23.0),
        AttrType::DateTime(Zone::Offset) => Size::exact(29.0),
        AttrType::Epoch(unit) => Size::exact(digits_size(unit.digits())),
        AttrType::Uuid => Size::exact(36.0),
        AttrType::Ulid => Size::exact(26.0),
        AttrType::Enum(values) => Size::exact(longest(values.iter().map(String::as_str))),
        AttrType::Shard { count, .. } => Size::exact(digits_size((count.saturating_sub(1)).max(1).ilog10() + 1)),
        AttrType::Binary => Size::assumed(defaults.binary),
        AttrType::List => Size::assumed(defaults.list),
        AttrType::Map => Size::assumed(defaults.map),
    }
}

fn longest<'a>(values: impl Iterator<Item = &'a str>) -> f64 {
    values.map(str::len).max().unwrap_or(0) as f64
}

/// An attribute's value size: its hint, else its type's default.
pub fn value_size(defaults: &Defaults, attribute: &Attribute) -> Size {
    match attribute.size_hint {
        Some(bytes) => Size::exact(bytes),
        None => default_value_size(defaults, &attribute.ty),
    }
}

/// The size of an attribute's value as text inside a string key value
/// (`INVOICE#{number}`): like [`value_size`], except that `int(pad N)` is
/// its N digits and `bool` its word (`false`, the longer).
fn hole_size(defaults: &Defaults, attribute: &Attribute) -> Size {
    if let Some(bytes) = attribute.size_hint {
        return Size::exact(bytes);
    }
    match &attribute.ty {
        AttrType::Int { pad: Some(n) } => Size::exact(f64::from(*n)),
        AttrType::Bool => Size::exact(5.0),
        ty => default_value_size(defaults, ty),
    }
}

/// The size of a key value built from a template: literal bytes plus each
/// hole's size. On a number key a lone hole is a number and a literal is
/// sized as one.
fn key_value_size(defaults: &Defaults, entity: &Entity, key: &super::model::KeyValue, key_type: KeyType) -> Size {
    let attribute = |attr: Option<usize>| attr.and_then(|i| entity.attributes.get(i));
    if key_type == KeyType::Number {
        match key.template.parts.as_slice() {
            [Part::Hole { attr, .. }] => {
                return attribute(*attr).map_or(Size::assumed(defaults.int), |a| value_size(defaults, a));
            }
            [Part::Literal { text, .. }] => return Size::exact(number_size(text)),
            _ => {}
        }
    }
    key.template.parts.iter().fold(Size::ZERO, |size, part| {
        size.add(match part {
            Part::Literal { text, .. } => Size::exact(text.len() as f64),
            Part::Hole { attr, .. } => {
                attribute(*attr).map_or(Size::assumed(defaults.string), |a| hole_size(defaults, a))
            }
        })
    })
}

/// Every attribute one item stores, by name, with the name's bytes and the
/// value's size (rule 2.1). Key attributes come from the item's templates; a
/// key taken from a plain attribute (`index byEmail (email)`) is that
/// attribute, counted once.
fn item_attributes(model: &Model, entity: &Entity, item: &ItemShape) -> Vec<(String, Size)> {
    let key_type = |name: &str| {
        entity
            .table
            .map(|t| model.table(t))
            .and_then(|t| t.key_attributes().find(|k| k.name == name))
            .map_or(KeyType::String, |k| k.ty)
    };
    let mut out: Vec<(String, Size)> = Vec::new();
    for key in item.keys.iter().filter(|k| !k.implicit) {
        let size =
            Size::exact(key.attr.len() as f64).add(key_value_size(&model.defaults, entity, key, key_type(&key.attr)));
        out.push((key.attr.to_string(), size));
    }
    for attribute in &entity.attributes {
        // Optional attributes count as present.
        if out.iter().any(|(name, _)| *name == attribute.name.text) {
            continue;
        }
        out.push((
            attribute.name.text.to_string(),
            Size::exact(attribute.name.text.len() as f64).add(value_size(&model.defaults, attribute)),
        ));
    }
    out
}

/// The size of the `item`-th item shape of an entity (the first is the
/// entity's typical item). An entity hint (`~2KB`) is the whole item.
pub fn item_size(model: &Model, entity: EntityId, item: usize) -> ItemSize {
    let entity = model.entity(entity);
    if let Some(bytes) = entity.size_hint {
        return ItemSize {
            size: Size::exact(bytes),
            hinted: true,
        };
    }
    let size = match entity.items.get(item) {
        Some(shape) => item_attributes(model, entity, shape)
            .into_iter()
            .fold(Size::ZERO, |s, (_, a)| s.add(a)),
        None => entity.attributes.iter().fold(Size::ZERO, |s, a| {
            s.add(Size::exact(a.name.text.len() as f64))
                .add(value_size(&model.defaults, a))
        }),
    };
    ItemSize { size, hinted: false }
}

/// The size of each item shape of an entity, in declaration order.
pub fn entity_sizes(model: &Model, entity: EntityId) -> Vec<ItemSize> {
    let shapes = model.entity(entity).items.len().max(1);
    (0..shapes).map(|item| item_size(model, entity, item)).collect()
}

/// What one item costs to read through an access path: the whole item on
/// the table, the projected entry on an index (rules 3.8, 4.9).
///
/// The 100 bytes of rule 2.7 are not added: they are index *storage*
/// overhead. Reads are charged on the projected attributes' sizes (rule 3.8),
/// and worked example 8.1 (8 × 2,000 B on a GSI = 16,000 B → 16 KB) adds
/// nothing per entry. An LSI Query that asks for unprojected attributes would
/// also fetch them from the table (rule 4.10); a pattern on an index returns
/// only the projected attributes, so that is not counted.
pub fn entry_size(model: &Model, entity: EntityId, item: usize, access: &KeySchema, table_base: &KeySchema) -> Size {
    let whole = item_size(model, entity, item);
    if !access.is_index() || access.projection == Projection::All {
        return whole.size;
    }
    let e = model.entity(entity);
    let Some(shape) = e.items.get(item) else {
        return whole.size;
    };
    let mut keys: Vec<&str> = Vec::new();
    for schema in [table_base, access] {
        for key in schema.key_attributes() {
            if !keys.contains(&key.name.as_str()) {
                keys.push(&key.name);
            }
        }
    }
    let included: &[String] = match &access.projection {
        Projection::Include(names) => names,
        _ => &[],
    };
    let projected = item_attributes(model, e, shape)
        .into_iter()
        .filter(|(name, _)| keys.contains(&name.as_str()) || included.contains(name))
        .fold(Size::ZERO, |s, (_, a)| s.add(a));
    // A hinted item bounds its projection.
    if whole.hinted && projected.bytes > whole.size.bytes {
        whole.size
    } else {
        projected
    }
}

/// The read cost of a pattern's Query.
///
/// Expected items: each return's `~N`, else 1 for `E` and 10 for `E[]`; the
/// total is capped by the pattern's `limit`. Each entity's items are sized by
/// the item shapes the Query actually matches (a many-to-many edge written
/// twice is read once). Then rules 3.5 and 3.6: sum, round up once to 4 KB,
/// at least one unit; eventually consistent costs half (rule 3.1).
impl ReadCost {
    /// `0.5 RCU`, `2 RCU`: the units as hints and lenses show them.
    pub fn rcu_label(&self) -> String {
        if self.rcu.fract() == 0.0 {
            format!("{} RCU", self.rcu as i64)
        } else {
            format!("{} RCU", self.rcu)
        }
    }

    /// One line: `~200 items × 2.0 KB = 400 KB → 50 RCU (eventually consistent)`.
    pub fn describe(&self) -> String {
        let whole = |n: f64| {
            if n.fract() == 0.0 {
                format!("{}", n as i64)
            } else {
                format!("{}", (n * 100.0).round() / 100.0)
            }
        };
        let noun = if self.items == 1.0 { "item" } else { "items" };
        let each = if self.items > 0.0 { self.bytes / self.items } else { 0.0 };
        let mut out = format!(
            "~{} {noun} × {} = {}",
            whole(self.items),
            format_bytes(each),
            format_bytes(self.bytes)
        );
        if self.billed_bytes != self.bytes {
            out.push_str(&format!(", read as {} KB", whole(self.billed_bytes / KB)));
        }
        out.push_str(&format!(" → {} RCU", whole(self.rcu)));
        let mut notes = vec![
            if self.consistent {
                "strongly consistent"
            } else {
                "eventually consistent"
            }
            .to_string(),
        ];
        if self.per_item {
            notes.push("BatchGetItem rounds each item up to 4 KB".into());
        }
        if self.requests > 1 {
            notes.push(format!(
                "{} Queries, one per shard, each rounded up to 4 KB on its own",
                self.requests
            ));
        }
        if let Some(filtered) = &self.filtered {
            let default = if filtered.default_share { ", the default" } else { "" };
            notes.push(format!(
                "the filter keeps ~{}%{default}: ~{} of them returned",
                whole(filtered.share * 100.0),
                whole(filtered.returned)
            ));
        }
        if self.pages > u64::from(self.requests) {
            let page = if self.per_item {
                "responses of 16 MB"
            } else {
                "pages of 1 MB"
            };
            notes.push(format!("{} {page}", self.pages));
        }
        if self.scan {
            notes.push("a Scan reads every item stored there: `~N` on the returns sizes it".into());
        }
        if self.estimated {
            notes.push("sizes estimated from type defaults".into());
        }
        if let Some(items) = self.default_count {
            notes.push(format!("{} items per `E[]` without `~N`", whole(items)));
        }
        out.push_str(&format!(" ({})", notes.join("; ")));
        out
    }
}

impl ReadCost {
    /// What one of `requests` requests reads when the read is split over
    /// that many (one Query per write shard, each reading its share of the
    /// items): each request rounds up to 4 KB on its own, and a `limit`
    /// caps each request on its own (each shard's first `limit` items, as
    /// the application merges them). `self` is the cost of the whole read
    /// without its limit ([`unlimited_read_cost`]).
    pub fn per_request(&self, requests: u32, limit: Option<u64>) -> ReadCost {
        let n = f64::from(requests.max(1));
        let (mut items, mut bytes) = (self.items / n, self.bytes / n);
        let mut default_count = self.default_count;
        if let Some(limit) = limit.map(|l| l as f64)
            && items > limit
        {
            bytes *= limit / items;
            items = limit;
            default_count = None;
        }
        query_cost(items, bytes, self.consistent, self.estimated, default_count)
    }

    /// `requests` reads like this one, summed: each rounded up on its own.
    pub fn times(&self, requests: u32) -> ReadCost {
        let n = f64::from(requests);
        ReadCost {
            items: self.items * n,
            bytes: self.bytes * n,
            billed_bytes: self.billed_bytes * n,
            rcu: self.rcu * n,
            pages: self.pages * u64::from(requests),
            requests: self.requests * requests,
            ..*self
        }
    }
}

/// [`read_cost`] as if the pattern had no `limit`: what a read split over
/// several requests shares out before each applies the limit.
pub fn unlimited_read_cost(model: &Model, registry: &Registry, pattern: &Pattern, resolution: &Resolution) -> ReadCost {
    if pattern.limit.is_none() && resolution.limit.is_none() {
        return read_cost(model, registry, pattern, resolution);
    }
    let pattern = Pattern {
        limit: None,
        ..pattern.clone()
    };
    let resolution = Resolution {
        limit: None,
        ..resolution.clone()
    };
    read_cost(model, registry, &pattern, &resolution)
}

pub fn read_cost(model: &Model, registry: &Registry, pattern: &Pattern, resolution: &Resolution) -> ReadCost {
    let table = model.table(resolution.table);
    let access = table.access(resolution.access);
    let base = table.base().unwrap_or(access);
    let matched = super::resolve::matching_items(model, registry, resolution);
    let mut items = 0.0;
    let mut bytes = 0.0;
    let mut estimated = false;
    let mut default_count = None;
    for ret in &pattern.returns {
        let Some(entity) = ret.entity else { continue };
        let count = match (ret.count, ret.many) {
            (Some(n), _) => n,
            (None, false) => 1.0,
            (None, true) => {
                default_count = Some(model.defaults.items);
                model.defaults.items
            }
        };
        let mut shapes: Vec<usize> = matched.iter().filter(|i| i.entity == entity).map(|i| i.item).collect();
        if shapes.is_empty() {
            shapes.push(0);
        }
        let sizes: Vec<Size> = shapes
            .iter()
            .map(|&item| entry_size(model, entity, item, access, base))
            .collect();
        let average = sizes.iter().map(|s| s.bytes).sum::<f64>() / sizes.len() as f64;
        estimated |= sizes.iter().any(|s| s.estimated);
        items += count;
        bytes += count * average;
    }
    // `~N` counts what the pattern returns; with a filter keeping a share
    // of what it reads, the Query reads that many over the share (items of
    // the entities it removes counted at the returned items' size).
    let share = pattern.filter.as_deref().map(super::filter::share);
    if let Some(share) = share {
        items /= share;
        bytes /= share;
    }
    // A Scan's `limit` is its page size: the scan still reads every item.
    let page_limit = match resolution.read {
        Read::Scan { .. } => None,
        _ => pattern.limit.or(resolution.limit),
    };
    let requests = resolution.shards.as_ref().map_or(1, |s| s.requests());
    if requests > 1 {
        let whole = query_cost(items, bytes, resolution.consistent, estimated, default_count);
        let cost = whole.per_request(requests, page_limit).times(requests);
        return ReadCost {
            filtered: share.map(|share| Filtered {
                returned: cost.items * share,
                share,
                default_share: pattern.filter.as_ref().is_some_and(|f| f.keeps.is_none()),
            }),
            ..cost
        };
    }
    if let Some(limit) = page_limit.map(|l| l as f64)
        && items > limit
    {
        // `Limit` caps the items evaluated (rule 1.9): the first `limit`,
        // taken at the average size.
        bytes *= limit / items;
        items = limit;
        default_count = None;
    }
    let mut cost = query_cost(items, bytes, resolution.consistent, estimated, default_count);
    cost.filtered = share.map(|share| Filtered {
        returned: items * share,
        share,
        default_share: pattern.filter.as_ref().is_some_and(|f| f.keeps.is_none()),
    });
    match resolution.read {
        Read::BatchGetItem => batch_get_cost(cost),
        Read::Scan { .. } => ReadCost { scan: true, ..cost },
        Read::Query | Read::GetItem => cost,
    }
}

/// BatchGetItem reads each item as a GetItem: "DynamoDB first rounds up the
/// size of each item to the next 4 KB boundary, and then calculates the
/// total size" (AWS, *DynamoDB read consumption*), up to 16 MB a response.
fn batch_get_cost(cost: ReadCost) -> ReadCost {
    let each = if cost.items > 0.0 { cost.bytes / cost.items } else { 0.0 };
    let units_each = (each / READ_UNIT).ceil().max(1.0);
    let billed = cost.items.ceil() * units_each * READ_UNIT;
    let units = billed / READ_UNIT;
    ReadCost {
        billed_bytes: billed,
        rcu: if cost.consistent { units } else { units / 2.0 },
        pages: (cost.bytes / (16.0 * PAGE)).ceil().max(1.0) as u64,
        per_item: true,
        ..cost
    }
}

/// Strongly consistent read units for one request reading `bytes`: rounded
/// up to the next 4 KB, at least one unit (rules 3.1, 3.4, 3.6). A GetItem
/// passes one item's size; a Query the sum of every item it reads (rule 3.5).
pub fn read_units(bytes: f64) -> f64 {
    (bytes / READ_UNIT).ceil().max(1.0)
}

/// Write units for writing one item of `bytes`: rounded up to the next 1 KB,
/// at least one unit (rules 3.2, 3.7); a transactional write costs twice.
pub fn write_units(bytes: f64) -> f64 {
    (bytes / WRITE_UNIT).ceil().max(1.0)
}

/// Rules 3.1, 3.5, 3.6: `bytes` read by one Query, summed and rounded up
/// once to 4 KB, with a one-unit minimum; half for eventually consistent.
pub fn query_cost(items: f64, bytes: f64, consistent: bool, estimated: bool, default_count: Option<f64>) -> ReadCost {
    let units = read_units(bytes);
    let rcu = if consistent { units } else { units / 2.0 };
    let pages = (bytes / PAGE).ceil().max(1.0) as u64;
    ReadCost {
        items,
        filtered: None,
        bytes,
        billed_bytes: units * READ_UNIT,
        rcu,
        consistent,
        estimated,
        default_count,
        pages,
        per_item: false,
        scan: false,
        requests: 1,
    }
}

/// The read cost of every pattern, in model order; `None` where the pattern
/// did not resolve.
pub fn pattern_costs(analysis: &super::Analysis) -> Vec<Option<ReadCost>> {
    analysis
        .schema
        .resolutions
        .iter()
        .zip(&analysis.schema.model.patterns)
        .map(|(r, p)| {
            r.as_ref()
                .map(|r| read_cost(&analysis.schema.model, &analysis.schema.registry, p, r))
        })
        .collect()
}

/// A byte count for people: `160 B`, `2.0 KB`, `400 KB`, `1.5 MB`.
pub fn format_bytes(bytes: f64) -> String {
    if bytes < KB {
        format!("{} B", bytes.round())
    } else if bytes < 100.0 * KB {
        format!("{:.1} KB", bytes / KB)
    } else if bytes < 1024.0 * KB {
        format!("{:.0} KB", bytes / KB)
    } else {
        format!("{:.1} MB", bytes / (1024.0 * KB))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::analyze;

    fn cost_of(text: &str, pattern: &str) -> ReadCost {
        let analysis = analyze(text);
        let errors: Vec<_> = analysis
            .diagnostics()
            .iter()
            .filter(|d| d.severity == crate::diagnostic::Severity::Error)
            .map(|d| d.message.clone())
            .collect();
        assert!(errors.is_empty(), "{errors:?}");
        let i = analysis
            .schema
            .model
            .patterns
            .iter()
            .position(|p| p.name.text == pattern)
            .expect("pattern");
        pattern_costs(&analysis)[i].clone().expect("resolved")
    }

    fn size_of(text: &str, entity: &str) -> ItemSize {
        let analysis = analyze(text);
        item_size(
            &analysis.schema.model,
            analysis.schema.model.entity_named(entity).expect("entity"),
            0,
        )
    }

    const USERS: &str = r#"
table Billing {
  key pk, sk
}

entity User ~2KB {
  tenantId: id
  userId: id
  bio: string(~1500)

  pk = "TENANT#{tenantId}"
  sk = "USER#{userId}"
}

pattern listUsers(tenantId) -> User[] ~200
pattern listUsersConsistent(tenantId) -> User[] ~200 consistent
pattern firstUsers(tenantId) -> User[] ~200 limit 25
pattern someUsers(tenantId) -> User[]
pattern oneUser(tenantId, userId) -> User
"#;

    #[test]
    fn two_hundred_items_of_two_kb_in_one_query() {
        // Issue 3, section 5; rule 3.5 (example 8.6).
        let strong = cost_of(USERS, "listUsersConsistent");
        assert_eq!(strong.items, 200.0);
        assert_eq!(strong.bytes, 400.0 * KB);
        assert_eq!(strong.rcu, 100.0);
        assert!(strong.consistent);
        assert!(!strong.estimated);
        let eventual = cost_of(USERS, "listUsers");
        assert_eq!(eventual.bytes, 400.0 * KB);
        assert_eq!(eventual.rcu, 50.0);
        assert!(!eventual.consistent);
    }

    #[test]
    fn counts_default_to_one_and_ten_and_limit_caps_them() {
        let one = cost_of(USERS, "oneUser");
        assert_eq!((one.items, one.bytes, one.rcu), (1.0, 2.0 * KB, 0.5));
        let many = cost_of(USERS, "someUsers");
        assert_eq!((many.items, many.bytes, many.rcu), (10.0, 20.0 * KB, 2.5));
        assert_eq!(many.default_count, Some(10.0));
        let limited = cost_of(USERS, "firstUsers");
        assert_eq!((limited.items, limited.bytes, limited.rcu), (25.0, 50.0 * KB, 6.5));
        assert_eq!(limited.default_count, None);
    }

    #[test]
    fn worked_example_8_1_gsi_query_of_eight_2000_byte_items() {
        let schema = r#"
table App {
  key pk, sk
  index gsi1 (gsi1pk, gsi1sk)
}
entity Order ~2000B {
  orderId: ulid
  status: enum(open, done)
  placedAt: date
  pk = "ORDER#{orderId}"
  sk = "HEADER"
  gsi1pk = "STATUS#{status}"
  gsi1sk = "{placedAt}"
}
pattern byStatus(status) -> Order[] ~8 by placedAt
"#;
        let cost = cost_of(schema, "byStatus");
        assert_eq!(cost.bytes, 16_000.0);
        assert_eq!(cost.billed_bytes, 16.0 * KB);
        assert_eq!(cost.rcu, 2.0);
        assert!(!cost.consistent);
    }

    #[test]
    fn worked_examples_8_2_to_8_4() {
        // 8.2: 10 items totalling 40.8 KB are read as 44 KB.
        let c = query_cost(10.0, 40.8 * KB, true, false, None);
        assert_eq!(c.billed_bytes, 44.0 * KB);
        assert_eq!(
            (c.rcu, query_cost(10.0, 40.8 * KB, false, false, None).rcu),
            (11.0, 5.5)
        );
        // 8.3: 1,500 items of 64 B are read as 96 KB.
        let c = query_cost(1500.0, 1500.0 * 64.0, true, false, None);
        assert_eq!(c.billed_bytes, 96.0 * KB);
        assert_eq!(
            (c.rcu, query_cost(1500.0, 1500.0 * 64.0, false, false, None).rcu),
            (24.0, 12.0)
        );
        // 8.4: an eventually consistent read of 80 KB costs 10 RCU.
        assert_eq!(query_cost(20.0, 80.0 * KB, false, false, None).rcu, 10.0);
    }

    #[test]
    fn worked_example_8_2_from_a_schema() {
        // 10 items of 4,177.92 B (40.8 KB in all), strongly consistent.
        let schema = r#"
table App { key pk, sk }
entity Doc ~4177.92B {
  docId: id
  pk = "DOC#{docId}"
  sk = "DOC"
}
pattern pages(docId) -> Doc[] ~10 consistent
"#;
        let cost = cost_of(schema, "pages");
        assert!((cost.bytes - 40.8 * KB).abs() < 1e-6);
        assert_eq!((cost.billed_bytes, cost.rcu), (44.0 * KB, 11.0));
    }

    #[test]
    fn a_query_costs_at_least_one_unit() {
        // Rule 3.6: an empty Query costs the minimum.
        assert_eq!(query_cost(0.0, 0.0, true, false, None).rcu, 1.0);
        assert_eq!(query_cost(0.0, 0.0, false, false, None).rcu, 0.5);
        assert_eq!(query_cost(1.0, 100.0, false, false, None).rcu, 0.5);
        // Rule 1.10: 1 MB per page.
        assert_eq!(query_cost(1.0, 2.5 * PAGE, false, false, None).pages, 3);
    }

    #[test]
    fn number_sizes() {
        // Rule 2.2: one byte per two significant digits, plus one.
        assert_eq!(number_size("7"), 2.0);
        assert_eq!(number_size("42"), 2.0);
        assert_eq!(number_size("123"), 3.0);
        assert_eq!(number_size("123456"), 4.0);
        assert_eq!(number_size("-12.50"), 3.0); // 1, 2, 5: the trailing zero is trimmed
        assert_eq!(number_size("000120"), 2.0); // 1, 2
        assert_eq!(number_size("0"), 2.0);
        assert_eq!(number_size(&"9".repeat(38)), 20.0);
        // The exponent is not a digit of the value: 1.5E+3 is 1500, two digits.
        assert_eq!(number_size("1.5E+3"), 2.0);
        assert_eq!(number_size("1500"), 2.0);
        assert_eq!(number_size("-7e-12"), 2.0);
        // int(pad 6) stored as a number: 6 digits at most = 4 bytes.
        assert_eq!(
            default_value_size(&Defaults::default(), &AttrType::Int { pad: Some(6) }),
            Size::exact(4.0)
        );
        assert_eq!(
            default_value_size(&Defaults::default(), &AttrType::Int { pad: Some(5) }),
            Size::exact(4.0)
        );
    }

    #[test]
    fn item_size_sums_names_values_and_keys() {
        let schema = r#"
table App { key pk, sk }
entity Invoice {
  tenantId: id
  number: int(pad 6)
  status: enum(open, paid, void)
  dueDate: date
  pk = "TENANT#{tenantId}"
  sk = "INVOICE#{number}"
}
"#;
        let size = size_of(schema, "Invoice");
        // pk: 2 + 7 + 16; sk: 2 + 8 + 6 (the padded digits as text)
        // tenantId 8 + 16; number 6 + 4; status 6 + 4; dueDate 7 + 10
        let expected = (2 + 7 + 16) + (2 + 8 + 6) + (8 + 16) + (6 + 4) + (6 + 4) + (7 + 10);
        assert_eq!(size.size.bytes, f64::from(expected));
        assert!(size.size.estimated, "the id took its default size");
        assert!(!size.hinted);
    }

    #[test]
    fn names_and_strings_count_utf8_bytes() {
        let schema = "table App { key pk }\nentity Café { ville: string(~10)  pk = \"CAFÉ\" }\n";
        let size = size_of(schema, "Café");
        // pk = "CAFÉ" is 5 bytes; "ville" 5 + 10.
        assert_eq!(size.size.bytes, f64::from(2 + 5 + 5 + 10));
        assert!(!size.size.estimated);
    }

    #[test]
    fn size_hints_override_defaults() {
        let plain = r#"
table App { key pk, sk }
entity Profile {
  userId: id
  bio: string
  pk = "USER#{userId}"
  sk = "PROFILE"
}
"#;
        let hinted = plain.replace("bio: string", "bio: string(~1500)");
        let plain_size = size_of(plain, "Profile");
        let hinted_size = size_of(&hinted, "Profile");
        assert_eq!(hinted_size.size.bytes - plain_size.size.bytes, 1500.0 - 64.0);
        assert!(plain_size.size.estimated);
        // userId is still an id of default size.
        assert!(hinted_size.size.estimated);
        let whole = plain.replace("entity Profile {", "entity Profile ~2KB {");
        let whole_size = size_of(&whole, "Profile");
        assert_eq!(whole_size.size, Size::exact(2048.0));
        assert!(whole_size.hinted);
    }

    #[test]
    fn a_key_taken_from_a_plain_attribute_counts_once() {
        let schema = r#"
table Sessions { key sessionId }
entity Session {
  sessionId: uuid
  expiresAt: datetime
}
"#;
        let size = size_of(schema, "Session");
        assert_eq!(size.size.bytes, f64::from(9 + 36 + 9 + 24));
        assert!(!size.size.estimated);
    }

    #[test]
    fn number_keys_are_sized_as_numbers() {
        let schema = r#"
table Docs { key pk, rev: number }
entity Revision {
  docId: id
  version: int(pad 6)
  pk = "DOC#{docId}"
  rev = "{version}"
}
"#;
        let size = size_of(schema, "Revision");
        // pk 2 + 4 + 16; rev 3 + 4; docId 5 + 16; version 7 + 4
        assert_eq!(size.size.bytes, f64::from((2 + 4 + 16) + (3 + 4) + (5 + 16) + (7 + 4)));
    }

    const CATALOG: &str = r#"
table Catalog {
  key pk, sk
  index gsiAll (gsi1pk, gsi1sk) all
  index gsiKeys (gsi2pk, gsi2sk) keys_only
  index gsiSome (gsi3pk, gsi3sk) include(title)
}
entity Product {
  productId: id
  category: id
  title: string(~100)
  description: string(~3000)
  pk = "PRODUCT#{productId}"
  sk = "PRODUCT"
  gsi1pk = "CATEGORY#{category}"
  gsi1sk = "{productId}"
  gsi2pk = "CAT#{category}"
  gsi2sk = "{productId}"
  gsi3pk = "C#{category}"
  gsi3sk = "{productId}"
}
pattern viaAll(category) -> Product[] ~100
pattern viaKeys(category) -> Product[] ~100 = query Catalog.gsiKeys where gsi2pk = "CAT#{category}"
pattern viaInclude(category) -> Product[] ~100 = query Catalog.gsiSome where gsi3pk = "C#{category}"
"#;

    #[test]
    fn keys_only_projection_reads_less_than_all() {
        let analysis = analyze(CATALOG);
        let all = cost_of(CATALOG, "viaAll");
        let keys = cost_of(CATALOG, "viaKeys");
        let include = cost_of(CATALOG, "viaInclude");
        let item = item_size(&analysis.schema.model, EntityId::new(0), 0).size.bytes;
        assert_eq!(all.bytes, 100.0 * item);
        // KEYS_ONLY: pk, sk, gsi2pk, gsi2sk.
        let keys_entry = (2 + 8 + 16) + (2 + 7) + (6 + 4 + 16) + (6 + 16);
        assert_eq!(keys.bytes, 100.0 * f64::from(keys_entry));
        // INCLUDE(title): pk, sk, gsi3pk, gsi3sk and title.
        let include_entry = (2 + 8 + 16) + (2 + 7) + (6 + 2 + 16) + (6 + 16) + (5 + 100);
        assert_eq!(include.bytes, 100.0 * f64::from(include_entry));
        assert!(keys.bytes < include.bytes && include.bytes < all.bytes);
        assert!(keys.rcu < all.rcu);
    }

    #[test]
    fn an_item_collection_sums_its_entities_and_sizes_the_matched_shape() {
        let schema = r#"
table Teams { key pk, sk }
entity Team ~1KB {
  teamId: id
  pk = "TEAM#{teamId}"
  sk = "META"
}
entity Membership {
  userId: id
  teamId: id
  item { pk = "USER#{userId}"  sk = "TEAM#{teamId}" }
  item { pk = "TEAM#{teamId}"  sk = "MEMBER#{userId}" }
}
pattern team(teamId) -> Team, Membership[] ~50
"#;
        let analysis = analyze(schema);
        let membership = analysis.schema.model.entity_named("Membership").unwrap();
        let sizes = entity_sizes(&analysis.schema.model, membership);
        assert_eq!(sizes.len(), 2);
        assert_eq!(
            sizes[1].size.bytes - sizes[0].size.bytes,
            2.0,
            "MEMBER# is two bytes longer than TEAM#"
        );
        let cost = cost_of(schema, "team");
        assert_eq!(cost.items, 51.0);
        assert_eq!(cost.bytes, 1024.0 + 50.0 * sizes[1].size.bytes);
    }
}
