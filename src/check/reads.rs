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
use std::sync::Arc;

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
            self.lookups.push(lookup);
        }
    }
}

/// What each pattern's resolving read, by pattern. After an edit of an
/// entity every pattern's reads are tested against it: held each in a
/// block of its own, that test was a cache miss or two per pattern, 8 % of
/// a keystroke's time at 50k lines. Here the lookups lie side by side in a
/// few large blocks, read in order. A check's table shares the blocks of
/// the table before it and adds one for the patterns it resolved again, so
/// the kept patterns' lookups are not copied; once the blocks are many, or
/// half of what they hold is no one's, they are copied into one.
#[derive(Clone, Debug, Default)]
pub struct ReadsTable {
    patterns: Vec<Entry>,
    blocks: Vec<Arc<[Lookup]>>,
    /// The block being filled, the next of `blocks`.
    filling: Vec<Lookup>,
}

/// Past this many blocks, a table's are copied into one.
const MAX_BLOCKS: usize = 32;

/// One pattern's reads: its lookups' block and range, or `None` when they
/// are not known (its resolving reported something: it is resolved again
/// after any edit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    recorded: Option<(u32, u32, u32)>,
    whole: bool,
}

/// One pattern's reads, in a [`ReadsTable`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PatternReads<'t> {
    whole: bool,
    lookups: &'t [Lookup],
}

impl PartialEq for ReadsTable {
    /// The same reads for each pattern, however they lie in blocks.
    fn eq(&self, other: &ReadsTable) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for ReadsTable {}

impl ReadsTable {
    /// An empty table for the next check, sharing `earlier`'s blocks: it
    /// may keep earlier patterns' reads ([`ReadsTable::push_kept`]).
    pub fn following(earlier: &ReadsTable, patterns: usize) -> ReadsTable {
        let mut blocks = earlier.blocks.clone();
        if !earlier.filling.is_empty() {
            blocks.push(earlier.filling.clone().into());
        }
        ReadsTable {
            patterns: Vec::with_capacity(patterns),
            blocks,
            filling: Vec::new(),
        }
    }

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
        let (block, start, len) = entry.recorded?;
        let block: &[Lookup] = self.blocks.get(block as usize).map_or(&self.filling, |b| b);
        Some(PatternReads {
            whole: entry.whole,
            lookups: &block[start as usize..(start + len) as usize],
        })
    }

    pub fn iter(&self) -> impl Iterator<Item = Option<PatternReads<'_>>> {
        (0..self.len()).map(|i| self.get(i))
    }

    /// Adds the next pattern's reads (`None`: not known).
    pub fn push(&mut self, reads: Option<Reads>) {
        let Some(reads) = reads else {
            self.patterns.push(Entry {
                recorded: None,
                whole: false,
            });
            return;
        };
        // Counts of a schema's lookups fit in `u32` many times over: a
        // pattern makes a handful.
        let (block, start) = (self.blocks.len() as u32, self.filling.len() as u32);
        let len = reads.lookups.len() as u32;
        self.filling.extend(reads.lookups);
        self.patterns.push(Entry {
            recorded: Some((block, start, len)),
            whole: reads.whole,
        });
    }

    /// Adds the next pattern's reads: those of pattern `i` of `earlier`,
    /// the table this one follows.
    pub fn push_kept(&mut self, earlier: &ReadsTable, i: usize) {
        let entry = earlier.patterns.get(i).copied();
        self.patterns.push(entry.unwrap_or(Entry {
            recorded: None,
            whole: false,
        }));
    }

    /// Closes the block being filled; copies the blocks into one when they
    /// are many or mostly no one's.
    pub fn finish(&mut self) {
        let live: usize = (self.patterns.iter())
            .filter_map(|e| e.recorded.map(|(_, _, len)| len as usize))
            .sum();
        let held: usize = self.blocks.iter().map(|b| b.len()).sum::<usize>() + self.filling.len();
        if self.blocks.len() < MAX_BLOCKS && held <= 2 * live + 1024 {
            if !self.filling.is_empty() {
                self.blocks.push(std::mem::take(&mut self.filling).into());
            }
            return;
        }
        let mut one = Vec::with_capacity(live);
        let mut patterns = Vec::with_capacity(self.patterns.len());
        for i in 0..self.len() {
            let entry = match self.get(i) {
                Some(reads) => {
                    let start = one.len() as u32;
                    one.extend_from_slice(reads.lookups);
                    Entry {
                        recorded: Some((0, start, reads.lookups.len() as u32)),
                        whole: reads.whole,
                    }
                }
                None => Entry {
                    recorded: None,
                    whole: false,
                },
            };
            patterns.push(entry);
        }
        *self = ReadsTable {
            patterns,
            blocks: vec![one.into()],
            filling: Vec::new(),
        };
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
    fn a_table_keeps_each_patterns_reads_through_the_checks_that_follow() {
        let table = TableId::new(0);
        let recorded = |head: &str| recording(|| lookup(table, "pk", Some(head))).1;
        let at = |t: &ReadsTable, i| t.get(i).map(|r| (r.whole, r.lookups.to_vec()));
        let mut reads = ReadsTable::default();
        reads.push(Some(recorded("A#")));
        reads.push(None);
        reads.push(Some(recording(whole).1));
        reads.finish();
        assert_eq!(at(&reads, 0), Some((false, recorded("A#").lookups)));
        assert_eq!(at(&reads, 1), None);
        assert_eq!(at(&reads, 2), Some((true, Vec::new())));
        assert_eq!(at(&reads, 3), None);
        // Checks that each keep the first two patterns' reads (moved to the
        // other's place) and record the third's again: the blocks are
        // copied into one now and then, and each pattern's reads are its own.
        for n in 0..100 {
            let head = format!("H{n}#");
            let mut next = ReadsTable::following(&reads, 3);
            next.push_kept(&reads, 1);
            next.push_kept(&reads, 0);
            next.push(Some(recorded(&head)));
            next.finish();
            assert!(next.blocks.len() <= MAX_BLOCKS);
            assert_eq!([at(&next, 0), at(&next, 1)], [at(&reads, 1), at(&reads, 0)]);
            assert_eq!(at(&next, 2), Some((false, recorded(&head).lookups)));
            reads = next;
        }
        let held: usize = reads.blocks.iter().map(|b| b.len()).sum();
        assert!(held <= 2 * 2 + 1024);
    }
}
