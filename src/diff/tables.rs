//! Tables and their indexes. DynamoDB fixes a table's key schema and its
//! local indexes when the table is created; a global index can be added
//! (DynamoDB backfills it from the items already there) or deleted, never
//! changed in place.

use super::{At, Change, Class, Version};
use crate::check::cost;
use crate::check::model::{AccessKind, KeyAttr, KeySchema, Model, Projection, Table};
use crate::syntax::ast::KeyType;

pub fn compare(old: Version<'_>, new: Version<'_>, out: &mut Vec<Change>) {
    let (old_model, new_model) = (&old.schema.model, &new.schema.model);
    for (_, table) in new_model.table_ids() {
        let subject = format!("table `{}`", table.name.text);
        let Some(before) = old_model.table_named(&table.name.text).map(|t| old_model.table(t)) else {
            out.push(Change::new(
                Class::Safe,
                subject,
                At::New(table.at(table.name.span)),
                format!("new table `{}`: nothing is written in it yet", table.name.text),
            ));
            continue;
        };
        let (Some(base), Some(old_base)) = (table.base(), before.base()) else {
            continue;
        };
        if !same_keys(base, old_base) {
            out.push(
                Change::new(
                    Class::NewTable,
                    &subject,
                    At::New(table.at(base.span)),
                    format!(
                        "the key of table `{}` changes from ({}) to ({}): DynamoDB cannot change a table's key schema",
                        table.name.text,
                        keys(old_base),
                        keys(base)
                    ),
                )
                .was(before.at(old_base.span))
                .steps(new_table_steps(&table.name.text)),
            );
        }
        compare_indexes(new_model, table, before, &subject, out);
    }
    for (_, table) in old_model.table_ids() {
        if new_model.table_named(&table.name.text).is_none() {
            out.push(
                Change::new(
                    Class::Migration,
                    format!("table `{}`", table.name.text),
                    At::Old(table.at(table.name.span)),
                    format!(
                        "table `{}` is gone from the schema: its items stay in DynamoDB, read by nothing",
                        table.name.text
                    ),
                )
                .steps([format!(
                    "delete table `{}` once no deployed code reads it (or keep it and its items)",
                    table.name.text
                )]),
            );
        }
    }
}

fn compare_indexes(model: &Model, table: &Table, before: &Table, subject: &str, out: &mut Vec<Change>) {
    for index in table.access.iter().filter(|a| a.is_index()) {
        let old_index = before.index_id(&index.name.text).map(|i| before.access(i));
        let lsi = index.kind == AccessKind::Lsi || old_index.is_some_and(|o| o.kind == AccessKind::Lsi);
        match old_index {
            None if lsi => out.push(
                Change::new(
                    Class::NewTable,
                    subject,
                    At::New(table.at(index.span)),
                    format!(
                        "new local index `{}`: DynamoDB creates local indexes only with the table",
                        index.name.text
                    ),
                )
                .steps(new_table_steps(&table.name.text)),
            ),
            None => out.push(
                Change::new(
                    Class::Safe,
                    subject,
                    At::New(table.at(index.span)),
                    format!(
                        "new global index `{}`: DynamoDB backfills it from the items already written{}",
                        index.name.text,
                        backfill_cost(model, table, index)
                    ),
                )
                .steps([format!(
                    "add index `{}` to table `{}` (UpdateTable); it is usable once its status is ACTIVE",
                    index.name.text, table.name.text
                )]),
            ),
            Some(was) if !same_keys(index, was) || index.kind != was.kind => {
                let (class, steps) = if lsi {
                    (Class::NewTable, new_table_steps(&table.name.text))
                } else {
                    (
                        Class::Migration,
                        vec![
                            format!("create the index under a new name with key ({})", keys(index)),
                            "move the readers to it once it is ACTIVE".to_string(),
                            format!("delete index `{}`", was.name.text),
                        ],
                    )
                };
                out.push(
                    Change::new(
                        class,
                        subject,
                        At::New(table.at(index.span)),
                        format!(
                            "the key of index `{}` changes from ({}) to ({}): DynamoDB cannot change an index's key",
                            index.name.text,
                            keys(was),
                            keys(index)
                        ),
                    )
                    .was(before.at(was.span))
                    .steps(steps),
                );
            }
            Some(was) if was.projection != index.projection => {
                let lost = lost_attributes(&was.projection, &index.projection, model, table);
                let message = if lost.is_empty() {
                    format!(
                        "index `{}` projects more than before ({} → {})",
                        index.name.text,
                        projection(&was.projection),
                        projection(&index.projection)
                    )
                } else {
                    format!(
                        "index `{}` no longer projects {}: a reader of the index stops getting them",
                        index.name.text,
                        names(&lost)
                    )
                };
                let class = if lost.is_empty() {
                    Class::Safe
                } else {
                    Class::BreaksReaders
                };
                out.push(
                    Change::new(class, subject, At::New(table.at(index.span)), message)
                        .was(before.at(was.span))
                        .steps([format!(
                            "DynamoDB cannot change a projection: create the index anew, then delete `{}`",
                            index.name.text
                        )]),
                );
            }
            Some(_) => {}
        }
    }
    for was in before.access.iter().filter(|a| a.is_index()) {
        if table.index_id(&was.name.text).is_none() {
            let (class, message, steps) = if was.kind == AccessKind::Lsi {
                (
                    Class::NewTable,
                    format!(
                        "local index `{}` is removed: DynamoDB removes local indexes only with the table",
                        was.name.text
                    ),
                    new_table_steps(&table.name.text),
                )
            } else {
                (
                    Class::Safe,
                    format!(
                        "global index `{}` is removed: the items stay; only its readers are affected",
                        was.name.text
                    ),
                    vec![format!(
                        "delete index `{}` once no deployed code queries it",
                        was.name.text
                    )],
                )
            };
            out.push(
                Change::new(class, subject, At::Old(before.at(was.span)), message)
                    .steps(steps)
                    .was(before.at(was.span)),
            );
        }
    }
}

