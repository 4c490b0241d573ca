//! Per access pattern: the request `dyno explain` shows as a constant, and
//! the read on [`Table`] that sends it, built with the SDK's fluent
//! builders from that same JSON, the caller's values filled in where the
//! [`Fill`]s say.

use serde_json::Value as Json;

use super::entity::{concat, key_value};
use super::support::Helper;
use super::writer::Writer;
use super::{Module, entity_type, field_ident, local, method_ident};
use crate::check::model::AttrType;
use crate::generate::api::{Fill, Operation, Param, ReadApi};
use crate::generate::names;

pub(super) fn reads(module: &mut Module, out: &mut Writer) {
    let table = module.table;
    for read in &table.reads {
        if read.returns.len() > 1 {
            collection(module, out, read);
        }
        if read.operation == Operation::BatchGetItem {
            key_struct(module, out, read);
        }
    }
    for read in &table.reads {
        out.blank();
        out.line(&format!(
            "/// The request of `{}` as `dyno explain --format json` shows it; the",
            read.name
        ));
        out.line("/// caller's values are in braces.");
        let json = serde_json::to_string_pretty(&read.request).unwrap_or_default();
        out.line(&format!(
            "pub const {}: &str = {};",
            constant(read),
            super::raw_string(&json)
        ));
    }
    out.blank();
    out.line("/// Every read's request, by pattern name: the constants above.");
    let entries: Vec<String> = table
        .reads
        .iter()
        .map(|r| format!("({:?}, {})", r.name, constant(r)))
        .collect();
    let line = format!("pub const REQUESTS: &[(&str, &str)] = &[{}];", entries.join(", "));
    if out.fits(&line) && entries.join(", ").len() <= 60 {
        out.line(&line);
    } else {
        out.open("pub const REQUESTS: &[(&str, &str)] = &[");
        for read in &table.reads {
            out.call("", &[format!("{:?}", read.name), constant(read)], ",");
        }
        out.close("];");
    }
    if table.reads.is_empty() {
        return;
    }
    out.blank();
    out.open("impl Table {");
    for (i, read) in table.reads.iter().enumerate() {
        if i > 0 {
            out.blank();
        }
        function(module, out, read);
    }
    out.close("}");
}

fn constant(read: &ReadApi) -> String {
    format!("{}_REQUEST", names::snake(&read.name).to_uppercase())
}

/// The record type one item of the read is.
fn record_type(module: &Module, read: &ReadApi) -> String {
    match read.returns.as_slice() {
        [one] if read.projected.is_some() => format!("{}Projection", names::pascal(&one.entity)),
        [one] => entity_type(&one.entity),
        _ => module.read_type(&read.name, "Item"),
    }
}

/// `-> Player, Match[]`: an enum of the entities, told by their keys.
fn collection(module: &mut Module, out: &mut Writer, read: &ReadApi) {
    module.uses(Helper::Unidentified);
    let name = record_type(module, read);
    out.blank();
    out.line(&format!("/// An item `{}` returns: one of its entities.", read.name));
    out.line("#[derive(Clone, Debug, PartialEq)]");
    out.open(&format!("pub enum {name} {{"));
    for ret in &read.returns {
        let record = if read.projected.is_some() {
            format!("{}Projection", names::pascal(&ret.entity))
        } else {
            entity_type(&ret.entity)
        };
        out.line(&format!("{}({record}),", names::pascal(&ret.entity)));
    }
    out.close("}");
    out.blank();
    out.open(&format!("impl {name} {{"));
    out.line("/// The record of an item one of the read's entities wrote.");
    out.open("pub fn identify(item: &Item) -> Result<Self, Error> {");
    for ret in &read.returns {
        let (variant, entity) = (names::pascal(&ret.entity), entity_type(&ret.entity));
        let record = if read.projected.is_some() {
            format!("{variant}Projection")
        } else {
            entity.clone()
        };
        out.open(&format!("if {entity}::accepts(item) {{"));
        out.line(&format!("return {record}::from_item(item).map({name}::{variant});"));
        out.close("}");
    }
    out.line("Err(unidentified(item))");
    out.close("}");
    out.close("}");
}

