//! The Rust target of `dyno generate`: one module per table on
//! `aws-sdk-dynamodb`, `regex` and `futures`, rendered from the
//! [`api::TableApi`] alone (docs/generate.md says what it holds). Records
//! are structs, enums are enums; key builders check each value against its
//! type's language; reads send the request `dyno explain` shows, built
//! with the SDK's fluent builders from that same JSON.

mod entity;
mod enums;
mod read;
mod support;
mod writer;

use std::collections::BTreeSet;

use super::api::{Field, ReturnApi, TableApi};
use super::names;
use crate::check::model::AttrType;
use support::Helper;
use writer::Writer;

/// The text of the module of one table.
pub fn module(source: &str, table: &TableApi) -> String {
    let mut module = Module {
        table,
        patterns: Vec::new(),
        enums: Vec::new(),
        helpers: BTreeSet::new(),
        imports: BTreeSet::new(),
    };
    let mut body = Writer::new();
    module.collect_enums();
    enums::enums(&module, &mut body);
    for entity in &table.entities {
        entity::entity(&mut module, &mut body, entity);
    }
    for entity in &table.entities {
        if projected_reads(table).any(|r| r.entity == entity.name) {
            entity::projection(&mut module, &mut body, entity);
        }
    }
    read::reads(&mut module, &mut body);
    module.assemble(&super::header(source), body.finish())
}

/// The entities of reads of an index that projects only some attributes.
fn projected_reads(table: &TableApi) -> impl Iterator<Item = &ReturnApi> {
    table
        .reads
        .iter()
        .filter(|r| r.projected.is_some())
        .flat_map(|r| &r.returns)
}

pub(super) struct Module<'a> {
    table: &'a TableApi,
    /// The regular expressions the module compiles, in order of first use.
    patterns: Vec<String>,
    /// Each enum type: its values and its name.
    enums: Vec<(Vec<String>, String)>,
    helpers: BTreeSet<Helper>,
    imports: BTreeSet<&'static str>,
}

