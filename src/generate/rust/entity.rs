//! Per entity: the record struct, its key builder, `put` and decoding, and
//! the all-optional record an index that projects some attributes returns.

use super::support::Helper;
use super::writer::Writer;
use super::{Module, entity_type, field_ident, local};
use crate::check::model::AttrType;
use crate::generate::api::{EntityApi, Field, KeyBuild, Segment, Stored};
use crate::generate::names;
use crate::syntax::ast::KeyType;

pub(super) fn entity(module: &mut Module, out: &mut Writer, entity: &EntityApi) {
    let name = entity_type(&entity.name);
    out.blank();
    match &entity.docs {
        Some(docs) => doc(out, docs),
        None => out.line(&format!("/// A `{}` record.", entity.name)),
    }
    out.line("#[derive(Clone, Debug, PartialEq)]");
    out.open(&format!("pub struct {name} {{"));
    for field in &entity.fields {
        if let AttrType::Shard { count, of } = &field.ty {
            match of {
                Some(source) => out.line(&format!("/// `shard({count}, of {source})`: computed on a write.")),
                None => out.line(&format!(
                    "/// `shard({count})`: drawn at random on a write when `None`."
                )),
            }
        }
        let ty = module.field_type(field);
        out.line(&format!("pub {}: {ty},", field_ident(&field.name)));
    }
    out.close("}");
    out.blank();
    out.open(&format!("impl {name} {{"));
    let shards = entity.fields.iter().any(|f| matches!(f.ty, AttrType::Shard { .. }));
    keys(out, entity, shards);
    if shards {
        out.blank();
        resolved(module, out, entity);
    }
    out.blank();
    items(module, out, entity);
    out.blank();
    put(out, entity, shards);
    out.blank();
    attributes(module, out, entity, false);
    out.blank();
    accepts(module, out, entity);
    out.blank();
    identify(module, out, "Self");
    out.blank();
    from_item(module, out, entity, &name, false);
    out.close("}");
}

/// `identify`: `from_item` of an item whose keys `accepts`.
fn identify(module: &mut Module, out: &mut Writer, entity: &str) {
    module.uses(Helper::Unidentified);
    out.line("/// The record of an item this entity wrote; another's item is an error.");
    out.open("pub fn identify(item: &Item) -> Result<Self, Error> {");
    out.open(&format!("if {entity}::accepts(item) {{"));
    out.line("Self::from_item(item)");
    out.close("} else {");
    out.indent();
    out.line("Err(unidentified(item))");
    out.close("}");
    out.close("}");
}

/// The record an index that projects some attributes returns: every field
/// optional.
pub(super) fn projection(module: &mut Module, out: &mut Writer, entity: &EntityApi) {
    let name = format!("{}Projection", names::pascal(&entity.name));
    out.blank();
    out.line(&format!(
        "/// A `{}` as an index that projects some of its attributes returns it.",
        entity.name
    ));
    out.line("#[derive(Clone, Debug, PartialEq)]");
    out.open(&format!("pub struct {name} {{"));
    for field in &entity.fields {
        let ty = module.rust_type(&field.ty);
        out.line(&format!("pub {}: Option<{ty}>,", field_ident(&field.name)));
    }
    out.close("}");
    out.blank();
    out.open(&format!("impl {name} {{"));
    identify(module, out, &entity_type(&entity.name));
    out.blank();
    attributes(module, out, entity, true);
    out.blank();
    from_item(module, out, entity, &name, true);
    out.close("}");
}

/// A schema's doc comment as Rust's. Its lines lose their indentation and
/// its code fences become `text`, so that nothing in it is a doctest of
/// the application's crate.
pub(super) fn doc(out: &mut Writer, docs: &str) {
    let mut in_fence = false;
    for line in docs.lines().map(str::trim) {
        if line.starts_with("```") {
            out.line(if in_fence { "/// ```" } else { "/// ```text" });
            in_fence = !in_fence;
        } else if line.is_empty() {
            out.line("///");
        } else {
            out.line(&format!("/// {line}"));
        }
    }
    if in_fence {
        out.line("/// ```");
    }
}

fn keys(out: &mut Writer, entity: &EntityApi, shards: bool) {
    let several = entity.shapes.len() > 1;
    out.line(&format!(
        "/// Every key attribute of the item{}: the table's and each index's, an",
        if several {
            "s it writes, one map per item"
        } else {
            " (one map)"
        }
    ));
    out.line("/// index's left out when it needs an optional attribute that is absent.");
    if shards {
        out.line("/// A random shard left `None` is drawn now.");
    }
    out.open("pub fn keys(&self) -> Result<Vec<Item>, Error> {");
    if shards {
        out.line("self.resolved()?.items()");
    } else {
        out.line("self.items()");
    }
    out.close("}");
}

