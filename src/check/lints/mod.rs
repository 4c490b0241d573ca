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
pub use order::Dependent;
mod overwrite;
mod tags;
mod ttl;
mod unused;

#[cfg(test)]
mod tests;

use super::model::{Entity, EntityId, KeyValue, Model, TableId};
use super::resolve::Resolution;
use super::resolve::registry::{ItemRef, Registry};
use crate::diagnostic::Diagnostic;

/// Runs every registry lint; pure over the analysed schema.
pub fn lint(model: &Model, registry: &Registry, resolutions: &[Option<Resolution>], diagnostics: &mut Vec<Diagnostic>) {
    let findings = model_lints(model, registry, 1, Vec::new());
    let orders = orders(model, resolutions, Vec::new());
    lint_with(model, registry, resolutions, &findings, &orders, diagnostics);
}

/// Per pattern, the holes its Query relies on for an order they do not
/// have (W303): `kept` where an earlier check's still hold.
pub fn orders(
    model: &Model,
    resolutions: &[Option<Resolution>],
    mut kept: Vec<Option<Vec<Dependent>>>,
) -> Vec<Vec<Dependent>> {
    kept.resize(model.patterns.len(), None);
    (model.patterns.iter().zip(resolutions).zip(kept))
        .map(|((pattern, resolution), kept)| {
            kept.unwrap_or_else(|| order::dependents(model, pattern, resolution.as_ref()))
        })
        .collect()
}

/// What the lints that read the model alone found: they need no pattern's
/// Query, so they can run while the patterns resolve. Most of their work
/// reads one table (its declaration, the entities on it, their registry
/// buckets), and is kept per table: after an edit, a table no touched
/// entity was or is on has the same findings, moved (`check::incremental`).
#[derive(Clone, Debug, Default)]
pub struct ModelFindings {
    /// Per table.
    pub tables: Vec<TableFindings>,
    /// The lints that read the patterns or every entity (after the tables').
    whole: Vec<Diagnostic>,
}

/// One table's findings, in the two places of the lints' order that the
/// model lints take (before and after the unsorted-values lint).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TableFindings {
    pub before_order: Vec<Diagnostic>,
    pub after_order: Vec<Diagnostic>,
}

impl TableFindings {
    pub fn diagnostics_mut(&mut self) -> impl Iterator<Item = &mut Diagnostic> {
        self.before_order.iter_mut().chain(&mut self.after_order)
    }
}

/// In two halves of about equal work, at once when `threads` > 1: after an
/// edit few patterns are left to resolve, and the check waits for these.
/// `kept` holds, per table, findings of an earlier check that still hold
/// (`None`, or no entry: that table's lints run).
pub fn model_lints(
    model: &Model,
    registry: &Registry,
    threads: usize,
    mut kept: Vec<Option<TableFindings>>,
) -> ModelFindings {
    kept.resize(model.tables.len(), None);
    let mut on_table: Vec<Vec<EntityId>> = vec![Vec::new(); model.tables.len()];
    for (id, entity) in model.entities.iter().enumerate() {
        if let Some(table) = entity.table.filter(|t| kept[t.index()].is_none()) {
            on_table[table.index()].push(EntityId::new(id));
        }
    }
    let to_lint: Vec<TableId> = (0..model.tables.len())
        .filter(|&t| kept[t].is_none())
        .map(TableId::new)
        .collect();
    let (first, (second, whole)) = crate::parallel::join(
        threads,
        || {
            let lint_table = |&table: &TableId| {
                let (mut before_order, mut after_order) = (Vec::new(), Vec::new());
                let entities = &on_table[table.index()];
                tags::type_tag_prefixes(model, registry, table, &mut before_order);
                tags::mixed_delimiters(model, entities, &mut before_order);
                limits::key_lengths(model, entities, &mut after_order);
                (before_order, after_order)
            };
            to_lint.iter().map(lint_table).collect::<Vec<_>>()
        },
        || {
            let overwrites = (to_lint.iter())
                .map(|&table| {
                    let mut found = Vec::new();
                    overwrite::overwrites(model, registry, table, &mut found);
                    found
                })
                .collect::<Vec<_>>();
            let mut whole = Vec::new();
            ttl::ttl_types(model, &mut whole);
            ttl::expired_reads(model, &mut whole);
            bounds::coarse_bounds(model, &mut whole);
            unused::unused_entities(model, &mut whole);
            hot::hot_writes(model, &mut whole);
            (overwrites, whole)
        },
    );
    // Per table, the first half's findings and then the second's: the
    // order of one thread.
    let mut linted = first.into_iter().zip(second);
    let tables = kept
        .into_iter()
        .map(|kept| {
            kept.unwrap_or_else(|| {
                let ((mut before_order, after_order), overwrites) = linted.next().expect("one per table linted");
                before_order.extend(overwrites);
                TableFindings {
                    before_order,
                    after_order,
                }
            })
        })
        .collect();
    ModelFindings { tables, whole }
}

/// The lints that read the resolutions, with the model lints' findings, in
/// one fixed order (diagnostics at the same span keep it).
pub fn lint_with(
    model: &Model,
    registry: &Registry,
    resolutions: &[Option<Resolution>],
    findings: &ModelFindings,
    orders: &[Vec<Dependent>],
    diagnostics: &mut Vec<Diagnostic>,
) {
    diagnostics.extend(findings.tables.iter().flat_map(|t| &t.before_order).cloned());
    order::unsorted_values(model, orders, diagnostics);
    diagnostics.extend(findings.tables.iter().flat_map(|t| &t.after_order).cloned());
    diagnostics.extend(findings.whole.iter().cloned());
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
