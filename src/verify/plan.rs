//! What `dyno verify` runs for one pattern and what it expects back, worked
//! out from the samples alone (no endpoint): the Query with its parameters
//! taken from a sample item, the items its key condition selects (evaluated
//! here, in DynamoDB's order: UTF-8 bytes for strings, numeric for numbers),
//! and the records the pattern means (its known values applied to the
//! attributes). Then the checks of what an endpoint returned.

use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value as Json};

use super::filtered::{self, ConcreteFilter};
use super::judge::{declared, matching};
use crate::check::model::{
    AccessId, AccessKind, AttrType, EntityId, KeySchema, Model, Pattern, PatternId, TableId, Zone,
};
use crate::check::resolve::request::Shape;
use crate::check::resolve::{Read, Resolution, Shards, SortOp, literal_text};
use crate::check::sample::{Record, SampleItem, Samples, base64_decode};
use crate::check::shard;
use crate::check::value::{Value, ValuePart};
use crate::syntax::ast::{CompareOp, KeyType, KnownKind};

/// One Query with every parameter filled in.
#[derive(Clone, Debug)]
pub struct ConcreteQuery {
    pub table: TableId,
    pub access: AccessId,
    pub partition: String,
    /// A multi-attribute key: the further partition attributes' values and
    /// the leading sort attributes' (see `Resolution`); empty otherwise.
    pub partition_rest: Vec<String>,
    pub sort_equal: Vec<String>,
    /// Its values are literals; on the sort attribute after `sort_equal`.
    pub sort: Option<SortOp>,
    pub forward: bool,
    pub consistent: bool,
    pub limit: Option<u64>,
    /// A Query, or the GetItem, BatchGetItem or Scan the pattern asks for.
    pub read: Read,
    /// The pattern's filter with real values.
    pub filter: Option<ConcreteFilter>,
}

impl ConcreteQuery {
    /// The key schema the Query reads: the table's or the index's.
    pub fn key_schema<'m>(&self, model: &'m Model) -> &'m KeySchema {
        model.access(self.table, self.access)
    }

    /// The low-level request, as `dyno explain` prints it, with real values
    /// and `table_name` for the table.
    pub fn request(&self, model: &Model, table_name: &str) -> Json {
        Shape {
            table_name,
            access: self.key_schema(model),
            partition: std::iter::once(&self.partition)
                .chain(&self.partition_rest)
                .map(|t| Value::literal(t))
                .collect(),
            sort_equal: self.sort_equal.iter().map(|t| Value::literal(t)).collect(),
            sort: self.sort.as_ref(),
            forward: self.forward,
            consistent: self.consistent,
            limit: self.limit,
            filter: self.filter.as_ref(),
        }
        .request(self.read)
    }

    /// `pk = "TENANT#k3x9qz" and begins_with(sk, "USER#")`, for reports;
    /// `scan of index gsi1` for a Scan.
    pub fn condition(&self, model: &Model) -> String {
        let access = self.key_schema(model);
        if let Read::Scan { .. } = self.read {
            return match access.kind {
                AccessKind::Base => format!("scan of table {}", model.table(self.table).name.text),
                _ => format!("scan of index {}", access.name.text),
            };
        }
        let equal = std::iter::once(&self.partition)
            .chain(&self.partition_rest)
            .zip(access.partition_keys())
            .chain(self.sort_equal.iter().zip(access.sort_keys()));
        let mut out = equal
            .map(|(value, key)| format!("{} = {value:?}", key.name))
            .collect::<Vec<_>>()
            .join(" and ");
        if let (Some(sort), Some(sk)) = (&self.sort, access.sort_keys().nth(self.sort_equal.len())) {
            let v = |value: &Value| format!("{:?}", value.to_string());
            let condition = match sort {
                SortOp::Eq(x) => format!("{} = {}", sk.name, v(x)),
                SortOp::Lt(x) => format!("{} < {}", sk.name, v(x)),
                SortOp::Le(x) => format!("{} <= {}", sk.name, v(x)),
                SortOp::Gt(x) => format!("{} > {}", sk.name, v(x)),
                SortOp::Ge(x) => format!("{} >= {}", sk.name, v(x)),
                SortOp::Between(lo, hi) => format!("{} between {} and {}", sk.name, v(lo), v(hi)),
                SortOp::BeginsWith(x) => format!("begins_with({}, {})", sk.name, v(x)),
            };
            out.push_str(" and ");
            out.push_str(&condition);
        }
        out
    }
}

