//! A pattern with a pinned `= query ...`: check it against DynamoDB's rules
//! for key conditions, then check what it really matches: a value no item
//! can have (a `USERS#` typo), entities it returns that the pattern does not
//! declare (`begins_with(sk, "USER")` also reading `UserGroup`), and
//! declared entities it never returns.

use std::collections::BTreeSet;

use super::condition::SortOp;
use super::knowns::{Next, Range, instantiate};
use super::{Context, Resolution, exact, matching_items, warn_not_unique};
use crate::check::lang::Shape;
use crate::check::model::{AccessId, AccessKind, EntityId, KeySchema, Pattern, TableId};
use crate::check::suggest::{closest, escape};
use crate::check::value::{Value, ValuePart};
use crate::diagnostic::{Code, Diagnostic, Fix};
use crate::syntax::ast::{self, CompareOp, ConditionKind, KeyType, Operand, Segment};
use crate::syntax::{FileId, FileSpan, Span, names};

pub fn verify(
    cx: &Context,
    pattern: &Pattern,
    query: &ast::Query,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Resolution> {
    let (table_id, access_id) = query_access(cx, query)?; // unknown: reported when lowering
    if table_id != cx.table {
        diagnostics.push(Diagnostic::new(
            Code::MixedTables,
            cx.file.at(query.table.span),
            format!(
                "the query reads `{}`, but the entities it returns live in `{}`",
                cx.model.table(table_id).name.text,
                cx.model.table(cx.table).name.text
            ),
        ));
        return None;
    }
    let access = cx.model.access(table_id, access_id);
    if access.is_multi_attribute() {
        // A pinned condition names one `pk` and one `sk`.
        diagnostics.push(
            Diagnostic::new(
                Code::KeyConditionRule,
                cx.file.at(query.span),
                format!(
                    "index `{}` has a key of several attributes, which a pinned query cannot state",
                    access.name.text
                ),
            )
            .with_help("drop the `= query ...`: dyno finds the Query through the index and shows it in `dyno explain`"),
        );
        return None;
    }
    let (partition, sort) = key_conditions(cx, access, query, diagnostics)?;
    let consistent_ok = check_consistent(cx, pattern, access, diagnostics);
    let resolution = as_resolution(
        cx,
        pattern,
        (table_id, access_id),
        &partition.1,
        sort.as_ref().map(|s| &s.1),
    );
    let items = matched_items(cx, query, access, &resolution, (&partition, sort.as_ref()), diagnostics)?;
    let condition_span = sort.as_ref().map_or(partition.0, |s| s.0);
    let declared = Declared {
        pattern,
        query,
        access,
        resolution: &resolution,
        sort: sort.as_ref(),
        condition_span,
    };
    // Missing entities are reported only when nothing else is wrong.
    let ok = declared.no_extra(cx, &items, diagnostics) && consistent_ok;
    if !ok || !declared.none_missing(cx, &items, diagnostics) || !declared.none_fewer(cx, &items, diagnostics) {
        return None;
    }
    let filtered_out = match exact::check_matched(cx, pattern, &resolution, items.clone()) {
        Ok(caveats) => {
            warn_not_unique(cx, pattern, &resolution, &caveats.not_unique, diagnostics);
            caveats.filtered_out
        }
        Err(reason) => {
            diagnostics.push(
                Diagnostic::new(
                    Code::UnpinnedValue,
                    cx.file.at(condition_span),
                    format!("`{}`: {}", pattern.name.text, reason.render(cx.model)),
                )
                .with_help("make the condition use every known value exactly, ending a value with the delimiter that follows it in the key"),
            );
            return None;
        }
    };
    let resolution = Resolution {
        filtered_out,
        ..resolution
    };
    Some(relying_on_items(cx, access, resolution, &items))
}

/// The table and the access path a pinned query names.
fn query_access(cx: &Context, query: &ast::Query) -> Option<(TableId, AccessId)> {
    let table_id = cx.model.table_named(&query.table.text)?;
    let access_id = match &query.index {
        None => AccessId::BASE,
        Some(index) => cx.model.table(table_id).index_id(&index.text)?,
    };
    Some((table_id, access_id))
}

/// A strongly consistent read of a global index: reported, `false`.
fn check_consistent(cx: &Context, pattern: &Pattern, access: &KeySchema, diagnostics: &mut Vec<Diagnostic>) -> bool {
    let Some(span) = pattern.consistent.filter(|_| access.kind == AccessKind::Gsi) else {
        return true;
    };
    diagnostics.push(
        Diagnostic::new(
            Code::ConsistentGsi,
            cx.file.at(span),
            format!(
                "index `{}` is global: it serves only eventually consistent reads",
                access.name.text
            ),
        )
        .with_related(cx.model.table(cx.table).at(access.name.span), "declared here")
        .with_help("drop `consistent`, or read the table or a local index"),
    );
    false
}

/// The pinned Query as a resolution, relying on its access path only.
fn as_resolution(
    cx: &Context,
    pattern: &Pattern,
    (table, access): (TableId, AccessId),
    partition: &Value,
    sort: Option<&SortOp>,
) -> Resolution {
    Resolution {
        table,
        access,
        partition: partition.clone(),
        partition_rest: Vec::new(),
        sort_equal: Vec::new(),
        sort: sort.cloned(),
        descending: pattern.order.as_ref().is_some_and(|o| o.descending),
        consistent: pattern.consistent.is_some(),
        limit: pattern.limit,
        returns: cx.returns.clone(),
        filtered_out: Vec::new(),
        filter: pattern.filter.clone(),
        relies_on: vec![cx.model.table(table).at(cx.model.access(table, access).span)],
        pinned: true,
        shards: None,
        read: super::Read::Query,
    }
}

/// The items the Query matches; `None` (reported) when a key value can
/// match no item at all: the partition value first, then the sort value.
fn matched_items(
    cx: &Context,
    query: &ast::Query,
    access: &KeySchema,
    resolution: &Resolution,
    (partition, sort): (&Spanned<Value>, Option<&Spanned<SortOp>>),
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Vec<super::ItemRef>> {
    let items = matching_items(cx.model, cx.registry, resolution);
    let partition_only = Resolution {
        sort: None,
        ..resolution.clone()
    };
    let in_partition = matching_items(cx.model, cx.registry, &partition_only);
    if in_partition.is_empty() {
        let operand = operand_at(query, partition.0);
        report_unmatched(
            cx,
            access,
            &access.pk.name,
            (partition.0, operand),
            &partition.1,
            &[],
            diagnostics,
        );
        return None;
    }
    if items.is_empty()
        && let Some((span, value)) = sort
    {
        let sk = access.sk.as_ref().map_or("", |k| k.name.as_str());
        let operand = operand_at(query, *span);
        report_unmatched(
            cx,
            access,
            sk,
            (*span, operand),
            value.value(),
            &in_partition,
            diagnostics,
        );
        return None;
    }
    Some(items)
}

/// What a pinned Query's matches are compared with: the entities the
/// pattern declares.
struct Declared<'a> {
    pattern: &'a Pattern,
    query: &'a ast::Query,
    access: &'a KeySchema,
    resolution: &'a Resolution,
    sort: Option<&'a Spanned<SortOp>>,
    /// The condition a finding points at: the sort condition, else the
    /// partition key's.
    condition_span: Span,
}

impl Declared<'_> {
    /// Entities the Query returns that the pattern does not declare:
    /// reported, with the narrower `begins_with` when there is one; `false`.
    fn no_extra(&self, cx: &Context, items: &[super::ItemRef], diagnostics: &mut Vec<Diagnostic>) -> bool {
        let extra: Vec<_> = items
            .iter()
            .filter(|i| !cx.returns.contains(&i.entity) && !super::removed_by_filter(cx, self.pattern, i.entity))
            .collect();
        if extra.is_empty() {
            return true;
        }
        let names: BTreeSet<&str> = extra
            .iter()
            .map(|i| cx.model.entity(i.entity).name.text.as_str())
            .collect();
        let names: Vec<String> = names.into_iter().map(|n| format!("`{n}`")).collect();
        let mut diagnostic = Diagnostic::new(
            Code::ExtraEntities,
            cx.file.at(self.condition_span),
            format!(
                "this condition also returns {}, which `{}` does not declare",
                names.join(", "),
                self.pattern.name.text
            ),
        );
        let access = self.access;
        let key_attr = access.sk.as_ref().unwrap_or(&access.pk).name.as_str();
        for item in &extra {
            let entity = cx.model.entity(item.entity);
            if let Some(kv) = entity.items[item.item].key(key_attr) {
                diagnostic = diagnostic.with_related(
                    entity.at(kv.span),
                    format!("`{}` writes `{key_attr}` here", entity.name.text),
                );
            }
        }
        let help = match tighter_prefix(cx, access, self.resolution) {
            Some((key, common)) => {
                let fix = narrow_fix(cx.file, self.query, access, self.sort, &key, &common);
                diagnostic = diagnostic.with_fixes(fix);
                format!("narrow it to what the declared entities share: `begins_with({key}, \"{common}\")`")
            }
            None => "declare the extra entities in the pattern's returns, or change their key templates".into(),
        };
        diagnostics.push(diagnostic.with_help(help));
        false
    }

    /// Declared entities the Query never returns: reported; `false`.
    fn none_missing(&self, cx: &Context, items: &[super::ItemRef], diagnostics: &mut Vec<Diagnostic>) -> bool {
        let matched: BTreeSet<EntityId> = items.iter().map(|i| i.entity).collect();
        let missing: Vec<&str> = cx
            .returns
            .iter()
            .filter(|e| !matched.contains(e))
            .map(|&e| cx.model.entity(e).name.text.as_str())
            .collect();
        if missing.is_empty() {
            return true;
        }
        diagnostics.push(Diagnostic::new(
            Code::MissingEntities,
            cx.file.at(self.condition_span),
            format!(
                "this query never returns {}, which `{}` declares",
                missing.join(", "),
                self.pattern.name.text
            ),
        ));
        false
    }

    /// A condition that fixes an attribute the pattern does not know
    /// (`pk = "TENANT#{tenantId}#open"` over `TENANT#{tenantId}#{status}`)
    /// reads only some of the declared items: reported; `false`.
    fn none_fewer(&self, cx: &Context, items: &[super::ItemRef], diagnostics: &mut Vec<Diagnostic>) -> bool {
        for item in items.iter().filter(|i| cx.returns.contains(&i.entity)) {
            let entity = cx.model.entity(item.entity);
            let shape = &entity.items[item.item];
            let Some(pk) = shape.key(&self.access.pk.name) else {
                continue;
            };
            let sk = self.access.sk.as_ref().and_then(|k| shape.key(&k.name));
            let fixed = match first_unknown_hole(cx, &pk.template) {
                Some(attr) => Some((attr, pk)),
                None => sk.and_then(|sk| Some((self.sort_fixes(cx, sk)?, sk))),
            };
            let Some((attr, key)) = fixed else { continue };
            diagnostics.push(
                Diagnostic::new(
                    Code::MissingEntities,
                    cx.file.at(self.condition_span),
                    format!(
                        "this query reads only the `{}` items whose `{attr}` it fixes, but `{}` does not know `{attr}`: it declares every `{}` of its known values",
                        entity.name.text, self.pattern.name.text, entity.name.text
                    ),
                )
                .with_related(entity.at(key.span), format!("`{attr}` is part of `{}` here", key.attr))
                .with_help(format!(
                    "add `{attr}` to the pattern's known values, or drop the `= query ...` and let dyno find the Query"
                )),
            );
            return false;
        }
        true
    }

    /// The attribute the sort condition fixes that the pattern does not
    /// know: an equality needs every hole known; a `begins_with` or a
    /// `between` must begin with no more than the known start of the key
    /// (and the range's own value).
    fn sort_fixes(&self, cx: &Context, sk: &crate::check::model::KeyValue) -> Option<String> {
        let (_, sort) = self.sort?;
        if let SortOp::Eq(_) = sort {
            return first_unknown_hole(cx, &sk.template);
        }
        let (known, next) = instantiate(&sk.template, &cx.knowns);
        let (mut prefix, _) = exact::sort_prefix(Some(sort));
        // The range's own value may follow the known start.
        let range_params: Vec<&str> = match cx.knowns.range.as_ref().map(|(_, r)| r) {
            Some(Range::Compare(_, p) | Range::BeginsWith(p)) => vec![p.as_str()],
            Some(Range::Between(lo, hi)) => vec![lo.as_str(), hi.as_str()],
            None => Vec::new(),
        };
        if let Some(ValuePart::Param { name, .. }) = prefix.parts.last()
            && range_params.contains(&name.as_str())
        {
            prefix.parts.pop();
        }
        if is_prefix(&prefix, &known) {
            return None;
        }
        match next {
            Next::Hole { attr, .. } => Some(attr),
            Next::End => None,
        }
    }
}

