//! Which items could hold a given key value, without comparing against every
//! entity: item keys are bucketed by the literal text their template starts
//! with, sorted, so a lookup touches only templates whose leading literal is
//! compatible with the value's (one a prefix of the other).

use std::collections::HashMap;

use crate::check::model::{EntityId, Model, TableId};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ItemRef {
    pub entity: EntityId,
    pub item: usize,
}

#[derive(Clone, Debug, Default)]
pub struct Registry {
    /// (table, key attribute) → (leading literal, item), sorted by literal.
    by_key: HashMap<(TableId, String), Vec<(String, ItemRef)>>,
}

impl Registry {
    pub fn new(model: &Model) -> Registry {
        let mut by_key: HashMap<(TableId, String), Vec<(String, ItemRef)>> = HashMap::new();
        for (entity_id, entity) in model.entities.iter().enumerate() {
            let Some(table) = entity.table else { continue };
            for (item_id, item) in entity.items.iter().enumerate() {
                for key in &item.keys {
                    by_key.entry((table, key.attr.clone())).or_default().push((
                        key.template.literal_prefix(),
                        ItemRef {
                            entity: entity_id,
                            item: item_id,
                        },
                    ));
                }
            }
        }
        for entries in by_key.values_mut() {
            entries.sort_by(|a, b| a.0.cmp(&b.0));
        }
        Registry { by_key }
    }

    /// Every item of `table` whose `attr` template could produce a value
    /// starting with `head` (its leading literal and `head` agree).
    pub fn compatible(&self, table: TableId, attr: &str, head: &str) -> Vec<ItemRef> {
        let Some(entries) = self.by_key.get(&(table, attr.to_string())) else {
            return Vec::new();
        };
        let mut found = Vec::new();
        // Templates whose leading literal extends `head`: one sorted run.
        let start = entries.partition_point(|(prefix, _)| prefix.as_str() < head);
        found.extend(
            entries[start..]
                .iter()
                .take_while(|(p, _)| p.starts_with(head))
                .map(|(_, item)| *item),
        );
        // Templates whose leading literal is a proper prefix of `head`.
        for end in (0..head.len()).filter(|&i| head.is_char_boundary(i)) {
            let prefix = &head[..end];
            let from = entries.partition_point(|(p, _)| p.as_str() < prefix);
            found.extend(
                entries[from..]
                    .iter()
                    .take_while(|(p, _)| p == prefix)
                    .map(|(_, item)| *item),
            );
        }
        found
    }

    /// Every (leading literal, item) for a key attribute, sorted.
    pub fn entries(&self, table: TableId, attr: &str) -> &[(String, ItemRef)] {
        self.by_key
            .get(&(table, attr.to_string()))
            .map_or(&[], |v| v.as_slice())
    }

    pub fn keys(&self) -> impl Iterator<Item = (&(TableId, String), &Vec<(String, ItemRef)>)> {
        self.by_key.iter()
    }
}
