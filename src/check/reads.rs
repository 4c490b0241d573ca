//! What resolving one pattern read of the other entities, recorded while it
//! resolves, so that after an edit of an entity a pattern is resolved again
//! only when that entity's items were, or now would be, among what it read.
//!
//! Resolving reaches the entities it does not return in two ways only: by
//! the registry's lookups (the items whose key template could produce a
//! value) and by going over every entity (`Model::entity_ids`, a name
//! lookup). Both say here what they read, on the thread that resolves: a
//! lookup as its table, key attribute and value head, which an entity's
//! items can be tested against before and after the edit; going over every
//! entity as `whole`, which any edit of an entity reaches.

use std::cell::RefCell;

use super::model::{Entity, TableId};
use super::resolve::registry::heads_agree;

/// The lookups one pattern's resolving made.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reads {
    /// It went over every entity, or looked one up by name.
    whole: bool,
    /// Registry lookups, each once.
    lookups: Vec<Lookup>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Lookup {
    table: TableId,
    attr: Box<str>,
    /// The items whose literal head agrees with this one (one a prefix of
    /// the other); `None`: every item that writes `attr`.
    head: Option<Box<str>>,
}

thread_local! {
    static RECORDING: RefCell<Option<Reads>> = const { RefCell::new(None) };
}

/// `f()`, and what it read; a recording around this one (a check of a fix
/// being tried out runs inside a pattern's resolving) gets the reads too.
pub fn recording<T>(f: impl FnOnce() -> T) -> (T, Reads) {
    let outer = RECORDING.replace(Some(Reads::default()));
    let value = f();
    let reads = RECORDING.replace(outer).unwrap_or_default();
    RECORDING.with_borrow_mut(|outer| {
        if let Some(outer) = outer {
            outer.whole |= reads.whole;
            for lookup in &reads.lookups {
                outer.add(lookup.clone());
            }
        }
    });
    (value, reads)
}

/// A registry lookup of the items of `table` that write `attr` with a value
/// starting with `head` (`None`: any value).
pub fn lookup(table: TableId, attr: &str, head: Option<&str>) {
    RECORDING.with_borrow_mut(|reads| {
        if let Some(reads) = reads {
            reads.add(Lookup {
                table,
                attr: attr.into(),
                head: head.map(Into::into),
            });
        }
    });
}

/// Every entity was gone over.
pub fn whole() {
    RECORDING.with_borrow_mut(|reads| {
        if let Some(reads) = reads {
            reads.whole = true;
        }
    });
}

impl Reads {
    fn add(&mut self, lookup: Lookup) {
        if !self.lookups.contains(&lookup) {
            self.lookups.push(lookup);
        }
    }

    /// Whether any of these lookups finds an item that writes `written`.
    pub fn sees(&self, written: &Written) -> bool {
        if self.whole {
            return true;
        }
        let Some(table) = written.table else { return false };
        self.lookups.iter().filter(|l| l.table == table).any(|lookup| {
            (written.keys.iter().filter(|(attr, _)| **attr == *lookup.attr)).any(|(_, literal)| {
                let Some(head) = &lookup.head else { return true };
                heads_agree(literal, head)
            })
        })
    }
}

/// What an entity's items write that a lookup can find: its table, and per
/// key of each item, the attribute and its template's leading literal.
pub struct Written<'m> {
    table: Option<TableId>,
    keys: Vec<(&'m str, String)>,
}

impl<'m> Written<'m> {
    pub fn of(entity: &'m Entity) -> Written<'m> {
        Written {
            table: entity.table,
            keys: (entity.items.iter().flat_map(|item| &item.keys))
                .map(|key| (key.attr.as_str(), key.template.literal_prefix()))
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recording_inside_another_adds_to_it() {
        let table = TableId::new(0);
        let ((_, inner), outer) = recording(|| {
            lookup(table, "pk", Some("USER#"));
            recording(|| {
                lookup(table, "sk", None);
                whole();
            })
        });
        assert!(inner.whole && inner.lookups.len() == 1);
        assert!(outer.whole && outer.lookups.len() == 2);
        // Nothing is recorded outside a recording.
        lookup(table, "pk", None);
        assert_eq!(recording(|| ()).1, Reads::default());
    }
}