/// The first hole of `template` whose attribute the pattern does not know
/// and that can hold more than one value.
fn first_unknown_hole(cx: &Context, template: &crate::check::model::Template) -> Option<String> {
    template
        .holes()
        .map(|(name, _)| name.text.as_str())
        .filter(|attr| !cx.knowns.equal.contains_key(*attr))
        .find(|attr| !matches!(cx.shape_of(attr), Shape::Enum(words) if words.len() == 1))
        .map(str::to_string)
}

/// `prefix` begins every value that begins with `value`: its parts are
/// `value`'s, the last one possibly a shorter literal.
fn is_prefix(prefix: &Value, value: &Value) -> bool {
    let n = prefix.parts.len();
    prefix
        .parts
        .iter()
        .enumerate()
        .all(|(i, part)| match (part, value.parts.get(i)) {
            (ValuePart::Param { name: p, .. }, Some(ValuePart::Param { name: v, .. })) => p == v,
            (ValuePart::Literal(p), Some(ValuePart::Literal(v))) => p == v || (i + 1 == n && v.starts_with(p.as_str())),
            _ => false,
        })
}

/// The resolution, relying also on the key lines of every item it matches.
fn relying_on_items(
    cx: &Context,
    access: &KeySchema,
    mut resolution: Resolution,
    items: &[super::ItemRef],
) -> Resolution {
    for item in items {
        let entity = cx.model.entity(item.entity);
        let entity_item = &entity.items[item.item];
        resolution
            .relies_on
            .extend(entity_item.key(&access.pk.name).map(|k| entity.at(k.span)));
        if let Some(sk) = &access.sk {
            resolution
                .relies_on
                .extend(entity_item.key(&sk.name).map(|k| entity.at(k.span)));
        }
    }
    resolution
}