/// What verify runs for one pattern, and what it expects.
#[derive(Clone, Debug)]
pub struct Plan {
    pub pattern: PatternId,
    /// False for a pinned query the checker rejects, run as written.
    pub checker_ok: bool,
    pub pinned: bool,
    /// Parameter name → the value taken from the samples.
    pub params: Vec<(String, String)>,
    pub query: ConcreteQuery,
    /// A strongly consistent read of a global index: DynamoDB rejects it, so
    /// verify reports it and runs the Query eventually consistent instead.
    pub consistent_on_gsi: bool,
    /// A read over every write shard: the Query of each shard, `query`
    /// first, whose results are merged by the sort key. Empty otherwise.
    pub shard_queries: Vec<ConcreteQuery>,
    /// Items (into the table's samples) the key condition selects (of any
    /// shard's Query).
    pub expected: Vec<usize>,
    /// Items (into the table's samples) the pattern means under `params`:
    /// of a declared entity, in the index, with every known value holding.
    pub matching: Vec<usize>,
}

impl Plan {
    /// Every request the read sends: the Query, or one per write shard.
    pub fn requests(&self) -> &[ConcreteQuery] {
        if self.shard_queries.is_empty() {
            std::slice::from_ref(&self.query)
        } else {
            &self.shard_queries
        }
    }

    /// The read's key condition (of any shard's Query) selects the item
    /// (DynamoDB JSON): DynamoDB reads it, before any filter.
    pub fn reads_item(&self, model: &Model, item: &Map<String, Json>) -> bool {
        let access = self.query.key_schema(model);
        self.requests().iter().any(|q| key_condition_holds(item, access, q))
    }

    /// The read returns the item: its key condition selects it and the
    /// pattern's filter (of `resolution`, the one planned) keeps it. What
    /// [`Plan::expected`] holds of the samples.
    pub fn returns_item(&self, model: &Model, resolution: &Resolution, item: &Map<String, Json>) -> bool {
        self.reads_item(model, item)
            && resolution.filter.as_ref().is_none_or(|f| {
                let params: HashMap<&str, &str> = self.params.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
                filtered::holds(model, &resolution.returns, f, &params, item)
            })
    }
}

/// Plans the pattern's Query: the parameters, taken from one sample item,
/// under which the pattern means the most items (of the most declared
/// entities). The candidates are items of the entities the pattern declares
/// — not the ones the resolution claims — so the plan does not lean on the
/// checker.
pub fn plan(model: &Model, samples: &Samples, index: PatternId, resolution: &Resolution, checker_ok: bool) -> Plan {
    let pattern = model.pattern(index);
    let table = &samples.tables[resolution.table.index()];
    let access = resolution.key_schema(model);
    let declared = declared(pattern);
    let roles = param_roles(model, pattern);
    let mut best: Option<((usize, usize, usize), Plan)> = None;
    let candidates = table
        .items
        .iter()
        .filter(|i| declared.contains(&i.entity))
        .filter(|i| in_access(&i.item, access))
        .filter(|i| fixed_knowns_hold(model, pattern, &samples.records[i.record]));
    let mut seen_params: HashSet<Vec<(String, String)>> = HashSet::new();
    for candidate in candidates.take(400) {
        let params = choose_params(model, samples, pattern, resolution, &roles, candidate);
        if !seen_params.insert(params.clone()) {
            continue;
        }
        let plan = build(model, samples, index, resolution, checker_ok, params);
        let entities: HashSet<EntityId> = plan.matching.iter().map(|&i| table.items[i].entity).collect();
        let score = (entities.len(), plan.matching.len(), plan.expected.len());
        if best.as_ref().is_none_or(|(b, _)| score > *b) {
            best = Some((score, plan));
        }
    }
    match best {
        Some((_, plan)) => plan,
        // No sample item fits (a fixed value never sampled): run it anyway,
        // with placeholder values; it should return nothing.
        None => {
            let params = param_names(model, pattern, resolution)
                .into_iter()
                .map(|n| (n, "none".to_string()))
                .collect();
            build(model, samples, index, resolution, checker_ok, params)
        }
    }
}

