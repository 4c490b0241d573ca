//! Checking a schema again after an edit: a pattern keeps its earlier Query
//! when nothing it was resolved from can have changed.
//!
//! Resolving a pattern reads the pattern, its table (keys, indexes), the
//! entities it returns and the items of other entities that its registry
//! lookups found, or every entity when it went over them all; what it
//! looked up is recorded as it resolves (`check::reads`). So after an edit
//! a pattern is resolved again only when its lowering was not kept (see
//! below), or a touched entity's items, before or after the edit, are
//! among what it looked up. Patterns whose resolving reported something
//! are always resolved again: their fixes are tried out against the whole
//! schema.
//!
//! Lowering an entity reads its own tree and the tables: an entity the edit
//! did not touch, when no table was touched either, is the earlier model's
//! entity moved (with what lowering it reported, moved too). A pattern
//! also reads the entities' names and what it returns: it is kept when
//! untouched, returning no touched entity, and naming none an edit renamed
//! (old name or new) nor an unknown one (its "did you mean" reads every
//! name). Tables are lowered again. The model lints that read one table
//! (its declaration, its entities, their buckets) keep their findings for
//! a table no touched entity was or is on, moved; the others run in full.
//!
//! An item is "touched" when the edit reaches into its stretch of text,
//! from its keyword to the next item's (where its parse could change), or
//! into the keyword of the item after it. Every other item is the same
//! text, moved: its earlier span shifted by the edit's length must be its
//! span now, or nothing is reused. Tables are referred to by their index,
//! so they must be as many as before, each at its index. Entities and
//! patterns may be added or removed (a keyword typed or broken), the
//! untouched ones matched in order; entities are referred to by their index
//! too, so what is kept (a pattern's returns, a Query, the registry's
//! items, the order lint's findings) is renumbered, and a kept Query that
//! names an entity without an id now is resolved again. The result equals
//! a fresh check (`tests::an_incremental_check_equals_a_fresh_one`,
//! tests/edit_props.rs).
//!
//! A keystroke mostly changes one item in place: every entity and pattern
//! is then either kept at its index or lowered again there. When no one
//! else holds the earlier model, it is lowered into rather than moved out
//! of item by item: moving thousands of items and hashing their names into
//! new maps cost a 50k-line file's keystroke more than a quarter of its
//! time.

use std::borrow::Cow;

use smol_str::SmolStr;

use super::lints::{Dependent, TableFindings};
use super::lower::Places;
use super::model::{Entity, EntityId, Model, Pattern};
use super::reads::{ReadsTable, Written};
use super::resolve::registry::Registry;
use super::resolve::{Resolution, Reused};
use super::{Schema, Source};
use crate::diagnostic::Diagnostic;
use crate::syntax::shift::Shift;
use crate::syntax::{FileId, FileSpan, Span, ast};

mod moved;

/// A check of earlier texts of the same files, which a new check can reuse.
pub struct Earlier<'a> {
    /// The earlier texts, by file.
    pub texts: &'a [(FileId, &'a str)],
    pub schema: &'a Schema,
    /// The earlier check's Queries: borrowed (the kept ones are copied) or,
    /// when no one else holds that check any more, taken out of it (the
    /// kept ones move: copying thousands of them is a tenth of a re-check).
    pub resolutions: Cow<'a, [Option<Resolution>]>,
    /// The earlier check's model, borrowed (a kept entity is copied) or
    /// taken out of it (a kept entity moves).
    pub model: Cow<'a, Model>,
    /// The earlier check's registry, borrowed or taken: the buckets of a
    /// table no touched entity was or is on are kept.
    pub registry: Cow<'a, Registry>,
    /// What the earlier check's patterns read, borrowed or taken: taken,
    /// the kept patterns' reads stay where they are.
    pub reads: Cow<'a, ReadsTable>,
}

impl<'a> Earlier<'a> {
    /// The check `schema` of `texts`, borrowed.
    pub fn new(texts: &'a [(FileId, &'a str)], schema: &'a Schema) -> Earlier<'a> {
        Earlier {
            texts,
            schema,
            resolutions: Cow::Borrowed(&schema.resolutions),
            model: Cow::Borrowed(&schema.model),
            registry: Cow::Borrowed(&schema.registry),
            reads: Cow::Borrowed(&schema.reads),
        }
    }
}

