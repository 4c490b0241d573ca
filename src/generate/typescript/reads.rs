//! One function per access pattern: the pattern's request (the module's
//! `requests` constant) filled in with the caller's values at the places
//! the [`ReadApi`]'s `fills` name, sent as its operation, and what comes
//! back identified and decoded.

use super::{EntityNames, Locals, Module, WIDTH, access, concat, prop, quote, ts_type, wrap};
use crate::generate::api::{Field, Operation, ReadApi, Segment, Stored};
use crate::generate::names;

pub(super) fn render(m: &mut Module, read: &ReadApi, name: &str, entities: &[EntityNames]) {
    let returned: Vec<&EntityNames> = read
        .returns
        .iter()
        .filter_map(|r| {
            let i = m.table.entities.iter().position(|e| e.name == r.entity)?;
            entities.get(i)
        })
        .collect();
    let whole = read.projected.is_none();
    let record = |names: &EntityNames| {
        if whole {
            names.record.clone()
        } else {
            format!("Partial<{}>", names.record)
        }
    };
    let tagged = returned.len() > 1;
    let descriptors = returned
        .iter()
        .map(|n| n.descriptor.clone())
        .collect::<Vec<_>>()
        .join(", ");
    let element = if tagged {
        let alias = m.claim(format!("{}Item", names::pascal(&read.name)));
        m.line("");
        m.line(&format!(
            "/** What {name} returns: each item tagged with its entity. */"
        ));
        let members: Vec<String> = returned
            .iter()
            .map(|names| format!("{{ entity: {}; record: {} }}", quote(&names.entity), record(names)))
            .collect();
        let one_line = format!("export type {alias} = {};", members.join(" | "));
        let next_line = format!("  {};", members.join(" | "));
        if one_line.len() <= WIDTH {
            m.line(&one_line);
        } else if next_line.len() <= WIDTH {
            m.line(&format!("export type {alias} ="));
            m.line(&next_line);
        } else {
            m.line(&format!("export type {alias} ="));
            for member in &members {
                m.line(&format!("  | {member}"));
            }
            m.body.pop();
            m.line(";");
        }
        alias
    } else {
        returned.first().map(|n| record(n)).unwrap_or_else(|| "never".into())
    };
    let decode = if tagged {
        m.helpers.insert("tagged");
        format!("_tagged<{element}>(item, [{descriptors}], {whole})")
    } else {
        m.helpers.insert("record");
        format!("_record<{element}>(item, [{descriptors}], {whole})")
    };

    let params_type = if read.params.is_empty() {
        None
    } else {
        let fields: Vec<String> = read
            .params
            .iter()
            .map(|p| format!("{}: {}", prop(&p.name), ts_type(&p.ty)))
            .collect();
        Some(format!("{{ {} }}", fields.join("; ")))
    };
    let (request_type, command) = match read.operation {
        Operation::Query => ("QueryCommandInput", "QueryCommand"),
        Operation::GetItem => ("GetItemCommandInput", "GetItemCommand"),
        Operation::BatchGetItem => ("BatchGetItemCommandInput", "BatchGetItemCommand"),
        Operation::Scan { .. } => ("ScanCommandInput", "ScanCommand"),
    };
    m.imports.insert(command);
    m.imports.insert(match read.operation {
        Operation::Query => "type QueryCommandInput",
        Operation::GetItem => "type GetItemCommandInput",
        Operation::BatchGetItem => "type BatchGetItemCommandInput",
        Operation::Scan { .. } => "type ScanCommandInput",
    });
    m.helpers.insert("fill");

    let batch = read.operation == Operation::BatchGetItem;
    let random_shards = read.shards.as_ref().filter(|s| s.from.is_none());
    let single = !read.paginated && !batch && !tagged || read.operation == Operation::GetItem;

    m.line("");
    if let Some(docs) = &read.docs {
        m.doc("", docs);
    }
    let params_arg = match (&params_type, batch) {
        (Some(t), true) => format!(", params: readonly {t}[]"),
        (Some(t), false) => format!(", params: {t}"),
        (None, true) => ", params: readonly object[]".to_string(),
        (None, false) => String::new(),
    };
    let (keyword, returns) = if read.paginated {
        ("async function*", format!("AsyncGenerator<{element}>"))
    } else if single {
        ("async function", format!("Promise<{element} | undefined>"))
    } else {
        ("async function", format!("Promise<{element}[]>"))
    };
    let signature = wrap(&format!(
        "export {keyword} {name}(table: Table{params_arg}): {returns} {{"
    ));
    for line in signature.lines() {
        m.line(&expand_params(line));
    }
    m.line("  const tableName = table.name ?? TABLE_NAME;");

    let from = if batch { "p" } else { "params" };
    let indent = if batch { "      " } else { "  " };
    let mut locals = Locals::default();
    // The values' key texts, each checked.
    let mut lines = Vec::new();
    for param in &read.params {
        if !needs_text(read, &param.name) {
            continue;
        }
        let field = Field {
            name: param.name.clone(),
            ty: param.ty.clone(),
            optional: false,
            stored: Stored::of(&param.ty),
            key_pattern: param.key_pattern.clone(),
        };
        let text = m.checked_text(&field, &format!("{from}{}", access(&param.name)));
        let var = locals.text_var(&param.name);
        lines.push(wrap(&format!("{indent}const {var} = {text};")));
    }
    let shard_var = read.shards.as_ref().map(|s| locals.text_var(&s.attr));
    if let (Some(shards), Some(var)) = (&read.shards, &shard_var)
        && let Some(source) = &shards.from
    {
        m.helpers.insert("shard");
        lines.push(format!(
            "{indent}const {var} = String(_shardOf({}, {}));",
            locals.get(source),
            shards.count
        ));
    }
    let fill_lines = fills(m, read, &locals, from);
    // `{prefix}_fill<T>(requests.x, tableName, [...])` as prettier breaks
    // it: the array hugged when the head fits, else one argument a line.
    let fill_call = |indent: &str, prefix: &str| -> Vec<String> {
        let key = access(&read.name);
        let call = format!("{indent}{prefix}_fill<{request_type}>(");
        let one = format!("{call}requests{key}, tableName, [{}])", fill_lines.join(", "));
        if one.len() < WIDTH {
            return vec![one];
        }
        let head = format!("{call}requests{key}, tableName, [");
        if !fill_lines.is_empty() && head.len() <= WIDTH {
            let mut out = vec![head];
            out.extend(fill_lines.iter().map(|l| wrap(&format!("{indent}  {l},"))));
            out.push(format!("{indent}])"));
            return out;
        }
        let mut out = vec![
            call,
            format!("{indent}  requests{key},"),
            format!("{indent}  tableName,"),
        ];
        let inline = format!("{indent}  [{}],", fill_lines.join(", "));
        if inline.len() <= WIDTH {
            out.push(inline);
        } else {
            out.push(format!("{indent}  ["));
            out.extend(fill_lines.iter().map(|l| wrap(&format!("{indent}    {l},"))));
            out.push(format!("{indent}  ],"));
        }
        out.push(format!("{indent})"));
        out
    };

    if batch {
        m.helpers.insert("batch");
        m.line("  const items = await _batchGet(");
        m.line("    table.client,");
        m.line("    params.map((p) => {");
        for l in &lines {
            m.line(l);
        }
        for l in fill_call("      ", "return ") {
            m.line(&l);
        }
        m.body.pop();
        m.line(";");
        m.line("    }),");
        m.line("  );");
        m.line(&format!("  return items.map((item) => {decode});"));
        m.line("}");
        return;
    }
    for l in &lines {
        m.line(l);
    }
    // `request` (or, per shard, `request(shardText)`).
    if let (Some(_), Some(var)) = (random_shards, &shard_var) {
        m.line(&format!("  const request = ({var}: string): {request_type} =>"));
        for l in fill_call("    ", "") {
            m.line(&l);
        }
        m.body.pop();
        m.line(";");
    } else {
        for l in fill_call("  ", "const request = ") {
            m.line(&l);
        }
        m.body.pop();
        m.line(";");
    }

    if read.operation == Operation::GetItem {
        m.line("  const { Item: item } = await table.client.send(new GetItemCommand(request));");
        if tagged || single {
            conditional_return(m, &decode);
        }
        m.line("}");
        return;
    }

    let stream = match (read.operation, random_shards) {
        (Operation::Scan { segments: Some(n) }, _) => {
            m.helpers.insert("scan");
            m.helpers.insert("interleave");
            format!(
                "_interleave(\n    Array.from({{ length: {n} }}, (_, segment) =>\n      _scan(table.client, {{ ...request, Segment: segment }}),\n    ),\n  )"
            )
        }
        (Operation::Scan { .. }, _) => {
            m.helpers.insert("scan");
            "_scan(table.client, request)".to_string()
        }
        (_, Some(shards)) => {
            m.helpers.insert("query");
            let streams = format!(
                "Array.from({{ length: {} }}, (_, shard) =>\n      _query(table.client, request(String(shard))),\n    )",
                shards.count
            );
            match &read.sort_key {
                Some(key) => {
                    m.helpers.insert("merge");
                    format!(
                        "_merge(\n    {streams},\n    {},\n    {},\n  )",
                        quote(&key.name),
                        read.forward
                    )
                }
                None => {
                    m.helpers.insert("interleave");
                    format!("_interleave({streams})")
                }
            }
        }
        _ => {
            m.helpers.insert("query");
            "_query(table.client, request)".to_string()
        }
    };
    m.line(&format!("  const items = {stream};"));
    if read.paginated {
        m.line("  for await (const item of items) {");
        m.line(&wrap(&format!("    yield {decode};")));
        m.line("  }");
    } else if single {
        m.helpers.insert("first");
        m.line("  const item = await _first(items);");
        conditional_return(m, &decode);
    } else {
        m.line(&format!("  const out: {element}[] = [];"));
        m.line("  for await (const item of items) {");
        m.line(&wrap(&format!("    out.push({decode});")));
        m.line("  }");
        m.line("  return out;");
    }
    m.line("}");
}

