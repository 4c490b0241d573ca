//! The Python target: one module per table for boto3's low-level client,
//! typed with `mypy-boto3-dynamodb` (docs/generate.md). Each module is a
//! fixed runtime (`runtime.py`: key text, shards, encoding, paging, the
//! shard merge, BatchGetItem retries) followed by the schema as data —
//! each entity's fields and key templates, each read's request exactly as
//! `dyno explain` prints it — and thin typed functions over both.

mod entities;
mod layout;
mod reads;

pub use reads::request_constant;

use crate::check::model::AttrType;
use crate::generate::api::{Field, Operation, TableApi};
use crate::generate::names;
use layout::{Py, atom, call, string};

/// The runtime every module carries, after its imports.
const RUNTIME: &str = include_str!("runtime.py");

/// The module of one table.
pub fn module(source: &str, table: &TableApi) -> String {
    let mut out = format!("# {}\n", super::header(source));
    out.push_str(&format!(
        "\"\"\"Data access for the DynamoDB table {}: its entities' records, keys and\nputs, and one function per access pattern.\"\"\"\n\n",
        doc_text(&table.name)
    ));
    out.push_str(&imports(table));
    out.push_str("\n\n");
    out.push_str(&layout::assign(0, "TABLE_NAME: Final", &string(&table.name)));
    out.push_str("\n_T = TypeVar(\"_T\")\n\n\n");
    out.push_str(RUNTIME);
    for entity in &table.entities {
        out.push_str("\n\n");
        out.push_str(&entities::entity(table, entity));
    }
    for read in &table.reads {
        out.push_str("\n\n");
        out.push_str(&reads::read(read));
    }
    out
}

fn imports(table: &TableApi) -> String {
    let batch = table.reads.iter().any(|r| r.operation == Operation::BatchGetItem);
    let collections: &[&str] = if batch {
        &["Callable", "Iterable", "Iterator", "Mapping"]
    } else {
        &["Callable", "Iterator", "Mapping"]
    };
    let mut out = String::from("from __future__ import annotations\n\n");
    out.push_str("import copy\nimport heapq\nimport random\nimport re\nimport time\n");
    out.push_str(&import_line(0, "collections.abc", collections));
    out.push_str("from decimal import Decimal\n");
    out.push_str(&import_line(0, "typing", &typing_names(table)));
    out.push_str("\nif TYPE_CHECKING:\n    from mypy_boto3_dynamodb import DynamoDBClient\n");
    let defs = [
        "AttributeValueTypeDef",
        "BatchGetItemInputTypeDef",
        "GetItemInputTypeDef",
        "KeysAndAttributesTypeDef",
        "QueryInputTypeDef",
        "ScanInputTypeDef",
    ];
    out.push_str(&import_line(4, "mypy_boto3_dynamodb.type_defs", &defs));
    out
}

/// The names imported from `typing`, sorted as isort (ruff's `I`) sorts
/// them: constants, classes, then functions.
fn typing_names(table: &TableApi) -> Vec<&'static str> {
    let fields = || table.entities.iter().flat_map(|e| &e.fields);
    let several = table.reads.iter().any(|r| r.returns.len() > 1);
    let mut names = vec!["TYPE_CHECKING", "Any", "Final", "NamedTuple", "TypeVar", "cast"];
    if fields().any(|f| matches!(f.ty, AttrType::Enum(_))) || several {
        names.push("Literal");
    }
    if fields().any(record_optional) {
        names.push("NotRequired");
    }
    if !table.entities.is_empty() {
        names.push("TypedDict");
    }
    names.sort_by_key(|name| {
        let rank = if name.chars().all(|c| c.is_ascii_uppercase() || c == '_') {
            0
        } else if name.starts_with(|c: char| c.is_ascii_uppercase()) {
            1
        } else {
            2
        };
        (rank, name.to_lowercase())
    });
    names
}

/// `from module import a, b` at `indent`, split one name a line when long.
fn import_line(indent: usize, module: &str, names: &[&str]) -> String {
    let pad = " ".repeat(indent);
    let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    bracketed(indent, &format!("{pad}from {module} import ("), &names, ")")
}

