//! What a pattern's filter means for its resolved Query. DynamoDB applies a
//! FilterExpression after the key condition has read the items, before they
//! are returned (AWS, *Filter expressions for Query*,
//! https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Query.FilterExpression.html):
//!
//! - E232: a filter may not test the Query's own key attributes; DynamoDB
//!   rejects the request.
//! - E233: a filter that no item of a declared entity can pass: the
//!   pattern promises items it never returns.
//! - W231: items of undeclared entities the key condition reads and the
//!   filter removes are paid for (read capacity and the 1 MB page count them)
//!   without being returned.
//! - W232: `limit N` counts the items read before the filter, so a page can
//!   hold fewer than `N` items, or none, while more follow (AWS, *Query*,
//!   "Limiting the number of items in the result set",
//!   https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Query.Other.html#Query.Limit).

use super::{Context, Resolution};
use crate::check::cost;
use crate::check::filter::{self, Keeps};
use crate::check::model::{AccessKind, KeySchema, Pattern, Projection};
use crate::diagnostic::{Code, Diagnostic, Fix};
use crate::syntax::Span;
use crate::syntax::ast::{Filter, KnownKind, Name};
use crate::syntax::template::is_identifier;

/// Reports what the filter does to the resolved Query; `false` when the
/// pattern is wrong (an error was reported).
pub fn check(cx: &Context, pattern: &Pattern, resolution: &Resolution, diagnostics: &mut Vec<Diagnostic>) -> bool {
    let Some(written) = &pattern.filter else { return true };
    let table = cx.model.table(resolution.table);
    let access = resolution.key_schema(cx.model);
    let mut ok = true;
    for attr in written.expr.attributes() {
        let role = if attr.text == access.pk.name {
            "partition key"
        } else if access.sk.as_ref().is_some_and(|sk| sk.name == attr.text) {
            "sort key"
        } else {
            continue;
        };
        let on = if access.is_index() {
            format!("index `{}`", access.name.text)
        } else {
            format!("table `{}`", table.name.text)
        };
        diagnostics.push(
            Diagnostic::new(
                Code::FilterOnKey,
                pattern.at(attr.span),
                format!(
                    "`{}` is the {role} of {on}, which the Query reads: DynamoDB rejects a filter on a key attribute",
                    attr.text
                ),
            )
            .with_related(table.at(access.span), "the key schema the Query uses")
            .with_help("make it a known value of the pattern, so that the key condition selects on it"),
        );
        ok = false;
    }
    if let Some(unprojected) = unprojected(cx, written, access) {
        diagnostics.push(
            Diagnostic::new(
                Code::FilterNotProjected,
                pattern.at(unprojected.span),
                format!(
                    "global index `{}` does not project `{}`: the filter sees index entries only, so it cannot test it",
                    access.name.text, unprojected.text
                ),
            )
            .with_related(table.at(access.span), "the index and its projection")
            .with_help(format!("project it: `include({})`, or `all`", unprojected.text)),
        );
        ok = false;
    }
    // A value of the wrong type was reported when lowering; it is why a
    // declared entity would be removed, so it is not reported twice.
    let typed = filter::mismatches(cx.model, &cx.returns, written).is_empty();
    let keys: Vec<&str> = table.key_attributes().map(|k| k.name.as_str()).collect();
    for &entity_id in &cx.returns {
        let entity = cx.model.entity(entity_id);
        if typed && filter::keeps(cx.model, &cx.returns, entity, &keys, &written.expr) == Keeps::Never {
            diagnostics.push(
                Diagnostic::new(
                    Code::FilterRemovesDeclared,
                    pattern.at(written.span),
                    format!(
                        "the filter removes every `{}` item (from the attributes `{}` declares), but `{}` returns `{}`",
                        entity.name.text, entity.name.text, pattern.name.text, entity.name.text
                    ),
                )
                .with_related(entity.at(entity.name.span), "declared here")
                .with_help(
                    "test attributes the entity has, with values of their types, or drop the entity from the returns",
                ),
            );
            ok = false;
        }
    }
    if !ok {
        return false;
    }
    if !resolution.filtered_out.is_empty() {
        let (reader, help) = match resolution.read {
            super::Read::Scan { .. } => (
                "Scan",
                "scan a sparse index that only the declared entities write, or read them with a Query on a key",
            ),
            _ => (
                "key condition",
                "give the declared entities a key prefix of their own (a type tag in the sort key), so the key condition reads only them",
            ),
        };
        let read: Vec<String> = resolution
            .filtered_out
            .iter()
            .map(|&e| {
                let entity = cx.model.entity(e);
                let size = cost::entity_sizes(cx.model, e)
                    .iter()
                    .map(|s| s.size.bytes)
                    .fold(0.0, f64::max);
                format!("`{}` items (about {} each)", entity.name.text, cost::format_bytes(size))
            })
            .collect();
        let mut diagnostic = Diagnostic::new(
            Code::FilteredEntities,
            pattern.at(pattern.name.span),
            format!(
                "the {reader} of `{}` also reads {}, which the filter removes: they are read, paid for and counted in the 1 MB page, never returned",
                pattern.name.text,
                read.join(", ")
            ),
        )
        .with_help(help);
        for &e in &resolution.filtered_out {
            let entity = cx.model.entity(e);
            diagnostic = diagnostic.with_related(entity.at(entity.name.span), "read, then removed by the filter");
        }
        diagnostics.push(diagnostic);
    }
    if let Some(limit) = pattern.limit {
        diagnostics.push(
            Diagnostic::new(
                Code::LimitBeforeFilter,
                pattern.at(written.span),
                format!(
                    "`limit {limit}` counts the items the Query reads before the filter: a page can hold fewer than {limit} items, even none, while more follow"
                ),
            )
            .with_help("keep reading pages (LastEvaluatedKey) until there are enough items, or make the filtered attribute part of the key"),
        );
    }
    true
}