/// The pinned Query exactly as written, without checking what it matches:
/// `dyno verify` runs it even when the checker flags it, to show the leak
/// for real. `None` when DynamoDB would reject it (or a name is unknown).
pub fn as_written(cx: &Context, pattern: &Pattern, query: &ast::Query) -> Option<Resolution> {
    let (table_id, access_id) = query_access(cx, query)?;
    let access = cx.model.access(table_id, access_id);
    if access.is_multi_attribute() {
        return None;
    }
    let (partition, sort) = key_conditions(cx, access, query, &mut Vec::new())?;
    Some(as_resolution(
        cx,
        pattern,
        (table_id, access_id),
        &partition.1,
        sort.as_ref().map(|s| &s.1),
    ))
}

/// The sort value a condition compares with (the lower bound of a range).
trait FirstValue {
    fn value(&self) -> &Value;
}

impl FirstValue for SortOp {
    fn value(&self) -> &Value {
        self.values()[0].1
    }
}

type Spanned<T> = (Span, T);

/// A key condition DynamoDB rejects (E203), with what it is about.
enum KeyRule {
    PartitionTwice {
        key: String,
    },
    PartitionNotEqual {
        key: String,
    },
    TwoSortConditions,
    BeginsWithOnNumber {
        key: String,
    },
    EmptyValue,
    /// Constant bounds out of order.
    InvertedBetween {
        lo: String,
        hi: String,
    },
    /// A bound that is an unpadded number: its text can sort out of order.
    UnpaddedBetween {
        name: String,
    },
    /// `key` is not a key of `access`; `index` is an index it is a key of.
    NotAKey {
        key: String,
        access: String,
        keys: Vec<String>,
        table: String,
        index: Option<String>,
    },
    NoPartition {
        pk: String,
    },
}