/// Every parameter verify fills: the Query's (its partition and sort values)
/// and the pattern's own — equalities and range bounds the Query may not use
/// at all (`color` in a pattern whose Query never mentions it).
fn param_names(model: &Model, pattern: &Pattern, resolution: &Resolution) -> Vec<String> {
    let keyed = std::iter::once(&resolution.partition)
        .chain(&resolution.partition_rest)
        .chain(&resolution.sort_equal);
    let mut names: Vec<String> = keyed.flat_map(Value::params).map(str::to_string).collect();
    if let Some(sort) = &resolution.sort {
        for (_, value) in sort.values() {
            names.extend(value.params().map(str::to_string));
        }
    }
    for known in &pattern.known {
        names.extend(known.caller_names().into_iter().map(str::to_string));
    }
    names.extend(filter_params(model, pattern).into_iter().map(|(param, _)| param));
    let mut seen = HashSet::new();
    names.retain(|n| seen.insert(n.clone()));
    names
}

/// The caller's values in the pattern's filter (not its enum words), each
/// with the attribute it is compared with.
fn filter_params(model: &Model, pattern: &Pattern) -> Vec<(String, String)> {
    let Some(filter) = &pattern.filter else {
        return Vec::new();
    };
    let returns = declared(pattern);
    filter
        .expr
        .values()
        .into_iter()
        .filter_map(
            |(attr, value)| match crate::check::filter::operand(model, &returns, &attr.text, value) {
                crate::check::filter::Operand::Param(param) => Some((param.to_string(), attr.text.to_string())),
                crate::check::filter::Operand::Constant(_) => None,
            },
        )
        .collect()
}

fn build(
    model: &Model,
    samples: &Samples,
    index: PatternId,
    resolution: &Resolution,
    checker_ok: bool,
    mut params: Vec<(String, String)>,
) -> Plan {
    // A calculated shard: the caller computes it from its source, as the
    // application that wrote the item did.
    if let Some(Shards {
        attr,
        count,
        from: Some(source),
    }) = &resolution.shards
        && let Some(source) = params.iter().find(|(name, _)| name == source).map(|(_, v)| v.clone())
        && let Some((_, value)) = params.iter_mut().find(|(name, _)| name == attr)
    {
        *value = shard::of(&source, *count).to_string();
    }
    let lookup: HashMap<&str, &str> = params.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let access = resolution.key_schema(model);
    let consistent_on_gsi = resolution.consistent && access.kind == AccessKind::Gsi;
    let query = concrete(model, resolution, &lookup, consistent_on_gsi);
    // A random shard: one Query per shard.
    let shard_queries: Vec<ConcreteQuery> = match &resolution.shards {
        Some(Shards {
            attr,
            count,
            from: None,
        }) => shard::values(*count)
            .iter()
            .map(|value| {
                let mut lookup = lookup.clone();
                lookup.insert(attr.as_str(), value.as_str());
                concrete(model, resolution, &lookup, consistent_on_gsi)
            })
            .collect(),
        _ => Vec::new(),
    };
    let query = shard_queries.first().cloned().unwrap_or(query);
    let mut plan = Plan {
        pattern: index,
        checker_ok,
        pinned: resolution.pinned,
        params,
        query,
        consistent_on_gsi,
        shard_queries,
        expected: Vec::new(),
        matching: Vec::new(),
    };
    plan.expected = samples.tables[resolution.table.index()]
        .items
        .iter()
        .enumerate()
        .filter(|(_, i)| plan.returns_item(model, resolution, &i.item))
        .map(|(n, _)| n)
        .collect();
    plan.matching = matching(model, samples, &plan);
    plan
}