/// The first attribute the filter tests that a global index read without
/// it does not project: a GSI Query reads index entries only, and cannot
/// fetch other attributes from the table (a local index can, at a cost).
fn unprojected<'f>(cx: &Context, filter: &'f Filter, access: &KeySchema) -> Option<&'f Name> {
    if access.kind != AccessKind::Gsi {
        return None;
    }
    let table = cx.model.table(cx.table);
    let listed: &[String] = match &access.projection {
        Projection::All => return None,
        Projection::KeysOnly => &[],
        Projection::Include(names) => names,
    };
    let projected = |name: &str| {
        listed.iter().any(|n| n == name)
            || table
                .base()
                .into_iter()
                .chain([access])
                .any(|k| k.pk.name == name || k.sk.as_ref().is_some_and(|sk| sk.name == name))
    };
    filter.expr.attributes().into_iter().find(|a| !projected(&a.text))
}

/// A known value that no key selects on can be tested by a filter instead:
/// the Query then reads every item the other known values select and the
/// filter returns those with the caller's value (paying for the others).
/// The help, and a fix that moves the known value into the filter; `None`
/// for a `between`, which filters do not write.
pub fn known_as_filter(cx: &Context, pattern: &Pattern, attr: &str) -> Option<(String, Option<Fix>)> {
    let index = pattern.known.iter().position(|k| k.attr.text == attr)?;
    let known = &pattern.known[index];
    let text = crate::check::text_of(cx.sources, pattern.file);
    let source = |span: Span| text.get(span.range()).unwrap_or_default();
    let name = source(known.attr.span);
    let condition = match &known.kind {
        KnownKind::Equal => format!("{name} = {}", known.attr.text),
        KnownKind::Fixed(literal) => format!("{name} = {}", source(literal.span())),
        KnownKind::Compare(op, bound) => format!("{name} {} {}", op.as_str(), bound.text),
        KnownKind::BeginsWith(prefix) => format!("begins_with({name}, {})", prefix.text),
        KnownKind::Between(..) => return None,
    };
    let help = format!(
        "or filter on it: drop `{}` from the known values and add `where {condition}` (the Query then reads the items of every `{attr}` and pays for them; the filter returns the caller's)",
        source(known.span)
    );
    if !is_identifier(&known.attr.text) && matches!(known.kind, KnownKind::Equal) {
        // `"State#Date" = State#Date` would not name a caller's value.
        return Some((help, None));
    }
    // The known value with the comma that joins it to its neighbour.
    let removed = match (
        index.checked_sub(1).map(|i| &pattern.known[i]),
        pattern.known.get(index + 1),
    ) {
        (Some(previous), _) => Span::new(previous.span.end(), known.span.end()),
        (None, Some(next)) => Span::new(known.span.start(), next.span.start()),
        (None, None) => known.span,
    };
    let mut edits = vec![(pattern.at(removed), String::new())];
    edits.extend(
        filter::add_conjunct(pattern.filter.as_deref(), pattern.modifiers_end, &condition)
            .into_iter()
            .map(|(span, text)| (pattern.at(span), text)),
    );
    let fix = Fix::new(format!("filter on `{attr}` instead: `{condition}`"), edits);
    Some((help, Some(fix)))
}
