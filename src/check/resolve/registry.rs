//! Which items could hold a given key value, without comparing against every
//! entity: item keys are bucketed by the literal text their template starts
//! with, sorted, so a lookup touches only templates whose leading literal is
//! compatible with the value's (one a prefix of the other).

use crate::check::model::{EntityId, Model, TableId};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ItemRef {
    pub entity: EntityId,
    pub item: usize,
}

#[derive(Clone, Debug, Default)]
pub struct Registry {
    /// Per table: key attribute → (leading literal, item), sorted by literal.
    by_table: Vec<Vec<(String, Vec<(String, ItemRef)>)>>,
}

impl Registry {
    pub fn new(model: &Model) -> Registry {
        let mut by_table: Vec<Vec<(String, Vec<(String, ItemRef)>)>> = vec![Vec::new(); model.tables.len()];
        for (entity_id, entity) in model.entities.iter().enumerate() {
            let Some(attrs) = entity.table.and_then(|t| by_table.get_mut(t)) else {
                continue;
            };
            for (item_id, item) in entity.items.iter().enumerate() {
                for key in &item.keys {
                    let index = match attrs.iter().position(|(attr, _)| *attr == key.attr) {
                        Some(index) => index,
                        None => {
                            attrs.push((key.attr.clone(), Vec::new()));
                            attrs.len() - 1
                        }
                    };
                    attrs[index].1.push((
                        key.template.literal_prefix(),
                        ItemRef {
                            entity: entity_id,
                            item: item_id,
                        },
                    ));
                }
            }
        }
        for entries in by_table.iter_mut().flatten() {
            entries.1.sort_by(|a, b| a.0.cmp(&b.0));
        }
        Registry { by_table }
    }

    /// Every item of `table` whose `attr` template could produce a value
    /// starting with `head` (its leading literal and `head` agree): first
    /// those whose literal extends `head`, then those whose literal is a
    /// proper prefix of it, shortest first.
    pub fn compatible(&self, table: TableId, attr: &str, head: &str) -> Vec<ItemRef> {
        let entries = self.entries(table, attr);
        let mut prefixes = Vec::new();
        // `entries[lo..hi]` are the literals that begin with `head[..end]`, a
        // sorted run in which `head[..end]` itself comes first; each step
        // narrows it by one more character of `head`.
        let (mut lo, mut hi, mut end) = (0, entries.len(), 0);
        loop {
            if end == head.len() {
                let mut found: Vec<ItemRef> = entries[lo..hi].iter().map(|(_, item)| *item).collect();
                found.append(&mut prefixes);
                return found;
            }
            let exact = entries[lo..hi].iter().take_while(|(p, _)| p.len() == end).count();
            prefixes.extend(entries[lo..lo + exact].iter().map(|(_, item)| *item));
            lo += exact;
            end += head[end..].chars().next().map_or(1, char::len_utf8);
            let longer = &head[..end];
            lo += entries[lo..hi].partition_point(|(p, _)| p.as_str() < longer);
            hi = lo + entries[lo..hi].partition_point(|(p, _)| p.starts_with(longer));
            if lo == hi {
                return prefixes;
            }
        }
    }

    /// Every (leading literal, item) for a key attribute, sorted.
    pub fn entries(&self, table: TableId, attr: &str) -> &[(String, ItemRef)] {
        self.by_table
            .get(table)
            .and_then(|attrs| attrs.iter().find(|(a, _)| a == attr))
            .map_or(&[], |(_, entries)| entries.as_slice())
    }

    /// Every (table, key attribute) with its sorted (leading literal, item) list.
    pub fn keys(&self) -> impl Iterator<Item = (TableId, &str, &[(String, ItemRef)])> {
        self.by_table
            .iter()
            .enumerate()
            .flat_map(|(t, attrs)| attrs.iter().map(move |(a, e)| (t, a.as_str(), e.as_slice())))
    }
}
