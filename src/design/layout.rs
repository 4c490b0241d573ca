//! Where each slot is written: the table itself, a local index (a second
//! sort order under the table's partition key, for a strongly consistent
//! read) or a global index shared by every entity (overloaded: `gsi1pk`
//! holds a user's role for one entity and an invoice's status for another).
//!
//! Slots that serve one pattern of several entities form a *group* and go
//! to the same place. Each entity gets one table slot, which must identify
//! its items (else two of them would overwrite each other): the group with
//! a consistent read, then the one serving most reads, that can. The other
//! groups are coloured with global indexes, the smallest number none of
//! their entities uses yet — so the table needs as many indexes as its
//! busiest entity, not one per pattern.

use super::needs::Need;
use super::slots::{Cover, Slot};
use crate::check::model::{AttrType, EntityId, Model};

/// Local indexes per table, and global ones by default: AWS, "Quotas in
/// Amazon DynamoDB", Secondary indexes.
const MAX_LOCAL: usize = 5;
const MAX_GLOBAL: usize = 20;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Place {
    Table,
    /// The n-th local index (1-based).
    Local(usize),
    /// The n-th global index (1-based).
    Global(usize),
}

#[derive(Clone, Debug)]
pub struct Layout {
    pub slots: Vec<Slot>,
    /// Per slot: its group (the first slot of it), which shares one partition.
    pub group: Vec<usize>,
    /// Per slot: where it is written (`None`: not written, its needs unserved).
    pub place: Vec<Option<Place>>,
    /// Per slot: a second item shape in the table instead of an index (the
    /// adjacency list: the entity is written twice, keyed both ways).
    pub twice: Vec<bool>,
    /// Patterns the layout cannot serve, and why.
    pub unserved: Vec<(usize, String)>,
}

/// The sets of attributes that identify an entity's items: what each read
/// of one item of it knows (the user says one item has them); without any,
/// its own id (`orderId` for `Order`, `id`), else its id-like attributes,
/// else every required scalar one.
pub fn identities(model: &Model, needs: &[Need], entity: EntityId) -> Vec<Vec<String>> {
    let e = model.entity(entity);
    let mut out: Vec<Vec<String>> = needs
        .iter()
        .filter(|n| !n.equal.is_empty())
        .filter(|n| {
            (n.exact && n.entities == [entity]) || n.entities.iter().zip(&n.single).any(|(&x, &one)| x == entity && one)
        })
        .map(|n| n.equal.clone())
        .collect();
    if out.is_empty() {
        let required = |a: &&crate::check::model::Attribute| {
            !a.optional && a.ty.shape("#").is_some() && crate::syntax::names::is_bare(&a.name.text)
        };
        let own = format!("{}id", e.name.text.to_lowercase());
        let id_like = |ty: &AttrType| matches!(ty, AttrType::Id | AttrType::Uuid | AttrType::Ulid);
        let named = |a: &&crate::check::model::Attribute| {
            let name = a.name.text.to_lowercase().replace('_', "");
            name == own || name == "id"
        };
        let pick = |keep: &dyn Fn(&&crate::check::model::Attribute) -> bool| -> Vec<String> {
            e.attributes
                .iter()
                .filter(required)
                .filter(keep)
                .map(|a| a.name.text.to_string())
                .collect()
        };
        let ids = [
            pick(&named),
            pick(&|a| id_like(&a.ty)),
            pick(&|a| !matches!(a.ty, AttrType::Bool | AttrType::Enum(_))),
        ]
        .into_iter()
        .find(|ids| !ids.is_empty());
        out.extend(ids);
    }
    out.sort_by_key(Vec::len);
    out.dedup();
    out
}

/// Whether a slot keys the entity on one of its parents, like an edge of a
/// many-to-many relation: its partition attributes are part of what
/// identifies the items. Only such a slot is written as a second item (the
/// adjacency list); any other read gets an index, not a copy of the items.
pub fn keys_an_edge(slot: &Slot, identities: &[Vec<String>]) -> bool {
    !slot.partition.is_empty()
        && identities
            .iter()
            .any(|id| slot.partition.iter().all(|p| id.contains(p)))
}

