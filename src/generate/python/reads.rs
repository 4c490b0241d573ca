//! Per access pattern: its request as a constant (`dyno explain`'s), where
//! the caller's values go, and the typed function that sends it.

use super::layout::{self, Py, atom, call, string};
use super::{
    constant, decoder, def, docstring, field_spec, identifier, part_type, py_type, record_type, shapes_constant,
};
use crate::generate::api::{Operation, ReadApi};
use crate::generate::names;
use crate::syntax::ast::KeyType;

/// The type the request constant is checked against.
pub fn request_type(read: &ReadApi) -> &'static str {
    match read.operation {
        Operation::Query => "QueryInputTypeDef",
        Operation::GetItem => "GetItemInputTypeDef",
        Operation::BatchGetItem => "BatchGetItemInputTypeDef",
        // `"Segment": "{segment}"` is filled per worker, not typed yet.
        Operation::Scan { segments: Some(_) } => "Mapping[str, Any]",
        Operation::Scan { segments: None } => "ScanInputTypeDef",
    }
}

/// The name of the request constant of a pattern.
pub fn request_constant(pattern: &str) -> String {
    format!("{}_REQUEST", constant(pattern))
}

pub fn read(read: &ReadApi) -> String {
    let name = super::read_function(&read.name);
    let upper = constant(&read.name);
    let request = request_constant(&read.name);
    let (fills, params) = (format!("_{upper}_FILLS"), format!("_{upper}_PARAMS"));
    let partial = read.projected.is_some();
    let row = |entity: &str| {
        if partial {
            part_type(entity)
        } else {
            record_type(entity)
        }
    };
    let mut out = String::new();
    // The type of what one item decodes to.
    let row_type = if read.returns.len() == 1 {
        row(&read.returns[0].entity)
    } else {
        let alias = format!("{}Row", names::pascal(&read.name));
        let tuples: Vec<String> = read
            .returns
            .iter()
            .map(|r| format!("tuple[Literal[{}], {}]", layout::str_literal(&r.entity), row(&r.entity)))
            .collect();
        let flat = format!("{alias} = {}\n", tuples.join(" | "));
        let body = tuples.join(" | ");
        if flat.trim_end().chars().count() <= layout::WIDTH {
            out.push_str(&flat);
        } else if body.chars().count() + 4 <= layout::WIDTH {
            out.push_str(&format!("{alias} = (\n    {body}\n)\n"));
        } else {
            out.push_str(&format!("{alias} = (\n    {}\n)\n", tuples.join("\n    | ")));
        }
        out.push_str("\n\n");
        alias
    };
    let batch = read.operation == Operation::BatchGetItem;
    let key_type = format!("{}Key", names::pascal(&read.name));
    if batch {
        let fields: Vec<(String, String)> = read.params.iter().map(|p| (p.name.clone(), py_type(&p.ty))).collect();
        let docs = format!("The values of one key `{name}` reads.");
        out.push_str(&super::typed_dict(&key_type, &fields, true, Some(&docs)));
        out.push_str("\n\n");
    }
    out.push_str(&layout::assign(
        0,
        &format!("{request}: Final[{}]", request_type(read)),
        &layout::json(&read.request),
    ));
    let paths = Py::Tuple(
        read.fills
            .iter()
            .map(|f| Py::Tuple(f.path.iter().map(|p| string(p)).collect()))
            .collect(),
    );
    out.push_str(&layout::assign(0, &format!("{fills}: Final[_Paths]"), &paths));
    let specs = Py::Tuple(
        read.params
            .iter()
            .map(|p| {
                let pattern = p.key_pattern.as_deref();
                field_spec(&p.name, &p.ty, false, pattern)
            })
            .collect(),
    );
    out.push_str(&layout::assign(0, &format!("{params}: Final[_Fields]"), &specs));
    // The signature.
    let mut signature = vec!["client: DynamoDBClient".to_string()];
    if batch {
        signature.push(format!("keys: Iterable[{key_type}]"));
    }
    signature.push("*".into());
    if !batch {
        for param in &read.params {
            signature.push(format!("{}: {}", identifier(&param.name), py_type(&param.ty)));
        }
    }
    signature.push("table_name: str = TABLE_NAME".into());
    let many = read.paginated || batch || (read.returns.len() > 1 && read.operation == Operation::Query);
    let returns = if read.paginated {
        format!("Iterator[{row_type}]")
    } else if many {
        format!("list[{row_type}]")
    } else {
        format!("{row_type} | None")
    };
    out.push_str("\n\n");
    out.push_str(&def(&name, &signature, &returns));
    if let Some(docs) = &read.docs {
        out.push_str(&docstring(4, docs));
    }
    // The caller's values as key text, and a calculated shard.
    let values = |args: Vec<Py>| call("_texts", vec![atom(&params), Py::Tuple(args)]);
    let fill = |values: &str| {
        call(
            "_fill",
            vec![atom(&request), atom(&fills), atom(values), atom("table_name")],
        )
    };
    if batch {
        out.push_str("    wanted: list[dict[str, str]] = []\n    for key in keys:\n");
        let args = read
            .params
            .iter()
            .map(|p| atom(format!("key[{}]", layout::str_literal(&p.name))))
            .collect();
        out.push_str(&layout::statement(8, "", &call("wanted.append", vec![values(args)])));
    } else {
        let args = read.params.iter().map(|p| atom(identifier(&p.name))).collect();
        out.push_str(&layout::assign(4, "values", &values(args)));
    }
    let shards = read.shards.as_ref();
    if let Some(shards) = shards
        && let Some(from) = &shards.from
    {
        let text = format!("values[{}]", layout::str_literal(from));
        out.push_str(&layout::assign(
            4,
            &format!("values[{}]", layout::str_literal(&shards.attr)),
            &call("str", vec![atom(format!("_fnv1a({text}) % {}", shards.count))]),
        ));
    }
    let items = match read.operation {
        Operation::Query => match shards {
            Some(s) if s.from.is_none() => {
                let per_shard = call(
                    "_shards",
                    vec![
                        atom("client"),
                        atom(&request),
                        atom(&fills),
                        atom("values"),
                        atom("table_name"),
                        string(&s.attr),
                        atom(s.count.to_string()),
                    ],
                );
                let (attr, ty) = match &read.sort_key {
                    Some(k) => (string(&k.name), key_type_name(k.ty)),
                    None => (atom("None"), "S"),
                };
                call(
                    "_merge",
                    vec![
                        per_shard,
                        attr,
                        string(ty),
                        atom(if read.forward { "True" } else { "False" }),
                    ],
                )
            }
            _ => call("_query", vec![atom("client"), fill("values")]),
        },
        Operation::GetItem => call("_get", vec![atom("client"), fill("values")]),
        Operation::BatchGetItem => call(
            "_batch_get",
            vec![
                atom("client"),
                atom(&request),
                atom(&fills),
                atom("wanted"),
                atom("table_name"),
            ],
        ),
        Operation::Scan { segments: Some(_) } => call("_segments", vec![atom("client"), fill("values")]),
        Operation::Scan { segments: None } => call("_scan", vec![atom("client"), fill("values")]),
    };
    out.push_str(&layout::assign(4, "items", &items));
    // Each item: identified by its keys, decoded.
    let candidates = Py::Tuple(
        read.returns
            .iter()
            .map(|r| Py::Tuple(vec![string(&r.entity), atom(shapes_constant(&r.entity))]))
            .collect(),
    );
    let (lead, emit_indent) = if read.paginated {
        ("yield ", 8)
    } else if many {
        ("rows.append(", 8)
    } else {
        ("return ", 8)
    };
    if many && !read.paginated {
        out.push_str(&format!("    rows: list[{row_type}] = []\n"));
    }
    out.push_str("    for item in items:\n");
    let emit = |value: Py, indent: usize| -> String {
        if lead == "rows.append(" {
            layout::statement(indent, "", &call("rows.append", vec![value]))
        } else {
            layout::statement(indent, lead, &value)
        }
    };
    let which = call("_which", vec![atom("item"), candidates]);
    if read.returns.len() == 1 {
        out.push_str(&layout::statement(8, "", &which));
        let decoded = call(&decoder(&read.returns[0].entity, partial), vec![atom("item")]);
        out.push_str(&emit(decoded, emit_indent));
    } else {
        out.push_str(&layout::assign(8, "entity", &which));
        let last = read.returns.len() - 1;
        for (i, r) in read.returns.iter().enumerate() {
            let test = if i == last {
                "        else:\n".to_string()
            } else {
                let keyword = if i == 0 { "if" } else { "elif" };
                format!("        {keyword} entity == {}:\n", layout::str_literal(&r.entity))
            };
            out.push_str(&test);
            let decoded = call(&decoder(&r.entity, partial), vec![atom("item")]);
            out.push_str(&emit(Py::Tuple(vec![string(&r.entity), decoded]), 12));
        }
    }
    if many && !read.paginated {
        out.push_str("    return rows\n");
    } else if !read.paginated {
        out.push_str("    return None\n");
    }
    out
}

fn key_type_name(ty: KeyType) -> &'static str {
    match ty {
        KeyType::String => "S",
        KeyType::Number => "N",
        KeyType::Binary => "B",
    }
}
