//! What `dyno verify` runs for one pattern and what it expects back, worked
//! out from the samples alone (no endpoint): the Query with its parameters
//! taken from a sample item, the items its key condition selects (evaluated
//! here, in DynamoDB's order: UTF-8 bytes for strings, numeric for numbers),
//! and the records the pattern means (its known values applied to the
//! attributes). Then the checks of what an endpoint returned.

use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value as Json, json};

use crate::check::model::{AccessKind, AttrType, EntityId, KeySchema, Model, Pattern, TableId};
use crate::check::resolve::{Resolution, SortOp, literal_text};
use crate::check::sample::{Record, SampleItem, Samples, base64_decode, primary_key_identity};
use crate::check::value::{Value, ValuePart};
use crate::syntax::ast::{CompareOp, KeyType, KnownKind};

/// One Query with every parameter filled in.
#[derive(Clone, Debug)]
pub struct ConcreteQuery {
    pub table: TableId,
    /// Into the table's `access`.
    pub access: usize,
    pub partition: String,
    /// Its values are literals.
    pub sort: Option<SortOp>,
    pub forward: bool,
    pub consistent: bool,
    pub limit: Option<u64>,
}

impl ConcreteQuery {
    /// The low-level request, as `dyno explain` prints it, with real values
    /// and `table_name` for the table.
    pub fn request(&self, model: &Model, table_name: &str) -> Json {
        let access = &model.tables[self.table].access[self.access];
        let mut names = Map::new();
        let mut values = Map::new();
        names.insert("#pk".into(), json!(access.pk.name));
        values.insert(":pk".into(), typed(access.pk.ty, &self.partition));
        let mut expression = "#pk = :pk".to_string();
        if let (Some(sort), Some(sk)) = (&self.sort, &access.sk) {
            names.insert("#sk".into(), json!(sk.name));
            for (placeholder, value) in sort.values() {
                values.insert(placeholder.into(), typed(sk.ty, &value.to_string()));
            }
            expression.push_str(" AND ");
            expression.push_str(&sort.expression("#sk"));
        }
        let mut request = Map::new();
        request.insert("TableName".into(), json!(table_name));
        if access.is_index() {
            request.insert("IndexName".into(), json!(access.name.text));
        }
        request.insert("KeyConditionExpression".into(), json!(expression));
        request.insert("ExpressionAttributeNames".into(), Json::Object(names));
        request.insert("ExpressionAttributeValues".into(), Json::Object(values));
        request.insert("ScanIndexForward".into(), json!(self.forward));
        request.insert("ConsistentRead".into(), json!(self.consistent));
        if let Some(limit) = self.limit {
            request.insert("Limit".into(), json!(limit));
        }
        Json::Object(request)
    }

