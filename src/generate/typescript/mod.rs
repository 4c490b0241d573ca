//! `dyno generate typescript`: one module per table for the AWS SDK for
//! JavaScript v3 (`@aws-sdk/client-dynamodb`'s low-level commands), rendered
//! from the [`TableApi`] alone (docs/generate.md): a record type, key
//! builder, put and decoder per entity, a function per pattern, and the
//! patterns' requests as one constant, `dyno explain`'s JSON.

mod entities;
mod layout;
mod reads;
mod runtime;

use std::collections::BTreeSet;

use super::api::{Field, KeyBuild, Segment, TableApi};
use super::names;
use crate::check::model::AttrType;
use crate::syntax::ast::KeyType;
pub(crate) use layout::{WIDTH, access, object_literal, prop, quote, regex_literal, wrap};

/// The module of one table.
pub fn module(source: &str, table: &TableApi) -> String {
    let mut out = Module::new(table, source);
    out.render();
    out.finish()
}

/// JavaScript's reserved words, and names a module declares itself.
const RESERVED: &[&str] = &[
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "debugger",
    "default",
    "delete",
    "do",
    "else",
    "enum",
    "export",
    "extends",
    "false",
    "finally",
    "for",
    "function",
    "if",
    "implements",
    "import",
    "in",
    "instanceof",
    "interface",
    "let",
    "new",
    "null",
    "package",
    "private",
    "protected",
    "public",
    "return",
    "static",
    "super",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "typeof",
    "var",
    "void",
    "while",
    "with",
    "yield",
    "await",
    "arguments",
    "eval",
    "undefined",
    "Table",
    "Item",
    "Field",
    "FieldType",
    "TABLE_NAME",
    "requests",
    "schema",
];

pub(crate) struct Module<'a> {
    table: &'a TableApi,
    /// The schema's path, for the header.
    source: String,
    body: String,
    /// The runtime chunks the module calls.
    helpers: BTreeSet<&'static str>,
    /// The SDK names it imports (values and `type ` ones).
    imports: BTreeSet<&'static str>,
    /// Top-level names taken so far.
    taken: BTreeSet<String>,
}

/// The names one entity's declarations go by.
pub(crate) struct EntityNames {
    /// The entity's name in the schema.
    pub entity: String,
    pub record: String,
    pub keys: String,
    pub put: String,
    pub decode: String,
    /// The private descriptor `_identify` and `_decode` read.
    pub descriptor: String,
    /// Fills in the shard attributes, when the entity has any.
    pub complete: Option<String>,
}