/// The resolution's request with the parameters' values.
fn concrete(
    model: &Model,
    resolution: &Resolution,
    lookup: &HashMap<&str, &str>,
    consistent_on_gsi: bool,
) -> ConcreteQuery {
    let filled =
        |values: &[Value]| -> Vec<String> { values.iter().map(|v| substitute(v, lookup).to_string()).collect() };
    ConcreteQuery {
        table: resolution.table,
        access: resolution.access,
        partition: substitute(&resolution.partition, lookup).to_string(),
        partition_rest: filled(&resolution.partition_rest),
        sort_equal: filled(&resolution.sort_equal),
        sort: resolution.sort.as_ref().map(|s| map_sort(s, |v| substitute(v, lookup))),
        forward: !resolution.descending,
        consistent: resolution.consistent && !consistent_on_gsi,
        limit: resolution.limit,
        read: resolution.read,
        filter: resolution
            .filter
            .as_ref()
            .map(|f| filtered::concrete(model, &resolution.returns, f, lookup)),
    }
}

fn substitute(value: &Value, params: &HashMap<&str, &str>) -> Value {
    let mut out = Value::default();
    for part in &value.parts {
        match part {
            ValuePart::Literal(text) => out.push_literal(text),
            ValuePart::Param { name, .. } => match params.get(name.as_str()) {
                Some(text) => out.push_literal(text),
                None => out.push_literal(&format!("{{{name}}}")),
            },
        }
    }
    out
}

fn map_sort(op: &SortOp, f: impl Fn(&Value) -> Value) -> SortOp {
    match op {
        SortOp::Eq(v) => SortOp::Eq(f(v)),
        SortOp::Lt(v) => SortOp::Lt(f(v)),
        SortOp::Le(v) => SortOp::Le(f(v)),
        SortOp::Gt(v) => SortOp::Gt(f(v)),
        SortOp::Ge(v) => SortOp::Ge(f(v)),
        SortOp::Between(lo, hi) => SortOp::Between(f(lo), f(hi)),
        SortOp::BeginsWith(v) => SortOp::BeginsWith(f(v)),
    }
}

/// What each parameter of a pattern stands for.
#[derive(Clone, Debug)]
enum Role {
    /// The attribute's value, by equality.
    Equal(String),
    Compare(String, CompareOp),
    Lower(String),
    Upper(String),
    Prefix(String),
}

fn param_roles(model: &Model, pattern: &Pattern) -> HashMap<String, Role> {
    let mut roles = HashMap::new();
    for known in &pattern.known {
        let attr = known.attr.text.to_string();
        match &known.kind {
            KnownKind::Equal => {
                roles.insert(attr.clone(), Role::Equal(attr.clone()));
            }
            KnownKind::Fixed(_) => {}
            KnownKind::Compare(op, bound) => {
                roles.insert(bound.text.to_string(), Role::Compare(attr.clone(), *op));
            }
            KnownKind::Between(lo, hi) => {
                roles.insert(lo.text.to_string(), Role::Lower(attr.clone()));
                roles.insert(hi.text.to_string(), Role::Upper(attr.clone()));
            }
            KnownKind::BeginsWith(p) => {
                roles.insert(p.text.to_string(), Role::Prefix(attr.clone()));
            }
        }
    }
    // A filter's value is taken from the item's attribute, so that the
    // item passes (`total >= minTotal` with the item's total).
    for (param, attr) in filter_params(model, pattern) {
        roles.entry(param).or_insert(Role::Equal(attr));
    }
    roles
}