/// `head` + items + `tail` on one line when it fits, else one item a line
/// with a trailing comma (at `indent`), as ruff lays out both.
fn bracketed(indent: usize, head: &str, items: &[String], tail: &str) -> String {
    let flat = format!("{head}{}{tail}", items.join(", "));
    if flat.chars().count() <= layout::WIDTH {
        // `from m import (a, b)` without the parentheses ruff removes.
        return if head.ends_with("import (") {
            format!("{}{}\n", &head[..head.len() - 1], items.join(", "))
        } else {
            flat + "\n"
        };
    }
    let pad = " ".repeat(indent);
    let mut out = format!("{head}\n");
    for item in items {
        out.push_str(&format!("{pad}    {item},\n"));
    }
    out.push_str(&format!("{pad}{tail}\n"));
    out
}

/// A record field that may be absent: optional, or a write shard the put
/// draws or computes.
fn record_optional(field: &Field) -> bool {
    field.optional || matches!(field.ty, AttrType::Shard { .. })
}

/// The Python type of a value of `ty` (docs/generate.md, "Types").
fn py_type(ty: &AttrType) -> String {
    match ty {
        AttrType::Int { .. } | AttrType::Epoch(_) | AttrType::Shard { .. } => "int".into(),
        AttrType::Decimal => "Decimal".into(),
        AttrType::Bool => "bool".into(),
        AttrType::Binary => "bytes".into(),
        AttrType::List => "list[Any]".into(),
        AttrType::Map => "dict[str, Any]".into(),
        AttrType::Enum(words) => {
            let words: Vec<String> = words.iter().map(|w| layout::str_literal(w)).collect();
            format!("Literal[{}]", words.join(", "))
        }
        _ => "str".into(),
    }
}

/// How the runtime encodes and decodes a value of `ty`: `str`, `int`,
/// `decimal`, `bool`, `bytes`, `list` or `map`.
pub fn value_kind(ty: &AttrType) -> &'static str {
    match ty {
        AttrType::Int { .. } | AttrType::Epoch(_) | AttrType::Shard { .. } => "int",
        AttrType::Decimal => "decimal",
        AttrType::Bool => "bool",
        AttrType::Binary => "bytes",
        AttrType::List => "list",
        AttrType::Map => "map",
        _ => "str",
    }
}

/// `_Field(...)`: a field's or parameter's spec for the runtime.
fn field_spec(name: &str, ty: &AttrType, optional: bool, pattern: Option<&str>) -> Py {
    let pad = match ty {
        AttrType::Int { pad: Some(n) } => atom(n.to_string()),
        _ => atom("None"),
    };
    let (count, of) = match ty {
        AttrType::Shard { count, of } => (atom(count.to_string()), of.as_deref().map_or(atom("None"), string)),
        _ => (atom("None"), atom("None")),
    };
    call(
        "_Field",
        vec![
            string(name),
            string(value_kind(ty)),
            atom(if optional { "True" } else { "False" }),
            pattern.map_or(atom("None"), string),
            pad,
            count,
            of,
        ],
    )
}

const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del",
    "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal",
    "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
];

/// Names the generated functions use themselves: a parameter of that name
/// gets a `_` after it.
const TAKEN: &[&str] = &[
    "client",
    "table_name",
    "keys",
    "values",
    "items",
    "item",
    "entity",
    "rows",
    "page",
];

/// A Python identifier for a schema name: snake case, a keyword or a name
/// the function uses followed by `_`.
pub fn identifier(name: &str) -> String {
    let snake = names::snake(name);
    if KEYWORDS.contains(&snake.as_str()) || TAKEN.contains(&snake.as_str()) {
        snake + "_"
    } else {
        snake
    }
}

/// The function a pattern generates.
pub fn read_function(pattern: &str) -> String {
    identifier(pattern)
}

/// The put function of an entity.
pub fn put_function(entity: &str) -> String {
    format!("put_{}", names::snake(entity))
}

/// Whether `name` can be a TypedDict field in class syntax.
fn is_identifier(name: &str) -> bool {
    name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !KEYWORDS.contains(&name)
}

/// A TypedDict of `fields` (name, type): class syntax when every name is an
/// identifier, else the functional form. `docs` becomes its docstring (or
/// a comment).
fn typed_dict(name: &str, fields: &[(String, String)], total: bool, docs: Option<&str>) -> String {
    let mut out = String::new();
    if fields.iter().all(|(n, _)| is_identifier(n)) {
        let base = if total {
            "TypedDict".to_string()
        } else {
            "TypedDict, total=False".to_string()
        };
        out.push_str(&format!("class {name}({base}):\n"));
        if let Some(docs) = docs {
            out.push_str(&docstring(4, docs));
            if !fields.is_empty() {
                out.push('\n');
            }
        }
        for (field, ty) in fields {
            out.push_str(&format!("    {field}: {ty}\n"));
        }
        if fields.is_empty() && docs.is_none() {
            out.push_str("    pass\n");
        }
        return out;
    }
    if let Some(docs) = docs {
        for line in docs.lines() {
            out.push_str(format!("# {line}").trim_end());
            out.push('\n');
        }
    }
    let dict = Py::Dict(fields.iter().map(|(n, t)| (string(n), atom(t.clone()))).collect());
    let mut args = vec![string(name), dict];
    if !total {
        args.push(atom("total=False"));
    }
    out.push_str(&layout::assign(0, name, &call("TypedDict", args)));
    out
}

