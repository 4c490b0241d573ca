//! Which items could hold a given key value, without comparing against every
//! entity: item keys are bucketed by the literal text their template starts
//! with, sorted, so a lookup touches only templates whose leading literal is
//! compatible with the value's (one a prefix of the other).

use std::borrow::Cow;

use crate::check::model::{EntityId, Model, TableId};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ItemRef {
    pub entity: EntityId,
    pub item: usize,
}

#[derive(Clone, Debug, Default)]
pub struct Registry {
    /// Per table, per key attribute.
    by_table: Vec<Vec<Bucket>>,
}

/// The items that write one key attribute of one table.
#[derive(Clone, Debug)]
struct Bucket {
    attr: String,
    /// The first entity that writes `attr`: the buckets are in the order
    /// of their first entities (and of the keys within its items).
    first: EntityId,
    /// (leading literal, item), sorted by literal.
    entries: Vec<(String, ItemRef)>,
    /// The distinct lengths of the leading literals, ascending.
    lengths: Vec<usize>,
}

impl Bucket {
    /// Its literals' distinct lengths, from its entries.
    fn measure(&mut self) {
        self.lengths.clear();
        for (literal, _) in &self.entries {
            if !self.lengths.contains(&literal.len()) {
                self.lengths.push(literal.len());
            }
        }
        self.lengths.sort_unstable();
    }
}

/// Whether a template with leading literal `literal` could produce a value
/// starting with `head`: one is a prefix of the other. What
/// [`Registry::compatible`] finds by sorted search, and what
/// `check::reads` tests an edited entity's items against.
pub fn heads_agree(literal: &str, head: &str) -> bool {
    literal.starts_with(head) || head.starts_with(literal)
}

impl Registry {
    pub fn new(model: &Model) -> Registry {
        Registry::of_tables(model, &vec![true; model.tables.len()])
    }

    /// The registry of `model`, with the buckets of each table that
    /// `rebuild` does not name taken (or copied) from `earlier`: a check
    /// of an earlier text whose entities of those tables are the same.
    /// `renumber` gives each of them its id now, when entities were added
    /// or removed before it (`None`: the same ids); a table with an entity
    /// it gives no id is built again. A table `rebuild` names is patched
    /// instead where it can be: `touched`, the entities the edit touched,
    /// when they have the same ids before and after it.
    pub fn reusing(
        model: &Model,
        earlier: &mut Cow<'_, Registry>,
        rebuild: &[bool],
        touched: Option<&[EntityId]>,
        renumber: Option<impl Fn(EntityId) -> Option<EntityId>>,
    ) -> Registry {
        if earlier.by_table.len() != model.tables.len() || rebuild.len() != model.tables.len() {
            return Registry::new(model);
        }
        let mut rebuild = rebuild.to_vec();
        let mut kept: Vec<Vec<Bucket>> = vec![Vec::new(); model.tables.len()];
        for (table, buckets) in kept.iter_mut().enumerate() {
            if rebuild[table] {
                let patched = touched.and_then(|touched| Self::patched(model, earlier, TableId::new(table), touched));
                if let Some(patched) = patched {
                    *buckets = patched;
                    rebuild[table] = false;
                }
                continue;
            }
            *buckets = match earlier {
                Cow::Owned(earlier) => std::mem::take(&mut earlier.by_table[table]),
                Cow::Borrowed(earlier) => earlier.by_table[table].clone(),
            };
            let renumbered = renumber.as_ref().is_none_or(|renumber| {
                buckets.iter_mut().all(|bucket| {
                    let first = renumber(bucket.first).map(|now| bucket.first = now).is_some();
                    first
                        && (bucket.entries.iter_mut())
                            .all(|(_, item)| renumber(item.entity).map(|now| item.entity = now).is_some())
                })
            });
            // An entity without an id now: not the same items, built again.
            rebuild[table] |= !renumbered;
        }
        let mut registry = Registry::of_tables(model, &rebuild);
        for (table, buckets) in kept.into_iter().enumerate().filter(|(t, _)| !rebuild[*t]) {
            registry.by_table[table] = buckets;
        }
        registry
    }

    /// The buckets of the tables `tables` names; the others empty.
    fn of_tables(model: &Model, tables: &[bool]) -> Registry {
        let mut by_table: Vec<Vec<Bucket>> = vec![Vec::new(); model.tables.len()];
        for (entity_id, entity) in model.entity_ids() {
            let Some(buckets) = (entity.table)
                .filter(|t| tables[t.index()])
                .and_then(|t| by_table.get_mut(t.index()))
            else {
                continue;
            };
            for (item_id, item) in entity.items.iter().enumerate() {
                for key in &item.keys {
                    let index = match buckets.iter().position(|b| b.attr == key.attr) {
                        Some(index) => index,
                        None => {
                            buckets.push(Bucket {
                                attr: key.attr.to_string(),
                                first: entity_id,
                                entries: Vec::new(),
                                lengths: Vec::new(),
                            });
                            buckets.len() - 1
                        }
                    };
                    buckets[index].entries.push((
                        key.template.literal_prefix(),
                        ItemRef {
                            entity: entity_id,
                            item: item_id,
                        },
                    ));
                }
            }
        }
        for bucket in by_table.iter_mut().flatten() {
            bucket.entries.sort_by(|a, b| a.0.cmp(&b.0));
            bucket.measure();
        }
        Registry { by_table }
    }

