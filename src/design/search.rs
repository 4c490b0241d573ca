//! The search: a first design from the greedy passes, then single changes
//! to it tried one at a time in a fixed order, each kept when the checked
//! result is better. Every candidate is checked in full, so the objective
//! ranks what the checker proves, not what the passes intended.

use super::explain::{self, Choice, Unserved};
use super::layout::{self, Asks, Existing, Layout, Place};
use super::needs::{self, Need};
use super::render::{self, Rendered};
use super::slots::{self, Slot, partition_choices};
use super::{Design, Options};
use crate::check::model::{AccessKind, Model, Part, TableId, Template};
use crate::check::{self, Analysis};
use crate::diagnostic::Severity;

/// Evaluations at most, beyond the first: a bound on the time a large
/// schema takes (each is a whole check).
const MAX_TRIES: usize = 48;

/// One evaluated design, as `--alternatives` lists it.
#[derive(Clone, Debug)]
pub struct Summary {
    pub errors: usize,
    /// Hazards the checker warns of (a hot partition, a read that cannot
    /// be sized): a design that throttles is no better for fewer indexes.
    pub warnings: usize,
    pub indexes: usize,
    pub cost: f64,
    pub key_chars: usize,
    /// What sets it apart from the first design ("`Membership` written twice").
    pub change: String,
}

impl Summary {
    /// The objective, smallest best: errors, warnings, indexes, read cost,
    /// key length.
    fn rank(&self) -> (usize, usize, usize, u64, usize) {
        (
            self.errors,
            self.warnings,
            self.indexes,
            (self.cost * 1000.0).round() as u64,
            self.key_chars,
        )
    }
}

/// The inputs of one candidate: a partition key pinned per need, the
/// slots written as a second table item, and the needs whose layouts take
/// the table before the others.
#[derive(Clone, Debug, Default, PartialEq)]
struct Plan {
    pinned: Vec<Option<Vec<String>>>,
    asks: Asks,
}

struct Evaluated {
    plan: Plan,
    layout: Layout,
    rendered: Rendered,
    text: String,
    analysis: Analysis,
    summary: Summary,
}

impl Evaluated {
    fn rank(&self) -> (usize, usize, usize, u64, usize) {
        self.summary.rank()
    }
}

struct Input<'a> {
    text: &'a str,
    model: &'a Model,
    needs: Vec<Need>,
    existing: Existing,
    canonical: bool,
    options: &'a Options,
}

pub fn run(text: &str, options: &Options) -> Design {
    let input_analysis = check::analyze(text);
    let model = &input_analysis.schema.model;
    let (all_needs, skipped) = needs::needs(model);
    let existing = existing(model);
    // Patterns the written keys already serve keep their Query.
    let needs: Vec<Need> = all_needs
        .into_iter()
        .filter(|n| input_analysis.schema.resolution(n.pattern).is_none())
        .filter(|n| {
            n.entities
                .iter()
                .all(|&e| !existing.keyed.contains(&e) || model.entity(e).items.len() == 1)
        })
        .collect();
    let input = Input {
        text,
        model,
        canonical: crate::ide::format::format(text).is_ok_and(|f| f == text),
        needs,
        existing,
        options,
    };
    let first = evaluate(&input, Plan::default(), "the first design".into());
    let mut best = first;
    let mut seen = vec![best.summary.clone()];
    let mut tries = 0;
    for (plan, change) in tweaks(&input, &best) {
        if tries >= MAX_TRIES {
            break;
        }
        tries += 1;
        let candidate = evaluate(&input, plan, change);
        seen.push(candidate.summary.clone());
        if candidate.rank() < best.rank() {
            best = candidate;
        }
    }
    // Changes tried on top of the kept ones: once more, from the best.
    if best.plan != Plan::default() {
        for (plan, change) in tweaks(&input, &best) {
            if tries >= MAX_TRIES {
                break;
            }
            tries += 1;
            let candidate = evaluate(&input, plan, change);
            seen.push(candidate.summary.clone());
            if candidate.rank() < best.rank() {
                best = candidate;
            }
        }
    }
    seen.sort_by_key(Summary::rank);
    seen.dedup_by(|a, b| a.rank() == b.rank());
    seen.truncate(options.alternatives.max(1));
    let choices: Vec<Choice> = explain::choices(model, &input.needs, &best.layout, &best.rendered);
    let unserved: Vec<Unserved> = explain::unserved(model, &input.needs, &skipped, &best.layout, &best.analysis);
    let left = explain::left(&best.analysis);
    Design {
        left,
        edits: best.rendered.edits.clone(),
        indexes: best.summary.indexes,
        cost: best.summary.cost,
        errors: best.summary.errors,
        text: best.text,
        choices,
        unserved,
        alternatives: seen,
    }
}

