//! Entities: their table, their item shapes' key templates and their
//! attributes. A key's text is what DynamoDB stores, so any change to it —
//! a literal, a hole, the order of holes, a hole's formatting (`int` →
//! `int(pad 6)`) — leaves the items already written under the old text
//! where the new Queries do not look.

use super::pairing::{Attributes, Pairing};
use super::{Affected, At, Change, Class, Version, quote};
use crate::check::lang::Shape;
use crate::check::model::{AccessKind, Entity, EntityId, ItemShape, KeyValue, Model, Part, Table};

mod keys;
mod members;

pub fn compare(old: Version<'_>, new: Version<'_>, pairing: &Pairing, out: &mut Vec<Change>) {
    let (old_model, new_model) = (&old.schema.model, &new.schema.model);
    for &(old_id, new_id) in &pairing.entities {
        let (a, b) = (old_model.entity(old_id), new_model.entity(new_id));
        let subject = format!("entity `{}`", b.name.text);
        let attributes = Attributes::new(a, b);
        let (old_table, new_table) = (table_of(old_model, a), table_of(new_model, b));
        let pair = Pair {
            old,
            new,
            old_id,
            a,
            b,
            attributes: &attributes,
            subject: &subject,
        };
        if a.name.text != b.name.text {
            out.push(
                Change::new(
                    Class::Rename,
                    &subject,
                    At::New(b.at(b.name.span)),
                    format!(
                        "entity `{}` is renamed `{}` (recognised as a rename: same table and attributes); entity names are not stored in items",
                        a.name.text, b.name.text
                    ),
                )
                .was(a.at(a.name.span)),
            );
        }
        match (old_table, new_table) {
            (Some(t), Some(u)) if t.name.text != u.name.text => out.push(
                Change::new(
                    Class::Migration,
                    &subject,
                    At::New(b.at(b.span)),
                    format!(
                        "`{}` moves from table `{}` to table `{}`: its items are still in `{}`",
                        b.name.text, t.name.text, u.name.text, t.name.text
                    ),
                )
                .was(a.at(a.name.span))
                .affecting(pair.affected(0))
                .steps(keys::migration_steps(&pair.affected(0), None, &u.name.text)),
            ),
            (Some(_), Some(table)) => keys::compare_shapes(&pair, table, out),
            _ => {}
        }
        members::compare(&pair, out);
    }
    for &new_id in &pairing.added {
        added(old, new, pairing, new_id, out);
    }
    for &old_id in &pairing.removed {
        let a = old_model.entity(old_id);
        let table = table_of(old_model, a).map_or(String::new(), |t| t.name.text.to_string());
        for shape in 0..a.items.len() {
            let affected = affected(old_model, old_id, shape, &table);
            out.push(
                Change::new(
                    Class::Migration,
                    format!("entity `{}`", a.name.text),
                    At::Old(a.at(a.items[shape].span)),
                    format!(
                        "entity `{}` is gone from the schema: its items stay in the table, read by nothing",
                        a.name.text
                    ),
                )
                .steps(vec![
                    format!("find the items by their old keys ({})", keys::templates(&affected.keys)),
                    "delete them (or keep them, knowing no pattern reads them)".to_string(),
                ])
                .affecting(affected),
            );
        }
    }
}

/// One entity in both versions.
pub(super) struct Pair<'a> {
    pub old: Version<'a>,
    pub new: Version<'a>,
    pub old_id: EntityId,
    pub a: &'a Entity,
    pub b: &'a Entity,
    pub attributes: &'a Attributes,
    pub subject: &'a str,
}

impl Pair<'_> {
    fn affected(&self, shape: usize) -> Affected {
        let table = table_of(&self.old.schema.model, self.a).map_or(String::new(), |t| t.name.text.to_string());
        affected(&self.old.schema.model, self.old_id, shape, &table)
    }

    /// How an attribute's type is written in the old file.
    fn old_type(&self, attr: usize) -> &str {
        quote(&self.old, self.a.at(self.a.attributes[attr].ty_span))
    }

    fn new_type(&self, attr: usize) -> &str {
        quote(&self.new, self.b.at(self.b.attributes[attr].ty_span))
    }
}

fn affected(model: &Model, entity: EntityId, shape: usize, table: &str) -> Affected {
    let keys = model.entity(entity).items.get(shape).map_or(Vec::new(), |item| {
        item.keys
            .iter()
            .filter(|k| !k.implicit)
            .map(|k| (k.attr.to_string(), k.template.text()))
            .collect()
    });
    Affected {
        entity,
        shape,
        name: model.entity(entity).name.text.to_string(),
        table: table.to_string(),
        keys,
    }
}