/// What an edit leaves as it was: worked out from the texts and where the
/// items are declared, before anything is lowered.
pub(super) struct Plan {
    edits: Vec<Edit>,
    /// Per entity now, the earlier entity it is, moved; `None` where the
    /// edit touched it or it is new.
    entities: Vec<Option<usize>>,
    /// Per earlier entity, its id now; `None` where the edit touched it or
    /// removed it. Entities are referred to by their index, so what is kept
    /// of the earlier check is renumbered when one is added or removed.
    renumbered: Vec<Option<EntityId>>,
    /// Per pattern, the earlier pattern it is, moved; `None` where the edit
    /// touched it or it is new. Patterns refer to no other pattern, so an
    /// edit may add or remove some and keep the others.
    patterns: Vec<Option<usize>>,
    /// The earlier entities the edit touched or removed, as they were: what
    /// they wrote is what a kept Query may have read. Copied, for the
    /// earlier model may be lowered into.
    touched_before: Vec<Entity>,
    /// How many patterns the earlier model had.
    old_patterns: usize,
    /// Every entity and pattern now is the earlier one at the same index
    /// (kept) or one lowered in its place: the earlier model, when owned,
    /// can be lowered into, nothing moving.
    in_place: bool,
}

impl Plan {
    /// `None` when nothing is kept: the tables are not the same ones (in
    /// number or in place: they are referred to by their index), the
    /// entities or patterns the edit did not touch are not the same ones in
    /// the same order, or the edit touched a table (every entity and
    /// pattern reads one).
    pub(super) fn new(earlier: &Earlier<'_>, sources: &[Source<'_>], places: &Places) -> Option<Plan> {
        let old = &*earlier.model;
        if old.tables.len() != places.tables.len()
            || old.entity_diagnostics.len() != old.entities.len()
            || old.pattern_diagnostics.len() != old.patterns.len()
        {
            return None;
        }
        let edits = edits(earlier, sources, old, places)?;
        let tables = changed(&edits, old.tables.iter().map(|t| (t.file, t.span)), &places.tables)?;
        if tables.iter().any(|&c| c) {
            return None;
        }
        let entities = aligned(&edits, old.entities.iter().map(|e| (e.file, e.span)), &places.entities)?;
        let mut renumbered = vec![None; old.entities.len()];
        for (now, was) in entities.iter().enumerate() {
            if let Some(was) = *was {
                renumbered[was] = Some(EntityId::new(now));
            }
        }
        let patterns = aligned(&edits, old.patterns.iter().map(|p| (p.file, p.span)), &places.patterns)?;
        let touched_before = (renumbered.iter().zip(&old.entities))
            .filter(|(now, _)| now.is_none())
            .map(|(_, e)| e.clone())
            .collect();
        let same_places = |now: &[Option<usize>], before: usize| {
            now.len() == before && now.iter().enumerate().all(|(i, was)| was.is_none_or(|was| was == i))
        };
        let in_place = same_places(&entities, old.entities.len()) && same_places(&patterns, old.patterns.len());
        Some(Plan {
            edits,
            entities,
            renumbered,
            patterns,
            touched_before,
            old_patterns: old.patterns.len(),
            in_place,
        })
    }

    /// Whether the edit touched (or removed) the earlier entity `was`.
    fn touched_before(&self, was: EntityId) -> bool {
        self.renumbered.get(was.index()).is_none_or(Option::is_none)
    }

    /// The id now of an earlier entity the edit did not touch. Only what
    /// reads no touched entity is kept, so each id met is one of those.
    fn renumber(&self, was: EntityId) -> Option<EntityId> {
        self.renumbered.get(was.index()).copied().flatten()
    }

    /// Whether any earlier entity the edit did not touch has another id now.
    fn renumbers(&self) -> bool {
        (self.renumbered.iter().enumerate()).any(|(was, now)| now.is_some_and(|now| now.index() != was))
    }

    /// The entities the edit touched: earlier ones (touched or removed),
    /// then ones now (touched or new).
    fn touched_entities<'m>(&'m self, new: &'m Model) -> impl Iterator<Item = &'m Entity> {
        self.touched_before.iter().chain(self.touched_now_in(new))
    }

    /// The entities now that the edit touched or that are new.
    fn touched_now_in<'m>(&self, new: &'m Model) -> impl Iterator<Item = &'m Entity> {
        self.touched_now().filter_map(|id| new.entities.get(id.index()))
    }

    /// The ids of the entities now that the edit touched or that are new.
    fn touched_now(&self) -> impl Iterator<Item = EntityId> + '_ {
        (self.entities.iter().enumerate()).filter_map(|(now, was)| was.is_none().then_some(EntityId::new(now)))
    }
}