/// The values of one key of a `batch get`.
fn key_struct(module: &mut Module, out: &mut Writer, read: &ReadApi) {
    out.blank();
    out.line(&format!("/// One key of `{}`.", read.name));
    out.line("#[derive(Clone, Debug, PartialEq)]");
    out.open(&format!("pub struct {} {{", module.read_type(&read.name, "Key")));
    for param in &read.params {
        let ty = module.rust_type(&param.ty);
        out.line(&format!("pub {}: {ty},", field_ident(&param.name)));
    }
    out.close("}");
}

/// The type of a read's parameter.
fn param_type(module: &mut Module, param: &Param) -> String {
    match &param.ty {
        AttrType::Binary => "&[u8]".into(),
        AttrType::List => "&[AttributeValue]".into(),
        AttrType::Map => "&Item".into(),
        ty => match module.rust_type(ty).as_str() {
            "String" => "&str".into(),
            other => other.to_string(),
        },
    }
}

fn function(module: &mut Module, out: &mut Writer, read: &ReadApi) {
    let record = record_type(module, read);
    if let Some(docs) = &read.docs {
        super::entity::doc(out, docs);
        out.line("///");
    }
    out.line(&format!("/// Sends [`{}`]{}.", constant(read), described(read)));
    let batch = read.operation == Operation::BatchGetItem;
    let mut params = vec!["&self".to_string()];
    if batch {
        params.push(format!("keys: &[{}]", module.read_type(&read.name, "Key")));
    } else {
        for param in &read.params {
            params.push(format!("{}: {}", local(&param.name), param_type(module, param)));
        }
    }
    let name = method_ident(&read.name);
    // `-> A, B` reads several items as `-> A, B[]` does: a page stream.
    let paginated = read.paginated
        || (read.returns.len() > 1 && matches!(read.operation, Operation::Query | Operation::Scan { .. }));
    if batch {
        out.signature(
            &format!("pub async fn {name}"),
            &params,
            &format!(" -> Result<Vec<{record}>, Error>"),
        );
        batch_body(module, out, read, &record);
        out.close("}");
        return;
    }
    if paginated {
        out.signature(
            &format!("pub fn {name}"),
            &params,
            &format!(" -> Result<Records<{record}>, Error>"),
        );
    } else {
        out.signature(
            &format!("pub async fn {name}"),
            &params,
            &format!(" -> Result<Option<{record}>, Error>"),
        );
    }
    check_params(module, out, read, |p| local(&p.name));
    let shard = read.shards.as_ref();
    let shard_local = shard.map(|s| local(&s.attr));
    if let Some(shards) = shard
        && let Some(from) = &shards.from
    {
        module.uses(Helper::ShardOf);
        out.line(&format!(
            "let {} = shard_of(&{}, {});",
            local(&shards.attr),
            local(from),
            shards.count
        ));
    }
    let is_number = |name: &str| shard.is_some_and(|s| s.attr == name);
    match read.operation {
        Operation::GetItem => {
            let mut chain = builder(module, read, "get_item", &is_number);
            chain.push((".send".into(), Vec::new()));
            chain.push((".await".into(), Vec::new()));
            chain.push((".map_err".into(), vec!["Error::sdk".into()]));
            request(out, "let output", &chain, "?;");
            out.open("match output.item {");
            out.line(&format!("Some(item) => {record}::identify(&item).map(Some),"));
            out.line("None => Ok(None),");
            out.close("}");
        }
        Operation::Query | Operation::Scan { .. } => {
            let (method, pages) = if read.operation == Operation::Query {
                module.uses(Helper::QueryPages);
                ("query", "query_pages")
            } else {
                module.uses(Helper::ScanPages);
                ("scan", "scan_pages")
            };
            let chain = builder(module, read, method, &is_number);
            let several = match (read.operation, shard) {
                (Operation::Scan { segments: Some(n) }, _) => Some(("segment".to_string(), n)),
                (_, Some(s)) if s.from.is_none() => shard_local.clone().map(|l| (l, u64::from(s.count))),
                _ => None,
            };
            match &several {
                None => {
                    request(out, "let request", &chain, ";");
                    out.line(&format!("let items = {pages}(request);"));
                }
                Some((var, count)) => {
                    out.line(&format!("let sources: Vec<Items> = (0..{count})"));
                    out.indent();
                    out.open(&format!(".map(|{var}| {{"));
                    request(out, "let request", &chain, ";");
                    out.line(&format!("{pages}(request)"));
                    out.close("})");
                    out.line(".collect();");
                    out.dedent();
                    if read.operation == Operation::Query {
                        module.uses(Helper::Merge);
                        match &read.sort_key {
                            Some(sort) => out.line(&format!(
                                "let items = merge(sources, {:?}, {});",
                                sort.name, read.forward
                            )),
                            None => out.line("let items = stream::iter(sources).flatten().boxed();"),
                        }
                    } else {
                        out.line("let items = stream::select_all(sources).boxed();");
                    }
                }
            }
            module.uses(Helper::Records);
            if paginated {
                out.line(&format!("Ok(records(items, {record}::identify))"));
            } else {
                out.line(&format!("let mut records = records(items, {record}::identify);"));
                out.line("records.try_next().await");
            }
        }
        Operation::BatchGetItem => {}
    }
    out.close("}");
}