/// A docstring at `indent`: one line, or a summary line and the rest.
fn docstring(indent: usize, docs: &str) -> String {
    let pad = " ".repeat(indent);
    let lines: Vec<String> = docs.trim().lines().map(|l| doc_text(l.trim_end())).collect();
    if lines.len() <= 1 {
        let line = lines.first().cloned().unwrap_or_default();
        let line = if line.ends_with('"') { format!("{line} ") } else { line };
        let line = if line.starts_with('"') {
            format!(" {line}")
        } else {
            line
        };
        return format!("{pad}\"\"\"{line}\"\"\"\n");
    }
    let first = if lines[0].starts_with('"') {
        format!(" {}", lines[0])
    } else {
        lines[0].clone()
    };
    let mut out = format!("{pad}\"\"\"{first}\n");
    for line in &lines[1..] {
        if line.trim().is_empty() {
            out.push('\n');
        } else {
            out.push_str(&format!("{pad}{line}\n"));
        }
    }
    out.push_str(&format!("{pad}\"\"\"\n"));
    out
}

/// Text inside a docstring: backslashes and triple quotes escaped.
fn doc_text(text: &str) -> String {
    text.replace('\\', "\\\\").replace("\"\"\"", "\\\"\\\"\\\"")
}

/// `NAME` in upper snake case for a module constant.
fn constant(name: &str) -> String {
    names::snake(name).to_uppercase()
}

/// A function definition line: flat when it fits, else one parameter a
/// line with a trailing comma.
fn def(name: &str, params: &[String], returns: &str) -> String {
    bracketed(0, &format!("def {name}("), params, &format!(") -> {returns}:"))
}

/// The record type of an entity.
fn record_type(entity: &str) -> String {
    names::pascal(entity)
}

/// The record type of an entity read from an index that projects only
/// some of its attributes: every field may be absent.
fn part_type(entity: &str) -> String {
    format!("{}Part", names::pascal(entity))
}

fn decoder(entity: &str, partial: bool) -> String {
    if partial {
        format!("decode_{}_part", names::snake(entity))
    } else {
        format!("decode_{}", names::snake(entity))
    }
}

fn fields_constant(entity: &str) -> String {
    format!("_{}_FIELDS", constant(entity))
}

fn shapes_constant(entity: &str) -> String {
    format!("_{}_SHAPES", constant(entity))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_avoid_keywords_and_the_functions_own_names() {
        assert_eq!(identifier("userId"), "user_id");
        assert_eq!(identifier("from"), "from_");
        assert_eq!(identifier("client"), "client_");
        assert_eq!(identifier("tableName"), "table_name_");
        assert_eq!(put_function("AuditEvent"), "put_audit_event");
        assert!(!is_identifier("Map#Name"));
        assert!(!is_identifier("class"));
        assert!(is_identifier("userId"));
    }

    #[test]
    fn docstrings_never_start_or_end_with_a_bare_quote() {
        assert_eq!(docstring(0, "\"quoted\""), "\"\"\" \"quoted\" \"\"\"\n");
        assert_eq!(docstring(4, "a\\b"), "    \"\"\"a\\\\b\"\"\"\n");
        assert_eq!(docstring(0, "First.\n\nMore."), "\"\"\"First.\n\nMore.\n\"\"\"\n");
    }

    #[test]
    fn long_signatures_split_one_parameter_a_line() {
        assert_eq!(def("f", &["a: int".into()], "None"), "def f(a: int) -> None:\n");
        let params: Vec<String> = (0..9).map(|i| format!("parameter{i}: int")).collect();
        let split = def("f", &params, "None");
        assert!(split.starts_with("def f(\n    parameter0: int,\n"), "{split}");
        assert!(split.ends_with("    parameter8: int,\n) -> None:\n"), "{split}");
    }
}
