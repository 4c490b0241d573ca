//! `dyno generate typescript`: one module per table for the AWS SDK for
//! JavaScript v3 (`@aws-sdk/client-dynamodb`'s low-level commands), rendered
//! from the [`TableApi`] alone (docs/generate.md): a record type, key
//! builder, put and decoder per entity, a function per pattern, and the
//! patterns' requests as one constant, `dyno explain`'s JSON.

mod reads;
mod runtime;

use std::collections::BTreeSet;

use super::api::{Api, EntityApi, Field, KeyBuild, Segment, TableApi};
use super::names;
use crate::check::model::AttrType;
use crate::syntax::ast::KeyType;

/// The module of one table.
pub fn module(api: &Api, table: &TableApi) -> String {
    let mut out = Module::new(table, &api.source);
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

    fn entity(&mut self, entity: &EntityApi, names: &EntityNames) {
        self.helpers.insert("entity");
        self.line("");
        if let Some(docs) = &entity.docs {
            self.doc("", docs);
        }
        self.line(&format!("export interface {} {{", names.record));
        for field in &entity.fields {
            let optional = field.optional || matches!(field.ty, AttrType::Shard { .. });
            match &field.ty {
                AttrType::Shard { count, of: None } => {
                    self.line(&format!(
                        "  /** A write shard, 0 to {}: drawn at random when absent. */",
                        count.saturating_sub(1)
                    ));
                }
                AttrType::Shard { of: Some(source), .. } => {
                    self.line(&format!("  /** Always computed from `{source}`. */"));
                }
                _ => {}
            }
            self.line(&format!(
                "  {}{}: {};",
                prop(&field.name),
                if optional { "?" } else { "" },
                ts_type(&field.ty)
            ));
        }
        self.line("}");

        // The descriptor decoding and identification read.
        self.line("");
        self.line(&format!("const {}: _Entity = {{", names.descriptor));
        self.line(&format!("  name: {},", quote(&entity.name)));
        self.line("  fields: [");
        for field in &entity.fields {
            self.line(&wrap(&format!(
                "    [{}, {}, {}],",
                quote(&field.name),
                field_type(&field.ty),
                field.optional
            )));
        }
        self.line("  ],");
        self.line("  shapes: [");
        for shape in &entity.shapes {
            self.line("    [");
            for key in &shape.keys {
                self.line(&wrap(&format!(
                    "      [{}, {}, {}],",
                    quote(&key.attr),
                    regex_literal(&key.matcher),
                    key.base
                )));
            }
            self.line("    ],");
        }
        self.line("  ],");
        self.line("};");

        let record = &names.record;
        let source = if let Some(complete) = &names.complete {
            self.complete(entity, record, complete);
            "full"
        } else {
            "record"
        };

        // keys
        let several = entity.shapes.len() > 1;
        self.line("");
        self.line(&format!(
            "/** Every key attribute of {} item{}, from its templates; a value not in its type's language is refused. */",
            article(&entity.name),
            if several { "s (one per item it writes)" } else { "" }
        ));
        self.line(&format!(
            "export function {}(record: {record}): {} {{",
            names.keys,
            if several { "Item[]" } else { "Item" }
        ));
        if let Some(complete) = &names.complete {
            self.line(&format!("  const full = {complete}(record);"));
        }
        let mut locals = Locals::default();
        let mut used: Vec<&str> = Vec::new();
        for shape in &entity.shapes {
            for key in &shape.keys {
                for part in &key.parts {
                    if let Segment::Value(name) = part
                        && !used.contains(&name.as_str())
                    {
                        used.push(name);
                    }
                }
            }
        }
        for name in &used {
            let Some(field) = entity.fields.iter().find(|f| &f.name == name) else {
                continue;
            };
            let var = locals.text_var(name);
            let value = format!("{source}{}", access(name));
            let text = self.checked_text(field, &value);
            if field.optional {
                let one = format!("  const {var} = {value} === undefined ? undefined : {text};");
                if one.len() <= WIDTH {
                    self.line(&one);
                } else {
                    // As prettier breaks it: the condition, then each branch.
                    self.line(&format!("  const {var} ="));
                    self.line(&format!("    {value} === undefined"));
                    self.line("      ? undefined");
                    let branch = wrap(&format!("        {text};"));
                    self.line(&format!("      : {}", &branch[8..]));
                }
            } else {
                self.line(&wrap(&format!("  const {var} = {text};")));
            }
        }
        let mut results = Vec::new();
        for (i, shape) in entity.shapes.iter().enumerate() {
            let var = if several {
                format!("keys{i}")
            } else {
                "keys".to_string()
            };
            let (always, sparse): (Vec<&KeyBuild>, Vec<&KeyBuild>) =
                shape.keys.iter().partition(|k| optional_parts(entity, k).is_empty());
            self.line(&format!("  const {var}: Item = {{"));
            for key in always {
                let value = self.key_value(key, &locals);
                self.line(&format!("    {}: {value},", prop(&key.attr)));
            }
            self.line("  };");
            for key in sparse {
                let condition = optional_parts(entity, key)
                    .iter()
                    .map(|n| format!("{} !== undefined", locals.get(n)))
                    .collect::<Vec<_>>()
                    .join(" && ");
                let value = self.key_value(key, &locals);
                self.line(&format!("  if ({condition}) {{"));
                self.line(&format!("    {var}{} = {value};", access(&key.attr)));
                self.line("  }");
            }
            results.push(var);
        }
        if several {
            self.line(&format!("  return [{}];", results.join(", ")));
        } else {
            self.line("  return keys;");
        }
        self.line("}");

        // put
        self.imports.insert("PutItemCommand");
        self.helpers.insert("attributes");
        self.line("");
        self.line(&format!(
            "/** PutItem of {}: its keys, then each attribute under its own name. */",
            article(&entity.name)
        ));
        self.line(&wrap(&format!(
            "export async function {}(table: Table, record: {record}): Promise<void> {{",
            names.put
        )));
        let full = match &names.complete {
            Some(complete) => {
                self.line(&format!("  const full = {complete}(record);"));
                "full"
            }
            None => "record",
        };
        let keys = if several {
            format!("{}({full})", names.keys)
        } else {
            format!("[{}({full})]", names.keys)
        };
        self.line(&format!("  for (const keys of {keys}) {{"));
        self.line("    await table.client.send(");
        self.line("      new PutItemCommand({");
        self.line("        TableName: table.name ?? TABLE_NAME,");
        self.line(&format!(
            "        Item: _attributes({full}, {}.fields, keys),",
            names.descriptor
        ));
        self.line("      }),");
        self.line("    );");
        self.line("  }");
        self.line("}");

        // decode
        self.helpers.insert("decode");
        self.line("");
        self.line(&format!(
            "/** {} item as its record; a required attribute missing is an error. */",
            names::capitalized(&article(&entity.name))
        ));
        self.line(&format!("export function {}(item: Item): {record} {{", names.decode));
        self.line(&format!(
            "  return _decode(item, {}, true) as unknown as {record};",
            names.descriptor
        ));
        self.line("}");
    }

    /// The record with its shard attributes set: a random one drawn when
    /// absent, a calculated one computed from its source.
    fn complete(&mut self, entity: &EntityApi, record: &str, name: &str) {
        self.line("");
        self.line("/** The record with its write shards: drawn at random when absent, computed from their source. */");
        self.line(&format!("function {name}(record: {record}): {record} {{"));
        self.line("  return {");
        self.line("    ...record,");
        for field in &entity.fields {
            let AttrType::Shard { count, of } = &field.ty else {
                continue;
            };
            let value = format!("record{}", access(&field.name));
            let computed = match of {
                None => {
                    self.helpers.insert("random");
                    format!("{value} ?? _random({count})")
                }
                Some(source) => {
                    self.helpers.insert("shard");
                    self.helpers.insert("calculated");
                    let source_field = entity.fields.iter().find(|f| &f.name == source);
                    let source_value = format!("record{}", access(source));
                    let text = match source_field {
                        Some(f) => self.checked_text(f, &source_value),
                        None => format!("String({source_value})"),
                    };
                    let calculated = format!(
                        "_calculated({}, {value}, _shardOf({text}, {count}))",
                        quote(&field.name)
                    );
                    if source_field.is_some_and(|f| f.optional) {
                        format!("{source_value} === undefined ? undefined : {calculated}")
                    } else {
                        calculated
                    }
                }
            };
            self.line(&wrap(&format!("    {}: {computed},", prop(&field.name))));
        }
        self.line("  };");
        self.line("}");
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

/// JSON as a TypeScript object literal in prettier's style: one property
/// a line, bare names where they are identifiers, trailing commas.
pub(crate) fn object_literal(value: &serde_json::Value, indent: &str) -> String {
    use serde_json::Value as Json;
    let inner = format!("{indent}  ");
    match value {
        Json::Object(map) if !map.is_empty() => {
            let mut out = String::from("{\n");
            for (key, value) in map {
                out.push_str(&format!("{inner}{}: {},\n", prop(key), object_literal(value, &inner)));
            }
            out.push_str(indent);
            out.push('}');
            out
        }
        Json::Array(items) if !items.is_empty() => {
            let mut out = String::from("[\n");
            for item in items {
                out.push_str(&format!("{inner}{},\n", object_literal(item, &inner)));
            }
            out.push_str(indent);
            out.push(']');
            out
        }
        scalar => serde_json::to_string(scalar).unwrap_or_default(),
    }
}

/// The widest line before a call's arguments go one per line (prettier's
/// default print width).
pub(crate) const WIDTH: usize = 80;

/// A line with a call (or signature) that is too wide, its first argument
/// list one argument a line, as prettier breaks it.
pub(crate) fn wrap(line: &str) -> String {
    if line.chars().count() <= WIDTH {
        return line.to_string();
    }
    // A line that is an array (`["pk", /^…$/, true],`) breaks its
    // elements; any other its first argument list.
    let bracket = line.trim_start().starts_with('[');
    let (opener, closer) = if bracket { ('[', ']') } else { ('(', ')') };
    let Some(open) = line.find(opener) else {
        return line.to_string();
    };
    let indent: String = line.chars().take_while(|c| *c == ' ').collect();
    let bytes: Vec<char> = line[open + 1..].chars().collect();
    let mut args = Vec::new();
    let mut current = String::new();
    let (mut depth, mut string, mut regex, mut class, mut escaped) = (0usize, false, false, false, false);
    let mut close = None;
    let mut previous = opener;
    for (i, &c) in bytes.iter().enumerate() {
        if escaped {
            escaped = false;
            current.push(c);
            continue;
        }
        match c {
            '\\' if string || regex => escaped = true,
            '"' if !regex => string = !string,
            '/' if !string && !regex && matches!(previous, '(' | '[' | ',') && current.trim().is_empty() => {
                regex = true
            }
            '[' if regex => class = true,
            ']' if regex => class = false,
            '/' if regex && !class => regex = false,
            '(' | '[' | '{' if !string && !regex => depth += 1,
            ')' | ']' | '}' if !string && !regex && depth > 0 => depth -= 1,
            c if c == closer && !string && !regex => {
                close = Some(i);
                break;
            }
            ',' if !string && !regex && depth == 0 => {
                args.push(std::mem::take(&mut current).trim().to_string());
                previous = c;
                continue;
            }
            _ => {}
        }
        if !c.is_whitespace() {
            previous = c;
        }
        current.push(c);
    }
    let Some(close) = close else {
        return line.to_string();
    };
    if !current.trim().is_empty() {
        args.push(current.trim().to_string());
    }
    let tail: String = bytes[close..].iter().collect();
    let mut out = format!("{}{opener}\n", &line[..open]);
    for arg in args {
        out.push_str(&format!("{indent}  {arg},\n"));
    }
    out.push_str(&format!("{indent}{tail}"));
    out
}

/// The optional fields a key's template needs: without them the key is
/// left out (a sparse index).
fn optional_parts<'e>(entity: &'e EntityApi, key: &KeyBuild) -> Vec<&'e str> {
    let mut out = Vec::new();
    for part in &key.parts {
        if let Segment::Value(name) = part
            && let Some(field) = entity.fields.iter().find(|f| &f.name == name && f.optional)
            && !out.contains(&field.name.as_str())
        {
            out.push(field.name.as_str());
        }
    }
    out
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

/// A field's `FieldType` in the runtime's terms.
fn field_type(ty: &AttrType) -> String {
    match ty {
        AttrType::Int { .. } | AttrType::Epoch(_) | AttrType::Shard { .. } => quote("int"),
        AttrType::Decimal => quote("decimal"),
        AttrType::Bool => quote("bool"),
        AttrType::Binary => quote("binary"),
        AttrType::List => quote("list"),
        AttrType::Map => quote("map"),
        AttrType::Enum(words) => format!("[{}]", words.iter().map(|w| quote(w)).collect::<Vec<_>>().join(", ")),
        _ => quote("string"),
    }
}

/// A TypeScript string literal: JSON's, which TypeScript reads alike.
pub(crate) fn quote(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_default()
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

/// A property name: bare when it is an identifier, quoted otherwise.
pub(crate) fn prop(name: &str) -> String {
    if is_identifier(name) {
        name.to_string()
    } else {
        quote(name)
    }
}

/// `.name` or `["Map#Name"]`.
pub(crate) fn access(name: &str) -> String {
    if is_identifier(name) {
        format!(".{name}")
    } else {
        format!("[{}]", quote(name))
    }
}

/// A regular expression literal of a matcher: `/` and line breaks escaped.
pub(crate) fn regex_literal(pattern: &str) -> String {
    let mut out = String::from("/");
    let mut escaped = false;
    for c in pattern.chars() {
        match c {
            '/' if !escaped => out.push_str("\\/"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            _ => out.push(c),
        }
        escaped = c == '\\' && !escaped;
    }
    out.push('/');
    out
}

/// `a Score`, `an Invoice`.
fn article(name: &str) -> String {
    let vowel = name.chars().next().is_some_and(|c| "AEIOUaeiou".contains(c));
    format!("{} {name}", if vowel { "an" } else { "a" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_quote_when_they_are_not_identifiers() {
        assert_eq!(prop("userId"), "userId");
        assert_eq!(prop("Map#Name"), "\"Map#Name\"");
        assert_eq!(access("GSI1-PK"), "[\"GSI1-PK\"]");
        assert_eq!(regex_literal("^a/b\\/c$"), "/^a\\/b\\/c$/");
        assert_eq!(regex_literal("^[^\\\\/]+$"), "/^[^\\\\\\/]+$/");
        assert_eq!(article("Invoice"), "an Invoice");
        let short = "  const a = _key(\"a\", b, /^x$/);";
        assert_eq!(wrap(short), short);
        let shape = r#"      ["pk", /^SCORE#[^#]+#[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])$/, true],"#;
        assert_eq!(
            wrap(shape),
            "      [\n        \"pk\",\n        /^SCORE#[^#]+#[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])$/,\n        true,\n      ],"
        );
        let long = r#"  const dayText = _key("day", params.day, /^[0-9]{4}-(?:0[1-9]|1[0-2])-[0-9]{2},(x)\/$/);"#;
        assert_eq!(
            wrap(long),
            "  const dayText = _key(\n    \"day\",\n    params.day,\n    /^[0-9]{4}-(?:0[1-9]|1[0-2])-[0-9]{2},(x)\\/$/,\n  );"
        );
    }
}