impl Module<'_> {
    /// The static that holds `regex`.
    fn pattern(&mut self, regex: &str) -> String {
        let index = match self.patterns.iter().position(|p| p == regex) {
            Some(i) => i,
            None => {
                self.patterns.push(regex.to_string());
                self.patterns.len() - 1
            }
        };
        format!("PATTERN_{index}")
    }

    fn uses(&mut self, helper: Helper) {
        self.helpers.insert(helper);
    }

    fn import(&mut self, path: &'static str) {
        self.imports.insert(path);
    }

    /// One enum per distinct value list, named after the first attribute
    /// that declares it (`MatchMode`).
    fn collect_enums(&mut self) {
        for entity in &self.table.entities {
            for field in &entity.fields {
                if let AttrType::Enum(values) = &field.ty
                    && !self.enums.iter().any(|(v, _)| v == values)
                {
                    let mut name = format!("{}{}", names::pascal(&entity.name), names::pascal(&field.name));
                    while self.enums.iter().any(|(_, n)| *n == name) || self.is_entity_type(&name) {
                        name.push('_');
                    }
                    self.enums.push((values.clone(), name));
                }
            }
        }
    }

    /// `{Read}{suffix}` (`PlayerPageItem`, `PlayersKey`), made unlike the
    /// module's other types.
    fn read_type(&self, read: &str, suffix: &str) -> String {
        let mut name = format!("{}{suffix}", names::pascal(read));
        while self.is_entity_type(&name)
            || self.enums.iter().any(|(_, n)| *n == name)
            || MODULE_TYPES.contains(&name.as_str())
            || self
                .table
                .entities
                .iter()
                .any(|e| format!("{}Projection", names::pascal(&e.name)) == name)
        {
            name.push('_');
        }
        name
    }

    fn is_entity_type(&self, name: &str) -> bool {
        self.table.entities.iter().any(|e| entity_type(&e.name) == name)
    }

    /// The Rust type of a record's field (without the `Option` of an
    /// optional one).
    fn rust_type(&mut self, ty: &AttrType) -> String {
        match ty {
            AttrType::Enum(values) => self
                .enums
                .iter()
                .find(|(v, _)| v == values)
                .map_or_else(|| "String".to_string(), |(_, name)| name.clone()),
            AttrType::Int { .. } | AttrType::Epoch(_) | AttrType::Shard { .. } => "i64".into(),
            AttrType::Bool => "bool".into(),
            AttrType::Binary => "Vec<u8>".into(),
            AttrType::List => "Vec<AttributeValue>".into(),
            AttrType::Map => "Item".into(),
            _ => "String".into(),
        }
    }

    fn field_type(&mut self, field: &Field) -> String {
        let ty = self.rust_type(&field.ty);
        if field.optional || matches!(field.ty, AttrType::Shard { .. }) {
            format!("Option<{ty}>")
        } else {
            ty
        }
    }

    /// The arguments of `checked` for `place`'s text in a key:
    /// `"points"`, `format!("{:09}", self.points)`, `&PATTERN_1`.
    fn checked_args(&mut self, attribute: &str, ty: &AttrType, place: &str, pattern: &str) -> Vec<String> {
        self.uses(Helper::Checked);
        let pattern = self.pattern(pattern);
        vec![format!("{attribute:?}"), key_text(ty, place), format!("&{pattern}")]
    }

    /// `let name = checked(…)?;`, as rustfmt lays it out.
    fn let_checked(
        &mut self,
        out: &mut Writer,
        name: &str,
        attribute: &str,
        ty: &AttrType,
        place: &str,
        pattern: &str,
    ) {
        let args = self.checked_args(attribute, ty, place, pattern);
        out.let_call(name, "checked", &args, "?;");
    }

    fn assemble(mut self, header: &str, body: String) -> String {
        let mut out = Writer::new();
        out.line(&format!("// {header}"));
        out.blank();
        out.line(&format!(
            "//! The `{}` table: its records, keys and reads.",
            self.table.name
        ));
        out.blank();
        // Helpers' own needs.
        let mut imports: BTreeSet<&str> = self.imports.clone();
        imports.extend(["std::collections::HashMap", "aws_sdk_dynamodb::Client"]);
        imports.insert("aws_sdk_dynamodb::types::AttributeValue");
        imports.insert("aws_sdk_dynamodb::error::DisplayErrorContext");
        let any_decoder = self.helpers.iter().any(|h| {
            matches!(
                h,
                Helper::Text
                    | Helper::Integer
                    | Helper::Number
                    | Helper::Boolean
                    | Helper::Binary
                    | Helper::List
                    | Helper::Map
            )
        });
        if self.helpers.contains(&Helper::Integer) {
            self.helpers.insert(Helper::Number);
        }
        for helper in &self.helpers {
            match helper {
                Helper::QueryPages => {
                    imports.insert("aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder");
                    imports.insert("futures::stream::{self, BoxStream, StreamExt, TryStreamExt}");
                }
                Helper::ScanPages => {
                    imports.insert("aws_sdk_dynamodb::operation::scan::builders::ScanFluentBuilder");
                    imports.insert("futures::stream::{self, BoxStream, StreamExt, TryStreamExt}");
                }
                Helper::Merge => {
                    imports.insert("std::cmp::Ordering");
                    imports.insert("futures::future");
                }
                Helper::Records => {
                    imports.insert("futures::future");
                }
                Helper::BatchGet => {
                    imports.insert("std::time::Duration");
                    imports.insert("aws_sdk_dynamodb::config::AsyncSleep");
                    imports.insert("aws_sdk_dynamodb::types::KeysAndAttributes");
                }
                _ => {}
            }
        }
        if !self.patterns.is_empty() {
            imports.insert("std::sync::OnceLock");
            imports.insert("regex::Regex");
        }
        write_imports(&mut out, &imports);
        out.blank();
        out.line("/// The table's name in the schema: where [`Table::new`] reads and writes.");
        out.line(&format!("pub const TABLE_NAME: &str = {:?};", self.table.name));
        out.blank();
        out.line("/// An item as DynamoDB stores it: attribute names and values.");
        out.line("pub type Item = HashMap<String, AttributeValue>;");
        if self.helpers.contains(&Helper::QueryPages) || self.helpers.contains(&Helper::ScanPages) {
            out.blank();
            out.line("/// Items read page by page.");
            out.line("type Items = BoxStream<'static, Result<Item, Error>>;");
        }
        if self.helpers.contains(&Helper::Records) {
            out.blank();
            out.line("/// Records read page by page: each record, or the error that ends the read.");
            out.line("pub type Records<T> = BoxStream<'static, Result<T, Error>>;");
        }
        out.blank();
        out.text(support::ERROR);
        out.blank();
        out.text(support::TABLE);
        out.push_raw(&body);
        if !self.patterns.is_empty() {
            out.blank();
            out.text(PATTERN);
            for (i, pattern) in self.patterns.iter().enumerate() {
                out.blank();
                out.call(
                    &format!("static PATTERN_{i}: Pattern = Pattern::new"),
                    &[raw_string(pattern)],
                    ";",
                );
            }
        }
        if self.helpers.contains(&Helper::Unidentified) {
            out.blank();
            unidentified(&mut out, self.table);
        }
        for helper in &self.helpers {
            let text = helper.text();
            if !text.is_empty() {
                out.blank();
                out.text(&text);
            }
        }
        if any_decoder {
            out.blank();
            out.text(support::MISTYPED);
        }
        out.finish()
    }
}