impl KeyRule {
    fn message(&self) -> String {
        match self {
            KeyRule::PartitionTwice { key } => {
                format!("`{key}` is compared twice: a Query has one partition key value")
            }
            KeyRule::PartitionNotEqual { key } => {
                format!("the partition key `{key}` takes only `=`: a Query reads one partition")
            }
            KeyRule::TwoSortConditions => "a Query has at most one sort-key condition".into(),
            KeyRule::BeginsWithOnNumber { key } => {
                format!("`begins_with` works on string keys, and `{key}` is a number")
            }
            KeyRule::EmptyValue => "DynamoDB rejects an empty string as a key condition value".into(),
            KeyRule::InvertedBetween { lo, hi } => {
                format!("the lower bound `{lo}` sorts after the upper bound `{hi}`: DynamoDB rejects this BETWEEN")
            }
            KeyRule::UnpaddedBetween { name } => format!(
                "`{name}` is an unpadded number: `9` to `10` comes out inverted in byte order (`9` > `10`), and DynamoDB rejects a BETWEEN whose lower bound sorts after its upper bound; use `int(pad N)`"
            ),
            KeyRule::NotAKey { key, access, keys, .. } => format!(
                "`{key}` is not a key of `{access}`: a key condition uses only `{}`",
                keys.join("` and `")
            ),
            KeyRule::NoPartition { pk } => format!("a Query needs `{pk} = ...`: without it, this is a Scan"),
        }
    }

