//! `dyno import`: a `.dyno` schema from what already describes a table — a
//! NoSQL Workbench data model (`workbench`) or a CloudFormation template
//! (`cloudformation`). Each importer reads its input into a [`Draft`];
//! [`Draft::render`] writes the schema text and lays it out with the
//! formatter, so the output is what `dyno fmt` would make of it.
//!
//! The rule every importer follows: never a silent guess. What the input
//! does not say, or what is inferred from a handful of sample values, is a
//! `// TODO: ...` comment beside the line it concerns.

pub mod cloudformation;
mod entity;
mod infer;
mod template;
pub mod workbench;

use std::fmt;

use crate::syntax::ast::KeyType;
use crate::syntax::names::written;
pub use template::{Part, Template};

/// Why nothing was imported: the input is not what the importer reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportError(pub String);

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ImportError {}

/// What an importer found, ready to be written as a schema.
#[derive(Clone, Debug, Default)]
pub struct Draft {
    /// Comment lines at the top of the file (without `// `).
    pub header: Vec<String>,
    pub tables: Vec<TableDraft>,
    pub entities: Vec<EntityDraft>,
    /// TODOs at the end of the file (the access patterns to write).
    pub footer: Vec<String>,
}

#[derive(Clone, Debug)]
pub struct TableDraft {
    pub name: String,
    pub todos: Vec<String>,
    pub partition: KeyDraft,
    pub sort: Option<KeyDraft>,
    pub indexes: Vec<IndexDraft>,
    pub ttl: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyDraft {
    pub name: String,
    pub ty: KeyType,
}

#[derive(Clone, Debug)]
pub struct IndexDraft {
    pub name: String,
    pub local: bool,
    pub partition: KeyDraft,
    pub sort: Option<KeyDraft>,
    pub projection: ProjectionDraft,
    pub todos: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProjectionDraft {
    All,
    KeysOnly,
    Include(Vec<String>),
}

#[derive(Clone, Debug)]
pub struct EntityDraft {
    pub name: String,
    /// `in Table`, written when the file has several tables.
    pub table: String,
    pub todos: Vec<String>,
    pub attributes: Vec<AttributeDraft>,
    /// Key attribute and its template, in the table's key order.
    pub keys: Vec<(String, Template)>,
    /// Several item shapes (`item { ... }`), each its keys; then `keys`
    /// is empty.
    pub items: Vec<Vec<(String, Template)>>,
}

#[derive(Clone, Debug)]
pub struct AttributeDraft {
    pub name: String,
    /// The type as written: `id`, `int(pad 6)`, `enum(a, b)`.
    pub ty: String,
    pub optional: bool,
    /// Written as a trailing `// TODO: ...`.
    pub todo: Option<String>,
}

/// A comment's text on one line: line breaks in names or descriptions
/// taken from the input would end the comment early.
fn one_line(text: &str) -> String {
    text.split(|c: char| c.is_control())
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

fn push_todos(out: &mut String, indent: &str, todos: &[String]) {
    for todo in todos {
        out.push_str(&format!("{indent}// TODO: {}\n", one_line(todo)));
    }
}

fn key_written(key: &KeyDraft) -> String {
    let name = written(&key.name);
    match key.ty {
        KeyType::String => name.into_owned(),
        KeyType::Number => format!("{name}: number"),
        KeyType::Binary => format!("{name}: binary"),
    }
}

impl Draft {
    /// The schema text, formatted as `dyno fmt` formats it. `Err` only when
    /// the text does not parse, which is a bug of the importer.
    pub fn render(&self) -> Result<String, ImportError> {
        let text = self.text();
        crate::ide::format::format(&text).map_err(|error| {
            ImportError(format!(
                "internal error: the imported schema does not format ({error}):\n{text}"
            ))
        })
    }

    fn text(&self) -> String {
        let mut out = String::new();
        for line in &self.header {
            out.push_str(&format!("// {}\n", one_line(line)));
        }
        let several_tables = self.tables.len() > 1;
        for table in &self.tables {
            out.push('\n');
            push_todos(&mut out, "", &table.todos);
            out.push_str(&format!("table {} {{\n", written(&table.name)));
            let mut key = format!("  key {}", key_written(&table.partition));
            if let Some(sort) = &table.sort {
                key.push_str(&format!(", {}", key_written(sort)));
            }
            out.push_str(&key);
            out.push('\n');
            for index in &table.indexes {
                push_todos(&mut out, "  ", &index.todos);
                let local = if index.local { "local " } else { "" };
                let mut line = format!(
                    "  {local}index {} ({}",
                    written(&index.name),
                    key_written(&index.partition)
                );
                if let Some(sort) = &index.sort {
                    line.push_str(&format!(", {}", key_written(sort)));
                }
                line.push(')');
                match &index.projection {
                    ProjectionDraft::All => {}
                    ProjectionDraft::KeysOnly => line.push_str(" keys_only"),
                    ProjectionDraft::Include(names) => {
                        let names: Vec<_> = names.iter().map(|n| written(n)).collect();
                        line.push_str(&format!(" include({})", names.join(", ")));
                    }
                }
                out.push_str(&line);
                out.push('\n');
            }
            if let Some(ttl) = &table.ttl {
                out.push_str(&format!("  ttl {}\n", written(ttl)));
            }
            out.push_str("}\n");
        }
        for entity in &self.entities {
            out.push('\n');
            push_todos(&mut out, "", &entity.todos);
            out.push_str(&format!("entity {}", entity.name));
            if several_tables {
                out.push_str(&format!(" in {}", written(&entity.table)));
            }
            out.push_str(" {\n");
            for attribute in &entity.attributes {
                let optional = if attribute.optional { "?" } else { "" };
                out.push_str(&format!("  {}: {}{optional}", written(&attribute.name), attribute.ty));
                if let Some(todo) = &attribute.todo {
                    out.push_str(&format!(" // TODO: {}", one_line(todo)));
                }
                out.push('\n');
            }
            let has_keys = !entity.keys.is_empty() || !entity.items.is_empty();
            if !entity.attributes.is_empty() && has_keys {
                out.push('\n');
            }
            for (key, template) in &entity.keys {
                out.push_str(&format!("  {} = {}\n", written(key), template.written()));
            }
            for item in &entity.items {
                out.push_str("  item {\n");
                for (key, template) in item {
                    out.push_str(&format!("    {} = {}\n", written(key), template.written()));
                }
                out.push_str("  }\n");
            }
            out.push_str("}\n");
        }
        if !self.footer.is_empty() {
            out.push('\n');
            push_todos(&mut out, "", &self.footer);
        }
        out
    }
}

/// The runs of ASCII letters and digits in `text`: the words of a name.
fn ascii_words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
}

/// `warehouseItem`, `order-line`, `9lives` as an entity name: an
/// identifier in PascalCase (`WarehouseItem`, `OrderLine`, `E9lives`).
pub(crate) fn pascal_case(text: &str) -> String {
    let mut out = String::new();
    for word in ascii_words(text) {
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            out.extend(first.to_uppercase());
            out.push_str(chars.as_str());
        }
    }
    if !out.starts_with(|c: char| c.is_ascii_alphabetic()) {
        out.insert(0, 'E');
    }
    out
}

/// `USER`, `order-line`, `GSI1-SK` as an attribute name: an identifier in
/// camelCase (`user`, `orderLine`, `gsi1Sk`), or `value` when nothing of it
/// is left.
pub(crate) fn camel_case(text: &str) -> String {
    let mut out = String::new();
    for word in ascii_words(text) {
        let lower = word.chars().all(|c| !c.is_lowercase());
        let mut chars = word.chars();
        let Some(first) = chars.next() else { continue };
        if out.is_empty() {
            out.extend(first.to_lowercase());
        } else {
            out.extend(first.to_uppercase());
        }
        if lower {
            out.push_str(&chars.as_str().to_lowercase());
        } else {
            out.push_str(chars.as_str());
        }
    }
    if !out.starts_with(|c: char| c.is_ascii_alphabetic()) {
        out.insert_str(0, "value");
    }
    out
}

/// `name`, or `name2`, `name3`, … : the first not in `taken`.
pub(crate) fn unique(name: String, taken: impl Fn(&str) -> bool) -> String {
    if !taken(&name) {
        return name;
    }
    (2..).map(|n| format!("{name}{n}")).find(|n| !taken(n)).unwrap_or(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_identifiers() {
        assert_eq!(pascal_case("warehouseItem"), "WarehouseItem");
        assert_eq!(pascal_case("order-line"), "OrderLine");
        assert_eq!(pascal_case("9lives"), "E9lives");
        assert_eq!(pascal_case(""), "E");
        assert_eq!(camel_case("USER"), "user");
        assert_eq!(camel_case("GSI1-SK"), "gsi1Sk");
        assert_eq!(camel_case("c"), "c");
        assert_eq!(camel_case("#"), "value");
        assert_eq!(unique("a".into(), |n| n == "a" || n == "a2"), "a3");
    }
}