const PATTERN: &str = r#"/// A key language as a regular expression, compiled on first use.
struct Pattern {
    source: &'static str,
    regex: OnceLock<Regex>,
}

impl Pattern {
    const fn new(source: &'static str) -> Self {
        Pattern {
            source,
            regex: OnceLock::new(),
        }
    }

    fn regex(&self) -> &Regex {
        self.regex.get_or_init(|| {
            Regex::new(self.source).expect("dyno generates valid regular expressions")
        })
    }
}
"#;

/// `use` lines grouped as rustfmt (edition 2024) sorts them: std, then
/// the crates, each group sorted.
fn write_imports(out: &mut Writer, imports: &BTreeSet<&str>) {
    let (std, crates): (Vec<&str>, Vec<&str>) = imports.iter().partition(|i| i.starts_with("std::"));
    for group in [std, crates] {
        if group.is_empty() {
            continue;
        }
        for import in group {
            out.line(&format!("use {import};"));
        }
        out.blank();
    }
    out.pop_blank();
}

/// `Error::Unidentified` naming the item's table keys.
fn unidentified(out: &mut Writer, table: &TableApi) {
    let base: Vec<&str> = table.keys.iter().filter(|k| k.base).map(|k| k.name.as_str()).collect();
    out.line("/// The error for an item no entity of a read accepts, naming its key.");
    out.line("fn unidentified(item: &Item) -> Error {");
    out.line(&format!(
        "    let names = [{}];",
        base.iter().map(|n| format!("{n:?}")).collect::<Vec<_>>().join(", ")
    ));
    out.line("    let key: Vec<String> = names");
    out.line("        .iter()");
    out.line("        .map(|name| format!(\"{name}={:?}\", item.get(*name)))");
    out.line("        .collect();");
    out.line("    Error::Unidentified {");
    out.line("        key: key.join(\", \"),");
    out.line("    }");
    out.line("}");
}

/// A string literal of `text` as rustfmt keeps it: raw (`r"…"`, with as
/// many `#` as it needs) when it has a backslash or a quote.
fn raw_string(text: &str) -> String {
    if !text.contains(['\\', '"']) && !text.contains(|c: char| c.is_control()) {
        return format!("\"{text}\"");
    }
    let mut hashes = 0;
    while text.contains(&format!("\"{}", "#".repeat(hashes))) {
        hashes += 1;
    }
    let fence = "#".repeat(hashes);
    format!("r{fence}\"{text}\"{fence}")
}

/// An integer type whose every value is a DynamoDB Number as it is
/// (`int`, `epoch`; not a shard, which has a range).
fn plain_number(ty: &AttrType) -> bool {
    matches!(ty, AttrType::Int { .. } | AttrType::Epoch(_))
}

