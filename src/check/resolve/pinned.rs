//! A pattern with a pinned `= query ...`: check it against DynamoDB's rules
//! for key conditions, then check what it really matches: a value no item
//! can have (a `USERS#` typo), entities it returns that the pattern does not
//! declare (`begins_with(sk, "USER")` also reading `UserGroup`), and
//! declared entities it never returns.

use std::collections::BTreeSet;

use super::condition::SortOp;
use super::{Context, Resolution, exact, matching_items, warn_not_unique};
use crate::check::lang::Shape;
use crate::check::model::{AccessId, AccessKind, EntityId, KeySchema, Pattern};
use crate::check::suggest::{closest, escape};
use crate::check::value::{Value, ValuePart};
use crate::diagnostic::{Code, Diagnostic, Fix};
use crate::syntax::ast::{self, CompareOp, ConditionKind, KeyType, Operand, Segment};
use crate::syntax::{FileId, Span};

pub fn verify(
    cx: &Context,
    pattern: &Pattern,
    query: &ast::Query,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Resolution> {
    let table_id = cx.model.table_named(&query.table.text)?; // unknown: reported when lowering
    let table = cx.model.table(table_id);
    if table_id != cx.table {
        diagnostics.push(Diagnostic::new(
            Code::MixedTables,
            cx.file.at(query.table.span),
            format!(
                "the query reads `{}`, but the entities it returns live in `{}`",
                table.name.text,
                cx.model.table(cx.table).name.text
            ),
        ));
        return None;
    }
    let access_id = match &query.index {
        None => AccessId::BASE,
        Some(index) => table.index_id(&index.text)?,
    };
    let access = table.access(access_id);
    let (partition, sort) = key_conditions(cx, access, query, diagnostics)?;

    let mut ok = true;
    if let Some(span) = pattern.consistent
        && access.kind == AccessKind::Gsi
    {
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
        ok = false;
    }

    let resolution = Resolution {
        table: table_id,
        access: access_id,
        partition: partition.1.clone(),
        sort: sort.as_ref().map(|s| s.1.clone()),
        descending: pattern.order.as_ref().is_some_and(|o| o.descending),
        consistent: pattern.consistent.is_some(),
        limit: pattern.limit,
        returns: cx.returns.clone(),
        relies_on: vec![cx.model.table(table_id).at(access.span)],
        pinned: true,
    };
    let items = matching_items(cx.model, cx.registry, &resolution);
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
        && let Some((span, value)) = &sort
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

    let matched: BTreeSet<EntityId> = items.iter().map(|i| i.entity).collect();
    let condition_span = sort.as_ref().map_or(partition.0, |s| s.0);
    let extra: Vec<_> = items.iter().filter(|i| !cx.returns.contains(&i.entity)).collect();
    if !extra.is_empty() {
        let names: BTreeSet<&str> = extra
            .iter()
            .map(|i| cx.model.entity(i.entity).name.text.as_str())
            .collect();
        let names: Vec<String> = names.into_iter().map(|n| format!("`{n}`")).collect();
        let mut diagnostic = Diagnostic::new(
            Code::ExtraEntities,
            cx.file.at(condition_span),
            format!(
                "this condition also returns {}, which `{}` does not declare",
                names.join(", "),
                pattern.name.text
            ),
        );
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
        let help = match tighter_prefix(cx, access, &resolution) {
            Some((key, common)) => {
                let fix = narrow_fix(cx.file, query, access, sort.as_ref(), &key, &common);
                diagnostic = diagnostic.with_fixes(fix);
                format!("narrow it to what the declared entities share: `begins_with({key}, \"{common}\")`")
            }
            None => "declare the extra entities in the pattern's returns, or change their key templates".into(),
        };
        diagnostics.push(diagnostic.with_help(help));
        ok = false;
    }
    let missing: Vec<&str> = cx
        .returns
        .iter()
        .filter(|e| !matched.contains(e))
        .map(|&e| cx.model.entity(e).name.text.as_str())
        .collect();
    if !missing.is_empty() && ok {
        diagnostics.push(Diagnostic::new(
            Code::MissingEntities,
            cx.file.at(condition_span),
            format!(
                "this query never returns {}, which `{}` declares",
                missing.join(", "),
                pattern.name.text
            ),
        ));
        ok = false;
    }
    if !ok {
        return None;
    }
    match exact::check_matched(cx, pattern, &resolution, items.clone()) {
        Ok(caveats) => warn_not_unique(cx, pattern, &resolution, &caveats.not_unique, diagnostics),
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
    }
    let mut resolution = resolution;
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
    Some(resolution)
}

/// The pinned Query exactly as written, without checking what it matches:
/// `dyno verify` runs it even when the checker flags it, to show the leak
/// for real. `None` when DynamoDB would reject it (or a name is unknown).
pub fn as_written(cx: &Context, pattern: &Pattern, query: &ast::Query) -> Option<Resolution> {
    let table_id = cx.model.table_named(&query.table.text)?;
    let table = cx.model.table(table_id);
    let access_id = match &query.index {
        None => AccessId::BASE,
        Some(index) => table.index_id(&index.text)?,
    };
    let access = table.access(access_id);
    let (partition, sort) = key_conditions(cx, access, query, &mut Vec::new())?;
    Some(Resolution {
        table: table_id,
        access: access_id,
        partition: partition.1,
        sort: sort.map(|s| s.1),
        descending: pattern.order.as_ref().is_some_and(|o| o.descending),
        consistent: pattern.consistent.is_some(),
        limit: pattern.limit,
        returns: cx.returns.clone(),
        relies_on: vec![cx.model.table(table_id).at(access.span)],
        pinned: true,
    })
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
    let mut reject = |span: Span, message: String, help: Option<String>| {
        let mut diagnostic = Diagnostic::new(Code::KeyConditionRule, cx.file.at(span), message);
        if let Some(help) = help {
            diagnostic = diagnostic.with_help(help);
        }
        diagnostics.push(diagnostic);
    };
    for condition in &query.conditions {
        let key = condition.key.text.as_str();
        if key == access.pk.name {
            match &condition.kind {
                ConditionKind::Compare(CompareOp::Eq, operand) if partition.is_none() => {
                    partition = Some((operand.span(), operand_value(cx, operand)));
                }
                ConditionKind::Compare(CompareOp::Eq, _) => {
                    reject(
                        condition.span,
                        format!("`{key}` is compared twice: a Query has one partition key value"),
                        None,
                    );
                    ok = false;
                }
                _ => {
                    reject(
                        condition.span,
                        format!("the partition key `{key}` takes only `=`: a Query reads one partition"),
                        None,
                    );
                    ok = false;
                }
            }
        } else if access.sk.as_ref().is_some_and(|s| s.name == key) {
            if sort.is_some() {
                reject(
                    condition.span,
                    "a Query has at most one sort-key condition".into(),
                    Some("combine them with `between`".into()),
                );
                ok = false;
                continue;
            }
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
                        reject(
                            condition.span,
                            format!("`begins_with` works on string keys, and `{key}` is a number"),
                            Some("compare with `between` instead".into()),
                        );
                        ok = false;
                    }
                    SortOp::BeginsWith(operand_value(cx, prefix))
                }
            };
            let span = match &condition.kind {
                ConditionKind::Compare(_, v) | ConditionKind::BeginsWith(v) => v.span(),
                ConditionKind::Between(lo, hi) => lo.span().cover(hi.span()),
            };
            if let Some(message) = rejected_at_run_time(&op, is_string) {
                reject(span, message, None);
                ok = false;
            }
            sort = Some((span, op));
        } else {
            let elsewhere = cx
                .model
                .table(cx.table)
                .access
                .iter()
                .find(|a| a.pk.name == key || a.sk.as_ref().is_some_and(|s| s.name == key));
            let help = elsewhere.filter(|a| a.is_index()).map(|a| {
                format!(
                    "`{key}` is a key of index `{}`: query `{}.{}`",
                    a.name.text, query.table.text, a.name.text
                )
            });
            let keys = std::iter::once(access.pk.name.as_str())
                .chain(access.sk.as_ref().map(|s| s.name.as_str()))
                .collect::<Vec<_>>()
                .join("` and `");
            reject(
                condition.key.span,
                format!(
                    "`{key}` is not a key of `{}`: a key condition uses only `{keys}`",
                    access.name.text
                ),
                help,
            );
            ok = false;
        }
    }
    if partition.is_none() && ok {
        reject(
            query.span,
            format!("a Query needs `{} = ...`: without it, this is a Scan", access.pk.name),
            None,
        );
        ok = false;
    }
    if !ok {
        return None;
    }
    Some((partition?, sort))
}

