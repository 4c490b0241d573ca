//! W303: a value that a pattern orders by (`by attr`) or ranges over
//! (`attr >= since`) sits in a string sort key, where DynamoDB compares UTF-8
//! bytes, but its text does not sort like the value: an `int` without `pad`
//! (`15` sorts before `2`), or a date or time typed `string` (nothing says it
//! is ISO-8601, the only spelling that sorts by time).

use std::collections::BTreeMap;

use crate::check::model::{AttrType, EntityId, Model, Part, Pattern, PatternId, Zone};
use crate::check::resolve::Resolution;
use crate::diagnostic::{Code, Diagnostic, Fix};
use crate::syntax::ast::{KeyType, KnownKind};
use crate::syntax::{FileSpan, names};

/// Why a hole's text does not sort like its value, and the type to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Unsorted {
    Int,
    StringDate(&'static str),
    /// `datetime(offset)`: `10:00+02:00` is 08:00 UTC, yet sorts after
    /// `09:00Z`.
    Offset,
}

/// What a pattern does that depends on an attribute's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dependence {
    OrdersBy,
    Ranges,
}

/// A hole of a key that one pattern's Query relies on for its order, whose
/// text does not sort like its value: what that pattern adds to W303. It
/// depends on the pattern, its Query and the entities it returns alone, so
/// a check after an edit keeps it with the Query (`check::incremental`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dependent {
    pub hole: FileSpan,
    entity: EntityId,
    attr: usize,
    why: Unsorted,
    dependence: Dependence,
}

impl Dependent {
    /// Gives its entity the id `now` gives it; `None` if that entity has
    /// none (a check after an edit renumbers what it keeps).
    pub fn renumber(&mut self, now: impl Fn(EntityId) -> Option<EntityId>) -> Option<()> {
        self.entity = now(self.entity)?;
        Some(())
    }
}

struct Finding {
    entity: EntityId,
    attr: usize,
    why: Unsorted,
    /// The patterns that depend on the order, with what they do.
    patterns: Vec<(PatternId, Dependence)>,
}

/// The holes `pattern`'s Query relies on for an order they do not have.
pub fn dependents(model: &Model, pattern: &Pattern, resolution: Option<&Resolution>) -> Vec<Dependent> {
    let mut found = Vec::new();
    let Some(resolution) = resolution else { return found };
    let access = resolution.key_schema(model);
    // A multi-attribute key compares each attribute whole, by its own
    // type: no value is followed by anything in it.
    if access.is_multi_attribute() {
        return found;
    }
    let Some(sk) = access.sk.as_ref().filter(|k| k.ty == KeyType::String) else {
        return found;
    };
    for (attr, dependence) in ordered_attributes(pattern) {
        for &entity_id in &resolution.returns {
            let entity = model.entity(entity_id);
            // The items the Query reads: those whose sort-key line it relies on.
            let keys = entity
                .items
                .iter()
                .filter_map(|i| i.key(&sk.name))
                .filter(|k| resolution.relies_on.contains(&entity.at(k.span)));
            for key in keys {
                for part in &key.template.parts {
                    let Part::Hole {
                        name,
                        span,
                        attr: Some(index),
                    } = part
                    else {
                        continue;
                    };
                    if name.text != attr {
                        continue;
                    }
                    let Some(why) = unsorted(&entity.attributes[*index].ty, &name.text) else {
                        continue;
                    };
                    found.push(Dependent {
                        hole: entity.at(*span),
                        entity: entity_id,
                        attr: *index,
                        why,
                        dependence,
                    });
                }
            }
        }
    }
    found
}