/// Lowering with the earlier model's entities and patterns where the plan
/// keeps them: moved out of the earlier model into a new one, or, when the
/// plan keeps every item where it was, left where they are in the earlier
/// model, which becomes the new one.
pub(super) struct Keeping<'p, 'e, 'a> {
    plan: &'p Plan,
    earlier: &'e mut Earlier<'a>,
    /// Lowering into the earlier model.
    in_place: bool,
    /// The names, earlier and now, of the entities the edit renamed (a
    /// pattern returning none of them finds what it found before); known
    /// once the entities are lowered.
    renamed: Option<Vec<SmolStr>>,
    /// Per pattern whose earlier lowering was kept, how far the edit moved
    /// it.
    kept_patterns: Vec<Option<isize>>,
}

impl<'p, 'e, 'a> Keeping<'p, 'e, 'a> {
    pub(super) fn new(plan: &'p Plan, earlier: &'e mut Earlier<'a>) -> Self {
        Keeping {
            in_place: plan.in_place && matches!(earlier.model, Cow::Owned(_)),
            plan,
            earlier,
            renamed: None,
            kept_patterns: vec![None; plan.patterns.len()],
        }
    }

    /// Per pattern whose earlier lowering was kept (only then can its
    /// earlier Query be: what it returns is the same), how far it moved.
    pub(super) fn kept_patterns(self) -> Vec<Option<isize>> {
        self.kept_patterns
    }

    fn shift(&self, file: FileId, at: usize) -> isize {
        shift_of(&self.plan.edits, file, at)
    }

    /// Keeps the earlier model's `was`th entity or pattern as the `n`th now,
    /// with what lowering it reported (reported again into `diagnostics`),
    /// moved to the new text; `docs` are its docs now. How far it moved.
    fn keep<T: moved::Lowered + Shift>(
        &mut self,
        n: usize,
        was: usize,
        docs: &Option<Box<ast::Docs>>,
        model: &mut Model,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> isize {
        if !self.in_place {
            let (kept, reported) = moved::take::<T>(&mut self.earlier.model, was);
            T::set(model, n, kept, reported);
        }
        let (items, reports) = T::of_mut(model);
        let (kept, reported) = (&mut items[n], &mut reports[n]);
        let (file, span) = kept.place();
        // Nothing before the edit moves: no need to walk those items.
        let by = self.shift(file, span.start());
        if by != 0 {
            kept.shift(by);
        }
        for diagnostic in reported.iter_mut() {
            moved::move_diagnostic(diagnostic, |file, span| self.shift(file, span.start()));
        }
        if docs_may_change(&self.plan.edits, file, kept.place().1.start()) {
            moved::read_docs_again(kept.docs_mut(), docs);
        }
        diagnostics.extend(reported.iter().cloned());
        by
    }
}

impl super::lower::Reuse for Keeping<'_, '_, '_> {
    fn model(&mut self, tables: usize, entities: usize, patterns: usize) -> Model {
        if !self.in_place {
            let mut model = Model::default();
            model.reserve(tables, entities, patterns);
            return model;
        }
        let mut model = std::mem::take(self.earlier.model.to_mut());
        model.clear_tables();
        model
    }

    fn entity(&mut self, n: usize, entity: &ast::Entity, model: &mut Model, diagnostics: &mut Vec<Diagnostic>) -> bool {
        let Some(was) = self.plan.entities.get(n).copied().flatten() else {
            return false;
        };
        self.keep::<Entity>(n, was, &entity.docs, model, diagnostics);
        true
    }

