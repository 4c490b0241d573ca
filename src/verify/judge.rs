//! The pattern oracle: what an endpoint returned for one pattern, judged
//! against the pattern itself — its declared entities, its known values and
//! ranges, single or many returns, `by` and `limit` — evaluated on each
//! sample item's own attributes. The Query that was run is not needed to
//! judge (only its index, to know which items can be in it), so a wrong
//! resolution cannot make its own result look right.

use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap, HashSet};

use serde_json::{Map, Value as Json, json};

use super::plan::{Plan, compare_typed, in_access, key_text};
use crate::check::model::{AttrType, EntityId, KeySchema, Model, Pattern};
use crate::check::resolve::{Read, literal_text};
use crate::check::sample::{Record, Samples, primary_key_identity};
use crate::syntax::ast::{CompareOp, KnownKind};

/// One problem verify found with a pattern.
#[derive(Clone, Debug)]
pub struct Failure {
    /// The rule broken: `leaked`, `wrong-item`, `missing`, `single`,
    /// `limit`, `order`, `key-condition`, `consistent-gsi`, `unknown-item`,
    /// `error`.
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

/// What the judge found: the failures, and the checks the samples could not
/// exercise (an order seen on fewer than two items, a limit never reached).
#[derive(Clone, Debug, Default)]
pub struct Verdict {
    pub failures: Vec<Failure>,
    pub unexercised: Vec<String>,
}

/// What the endpoint returned: every page in order, and how many items the
/// first page held.
#[derive(Clone, Copy, Debug)]
pub struct Returned<'a> {
    pub items: &'a [Map<String, Json>],
    pub first_page: usize,
    /// The first page of the same Query with a smaller `Limit`, run when no
    /// more items match than the pattern's `limit` (so its own first page
    /// holds them all and cannot show a wrong cut).
    pub probe: Option<Probe<'a>>,
}

#[derive(Clone, Copy, Debug)]
pub struct Probe<'a> {
    pub limit: u64,
    pub items: &'a [Map<String, Json>],
}

/// The `Limit` of the probe: one less than the records that match, when
/// there are at least two of them and no more than the pattern's `limit`.
pub fn probe_limit(model: &Model, samples: &Samples, plan: &Plan) -> Option<u64> {
    if matches!(plan.query.read, Read::Scan { segments: Some(s) } if s > 1) {
        return None;
    }
    let limit = model.pattern(plan.pattern).limit?;
    let items = &samples.tables[plan.query.table.index()].items;
    let records: HashSet<usize> = plan.matching.iter().map(|&n| items[n].record).collect();
    let m = records.len() as u64;
    (m >= 2 && m <= limit).then_some(m - 1)
}

/// The entities a pattern declares, in its order.
pub fn declared(pattern: &Pattern) -> Vec<EntityId> {
    pattern.returns.iter().filter_map(|r| r.entity).collect()
}

/// The sample items the pattern means, for these parameter values: of a
/// declared entity, in the index, with every known value and range holding
/// on the item's own attributes.
pub fn matching(model: &Model, samples: &Samples, plan: &Plan) -> Vec<usize> {
    let pattern = model.pattern(plan.pattern);
    let access = plan.query.key_schema(model);
    let declared = declared(pattern);
    let params = param_map(&plan.params);
    samples.tables[plan.query.table.index()]
        .items
        .iter()
        .enumerate()
        .filter(|(_, i)| declared.contains(&i.entity) && in_access(&i.item, access))
        .filter(|(_, i)| holds(model, pattern, &params, &samples.records[i.record]) == Some(true))
        .filter(|(_, i)| {
            pattern
                .filter
                .as_ref()
                .is_none_or(|f| super::filtered::holds(model, &declared, f, &params, &i.item))
        })
        .map(|(n, _)| n)
        .collect()
}

fn param_map(params: &[(String, String)]) -> HashMap<&str, &str> {
    params.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect()
}