/// W303 from every pattern's [`dependents`] (in model order).
pub fn unsorted_values(model: &Model, dependents: &[Vec<Dependent>], diagnostics: &mut Vec<Diagnostic>) {
    // By hole span, so a hole several patterns rely on is reported once.
    let mut findings: BTreeMap<FileSpan, Finding> = BTreeMap::new();
    for (pattern, dependents) in dependents.iter().enumerate() {
        let pattern = PatternId::new(pattern);
        for dependent in dependents {
            let finding = findings.entry(dependent.hole).or_insert_with(|| Finding {
                entity: dependent.entity,
                attr: dependent.attr,
                why: dependent.why,
                patterns: Vec::new(),
            });
            if !finding.patterns.iter().any(|(p, _)| *p == pattern) {
                finding.patterns.push((pattern, dependent.dependence));
            }
        }
    }
    for (span, finding) in findings {
        let entity = model.entity(finding.entity);
        let attribute = &entity.attributes[finding.attr];
        let name = &attribute.name.text;
        // How a declaration of it is written: quoted when not an identifier.
        let declared = names::written(name);
        let (message, help) = match finding.why {
            Unsorted::Int => (
                format!(
                    "`{name}` is an `int` without `pad` in a sort key: keys compare as text, so `15` sorts before `2`"
                ),
                format!(
                    "declare `{declared}: int(pad N)` with N digits enough for the largest value (e.g. `int(pad 10)`), \
                     so that text order is numeric order"
                ),
            ),
            Unsorted::StringDate(ty) => (
                format!(
                    "`{name}` looks like a date or time but is a `string` in a sort key: only ISO-8601 text sorts by \
                     time, and a `string` can hold any spelling"
                ),
                format!("declare `{declared}: {ty}`, which is ISO-8601 and sorts by time"),
            ),
            Unsorted::Offset => (
                format!(
                    "`{name}` is a `datetime(offset)` in a sort key: keys compare as text, so \
                     `2026-03-14T10:00:00+02:00` (08:00 UTC) sorts after `2026-03-14T09:00:00Z`"
                ),
                "write the time in UTC (`datetime`, ending in `Z`) in the key, keeping the offset in an \
                 attribute of its own if it matters"
                    .to_string(),
            ),
        };
        // The fix rewrites the type; a size hint in it (`int(~8)`) is kept by
        // leaving that type to the user.
        // No fix for offsets: the data must change, not only its declaration.
        let fixed_type = match finding.why {
            Unsorted::Int => Some("int(pad 10)"),
            Unsorted::StringDate(ty) => Some(ty),
            Unsorted::Offset => None,
        };
        let fix = fixed_type.filter(|_| attribute.size_hint.is_none()).map(|fixed_type| {
            Fix::replace(
                format!("declare `{declared}: {fixed_type}`"),
                entity.at(attribute.ty_span),
                fixed_type,
            )
        });
        let mut diagnostic = Diagnostic::new(Code::UnsortedSortValue, span, message)
            .with_label("sorts as text, not by value")
            .with_help(help)
            .with_fixes(fix);
        for (pattern, dependence) in finding.patterns {
            let pattern = model.pattern(pattern);
            let doing = match dependence {
                Dependence::OrdersBy => "orders by",
                Dependence::Ranges => "reads a range of",
            };
            let related = format!("`{}` {doing} `{name}`", pattern.name.text);
            diagnostic = diagnostic.with_related(pattern.at(pattern.name.span), related);
        }
        diagnostics.push(diagnostic.with_related(entity.at(attribute.span), "declared here"));
    }
}

/// The attributes whose order a pattern depends on, each with what the
/// pattern does with it.
fn ordered_attributes(pattern: &Pattern) -> Vec<(&str, Dependence)> {
    let mut out = Vec::new();
    if let Some(order) = &pattern.order {
        out.push((order.attr.text.as_str(), Dependence::OrdersBy));
    }
    for known in &pattern.known {
        let ranged = match &known.kind {
            KnownKind::Compare(op, _) => *op != crate::syntax::ast::CompareOp::Eq,
            KnownKind::Between(..) => true,
            KnownKind::Equal | KnownKind::Fixed(_) | KnownKind::BeginsWith(_) => false,
        };
        if ranged && !out.iter().any(|(a, _)| *a == known.attr.text) {
            out.push((known.attr.text.as_str(), Dependence::Ranges));
        }
    }
    out
}

fn unsorted(ty: &AttrType, name: &str) -> Option<Unsorted> {
    match ty {
        AttrType::Int { pad: None } => Some(Unsorted::Int),
        AttrType::String => date_like(name).map(Unsorted::StringDate),
        AttrType::DateTime(Zone::Offset) => Some(Unsorted::Offset),
        _ => None,
    }
}

/// `dueDate` → `date`, `createdAt` / `updated_time` → `datetime`, `name` →
/// `None`: by the words of the name (camelCase or snake_case).
pub fn date_like(name: &str) -> Option<&'static str> {
    let mut words: Vec<String> = Vec::new();
    let mut current = String::new();
    for c in name.chars() {
        let boundary = c == '_' || c == '-' || c.is_uppercase();
        if boundary && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        if c != '_' && c != '-' {
            current.extend(c.to_lowercase());
        }
    }
    if !current.is_empty() {
        words.push(current);
    }
    let has = |set: &[&str]| words.iter().any(|w| set.contains(&w.as_str()));
    if has(&["at", "time", "timestamp", "datetime", "ts", "when"]) {
        Some("datetime")
    } else if has(&["date", "day", "on", "birthday"]) {
        Some("date")
    } else {
        None
    }
}
