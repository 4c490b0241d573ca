//! Example values for attributes and items, shaped by their types: what a
//! hover shows as "an example item".

use serde_json::{Map, Value as Json, json};

use crate::check::model::{AttrType, Entity, ItemShape, Part, Template};

/// A value of the attribute's type, as text.
pub fn value_text(ty: &AttrType, name: &str) -> String {
    match ty {
        AttrType::String => format!("{name} text"),
        AttrType::Id => "a1b2c3".into(),
        AttrType::Int { pad: Some(width) } => format!("{:0>width$}", 42, width = *width as usize),
        AttrType::Int { pad: None } => "42".into(),
        AttrType::Decimal => "19.99".into(),
        AttrType::Bool => "true".into(),
        AttrType::Date => "2026-03-14".into(),
        AttrType::DateTime => "2026-03-14T09:26:53Z".into(),
        AttrType::Uuid => "6f1c2b8e-3d4a-4f5b-9c6d-7e8f9a0b1c2d".into(),
        AttrType::Ulid => "01JQ8Z5X7M3K9V2N4P6R8T0W1Y".into(),
        AttrType::Enum(values) => values.first().cloned().unwrap_or_default(),
        AttrType::Binary => "AAEC".into(),
        AttrType::List | AttrType::Map => String::new(),
    }
}

fn value_json(ty: &AttrType, name: &str) -> Json {
    let text = value_text(ty, name);
    match ty {
        // The attribute holds the number; padding exists only inside keys.
        AttrType::Int { .. } => json!({ "N": "42" }),
        AttrType::Decimal => json!({ "N": text }),
        AttrType::Bool => json!({ "BOOL": true }),
        AttrType::Binary => json!({ "B": text }),
        AttrType::List => json!({ "L": [] }),
        AttrType::Map => json!({ "M": {} }),
        _ => json!({ "S": text }),
    }
}

/// A template filled with the example values.
pub fn fill(template: &Template, entity: &Entity) -> String {
    template
        .parts
        .iter()
        .map(|part| match part {
            Part::Literal { text, .. } => text.clone(),
            Part::Hole { attr: Some(i), .. } => value_text(&entity.attributes[*i].ty, &entity.attributes[*i].name.text),
            Part::Hole { name, .. } => format!("{{{}}}", name.text),
        })
        .collect()
}

/// One example item in DynamoDB JSON: the keys first, then the attributes.
pub fn item(entity: &Entity, item: &ItemShape) -> Json {
    let mut out = Map::new();
    for key in item.keys.iter().filter(|k| !k.implicit) {
        out.insert(key.attr.clone(), json!({ "S": fill(&key.template, entity) }));
    }
    for attribute in &entity.attributes {
        out.insert(
            attribute.name.text.clone(),
            value_json(&attribute.ty, &attribute.name.text),
        );
    }
    Json::Object(out)
}
