//! Which key layouts each entity needs: a *slot* is one partition key (the
//! attributes it is built from) and one sort key (its holes, in order), to
//! be written to the table or to one index. A pattern is served by a slot
//! when it knows every partition-key attribute, the rest of its equalities
//! are the sort key's first holes (in any order), and the attribute it
//! ranges over or orders by is the hole after them.
//!
//! Slots are found per entity, greedily and deterministically: the needs of
//! several entities first (they must share a slot), then the exact reads,
//! the ordered ones and the rest, each into the first slot that can take
//! it, else a new one keyed on the attributes most of the entity's needs
//! know (so that a get and a list of one parent share a slot).

use super::needs::Need;
use crate::check::model::EntityId;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slot {
    pub entity: EntityId,
    /// The partition key's attributes, in the order they are written.
    pub partition: Vec<String>,
    /// The sort key's holes, in order.
    pub sort: Vec<String>,
    /// Set by an exact read: the sort key has exactly this many holes.
    pub exact_len: Option<usize>,
    /// The needs (indices into the need list) it serves.
    pub serves: Vec<usize>,
    /// A layout the schema already writes: where, and its partition key
    /// template as written (the entities that join its partition copy it).
    pub written: Option<(super::layout::Place, String)>,
}

/// What a need asks of a sort key once its partition attributes are known.
struct Demand<'n> {
    rest: Vec<&'n str>,
    sorted: Option<&'n str>,
    exact: bool,
}

impl Slot {
    /// The sort key after taking `demand`, or `None` when the two cannot
    /// share a key.
    fn with(&self, demand: &Demand) -> Option<(Vec<String>, Option<usize>)> {
        let mut sort = self.sort.clone();
        let r = demand.rest.len();
        let common = sort.len().min(r);
        if !sort[..common].iter().all(|a| demand.rest.contains(&a.as_str())) {
            return None;
        }
        for attr in &demand.rest {
            if sort.len() >= r {
                break;
            }
            if !sort.iter().any(|s| s == attr) {
                sort.push(attr.to_string());
            }
        }
        if let Some(sorted) = demand.sorted {
            match sort.get(r) {
                Some(s) if s != sorted => return None,
                Some(_) => {}
                None => {
                    if sort[..r].iter().any(|s| s == sorted) {
                        return None;
                    }
                    sort.push(sorted.to_string());
                }
            }
        }
        let mut exact_len = self.exact_len;
        if demand.exact {
            if sort.len() != r || exact_len.is_some_and(|n| n != r) {
                return None;
            }
            exact_len = Some(r);
        }
        if exact_len.is_some_and(|n| sort.len() != n) {
            return None;
        }
        Some((sort, exact_len))
    }
}

/// What `need` asks of the `k`-th returned entity's sort key: the one item
/// of a read of several entities is found by the known values alone.
fn demand<'n>(need: &'n Need, k: usize, partition: &[String]) -> Option<Demand<'n>> {
    if !partition.iter().all(|p| need.equal.contains(p)) {
        return None;
    }
    Some(Demand {
        rest: need
            .equal
            .iter()
            .map(String::as_str)
            .filter(|e| !partition.iter().any(|p| p == e))
            .collect(),
        sorted: need.sorted.as_deref().filter(|_| !need.single[k]),
        exact: need.exact || need.single[k],
    })
}

/// The partition keys a need could use: every non-empty subset of its
/// equalities (the empty one when it has none), the one most of the
/// entity's other needs also know first.
pub fn partition_choices(need: &Need, all: &[Need], entity: EntityId) -> Vec<Vec<String>> {
    let n = need.equal.len().min(8);
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut choices: Vec<Vec<String>> = (1..1u32 << n)
        .map(|mask| {
            (0..n)
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| need.equal[i].clone())
                .collect()
        })
        .collect();
    let shared = |choice: &Vec<String>| {
        all.iter()
            .filter(|m| m.entities.contains(&entity))
            .filter(|m| choice.iter().all(|c| m.equal.contains(c)))
            .count()
    };
    // Ties: the longer key, whose values spread the writes more.
    choices.sort_by_key(|c| (std::cmp::Reverse(shared(c)), std::cmp::Reverse(c.len())));
    choices
}

/// The slots of every entity, given the partition key each need is pinned
/// to (`pinned[i]`, when the search pins one) and the entity order.
pub struct Cover {
    pub slots: Vec<Slot>,
    /// Per need, per returned entity: the slot that serves it.
    pub served_by: Vec<Vec<Option<usize>>>,
}

/// `written`: the layouts the schema already has, which the needs may use
/// as they are (their sort keys cannot grow).
pub fn cover(needs: &[Need], pinned: &[Option<Vec<String>>], written: &[Slot]) -> Cover {
    let mut slots: Vec<Slot> = written.to_vec();
    let mut served_by: Vec<Vec<Option<usize>>> = needs.iter().map(|n| vec![None; n.entities.len()]).collect();
    let mut order: Vec<usize> = (0..needs.len()).collect();
    // Shared needs first, then exact reads, then ordered ones, then the rest.
    order.sort_by_key(|&i| {
        let n = &needs[i];
        let rank = if n.entities.len() > 1 {
            0
        } else if n.exact {
            1
        } else if n.sorted.is_some() {
            2
        } else {
            3
        };
        (rank, i)
    });
    for i in order {
        let need = &needs[i];
        let first = need.entities[0];
        let choices = match &pinned.get(i).cloned().flatten() {
            Some(p) => vec![p.clone()],
            None => partition_choices(need, needs, first),
        };
        // The first choice every returned entity can take into an existing
        // slot, else the first choice, in new slots where needed.
        let fits = |choice: &Vec<String>, slots: &[Slot], k: usize| {
            let entity = need.entities[k];
            let demand = demand(need, k, choice)?;
            slots
                .iter()
                .position(|s| s.entity == entity && s.partition == *choice && s.with(&demand).is_some())
        };
        let chosen = choices
            .iter()
            .find(|c| (0..need.entities.len()).all(|k| fits(c, &slots, k).is_some()))
            .or(choices.first())
            .cloned()
            .unwrap_or_default();
        for (k, &entity) in need.entities.iter().enumerate() {
            let Some(demand) = demand(need, k, &chosen) else {
                continue;
            };
            let slot = match fits(&chosen, &slots, k) {
                Some(s) => s,
                None => {
                    slots.push(Slot {
                        entity,
                        partition: chosen.clone(),
                        sort: Vec::new(),
                        exact_len: None,
                        serves: Vec::new(),
                        written: None,
                    });
                    slots.len() - 1
                }
            };
            if let Some((sort, exact_len)) = slots[slot].with(&demand) {
                slots[slot].sort = sort;
                slots[slot].exact_len = exact_len;
                slots[slot].serves.push(i);
                served_by[i][k] = Some(slot);
            }
        }
    }
    Cover { slots, served_by }
}