/// The slot's sort key extended so that with its partition key it holds
/// one of `identities`, or `None` when it cannot (an exact read fixed it).
pub fn identified(slot: &Slot, identities: &[Vec<String>]) -> Option<Vec<String>> {
    let has = |a: &String| slot.partition.contains(a) || slot.sort.contains(a);
    identities.iter().find_map(|id| {
        let missing: Vec<&String> = id.iter().filter(|a| !has(a)).collect();
        if missing.is_empty() {
            return Some(slot.sort.clone());
        }
        if slot.exact_len.is_some() {
            return None;
        }
        let mut sort = slot.sort.clone();
        sort.extend(missing.into_iter().cloned());
        Some(sort)
    })
}

struct Groups {
    parent: Vec<usize>,
}

impl Groups {
    fn find(&mut self, x: usize) -> usize {
        let mut root = x;
        while self.parent[root] != root {
            root = self.parent[root];
        }
        self.parent[x] = root;
        root
    }

    fn union(&mut self, a: usize, b: usize) {
        let (a, b) = (self.find(a), self.find(b));
        if a != b {
            let (lo, hi) = (a.min(b), a.max(b));
            self.parent[hi] = lo;
        }
    }
}

/// What the schema already has: entities that write their table keys, and
/// the indexes each entity already writes.
#[derive(Clone, Debug, Default)]
pub struct Existing {
    pub keyed: Vec<EntityId>,
    /// The attributes each keyed entity's table partition key is built from.
    pub base_partition: Vec<(EntityId, Vec<String>)>,
    /// Keyed entities that write the table's partition key but not its
    /// sort key.
    pub unsorted: Vec<EntityId>,
    /// The layouts keyed entities already write (table and indexes).
    pub slots: Vec<Slot>,
    pub writes: Vec<(EntityId, Place)>,
    /// Indexes the tables declare (with the table of each).
    pub indexes: Vec<(crate::check::model::TableId, Place)>,
}

/// What the search asks of a layout beyond the greedy passes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Asks {
    /// Slots written as a second table item.
    pub twice: Vec<usize>,
    /// Needs whose groups take the table before any other.
    pub first: Vec<usize>,
    /// Entities keyed on the table by these attributes alone (their
    /// identity), every read of them on an index: an index read of one
    /// item that knows the whole primary key is a read of one item.
    pub own: Vec<(EntityId, Vec<String>)>,
}