/// Does the record have the pattern's known values? `None` when its entity
/// lacks one of the attributes (the pattern says nothing about it). A known
/// value without a parameter value (never planned) does not hold.
pub fn holds(model: &Model, pattern: &Pattern, params: &HashMap<&str, &str>, record: &Record) -> Option<bool> {
    let entity = model.entity(record.entity);
    let mut all = true;
    for known in &pattern.known {
        let attribute = entity.attribute(&known.attr.text)?;
        let Some(value) = record.value(&known.attr.text) else {
            all = false;
            continue;
        };
        let ty = Some(&attribute.ty);
        let v = value.text.as_str();
        let param = |name: &str| params.get(name).copied();
        let cmp = |name: &str| param(name).map(|p| compare_typed(ty, v, p));
        let ok = match &known.kind {
            KnownKind::Equal => cmp(&known.attr.text) == Some(Ordering::Equal),
            KnownKind::Fixed(literal) => {
                literal_text(literal).is_some_and(|text| compare_typed(ty, v, &key_text(&text, &attribute.ty)).is_eq())
            }
            KnownKind::Compare(op, bound) => cmp(&bound.text).is_some_and(|o| match op {
                CompareOp::Eq => o.is_eq(),
                CompareOp::Lt => o.is_lt(),
                CompareOp::Le => o.is_le(),
                CompareOp::Gt => o.is_gt(),
                CompareOp::Ge => o.is_ge(),
            }),
            KnownKind::Between(lo, hi) => {
                cmp(&lo.text).is_some_and(Ordering::is_ge) && cmp(&hi.text).is_some_and(Ordering::is_le)
            }
            KnownKind::BeginsWith(p) => param(&p.text).is_some_and(|p| v.starts_with(p)),
        };
        all &= ok;
    }
    Some(all)
}

/// Every shape of the entity writes the index's keys: an item of it missing
/// from the index can only be a record without an optional key attribute.
fn entity_in_access(model: &Model, entity: EntityId, access: &KeySchema) -> bool {
    model
        .entity(entity)
        .items
        .iter()
        .any(|shape| access.key_attributes().all(|k| shape.key(&k.name).is_some()))
}

/// The text of a key attribute value: `TENANT#x`, `42`.
pub fn scalar_text(value: &Json) -> String {
    match value {
        Json::Object(typed) => match typed.iter().next() {
            Some((_, Json::String(s))) => s.clone(),
            Some((_, other)) => other.to_string(),
            None => String::new(),
        },
        other => other.to_string(),
    }
}

struct Judge<'a> {
    model: &'a Model,
    samples: &'a Samples,
    plan: &'a Plan,
    pattern: &'a Pattern,
    declared: Vec<EntityId>,
    params: HashMap<&'a str, &'a str>,
    verdict: Verdict,
}

impl<'a> Judge<'a> {
    fn items(&self) -> &'a [crate::check::sample::SampleItem] {
        &self.samples.tables[self.plan.query.table.index()].items
    }

    fn describe_map(&self, item: &Map<String, Json>, entity: Option<EntityId>) -> ItemDescription {
        let base = self.model.table(self.plan.query.table).base();
        let names = base
            .iter()
            .flat_map(|b| std::iter::once(b.pk.name.as_str()).chain(b.sk.as_ref().map(|k| k.name.as_str())));
        ItemDescription {
            entity: entity.map(|e| self.model.entity(e).name.text.to_string()),
            key: names
                .filter_map(|k| Some((k.to_string(), scalar_text(item.get(k)?))))
                .collect(),
        }
    }

    fn describe(&self, n: usize) -> ItemDescription {
        let item = &self.items()[n];
        self.describe_map(&item.item, Some(item.entity))
    }

    fn fail(&mut self, kind: &'static str, message: String, items: impl IntoIterator<Item = usize>) {
        let items = items.into_iter().map(|n| self.describe(n)).collect();
        self.verdict.failures.push(Failure { kind, message, items });
    }

    /// The pattern's known values hold on the item's record, and its filter
    /// keeps the item.
    fn holds(&self, n: usize) -> Option<bool> {
        let record = &self.samples.records[self.items()[n].record];
        let known = holds(self.model, self.pattern, &self.params, record)?;
        let kept =
            self.pattern.filter.as_ref().is_none_or(|f| {
                super::filtered::holds(self.model, &self.declared, f, &self.params, &self.items()[n].item)
            });
        Some(known && kept)
    }

    fn order_value(&self, n: usize) -> Option<String> {
        let order = self.pattern.order.as_ref()?;
        let record = &self.samples.records[self.items()[n].record];
        Some(record.value(&order.attr.text)?.text.clone())
    }

    fn order_type(&self) -> Option<AttrType> {
        let order = self.pattern.order.as_ref()?;
        self.model
            .attribute_among(&self.declared, &order.attr.text)
            .map(|a| a.ty.clone())
    }

    /// `a` comes after `b` in the declared order.
    fn out_of_order(&self, a: &str, b: &str) -> bool {
        let descending = self.pattern.order.as_ref().is_some_and(|o| o.descending);
        let ordering = compare_typed(self.order_type().as_ref(), a, b);
        if descending { ordering.is_lt() } else { ordering.is_gt() }
    }

    /// Identifies returned items among the samples by their primary key:
    /// every one, and those of the first `first_page`. Items verify did not
    /// write are reported.
    fn identify(&mut self, returned: &[Map<String, Json>], first_page: usize) -> (Vec<usize>, Vec<usize>) {
        let Some(base) = self.model.table(self.plan.query.table).base() else {
            return (Vec::new(), Vec::new());
        };
        let sk_name = base.sk.as_ref().map(|k| k.name.as_str());
        let by_identity: HashMap<String, usize> = self
            .items()
            .iter()
            .enumerate()
            .filter_map(|(n, i)| Some((primary_key_identity(&i.item, &base.pk.name, sk_name)?, n)))
            .collect();
        let (mut got, mut first, mut unknown) = (Vec::new(), Vec::new(), Vec::new());
        for (position, item) in returned.iter().enumerate() {
            match primary_key_identity(item, &base.pk.name, sk_name).and_then(|id| by_identity.get(&id)) {
                Some(&n) => {
                    got.push(n);
                    if position < first_page {
                        first.push(n);
                    }
                }
                None => unknown.push(self.describe_map(item, None)),
            }
        }
        if !unknown.is_empty() {
            self.verdict.failures.push(Failure {
                kind: "unknown-item",
                message: format!("returned {} item(s) verify did not write", unknown.len()),
                items: unknown,
            });
        }
        (got, first)
    }

    fn summary(&self) -> String {
        known_summary(self.pattern, &self.plan.params)
    }
}