/// The value goes into the request as text (not as a boolean or bytes), or
/// a calculated shard is computed from it.
fn needs_text(read: &ReadApi, name: &str) -> bool {
    let source = read.shards.as_ref().and_then(|s| s.from.as_deref()) == Some(name);
    source
        || read
            .fills
            .iter()
            .any(|f| f.parts.iter().any(|p| matches!(p, Segment::Value(n) if n == name)) && !raw(&f.path, &f.parts))
}

/// A Boolean or Binary request value that is one parameter: the value
/// itself, not text.
fn raw(path: &[String], parts: &[Segment]) -> bool {
    matches!(path.last().map(String::as_str), Some("BOOL" | "B")) && matches!(parts, [Segment::Value(_)])
}

/// `[["ExpressionAttributeValues", ":pk", "S"], "TENANT#" + tenantIdText]`
/// for each fill.
fn fills(m: &mut Module, read: &ReadApi, locals: &Locals, from: &str) -> Vec<String> {
    let mut out = Vec::new();
    for fill in &read.fills {
        let path = fill.path.iter().map(|p| quote(p)).collect::<Vec<_>>().join(", ");
        let value = match (&fill.parts[..], raw(&fill.path, &fill.parts)) {
            ([Segment::Value(name)], true) => format!("{from}{}", access(name)),
            _ => {
                let text = concat(&fill.parts, |name| locals.get(name).to_string());
                if fill.path.last().map(String::as_str) == Some("N") {
                    m.helpers.insert("number");
                    format!("_number({text})")
                } else {
                    text
                }
            }
        };
        out.push(format!("[[{path}], {value}]"));
    }
    out
}

/// `return item === undefined ? undefined : …;`, on three lines when wide.
fn conditional_return(m: &mut Module, decode: &str) {
    let one = format!("  return item === undefined ? undefined : {decode};");
    if one.len() <= WIDTH {
        m.line(&one);
    } else {
        m.line("  return item === undefined");
        m.line("    ? undefined");
        m.line(&format!("    : {decode};"));
    }
}

/// `  params: { a: string; b: number },` wider than a line: one property a
/// line, as prettier prints a wide object type.
fn expand_params(line: &str) -> String {
    let (Some(open), Some(close)) = (line.find('{'), line.rfind('}')) else {
        return line.to_string();
    };
    if line.len() <= WIDTH || !line.trim_start().starts_with("params: ") || close < open {
        return line.to_string();
    }
    let indent: String = line.chars().take_while(|c| *c == ' ').collect();
    let mut out = format!("{}{{\n", &line[..open]);
    for property in line[open + 1..close].trim().split("; ") {
        out.push_str(&format!("{indent}  {};\n", property.trim()));
    }
    out.push_str(&format!("{indent}{}", &line[close..]));
    out
}