fn evaluate(input: &Input, plan: Plan, change: String) -> Evaluated {
    let cover = slots::cover(&input.needs, &plan.pinned, &input.existing.slots);
    let layout = layout::layout(
        input.model,
        &input.needs,
        cover,
        &input.existing,
        &plan.asks,
        input.options.max_indexes,
    );
    let mut rendered = render::render(input.model, input.text, &input.needs, &layout);
    rendered.add_sort_keys(input.model, input.text, &input.needs, &input.existing);
    let mut text = render::apply(input.text, &rendered.edits);
    if input.canonical
        && let Ok(formatted) = crate::ide::format::format(&text)
    {
        text = formatted;
    }
    let analysis = check::analyze(&text);
    let summary = summarize(&analysis, &rendered, change);
    Evaluated {
        plan,
        layout,
        rendered,
        text,
        analysis,
        summary,
    }
}

fn summarize(analysis: &Analysis, rendered: &Rendered, change: String) -> Summary {
    let schema = &analysis.schema;
    let count = |severity| schema.diagnostics.iter().filter(|d| d.severity == severity).count();
    let (errors, warnings) = (count(Severity::Error), count(Severity::Warning));
    let indexes = schema
        .model
        .tables
        .iter()
        .map(|t| t.access.iter().filter(|a| a.kind != AccessKind::Base).count())
        .sum();
    let cost = check::cost::pattern_costs(analysis)
        .iter()
        .zip(&schema.model.patterns)
        .filter_map(|(c, p)| Some(c.as_ref()?.rcu * p.rate.unwrap_or(1.0)))
        .fold(0.0, |a, b| a + b);
    Summary {
        errors,
        warnings,
        indexes,
        cost,
        key_chars: rendered.key_chars,
        change,
    }
}

/// The single changes worth trying on `from`, in a fixed order: each slot
/// on a global index written as a second table item instead; each need on
/// another partition key.
fn tweaks(input: &Input, from: &Evaluated) -> Vec<(Plan, String)> {
    let mut out = Vec::new();
    let layout = &from.layout;
    for (s, slot) in layout.slots.iter().enumerate() {
        let single = layout.group.iter().filter(|&&g| g == layout.group[s]).count() == 1;
        if matches!(layout.place[s], Some(Place::Global(_)))
            && single
            && !from.plan.asks.twice.contains(&s)
            && !input.existing.keyed.contains(&slot.entity)
        {
            let mut plan = from.plan.clone();
            plan.asks.twice.push(s);
            let name = &input.model.entity(slot.entity).name.text;
            out.push((plan, format!("`{name}` written twice, keyed both ways")));
        }
    }
    // A read of one item, or a consistent one, served by an index: its
    // layout on the table instead (an index keeps no key unique, and is
    // never read consistently); the other groups move to indexes.
    for (s, slot) in layout.slots.iter().enumerate() {
        if !matches!(layout.place[s], Some(Place::Global(_))) {
            continue;
        }
        for &n in &slot.serves {
            let need = &input.needs[n];
            let pattern = &input.model.pattern(need.pattern).name.text;
            if (need.exact || need.consistent) && !from.plan.asks.first.contains(&n) {
                let mut plan = from.plan.clone();
                plan.asks.first.push(n);
                out.push((plan, format!("`{pattern}` served by the table")));
            }
            // Or the entity keyed on the table by what the read knows, so
            // that the index read knows its whole primary key.
            let single = need
                .entities
                .iter()
                .zip(&need.single)
                .any(|(&e, &one)| e == slot.entity && one);
            let own = (slot.entity, need.equal.clone());
            if single
                && !input.existing.keyed.contains(&slot.entity)
                && !from.plan.asks.own.contains(&own)
                && layout::identities(input.model, &input.needs, slot.entity).contains(&need.equal)
            {
                let mut plan = from.plan.clone();
                plan.asks.own.push(own);
                let name = &input.model.entity(slot.entity).name.text;
                out.push((plan, format!("`{name}` keyed by what `{pattern}` knows")));
            }
        }
    }
    for (i, need) in input.needs.iter().enumerate() {
        let choices = partition_choices(need, &input.needs, need.entities[0]);
        for choice in choices.into_iter().skip(1).take(2) {
            let mut plan = from.plan.clone();
            plan.pinned.resize(input.needs.len(), None);
            plan.pinned[i] = Some(choice.clone());
            // The second table items were numbered for the other cover.
            plan.asks.twice.clear();
            let pattern = &input.model.pattern(need.pattern).name.text;
            out.push((plan, format!("`{pattern}` keyed on {}", choice.join(", "))));
        }
    }
    out
}