/// Judges what the endpoint returned (every page, in order) for the plan.
pub fn check(model: &Model, samples: &Samples, plan: &Plan, returned: Returned<'_>) -> Verdict {
    let pattern = model.pattern(plan.pattern);
    let table = model.table(plan.query.table);
    if table.base().is_none() {
        return Verdict::default();
    }
    let mut judge = Judge {
        model,
        samples,
        plan,
        pattern,
        declared: declared(pattern),
        params: param_map(&plan.params),
        verdict: Verdict::default(),
    };
    let access = table.access(plan.query.access);

    if plan.consistent_on_gsi {
        judge.verdict.failures.push(Failure {
            kind: "consistent-gsi",
            message: format!(
                "asks for a strongly consistent read of global index `{}`, which DynamoDB rejects (ran it eventually consistent)",
                access.name.text
            ),
            items: Vec::new(),
        });
    }

    let (got, first_page) = judge.identify(returned.items, returned.first_page);
    leaked(&mut judge, &got);
    wrong_and_missing(&mut judge, &got, access);
    single(&mut judge, &got);
    let parallel = matches!(plan.query.read, Read::Scan { segments: Some(s) } if s > 1);
    if let Some(n) = pattern.limit
        && parallel
    {
        // Each segment pages on its own: only the cap can be judged.
        let n = usize::try_from(n).unwrap_or(usize::MAX);
        over_limit(&mut judge, &first_page, n, &format!("`limit {n}`"));
    } else if let Some(n) = pattern.limit {
        let n = usize::try_from(n).unwrap_or(usize::MAX);
        if !limit(&mut judge, &first_page, access, n, &format!("`limit {n}`")) {
            match returned.probe {
                Some(probe) => {
                    let (_, page) = judge.identify(probe.items, probe.items.len());
                    let k = usize::try_from(probe.limit).unwrap_or(usize::MAX);
                    limit(
                        &mut judge,
                        &page,
                        access,
                        k,
                        &format!("the same Query with `Limit {k}`"),
                    );
                }
                None => judge.verdict.unexercised.push(format!(
                    "limit: no more items match than `limit {n}`, and no probe was run"
                )),
            }
        }
    }
    order(&mut judge, &got);
    // A range the samples' values left empty proves nothing about its bounds.
    let ranged = pattern
        .known
        .iter()
        .any(|k| !matches!(k.kind, KnownKind::Equal | KnownKind::Fixed(_)));
    if ranged && plan.matching.is_empty() {
        judge
            .verdict
            .unexercised
            .push("range: no sample item lies in the range the chosen values give".into());
    }
    key_condition(&mut judge, &got);
    judge.verdict
}

