//! Per entity: its record type, its fields and key templates as data, and
//! its key builder, put and decoder.

use super::layout::{self, Py, atom, call, string};
use super::{
    decoder, def, docstring, field_spec, fields_constant, part_type, py_type, record_optional, record_type,
    shapes_constant, typed_dict,
};
use crate::generate::api::{EntityApi, Segment, TableApi};
use crate::syntax::ast::KeyType;

pub fn entity(table: &TableApi, entity: &EntityApi) -> String {
    let name = &entity.name;
    let record = record_type(name);
    let fields: Vec<(String, String)> = entity
        .fields
        .iter()
        .map(|f| {
            let ty = py_type(&f.ty);
            let ty = if record_optional(f) {
                format!("NotRequired[{ty}]")
            } else {
                ty
            };
            (f.name.clone(), ty)
        })
        .collect();
    let mut out = typed_dict(&record, &fields, true, entity.docs.as_deref());
    let partial = table
        .reads
        .iter()
        .any(|r| r.projected.is_some() && r.returns.iter().any(|ret| ret.entity == *name));
    if partial {
        let fields: Vec<(String, String)> = entity.fields.iter().map(|f| (f.name.clone(), py_type(&f.ty))).collect();
        let docs = format!("A {record} read from an index that projects only some of its attributes.");
        out.push_str("\n\n");
        out.push_str(&typed_dict(&part_type(name), &fields, false, Some(&docs)));
    }
    let specs = Py::Tuple(
        entity
            .fields
            .iter()
            .map(|f| field_spec(&f.name, &f.ty, f.optional, f.key_pattern.as_deref()))
            .collect(),
    );
    out.push_str("\n\n");
    out.push_str(&layout::assign(
        0,
        &format!("{}: Final[_Fields]", fields_constant(name)),
        &specs,
    ));
    let shapes = Py::Tuple(
        entity
            .shapes
            .iter()
            .map(|shape| Py::Tuple(shape.keys.iter().map(key_spec).collect()))
            .collect(),
    );
    out.push_str(&layout::assign(
        0,
        &format!("{}: Final[tuple[_Shape, ...]]", shapes_constant(name)),
        &shapes,
    ));
    let snake = crate::generate::names::snake(name);
    let (fields_c, shapes_c) = (fields_constant(name), shapes_constant(name));
    out.push_str("\n\n");
    out.push_str(&def(
        &format!("{snake}_keys"),
        &[format!("record: {record}")],
        "list[dict[str, AttributeValueTypeDef]]",
    ));
    out.push_str(&docstring(
        4,
        "Every key attribute of the items `record` writes, one dict per item\nshape; write shards drawn or computed.",
    ));
    out.push_str(&layout::statement(
        4,
        "return ",
        &call(
            "_keys",
            vec![
                atom(&fields_c),
                atom(&shapes_c),
                call("_complete", vec![atom(&fields_c), atom("record")]),
            ],
        ),
    ));
    out.push_str("\n\n");
    out.push_str(&def(
        &super::put_function(name),
        &[
            "client: DynamoDBClient".into(),
            format!("record: {record}"),
            "*".into(),
            "table_name: str = TABLE_NAME".into(),
        ],
        "None",
    ));
    out.push_str(&docstring(
        4,
        "PutItem of each item `record` writes: its keys, then each attribute.",
    ));
    out.push_str(&layout::statement(
        4,
        "",
        &call(
            "_put",
            vec![
                atom("client"),
                atom("table_name"),
                atom(&fields_c),
                atom(&shapes_c),
                atom("record"),
            ],
        ),
    ));
    for partial in [false, true].into_iter().filter(|p| !p || partial) {
        let ty = if partial { part_type(name) } else { record.clone() };
        out.push_str("\n\n");
        out.push_str(&def(
            &decoder(name, partial),
            &["item: Mapping[str, AttributeValueTypeDef]".into()],
            &ty,
        ));
        let decoded = call(
            "_decode",
            vec![
                atom(&fields_c),
                atom("item"),
                atom(if partial { "True" } else { "False" }),
            ],
        );
        out.push_str(&layout::statement(4, "return ", &call("cast", vec![atom(ty), decoded])));
    }
    out
}

/// `_Key(...)`: one key attribute of an item shape.
fn key_spec(key: &crate::generate::api::KeyBuild) -> Py {
    let ty = match key.ty {
        KeyType::String => "S",
        KeyType::Number => "N",
        KeyType::Binary => "B",
    };
    let parts = key
        .parts
        .iter()
        .map(|part| match part {
            Segment::Literal(text) => string(text),
            Segment::Value(field) => call("_Ref", vec![string(field)]),
        })
        .collect();
    call(
        "_Key",
        vec![
            string(&key.attr),
            string(ty),
            atom(if key.base { "True" } else { "False" }),
            Py::Tuple(parts),
            string(&key.matcher),
        ],
    )
}