/// The text of a value in a key: an `int(pad N)` zero-padded, an enum its
/// name, any other value its `Display`.
fn key_text(ty: &AttrType, place: &str) -> String {
    match ty {
        AttrType::Int { pad: Some(n) } => format!("format!(\"{{:0{n}}}\", {place})"),
        AttrType::Enum(_) => format!("{place}.as_str().to_string()"),
        _ => format!("{place}.to_string()"),
    }
}

/// The record type of an entity: its name in Pascal case, unless the
/// module already has a type of that name (`Item` → `ItemRecord`).
fn entity_type(name: &str) -> String {
    let pascal = names::pascal(name);
    if MODULE_TYPES.contains(&pascal.as_str()) {
        format!("{pascal}Record")
    } else {
        pascal
    }
}

/// The module's own types.
const MODULE_TYPES: &[&str] = &[
    "Table",
    "Error",
    "Item",
    "Items",
    "Records",
    "Pattern",
    "Client",
    "AttributeValue",
    "Blob",
    "Regex",
    "HashMap",
    "OnceLock",
    "Duration",
    "Ordering",
    "KeysAndAttributes",
    "QueryFluentBuilder",
    "ScanFluentBuilder",
    "BoxStream",
    "DisplayErrorContext",
    "AsyncSleep",
    "Option",
    "Result",
    "String",
    "Vec",
    "Self",
];

/// A Rust identifier for a schema name in snake case: a keyword gets a
/// trailing `_` (`type_`), so it also works inside `format!("{type_}")`.
fn local(name: &str) -> String {
    let snake = names::snake(name);
    if KEYWORDS.contains(&snake.as_str()) || RESERVED.contains(&snake.as_str()) {
        format!("{snake}_")
    } else {
        snake
    }
}

/// A read's method on `Table`: not one of `Table`'s own methods, a
/// keyword as a raw identifier.
fn method_ident(name: &str) -> String {
    let ident = field_ident(name);
    if ["new", "named", "client", "name"].contains(&ident.as_str()) {
        format!("{ident}_")
    } else {
        ident
    }
}

/// A struct field: a keyword as a raw identifier (`r#type`).
fn field_ident(name: &str) -> String {
    let snake = names::snake(name);
    match snake.as_str() {
        "self" | "super" | "crate" | "_" => format!("{snake}_"),
        s if KEYWORDS.contains(&s) => format!("r#{snake}"),
        _ => snake,
    }
}

/// The generated code's own local names.
const RESERVED: &[&str] = &[
    "item",
    "items",
    "record",
    "request",
    "output",
    "key",
    "keys",
    "requested",
    "sources",
    "segment",
    "start",
    "value",
    "table",
    "text",
    "source",
    "given",
    "name",
    "f",
    // The module's functions.
    "checked",
    "required",
    "parsed",
    "matches",
    "unidentified",
    "mistyped",
    "shard_of",
    "random_shard",
    "query_pages",
    "scan_pages",
    "merge",
    "compare",
    "compare_numbers",
    "sign",
    "magnitude",
    "records",
    "batch_get",
    "decode_text",
    "decode_integer",
    "decode_number",
    "decode_bool",
    "decode_binary",
    "decode_list",
    "decode_map",
];

const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern", "false", "fn",
    "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "self",
    "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where", "while", "abstract", "become",
    "box", "do", "final", "macro", "override", "priv", "try", "typeof", "unsized", "virtual", "yield", "_",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_strings_fence_their_quotes() {
        assert_eq!(raw_string("^USER#[^#]+$"), "\"^USER#[^#]+$\"");
        assert_eq!(raw_string("^A\\.B$"), "r\"^A\\.B$\"");
        assert_eq!(raw_string("a\"#b\\"), "r##\"a\"#b\\\"##");
    }

    #[test]
    fn keywords_are_escaped() {
        assert_eq!(local("type"), "type_");
        assert_eq!(field_ident("type"), "r#type");
        assert_eq!(field_ident("self"), "self_");
        assert_eq!(local("userId"), "user_id");
    }
}
