//! What `--explain` prints: each choice and the patterns that forced it;
//! and for each pattern the design does not serve, why and what comes
//! nearest.

use super::layout::{Layout, Place};
use super::needs::{Need, Skipped};
use super::render::Rendered;
use crate::check::Analysis;
use crate::check::model::{Model, PatternId};
use crate::diagnostic::Severity;

#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// What was chosen: `User` keys in the table, an index, a type.
    pub subject: String,
    /// The patterns that forced it (none: it identifies the items).
    pub because: Vec<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Unserved {
    pub pattern: String,
    pub why: String,
    /// The nearest way to read it: a filter on a partition the design has,
    /// another index, a copy of the items.
    pub alternative: String,
}

fn place_text(place: Place, index: Option<&str>) -> String {
    match (place, index) {
        (Place::Table, _) => "the table".into(),
        (_, Some(name)) => format!("index `{name}`"),
        (Place::Local(n), None) => format!("local index {n}"),
        (Place::Global(n), None) => format!("global index {n}"),
    }
}

pub fn choices(model: &Model, needs: &[Need], layout: &Layout, rendered: &Rendered) -> Vec<Choice> {
    let pattern_names = |serves: &[usize]| -> Vec<String> {
        let mut serves = serves.to_vec();
        serves.sort();
        serves.dedup();
        serves
            .iter()
            .map(|&n| model.pattern(needs[n].pattern).name.text.to_string())
            .collect()
    };
    let mut out = Vec::new();
    for decl in &rendered.new_indexes {
        let serves: Vec<usize> = layout
            .slots
            .iter()
            .enumerate()
            .filter(|(s, slot)| {
                layout.place[*s] == Some(decl.place) && model.entity(slot.entity).table == Some(decl.table)
            })
            .flat_map(|(_, slot)| slot.serves.iter().copied())
            .collect();
        let local = if matches!(decl.place, Place::Local(_)) {
            "local "
        } else {
            ""
        };
        out.push(Choice {
            subject: format!(
                "{local}index `{}` ({}, {}) on `{}`",
                decl.name,
                decl.pk,
                decl.sk,
                model.table(decl.table).name.text
            ),
            because: pattern_names(&serves),
        });
    }
    let mut slots: Vec<usize> = (0..layout.slots.len()).filter(|&s| layout.place[s].is_some()).collect();
    slots.sort_by_key(|&s| (layout.slots[s].entity, layout.place[s]));
    for s in slots {
        let slot = &layout.slots[s];
        let (Some(place), keys) = (layout.place[s], &rendered.keys[s]) else {
            continue;
        };
        if keys.is_empty() {
            continue;
        }
        let names = model
            .entity(slot.entity)
            .table
            .and_then(|t| super::render::place_names(model, t, place));
        let index = names.as_ref().map(|(name, ..)| name.as_str());
        let written = keys
            .iter()
            .map(|k| format!("{} = \"{}\"", k.attr, k.template))
            .collect::<Vec<_>>()
            .join(", ");
        let twice = if layout.twice[s] {
            " (a second item: the entity is written twice)"
        } else {
            ""
        };
        out.push(Choice {
            subject: format!(
                "`{}` in {}: {written}{twice}",
                model.entity(slot.entity).name.text,
                place_text(place, index)
            ),
            because: pattern_names(&slot.serves),
        });
    }
    for (entity, attr, ty) in &rendered.retyped {
        let serves: Vec<usize> = (0..needs.len())
            .filter(|&n| needs[n].entities.contains(entity) && needs[n].sorted.as_deref() == Some(attr))
            .collect();
        out.push(Choice {
            subject: format!(
                "`{}.{attr}: {ty}` ({})",
                model.entity(*entity).name.text,
                if ty.starts_with("int") {
                    "zero-padded, so its text sorts like its value"
                } else {
                    "in UTC, so its text sorts like its instant"
                }
            ),
            because: pattern_names(&serves),
        });
    }
    out
}

pub fn unserved(
    model: &Model,
    needs: &[Need],
    skipped: &[Skipped],
    layout: &Layout,
    after: &Analysis,
) -> Vec<Unserved> {
    let mut out: Vec<Unserved> = Vec::new();
    let push = |pattern: PatternId, why: String, out: &mut Vec<Unserved>| {
        let name = model.pattern(pattern).name.text.to_string();
        if out.iter().any(|u| u.pattern == name) {
            return;
        }
        let alternative = nearest(model, needs, layout, pattern);
        out.push(Unserved {
            pattern: name,
            why,
            alternative,
        });
    };
    for s in skipped {
        push(s.pattern, s.why.clone(), &mut out);
    }
    for (n, why) in &layout.unserved {
        push(needs[*n].pattern, why.clone(), &mut out);
    }
    // What the checker still finds wrong with a pattern of the design.
    let schema = &after.schema;
    for d in schema.diagnostics.iter().filter(|d| d.severity == Severity::Error) {
        let Some((_, pattern)) = schema
            .model
            .pattern_ids()
            .find(|(_, p)| p.span.start() <= d.span.start() && d.span.end() <= p.span.end())
        else {
            continue;
        };
        if let Some(id) = model.pattern_named(&pattern.name.text) {
            push(id, d.message.clone(), &mut out);
        }
    }
    out
}

/// The nearest read for a pattern left unserved: its entities' partition
/// that it knows, filtered; else a copy or an index keyed on what it knows.
fn nearest(model: &Model, needs: &[Need], layout: &Layout, pattern: PatternId) -> String {
    let Some(need) = needs.iter().find(|n| n.pattern == pattern) else {
        return "read it as two patterns, or filter (`where`) on what the key cannot hold".into();
    };
    for (s, slot) in layout.slots.iter().enumerate() {
        if layout.place[s].is_some()
            && need.entities.contains(&slot.entity)
            && !slot.partition.is_empty()
            && slot.partition.iter().all(|p| need.equal.contains(p))
        {
            let rest: Vec<&String> = need.equal.iter().filter(|e| !slot.partition.contains(e)).collect();
            let filter = if rest.is_empty() {
                String::new()
            } else {
                format!(
                    " and filter on {} (`where`): it reads, and pays for, the items the filter drops",
                    rest.iter().map(|r| format!("`{r}`")).collect::<Vec<_>>().join(", ")
                )
            };
            return format!(
                "Query the partition of `{}` keyed on {}{filter}",
                model.entity(slot.entity).name.text,
                slot.partition
                    .iter()
                    .map(|p| format!("`{p}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    }
    let keys: Vec<String> = need.equal.iter().map(|e| format!("`{e}`")).collect();
    format!(
        "another index, or a copy of the items (a denormalised item) keyed on {}",
        if keys.is_empty() {
            "a constant".into()
        } else {
            keys.join(", ")
        }
    )
}

/// The errors of the completed schema outside every pattern.
pub fn left(after: &Analysis) -> Vec<String> {
    let model = &after.schema.model;
    after
        .schema
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .filter(|d| {
            !model
                .patterns
                .iter()
                .any(|p| p.span.start() <= d.span.start() && d.span.end() <= p.span.end())
        })
        .map(|d| d.message.clone())
        .collect()
}