pub fn layout(
    model: &Model,
    needs: &[Need],
    cover: Cover,
    existing: &Existing,
    asks: &Asks,
    max_indexes: Option<usize>,
) -> Layout {
    let (twice, first) = (&asks.twice, &asks.first);
    let Cover { mut slots, served_by } = cover;
    let mut groups = Groups {
        parent: (0..slots.len()).collect(),
    };
    let mut unserved = Vec::new();
    for (i, by) in served_by.iter().enumerate() {
        if by.iter().any(Option::is_none) {
            unserved.push((i, "its entities cannot share one key layout".to_string()));
            continue;
        }
        let by: Vec<usize> = by.iter().flatten().copied().collect();
        for pair in by.windows(2) {
            groups.union(pair[0], pair[1]);
        }
    }
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); slots.len()];
    for s in 0..slots.len() {
        let root = groups.find(s);
        members[root].push(s);
    }
    let mut group_list: Vec<Vec<usize>> = members.into_iter().filter(|m| !m.is_empty()).collect();
    // A group holding two slots of one entity cannot be one partition.
    group_list.retain(|g| {
        let mut entities: Vec<EntityId> = g.iter().map(|&s| slots[s].entity).collect();
        entities.sort();
        let before = entities.len();
        entities.dedup();
        if entities.len() != before {
            for &s in g {
                for &n in &slots[s].serves {
                    if needs[n].entities.len() > 1 {
                        unserved.push((
                            n,
                            "two of its entities' layouts would have to share one partition".into(),
                        ));
                    }
                }
            }
        }
        entities.len() == before
    });
    let consistent =
        |g: &Vec<usize>, slots: &[Slot]| g.iter().any(|&s| slots[s].serves.iter().any(|&n| needs[n].consistent));
    let exact = |g: &Vec<usize>, slots: &[Slot]| g.iter().any(|&s| slots[s].serves.iter().any(|&n| needs[n].exact));
    let weight = |g: &Vec<usize>, slots: &[Slot]| g.iter().map(|&s| slots[s].serves.len()).sum::<usize>();
    let mut priority: Vec<usize> = (0..group_list.len()).collect();
    priority.sort_by_key(|&g| {
        let group = &group_list[g];
        let keyed = group.iter().all(|&s| !slots[s].partition.is_empty());
        let asked = group.iter().any(|&s| slots[s].serves.iter().any(|n| first.contains(n)));
        (
            std::cmp::Reverse(asked),
            std::cmp::Reverse(consistent(group, &slots)),
            // A read of one item on an index would not be unique (W202).
            std::cmp::Reverse(exact(group, &slots)),
            std::cmp::Reverse(keyed),
            std::cmp::Reverse(group.len()),
            std::cmp::Reverse(weight(group, &slots)),
            group[0],
        )
    });

    let mut place: Vec<Option<Place>> = vec![None; slots.len()];
    // A group with a layout already written goes where that one is; the
    // other entities of the group join it there, or the group's reads stay
    // unserved.
    let mut forced: Vec<Option<Place>> = vec![None; group_list.len()];
    for (g, group) in group_list.iter().enumerate() {
        let places: Vec<Place> = group
            .iter()
            .filter_map(|&s| slots[s].written.as_ref().map(|(p, _)| *p))
            .collect();
        if let Some(&first) = places.first() {
            forced[g] = Some(first);
            if places.iter().any(|&p| p != first) {
                for &s in group {
                    unserved.extend(
                        slots[s]
                            .serves
                            .iter()
                            .map(|&n| (n, "its entities are already keyed in different places".to_string())),
                    );
                }
            }
        }
    }
    for s in 0..slots.len() {
        if let Some((p, _)) = &slots[s].written {
            place[s] = Some(*p);
        }
    }
    let mut base_of: std::collections::HashMap<EntityId, usize> = Default::default();
    // An entity that already writes its table keys keeps them: its new
    // slots go to indexes.
    let keyed = |e: EntityId| existing.keyed.contains(&e);
    let identity_of = |e: EntityId| identities(model, needs, e);
    // The groups an entity keyed by its identity is in go to indexes, so
    // the entities reading one item of themselves there are keyed by what
    // those reads know as well.
    let mut own = asks.own.clone();
    while let Some((e, id)) = own.pop() {
        if keyed(e) || base_of.contains_key(&e) || id.is_empty() {
            continue;
        }
        // A slot of its own keyed by just those attributes is that layout.
        let mut wanted = id.clone();
        wanted.sort();
        let alone = (0..slots.len()).find(|&s| {
            let mut holds: Vec<String> = slots[s].partition.iter().chain(&slots[s].sort).cloned().collect();
            holds.sort();
            slots[s].entity == e
                && slots[s].written.is_none()
                && place[s].is_none()
                && holds == wanted
                && group_list.iter().any(|g| g.as_slice() == [s])
        });
        if let Some(s) = alone {
            place[s] = Some(Place::Table);
            base_of.insert(e, s);
        } else {
            slots.push(Slot {
                entity: e,
                partition: id[..1].to_vec(),
                sort: id[1..].to_vec(),
                exact_len: None,
                serves: Vec::new(),
                written: None,
            });
            place.push(Some(Place::Table));
            base_of.insert(e, slots.len() - 1);
            group_list.push(vec![slots.len() - 1]);
        }
        for group in group_list.iter().filter(|g| g.iter().any(|&s| slots[s].entity == e)) {
            for &s in group {
                let other = slots[s].entity;
                for &n in &slots[s].serves {
                    let need = &needs[n];
                    let single = need
                        .entities
                        .iter()
                        .zip(&need.single)
                        .any(|(&x, &one)| x == other && one);
                    if single && identity_of(other).contains(&need.equal) {
                        own.push((other, need.equal.clone()));
                    }
                }
            }
        }
    }
    let mut copies = Vec::new();
    for &g in &priority {
        let group = &group_list[g];
        if group.iter().any(|&s| twice.contains(&s)) || forced[g].is_some_and(|p| p != Place::Table) {
            continue;
        }
        let group: Vec<usize> = group.iter().copied().filter(|&s| slots[s].written.is_none()).collect();
        let group = &group;
        let extended: Option<Vec<Vec<String>>> = group
            .iter()
            .map(|&s| {
                let slot = &slots[s];
                (!base_of.contains_key(&slot.entity) && !keyed(slot.entity)).then_some(())?;
                identified(slot, &identity_of(slot.entity))
            })
            .collect();
        if let Some(extended) = extended {
            for (&s, sort) in group.iter().zip(extended) {
                slots[s].sort = sort;
                place[s] = Some(Place::Table);
                base_of.insert(slots[s].entity, s);
            }
            continue;
        }
        // The group goes to an index. A consistent read of one entity that
        // shares a slot of it (`list(storeId) -> Order[] consistent` beside
        // a read of Store and its orders) keeps a copy of the slot on the
        // table, when the entity has no table slot yet.
        for &s in group {
            let e = slots[s].entity;
            let reads: Vec<usize> = slots[s]
                .serves
                .iter()
                .copied()
                .filter(|&n| needs[n].consistent && needs[n].entities == [e])
                .collect();
            if reads.is_empty() || base_of.contains_key(&e) || keyed(e) {
                continue;
            }
            let Some(sort) = identified(&slots[s], &identity_of(e)) else {
                continue;
            };
            slots[s].serves.retain(|n| !reads.contains(n));
            slots.push(Slot {
                sort,
                serves: reads,
                ..slots[s].clone()
            });
            place.push(Some(Place::Table));
            base_of.insert(e, slots.len() - 1);
            copies.push(slots.len() - 1);
        }
    }
    group_list.extend(copies.into_iter().map(|s| vec![s]));
    // Entities none of whose groups could be the table's: a slot of their
    // own that identifies the items.
    // (Every entity in a table: one no pattern reads still needs keys.)
    let entities: Vec<EntityId> = model
        .entity_ids()
        .filter(|(_, e)| e.table.is_some())
        .map(|(id, _)| id)
        .collect();
    for e in entities {
        if base_of.contains_key(&e) || keyed(e) {
            continue;
        }
        let ids = identity_of(e);
        let Some(id) = ids.last().cloned() else { continue };
        slots.push(Slot {
            entity: e,
            partition: id[..1].to_vec(),
            sort: id[1..].to_vec(),
            exact_len: None,
            serves: Vec::new(),
            written: None,
        });
        place.push(Some(Place::Table));
        base_of.insert(e, slots.len() - 1);
        group_list.push(vec![slots.len() - 1]);
    }
    // Second table items (the adjacency list), when they identify the items.
    let mut twice_flags = vec![false; slots.len()];
    for &s in twice {
        if s < slots.len()
            && place[s].is_none()
            && !keyed(slots[s].entity)
            && keys_an_edge(&slots[s], &identity_of(slots[s].entity))
            && base_of.get(&slots[s].entity).is_some_and(|&b| {
                // A second item in the table item's own partition would share
                // its tag and be read with it: another order there is an index.
                let (mut x, mut y) = (slots[b].partition.clone(), slots[s].partition.clone());
                x.sort();
                y.sort();
                keys_an_edge(&slots[b], &identity_of(slots[b].entity)) && x != y
            })
            && let Some(sort) = identified(&slots[s], &identity_of(slots[s].entity))
        {
            slots[s].sort = sort;
            place[s] = Some(Place::Table);
            twice_flags[s] = true;
        }
    }
    // Consistent reads in another order under the table's partition key:
    // local indexes. Every other group: the first global index free for all
    // of its entities.
    let mut used: std::collections::HashMap<(EntityId, Place), ()> = Default::default();
    for (s, p) in place.iter().enumerate() {
        if let Some(p) = p {
            used.insert((slots[s].entity, *p), ());
        }
    }
    for &(e, p) in &existing.writes {
        used.insert((e, p), ());
    }
    let table_of = |e: EntityId| model.entity(e).table;
    let mut declared: Vec<(Option<crate::check::model::TableId>, Place)> =
        existing.indexes.iter().map(|&(t, p)| (Some(t), p)).collect();
    for &g in &priority {
        let group = group_list[g].clone();
        if let Some(p) = forced[g].filter(|&p| p != Place::Table) {
            for &s in &group {
                if place[s].is_some() || used.contains_key(&(slots[s].entity, p)) {
                    continue;
                }
                place[s] = Some(p);
                used.insert((slots[s].entity, p), ());
            }
            continue;
        }
        if group.iter().any(|&s| place[s].is_some()) {
            continue;
        }
        // A local index shares the table's partition key: the slot must be
        // keyed on the attributes the entity's table item is.
        let same_set = |a: &[String], b: &[String]| {
            let (mut a, mut b) = (a.to_vec(), b.to_vec());
            a.sort();
            b.sort();
            a == b
        };
        let base_partition = |e: EntityId| -> Option<Vec<String>> {
            match base_of.get(&e) {
                Some(&b) if !twice_flags[b] => Some(slots[b].partition.clone()),
                Some(_) => None,
                None => existing
                    .base_partition
                    .iter()
                    .find(|(x, _)| *x == e)
                    .map(|(_, p)| p.clone()),
            }
        };
        let local = consistent(&group, &slots)
            && group
                .iter()
                .all(|&s| base_partition(slots[s].entity).is_some_and(|p| same_set(&p, &slots[s].partition)));
        let make = |n: usize| if local { Place::Local(n) } else { Place::Global(n) };
        let n = (1..)
            .find(|&n| group.iter().all(|&s| !used.contains_key(&(slots[s].entity, make(n)))))
            .unwrap_or(1);
        let p = make(n);
        let table = table_of(slots[group[0]].entity);
        // AWS's quotas: 5 local indexes per table, 20 global ones by default.
        let quota = match p {
            Place::Local(n) => (n > MAX_LOCAL).then_some("at most 5 local indexes per table"),
            Place::Global(n) => (n > MAX_GLOBAL).then_some("20 global indexes per table, the default quota"),
            Place::Table => None,
        };
        if let Some(quota) = quota {
            for &s in &group {
                for &need in &slots[s].serves {
                    unserved.push((need, format!("it needs another index, beyond {quota}")));
                }
            }
            continue;
        }
        let new_index = !declared.contains(&(table, p));
        let indexes = declared.iter().filter(|(t, _)| *t == table).count();
        if new_index && max_indexes.is_some_and(|max| indexes >= max) {
            for &s in &group {
                for &need in &slots[s].serves {
                    unserved.push((
                        need,
                        format!(
                            "it needs another index, beyond the limit of {}",
                            max_indexes.unwrap_or(0)
                        ),
                    ));
                }
            }
            continue;
        }
        if new_index {
            declared.push((table, p));
        }
        for &s in &group {
            place[s] = Some(p);
            used.insert((slots[s].entity, p), ());
        }
    }
    unserved.sort();
    unserved.dedup();
    let mut group = vec![0; slots.len()];
    for g in &group_list {
        for &s in g {
            group[s] = g[0];
        }
    }
    Layout {
        group,
        twice: twice_flags,
        slots,
        place,
        unserved,
    }
}