/// Every returned item is of a declared entity.
fn leaked(judge: &mut Judge<'_>, got: &[usize]) {
    let mut leaked: BTreeMap<EntityId, Vec<usize>> = BTreeMap::new();
    for &n in got {
        let entity = judge.items()[n].entity;
        if !judge.declared.contains(&entity) {
            leaked.entry(entity).or_default().push(n);
        }
    }
    for (entity, ns) in leaked {
        let message = format!(
            "returned {} `{}` item(s), which `{}` does not declare",
            ns.len(),
            judge.model.entity(entity).name.text,
            judge.pattern.name.text
        );
        judge.fail("leaked", message, ns);
    }
}

/// Every returned item of a declared entity has the pattern's known values
/// and ranges; every record that has them (and is in the index) comes back.
fn wrong_and_missing(judge: &mut Judge<'_>, got: &[usize], access: &KeySchema) {
    let items = judge.items();
    let wrong: Vec<usize> = got
        .iter()
        .copied()
        .filter(|&n| judge.declared.contains(&items[n].entity) && judge.holds(n) == Some(false))
        .collect();
    if !wrong.is_empty() {
        let message = format!(
            "returned {} item(s) whose own attributes do not have the pattern's known values or pass its filter ({})",
            wrong.len(),
            judge.summary()
        );
        judge.fail("wrong-item", message, wrong);
    }
    // One entry per record: an entity with several item shapes is returned
    // when any of its items is.
    let returned_records: HashSet<usize> = got.iter().map(|&n| items[n].record).collect();
    let mut seen = HashSet::new();
    let mut missing = Vec::new();
    for (n, item) in items.iter().enumerate() {
        if !judge.declared.contains(&item.entity) || returned_records.contains(&item.record) {
            continue;
        }
        if judge.holds(n) != Some(true) {
            continue;
        }
        // In the index: this item, or (an entity the index never holds) none
        // of them can be, and the pattern promises them anyway.
        let required = in_access(&item.item, access) || !entity_in_access(judge.model, item.entity, access);
        if required && seen.insert(item.record) {
            missing.push(n);
        }
    }
    if !missing.is_empty() {
        let message = format!(
            "did not return {} item(s) that have the pattern's known values ({})",
            missing.len(),
            judge.summary()
        );
        judge.fail("missing", message, missing);
    }
}

/// `-> T` promises at most one item of `T`, over every page.
fn single(judge: &mut Judge<'_>, got: &[usize]) {
    for ret in judge.pattern.returns.iter().filter(|r| !r.many) {
        let Some(entity) = ret.entity else { continue };
        let mut records = HashSet::new();
        let of: Vec<usize> = got
            .iter()
            .copied()
            .filter(|&n| judge.items()[n].entity == entity && records.insert(judge.items()[n].record))
            .collect();
        if of.len() > 1 {
            let message = format!(
                "returned {} `{}` items; `-> {}` promises at most one",
                of.len(),
                ret.name.text,
                ret.name.text
            );
            judge.fail("single", message, of);
        }
    }
}

/// A `limit`, on one first page alone (`what` names it: `` `limit 20` ``):
/// at most that many items, and as many of the matching items as there are
/// up to it — with `by`, the first ones in that order. False when no more
/// items match than the limit, so the page could not show a wrong cut.
/// A first page holding more than `limit` items fails; `true` when it did.
fn over_limit(judge: &mut Judge<'_>, first_page: &[usize], limit: usize, what: &str) -> bool {
    if first_page.len() <= limit {
        return false;
    }
    let message = format!("the first page held {} items, more than {what}", first_page.len());
    judge.fail("limit", message, first_page.iter().copied().skip(limit));
    true
}