/// Draws the random shards left unset and computes the calculated ones.
fn resolved(module: &mut Module, out: &mut Writer, entity: &EntityApi) {
    out.line("/// The record with its shards: a random one left unset drawn, a");
    out.line("/// calculated one computed from its source.");
    out.open("fn resolved(&self) -> Result<Self, Error> {");
    out.line("let mut record = self.clone();");
    for field in &entity.fields {
        let AttrType::Shard { count, of } = &field.ty else {
            continue;
        };
        let ident = field_ident(&field.name);
        match of.as_ref().and_then(|s| entity.fields.iter().find(|f| f.name == *s)) {
            None => {
                module.uses(Helper::RandomShard);
                out.open(&format!("if record.{ident}.is_none() {{"));
                out.line(&format!("record.{ident} = Some(random_shard({count}));"));
                out.close("}");
            }
            Some(source) => {
                module.uses(Helper::ShardOf);
                let Some(pattern) = &source.key_pattern else {
                    continue;
                };
                if source.optional {
                    // Without its source the shard stays as given.
                    continue;
                }
                let place = format!("self.{}", field_ident(&source.name));
                module.let_checked(out, "source", &source.name, &source.ty, &place, pattern);
                let computed = local(&field.name);
                out.line(&format!("let {computed} = shard_of(&source, {count});"));
                out.open(&format!(
                    "if let Some(given) = record.{ident}.filter(|given| *given != {computed}) {{"
                ));
                out.open("return Err(Error::Shard {");
                out.line(&format!("attribute: {:?},", field.name));
                out.line("given,");
                out.line(&format!("expected: {computed},"));
                out.close("});");
                out.close("}");
                out.line(&format!("record.{ident} = Some({computed});"));
            }
        }
    }
    out.line("Ok(record)");
    out.close("}");
}

/// The fields each key template reads.
fn key_fields(entity: &EntityApi) -> Vec<&Field> {
    entity
        .fields
        .iter()
        .filter(|f| {
            entity
                .shapes
                .iter()
                .flat_map(|s| &s.keys)
                .flat_map(|k| &k.parts)
                .any(|p| matches!(p, Segment::Value(v) if *v == f.name))
        })
        .collect()
}

/// Is every key the field is in a Number key of the field alone?
fn only_whole_numbers(entity: &EntityApi, field: &Field) -> bool {
    let whole = [Segment::Value(field.name.clone())];
    entity
        .shapes
        .iter()
        .flat_map(|s| &s.keys)
        .filter(|k| {
            k.parts
                .iter()
                .any(|p| matches!(p, Segment::Value(v) if *v == field.name))
        })
        .all(|k| k.ty == KeyType::Number && k.parts == whole)
}

fn items(module: &mut Module, out: &mut Writer, entity: &EntityApi) {
    out.line("/// The keys of each item, from the record's fields as they are.");
    out.open("fn items(&self) -> Result<Vec<Item>, Error> {");
    for field in key_fields(entity) {
        let Some(pattern) = &field.key_pattern else {
            continue;
        };
        let name = local(&field.name);
        let place = format!("self.{}", field_ident(&field.name));
        if super::plain_number(&field.ty) && only_whole_numbers(entity, field) {
            // Any integer is a Number: a negative one too.
            if field.optional {
                out.line(&format!("let {name} = {place}.map(|value| value.to_string());"));
            } else {
                out.line(&format!("let {name} = {place}.to_string();"));
            }
        } else if field.optional {
            let args = module.checked_args(&field.name, &field.ty, "value", pattern);
            out.open(&format!("let {name} = match &{place} {{"));
            out.line(&format!("Some(value) => Some(checked({})?),", args.join(", ")));
            out.line("None => None,");
            out.close("};");
        } else if matches!(field.ty, AttrType::Shard { .. }) {
            module.uses(Helper::Required);
            out.line(&format!("let {name} = required({place}, {:?})?;", field.name));
            module.let_checked(out, &name, &field.name, &field.ty, &name, pattern);
        } else {
            module.let_checked(out, &name, &field.name, &field.ty, &place, pattern);
        }
    }
    let several = entity.shapes.len() > 1;
    if several {
        out.line(&format!("let mut items = Vec::with_capacity({});", entity.shapes.len()));
    }
    for shape in &entity.shapes {
        out.line("let mut item = Item::new();");
        for key in &shape.keys {
            key_insert(module, out, entity, key);
        }
        if several {
            out.line("items.push(item);");
        }
    }
    if several {
        out.line("Ok(items)");
    } else {
        out.line("Ok(vec![item])");
    }
    out.close("}");
}