/// ` (one Query per shard, merged by `sk`)`.
fn described(read: &ReadApi) -> String {
    match (&read.shards, read.operation) {
        (Some(shards), _) if shards.from.is_none() => format!(
            ": one Query per shard ({}), merged by `{}`",
            shards.count,
            read.sort_key.as_ref().map_or("", |k| k.name.as_str())
        ),
        (Some(shards), _) => format!(
            " to the shard `{}` computes from `{}`",
            shards.attr,
            shards.from.as_deref().unwrap_or_default()
        ),
        (None, Operation::Scan { segments: Some(n) }) => format!(", one Scan per segment ({n})"),
        _ => String::new(),
    }
}

/// `let user_id = checked("userId", user_id.to_string(), &PATTERN_0)?;` for
/// each parameter that is key text; the others stay as given.
fn check_params(module: &mut Module, out: &mut Writer, read: &ReadApi, place: impl Fn(&Param) -> String) {
    for param in &read.params {
        let Some(pattern) = &param.key_pattern else {
            continue;
        };
        let whole_number = |f: &Fill| {
            f.path.last().is_some_and(|t| t == "N")
                && matches!(f.parts.as_slice(), [crate::generate::api::Segment::Value(v)] if *v == param.name)
        };
        let uses: Vec<&Fill> = read
            .fills
            .iter()
            .filter(|f| f.parts.iter().any(|p| *p == value(&param.name)))
            .collect();
        if super::plain_number(&param.ty) && !uses.is_empty() && uses.iter().all(|f| whole_number(f)) {
            // Any integer is a Number: a negative one too.
            out.line(&format!("let {} = {}.to_string();", local(&param.name), place(param)));
            continue;
        }
        let partial = |f: &Fill| is_prefix(&read.request, f) && f.parts.last() == Some(&value(&param.name));
        if !uses.is_empty() && uses.iter().all(|f| partial(f)) {
            // The end of a `begins_with` bound: a prefix of the key text.
            out.line(&format!("let {} = {}.to_string();", local(&param.name), place(param)));
            continue;
        }
        module.let_checked(out, &local(&param.name), &param.name, &param.ty, &place(param), pattern);
    }
}

