//! Rename entities, attributes (and the holes that use them), indexes,
//! keys, patterns, values, and type tags (`USER` → `USR` in every template
//! and condition literal that uses the tag, and nowhere else).

use super::File;
use super::locate::{self, Occurrence, Symbol};
use crate::check::model::PatternId;
use crate::syntax::{FileSpan, Span, names, template};

/// The span that would be renamed, or `None` where nothing can be.
pub fn prepare(file: &File, offset: usize) -> Option<Span> {
    file.occurrence_at(offset).map(|o| o.span)
}

/// Every edit of the rename, each in its file, or why it cannot be done.
pub fn rename(file: &File, offset: usize, new_name: &str) -> Result<Vec<(FileSpan, String)>, String> {
    rename_in(&[file], 0, offset, new_name)
}

/// [`rename`] in a schema of several files: `files` share one analysis
/// (each its own view of it), and the cursor is in `files[current]`. Every
/// file's uses are renamed, and a clash in any of them refuses the rename.
pub fn rename_in(
    files: &[&File],
    current: usize,
    offset: usize,
    new_name: &str,
) -> Result<Vec<(FileSpan, String)>, String> {
    let file = files[current];
    let target = locate::at(file.occurrences(), offset).ok_or("there is nothing to rename here")?;
    // The editor offers a quoted name with its quotes, and the user may keep
    // them: a new name written quoted is the name it spells.
    let quoted = !matches!(target.symbol, Symbol::Tag { .. })
        && new_name.len() >= 2
        && new_name.starts_with('"')
        && new_name.ends_with('"');
    let new_name = &*if quoted { names::read(new_name) } else { new_name.into() };
    match &target.symbol {
        Symbol::Tag { table, .. } => {
            let delimiter = file.analysis.schema.model.table(*table).delimiter.as_str();
            // Still one word between delimiters (with `::`, `A:` is not: `A:::`
            // reads as `A`, `:`).
            let between = format!("{delimiter}{new_name}{delimiter}");
            let one_word = between.split(delimiter).eq(["", new_name, ""]);
            if new_name.is_empty() || !one_word || new_name.contains(['"', '{', '}', '\\']) {
                return Err(format!(
                    "a type tag is one word of literal text: not empty, and no `{delimiter}`, quotes, braces or backslashes"
                ));
            }
        }
        _ if new_name.is_empty() => return Err("a name cannot be empty".to_string()),
        _ => {}
    }
    // Symbols are the schema's, the same in every file's view; a name that
    // links two of them does so within one file.
    let mut symbols = vec![target.symbol.clone()];
    loop {
        let before = symbols.len();
        for f in files {
            for symbol in linked(f.occurrences(), &symbols) {
                if !symbols.contains(&symbol) {
                    symbols.push(symbol);
                }
            }
        }
        if symbols.len() == before {
            break;
        }
    }
    for f in files {
        for symbol in &symbols {
            if let Some(clash) = f.occurrences().iter().find(|o| {
                f.text.get(o.span.range()).map(names::read).as_deref() == Some(new_name)
                    && clashes(f, symbol, &o.symbol)
            }) {
                return Err(format!("`{new_name}` is already {}", noun(symbol, &clash.symbol)));
            }
        }
    }
    let mut edits = Vec::new();
    for f in files {
        edits.extend(edits_in(f, &target.symbol, &symbols, new_name)?);
    }
    Ok(edits)
}