impl<'a> Module<'a> {
    fn new(table: &'a TableApi, source: &str) -> Module<'a> {
        Module {
            table,
            source: source.to_string(),
            body: String::new(),
            helpers: BTreeSet::new(),
            imports: BTreeSet::new(),
            taken: RESERVED.iter().map(|s| s.to_string()).collect(),
        }
    }

    /// `base`, or `base_` (and so on) when that name is taken.
    fn claim(&mut self, base: String) -> String {
        let mut name = base;
        while self.taken.contains(&name) {
            name.push('_');
        }
        self.taken.insert(name.clone());
        name
    }

    fn line(&mut self, text: &str) {
        if !text.is_empty() {
            self.body.push_str(text);
        }
        self.body.push('\n');
    }

    fn doc(&mut self, indent: &str, text: &str) {
        let text = text.replace("*/", "*\\/");
        let lines: Vec<&str> = text.lines().collect();
        if lines.len() == 1 {
            self.line(&format!("{indent}/** {} */", lines[0]));
        } else {
            self.line(&format!("{indent}/**"));
            for l in lines {
                self.line(format!("{indent} * {l}").trim_end());
            }
            self.line(&format!("{indent} */"));
        }
    }

    fn render(&mut self) {
        let table = self.table;
        self.imports.insert("type AttributeValue");
        self.imports.insert("type DynamoDBClient");
        let entity_names: Vec<EntityNames> = table
            .entities
            .iter()
            .map(|e| {
                let pascal = names::pascal(&e.name);
                let has_shards = e.fields.iter().any(|f| matches!(f.ty, AttrType::Shard { .. }));
                EntityNames {
                    entity: e.name.clone(),
                    record: self.claim(pascal.clone()),
                    keys: self.claim(format!("{}Keys", names::camel(&e.name))),
                    put: self.claim(format!("put{pascal}")),
                    decode: self.claim(format!("decode{pascal}")),
                    descriptor: self.claim(format!("_{}", names::camel(&e.name))),
                    complete: has_shards.then(|| self.claim(format!("_complete{pascal}"))),
                }
            })
            .collect();
        let read_names: Vec<String> = table.reads.iter().map(|r| self.claim(names::camel(&r.name))).collect();

        self.line("/** The table's name in the schema: the default name on the endpoint. */");
        self.line(&format!("export const TABLE_NAME = {};", quote(&table.name)));
        self.line("");
        self.line("/** The table on an endpoint: a client, and the table's name there (default `TABLE_NAME`). */");
        self.line("export interface Table {");
        self.line("  readonly client: DynamoDBClient;");
        self.line("  readonly name?: string;");
        self.line("}");
        self.line("");
        self.line("/** An item as DynamoDB stores it. */");
        self.line("export type Item = Record<string, AttributeValue>;");
        for (entity, names) in table.entities.iter().zip(&entity_names) {
            self.entity(entity, names);
        }
        if !table.reads.is_empty() {
            self.line("");
            self.line("/**");
            self.line(" * Each pattern's request as `dyno explain --format json` shows it, the");
            self.line(" * caller's values in braces: the functions below send copies with them filled in.");
            self.line(" */");
            let mut requests = serde_json::Map::new();
            for read in &table.reads {
                requests.insert(read.name.clone(), read.request.clone());
            }
            let literal = object_literal(&serde_json::Value::Object(requests), "");
            self.line(&format!("export const requests = {literal};"));
        }
        for (read, name) in table.reads.iter().zip(&read_names) {
            reads::render(self, read, name, &entity_names);
        }
        self.descriptor(&entity_names, &read_names);
    }

    /// `_key("userId", record.userId, /^[^#]+$/)`: a value's key text,
    /// checked against its type's language.
    pub(crate) fn checked_text(&mut self, field: &Field, value: &str) -> String {
        let text = self.text_of(&field.ty, value);
        match &field.key_pattern {
            Some(pattern) => {
                self.helpers.insert("key");
                format!("_key({}, {text}, {})", quote(&field.name), regex_literal(pattern))
            }
            None => text,
        }
    }

    /// A value of type `ty` as key text: `int(pad N)` zero-padded, numbers
    /// and booleans as their text.
    pub(crate) fn text_of(&mut self, ty: &AttrType, value: &str) -> String {
        match ty {
            AttrType::Int { pad: Some(n) } => {
                self.helpers.insert("pad");
                format!("_pad({value}, {n})")
            }
            AttrType::Int { pad: None }
            | AttrType::Epoch(_)
            | AttrType::Shard { .. }
            | AttrType::Bool
            | AttrType::Binary
            | AttrType::List
            | AttrType::Map => format!("String({value})"),
            _ => value.to_string(),
        }
    }

    /// `{ S: "USER#" + userIdText }`.
    fn key_value(&mut self, key: &KeyBuild, locals: &Locals) -> String {
        let text = concat(&key.parts, |name| locals.get(name).to_string());
        self.typed(key.ty, text)
    }

    pub(crate) fn typed(&mut self, ty: KeyType, text: String) -> String {
        match ty {
            KeyType::String => format!("{{ S: {text} }}"),
            KeyType::Number => {
                self.helpers.insert("number");
                format!("{{ N: _number({text}) }}")
            }
            KeyType::Binary => {
                self.helpers.insert("utf8");
                format!("{{ B: _utf8({text}) }}")
            }
        }
    }

    /// `export const schema`: every entity and read by its schema name.
    fn descriptor(&mut self, entities: &[EntityNames], reads: &[String]) {
        let table = self.table;
        self.line("");
        self.line("/** Every entity and pattern of the table by its schema name, for generic callers. */");
        self.line("export const schema = {");
        self.line("  table: TABLE_NAME,");
        self.line("  entities: {");
        for (entity, names) in table.entities.iter().zip(entities) {
            self.line(&format!("    {}: {{", prop(&entity.name)));
            self.line(&format!("      fields: {}.fields,", names.descriptor));
            self.line(&format!("      keys: {},", names.keys));
            self.line(&format!("      put: {},", names.put));
            self.line(&format!("      decode: {},", names.decode));
            self.line("    },");
        }
        self.line("  },");
        self.line("  reads: {");
        for (read, name) in table.reads.iter().zip(reads) {
            let returns: Vec<String> = read.returns.iter().map(|r| quote(&r.entity)).collect();
            self.line(&format!("    {}: {{", prop(&read.name)));
            self.line(&format!("      read: {name},"));
            self.line(&format!("      returns: [{}],", returns.join(", ")));
            self.line(&format!(
                "      batch: {},",
                read.operation == super::api::Operation::BatchGetItem
            ));
            self.line("    },");
        }
        self.line("  },");
        self.line("} as const;");
    }

    fn finish(self) -> String {
        let mut out = format!("// {}\n\n", super::header(&self.source));
        let mut imports: Vec<&str> = self.imports.iter().copied().collect();
        imports.sort_by_key(|i| i.trim_start_matches("type "));
        out.push_str("import {\n");
        for import in imports {
            out.push_str(&format!("  {import},\n"));
        }
        out.push_str("} from \"@aws-sdk/client-dynamodb\";\n\n");
        let helpers: Vec<&str> = self.helpers.iter().copied().collect();
        let runtime = runtime::helpers(&helpers);
        out.push_str(&self.body);
        if !runtime.is_empty() {
            out.push_str("\n// Helpers (the same in every generated module).\n\n");
            out.push_str(&runtime);
            out.push('\n');
        }
        out
    }
}

/// Local variable names of one function: `userIdText` per value.
#[derive(Default)]
pub(crate) struct Locals {
    vars: Vec<(String, String)>,
}

impl Locals {
    pub fn text_var(&mut self, name: &str) -> String {
        let mut var = format!("{}Text", names::camel(name));
        while self.vars.iter().any(|(_, v)| *v == var) || RESERVED.contains(&var.as_str()) {
            var.push('_');
        }
        self.vars.push((name.to_string(), var.clone()));
        var
    }