/// Is the fill the value of a `begins_with(name, :value)` of the request's
/// key condition or filter?
fn is_prefix(request: &Json, fill: &Fill) -> bool {
    let [values, placeholder, _] = fill.path.as_slice() else {
        return false;
    };
    if values != "ExpressionAttributeValues" {
        return false;
    }
    ["KeyConditionExpression", "FilterExpression"].iter().any(|field| {
        let text = request[field].as_str().unwrap_or_default();
        text.split("begins_with(").skip(1).any(|call| {
            call.split(')')
                .next()
                .is_some_and(|args| args.ends_with(&format!(", {placeholder}")))
        })
    })
}

fn value(name: &str) -> crate::generate::api::Segment {
    crate::generate::api::Segment::Value(name.to_string())
}

fn batch_body(module: &mut Module, out: &mut Writer, read: &ReadApi, record: &str) {
    module.uses(Helper::BatchGet);
    let (table, keys, consistent) = batch_parts(&read.request);
    out.line("let mut requested = Vec::with_capacity(keys.len());");
    out.open("for key in keys {");
    check_params(module, out, read, |p| format!("key.{}", field_ident(&p.name)));
    out.line("let mut item = Item::new();");
    let base = vec!["RequestItems".to_string(), table, "Keys".to_string(), "0".to_string()];
    for (name, value) in keys.iter().flat_map(|k| k.iter()) {
        let mut path = base.clone();
        path.push(name.clone());
        let value = attribute_value(module, read, &path, value, &|_| false);
        out.call("item.insert", &[format!("{name:?}.to_string()"), value], ";");
    }
    // DynamoDB refuses a request that names a key twice.
    out.open("if !requested.contains(&item) {");
    out.line("requested.push(item);");
    out.close("}");
    out.close("}");
    out.line(&format!(
        "let items = batch_get(&self.client, &self.name, requested, {consistent}).await?;"
    ));
    out.line(&format!("items.iter().map({record}::identify).collect()"));
}

/// The table name, the key template and `ConsistentRead` of a
/// `BatchGetItem` request.
fn batch_parts(request: &Json) -> (String, Option<&serde_json::Map<String, Json>>, bool) {
    let Some((table, entry)) = request["RequestItems"].as_object().and_then(|m| m.iter().next()) else {
        return (String::new(), None, false);
    };
    (
        table.clone(),
        entry["Keys"][0].as_object(),
        entry["ConsistentRead"].as_bool().unwrap_or(false),
    )
}

/// One element of a builder chain: `.method(args)`.
type Element = (String, Vec<String>);

/// The fluent builder calls of a Query, Scan or GetItem request, in the
/// request's field order.
fn builder(module: &mut Module, read: &ReadApi, method: &str, is_number: &dyn Fn(&str) -> bool) -> Vec<Element> {
    let mut chain: Vec<Element> = vec![(format!(".{method}"), Vec::new())];
    let Some(request) = read.request.as_object() else {
        return chain;
    };
    for (field, value) in request {
        let path = vec![field.clone()];
        let text = |v: &Json| format!("{:?}", v.as_str().unwrap_or_default());
        match field.as_str() {
            "TableName" => chain.push((".table_name".into(), vec!["&self.name".into()])),
            "IndexName" => chain.push((".index_name".into(), vec![text(value)])),
            "KeyConditionExpression" => chain.push((".key_condition_expression".into(), vec![text(value)])),
            "FilterExpression" => chain.push((".filter_expression".into(), vec![text(value)])),
            "ExpressionAttributeNames" => {
                for (name, attr) in value.as_object().into_iter().flatten() {
                    chain.push((
                        ".expression_attribute_names".into(),
                        vec![format!("{name:?}"), text(attr)],
                    ));
                }
            }
            "ExpressionAttributeValues" | "Key" => {
                let method = if field == "Key" {
                    ".key"
                } else {
                    ".expression_attribute_values"
                };
                for (name, item) in value.as_object().into_iter().flatten() {
                    let mut path = path.clone();
                    path.push(name.clone());
                    let av = attribute_value(module, read, &path, item, is_number);
                    chain.push((method.into(), vec![format!("{name:?}"), av]));
                }
            }
            "ScanIndexForward" => chain.push((".scan_index_forward".into(), vec![value.to_string()])),
            "ConsistentRead" => chain.push((".consistent_read".into(), vec![value.to_string()])),
            "Limit" => chain.push((".limit".into(), vec![value.to_string()])),
            "Segment" => chain.push((".segment".into(), vec!["segment".into()])),
            "TotalSegments" => chain.push((".total_segments".into(), vec![value.to_string()])),
            _ => {}
        }
    }
    chain
}

