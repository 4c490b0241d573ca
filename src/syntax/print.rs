//! The printer: a syntax tree to `.dyno` text, for schemas built as data
//! (`dyno import`, `dyno design`). `parse(print(tree))` is `tree` again, up
//! to spans, and the text is laid out as `dyno fmt` lays it out: formatting
//! it changes nothing.
//!
//! Why not `ide::format`: the formatter rewrites the whitespace between the
//! tokens of a file someone wrote, keeping every comment and blank line; a
//! generated schema has no text yet, only a tree. Both follow the canonical
//! style documented in `ide/format.rs`; `tests/print_props.rs` checks that
//! they agree.
//!
//! # What the tree does not carry
//!
//! The printer decides what the tree leaves open, the same way every time:
//!
//! - Ordinary `//` comments are not in the tree and are not printed; `///`
//!   doc comments are, where the tree has them (items, indexes, attributes,
//!   key templates). A `///` above a table's `key` line, or above nothing,
//!   is not kept.
//! - Blank lines: one between top-level items and one between an entity's
//!   attributes, its key templates and its item shapes; none elsewhere. So
//!   an entity's key templates are one run, aligned on `=` together (the
//!   formatter aligns each run the author set apart with a blank line on
//!   its own).
//! - Member order: a table's `key`, then its indexes, then its delimiters,
//!   then its `ttl`;
//!   an entity's attributes, then its key templates, then its `item` shapes
//!   (the tree keeps each kind in its own list).
//! - Spellings with one meaning: `by x asc` is printed `by x`, `int()` is
//!   `int`, a trailing comma in a list is dropped, a doc comment line is
//!   `/// text` (`///text` reads the same), line breaks are `\n`, and a size
//!   hint's number is printed in its shortest form (`~1.50KB` becomes
//!   `~1.5KB`). Numbers written as text (fixed values, query operands) are
//!   copied as they are.
//!
//! So for a file that `dyno fmt` has formatted, the printer gives the same
//! text when the file has no `//` comments and follows those choices;
//! `tests/print_props.rs` lists the repository's files that do not, and why.
//!
//! # Trees the parser cannot give back
//!
//! `print` never panics, whatever the tree. A tree parsed from a file with
//! syntax errors holds what the parser could read: skipped pieces are simply
//! absent, and the printer prints what is there (a pattern without returns
//! prints no `->`, a query without conditions prints `where` alone), which
//! may not parse again. A tree built by hand reads back as itself only when
//! it is one the parser could have built: entity, pattern and value names
//! are identifiers other than `table`, `entity` and `pattern` (the names of
//! tables, indexes, keys and attributes are quoted when they are not: see
//! `syntax::names`, but not empty); strings hold no line break; size hints
//! are finite and not negative; a fixed value is not the word `true` or
//! `false` (those are booleans); a known value's comparison is not `=`
//! (that is a fixed value); a pattern returns an entity and a pinned query
//! has a condition; doc comments have no trailing whitespace; and a
//! string's literal text is one segment between holes.

use super::ast::{
    Attribute, ConditionKind, Docs, Entity, Filter, FilterExpr, FilterValue, IndexDecl, Item, ItemShape, KeyAttr,
    KeyDecl, KeyPart, KeyTemplate, KeyType, Known, KnownKind, Literal, Modifier, Operand, Operation, Pattern,
    Projection, Query, RateHint, Returned, Segment, SizeHint, SizeUnit, SourceFile, StringLit, Table, TypeArg, TypeRef,
};
use super::names::{written, written_after_scan};

/// The widest line, as `ide::format::MAX_WIDTH` (the syntax layer cannot
/// name the formatter; the property tests keep the two in step).
const MAX_WIDTH: usize = 100;
/// One level of indentation.
const INDENT: &str = "  ";

/// The canonical text of `file` (see the module documentation).
pub fn print(file: &SourceFile) -> String {
    let mut lines: Vec<String> = Vec::new();
    for (n, item) in file.items.iter().enumerate() {
        if n > 0 {
            lines.push(String::new());
        }
        match item {
            Item::Table(table) => print_table(table, &mut lines),
            Item::Entity(entity) => print_entity(entity, &mut lines),
            Item::Pattern(pattern) => print_pattern(pattern, &mut lines),
        }
    }
    lines.iter().map(|line| format!("{line}\n")).collect()
}