    pub fn get(&self, name: &str) -> &str {
        self.vars
            .iter()
            .find(|(n, _)| n == name)
            .map_or("undefined", |(_, v)| v.as_str())
    }
}

/// Parts joined with `+`: literals quoted, values as `value(name)`.
pub(crate) fn concat(parts: &[Segment], mut value: impl FnMut(&str) -> String) -> String {
    let texts: Vec<String> = parts
        .iter()
        .map(|p| match p {
            Segment::Literal(text) => quote(text),
            Segment::Value(name) => value(name),
        })
        .collect();
    if texts.is_empty() {
        "\"\"".to_string()
    } else {
        texts.join(" + ")
    }
}

/// The TypeScript type of an attribute (docs/generate.md, "Types").
pub(crate) fn ts_type(ty: &AttrType) -> String {
    match ty {
        AttrType::Int { .. } | AttrType::Epoch(_) | AttrType::Shard { .. } => "number".into(),
        AttrType::Bool => "boolean".into(),
        AttrType::Binary => "Uint8Array".into(),
        AttrType::List => "unknown[]".into(),
        AttrType::Map => "Record<string, unknown>".into(),
        AttrType::Enum(words) if words.is_empty() => "never".into(),
        AttrType::Enum(words) => words.iter().map(|w| quote(w)).collect::<Vec<_>>().join(" | "),
        _ => "string".into(),
    }
}
