//! The example item a hover shows for an entity: one typical value per
//! attribute, the same every time. [`super::generate`] starts its
//! date, time, decimal and padded-number streams at these values; its other
//! values are drawn from the seed and its near-misses, which would only
//! distract in an example.

use serde_json::{Map, Value as Json, json};

use super::{AttrValue, fill_template};
use crate::check::model::{AttrType, Entity, EpochUnit, ItemShape, Zone};

pub(super) const EXAMPLE_INT: u64 = 42;
pub(super) const EXAMPLE_DECIMAL: &str = "19.99";
pub(super) const EXAMPLE_DATE: &str = "2026-03-14";
pub(super) const EXAMPLE_DATETIME: &str = "2026-03-14T09:26:53Z";
/// [`EXAMPLE_DATETIME`] in epoch seconds.
pub(super) const EXAMPLE_EPOCH: u64 = 1_773_480_413;

/// The typical value of an attribute of type `ty` named `name`.
pub fn example_value(ty: &AttrType, name: &str) -> AttrValue {
    let s = |text: String| AttrValue {
        stored: json!({ "S": text }),
        text,
    };
    match ty {
        AttrType::String => s(format!("{name} text")),
        AttrType::Id => s("a1b2c3".into()),
        AttrType::Int { pad } => AttrValue {
            // Padding exists only inside keys; the attribute holds the number.
            text: format!("{EXAMPLE_INT:0>width$}", width = pad.unwrap_or(0) as usize),
            stored: json!({ "N": EXAMPLE_INT.to_string() }),
        },
        AttrType::Decimal => AttrValue {
            text: EXAMPLE_DECIMAL.into(),
            stored: json!({ "N": EXAMPLE_DECIMAL }),
        },
        AttrType::Bool => AttrValue {
            text: "true".into(),
            stored: json!({ "BOOL": true }),
        },
        AttrType::Date => s(EXAMPLE_DATE.into()),
        AttrType::DateTime(Zone::Utc) => s(EXAMPLE_DATETIME.into()),
        AttrType::DateTime(Zone::Local) => s(EXAMPLE_DATETIME.trim_end_matches('Z').into()),
        AttrType::DateTime(Zone::Offset) => s(EXAMPLE_DATETIME.replace('Z', "+02:00")),
        AttrType::Epoch(unit) => {
            let text = match unit {
                EpochUnit::Seconds => EXAMPLE_EPOCH.to_string(),
                EpochUnit::Millis => format!("{EXAMPLE_EPOCH}000"),
            };
            AttrValue {
                stored: json!({ "N": text }),
                text,
            }
        }
        AttrType::Uuid => s("6f1c2b8e-3d4a-4f5b-9c6d-7e8f9a0b1c2d".into()),
        AttrType::Ulid => s("01JQ8Z5X7M3K9V2N4P6R8T0W1Y".into()),
        AttrType::Enum(values) => s(values.first().cloned().unwrap_or_default()),
        AttrType::Shard { .. } => AttrValue {
            text: "0".into(),
            stored: json!({ "N": "0" }),
        },
        AttrType::Binary => AttrValue {
            text: "AAEC".into(),
            stored: json!({ "B": "AAEC" }),
        },
        AttrType::List => AttrValue {
            text: String::new(),
            stored: json!({ "L": [] }),
        },
        AttrType::Map => AttrValue {
            text: String::new(),
            stored: json!({ "M": {} }),
        },
    }
}

/// One example item in DynamoDB JSON: the written keys first (as strings,
/// holes filled with the typical values, an unknown hole left as `{name}`),
/// then every attribute.
pub fn example_item(entity: &Entity, item: &ItemShape) -> Json {
    let mut out = Map::new();
    for key in item.keys.iter().filter(|k| !k.implicit) {
        let text = fill_template(&key.template, |name, attr| {
            Some(match attr {
                Some(i) => example_value(&entity.attributes[i].ty, &entity.attributes[i].name.text).text,
                None => format!("{{{name}}}"),
            })
        });
        out.insert(key.attr.to_string(), json!({ "S": text.unwrap_or_default() }));
    }
    for attribute in &entity.attributes {
        out.insert(
            attribute.name.text.to_string(),
            example_value(&attribute.ty, &attribute.name.text).stored,
        );
    }
    Json::Object(out)
}
