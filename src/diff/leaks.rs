//! The checker's collision check run across the two versions: each old
//! Query, as deployed code still sends it, against the new schema's items.
//! An item of an entity the old pattern did not return that the old key
//! condition now matches is mixed into every deployed reader's results.
//! The items a Query matches are the checker's (`resolve::matching_items`),
//! so ranges and `begins_with` are decided exactly, as in `dyno check`.

use super::patterns::condition;
use super::{At, Change, Class, Pairing, Version};
use crate::check::model::{AccessId, EntityId, KeySchema};
use crate::check::resolve::{Read, matching_items};

pub fn compare(old: Version<'_>, new: Version<'_>, pairing: &Pairing, out: &mut Vec<Change>) {
    let (old_model, new_model) = (&old.schema.model, &new.schema.model);
    for (old_id, pattern) in old_model.pattern_ids() {
        let Some(resolution) = old.schema.resolution(old_id) else {
            continue;
        };
        // A filter removes what the key condition reads, and is not
        // compared across versions; Scans read every item anyway.
        if resolution.read != Read::Query || resolution.filter.is_some() {
            continue;
        }
        let old_table = old_model.table(resolution.table);
        let old_access = old_table.access(resolution.access);
        let Some(new_table_id) = new_model.table_named(&old_table.name.text) else {
            continue;
        };
        let new_table = new_model.table(new_table_id);
        let new_access_id = if old_access.is_index() {
            new_table.index_id(&old_access.name.text)
        } else {
            new_table.base().map(|_| AccessId::BASE)
        };
        // Another key schema: the old request fails outright, which the
        // table or index change already says.
        let Some(new_access_id) = new_access_id.filter(|&a| same_key(new_table.access(a), old_access)) else {
            continue;
        };
        let mut deployed = resolution.clone();
        deployed.table = new_table_id;
        deployed.access = new_access_id;
        let returned: Vec<EntityId> = resolution.returns.iter().filter_map(|&e| pairing.new_of(e)).collect();
        // Entities the old Query already read in the old schema (filtered
        // or reported there): not new.
        let read_before: Vec<EntityId> = matching_items(old_model, &old.schema.registry, resolution)
            .iter()
            .filter_map(|item| pairing.new_of(item.entity))
            .collect();
        let mut reported: Vec<EntityId> = Vec::new();
        for item in matching_items(new_model, &new.schema.registry, &deployed) {
            let entity = item.entity;
            if returned.contains(&entity) || read_before.contains(&entity) || reported.contains(&entity) {
                continue;
            }
            reported.push(entity);
            let e = new_model.entity(entity);
            let shape = &e.items[item.item];
            let access = new_table.access(new_access_id);
            let key = access
                .sk
                .as_ref()
                .and_then(|sk| shape.key(&sk.name))
                .or_else(|| shape.key(&access.pk.name));
            out.push(
                Change::new(
                    Class::BreaksReaders,
                    format!("entity `{}`", e.name.text),
                    At::New(e.at(key.map_or(e.name.span, |k| k.span))),
                    format!(
                        "the old pattern `{}` ({}) also matches `{}` items: deployed readers get them mixed into their results",
                        pattern.name.text,
                        condition(resolution),
                        e.name.text
                    ),
                )
                .was(pattern.at(pattern.span))
                .steps(vec![
                    format!("give `{}` a key the old condition cannot match", e.name.text),
                    format!(
                        "or deploy readers of `{}` that expect (or filter out) the new items first",
                        pattern.name.text
                    ),
                ]),
            );
        }
    }
}

fn same_key(a: &KeySchema, b: &KeySchema) -> bool {
    a.key_attributes()
        .map(|k| (&k.name, k.ty))
        .eq(b.key_attributes().map(|k| (&k.name, k.ty)))
}