    fn help(&self) -> Option<String> {
        match self {
            KeyRule::TwoSortConditions => Some("combine them with `between`".into()),
            KeyRule::BeginsWithOnNumber { .. } => Some("compare with `between` instead".into()),
            KeyRule::NotAKey {
                key,
                table,
                index: Some(index),
                ..
            } => Some(format!("`{key}` is a key of index `{index}`: query `{table}.{index}`")),
            _ => None,
        }
    }

    fn report(&self, at: FileSpan, diagnostics: &mut Vec<Diagnostic>) {
        let mut diagnostic = Diagnostic::new(Code::KeyConditionRule, at, self.message());
        if let Some(help) = self.help() {
            diagnostic = diagnostic.with_help(help);
        }
        diagnostics.push(diagnostic);
    }
}

/// Splits the conditions into the partition-key equality and at most one
/// sort-key condition, reporting what DynamoDB would reject.
fn key_conditions(
    cx: &Context,
    access: &KeySchema,
    query: &ast::Query,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<(Spanned<Value>, Option<Spanned<SortOp>>)> {
    let mut partition = None;
    let mut sort: Option<Spanned<SortOp>> = None;
    let mut ok = true;
    for condition in &query.conditions {
        let key = condition.key.text.as_str();
        let found = if key == access.pk.name {
            partition_condition(cx, condition, partition.is_some()).map(|p| partition = Some(p))
        } else if access.sk.as_ref().is_some_and(|s| s.name == key) {
            if sort.is_some() {
                Err(vec![(condition.span, KeyRule::TwoSortConditions)])
            } else {
                let (found, rules) = sort_condition(cx, access, condition);
                sort = Some(found);
                if rules.is_empty() { Ok(()) } else { Err(rules) }
            }
        } else {
            Err(vec![(condition.key.span, not_a_key(cx, access, query, key))])
        };
        if let Err(rules) = found {
            for (span, rule) in rules {
                rule.report(cx.file.at(span), diagnostics);
            }
            ok = false;
        }
    }
    if partition.is_none() && ok {
        let pk = access.pk.name.clone();
        KeyRule::NoPartition { pk }.report(cx.file.at(query.span), diagnostics);
        ok = false;
    }
    if !ok {
        return None;
    }
    Some((partition?, sort))
}

/// The partition key's `=` (`seen`: one came before).
fn partition_condition(
    cx: &Context,
    condition: &ast::Condition,
    seen: bool,
) -> Result<Spanned<Value>, Vec<(Span, KeyRule)>> {
    let key = condition.key.text.to_string();
    match &condition.kind {
        ConditionKind::Compare(CompareOp::Eq, operand) if !seen => Ok((operand.span(), operand_value(cx, operand))),
        ConditionKind::Compare(CompareOp::Eq, _) => Err(vec![(condition.span, KeyRule::PartitionTwice { key })]),
        _ => Err(vec![(condition.span, KeyRule::PartitionNotEqual { key })]),
    }
}

/// The sort key's condition, and what DynamoDB would reject about it.
fn sort_condition(
    cx: &Context,
    access: &KeySchema,
    condition: &ast::Condition,
) -> (Spanned<SortOp>, Vec<(Span, KeyRule)>) {
    let mut rules = Vec::new();
    let is_string = access.sk.as_ref().is_some_and(|s| s.ty == KeyType::String);
    let op = match &condition.kind {
        ConditionKind::Compare(op, v) => {
            let v = operand_value(cx, v);
            match op {
                CompareOp::Eq => SortOp::Eq(v),
                CompareOp::Lt => SortOp::Lt(v),
                CompareOp::Le => SortOp::Le(v),
                CompareOp::Gt => SortOp::Gt(v),
                CompareOp::Ge => SortOp::Ge(v),
            }
        }
        ConditionKind::Between(lo, hi) => SortOp::Between(operand_value(cx, lo), operand_value(cx, hi)),
        ConditionKind::BeginsWith(prefix) => {
            if !is_string {
                let key = condition.key.text.to_string();
                rules.push((condition.span, KeyRule::BeginsWithOnNumber { key }));
            }
            SortOp::BeginsWith(operand_value(cx, prefix))
        }
    };
    let span = match &condition.kind {
        ConditionKind::Compare(_, v) | ConditionKind::BeginsWith(v) => v.span(),
        ConditionKind::Between(lo, hi) => lo.span().cover(hi.span()),
    };
    if let Some(rule) = rejected_at_run_time(&op, is_string) {
        rules.push((span, rule));
    }
    ((span, op), rules)
}

/// A condition on an attribute that is not a key of the access path; with
/// the index it is a key of, if any.
fn not_a_key(cx: &Context, access: &KeySchema, query: &ast::Query, key: &str) -> KeyRule {
    let elsewhere = cx
        .model
        .table(cx.table)
        .access
        .iter()
        .find(|a| a.pk.name == key || a.sk.as_ref().is_some_and(|s| s.name == key));
    KeyRule::NotAKey {
        key: key.to_string(),
        access: access.name.text.to_string(),
        keys: std::iter::once(&access.pk)
            .chain(access.sk.as_ref())
            .map(|k| k.name.clone())
            .collect(),
        table: query.table.text.to_string(),
        index: elsewhere.filter(|a| a.is_index()).map(|a| a.name.text.to_string()),
    }
}

/// What DynamoDB rejects only when the request is made: an empty string
/// as a key value, and a BETWEEN whose lower bound is above its upper one.
fn rejected_at_run_time(op: &SortOp, is_string: bool) -> Option<KeyRule> {
    if op.values().iter().any(|(_, v)| v.constant() == Some("")) {
        return Some(KeyRule::EmptyValue);
    }
    let SortOp::Between(lo, hi) = op else { return None };
    if let (Some(lo), Some(hi)) = (lo.constant(), hi.constant()) {
        let inverted = match (is_string, lo.parse::<f64>(), hi.parse::<f64>()) {
            (false, Ok(a), Ok(b)) => a > b,
            _ => lo > hi,
        };
        return inverted.then(|| KeyRule::InvertedBetween {
            lo: lo.to_string(),
            hi: hi.to_string(),
        });
    }
    if !is_string {
        return None;
    }
    let unpadded = [lo, hi].into_iter().flat_map(|v| &v.parts).find_map(|p| match p {
        ValuePart::Param {
            name,
            shape: Shape::Int { pad: None } | Shape::Decimal,
        } => Some(name),
        _ => None,
    });
    unpadded.map(|name| KeyRule::UnpaddedBetween { name: name.to_string() })
}

/// A pinned query's operand as a value: template holes and names stand for
/// the pattern's known values (a fixed value is its constant).
fn operand_value(cx: &Context, operand: &Operand) -> Value {
    let mut value = Value::default();
    let push_name = |value: &mut Value, name: &str| match cx.knowns.equal.get(name) {
        Some(known) => value.extend(known),
        None => {
            // A range bound: shaped like the attribute it bounds.
            let attr = cx.knowns.range.as_ref().map_or(name, |(attr, _)| attr.as_str());
            value.push_param(name, cx.shape_of(attr));
        }
    };
    match operand {
        Operand::Str(s) => {
            for segment in &s.segments {
                match segment {
                    Segment::Literal { text, .. } => value.push_literal(text),
                    Segment::Hole { name, .. } => push_name(&mut value, &name.text),
                }
            }
        }
        Operand::Number(n, _) => value.push_literal(n),
        Operand::Param(name) => push_name(&mut value, &name.text),
    }
    value
}

/// The operand of a key condition that starts where `span` starts (the
/// lower bound of a `between`).
fn operand_at(query: &ast::Query, span: Span) -> Option<&Operand> {
    query
        .conditions
        .iter()
        .flat_map(|c| match &c.kind {
            ConditionKind::Compare(_, o) | ConditionKind::BeginsWith(o) => vec![o],
            ConditionKind::Between(lo, hi) => vec![lo, hi],
        })
        .find(|o| o.span().start() == span.start())
}

/// A value no item can have: say so, and name the closest prefix that
/// does exist on that key — with the fix that writes it over the literal
/// text the value starts with, when that text is written in `operand`.
fn report_unmatched(
    cx: &Context,
    access: &KeySchema,
    key: &str,
    (span, operand): (Span, Option<&Operand>),
    value: &Value,
    candidates: &[super::ItemRef],
    diagnostics: &mut Vec<Diagnostic>,
) {
    let mut prefixes: Vec<String> = if candidates.is_empty() {
        cx.registry
            .entries(cx.table, key)
            .iter()
            .map(|(p, _)| p.clone())
            .collect()
    } else {
        candidates
            .iter()
            .filter_map(|i| cx.model.entity(i.entity).items[i.item].key(key))
            .map(|kv| kv.template.literal_prefix())
            .collect()
    };
    prefixes.retain(|p| !p.is_empty());
    prefixes.dedup();
    let head = value.literal_head();
    let closest = closest(head, prefixes.iter().map(String::as_str));
    let suggestion = closest.map(|p| format!("; did you mean `{p}`?")).unwrap_or_default();
    // The value's head is the string's first literal, unless a fixed known
    // value follows it and extends it: then the text is not all written here.
    let fix = closest.and_then(|prefix| {
        let Some(Operand::Str(string)) = operand else {
            return None;
        };
        let Some(Segment::Literal { text, span }) = string.segments.first() else {
            return None;
        };
        (text == head).then(|| {
            Fix::replace(
                format!("change `{head}` to `{prefix}`"),
                cx.file.at(*span),
                escape(prefix),
            )
        })
    });
    let within = if access.is_index() {
        format!(" in index `{}`", access.name.text)
    } else {
        String::new()
    };
    diagnostics.push(
        Diagnostic::new(
            Code::UnmatchedValue,
            cx.file.at(span),
            format!("no item{within} has a `{key}` that matches `{value}`{suggestion}"),
        )
        .with_fixes(fix),
    );
}

/// The longest literal prefix the declared entities share on the key the
/// condition tests — the `begins_with` that would not leak — with that key,
/// when it is longer than the condition's value.
fn tighter_prefix(cx: &Context, access: &KeySchema, resolution: &Resolution) -> Option<(String, String)> {
    let key = access.sk.as_ref().unwrap_or(&access.pk).name.as_str();
    let prefixes: Vec<String> = cx
        .returns
        .iter()
        .filter_map(|&e| cx.model.entity(e).items.iter().find_map(|i| i.key(key)))
        .map(|kv| kv.template.literal_prefix())
        .collect();
    let first = prefixes.first()?;
    let mut common = first.clone();
    for p in &prefixes[1..] {
        let n = common.chars().zip(p.chars()).take_while(|(a, b)| a == b).count();
        common = common.chars().take(n).collect();
    }
    let current = resolution
        .sort
        .as_ref()
        .map(|s| s.value().to_string())
        .unwrap_or_default();
    (common.len() > current.len()).then(|| (key.to_string(), common))
}

/// The fix for a condition that leaks into other entities: lengthen a
/// constant `begins_with` prefix to `common`, or add the `begins_with` to a
/// query that has no sort-key condition.
fn narrow_fix(
    file: FileId,
    query: &ast::Query,
    access: &KeySchema,
    sort: Option<&Spanned<SortOp>>,
    key: &str,
    common: &str,
) -> Option<Fix> {
    let sk = access
        .sk
        .as_ref()
        .filter(|sk| sk.name == key && sk.ty == KeyType::String)?;
    let title = format!("narrow to `begins_with({key}, \"{common}\")`");
    match sort {
        Some((span, SortOp::BeginsWith(value))) => {
            let current = value.constant()?;
            let operand = operand_at(query, *span)?;
            (matches!(operand, Operand::Str(_)) && common.starts_with(current))
                .then(|| Fix::replace(title, file.at(operand.span()), format!("\"{}\"", escape(common))))
        }
        Some(_) => None,
        None => {
            let end = query.conditions.iter().map(|c| c.span.end()).max()?;
            let condition = format!(" and begins_with({}, \"{}\")", names::written(&sk.name), escape(common));
            Some(Fix::new(title, vec![(file.at(Span::empty(end)), condition)]))
        }
    }
}
