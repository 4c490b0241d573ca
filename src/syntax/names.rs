//! Names of DynamoDB things (tables, indexes, keys, attributes) as written:
//! an identifier (`pk`) or, for any other name DynamoDB allows, a quoted
//! name (`"GSI1-PK"`, `"State#Date"`). A quoted name is the same name as
//! the identifier with its text: `"pk"` is `pk`.

use std::borrow::Cow;

use super::Span;
use super::ast::{Item, Modifier, Name, Operation, Projection, Segment, SourceFile, TypeArg};
use super::template::{self, is_identifier};

/// The words the lexer reserves: they are never identifiers.
pub const HARD_KEYWORDS: &[&str] = &["table", "entity", "pattern"];

/// Whether `text` can be written as a bare name.
pub fn is_bare(text: &str) -> bool {
    is_identifier(text) && !HARD_KEYWORDS.contains(&text)
}

/// `text` as a name is written: bare when it is an identifier, quoted (with
/// `"`, `\`, `{` and `}` escaped, as in any string) otherwise.
pub fn written(text: &str) -> Cow<'_, str> {
    if is_bare(text) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(quoted(text))
}

/// Words that start a modifier or a clause after a pattern's returns: after
/// `scan` they are not read as an index name, so such an index is written
/// quoted there (`scan "limit"`).
pub const CLAUSE_WORDS: [&str; 8] = ["by", "consistent", "limit", "get", "batch", "scan", "segments", "where"];

/// An index name as written after `scan`: quoted when it is a clause word.
pub fn written_after_scan(text: &str) -> Cow<'_, str> {
    if CLAUSE_WORDS.contains(&text) {
        Cow::Owned(quoted(text))
    } else {
        written(text)
    }
}

/// The spans of the index names written after `scan`, where
/// [`written_after_scan`] spells a name.
pub fn scan_index_spans(file: &SourceFile) -> Vec<Span> {
    let mut out = Vec::new();
    for item in &file.items {
        let Item::Pattern(pattern) = item else { continue };
        for modifier in &pattern.modifiers {
            if let Modifier::Operation {
                operation: Operation::Scan(Some(index)),
                ..
            } = modifier
            {
                out.push(index.span);
            }
        }
    }
    out
}

/// `text` in quotes, escaped as in any string.
pub fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    push_escaped(&mut out, text);
    out.push('"');
    out
}

/// Appends `text` as the inside of a string: `"`, `\`, `{` and `}` escaped,
/// so it is literal text, never a hole (a key template's literal parts).
pub fn push_escaped(out: &mut String, text: &str) {
    for c in text.chars() {
        if matches!(c, '"' | '\\' | '{' | '}') {
            out.push('\\');
        }
        out.push(c);
    }
}

/// The name a source slice stands for: a quoted name's text with its escapes
/// decoded (its closing quote may be missing), any other slice as it is.
pub fn read(source: &str) -> Cow<'_, str> {
    if !source.starts_with('"') {
        return Cow::Borrowed(source);
    }
    let mut text = String::new();
    for segment in template::split(source, 0, &mut Vec::new()) {
        match segment {
            Segment::Literal { text: literal, .. } => text.push_str(&literal),
            // Not a name (the parser reports it); read it as written.
            Segment::Hole { name, .. } => {
                text.push('{');
                text.push_str(&name.text);
                text.push('}');
            }
        }
    }
    Cow::Owned(text)
}

/// The spans of every name written where a quoted name may stand: what a
/// rename may turn into a quoted name. Entity and pattern names, a
/// pattern's range bounds and query parameters, and template holes are
/// identifiers only.
pub fn quotable_spans(file: &SourceFile) -> Vec<Span> {
    let mut out = Vec::new();
    let mut push = |name: &Name| out.push(name.span);
    for item in &file.items {
        match item {
            Item::Table(table) => {
                push(&table.name);
                for key in &table.keys {
                    key.attrs().for_each(|k| push(&k.name));
                }
                for index in &table.indexes {
                    push(&index.name);
                    index.attrs().for_each(|k| push(&k.name));
                    if let Projection::Include(_, names) = &index.projection {
                        names.iter().for_each(&mut push);
                    }
                }
                table.ttls.iter().for_each(|t| push(&t.attribute));
            }
            Item::Entity(entity) => {
                if let Some(table) = &entity.table {
                    push(table);
                }
                for attribute in &entity.attributes {
                    push(&attribute.name);
                    // `shard(4, of "user-id")`
                    for arg in &attribute.ty.args {
                        if let TypeArg::Of(source) = arg {
                            push(source);
                        }
                    }
                }
                entity
                    .keys
                    .iter()
                    .chain(entity.items.iter().flat_map(|i| &i.keys))
                    .for_each(|k| push(&k.key));
            }
            Item::Pattern(pattern) => {
                // A known's bounds name values of the caller, not attributes.
                pattern.known.iter().for_each(|k| push(&k.attr));
                for modifier in &pattern.modifiers {
                    match modifier {
                        Modifier::OrderBy { attr, .. } => push(attr),
                        Modifier::Operation {
                            operation: Operation::Scan(Some(index)),
                            ..
                        } => push(index),
                        Modifier::Where(filter) => filter.expr.attributes().into_iter().for_each(&mut push),
                        _ => {}
                    }
                }
                if let Some(query) = &pattern.query {
                    push(&query.table);
                    if let Some(index) = &query.index {
                        push(index);
                    }
                    query.conditions.iter().for_each(|c| push(&c.key));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_quotes_exactly_the_names_that_are_not_identifiers() {
        assert_eq!(written("pk"), "pk");
        assert_eq!(written("GSI1-PK"), "\"GSI1-PK\"");
        assert_eq!(written("table"), "\"table\"");
        assert_eq!(written("a\"b{c}\\"), r#""a\"b\{c\}\\""#);
        assert_eq!(written(""), "\"\"");
    }

    #[test]
    fn read_decodes_what_written_encodes() {
        for text in ["pk", "GSI1-PK", "State#Date", "a\"b{c}\\", "entity"] {
            assert_eq!(read(&written(text)), text);
        }
        assert_eq!(read("\"open"), "open");
    }
}