fn key_insert(module: &mut Module, out: &mut Writer, entity: &EntityApi, key: &KeyBuild) {
    let optional: Vec<String> = key
        .parts
        .iter()
        .filter_map(|p| match p {
            Segment::Value(v) => entity.fields.iter().find(|f| f.name == *v && f.optional),
            Segment::Literal(_) => None,
        })
        .map(|f| local(&f.name))
        .collect();
    if !optional.is_empty() {
        if optional.len() == 1 {
            out.open(&format!("if let Some({0}) = &{0} {{", optional[0]));
        } else {
            out.open(&format!(
                "if let ({}) = ({}) {{",
                optional
                    .iter()
                    .map(|o| format!("Some({o})"))
                    .collect::<Vec<_>>()
                    .join(", "),
                optional.iter().map(|o| format!("&{o}")).collect::<Vec<_>>().join(", ")
            ));
        }
    }
    let text = concat(&key.parts, local, |_| false);
    let value = key_value(module, key.ty, &text);
    out.call("item.insert", &[format!("{:?}.to_string()", key.attr), value], ";");
    if !optional.is_empty() {
        out.close("}");
    }
}

/// An `AttributeValue` of a key attribute from its text.
pub(super) fn key_value(module: &mut Module, ty: KeyType, text: &str) -> String {
    match ty {
        KeyType::String => format!("AttributeValue::S({text})"),
        KeyType::Number => format!("AttributeValue::N({text})"),
        KeyType::Binary => {
            module.import("aws_sdk_dynamodb::primitives::Blob");
            format!("AttributeValue::B(Blob::new({text}.into_bytes()))")
        }
    }
}

/// The expression of a `String` that concatenates `parts`, each value the
/// local `local(name)` holding its text: `format!("USER#{user_id}")`,
/// `user_id.clone()`, `"META".to_string()`. `is_number` tells a local that
/// is a number rather than a `String`.
pub(super) fn concat(parts: &[Segment], local: impl Fn(&str) -> String, is_number: impl Fn(&str) -> bool) -> String {
    match parts {
        [] => "String::new()".to_string(),
        [Segment::Value(name)] if is_number(name) => format!("{}.to_string()", local(name)),
        [Segment::Value(name)] => format!("{}.clone()", local(name)),
        [Segment::Literal(text)] => format!("{text:?}.to_string()"),
        _ => {
            let mut format = String::new();
            for part in parts {
                match part {
                    Segment::Literal(text) => format.push_str(&text.replace('{', "{{").replace('}', "}}")),
                    Segment::Value(name) => format.push_str(&format!("{{{}}}", local(name))),
                }
            }
            format!("format!({format:?})")
        }
    }
}

fn put(out: &mut Writer, entity: &EntityApi, shards: bool) {
    let several = entity.shapes.len() > 1;
    out.line(&format!(
        "/// `PutItem` of the whole item{}: its keys, then each attribute under its",
        if several { " (each item)" } else { "" }
    ));
    out.line("/// own name (unless a key attribute of that name takes its place).");
    out.open("pub async fn put(&self, table: &Table) -> Result<(), Error> {");
    if shards {
        out.line("let record = self.resolved()?;");
    } else {
        out.line("let record = self;");
    }
    out.open("for mut item in record.items()? {");
    out.open("for (name, value) in record.attributes() {");
    out.line("item.entry(name).or_insert(value);");
    out.close("}");
    out.line("table");
    out.line("    .client");
    out.line("    .put_item()");
    out.line("    .table_name(&table.name)");
    out.line("    .set_item(Some(item))");
    out.line("    .send()");
    out.line("    .await");
    out.line("    .map_err(Error::sdk)?;");
    out.close("}");
    out.line("Ok(())");
    out.close("}");
}

/// `attributes`: each attribute the record has, under its own name.
fn attributes(module: &mut Module, out: &mut Writer, entity: &EntityApi, projection: bool) {
    out.line("/// Each attribute the record has, under its own name (no keys).");
    out.open("pub fn attributes(&self) -> Item {");
    out.line("let mut item = Item::new();");
    for field in &entity.fields {
        let place = format!("self.{}", field_ident(&field.name));
        let optional = projection || field.optional || matches!(field.ty, AttrType::Shard { .. });
        let name = format!("{:?}.to_string()", field.name);
        if optional {
            out.open(&format!("if let Some(value) = &{place} {{"));
            let value = attribute_value(module, field, "value", true);
            out.call("item.insert", &[name, value], ";");
            out.close("}");
        } else {
            let value = attribute_value(module, field, &place, false);
            out.call("item.insert", &[name, value], ";");
        }
    }
    out.line("item");
    out.close("}");
}