fn table_of<'m>(model: &'m Model, entity: &Entity) -> Option<&'m Table> {
    entity.table.map(|t| model.table(t))
}

/// A new entity whose keys an old item can have: the old item would be
/// read as one of the new entity's. Old items whose templates the new
/// schema still writes are the checker's business (E301), not the diff's.
fn added(old: Version<'_>, new: Version<'_>, pairing: &Pairing, new_id: EntityId, out: &mut Vec<Change>) {
    let (old_model, new_model) = (&old.schema.model, &new.schema.model);
    let b = new_model.entity(new_id);
    let subject = format!("entity `{}`", b.name.text);
    let Some(table) = table_of(new_model, b) else { return };
    let Some(base) = table.base() else { return };
    let base_keys: Vec<&str> = base.key_attributes().map(|k| k.name.as_str()).collect();
    for (old_id, a) in old_model.entity_ids() {
        if table_of(old_model, a).is_none_or(|t| t.name.text != table.name.text) {
            continue;
        }
        let still_written = |shape: &ItemShape| {
            pairing.new_of(old_id).is_some_and(|n| {
                new_model
                    .entity(n)
                    .items
                    .iter()
                    .any(|s| base_keys.iter().all(|k| key_text(shape.key(k)) == key_text(s.key(k))))
            })
        };
        for (shape_index, shape) in a.items.iter().enumerate() {
            if still_written(shape) {
                continue;
            }
            let collides = b.items.iter().any(|item| {
                base_keys.iter().all(|k| match (shape.key(k), item.key(k)) {
                    (Some(x), Some(y)) => x.template.lang.overlaps(&y.template.lang),
                    _ => false,
                })
            });
            if collides {
                let affected = affected(old_model, old_id, shape_index, &table.name.text);
                out.push(
                    Change::new(
                        Class::Migration,
                        &subject,
                        At::New(b.at(b.name.span)),
                        format!(
                            "new entity `{}` can have the keys of existing `{}` items ({}): they would be read as `{}`",
                            b.name.text,
                            a.name.text,
                            keys::templates(&affected.keys),
                            b.name.text
                        ),
                    )
                    .steps(vec![
                        "delete or rewrite the old items first".to_string(),
                        format!("or give `{}` a prefix of its own", b.name.text),
                    ])
                    .affecting(affected),
                );
                return;
            }
        }
    }
    out.push(Change::new(
        Class::Safe,
        &subject,
        At::New(b.at(b.name.span)),
        format!(
            "new entity `{}`: its keys collide with no item already written",
            b.name.text
        ),
    ));
}

fn key_text(key: Option<&KeyValue>) -> Option<String> {
    key.map(|k| k.template.text())
}

/// The index (or the table) whose key `attr` is, and its kind.
fn access_of<'t>(table: &'t Table, attr: &str) -> Option<(&'t str, AccessKind)> {
    table
        .access
        .iter()
        .find(|a| a.key_attributes().any(|k| k.name == attr))
        .map(|a| (a.name.text.as_str(), a.kind))
}

/// One piece of a key as stored: literal text, or a hole with the name the
/// attribute has in the new version and the shape of its text.
#[derive(Clone, Debug, PartialEq)]
enum Piece {
    Literal(String),
    Hole(String, Option<Shape>),
}

impl Piece {
    fn text(pieces: &[Piece]) -> String {
        pieces
            .iter()
            .map(|p| match p {
                Piece::Literal(t) => t.clone(),
                Piece::Hole(n, _) => format!("{{{n}}}"),
            })
            .collect()
    }
}

/// The pieces of a key template; `rename` gives each hole's attribute the
/// name to compare under.
fn pieces(key: &KeyValue, entity: &Entity, delimiter: &str, rename: impl Fn(usize) -> Option<String>) -> Vec<Piece> {
    key.template
        .parts
        .iter()
        .map(|p| match p {
            Part::Literal { text, .. } => Piece::Literal(text.to_string()),
            Part::Hole { name, attr, .. } => {
                let named = attr.and_then(&rename).unwrap_or_else(|| name.text.to_string());
                let shape = attr.and_then(|i| entity.attributes[i].ty.shape(delimiter));
                Piece::Hole(named, shape)
            }
        })
        .collect()
}