/// What DynamoDB rejects only when the request is made: an empty string
/// as a key value, and a BETWEEN whose lower bound is above its upper one.
fn rejected_at_run_time(op: &SortOp, is_string: bool) -> Option<String> {
    if op.values().iter().any(|(_, v)| v.constant() == Some("")) {
        return Some("DynamoDB rejects an empty string as a key condition value".into());
    }
    let SortOp::Between(lo, hi) = op else { return None };
    if let (Some(lo), Some(hi)) = (lo.constant(), hi.constant()) {
        let inverted = match (is_string, lo.parse::<f64>(), hi.parse::<f64>()) {
            (false, Ok(a), Ok(b)) => a > b,
            _ => lo > hi,
        };
        return inverted.then(|| {
            format!("the lower bound `{lo}` sorts after the upper bound `{hi}`: DynamoDB rejects this BETWEEN")
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
    unpadded.map(|name| {
        format!(
            "`{name}` is an unpadded number: `9` to `10` comes out inverted in byte order (`9` > `10`), and DynamoDB rejects a BETWEEN whose lower bound sorts after its upper bound; use `int(pad N)`"
        )
    })
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
        .find(|o| o.span().start == span.start)
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
            let end = query.conditions.iter().map(|c| c.span.end).max()?;
            let condition = format!(" and begins_with({}, \"{}\")", sk.name, escape(common));
            Some(Fix::new(title, vec![(file.at(Span::empty(end)), condition)]))
        }
    }
}