/// The `AttributeValue` of a field's value at `place` (a reference when
/// `by_ref`).
fn attribute_value(module: &mut Module, field: &Field, place: &str, by_ref: bool) -> String {
    match (&field.ty, field.stored) {
        (AttrType::Enum(_), _) => format!("AttributeValue::S({place}.as_str().to_string())"),
        (AttrType::Decimal, _) => format!("AttributeValue::N({place}.clone())"),
        (_, Stored::N) => format!("AttributeValue::N({place}.to_string())"),
        (_, Stored::Bool) if by_ref => format!("AttributeValue::Bool(*{place})"),
        (_, Stored::Bool) => format!("AttributeValue::Bool({place})"),
        (_, Stored::B) => {
            module.import("aws_sdk_dynamodb::primitives::Blob");
            format!("AttributeValue::B(Blob::new({place}.clone()))")
        }
        (_, Stored::L) => format!("AttributeValue::L({place}.clone())"),
        (_, Stored::M) => format!("AttributeValue::M({place}.clone())"),
        (_, Stored::S) => format!("AttributeValue::S({place}.clone())"),
    }
}

fn accepts(module: &mut Module, out: &mut Writer, entity: &EntityApi) {
    module.uses(Helper::Matches);
    let alternatives: Vec<Vec<String>> = entity
        .shapes
        .iter()
        .map(|shape| {
            shape
                .keys
                .iter()
                .filter(|k| k.base)
                .map(|k| format!("matches(item, {:?}, &{})", k.attr, module.pattern(&k.matcher)))
                .collect()
        })
        .filter(|a: &Vec<String>| !a.is_empty())
        .collect();
    out.line("/// Whether an item's table keys are keys this entity writes.");
    out.open("pub fn accepts(item: &Item) -> bool {");
    let one_line = alternatives
        .iter()
        .map(|a| {
            if alternatives.len() > 1 && a.len() > 1 {
                format!("({})", a.join(" && "))
            } else {
                a.join(" && ")
            }
        })
        .collect::<Vec<_>>();
    let joined = one_line.join(" || ");
    if joined.is_empty() {
        out.line("let _ = item;");
        out.line("false");
    } else if out.fits(&joined) {
        out.line(&joined);
    } else if alternatives.len() == 1 {
        for (i, conjunct) in alternatives[0].iter().enumerate() {
            if i == 0 {
                out.line(conjunct);
            } else {
                out.line(&format!("    && {conjunct}"));
            }
        }
    } else {
        for (i, alternative) in one_line.iter().enumerate() {
            if i == 0 {
                out.line(alternative);
            } else {
                out.line(&format!("    || {alternative}"));
            }
        }
    }
    out.close("}");
}

fn from_item(module: &mut Module, out: &mut Writer, entity: &EntityApi, name: &str, projection: bool) {
    out.line("/// The record of an item: its attributes, each under its own name.");
    out.open("pub fn from_item(item: &Item) -> Result<Self, Error> {");
    for field in &entity.fields {
        let (helper, function) = match (&field.ty, field.stored) {
            (AttrType::Decimal, _) => (Helper::Number, "decode_number"),
            (_, Stored::N) => (Helper::Integer, "decode_integer"),
            (_, Stored::S) => (Helper::Text, "decode_text"),
            (_, Stored::Bool) => (Helper::Boolean, "decode_bool"),
            (_, Stored::B) => (Helper::Binary, "decode_binary"),
            (_, Stored::L) => (Helper::List, "decode_list"),
            (_, Stored::M) => (Helper::Map, "decode_map"),
        };
        module.uses(helper);
        let mut value = format!("{function}(item, {:?})?", field.name);
        if matches!(field.ty, AttrType::Enum(_)) {
            module.uses(Helper::Parsed);
            value = format!("parsed({value})?");
        }
        let optional = projection || field.optional || matches!(field.ty, AttrType::Shard { .. });
        let binding = local(&field.name);
        if optional {
            out.line(&format!("let {binding} = {value};"));
        } else {
            module.uses(Helper::Required);
            out.let_call(&binding, "required", &[value, format!("{:?}", field.name)], "?;");
        }
    }
    let fields: Vec<String> = entity
        .fields
        .iter()
        .map(|f| {
            let (ident, binding) = (field_ident(&f.name), local(&f.name));
            if ident == binding {
                ident
            } else {
                format!("{ident}: {binding}")
            }
        })
        .collect();
    let line = format!("Ok({name} {{ {} }})", fields.join(", "));
    if fields.join(", ").len() <= 18 && out.fits(&line) {
        out.line(&line);
    } else {
        out.open(&format!("Ok({name} {{"));
        for field in fields {
            out.line(&format!("{field},"));
        }
        out.close("})");
    }
    out.close("}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schema_docs_hold_no_doctest() {
        let mut out = Writer::new();
        doc(
            &mut out,
            "A record.\n\n    indented\n```\nlet x = 1;\n```\n```rust\nopen",
        );
        assert_eq!(
            out.finish(),
            "/// A record.\n///\n/// indented\n/// ```text\n/// let x = 1;\n/// ```\n/// ```text\n/// open\n/// ```\n"
        );
    }
}