/// `binding = self.client` and the chain's calls, one a line, the last
/// followed by `tail`.
fn request(out: &mut Writer, binding: &str, chain: &[Element], tail: &str) {
    out.line(&format!("{binding} = self"));
    out.indent();
    out.line(".client");
    for (i, (method, args)) in chain.iter().enumerate() {
        let tail = if i + 1 == chain.len() { tail } else { "" };
        if method == ".await" {
            out.line(&format!("{method}{tail}"));
        } else {
            out.call(method, args, tail);
        }
    }
    out.dedent();
}

/// The `AttributeValue` of a request value (`{"S": "USER#{userId}"}`) at
/// `path`, the caller's values filled in.
fn attribute_value(
    module: &mut Module,
    read: &ReadApi,
    path: &[String],
    value: &Json,
    is_number: &dyn Fn(&str) -> bool,
) -> String {
    let Some((ty, inner)) = value.as_object().and_then(|o| o.iter().next()) else {
        return "AttributeValue::Null(true)".into();
    };
    let mut path = path.to_vec();
    path.push(ty.clone());
    let fill = read.fills.iter().find(|f| f.path == path);
    let text = || string(fill, inner, is_number);
    match (ty.as_str(), inner) {
        ("S", _) => format!("AttributeValue::S({})", text()),
        ("N", _) => format!("AttributeValue::N({})", text()),
        ("BOOL", Json::Bool(b)) => format!("AttributeValue::Bool({b})"),
        ("BOOL", _) => match fill.map(|f| f.parts.as_slice()) {
            Some([crate::generate::api::Segment::Value(name)]) => {
                format!("AttributeValue::Bool({} == \"true\")", local(name))
            }
            _ => format!("AttributeValue::Bool({} == \"true\")", text()),
        },
        ("NULL", _) => "AttributeValue::Null(true)".into(),
        ("B", _) => key_value(module, crate::syntax::ast::KeyType::Binary, &text()),
        ("L", Json::Array(items)) => {
            let values: Vec<String> = items
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    let mut path = path.clone();
                    path.push(i.to_string());
                    attribute_value(module, read, &path, v, is_number)
                })
                .collect();
            format!("AttributeValue::L(vec![{}])", values.join(", "))
        }
        ("L", _) => format!("AttributeValue::L({}.to_vec())", raw_param(fill)),
        ("M", _) => format!("AttributeValue::M({}.clone())", raw_param(fill)),
        ("SS" | "NS", Json::Array(items)) => {
            let values: Vec<String> = items.iter().map(|v| format!("{v}.to_string()")).collect();
            let variant = if ty == "SS" { "Ss" } else { "Ns" };
            format!("AttributeValue::{variant}(vec![{}])", values.join(", "))
        }
        _ => "AttributeValue::Null(true)".into(),
    }
}

/// The text of a request string: the literal, or the fill's parts.
fn string(fill: Option<&Fill>, literal: &Json, is_number: &dyn Fn(&str) -> bool) -> String {
    match fill {
        Some(fill) => concat(&fill.parts, local, is_number),
        None => format!("{:?}.to_string()", literal.as_str().unwrap_or_default()),
    }
}

/// A parameter passed as is (a list or a map).
fn raw_param(fill: Option<&Fill>) -> String {
    match fill.map(|f| f.parts.as_slice()) {
        Some([crate::generate::api::Segment::Value(name)]) => local(name),
        _ => "Vec::new()".into(),
    }
}