/// The edits of one file.
fn edits_in(
    file: &File,
    target: &Symbol,
    symbols: &[Symbol],
    new_name: &str,
) -> Result<Vec<(FileSpan, String)>, String> {
    let occurrences = file.occurrences();
    let renamed = occurrences.iter().filter(|o| symbols.contains(&o.symbol));
    let spans = renamed.clone().map(|o| o.span);
    // A tag is literal text inside a string; every other name is written
    // bare when it is an identifier and quoted otherwise, which only some
    // places allow.
    let replacement = match target {
        Symbol::Tag { .. } => new_name.to_string(),
        _ if names::is_bare(new_name) => new_name.to_string(),
        _ => {
            let quotable = names::quotable_spans(&file.analysis.parse.file);
            if let Some(bare) = renamed.clone().find(|o| !quotable.contains(&o.span)) {
                let place = match bare.symbol {
                    Symbol::Entity(_) => "an entity name",
                    Symbol::Pattern(_) => "a pattern name",
                    Symbol::Value { .. } => "a value of a pattern",
                    _ => "a name in a template hole",
                };
                let is = if template::is_identifier(new_name) {
                    "a keyword"
                } else {
                    "not an identifier"
                };
                return Err(format!(
                    "`{new_name}` is {is}, and {place} must be an identifier (only the names of tables, \
                     indexes, keys and attributes can be quoted)"
                ));
            }
            names::written(new_name).into_owned()
        }
    };
    // After `scan`, a clause word is quoted (`scan "limit"`).
    let scan_indexes = names::scan_index_spans(&file.analysis.parse.file);
    let mut edits: Vec<(FileSpan, String)> = spans
        .map(|span| {
            let text = if scan_indexes.contains(&span) {
                names::written_after_scan(new_name).into_owned()
            } else {
                replacement.clone()
            };
            (file.analysis.file.at(span), text)
        })
        .collect();
    // A name standing for several of the symbols is edited once.
    edits.dedup_by_key(|(span, _)| *span);
    Ok(edits)
}

/// The symbols and every symbol renamed with them in one file: a name
/// that stands for several symbols at once (a pattern's known `userId`
/// binds `userId` in each entity it returns) can only be renamed if all of
/// them are, or the pattern would bind some and not the others.
fn linked(occurrences: &[Occurrence], start: &[Symbol]) -> Vec<Symbol> {
    let mut symbols = start.to_vec();
    let mut next = 0;
    while next < symbols.len() {
        let spans: Vec<Span> = occurrences
            .iter()
            .filter(|o| o.symbol == symbols[next])
            .map(|o| o.span)
            .collect();
        for o in occurrences.iter().filter(|o| spans.contains(&o.span)) {
            if !symbols.contains(&o.symbol) {
                symbols.push(o.symbol.clone());
            }
        }
        next += 1;
    }
    symbols
}

/// Whether `other`, were it named like the renamed `symbol`, would be
/// confused with it: another symbol of the same kind in the same scope.
fn clashes(file: &File, symbol: &Symbol, other: &Symbol) -> bool {
    let returns = |pattern: PatternId, entity| {
        file.analysis
            .schema
            .model
            .pattern(pattern)
            .returns
            .iter()
            .any(|r| r.entity == Some(entity))
    };
    match (symbol, other) {
        (Symbol::Table(a), Symbol::Table(b)) => a != b,
        (Symbol::Entity(a), Symbol::Entity(b)) => a != b,
        (Symbol::Pattern(a), Symbol::Pattern(b)) => a != b,
        (Symbol::Index { table, access }, Symbol::Index { table: t, access: a }) => table == t && access != a,
        (Symbol::Key { table, name }, Symbol::Key { table: t, name: n }) => table == t && name != n,
        (Symbol::Attribute { entity, attr }, Symbol::Attribute { entity: e, attr: a }) => entity == e && attr != a,
        (Symbol::Value { pattern, name }, Symbol::Value { pattern: p, name: n }) => pattern == p && name != n,
        // A pattern's values and the attributes it returns share its names.
        (Symbol::Value { pattern, .. }, Symbol::Attribute { entity, .. })
        | (Symbol::Attribute { entity, .. }, Symbol::Value { pattern, .. }) => returns(*pattern, *entity),
        (Symbol::Tag { table, text }, Symbol::Tag { table: t, text: x }) => table == t && text != x,
        _ => false,
    }
}

fn noun(renamed: &Symbol, other: &Symbol) -> &'static str {
    match (renamed, other) {
        (_, Symbol::Table(_)) => "a table",
        (_, Symbol::Index { .. }) => "an index of this table",
        (_, Symbol::Key { .. }) => "a key of this table",
        (_, Symbol::Entity(_)) => "an entity",
        (Symbol::Value { .. }, Symbol::Attribute { .. }) => "an attribute this pattern returns",
        (_, Symbol::Attribute { .. }) => "an attribute of this entity",
        (Symbol::Attribute { .. }, Symbol::Value { .. }) => "a value of a pattern returning this entity",
        (_, Symbol::Value { .. }) => "a value of this pattern",
        (_, Symbol::Pattern(_)) => "a pattern",
        (_, Symbol::Tag { .. }) => "a type tag of this table",
    }
}