    fn pattern(
        &mut self,
        n: usize,
        pattern: &ast::Pattern,
        model: &mut Model,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> bool {
        let Some(was) = self.plan.patterns.get(n).copied().flatten() else {
            return false;
        };
        let plan = self.plan;
        let renamed = self.renamed.get_or_insert_with(|| renamed(plan, model));
        // In place, the earlier pattern is still at its index.
        let old: &Model = if self.in_place { model } else { &self.earlier.model };
        let returns = &old.patterns[was].returns;
        // What it returns is read: attributes, tables.
        let returns_kept = returns.iter().filter_map(|r| r.entity).all(|e| !plan.touched_before(e));
        // A name finds what it found before unless an entity had or has it
        // now; an unknown one's "did you mean" reads every name.
        let names_kept = renamed.is_empty()
            || returns
                .iter()
                .all(|r| r.entity.is_some() && !renamed.contains(&r.name.text));
        if !names_kept || !returns_kept {
            return false;
        }
        let by = self.keep::<Pattern>(n, was, &pattern.docs, model, diagnostics);
        self.kept_patterns[n] = Some(by);
        for r in &mut model.patterns[n].returns {
            r.entity = r.entity.and_then(|e| plan.renumber(e));
        }
        true
    }
}

/// The names the touched entities had and have now, less those they have
/// both before and now: a name among them may find another entity, or
/// none, or one now.
fn renamed(plan: &Plan, new: &Model) -> Vec<SmolStr> {
    let names = |touched: &mut dyn Iterator<Item = &Entity>| -> Vec<SmolStr> {
        let mut names: Vec<SmolStr> = touched.map(|e| e.name.text.clone()).collect();
        names.sort_unstable();
        names
    };
    let before = names(&mut plan.touched_before.iter());
    let now = names(&mut plan.touched_now_in(new));
    let mut renamed: Vec<SmolStr> = (before.iter().filter(|n| now.binary_search(n).is_err()))
        .chain(now.iter().filter(|n| before.binary_search(n).is_err()))
        .cloned()
        .collect();
    renamed.dedup();
    renamed
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
    /// Where the first item after the touched ones starts now (`usize::MAX`
    /// for none): the last item whose docs the edit may have changed.
    next_start: usize,
}

/// The longest keyword that starts an item (`pattern`): an edit this close
/// after an item's start may have broken its keyword, which ends the stretch
/// of the item before.
const KEYWORD: usize = "pattern".len();

/// Per table: whether a touched entity was or is on it. The others hold
/// the same items as before, renumbered (tables themselves are never
/// touched when anything is kept).
pub(super) fn tables_rebuilt(plan: &Plan, model: &Model) -> Vec<bool> {
    let mut rebuilt = vec![false; model.tables.len()];
    for table in plan.touched_entities(model).filter_map(|e| e.table) {
        rebuilt[table.index()] = true;
    }
    rebuilt
}

/// The new model's registry: a table not `rebuilt` keeps its buckets, a
/// table `rebuilt` is patched where the edit moved no entity.
pub(super) fn registry(earlier: &mut Earlier<'_>, plan: &Plan, rebuilt: &[bool], model: &Model) -> Registry {
    let renumber = plan.renumbers().then_some(|e| plan.renumber(e));
    // Each entity where it was: a touched one has the same id before and
    // after, and its table is patched rather than built again.
    let touched: Option<Vec<EntityId>> = plan.in_place.then(|| plan.touched_now().collect());
    Registry::reusing(model, &mut earlier.registry, rebuilt, touched.as_deref(), renumber)
}

/// Per table, the earlier model lints' findings, moved to the new text,
/// where the table is not `rebuilt`: those lints read the table's
/// declaration and the entities on it alone, and none of those changed.
pub(super) fn findings(earlier: &Earlier<'_>, plan: &Plan, rebuilt: &[bool]) -> Vec<Option<TableFindings>> {
    let old = &earlier.schema.findings.tables;
    if old.len() != rebuilt.len() {
        return Vec::new();
    }
    (old.iter().zip(rebuilt))
        .map(|(found, &rebuilt)| {
            (!rebuilt).then(|| {
                let mut found = found.clone();
                for diagnostic in found.diagnostics_mut() {
                    moved::move_diagnostic(diagnostic, |file, span| shift_of(&plan.edits, file, span.start()));
                }
                found
            })
        })
        .collect()
}

/// Per pattern, what the earlier lint of unsorted values found it relies
/// on, moved to the new text, where its Query is `kept`: that depends on
/// the pattern, its Query and the entities it returns alone, which are then
/// the same.
pub(super) fn orders(earlier: &Earlier<'_>, plan: &Plan, kept: &[bool]) -> Vec<Option<Vec<Dependent>>> {
    let old = &earlier.schema.orders;
    if old.len() != plan.old_patterns {
        return Vec::new();
    }
    (plan.patterns.iter().zip(kept))
        .map(|(&was, &kept)| {
            let was = was.filter(|_| kept)?;
            let mut dependents = old[was].clone();
            for dependent in &mut dependents {
                let hole = &mut dependent.hole;
                hole.span.shift(shift_of(&plan.edits, hole.file, hole.span.start()));
                dependent.renumber(|e| plan.renumber(e))?;
            }
            Some(dependents)
        })
        .collect()
}

/// Per pattern of the new model: its earlier Query, moved to the new text,
/// when it cannot have changed; the others are to be resolved.
/// `lowered` says which patterns kept their lowering, and how far it moved.
pub(super) fn reusable(earlier: &mut Earlier<'_>, plan: &Plan, lowered: &[Option<isize>], model: &Model) -> Reused {
    let patterns = model.patterns.len();
    let reads = &*earlier.reads;
    if reads.len() != plan.old_patterns || earlier.resolutions.len() != plan.old_patterns {
        return Reused::none(patterns);
    }
    // What the touched entities wrote and write now.
    let written: Vec<Written> = plan.touched_entities(model).map(Written::of).collect();
    // Kept lowering (untouched, returning what it returned: no touched
    // entity), and resolving it read nothing a touched entity wrote or
    // writes now, so it would read what it read: the earlier pattern it is.
    let keep = |i: usize| {
        let by = lowered.get(i).copied().flatten()?;
        let was = plan.patterns[i]?;
        let reads = reads.get(was)?;
        (!written.iter().any(|w| reads.sees(w))).then_some((was, by))
    };
    let kept: Vec<Option<(usize, isize)>> = (0..patterns).map(keep).collect();
    // Every pattern where it was, and the earlier Queries held by no one
    // else: they stay in their list, which becomes the new one (a pattern
    // to resolve has its earlier Query there until it is). Moving
    // thousands of Queries of a few hundred bytes was a tenth of a
    // re-check.
    let mut resolutions = match &mut earlier.resolutions {
        Cow::Owned(owned) if plan.in_place && owned.len() == patterns => std::mem::take(owned),
        Cow::Owned(owned) => (kept.iter())
            .map(|kept| kept.and_then(|(was, _)| owned[was].take()))
            .collect(),
        Cow::Borrowed(borrowed) => (kept.iter())
            .map(|kept| kept.and_then(|(was, _)| borrowed[was].clone()))
            .collect(),
    };
    let edits = &plan.edits;
    let renumbers = plan.renumbers();
    let was = (resolutions.iter_mut().zip(kept))
        .map(|(slot, kept)| {
            let (was, by) = kept?;
            if let Some(resolution) = slot {
                moved(edits, &mut resolution.relies_on);
                if let Some(filter) = &mut resolution.filter {
                    // It lies in the pattern, which moved `by`.
                    filter.shift(by);
                }
                // Not one id of a touched entity, or it is resolved again.
                if renumbers
                    && (renumber(&mut resolution.returns, plan).is_none()
                        || renumber(&mut resolution.filtered_out, plan).is_none())
                {
                    return None;
                }
            }
            Some(was)
        })
        .collect();
    Reused { resolutions, was }
}

/// `ids` of earlier entities, as they are numbered now; `None` if one of
/// them was touched.
fn renumber(ids: &mut [EntityId], plan: &Plan) -> Option<()> {
    for id in ids {
        *id = plan.renumber(*id)?;
    }
    Some(())
}

/// Per item, in order: whether the edits touched it; `None` when an earlier
/// item and the one now at its place are not the same item.
fn changed(edits: &[Edit], old: impl Iterator<Item = (FileId, Span)>, new: &[(FileId, Span)]) -> Option<Vec<bool>> {
    old.zip(new).map(|(was, &is)| matched(edits, was, is)).collect()
}

/// Per item now, in order: the earlier item it is, moved by the edits;
/// `None` where the edits touched it or it is new. `None` for them all when
/// the items the edits did not touch, before and now, are not the same
/// ones in the same order.
fn aligned(
    edits: &[Edit],
    old: impl Iterator<Item = (FileId, Span)>,
    new: &[(FileId, Span)],
) -> Option<Vec<Option<usize>>> {
    let mut untouched = old
        .enumerate()
        .filter_map(|(i, (file, span))| Some((i, (file, moved_past(edits, file, span)?))));
    let mut aligned = Vec::with_capacity(new.len());
    for &(file, span) in new {
        if touched_now(edits, file, span) {
            aligned.push(None);
            continue;
        }
        let (i, was) = untouched.next()?;
        if was != (file, span) {
            return None;
        }
        aligned.push(Some(i));
    }
    untouched.next().is_none().then_some(aligned)
}

/// Where an earlier item the edits did not touch is now; `None` if they
/// touched it.
fn moved_past(edits: &[Edit], file: FileId, mut span: Span) -> Option<Span> {
    let Some(edit) = edits.iter().find(|e| e.file == file) else {
        return Some(span);
    };
    if (edit.old_touched.0..=edit.old_touched.1).contains(&span.start()) {
        return None;
    }
    if span.start() > edit.old_end {
        span.shift(edit.delta);
    }
    Some(span)
}

/// The edit of each file whose text changed; `None` when the files are not
/// the same ones.
fn edits(earlier: &Earlier<'_>, sources: &[Source<'_>], old: &Model, new: &Places) -> Option<Vec<Edit>> {
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
        let old_places = (old.tables.iter().map(|t| (t.file, t.span)))
            .chain(old.entities.iter().map(|e| (e.file, e.span)))
            .chain(old.patterns.iter().map(|p| (p.file, p.span)));
        let new_places = (new.tables.iter().chain(&new.entities).chain(&new.patterns)).copied();
        // From the earlier of the two: an item added or removed (a keyword
        // typed or broken) moves where the stretch it was or is in begins,
        // and the text before the edit is the same in both.
        let (old_from, old_to) = touched(&item_starts(old_places, file), prefix, old_end);
        let new_starts = item_starts(new_places, file);
        let (new_from, new_to) = touched(&new_starts, prefix, new_end);
        let next_start = (new_starts.get(new_starts.partition_point(|&s| s <= new_to)).copied()).unwrap_or(usize::MAX);
        let from = old_from.min(new_from);
        edits.push(Edit {
            file,
            old_end,
            delta: now.text.len() as isize - before.len() as isize,
            old_touched: (from, old_to),
            new_touched: (from, new_to),
            next_start,
        });
    }
    Some(edits)
}