/// Entities that write their table keys already, the indexes they write,
/// and the indexes each table declares, numbered like [`Place`].
fn existing(model: &Model) -> Existing {
    let mut out = Existing::default();
    for (table_id, table) in model.table_ids() {
        let (mut lsi, mut gsi) = (0, 0);
        for access in table.access.iter().filter(|a| a.is_index() && !a.is_multi_attribute()) {
            let place = match access.kind {
                AccessKind::Lsi => {
                    lsi += 1;
                    Place::Local(lsi)
                }
                _ => {
                    gsi += 1;
                    Place::Global(gsi)
                }
            };
            out.indexes.push((table_id, place));
            for (entity_id, entity) in model.entity_ids().filter(|(_, e)| e.table == Some(table_id)) {
                let sort = access.sk.as_ref().map(|k| k.name.as_str());
                let writes = entity.items.iter().any(|i| {
                    i.keys
                        .iter()
                        .any(|k| k.attr == access.pk.name || Some(k.attr.as_str()) == sort)
                });
                if writes {
                    out.writes.push((entity_id, place));
                }
            }
        }
        let Some(base) = table.base() else { continue };
        out.slots.extend(written_slots(model, table_id));
        for (entity_id, entity) in model.entity_ids().filter(|(_, e)| e.table == Some(table_id)) {
            if let Some(pk) = entity.items.iter().find_map(|i| i.key(&base.pk.name)) {
                out.keyed.push(entity_id);
                let holes = pk.template.holes().map(|(name, _)| name.text.to_string()).collect();
                out.base_partition.push((entity_id, holes));
                // A partition key written (often an attribute named like
                // the key) without the sort key: the design adds that one.
                if let Some(sk) = &base.sk
                    && entity.items.len() == 1
                    && entity.items[0].key(&sk.name).is_none()
                {
                    out.unsorted.push(entity_id);
                }
            }
        }
    }
    out
}

/// The layouts the entities of one item shape already write, one per place:
/// their partition and sort holes, fixed as written.
fn written_slots(model: &Model, table_id: TableId) -> Vec<Slot> {
    let table = model.table(table_id);
    let Some(base) = table.base() else { return Vec::new() };
    let mut out = Vec::new();
    let (mut lsi, mut gsi) = (0, 0);
    for access in table.access.iter().filter(|a| !a.is_multi_attribute()) {
        let place = match access.kind {
            AccessKind::Base => Place::Table,
            AccessKind::Lsi => {
                lsi += 1;
                Place::Local(lsi)
            }
            AccessKind::Gsi => {
                gsi += 1;
                Place::Global(gsi)
            }
        };
        // A local index reads the table's partition key.
        let pk_name = if access.kind == AccessKind::Lsi {
            &base.pk.name
        } else {
            &access.pk.name
        };
        for (entity_id, entity) in model.entity_ids().filter(|(_, e)| e.table == Some(table_id)) {
            let [item] = entity.items.as_slice() else { continue };
            let Some(pk) = item.key(pk_name) else { continue };
            let sk = access.sk.as_ref().and_then(|k| item.key(&k.name));
            if access.sk.is_some() && sk.is_none() {
                continue;
            }
            let holes = |t: &Template| t.holes().map(|(n, _)| n.text.to_string()).collect::<Vec<_>>();
            let sort = sk.map(|k| holes(&k.template)).unwrap_or_default();
            out.push(Slot {
                entity: entity_id,
                partition: holes(&pk.template),
                exact_len: Some(sort.len()),
                sort,
                serves: Vec::new(),
                written: Some((place, source(&pk.template))),
            });
        }
    }
    out
}

/// A template as written between its quotes.
fn source(template: &Template) -> String {
    template
        .parts
        .iter()
        .map(|p| match p {
            Part::Literal { text, .. } => crate::syntax::print::escape(text),
            Part::Hole { name, .. } => format!("{{{}}}", name.text),
        })
        .collect()
}