    /// `table`'s buckets as `earlier` had them, with the items of the
    /// entities `touched` (each with the same id before and after the
    /// edit) taken out and written again where they sort: what building
    /// them again gives, without going over the table's other entities.
    /// `None` where the edit can change the buckets' order (a touched
    /// entity is the first to write an attribute, or now writes one no
    /// earlier entity did, or was the last to write one).
    fn patched(
        model: &Model,
        earlier: &mut Cow<'_, Registry>,
        table: TableId,
        touched: &[EntityId],
    ) -> Option<Vec<Bucket>> {
        let earlier_buckets = earlier.by_table.get(table.index())?;
        let lowest = *touched.iter().min()?;
        if earlier_buckets.iter().any(|b| b.first >= lowest) {
            return None;
        }
        let mut buckets = match earlier {
            Cow::Owned(earlier) => std::mem::take(&mut earlier.by_table[table.index()]),
            Cow::Borrowed(earlier) => earlier.by_table[table.index()].clone(),
        };
        for bucket in &mut buckets {
            bucket.entries.retain(|(_, item)| !touched.contains(&item.entity));
        }
        for &entity_id in touched {
            let entity = model.entity(entity_id);
            if entity.table != Some(table) {
                continue;
            }
            for (item_id, item) in entity.items.iter().enumerate() {
                for key in &item.keys {
                    let bucket = buckets.iter_mut().find(|b| b.attr == key.attr)?;
                    let literal = key.template.literal_prefix();
                    // Built, a bucket's entries are sorted by literal and
                    // then in the order written: by entity, then item.
                    let at = bucket.entries.partition_point(|(other, at)| {
                        (other.as_str(), at.entity, at.item) < (literal.as_str(), entity_id, item_id)
                    });
                    let item_ref = ItemRef {
                        entity: entity_id,
                        item: item_id,
                    };
                    bucket.entries.insert(at, (literal, item_ref));
                }
            }
        }
        if buckets.iter().any(|b| b.entries.is_empty()) {
            return None;
        }
        buckets.iter_mut().for_each(Bucket::measure);
        Some(buckets)
    }

    fn bucket(&self, table: TableId, attr: &str) -> Option<&Bucket> {
        self.by_table.get(table.index())?.iter().find(|b| b.attr == attr)
    }

    /// Every item of `table` whose `attr` template could produce a value
    /// starting with `head` (its leading literal and `head` agree): first
    /// those whose literal extends `head`, then those whose literal is a
    /// proper prefix of it, shortest first.
    pub fn compatible(&self, table: TableId, attr: &str, head: &str) -> Vec<ItemRef> {
        crate::check::reads::lookup(table, attr, Some(head));
        let Some(bucket) = self.bucket(table, attr) else {
            return Vec::new();
        };
        let entries = &bucket.entries;
        let mut found = Vec::new();
        // Templates whose leading literal extends `head`: one sorted run.
        let start = entries.partition_point(|(prefix, _)| prefix.as_str() < head);
        found.extend(
            entries[start..]
                .iter()
                .take_while(|(p, _)| p.starts_with(head))
                .map(|(_, item)| *item),
        );
        // Templates whose leading literal is a proper prefix of `head`: only
        // the lengths some literal has can match, and such literals sort
        // before `head`.
        for &end in bucket.lengths.iter().take_while(|&&n| n < head.len()) {
            if !head.is_char_boundary(end) {
                continue;
            }
            let prefix = &head[..end];
            let from = entries[..start].partition_point(|(p, _)| p.as_str() < prefix);
            found.extend(
                entries[from..start]
                    .iter()
                    .take_while(|(p, _)| p == prefix)
                    .map(|(_, item)| *item),
            );
        }
        found
    }

    /// Every (leading literal, item) for a key attribute, sorted.
    pub fn entries(&self, table: TableId, attr: &str) -> &[(String, ItemRef)] {
        crate::check::reads::lookup(table, attr, None);
        self.bucket(table, attr).map_or(&[], |b| b.entries.as_slice())
    }

    /// Every (table, key attribute) with its sorted (leading literal, item) list.
    pub fn keys(&self) -> impl Iterator<Item = (TableId, &str, &[(String, ItemRef)])> {
        crate::check::reads::whole();
        self.by_table.iter().enumerate().flat_map(|(t, buckets)| {
            buckets
                .iter()
                .map(move |b| (TableId::new(t), b.attr.as_str(), b.entries.as_slice()))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sorted search finds exactly the items [`heads_agree`] names,
    /// for heads shorter than, equal to, between and longer than the
    /// literals (multi-byte ones included).
    #[test]
    fn compatible_finds_exactly_the_items_whose_heads_agree() {
        let literals = ["", "U", "USER#", "USERGROUP#", "USER#1", "ORG#", "É#", "ÉTÉ#"];
        let mut schema = String::from("table T {\n  key pk, sk\n}\n");
        for (n, literal) in literals.iter().enumerate() {
            schema.push_str(&format!(
                "entity E{n} {{\n  id: id\n  pk = \"{literal}{{id}}\"\n  sk = \"X\"\n}}\n"
            ));
        }
        let analysis = crate::check::analyze(&schema);
        let model = &analysis.schema.model;
        let registry = Registry::new(model);
        let table = TableId::new(0);
        let heads = [
            "", "U", "US", "USER", "USER#", "USER#1", "USER#12", "USERG", "O", "ORG#X", "É", "ÉT", "Z",
        ];
        for head in heads {
            let mut found: Vec<&str> = (registry.compatible(table, "pk", head).iter())
                .map(|item| model.entity(item.entity).name.text.as_str())
                .collect();
            found.sort_unstable();
            let mut expected: Vec<String> = (literals.iter().enumerate())
                .filter(|(_, literal)| heads_agree(literal, head))
                .map(|(n, _)| format!("E{n}"))
                .collect();
            expected.sort_unstable();
            assert_eq!(found, expected, "head {head:?}");
        }
    }
}