/// Where every item of `file` starts, in order.
fn item_starts(places: impl Iterator<Item = (FileId, Span)>, file: FileId) -> Vec<usize> {
    let mut starts: Vec<usize> = places
        .filter(|(f, _)| *f == file)
        .map(|(_, span)| span.start())
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
    match (moved_past(edits, was_file, was), touched_now(edits, is_file, is)) {
        (None, true) => Some(true),
        (Some(moved), false) => (moved == is).then_some(false),
        _ => None,
    }
}

/// Whether the edits touched an item as it is now.
fn touched_now(edits: &[Edit], file: FileId, span: Span) -> bool {
    (edits.iter()).any(|e| e.file == file && (e.new_touched.0..=e.new_touched.1).contains(&span.start()))
}

/// Whether the edits may have changed the docs of an untouched item that
/// starts at `start` now: an item's docs are the `///` lines between the
/// token before it and its keyword, so only the first item after an edit's
/// touched stretch can have docs it changed.
fn docs_may_change(edits: &[Edit], file: FileId, start: usize) -> bool {
    (edits.iter()).any(|e| e.file == file && (e.new_touched.1..=e.next_start).contains(&start))
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
        at.span.shift(shift_of(edits, at.file, at.span.start()));
    }
}

#[cfg(test)]
mod tests;
