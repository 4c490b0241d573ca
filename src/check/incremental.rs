//! Checking a schema again after an edit: a pattern keeps its earlier Query
//! when nothing it was resolved from can have changed.
//!
//! Resolving a pattern reads the pattern, its table (keys, indexes) and the
//! entities of that table (their key templates, through the registry's
//! per-table buckets, and their attributes); nothing of other tables. So
//! after an edit a pattern is resolved again only when the edit touched it,
//! its table, or an entity of its table. Patterns whose resolving reported
//! something are always resolved again: their fixes are tried out against
//! the whole schema. Lowering and the lints run in full; they are a third
//! of a check, resolving is two thirds (docs/performance.md).
//!
//! An item is "touched" when the edit reaches into its stretch of text,
//! from its keyword to the next item's (where its parse could change), or
//! into the keyword of the item after it. Every other item is the same
//! text, moved: its earlier span shifted by the edit's length must be its
//! span now, or nothing is reused. The result equals a fresh check
//! (`tests::an_incremental_check_equals_a_fresh_one`, tests/edit_props.rs).

use std::borrow::Cow;

use super::model::{Entity, Model, Pattern, Table};
use super::resolve::Resolution;
use super::{Schema, Source};
use crate::syntax::shift::Shift;
use crate::syntax::{FileId, FileSpan, Span};

/// A check of earlier texts of the same files, which a new check can reuse.
pub struct Earlier<'a> {
    /// The earlier texts, by file.
    pub texts: &'a [(FileId, &'a str)],
    pub schema: &'a Schema,
    /// The earlier check's Queries: borrowed (the kept ones are copied) or,
    /// when no one else holds that check any more, taken out of it (the
    /// kept ones move: copying thousands of them is a tenth of a re-check).
    pub resolutions: Cow<'a, [Option<Resolution>]>,
}

impl<'a> Earlier<'a> {
    /// The check `schema` of `texts`, borrowed.
    pub fn new(texts: &'a [(FileId, &'a str)], schema: &'a Schema) -> Earlier<'a> {
        Earlier {
            texts,
            schema,
            resolutions: Cow::Borrowed(&schema.resolutions),
        }
    }
}

/// One file's edit: where it starts, where it ends in the earlier text, and
/// the item starts whose items it touched, in both texts.
struct Edit {
    file: FileId,
    /// The end of the replaced text in the earlier text.
    old_end: usize,
    delta: isize,
    old_touched: (usize, usize),
    new_touched: (usize, usize),
}

/// The longest keyword that starts an item (`pattern`): an edit this close
/// after an item's start may have broken its keyword, which ends the stretch
/// of the item before.
const KEYWORD: usize = "pattern".len();

/// Per pattern of the new model: its earlier Query, moved to the new text,
/// when it cannot have changed (`Some`); `None` to resolve it.
pub(super) fn reusable(earlier: Earlier<'_>, sources: &[Source<'_>], model: &Model) -> Vec<Option<Option<Resolution>>> {
    let none = || vec![None; model.patterns.len()];
    let old = &earlier.schema.model;
    if old.tables.len() != model.tables.len()
        || old.entities.len() != model.entities.len()
        || old.patterns.len() != model.patterns.len()
        || earlier.schema.quiet.len() != old.patterns.len()
        || earlier.resolutions.len() != old.patterns.len()
    {
        return none();
    }
    let Some(edits) = edits(&earlier, sources, old, model) else {
        return none();
    };
    let Some(tables) = changed(&edits, &old.tables, &model.tables) else {
        return none();
    };
    if tables.iter().any(|&c| c) {
        return none();
    }
    let Some(entities) = changed(&edits, &old.entities, &model.entities) else {
        return none();
    };
    let mut dirty = vec![false; model.tables.len()];
    for (i, _) in entities.iter().enumerate().filter(|(_, c)| **c) {
        for table in [old.entities[i].table, model.entities[i].table] {
            let Some(table) = table else { return none() };
            dirty[table.index()] = true;
        }
    }
    let Some(patterns) = changed(&edits, &old.patterns, &model.patterns) else {
        return none();
    };
    let keep = |i: usize| {
        let pattern = &model.patterns[i];
        let first = pattern.returns.first().and_then(|r| r.entity);
        let table = first.and_then(|e| model.entity(e).table);
        table.is_some_and(|table| !patterns[i] && !dirty[table.index()] && earlier.schema.quiet[i])
    };
    let kept: Vec<Option<Option<Resolution>>> = match earlier.resolutions {
        Cow::Owned(mut owned) => (0..owned.len()).map(|i| keep(i).then(|| owned[i].take())).collect(),
        Cow::Borrowed(borrowed) => (0..borrowed.len())
            .map(|i| keep(i).then(|| borrowed[i].clone()))
            .collect(),
    };
    kept.into_iter()
        .enumerate()
        .map(|(i, resolution)| {
            let mut resolution = resolution?;
            if let Some(resolution) = &mut resolution {
                moved(&edits, &mut resolution.relies_on);
                if let Some(filter) = &mut resolution.filter {
                    filter.shift(shift_of(&edits, old.patterns[i].file, old.patterns[i].span.start));
                }
            }
            Some(resolution)
        })
        .collect()
}