    /// `pk = "TENANT#k3x9qz" and begins_with(sk, "USER#")`, for reports.
    pub fn condition(&self, model: &Model) -> String {
        let access = &model.tables[self.table].access[self.access];
        let mut out = format!("{} = {:?}", access.pk.name, self.partition);
        if let (Some(sort), Some(sk)) = (&self.sort, &access.sk) {
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

fn typed(ty: KeyType, text: &str) -> Json {
    match ty {
        KeyType::String => json!({ "S": text }),
        KeyType::Number => json!({ "N": text }),
        KeyType::Binary => json!({ "B": text }),
    }
}

/// What verify runs for one pattern, and what it expects.
#[derive(Clone, Debug)]
pub struct Plan {
    pub pattern: usize,
    /// False for a pinned query the checker rejects, run as written.
    pub checker_ok: bool,
    pub pinned: bool,
    /// Parameter name → the value taken from the samples.
    pub params: Vec<(String, String)>,
    pub query: ConcreteQuery,
    /// A strongly consistent read of a global index: DynamoDB rejects it, so
    /// verify reports it and runs the Query eventually consistent instead.
    pub consistent_on_gsi: bool,
    /// Items (into the table's samples) the key condition selects.
    pub expected: Vec<usize>,
}

/// Plans the pattern's Query: the parameters that select the most sample
/// items of the declared entities.
pub fn plan(model: &Model, samples: &Samples, index: usize, resolution: &Resolution, checker_ok: bool) -> Plan {
    let pattern = &model.patterns[index];
    let table = &samples.tables[resolution.table];
    let access = &model.tables[resolution.table].access[resolution.access];
    let roles = param_roles(pattern);
    let mut best: Option<(usize, usize, Plan)> = None;
    let candidates = table
        .items
        .iter()
        .filter(|i| resolution.returns.contains(&i.entity))
        .filter(|i| in_access(&i.item, access))
        .filter(|i| fixed_knowns_hold(model, pattern, &samples.records[i.record]));
    let mut seen_params: HashSet<Vec<(String, String)>> = HashSet::new();
    for candidate in candidates.take(400) {
        let params = choose_params(model, samples, pattern, resolution, &roles, candidate);
        if !seen_params.insert(params.clone()) {
            continue;
        }
        let plan = build(model, samples, index, resolution, checker_ok, params);
        let entities: HashSet<EntityId> = plan.expected.iter().map(|&i| table.items[i].entity).collect();
        let declared = entities.iter().filter(|e| resolution.returns.contains(e)).count();
        let score = (declared, plan.expected.len());
        if best.as_ref().is_none_or(|(d, n, _)| score > (*d, *n)) {
            best = Some((score.0, score.1, plan));
        }
    }
    match best {
        Some((_, _, plan)) => plan,
        // No sample item fits (a fixed value never sampled): run it anyway,
        // with placeholder values; it should return nothing.
        None => {
            let mut names: Vec<String> = resolution.partition.params().map(str::to_string).collect();
            if let Some(sort) = &resolution.sort {
                for (_, value) in sort.values() {
                    names.extend(value.params().map(str::to_string));
                }
            }
            let params = names.into_iter().map(|n| (n, "none".to_string())).collect();
            build(model, samples, index, resolution, checker_ok, params)
        }
    }
}

fn build(
    model: &Model,
    samples: &Samples,
    index: usize,
    resolution: &Resolution,
    checker_ok: bool,
    params: Vec<(String, String)>,
) -> Plan {
    let lookup: HashMap<&str, &str> = params.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let access = &model.tables[resolution.table].access[resolution.access];
    let consistent_on_gsi = resolution.consistent && access.kind == AccessKind::Gsi;
    let query = ConcreteQuery {
        table: resolution.table,
        access: resolution.access,
        partition: substitute(&resolution.partition, &lookup).to_string(),
        sort: resolution
            .sort
            .as_ref()
            .map(|s| map_sort(s, |v| substitute(v, &lookup))),
        forward: !resolution.descending,
        consistent: resolution.consistent && !consistent_on_gsi,
        limit: resolution.limit,
    };
    let expected = samples.tables[resolution.table]
        .items
        .iter()
        .enumerate()
        .filter(|(_, i)| key_condition_holds(&i.item, access, &query))
        .map(|(n, _)| n)
        .collect();
    Plan {
        pattern: index,
        checker_ok,
        pinned: resolution.pinned,
        params,
        query,
        consistent_on_gsi,
        expected,
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

fn param_roles(pattern: &Pattern) -> HashMap<String, Role> {
    let mut roles = HashMap::new();
    for known in &pattern.known {
        let attr = known.attr.text.clone();
        match &known.kind {
            KnownKind::Equal => {
                roles.insert(attr.clone(), Role::Equal(attr));
            }
            KnownKind::Fixed(_) => {}
            KnownKind::Compare(op, bound) => {
                roles.insert(bound.text.clone(), Role::Compare(attr, *op));
            }
            KnownKind::Between(lo, hi) => {
                roles.insert(lo.text.clone(), Role::Lower(attr.clone()));
                roles.insert(hi.text.clone(), Role::Upper(attr));
            }
            KnownKind::BeginsWith(p) => {
                roles.insert(p.text.clone(), Role::Prefix(attr));
            }
        }
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
    let mut names: Vec<&str> = resolution.partition.params().collect();
    if let Some(sort) = &resolution.sort {
        for (_, value) in sort.values() {
            names.extend(value.params());
        }
    }
    let mut seen = HashSet::new();
    names.retain(|n| seen.insert(*n));
    let access = &model.tables[resolution.table].access[resolution.access];
    // The records that agree with the target on every equality: the range's
    // neighbourhood.
    let equalities: Vec<&str> = pattern
        .known
        .iter()
        .filter(|k| matches!(k.kind, KnownKind::Equal))
        .map(|k| k.attr.text.as_str())
        .collect();
    let range_values = |attr: &str| -> Vec<String> {
        let ty = attr_type(model, &resolution.returns, attr);
        let mut values: Vec<String> = samples.tables[resolution.table]
            .items
            .iter()
            .filter(|i| resolution.returns.contains(&i.entity) && in_access(&i.item, access))
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
            let value = match roles.get(name) {
                Some(Role::Equal(attr)) => own(attr),
                Some(Role::Compare(attr, op)) => {
                    let values = range_values(attr);
                    match op {
                        CompareOp::Eq => own(attr),
                        _ => values.get(values.len() / 2).cloned(),
                    }
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
                None => own(name),
            };
            (name.to_string(), value.unwrap_or_else(|| "none".into()))
        })
        .collect()
}

fn attr_type(model: &Model, entities: &[EntityId], attr: &str) -> Option<AttrType> {
    entities
        .iter()
        .find_map(|&e| model.entities[e].attribute(attr))
        .map(|a| a.ty.clone())
}

/// Compares two values of an attribute the way the pattern means them:
/// numbers numerically, everything else in UTF-8 byte order.
pub fn compare_typed(ty: Option<&AttrType>, a: &str, b: &str) -> Ordering {
    if ty.is_some_and(AttrType::is_numeric)
        && let (Ok(x), Ok(y)) = (a.parse::<f64>(), b.parse::<f64>())
    {
        return x.partial_cmp(&y).unwrap_or(Ordering::Equal);
    }
    a.as_bytes().cmp(b.as_bytes())
}

/// The item is in the access path: it has the index's key attributes.
pub fn in_access(item: &Map<String, Json>, access: &KeySchema) -> bool {
    item.contains_key(&access.pk.name) && access.sk.as_ref().is_none_or(|sk| item.contains_key(&sk.name))
}

/// `status = "open"` in the pattern: the record's status is `open`.
fn fixed_knowns_hold(model: &Model, pattern: &Pattern, record: &Record) -> bool {
    pattern.known.iter().all(|known| {
        let KnownKind::Fixed(literal) = &known.kind else {
            return true;
        };
        let Some(attribute) = model.entities[record.entity].attribute(&known.attr.text) else {
            return true;
        };
        let Some(text) = literal_text(literal) else { return true };
        record
            .value(&known.attr.text)
            .is_some_and(|v| v.text == key_text(&text, &attribute.ty))
    })
}

/// A constant as it appears in a key: `7` on an `int(pad 4)` is `0007`.
fn key_text(text: &str, ty: &AttrType) -> String {
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
    let Some(pk) = item.get(&access.pk.name) else {
        return false;
    };
    if key_cmp(pk, &query.partition, access.pk.ty) != Some(Ordering::Equal) {
        return false;
    }
    let (Some(sort), Some(sk_attr)) = (&query.sort, &access.sk) else {
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
                base64_decode(&v.to_string()).is_some_and(|prefix| bytes.starts_with(&prefix))
            }
        },
    }
}

fn key_bytes(value: &Json, ty: KeyType) -> Option<Vec<u8>> {
    match ty {
        KeyType::String => value.get("S")?.as_str().map(|s| s.as_bytes().to_vec()),
        KeyType::Binary => base64_decode(value.get("B")?.as_str()?),
        KeyType::Number => value.get("N")?.as_str().map(|s| s.as_bytes().to_vec()),
    }
}

/// An item's key value against condition text: byte order for strings and
/// binary, numeric order for numbers.
fn key_cmp(value: &Json, text: &str, ty: KeyType) -> Option<Ordering> {
    match ty {
        KeyType::String => Some(value.get("S")?.as_str()?.as_bytes().cmp(text.as_bytes())),
        KeyType::Binary => Some(key_bytes(value, ty)?.cmp(&base64_decode(text)?)),
        KeyType::Number => {
            let a: f64 = value.get("N")?.as_str()?.parse().ok()?;
            let b: f64 = text.parse().ok()?;
            a.partial_cmp(&b)
        }
    }
}

/// One problem verify found with a pattern.
#[derive(Clone, Debug)]
pub struct Failure {
    /// `leaked`, `missing`, `unexpected`, `wrong-item`, `not-returned`,
    /// `order`, `consistent-gsi`, `unknown-item`, `error`.
    pub kind: &'static str,
    pub message: String,
    /// The offending items: entity and primary key.
    pub items: Vec<ItemDescription>,
}

#[derive(Clone, Debug)]
pub struct ItemDescription {
    pub entity: Option<String>,
    pub key: Vec<(String, String)>,
}

impl ItemDescription {
    pub fn json(&self) -> Json {
        let key: Map<String, Json> = self.key.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
        json!({ "entity": self.entity, "key": key })
    }
}

impl std::fmt::Display for ItemDescription {
    /// `UserGroup pk="TENANT#k3x9qz" sk="USERGROUP#b7"`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.entity.as_deref().unwrap_or("(unknown)"))?;
        for (k, v) in &self.key {
            write!(f, " {k}={v:?}")?;
        }
        Ok(())
    }
}

/// The text of a key attribute value: `TENANT#x`, `42`.
fn scalar_text(value: &Json) -> String {
    match value {
        Json::Object(typed) => match typed.iter().next() {
            Some((_, Json::String(s))) => s.clone(),
            Some((_, other)) => other.to_string(),
            None => String::new(),
        },
        other => other.to_string(),
    }
}

/// Checks what the endpoint returned (in order) against the plan.
pub fn check(model: &Model, samples: &Samples, plan: &Plan, returned: &[Map<String, Json>]) -> Vec<Failure> {
    let pattern = &model.patterns[plan.pattern];
    let table = &model.tables[plan.query.table];
    let Some(base) = table.base() else {
        return Vec::new();
    };
    let items = &samples.tables[plan.query.table].items;
    let sk_name = base.sk.as_ref().map(|k| k.name.as_str());
    let by_identity: HashMap<String, usize> = items
        .iter()
        .enumerate()
        .filter_map(|(n, i)| Some((primary_key_identity(&i.item, &base.pk.name, sk_name)?, n)))
        .collect();
    let describe_map = |item: &Map<String, Json>, entity: Option<EntityId>| ItemDescription {
        entity: entity.map(|e| model.entities[e].name.text.clone()),
        key: std::iter::once(base.pk.name.as_str())
            .chain(sk_name)
            .filter_map(|k| Some((k.to_string(), scalar_text(item.get(k)?))))
            .collect(),
    };
    let describe = |n: usize| describe_map(&items[n].item, Some(items[n].entity));
    let returns: &[EntityId] = &pattern.returns.iter().filter_map(|r| r.entity).collect::<Vec<_>>();
    let mut failures = Vec::new();

    if plan.consistent_on_gsi {
        failures.push(Failure {
            kind: "consistent-gsi",
            message: format!(
                "asks for a strongly consistent read of global index `{}`, which DynamoDB rejects (ran it eventually consistent)",
                table.access[plan.query.access].name.text
            ),
            items: Vec::new(),
        });
    }

    let mut got: Vec<usize> = Vec::new();
    let mut unknown = Vec::new();
    for item in returned {
        match primary_key_identity(item, &base.pk.name, sk_name).and_then(|id| by_identity.get(&id)) {
            Some(&n) => got.push(n),
            None => unknown.push(describe_map(item, None)),
        }
    }
    if !unknown.is_empty() {
        failures.push(Failure {
            kind: "unknown-item",
            message: format!("returned {} item(s) verify did not write", unknown.len()),
            items: unknown,
        });
    }

    // Nothing leaks: every item is of a declared entity.
    let mut leaked: HashMap<EntityId, Vec<usize>> = HashMap::new();
    for &n in &got {
        if !returns.contains(&items[n].entity) {
            leaked.entry(items[n].entity).or_default().push(n);
        }
    }
    let mut leaked: Vec<_> = leaked.into_iter().collect();
    leaked.sort();
    for (entity, ns) in leaked {
        failures.push(Failure {
            kind: "leaked",
            message: format!(
                "returned {} `{}` item(s), which `{}` does not declare",
                ns.len(),
                model.entities[entity].name.text,
                pattern.name.text
            ),
            items: ns.into_iter().map(describe).collect(),
        });
    }

    // The endpoint agrees with the key condition.
    let got_set: HashSet<usize> = got.iter().copied().collect();
    let expected: HashSet<usize> = plan.expected.iter().copied().collect();
    let missing: Vec<usize> = plan.expected.iter().copied().filter(|n| !got_set.contains(n)).collect();
    if !missing.is_empty() {
        failures.push(Failure {
            kind: "missing",
            message: format!(
                "did not return {} item(s) that its key condition matches",
                missing.len()
            ),
            items: missing.into_iter().map(describe).collect(),
        });
    }
    let unexpected: Vec<usize> = got.iter().copied().filter(|n| !expected.contains(n)).collect();
    if !unexpected.is_empty() {
        failures.push(Failure {
            kind: "unexpected",
            message: format!("returned {} item(s) its key condition does not match", unexpected.len()),
            items: unexpected.into_iter().map(describe).collect(),
        });
    }

    // The pattern's meaning: returned items have the known values, and every
    // record with them is returned.
    let params: HashMap<&str, &str> = plan.params.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let wrong: Vec<usize> = got
        .iter()
        .copied()
        .filter(|&n| returns.contains(&items[n].entity))
        .filter(|&n| means(model, pattern, &params, &samples.records[items[n].record]) == Some(false))
        .collect();
    if !wrong.is_empty() {
        failures.push(Failure {
            kind: "wrong-item",
            message: format!(
                "returned {} item(s) whose attributes do not have the pattern's known values ({})",
                wrong.len(),
                known_summary(pattern, &plan.params)
            ),
            items: wrong.into_iter().map(describe).collect(),
        });
    }
    let returned_records: HashSet<usize> = got.iter().map(|&n| items[n].record).collect();
    let mut not_returned = Vec::new();
    let mut seen_records = HashSet::new();
    for (n, item) in items.iter().enumerate() {
        if !returns.contains(&item.entity) || !seen_records.insert(item.record) {
            continue;
        }
        if returned_records.contains(&item.record) {
            continue;
        }
        if means(model, pattern, &params, &samples.records[item.record]) == Some(true) {
            not_returned.push(n);
        }
    }
    if !not_returned.is_empty() {
        failures.push(Failure {
            kind: "not-returned",
            message: format!(
                "did not return {} item(s) that have the pattern's known values ({})",
                not_returned.len(),
                known_summary(pattern, &plan.params)
            ),
            items: not_returned.into_iter().map(describe).collect(),
        });
    }

    // Order.
    if let Some(order) = &pattern.order {
        let ty = attr_type(model, returns, &order.attr.text);
        let values: Vec<(usize, String)> = got
            .iter()
            .filter(|&&n| returns.contains(&items[n].entity))
            .filter_map(|&n| {
                let record = &samples.records[items[n].record];
                Some((n, record.value(&order.attr.text)?.text.clone()))
            })
            .collect();
        for pair in values.windows(2) {
            let ordering = compare_typed(ty.as_ref(), &pair[0].1, &pair[1].1);
            let wrong = if order.descending {
                ordering == Ordering::Less
            } else {
                ordering == Ordering::Greater
            };
            if wrong {
                failures.push(Failure {
                    kind: "order",
                    message: format!(
                        "not in `by {}{}` order: `{}` came before `{}`",
                        order.attr.text,
                        if order.descending { " desc" } else { "" },
                        pair[0].1,
                        pair[1].1
                    ),
                    items: vec![describe(pair[0].0), describe(pair[1].0)],
                });
                break;
            }
        }
    }
    failures
}

/// `tenantId = "k3x9qz", at >= "2026-03-14T09:26:53Z"`.
fn known_summary(pattern: &Pattern, params: &[(String, String)]) -> String {
    let param = |name: &str| {
        params
            .iter()
            .find(|(k, _)| k == name)
            .map_or_else(|| format!("{{{name}}}"), |(_, v)| format!("{v:?}"))
    };
    pattern
        .known
        .iter()
        .map(|k| {
            let attr = &k.attr.text;
            match &k.kind {
                KnownKind::Equal => format!("{attr} = {}", param(attr)),
                KnownKind::Fixed(literal) => format!("{attr} = {:?}", literal_text(literal).unwrap_or_default()),
                KnownKind::Compare(op, bound) => format!("{attr} {} {}", op_text(*op), param(&bound.text)),
                KnownKind::Between(lo, hi) => format!("{attr} between {} and {}", param(&lo.text), param(&hi.text)),
                KnownKind::BeginsWith(p) => format!("{attr} begins_with {}", param(&p.text)),
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn op_text(op: CompareOp) -> &'static str {
    match op {
        CompareOp::Eq => "=",
        CompareOp::Lt => "<",
        CompareOp::Le => "<=",
        CompareOp::Gt => ">",
        CompareOp::Ge => ">=",
    }
}

/// Does the record have the pattern's known values? `None` when its entity
/// lacks one of the attributes (the pattern says nothing about it).
fn means(model: &Model, pattern: &Pattern, params: &HashMap<&str, &str>, record: &Record) -> Option<bool> {
    let entity = &model.entities[record.entity];
    let mut holds = true;
    for known in &pattern.known {
        let attribute = entity.attribute(&known.attr.text)?;
        let Some(value) = record.value(&known.attr.text) else {
            holds = false;
            continue;
        };
        let ty = Some(&attribute.ty);
        let v = value.text.as_str();
        let param = |name: &str| params.get(name).copied();
        let ok = match &known.kind {
            KnownKind::Equal => param(&known.attr.text).is_none_or(|p| p == v),
            KnownKind::Fixed(literal) => literal_text(literal).is_none_or(|text| v == key_text(&text, &attribute.ty)),
            KnownKind::Compare(op, bound) => param(&bound.text).is_none_or(|p| {
                let o = compare_typed(ty, v, p);
                match op {
                    CompareOp::Eq => o == Ordering::Equal,
                    CompareOp::Lt => o == Ordering::Less,
                    CompareOp::Le => o != Ordering::Greater,
                    CompareOp::Gt => o == Ordering::Greater,
                    CompareOp::Ge => o != Ordering::Less,
                }
            }),
            KnownKind::Between(lo, hi) => {
                param(&lo.text).is_none_or(|p| compare_typed(ty, v, p) != Ordering::Less)
                    && param(&hi.text).is_none_or(|p| compare_typed(ty, v, p) != Ordering::Greater)
            }
            KnownKind::BeginsWith(p) => param(&p.text).is_none_or(|p| v.starts_with(p)),
        };
        holds &= ok;
    }
    Some(holds)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::analyze;
    use crate::check::resolve::pinned_as_written;
    use crate::check::sample::{Options, generate};

    /// Runs every pattern against the samples themselves (a perfect
    /// endpoint): what the key condition selects, in key order.
    fn simulate(source: &str) -> Vec<(String, bool, Vec<Failure>)> {
        let analysis = analyze(source);
        let model = &analysis.model;
        let samples = generate(model, &Options::default());
        let mut out = Vec::new();
        for (i, pattern) in model.patterns.iter().enumerate() {
            let (resolution, ok) = match &analysis.resolutions[i] {
                Some(r) => (r.clone(), true),
                None => match pinned_as_written(source, model, &analysis.registry, pattern) {
                    Some(r) => (r, false),
                    None => continue,
                },
            };
            let plan = plan(model, &samples, i, &resolution, ok);
            let access = &model.tables[plan.query.table].access[plan.query.access];
            let items = &samples.tables[plan.query.table].items;
            let mut returned: Vec<&SampleItem> = plan.expected.iter().map(|&n| &items[n]).collect();
            let sk = access.sk.clone();
            returned.sort_by(|a, b| match &sk {
                Some(sk) => {
                    let text = |i: &SampleItem| scalar_text(&i.item[&sk.name]);
                    let o = match sk.ty {
                        KeyType::Number => text(a).parse::<f64>().unwrap().total_cmp(&text(b).parse().unwrap()),
                        _ => text(a).cmp(&text(b)),
                    };
                    if plan.query.forward { o } else { o.reverse() }
                }
                None => Ordering::Equal,
            });
            let returned: Vec<Map<String, Json>> = returned.into_iter().map(|i| i.item.clone()).collect();
            out.push((
                pattern.name.text.clone(),
                !returned.is_empty(),
                check(model, &samples, &plan, &returned),
            ));
        }
        out
    }

    #[test]
    fn every_bundled_pattern_selects_items_and_passes_on_a_perfect_endpoint() {
        for source in [
            include_str!("../../examples/billing.dyno"),
            include_str!("../../examples/shop.dyno"),
            include_str!("../../examples/teams.dyno"),
        ] {
            for (name, nonempty, failures) in simulate(source) {
                assert!(nonempty, "{name}: the samples give it nothing to return");
                assert!(failures.is_empty(), "{name}: {failures:#?}");
            }
        }
    }

    #[test]
    fn a_leaking_pinned_query_names_the_leaked_entity() {
        let source = r#"
table App { key pk, sk }
entity User { tenantId: id  userId: id  pk = "TENANT#{tenantId}"  sk = "USER#{userId}" }
entity UserGroup { tenantId: id  groupId: id  pk = "TENANT#{tenantId}"  sk = "USERGROUP#{groupId}" }
pattern users(tenantId) -> User[] = query App where pk = "TENANT#{tenantId}" and begins_with(sk, "USER")
"#;
        let results = simulate(source);
        let (_, _, failures) = &results[0];
        let leaked = failures.iter().find(|f| f.kind == "leaked").expect("a leak");
        assert!(leaked.message.contains("`UserGroup`"), "{}", leaked.message);
        assert!(leaked.items.iter().all(|i| i.entity.as_deref() == Some("UserGroup")));
    }

    #[test]
    fn unpadded_numbers_come_back_in_the_wrong_order() {
        let source = r#"
table App { key pk, sk }
entity Invoice { tenantId: id  number: int  pk = "TENANT#{tenantId}"  sk = "INVOICE#{number}" }
pattern invoices(tenantId) -> Invoice[] by number
"#;
        let results = simulate(source);
        let (_, _, failures) = &results[0];
        assert!(failures.iter().any(|f| f.kind == "order"), "{failures:#?}");
    }
}
