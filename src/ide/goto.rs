//! Go to definition. Inside a pattern, everything leads to what its Query
//! relies on: the pattern's name to every key template and the index it
//! uses, a returned entity to that entity's key templates, a parameter to
//! the key templates built from it, a key or literal of a pinned query to
//! the templates it matches. Anywhere else, a reference leads to its
//! declaration.

use super::File;
use super::locate::{Occurrence, Symbol};
use crate::check::model::{EntityId, Model};
use crate::check::resolve::Resolution;
use crate::syntax::ast::KnownKind;
use crate::syntax::{FileSpan, Span};

/// Locations leave the file: a Query relies on key lines of entities and
/// on an index, wherever they are declared.
pub fn definition(file: &File, offset: usize) -> Vec<FileSpan> {
    let Some(occurrence) = file.occurrence_at(offset) else {
        return Vec::new();
    };
    let model = &file.analysis.schema.model;
    if let Some(resolution) = enclosing_resolution(file, occurrence.span.start()) {
        let relied = relied_on(model, resolution, &occurrence);
        if !relied.is_empty() {
            return relied;
        }
    }
    declaration(file.occurrences(), &occurrence.symbol)
        .map(|span| file.analysis.file.at(span))
        .into_iter()
        .collect()
}

/// [`definition`] in a schema of several files (`files` share one
/// analysis; the cursor is in `files[current]`): a name declared in
/// another file leads there.
pub fn definition_in(files: &[&File], current: usize, offset: usize) -> Vec<FileSpan> {
    let file = files[current];
    let found = definition(file, offset);
    if !found.is_empty() {
        return found;
    }
    let Some(occurrence) = file.occurrence_at(offset) else {
        return Vec::new();
    };
    files
        .iter()
        .find_map(|other| declaration(other.occurrences(), &occurrence.symbol).map(|span| other.analysis.file.at(span)))
        .into_iter()
        .collect()
}

/// The first declaring occurrence of a symbol.
pub fn declaration(occurrences: &[Occurrence], symbol: &Symbol) -> Option<Span> {
    occurrences
        .iter()
        .find(|o| o.declaration && o.symbol == *symbol)
        .map(|o| o.span)
}

/// The resolved pattern whose text contains `offset`.
fn enclosing_resolution(file: &File, offset: usize) -> Option<&Resolution> {
    let model = &file.analysis.schema.model;
    let this = file.analysis.file;
    let (index, _) = model
        .pattern_ids()
        .find(|(_, p)| p.file == this && p.span.contains(offset))?;
    file.analysis.schema.resolution(index)
}

fn relied_on(model: &Model, resolution: &Resolution, occurrence: &Occurrence) -> Vec<FileSpan> {
    let table = model.table(resolution.table);
    let access_span = table.at(table.access(resolution.access).span);
    // The key lines the Query uses, with their entity.
    let key_lines: Vec<(EntityId, &crate::check::model::KeyValue)> = resolution
        .returns
        .iter()
        .flat_map(|&e| {
            model
                .entity(e)
                .items
                .iter()
                .flat_map(move |i| i.keys.iter().map(move |k| (e, k)))
        })
        .filter(|&(e, k)| resolution.relies_on.contains(&model.entity(e).at(k.span)))
        .collect();
    match &occurrence.symbol {
        // The key templates first (where an editor jumps), the index last.
        Symbol::Pattern(_) => {
            let mut spans: Vec<FileSpan> = resolution
                .relies_on
                .iter()
                .copied()
                .filter(|s| *s != access_span)
                .collect();
            spans.push(access_span);
            spans
        }
        Symbol::Entity(e) => key_lines
            .iter()
            .filter(|(owner, _)| owner == e)
            .map(|&(owner, k)| model.entity(owner).at(k.span))
            .collect(),
        Symbol::Attribute { .. } | Symbol::Value { .. } => {
            let text = occurrence_text(model, occurrence);
            key_lines
                .iter()
                .filter(|(_, k)| k.template.holes().any(|(n, _)| n.text == text))
                .map(|&(owner, k)| model.entity(owner).at(k.span))
                .collect()
        }
        Symbol::Key { name, .. } => {
            let mut spans = vec![access_span];
            spans.extend(
                key_lines
                    .iter()
                    .filter(|(_, k)| k.attr == *name)
                    .map(|&(owner, k)| model.entity(owner).at(k.span)),
            );
            spans
        }
        Symbol::Table(_) | Symbol::Index { .. } => vec![access_span],
        Symbol::Tag { text, .. } => key_lines
            .iter()
            .filter(|(_, k)| {
                k.template
                    .literal_prefix()
                    .split(table.delimiter.as_str())
                    .any(|w| w == text)
            })
            .map(|&(owner, k)| model.entity(owner).at(k.span))
            .collect(),
    }
}

/// The attribute an attribute or value occurrence stands for: a range
/// bound (`since` in `at >= since`) stands for the attribute it bounds.
fn occurrence_text(model: &Model, occurrence: &Occurrence) -> String {
    match &occurrence.symbol {
        Symbol::Attribute { entity, attr } => model.entity(*entity).attributes[*attr].name.text.to_string(),
        Symbol::Value { pattern, name } => model
            .pattern(*pattern)
            .known
            .iter()
            .find(|k| match &k.kind {
                KnownKind::Compare(_, b) | KnownKind::BeginsWith(b) => b.text == *name,
                KnownKind::Between(a, b) => a.text == *name || b.text == *name,
                KnownKind::Equal | KnownKind::Fixed(_) => false,
            })
            .map_or_else(|| name.to_string(), |k| k.attr.text.to_string()),
        _ => String::new(),
    }
}