/// A table, entity or pattern: where it is declared.
trait Declared {
    fn place(&self) -> (FileId, Span);
}

impl Declared for Table {
    fn place(&self) -> (FileId, Span) {
        (self.file, self.span)
    }
}

impl Declared for Entity {
    fn place(&self) -> (FileId, Span) {
        (self.file, self.span)
    }
}

impl Declared for Pattern {
    fn place(&self) -> (FileId, Span) {
        (self.file, self.span)
    }
}

/// Per item, in order: whether the edits touched it; `None` when an earlier
/// item and the one now at its place are not the same item.
fn changed<T: Declared>(edits: &[Edit], old: &[T], new: &[T]) -> Option<Vec<bool>> {
    old.iter()
        .zip(new)
        .map(|(was, is)| matched(edits, was.place(), is.place()))
        .collect()
}

/// The edit of each file whose text changed; `None` when the files are not
/// the same ones.
fn edits(earlier: &Earlier<'_>, sources: &[Source<'_>], old: &Model, new: &Model) -> Option<Vec<Edit>> {
    if earlier.texts.len() != sources.len() {
        return None;
    }
    let mut edits = Vec::new();
    for (&(file, before), now) in earlier.texts.iter().zip(sources) {
        if file != now.file {
            return None;
        }
        if std::ptr::eq(before, now.text) {
            continue;
        }
        let (prefix, suffix) = crate::slices::common_ends(before.as_bytes(), now.text.as_bytes());
        if prefix == before.len() && prefix == now.text.len() {
            continue;
        }
        let old_end = before.len() - suffix;
        let new_end = now.text.len() - suffix;
        edits.push(Edit {
            file,
            old_end,
            delta: now.text.len() as isize - before.len() as isize,
            old_touched: touched(&item_starts(old, file), prefix, old_end),
            new_touched: touched(&item_starts(new, file), prefix, new_end),
        });
    }
    Some(edits)
}

/// Where every item of `file` starts, in order.
fn item_starts(model: &Model, file: FileId) -> Vec<usize> {
    fn of<T: Declared>(items: &[T], file: FileId) -> impl Iterator<Item = usize> + '_ {
        items
            .iter()
            .map(T::place)
            .filter(move |(f, _)| *f == file)
            .map(|(_, span)| span.start)
    }
    let mut starts: Vec<usize> = of(&model.tables, file)
        .chain(of(&model.entities, file))
        .chain(of(&model.patterns, file))
        .collect();
    starts.sort_unstable();
    starts
}

/// The range of item starts an edit of `start..end` touches: from the item
/// it begins in (and the one before, if it may have broken that item's
/// keyword) to its end.
fn touched(starts: &[usize], start: usize, end: usize) -> (usize, usize) {
    let within = starts.partition_point(|&s| s <= start);
    match within.checked_sub(1) {
        Some(k) if start <= starts[k] + KEYWORD => (starts[k.saturating_sub(1)], end),
        Some(k) => (starts[k], end),
        // Before the first item: the text before it is parsed with it.
        None => (start, starts.first().map_or(end, |&first| end.max(first))),
    }
}

/// Whether an item is touched (`Some(true)`), the same text moved
/// (`Some(false)`), or not the same item at all (`None`).
fn matched(edits: &[Edit], (was_file, was): (FileId, Span), (is_file, is): (FileId, Span)) -> Option<bool> {
    if was_file != is_file {
        return None;
    }
    let Some(edit) = edits.iter().find(|e| e.file == was_file) else {
        return (was == is).then_some(false);
    };
    let inside = |(from, to): (usize, usize), at: usize| (from..=to).contains(&at);
    match (inside(edit.old_touched, was.start), inside(edit.new_touched, is.start)) {
        (true, true) => Some(true),
        (false, false) => {
            let mut moved = was;
            if was.start > edit.old_end {
                moved.shift(edit.delta);
            }
            (moved == is).then_some(false)
        }
        _ => None,
    }
}

/// How far an edit moved the text at `at` of `file`.
fn shift_of(edits: &[Edit], file: FileId, at: usize) -> isize {
    edits
        .iter()
        .find(|e| e.file == file && at > e.old_end)
        .map_or(0, |e| e.delta)
}

fn moved(edits: &[Edit], spans: &mut [FileSpan]) {
    for at in spans {
        at.span.shift(shift_of(edits, at.file, at.span.start));
    }
}

#[cfg(test)]
mod tests;
