//! Registry lints: checks over every key template of the schema, independent
//! of any one pattern's Query (docs/language.md, "What the checker proves",
//! item 3).
//!
//! | code | severity | what |
//! |------|----------|------|
//! | W301 | warning | a type tag that is a proper prefix of another on the same sort key |
//! | E301 | error   | two item shapes that can write the same primary key (overwrite) |
//! | W302 | warning | a template literal with a delimiter other than the table's |
//! | W303 | warning | an unpadded `int` or a date typed `string` that a pattern orders or ranges by |
//! | W304 | warning | a partition key value that takes more writes or reads than one partition serves |
//! | E302 | error   | a key value that can exceed DynamoDB's length limit |
//! | E117 | error   | a table's ttl attribute that is not a number (or is a key) |
//! | W203 | warning | a `date` bound on a `datetime` range that cuts its day at midnight |
//! | H201 | hint    | a pattern that can return expired items |
//! | H301 | hint    | an entity no pattern returns |
//! | H302 | hint    | an index no pattern uses |
//!
//! These run on every keystroke, on schemas of thousands of entities, so none
//! compares all pairs of entities: templates are bucketed by key attribute and
//! sorted by their leading literal, and only templates whose leading literals
//! are compatible (one a prefix of the other) are ever compared — by a forward
//! scan over the sorted run, which visits exactly the compatible pairs.

mod bounds;
mod correlated;
pub(crate) mod hot;
mod limits;
mod order;
mod overwrite;
mod tags;
mod ttl;
mod unused;

#[cfg(test)]
mod tests;

use super::model::{Entity, KeyValue, Model};
use super::resolve::Resolution;
use super::resolve::registry::{ItemRef, Registry};
use crate::diagnostic::Diagnostic;

/// Runs every registry lint; pure over the analysed schema.
pub fn lint(model: &Model, registry: &Registry, resolutions: &[Option<Resolution>], diagnostics: &mut Vec<Diagnostic>) {
    let findings = model_lints(model, registry, 1);
    lint_with(model, registry, resolutions, findings, diagnostics);
}

/// What the lints that read the model alone found: they need no pattern's
/// Query, so they can run while the patterns resolve.
pub struct ModelFindings {
    before_order: Vec<Diagnostic>,
    after_order: Vec<Diagnostic>,
}

/// In two halves of about equal work, at once when `threads` > 1: after an
/// edit few patterns are left to resolve, and the check waits for these.
pub fn model_lints(model: &Model, registry: &Registry, threads: usize) -> ModelFindings {
    let (first, second) = crate::parallel::join(
        threads,
        || {
            let (mut before_order, mut after_order) = (Vec::new(), Vec::new());
            tags::type_tag_prefixes(model, registry, &mut before_order);
            tags::mixed_delimiters(model, &mut before_order);
            limits::key_lengths(model, &mut after_order);
            (before_order, after_order)
        },
        || {
            let (mut before_order, mut after_order) = (Vec::new(), Vec::new());
            overwrite::overwrites(model, registry, &mut before_order);
            ttl::ttl_types(model, &mut after_order);
            ttl::expired_reads(model, &mut after_order);
            bounds::coarse_bounds(model, &mut after_order);
            unused::unused_entities(model, &mut after_order);
            hot::hot_writes(model, &mut after_order);
            (before_order, after_order)
        },
    );
    // Each half's findings after the first's: the order of one thread.
    let ((mut before_order, mut after_order), (before, after)) = (first, second);
    before_order.extend(before);
    after_order.extend(after);
    ModelFindings {
        before_order,
        after_order,
    }
}

/// The lints that read the resolutions, with the model lints' findings, in
/// one fixed order (diagnostics at the same span keep it).
pub fn lint_with(
    model: &Model,
    registry: &Registry,
    resolutions: &[Option<Resolution>],
    findings: ModelFindings,
    diagnostics: &mut Vec<Diagnostic>,
) {
    diagnostics.extend(findings.before_order);
    order::unsorted_values(model, resolutions, diagnostics);
    diagnostics.extend(findings.after_order);
    unused::unused_indexes(model, resolutions, diagnostics);
    hot::hot_reads(model, registry, resolutions, diagnostics);
}

/// The key value an item writes for `attr`.
fn key_of<'m>(model: &'m Model, item: ItemRef, attr: &str) -> Option<&'m KeyValue> {
    model.entity(item.entity).items[item.item].key(attr)
}

/// `` `User` `` for a one-item entity, `` `Membership` (item 2) `` otherwise.
fn describe_item(entity: &Entity, item: usize) -> String {
    if entity.items.len() > 1 {
        format!("`{}` (item {})", entity.name.text, item + 1)
    } else {
        format!("`{}`", entity.name.text)
    }
}

/// Long literal text cut for a message: `BANNER#Welcome to…`.
fn shorten(text: &str) -> String {
    const MAX: usize = 32;
    match text.char_indices().nth(MAX) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}