fn print_table(table: &Table, lines: &mut Vec<String>) {
    doc_lines(&table.docs, "", lines);
    let mut members = Vec::new();
    for key in &table.keys {
        members.push(format!("{INDENT}{}", key_decl(key)));
    }
    for index in &table.indexes {
        doc_lines(&index.docs, INDENT, &mut members);
        members.push(format!("{INDENT}{}", index_decl(index)));
    }
    for delimiter in &table.delimiters {
        members.push(format!("{INDENT}delimiter {}", string(&delimiter.value)));
    }
    for ttl in &table.ttls {
        members.push(format!("{INDENT}ttl {}", written(&ttl.attribute.text)));
    }
    body(format!("table {}", written(&table.name.text)), members, lines);
}

fn key_decl(key: &KeyDecl) -> String {
    let mut out = format!("key {}", key_part(&key.partition));
    if let Some(sort) = &key.sort {
        out += &format!(", {}", key_part(sort));
    }
    out
}

/// `pk`, or `[tenantId, region]` as written in brackets.
fn key_part(part: &KeyPart) -> String {
    match part.list {
        None => key_attr(part.first()),
        Some(_) => {
            let attrs: Vec<String> = part.attrs.iter().map(key_attr).collect();
            format!("[{}]", attrs.join(", "))
        }
    }
}

fn index_decl(index: &IndexDecl) -> String {
    let local = if index.local { "local " } else { "" };
    let mut out = format!(
        "{local}index {} ({}",
        written(&index.name.text),
        key_part(&index.partition)
    );
    if let Some(sort) = &index.sort {
        out += &format!(", {}", key_part(sort));
    }
    out.push(')');
    match &index.projection {
        Projection::Default => {}
        Projection::All(_) => out.push_str(" all"),
        Projection::KeysOnly(_) => out.push_str(" keys_only"),
        Projection::Include(_, names) => {
            let names: Vec<_> = names.iter().map(|n| written(&n.text)).collect();
            out += &format!(" include({})", names.join(", "));
        }
    }
    out
}

fn key_attr(attr: &KeyAttr) -> String {
    match attr.ty {
        None => written(&attr.name.text).into_owned(),
        Some((ty, _)) => {
            let ty = match ty {
                KeyType::String => "string",
                KeyType::Number => "number",
                KeyType::Binary => "binary",
            };
            format!("{}: {ty}", written(&attr.name.text))
        }
    }
}

fn print_entity(entity: &Entity, lines: &mut Vec<String>) {
    doc_lines(&entity.docs, "", lines);
    let mut header = format!("entity {}", entity.name.text);
    if let Some(table) = &entity.table {
        header += &format!(" in {}", written(&table.text));
    }
    if let Some(size) = &entity.size {
        header += &format!(" {}", size_hint(size));
    }
    if let Some(rate) = &entity.rate {
        header += &format!(" {}", rate_hint(rate));
    }
    let mut attributes = Vec::new();
    for attribute in &entity.attributes {
        doc_lines(&attribute.docs, INDENT, &mut attributes);
        attributes.push(format!("{INDENT}{}", attribute_line(attribute)));
    }
    let keys = key_template_lines(&entity.keys, INDENT);
    let shapes = entity.items.iter().flat_map(shape_lines).collect();
    let groups: Vec<Vec<String>> = [attributes, keys, shapes]
        .into_iter()
        .filter(|g| !g.is_empty())
        .collect();
    body(header, groups.join(&String::new()), lines);
}

fn attribute_line(attribute: &Attribute) -> String {
    let optional = if attribute.optional { "?" } else { "" };
    format!(
        "{}: {}{optional}",
        written(&attribute.name.text),
        type_ref(&attribute.ty)
    )
}

fn type_ref(ty: &TypeRef) -> String {
    if ty.args.is_empty() {
        return ty.name.text.to_string();
    }
    let args: Vec<String> = ty
        .args
        .iter()
        .map(|arg| match arg {
            TypeArg::Pad { width, .. } => format!("pad {width}"),
            TypeArg::Size(size) => size_hint(size),
            TypeArg::Word(word) => word.text.to_string(),
            TypeArg::Str(value) => string(value),
            TypeArg::Count { value, .. } => value.to_string(),
            TypeArg::Of(attr) => format!("of {}", written(&attr.text)),
        })
        .collect();
    format!("{}({})", ty.name.text, args.join(", "))
}

/// Key templates on consecutive lines, aligned on `=` as the formatter
/// aligns them.
fn key_template_lines(keys: &[KeyTemplate], indent: &str) -> Vec<String> {
    let widest = keys.iter().map(|k| width(&written(&k.key.text))).max().unwrap_or(0);
    let mut out = Vec::new();
    for key in keys {
        doc_lines(&key.docs, indent, &mut out);
        let padding = " ".repeat(widest - width(&written(&key.key.text)));
        out.push(format!(
            "{indent}{}{padding} = {}",
            written(&key.key.text),
            string(&key.template)
        ));
    }
    out
}

