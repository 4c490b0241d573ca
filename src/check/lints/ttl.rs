//! E117 / H201: Time to Live. DynamoDB deletes an item once the number of
//! epoch seconds in the table's TTL attribute is in the past, and ignores
//! the attribute on an item where it is not a Number; it deletes in the
//! background, so expired items are still read until then (docs/language.md,
//! "Time to Live").

use crate::check::filter;
use crate::check::model::{AttrType, EpochUnit, Model};
use crate::diagnostic::{Code, Diagnostic, Fix};
use crate::syntax::names::written;

/// E117: every entity of a table with `ttl` that declares the attribute
/// declares it as a number; and the attribute is not a key attribute.
pub fn ttl_types(model: &Model, diagnostics: &mut Vec<Diagnostic>) {
    for table in &model.tables {
        let Some(ttl) = &table.ttl else { continue };
        if table.is_key_attribute(&ttl.text) {
            // A key is built from a template (a string, or a number that a
            // whole template writes): an item that expires through its key
            // is one whose identity is a date, which is never what is meant.
            diagnostics.push(
                Diagnostic::new(
                    Code::TtlNotANumber,
                    table.at(ttl.span),
                    format!(
                        "the ttl attribute `{}` is a key attribute of `{}`",
                        ttl.text, table.name.text
                    ),
                )
                .with_help("keep the expiry in an attribute of its own, declared `int` (epoch seconds)"),
            );
        }
    }
    for entity in &model.entities {
        let Some(table) = entity.table.map(|t| model.table(t)) else {
            continue;
        };
        let Some(ttl) = &table.ttl else { continue };
        if table.is_key_attribute(&ttl.text) {
            continue;
        }
        let Some(attribute) = entity.attribute(&ttl.text) else {
            continue;
        };
        if matches!(
            attribute.ty,
            AttrType::Int { .. } | AttrType::Decimal | AttrType::Epoch(EpochUnit::Seconds)
        ) {
            continue;
        }
        // What is wrong, and the type that says what to store instead.
        let (why, help, fix) = match &attribute.ty {
            // A Number, but TTL reads "the number of seconds elapsed since"
            // 1970 (AWS, UpdateTimeToLive): a count of milliseconds is
            // always later than now.
            AttrType::Epoch(EpochUnit::Millis) => (
                "it holds milliseconds: DynamoDB reads epoch seconds, so the value is always in the future and \
                 the item never expires"
                    .to_string(),
                "store the expiry in epoch seconds, declared `epoch`",
                Some(("store seconds: change to `epoch`", "epoch")),
            ),
            other => (
                format!(
                    "`{}` is not stored as a Number: DynamoDB ignores it and the item never expires",
                    other.name()
                ),
                "declare it `int` and store the expiry time in epoch seconds",
                // A time written as text has an obvious number: its epoch seconds.
                matches!(other, AttrType::Date | AttrType::DateTime(_))
                    .then_some(("change to `int` (epoch seconds)", "int")),
            ),
        };
        let mut diagnostic = Diagnostic::new(
            Code::TtlNotANumber,
            entity.at(attribute.ty_span),
            format!(
                "`{}.{}` is the ttl attribute of `{}`, but {why}",
                entity.name.text, attribute.name.text, table.name.text
            ),
        )
        .with_related(table.at(ttl.span), "the ttl attribute is declared here")
        .with_help(help);
        if let Some((title, ty)) = fix {
            diagnostic = diagnostic.with_fix(Fix::replace(title, entity.at(attribute.ty_span), ty));
        }
        diagnostics.push(diagnostic);
    }
}

/// H201: a pattern that returns an entity declaring its table's ttl
/// attribute can return items that have expired but are not deleted yet.
pub fn expired_reads(model: &Model, diagnostics: &mut Vec<Diagnostic>) {
    for pattern in &model.patterns {
        let expiring: Vec<_> = pattern
            .returns
            .iter()
            .filter_map(|r| {
                let entity = model.entity(r.entity?);
                let ttl = model.table(entity.table?).ttl.as_ref()?;
                entity.attribute(&ttl.text).map(|_| (r, entity, ttl))
            })
            .collect();
        let Some((first, _, ttl)) = expiring.first() else {
            continue;
        };
        if pattern
            .filter
            .as_ref()
            .is_some_and(|f| filter::excludes_expired(f, &ttl.text))
        {
            continue;
        }
        // An item without the attribute never expires: a returned entity
        // that may lack it keeps such items.
        let always_set = pattern.returns.iter().all(|r| {
            r.entity
                .and_then(|e| model.entity(e).attribute(&ttl.text))
                .is_some_and(|a| !a.optional)
        });
        let name = written(&ttl.text);
        let condition = if always_set {
            format!("{name} > now")
        } else {
            format!("(attribute_not_exists({name}) or {name} > now)")
        };
        let edits = filter::add_conjunct(pattern.filter.as_deref(), pattern.modifiers_end, &condition)
            .into_iter()
            .map(|(span, text)| (pattern.at(span), text))
            .collect();
        let names: Vec<_> = expiring.iter().map(|(_, e, _)| format!("`{}`", e.name.text)).collect();
        diagnostics.push(
            Diagnostic::new(
                Code::ExpiredItemsRead,
                pattern.at(first.name.span),
                format!(
                    "{} can expire (`{}`): DynamoDB deletes expired items in the background, \
                     typically within a few days, and until then this pattern still returns them",
                    names.join(", "),
                    ttl.text
                ),
            )
            .with_help(format!(
                "filter them out: `where {condition}`, with the current time in epoch seconds as `now` (or skip them in the application)"
            ))
            .with_fix(Fix::new(format!("filter out expired items: `{condition}`"), edits)),
        );
    }
}