fn same_keys(a: &KeySchema, b: &KeySchema) -> bool {
    let attrs = |k: &KeySchema| -> Vec<(String, KeyType)> {
        k.key_attributes().map(|a: &KeyAttr| (a.name.clone(), a.ty)).collect()
    };
    attrs(a) == attrs(b) && a.sk.is_some() == b.sk.is_some() && a.pk_rest.len() == b.pk_rest.len()
}

/// `pk: string, sk: string`.
fn keys(k: &KeySchema) -> String {
    k.key_attributes()
        .map(|a| format!("{}: {}", a.name, key_type(a.ty)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn key_type(ty: KeyType) -> &'static str {
    match ty {
        KeyType::String => "string",
        KeyType::Number => "number",
        KeyType::Binary => "binary",
    }
}

fn projection(p: &Projection) -> String {
    match p {
        Projection::All => "all".into(),
        Projection::KeysOnly => "keys_only".into(),
        Projection::Include(names) => format!("include({})", names.join(", ")),
    }
}

/// The attributes of the table's entities the old projection carried and
/// the new one does not (keys always travel).
fn lost_attributes(old: &Projection, new: &Projection, model: &Model, table: &Table) -> Vec<String> {
    let carries = |p: &Projection, name: &str| match p {
        Projection::All => true,
        Projection::KeysOnly => false,
        Projection::Include(names) => names.iter().any(|n| n == name),
    };
    let mut lost: Vec<String> = Vec::new();
    for entity in model
        .entities
        .iter()
        .filter(|e| e.table.is_some_and(|t| model.table(t).name.text == table.name.text))
    {
        for attr in &entity.attributes {
            let name = &attr.name.text;
            if table.is_key_attribute(name) || lost.iter().any(|l| l == name) {
                continue;
            }
            if carries(old, name) && !carries(new, name) {
                lost.push(name.to_string());
            }
        }
    }
    lost
}

fn names(list: &[String]) -> String {
    list.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
}

pub fn new_table_steps(table: &str) -> Vec<String> {
    vec![
        format!("create a new table with the new key schema alongside `{table}`"),
        format!("copy every item of `{table}` into it, rewriting keys to the new templates"),
        "switch readers and writers to the new table".to_string(),
        format!("delete `{table}` once nothing reads it"),
    ]
}

/// `; backfill writes ~1 WCU per existing Order item (~120 B entry)`: what
/// each entity's items cost to project into the new index, from the size
/// hints (or the attribute sizes when there are none).
fn backfill_cost(model: &Model, table: &Table, index: &KeySchema) -> String {
    let Some(base) = table.base() else {
        return String::new();
    };
    let mut parts = Vec::new();
    for (id, entity) in model.entity_ids() {
        if entity.table.is_none_or(|t| model.table(t).name.text != table.name.text) {
            continue;
        }
        for (shape, item) in entity.items.iter().enumerate() {
            if index.key_attributes().all(|k| item.key(&k.name).is_some()) {
                let size = cost::entry_size(model, id, shape, index, base);
                parts.push(format!(
                    "~{} WCU per existing `{}` item ({} entry)",
                    cost::write_units(size.bytes),
                    entity.name.text,
                    cost::format_bytes(size.bytes)
                ));
                break;
            }
        }
    }
    if parts.is_empty() {
        "; no entity writes its keys yet, so the backfill writes nothing".into()
    } else {
        format!("; the backfill writes {}", parts.join(", "))
    }
}