fn limit(judge: &mut Judge<'_>, first_page: &[usize], access: &KeySchema, limit: usize, what: &str) -> bool {
    if over_limit(judge, first_page, limit, what) {
        return true;
    }
    // One entry per record (an entity with several item shapes may have
    // several in the index, but the Query reads one of them).
    let items = judge.items();
    let mut records = HashSet::new();
    let mut matching: Vec<usize> = (0..items.len())
        .filter(|&n| {
            judge.declared.contains(&items[n].entity)
                && in_access(&items[n].item, access)
                && judge.holds(n) == Some(true)
        })
        .filter(|&n| records.insert(items[n].record))
        .collect();
    let want = matching.len().min(limit);
    let exercised = matching.len() > limit;
    let mut page_records = HashSet::new();
    let on_page: Vec<usize> = first_page
        .iter()
        .copied()
        .filter(|&n| records.contains(&items[n].record) && page_records.insert(items[n].record))
        .collect();
    if on_page.len() < want {
        let absent: Vec<usize> = matching
            .iter()
            .copied()
            .filter(|&n| !page_records.contains(&items[n].record))
            .collect();
        let message = format!(
            "the first page held {} of the matching items; with {what} and {} matching it should hold {want}",
            on_page.len(),
            matching.len()
        );
        judge.fail("limit", message, absent);
        return exercised;
    }
    if judge.pattern.order.is_none() {
        return exercised;
    }
    // The first `want` matching items in the declared order, compared by
    // their values of the order attribute (ties may come in any order).
    matching.sort_by(|&a, &b| {
        let (x, y) = (
            judge.order_value(a).unwrap_or_default(),
            judge.order_value(b).unwrap_or_default(),
        );
        if judge.out_of_order(&x, &y) {
            Ordering::Greater
        } else if judge.out_of_order(&y, &x) {
            Ordering::Less
        } else {
            Ordering::Equal
        }
    });
    let mut expected: Vec<String> = matching[..want].iter().filter_map(|&n| judge.order_value(n)).collect();
    let mut seen: Vec<String> = on_page.iter().filter_map(|&n| judge.order_value(n)).collect();
    expected.sort();
    seen.sort();
    if expected != seen {
        let should: Vec<usize> = matching[..want]
            .iter()
            .copied()
            .filter(|&n| !page_records.contains(&items[n].record))
            .collect();
        let order = judge
            .pattern
            .order
            .as_ref()
            .map(|o| o.attr.text.to_string())
            .unwrap_or_default();
        let message = format!(
            "with {what}, the first page is not the first {want} matching items by `{order}`: these should have been on it"
        );
        judge.fail("limit", message, should);
    }
    exercised
}

/// With `by attr [desc]`, the items of the declared entities come back in
/// that order of `attr`, typed.
fn order(judge: &mut Judge<'_>, got: &[usize]) {
    let Some(order) = judge.pattern.order.clone() else {
        return;
    };
    let values: Vec<(usize, String)> = got
        .iter()
        .copied()
        .filter(|&n| judge.declared.contains(&judge.items()[n].entity))
        .filter_map(|n| Some((n, judge.order_value(n)?)))
        .collect();
    if values.len() < 2 {
        judge.verdict.unexercised.push(format!(
            "order: `by {}` seen on {} item(s)",
            order.attr.text,
            values.len()
        ));
        return;
    }
    if let Some(pair) = values.windows(2).find(|p| judge.out_of_order(&p[0].1, &p[1].1)) {
        let message = format!(
            "not in `by {}{}` order: `{}` came before `{}`",
            order.attr.text,
            if order.descending { " desc" } else { "" },
            pair[0].1,
            pair[1].1
        );
        judge.fail("order", message, [pair[0].0, pair[1].0]);
    }
}

/// The endpoint agrees with dyno's own evaluation of the key condition it
/// was sent: a disagreement means the endpoint (or that evaluation) is wrong,
/// so nothing else in the report can be trusted.
fn key_condition(judge: &mut Judge<'_>, got: &[usize]) {
    let got_set: HashSet<usize> = got.iter().copied().collect();
    let expected: HashSet<usize> = judge.plan.expected.iter().copied().collect();
    let not_sent: Vec<usize> = judge
        .plan
        .expected
        .iter()
        .copied()
        .filter(|n| !got_set.contains(n))
        .collect();
    if !not_sent.is_empty() {
        let message = format!(
            "the endpoint did not return {} item(s) the key condition selects",
            not_sent.len()
        );
        judge.fail("key-condition", message, not_sent);
    }
    let extra: Vec<usize> = got.iter().copied().filter(|n| !expected.contains(n)).collect();
    if !extra.is_empty() {
        let message = format!(
            "the endpoint returned {} item(s) the key condition does not select",
            extra.len()
        );
        judge.fail("key-condition", message, extra);
    }
}

/// `tenantId = "k3x9qz", at >= "2026-03-14T09:26:53Z"`.
pub fn known_summary(pattern: &Pattern, params: &[(String, String)]) -> String {
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