/// `item { pk = "..."  sk = "..." }` on one line when it has at most two key
/// templates, no doc comment and fits; expanded otherwise.
fn shape_lines(shape: &ItemShape) -> Vec<String> {
    let documented = shape.keys.iter().any(|k| k.docs.is_some());
    if shape.keys.len() <= 2 && !documented {
        let keys: Vec<String> = shape
            .keys
            .iter()
            .map(|k| format!("{} = {}", written(&k.key.text), string(&k.template)))
            .collect();
        let line = if keys.is_empty() {
            format!("{INDENT}item {{}}")
        } else {
            format!("{INDENT}item {{ {} }}", keys.join("  "))
        };
        if width(&line) <= MAX_WIDTH {
            return vec![line];
        }
    }
    let mut out = vec![format!("{INDENT}item {{")];
    out.extend(key_template_lines(&shape.keys, &INDENT.repeat(2)));
    out.push(format!("{INDENT}}}"));
    out
}

/// One line when it fits; otherwise the pinned query on the next line, and
/// when that is still too long, one line per `and` joining two conditions.
fn print_pattern(pattern: &Pattern, lines: &mut Vec<String>) {
    doc_lines(&pattern.docs, "", lines);
    let known: Vec<String> = pattern.known.iter().map(known).collect();
    let mut head = format!("pattern {}({})", pattern.name.text, known.join(", "));
    if !pattern.returns.is_empty() {
        let returns: Vec<String> = pattern.returns.iter().map(returned).collect();
        head += &format!(" -> {}", returns.join(", "));
    }
    for modifier in &pattern.modifiers {
        head += &format!(" {}", modifier_text(modifier));
    }
    let Some(query) = &pattern.query else {
        lines.push(head);
        return;
    };
    let (target, conditions) = query_parts(query);
    let query_line = if conditions.is_empty() {
        target.clone()
    } else {
        format!("{target} {}", conditions.join(" and "))
    };
    let flat = format!("{head} = {query_line}");
    if width(&flat) <= MAX_WIDTH {
        lines.push(flat);
        return;
    }
    lines.push(format!("{head} ="));
    if width(INDENT) + width(&query_line) <= MAX_WIDTH || conditions.len() < 2 {
        lines.push(format!("{INDENT}{query_line}"));
        return;
    }
    lines.push(format!("{INDENT}{target} {}", conditions[0]));
    for condition in &conditions[1..] {
        lines.push(format!("{INDENT}{INDENT}and {condition}"));
    }
}

pub(super) fn known(known: &Known) -> String {
    let text = known_without_type(known);
    match &known.bound_type {
        Some(ty) => format!("{text}: {}", ty.text),
        None => text,
    }
}

fn known_without_type(known: &Known) -> String {
    let attr = written(&known.attr.text);
    match &known.kind {
        KnownKind::Equal => attr.into_owned(),
        KnownKind::Fixed(value) => format!("{attr} = {}", literal(value)),
        KnownKind::Compare(op, bound) => format!("{attr} {} {}", op.as_str(), bound.text),
        KnownKind::Between(low, high) => format!("{attr} between {} and {}", low.text, high.text),
        KnownKind::BeginsWith(prefix) => format!("{attr} begins_with {}", prefix.text),
    }
}

fn literal(value: &Literal) -> String {
    match value {
        Literal::Str(s) => string(s),
        Literal::Number(text, _) => text.clone(),
        Literal::Bool(b, _) => b.to_string(),
        Literal::Word(word) => word.text.to_string(),
    }
}

fn returned(returned: &Returned) -> String {
    let many = if returned.many { "[]" } else { "" };
    let mut out = format!("{}{many}", returned.entity.text);
    if let Some(count) = &returned.count {
        out += &format!(" {}", size_hint(count));
    }
    out
}

pub(super) fn modifier_text(modifier: &Modifier) -> String {
    match modifier {
        Modifier::OrderBy { attr, descending, .. } => {
            let direction = if *descending { " desc" } else { "" };
            format!("by {}{direction}", written(&attr.text))
        }
        Modifier::Consistent(_) => "consistent".to_string(),
        Modifier::Limit { count, .. } => format!("limit {count}"),
        Modifier::Operation { operation, .. } => match operation {
            Operation::Get => "get".to_string(),
            Operation::BatchGet => "batch get".to_string(),
            Operation::Scan(None) => "scan".to_string(),
            // A bare `limit` after `scan` would read as the modifier.
            Operation::Scan(Some(index)) => format!("scan {}", written_after_scan(&index.text)),
        },
        Modifier::Segments { count, .. } => format!("segments {count}"),
        Modifier::Where(filter) => filter_text(filter),
        Modifier::Rate(rate) => rate_hint(rate),
    }
}