/// Parameter values from one sample item: equalities take its values, range
/// bounds are picked among the values its partition holds (so some items lie
/// on each side, and one on the bound).
fn choose_params(
    model: &Model,
    samples: &Samples,
    pattern: &Pattern,
    resolution: &Resolution,
    roles: &HashMap<String, Role>,
    target: &SampleItem,
) -> Vec<(String, String)> {
    let record = &samples.records[target.record];
    let names = param_names(model, pattern, resolution);
    let declared = declared(pattern);
    let access = resolution.key_schema(model);
    // The records that agree with the target on every equality: the range's
    // neighbourhood.
    let equalities: Vec<&str> = pattern
        .known
        .iter()
        .filter(|k| matches!(k.kind, KnownKind::Equal))
        .map(|k| k.attr.text.as_str())
        .collect();
    let range_values = |attr: &str| -> Vec<String> {
        let ty = attr_type(model, &declared, attr);
        let mut values: Vec<String> = samples.tables[resolution.table.index()]
            .items
            .iter()
            .filter(|i| declared.contains(&i.entity) && in_access(&i.item, access))
            .map(|i| &samples.records[i.record])
            .filter(|r| {
                equalities
                    .iter()
                    .all(|e| r.value(e).map(|v| &v.text) == record.value(e).map(|v| &v.text))
            })
            .filter_map(|r| r.value(attr).map(|v| v.text.clone()))
            .collect();
        values.sort_by(|a, b| compare_typed(ty.as_ref(), a, b));
        values.dedup();
        values
    };
    names
        .into_iter()
        .map(|name| {
            let own = |attr: &str| record.value(attr).map(|v| v.text.clone());
            let value = match roles.get(&name) {
                Some(Role::Equal(attr)) => own(attr),
                Some(Role::Compare(attr, op)) => {
                    let values = range_values(attr);
                    // Near the middle, but with at least two values on
                    // the selected side when there are two (so `by` can
                    // be judged) and one left out when there are three.
                    let last = values.len().saturating_sub(1);
                    let at = match op {
                        CompareOp::Eq => return (name.clone(), own(attr).unwrap_or_else(|| "none".into())),
                        CompareOp::Ge => (values.len() / 2).min(values.len().saturating_sub(2)),
                        CompareOp::Gt => (values.len() / 2).min(values.len().saturating_sub(3)),
                        CompareOp::Le => (values.len() / 2).max(1).min(last),
                        CompareOp::Lt => (values.len() / 2).max(2).min(last),
                    };
                    values.get(at).cloned()
                }
                Some(Role::Lower(attr)) => {
                    let values = range_values(attr);
                    values.get(values.len() / 4).cloned()
                }
                Some(Role::Upper(attr)) => {
                    let values = range_values(attr);
                    values
                        .get((values.len() * 3 / 4).min(values.len().saturating_sub(1)))
                        .cloned()
                }
                Some(Role::Prefix(attr)) => own(attr).map(|v| {
                    let n = v.chars().count().div_ceil(2).max(1);
                    v.chars().take(n).collect()
                }),
                // A name the pattern does not declare: the attribute of that name.
                None => own(&name),
            };
            (name, value.unwrap_or_else(|| "none".into()))
        })
        .collect()
}

fn attr_type(model: &Model, entities: &[EntityId], attr: &str) -> Option<AttrType> {
    model.attribute_among(entities, attr).map(|a| a.ty.clone())
}

/// Compares two values of an attribute the way the pattern means them:
/// numbers numerically, everything else in UTF-8 byte order.
pub fn compare_typed(ty: Option<&AttrType>, a: &str, b: &str) -> Ordering {
    if ty.is_some_and(AttrType::is_numeric)
        && let (Ok(x), Ok(y)) = (a.parse::<f64>(), b.parse::<f64>())
    {
        return x.partial_cmp(&y).unwrap_or(Ordering::Equal);
    }
    // A time with an offset is ordered by the instant it names, which its
    // text does not sort by (W303).
    if ty == Some(&AttrType::DateTime(Zone::Offset))
        && let (Some(x), Some(y)) = (instant(a), instant(b))
    {
        return x.cmp(&y);
    }
    a.as_bytes().cmp(b.as_bytes())
}

