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

use smol_str::SmolStr;

use super::model::{Entity, TableId};
use super::resolve::registry::heads_agree;

/// The lookups one pattern's resolving made, as it records them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reads {
    /// It went over every entity, or looked one up by name.
    whole: bool,
    /// Registry lookups, each once.
    lookups: Vec<Lookup>,
}

/// Names inline (`SmolStr`: attribute names and heads are short), so that
/// testing a lookup reads no memory beside it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Lookup {
    table: TableId,
    attr: SmolStr,
    /// The items whose literal head agrees with this one (one a prefix of
    /// the other); `None`: every item that writes `attr`.
    head: Option<SmolStr>,
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
            // Most patterns make one or two lookups; pushed, the list would
            // take room for four, and every pattern's is held at the
            // check's peak.
            self.lookups.reserve_exact(1);
            self.lookups.push(lookup);
        }
    }
}

/// What each pattern's resolving read, by pattern, the lookups of all of
/// them side by side in one list. After an edit of an entity every
/// pattern's reads are tested against it: held each in a block of its own,
/// that test was a cache miss or two per pattern, 8 % of a keystroke's time
/// at 50k lines; in one list it reads memory in order.
///
/// The next check's table is this one, renewed ([`Renewal`]): a kept
/// pattern's lookups stay where they are, a pattern resolved again adds its
/// own at the end. Copying every kept lookup was a twentieth of a
/// re-check's instructions at 50k lines.
#[derive(Clone, Debug, Default)]
pub struct ReadsTable {
    patterns: Vec<Entry>,
    lookups: Vec<Lookup>,
}

/// One pattern's reads: its lookups' range, or `None` when they are not
/// known (its resolving reported something: it is resolved again after
/// any edit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    recorded: Option<(u32, u32)>,
    whole: bool,
}

impl Entry {
    const UNKNOWN: Entry = Entry {
        recorded: None,
        whole: false,
    };
}

/// One pattern's reads, in a [`ReadsTable`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PatternReads<'t> {
    whole: bool,
    lookups: &'t [Lookup],
}

/// Two tables are equal when each pattern's reads are: where in the list
/// they lie, and what no pattern's range covers any more, does not count.
impl PartialEq for ReadsTable {
    fn eq(&self, other: &ReadsTable) -> bool {
        self.iter().eq(other.iter())
    }
}

impl Eq for ReadsTable {}

impl ReadsTable {
    /// How many patterns it holds reads for.
    pub fn len(&self) -> usize {
        self.patterns.len()
    }

    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }

    /// The reads of pattern `i`, when they are known.
    pub fn get(&self, i: usize) -> Option<PatternReads<'_>> {
        let entry = self.patterns.get(i)?;
        let (start, len) = entry.recorded?;
        Some(PatternReads {
            whole: entry.whole,
            lookups: &self.lookups[start as usize..(start + len) as usize],
        })
    }

    pub fn iter(&self) -> impl Iterator<Item = Option<PatternReads<'_>>> {
        (0..self.len()).map(|i| self.get(i))
    }

    /// The next check's table, made from this one: its patterns are added
    /// again in order, kept or resolved again.
    pub fn renew(mut self, patterns: usize) -> Renewal {
        let earlier = std::mem::replace(&mut self.patterns, Vec::with_capacity(patterns));
        Renewal { earlier, table: self }
    }

    /// How many lookups some pattern's range covers.
    fn used(&self) -> usize {
        (self.patterns.iter())
            .filter_map(|e| e.recorded)
            .map(|(_, len)| len as usize)
            .sum()
    }

    /// Only the `used` lookups some pattern's range covers, in its order.
    fn compacted(&self, used: usize) -> ReadsTable {
        let mut lookups = Vec::with_capacity(used);
        let patterns = (self.patterns.iter())
            .map(|&entry| match entry.recorded {
                Some((start, len)) => {
                    let at = lookups.len() as u32;
                    lookups.extend_from_slice(&self.lookups[start as usize..(start + len) as usize]);
                    Entry {
                        recorded: Some((at, len)),
                        whole: entry.whole,
                    }
                }
                None => entry,
            })
            .collect();
        ReadsTable { patterns, lookups }
    }
}

/// A table being renewed: the earlier check's patterns' entries beside it.
pub struct Renewal {
    earlier: Vec<Entry>,
    table: ReadsTable,
}

impl Renewal {
    /// The next pattern's reads are those of earlier pattern `was`.
    pub fn keep(&mut self, was: usize) {
        let entry = self.earlier.get(was).copied().unwrap_or(Entry::UNKNOWN);
        self.table.patterns.push(entry);
    }

    /// The next pattern's reads (`None`: not known).
    pub fn push(&mut self, reads: Option<Reads>) {
        let entry = match reads {
            Some(reads) => {
                // Counts of a schema's lookups fit in `u32` many times
                // over: a pattern makes a handful.
                let start = self.table.lookups.len() as u32;
                let len = reads.lookups.len() as u32;
                self.table.lookups.extend(reads.lookups);
                Entry {
                    recorded: Some((start, len)),
                    whole: reads.whole,
                }
            }
            None => Entry::UNKNOWN,
        };
        self.table.patterns.push(entry);
    }

    /// The table; copied down to what its patterns read once more than
    /// half of it is what they no longer read, so that it is at most
    /// twice that, and each lookup is copied once on average.
    pub fn finish(self) -> ReadsTable {
        let table = self.table;
        let used = table.used();
        if (table.lookups.len() - used) * 2 > table.lookups.len() {
            table.compacted(used)
        } else {
            table
        }
    }
}

impl PatternReads<'_> {
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

    #[test]
    fn a_renewed_table_keeps_each_patterns_reads_and_stays_at_most_twice_them() {
        let table = TableId::new(0);
        let read = |attr: &str| recording(|| lookup(table, attr, Some("USER#"))).1;
        let mut renewal = ReadsTable::default().renew(3);
        renewal.push(Some(read("pk")));
        renewal.push(None);
        renewal.push(Some(recording(whole).1));
        let first = renewal.finish();
        let at = |t: &ReadsTable, i| t.get(i).map(|r| (r.whole, r.lookups.to_vec()));
        assert_eq!(at(&first, 0), Some((false, read("pk").lookups)));
        assert_eq!(at(&first, 1), None);
        assert_eq!(at(&first, 2), Some((true, Vec::new())));
        assert_eq!(at(&first, 3), None);
        // Renewed in another order, one resolved again: each pattern's
        // reads are its own still, the earlier ones left where they were.
        let mut renewal = first.clone().renew(3);
        renewal.keep(2);
        renewal.push(Some(read("sk")));
        renewal.keep(0);
        let second = renewal.finish();
        assert_eq!(second.len(), 3);
        assert_eq!(
            [at(&second, 0), at(&second, 1), at(&second, 2)],
            [at(&first, 2), Some((false, read("sk").lookups)), at(&first, 0)]
        );
        assert_eq!(second.lookups.len(), 2);
        // Resolved again and again, the lookups no one reads are dropped
        // once they are more than half.
        let mut fresh = ReadsTable::default().renew(3);
        fresh.push(Some(read("pk")));
        fresh.push(Some(read("sk")));
        fresh.push(Some(read("pk")));
        let fresh = fresh.finish();
        let mut table = second;
        for _ in 0..10 {
            let mut renewal = table.renew(3);
            renewal.push(Some(read("pk")));
            renewal.keep(1);
            renewal.keep(2);
            table = renewal.finish();
            assert!(table.lookups.len() <= 2 * 3, "{} lookups", table.lookups.len());
            assert_eq!(table, fresh);
        }
    }
}