fn rate_hint(rate: &RateHint) -> String {
    format!("~{}/s", rate.text)
}

/// `where state = "open" and total >= minTotal ~20%`, parentheses as written.
pub fn filter_text(filter: &Filter) -> String {
    let mut out = format!("where {}", filter_expr(&filter.expr));
    if let Some(keeps) = &filter.keeps {
        out += &format!(" ~{}%", keeps.text);
    }
    out
}

fn filter_expr(expr: &FilterExpr) -> String {
    match expr {
        FilterExpr::Compare { attr, op, value, .. } => {
            format!("{} {} {}", written(&attr.text), op.as_str(), filter_value(value))
        }
        FilterExpr::In { attr, values, .. } => {
            let values: Vec<String> = values.iter().map(filter_value).collect();
            format!("{} in ({})", written(&attr.text), values.join(", "))
        }
        FilterExpr::BeginsWith { attr, value, .. } => {
            format!("begins_with({}, {})", written(&attr.text), filter_value(value))
        }
        FilterExpr::Exists { attr, exists, .. } => {
            let function = if *exists {
                "attribute_exists"
            } else {
                "attribute_not_exists"
            };
            format!("{function}({})", written(&attr.text))
        }
        FilterExpr::And(a, b) => format!("{} and {}", filter_expr(a), filter_expr(b)),
        FilterExpr::Or(a, b) => format!("{} or {}", filter_expr(a), filter_expr(b)),
        FilterExpr::Not { inner, .. } => format!("not {}", filter_expr(inner)),
        FilterExpr::Group { inner, .. } => format!("({})", filter_expr(inner)),
    }
}

fn filter_value(value: &FilterValue) -> String {
    match value {
        FilterValue::Literal(value) => literal(value),
        FilterValue::Word(word) => word.text.to_string(),
    }
}

/// `query Table.index where` and each condition.
fn query_parts(query: &Query) -> (String, Vec<String>) {
    let mut target = format!("query {}", written(&query.table.text));
    if let Some(index) = &query.index {
        target += &format!(".{}", written(&index.text));
    }
    target.push_str(" where");
    let conditions = query
        .conditions
        .iter()
        .map(|c| {
            let key = written(&c.key.text);
            match &c.kind {
                ConditionKind::Compare(op, value) => format!("{key} {} {}", op.as_str(), operand(value)),
                ConditionKind::Between(low, high) => {
                    format!("{key} between {} and {}", operand(low), operand(high))
                }
                ConditionKind::BeginsWith(prefix) => format!("begins_with({key}, {})", operand(prefix)),
            }
        })
        .collect();
    (target, conditions)
}

fn operand(value: &Operand) -> String {
    match value {
        Operand::Str(s) => string(s),
        Operand::Number(text, _) => text.clone(),
        Operand::Param(name) => name.text.to_string(),
    }
}

/// `~2KB`. `f64`'s `Display` is the shortest text that reads back as the
/// same number, and never uses an exponent, so the lexer reads it whole.
fn size_hint(size: &SizeHint) -> String {
    let unit = match size.unit {
        SizeUnit::None => "",
        SizeUnit::Bytes => "B",
        SizeUnit::KiloBytes => "KB",
        SizeUnit::MegaBytes => "MB",
    };
    format!("~{}{unit}", size.amount)
}

/// A string literal: its literal text escaped, its holes as `{name}`.
fn string(value: &StringLit) -> String {
    let mut out = String::from('"');
    for segment in &value.segments {
        match segment {
            Segment::Literal { text, .. } => out.push_str(&escape(text)),
            Segment::Hole { name, .. } => {
                out.push('{');
                out.push_str(&name.text);
                out.push('}');
            }
        }
    }
    out.push('"');
    out
}

/// Literal text as it is written inside a string: `"`, `\`, `{` and `}`
/// escaped.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '"' | '\\' | '{' | '}') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn doc_lines(docs: &Option<Box<Docs>>, indent: &str, lines: &mut Vec<String>) {
    let Some(docs) = docs else { return };
    for line in docs.text.split('\n') {
        lines.push(if line.is_empty() {
            format!("{indent}///")
        } else {
            format!("{indent}/// {line}")
        });
    }
}

/// `header { members }`, or `header {}` without members.
fn body(header: String, members: Vec<String>, lines: &mut Vec<String>) {
    if members.is_empty() {
        lines.push(format!("{header} {{}}"));
        return;
    }
    lines.push(format!("{header} {{"));
    lines.extend(members);
    lines.push("}".to_string());
}

/// Widths count characters, as the formatter counts them.
fn width(text: &str) -> usize {
    text.chars().count()
}

#[cfg(test)]
mod tests;