/// `2026-03-14T10:00:00.5+02:00` as (UTC seconds since 1970, fraction
/// digits padded to 9): comparable across offsets.
fn instant(text: &str) -> Option<(i64, String)> {
    let (local, offset_minutes) = match text.strip_suffix('Z') {
        Some(local) => (local, 0),
        None => {
            let (local, offset) = text.split_at(text.len().checked_sub(6)?);
            let sign = match offset.as_bytes()[0] {
                b'+' => 1,
                b'-' => -1,
                _ => return None,
            };
            let hours: i64 = offset.get(1..3)?.parse().ok()?;
            let minutes: i64 = offset.get(4..6)?.parse().ok()?;
            (local, sign * (hours * 60 + minutes))
        }
    };
    let (main, fraction) = local.split_once('.').unwrap_or((local, ""));
    let field = |range: std::ops::Range<usize>| main.get(range)?.parse::<i64>().ok();
    let (year, month, day) = (field(0..4)?, field(5..7)?, field(8..10)?);
    let (hour, minute, second) = (field(11..13)?, field(14..16)?, field(17..19)?);
    // Days from 1970-01-01 to the civil date (Howard Hinnant's algorithm).
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (month + if month > 2 { -3 } else { 9 }) + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset_minutes * 60;
    Some((seconds, format!("{fraction:0<9}")))
}

/// Two items in the order a Query returns them: by each sort attribute in
/// turn (one, but for a multi-attribute key), numbers numerically, strings
/// and binary by their bytes; reversed for a descending Query.
pub fn key_order(access: &KeySchema, forward: bool, a: &Map<String, Json>, b: &Map<String, Json>) -> Ordering {
    let by = |sk: &crate::check::model::KeyAttr| {
        let (Some(x), Some(y)) = (a.get(&sk.name), b.get(&sk.name)) else {
            return Ordering::Equal;
        };
        match sk.ty {
            KeyType::Number => {
                let number = |v: &Json| super::judge::scalar_text(v).parse::<f64>().unwrap_or(f64::NAN);
                number(x).total_cmp(&number(y))
            }
            _ => key_bytes(x, sk.ty).cmp(&key_bytes(y, sk.ty)),
        }
    };
    let order = access
        .sort_keys()
        .map(by)
        .find(|o| o.is_ne())
        .unwrap_or(Ordering::Equal);
    if forward { order } else { order.reverse() }
}

/// The item is in the access path: it has the index's key attributes.
pub fn in_access(item: &Map<String, Json>, access: &KeySchema) -> bool {
    access.key_attributes().all(|k| item.contains_key(&k.name))
}

/// `status = "open"` in the pattern: the record's status is `open`.
fn fixed_knowns_hold(model: &Model, pattern: &Pattern, record: &Record) -> bool {
    pattern.known.iter().all(|known| {
        let KnownKind::Fixed(literal) = &known.kind else {
            return true;
        };
        let Some(attribute) = model.entity(record.entity).attribute(&known.attr.text) else {
            return true;
        };
        let Some(text) = literal_text(literal) else { return true };
        record
            .value(&known.attr.text)
            .is_some_and(|v| v.text == key_text(&text, &attribute.ty))
    })
}

/// A constant as it appears in a key: `7` on an `int(pad 4)` is `0007`.
pub fn key_text(text: &str, ty: &AttrType) -> String {
    match ty {
        AttrType::Int { pad: Some(width) } if text.bytes().all(|b| b.is_ascii_digit()) => {
            format!("{text:0>width$}", width = *width as usize)
        }
        _ => text.to_string(),
    }
}

/// The key condition, evaluated on a sample item as DynamoDB would.
pub fn key_condition_holds(item: &Map<String, Json>, access: &KeySchema, query: &ConcreteQuery) -> bool {
    if !in_access(item, access) {
        return false;
    }
    // A Scan has no key condition: it reads every item stored there.
    if let Read::Scan { .. } = query.read {
        return true;
    }
    // Every partition attribute, then the leading sort attributes, equal.
    let equal = std::iter::once(&query.partition)
        .chain(&query.partition_rest)
        .zip(access.partition_keys())
        .chain(query.sort_equal.iter().zip(access.sort_keys()));
    for (text, key) in equal {
        let holds = item.get(&key.name).and_then(|v| key_cmp(v, text, key.ty)) == Some(Ordering::Equal);
        if !holds {
            return false;
        }
    }
    let (Some(sort), Some(sk_attr)) = (&query.sort, access.sort_keys().nth(query.sort_equal.len())) else {
        return true;
    };
    let Some(sk) = item.get(&sk_attr.name) else {
        return false;
    };
    let ty = sk_attr.ty;
    let cmp = |v: &Value| key_cmp(sk, &v.to_string(), ty);
    match sort {
        SortOp::Eq(v) => cmp(v) == Some(Ordering::Equal),
        SortOp::Lt(v) => cmp(v) == Some(Ordering::Less),
        SortOp::Le(v) => matches!(cmp(v), Some(Ordering::Less | Ordering::Equal)),
        SortOp::Gt(v) => cmp(v) == Some(Ordering::Greater),
        SortOp::Ge(v) => matches!(cmp(v), Some(Ordering::Greater | Ordering::Equal)),
        SortOp::Between(lo, hi) => {
            matches!(cmp(lo), Some(Ordering::Greater | Ordering::Equal))
                && matches!(cmp(hi), Some(Ordering::Less | Ordering::Equal))
        }
        SortOp::BeginsWith(v) => match (ty, key_bytes(sk, ty)) {
            (KeyType::Number, _) | (_, None) => false,
            (KeyType::String, Some(bytes)) => bytes.starts_with(v.to_string().as_bytes()),
            (KeyType::Binary, Some(bytes)) => {
                base64_decode(&v.to_string()).is_ok_and(|prefix: Vec<u8>| bytes.starts_with(&prefix))
            }
        },
    }
}

fn key_bytes(value: &Json, ty: KeyType) -> Option<Vec<u8>> {
    match ty {
        KeyType::String => value.get("S")?.as_str().map(|s| s.as_bytes().to_vec()),
        KeyType::Binary => base64_decode(value.get("B")?.as_str()?).ok(),
        KeyType::Number => value.get("N")?.as_str().map(|s| s.as_bytes().to_vec()),
    }
}

/// An item's key value against condition text: byte order for strings and
/// binary, numeric order for numbers.
fn key_cmp(value: &Json, text: &str, ty: KeyType) -> Option<Ordering> {
    match ty {
        KeyType::String => Some(value.get("S")?.as_str()?.as_bytes().cmp(text.as_bytes())),
        KeyType::Binary => Some(key_bytes(value, ty)?.cmp(&base64_decode(text).ok()?)),
        KeyType::Number => {
            let a: f64 = value.get("N")?.as_str()?.parse().ok()?;
            let b: f64 = text.parse().ok()?;
            a.partial_cmp(&b)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offset_times_compare_by_instant_not_text() {
        let offset = AttrType::DateTime(Zone::Offset);
        let (ten_in_paris, nine_utc) = ("2026-03-14T10:00:00+02:00", "2026-03-14T09:00:00Z");
        // As text, 10:00+02:00 comes after 09:00Z; as a time it is 08:00Z.
        assert_eq!(ten_in_paris.cmp(nine_utc), Ordering::Greater);
        assert_eq!(compare_typed(Some(&offset), ten_in_paris, nine_utc), Ordering::Less);
        assert_eq!(
            compare_typed(Some(&offset), "2026-03-14T04:00:00-05:00", "2026-03-14T09:00:00.000Z"),
            Ordering::Equal
        );
        assert_eq!(
            compare_typed(Some(&offset), "2026-03-01T00:30:00+01:00", "2026-02-28T23:00:00Z"),
            Ordering::Greater,
            "across a month end"
        );
        assert_eq!(instant("1970-01-01T00:00:00Z"), Some((0, "000000000".into())));
        assert_eq!(
            instant("2000-03-01T00:00:00.5Z"),
            Some((951_868_800, "500000000".into()))
        );
    }
}
