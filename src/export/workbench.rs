//! `dyno export workbench`: a NoSQL Workbench data model with one facet per
//! item shape and the sample items as table data.

use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value as Json, json};

use super::{projection, scalar_type};
use crate::check::Analysis;
use crate::check::model::{AccessKind, KeySchema};
use crate::check::sample::{self, Options};

fn key_attributes(access: &KeySchema) -> Json {
    let mut keys = Map::new();
    keys.insert(
        "PartitionKey".into(),
        json!({ "AttributeName": access.pk.name, "AttributeType": scalar_type(access.pk.ty) }),
    );
    if let Some(sk) = &access.sk {
        keys.insert(
            "SortKey".into(),
            json!({ "AttributeName": sk.name, "AttributeType": scalar_type(sk.ty) }),
        );
    }
    Json::Object(keys)
}

/// A NoSQL Workbench data model: each table with its keys, attributes,
/// global indexes, a facet per entity item shape (its key templates as
/// aliases) and the items of `dyno sample` as table data. Workbench models
/// have no local indexes; their sort keys are listed as attributes.
pub fn data_model(analysis: &Analysis, path: &Path, options: &Options, created: SystemTime) -> Json {
    let model = &analysis.schema.model;
    let samples = sample::generate(model, options);
    let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or("dyno").to_string();
    let now = workbench_date(created);
    let mut tables = Vec::new();
    for (t, table) in model.table_ids() {
        let Some(base) = table.base() else { continue };
        let base_keys: Vec<&str> = std::iter::once(base.pk.name.as_str())
            .chain(base.sk.as_ref().map(|k| k.name.as_str()))
            .collect();
        let mut attributes: Vec<(String, &'static str)> = Vec::new();
        let mut add = |name: &str, ty: &'static str| {
            if !base_keys.contains(&name) && !attributes.iter().any(|(n, _)| n == name) {
                attributes.push((name.to_string(), ty));
            }
        };
        for key in table.key_attributes() {
            add(&key.name, scalar_type(key.ty));
        }
        let entities: Vec<_> = model.entities.iter().filter(|e| e.table == Some(t)).collect();
        for entity in &entities {
            for attribute in &entity.attributes {
                add(&attribute.name.text, attribute.ty.stored_kind());
            }
        }
        let mut facets = Vec::new();
        for entity in &entities {
            for (n, shape) in entity.items.iter().enumerate() {
                let alias = |key: &str| {
                    shape.key(key).map(|kv| {
                        if kv.implicit {
                            key.to_string()
                        } else {
                            kv.template.lang_display()
                        }
                    })
                };
                let mut aliases = Map::new();
                aliases.insert(
                    "PartitionKeyAlias".into(),
                    json!(alias(&base.pk.name).unwrap_or_else(|| base.pk.name.clone())),
                );
                if let Some(sk) = &base.sk {
                    aliases.insert(
                        "SortKeyAlias".into(),
                        json!(alias(&sk.name).unwrap_or_else(|| sk.name.clone())),
                    );
                }
                let mut non_key: Vec<String> = shape
                    .keys
                    .iter()
                    .filter(|k| !base_keys.contains(&k.attr.as_str()))
                    .map(|k| k.attr.to_string())
                    .collect();
                for attribute in &entity.attributes {
                    let name = &attribute.name.text;
                    if !base_keys.contains(&name.as_str()) && !non_key.iter().any(|n| n == name) {
                        non_key.push(name.to_string());
                    }
                }
                let facet_name = if n == 0 {
                    entity.name.text.to_string()
                } else {
                    format!("{}_{}", entity.name.text, n + 1)
                };
                facets.push(json!({
                    "FacetName": facet_name,
                    "KeyAttributeAlias": Json::Object(aliases),
                    "TableData": [],
                    "NonKeyAttributes": non_key,
                    "DataAccess": { "MySql": {} },
                }));
            }
        }
        let gsis: Vec<Json> = table
            .access
            .iter()
            .filter(|a| a.kind == AccessKind::Gsi && !a.is_multi_attribute())
            .map(|a| {
                json!({
                    "IndexName": a.name.text,
                    "KeyAttributes": key_attributes(a),
                    "Projection": projection(&a.projection),
                })
            })
            .collect();
        let data: Vec<Json> = samples.tables[t.index()]
            .items
            .iter()
            .map(|i| Json::Object(i.item.clone()))
            .collect();
        tables.push(json!({
            "TableName": table.name.text,
            "KeyAttributes": key_attributes(base),
            "NonKeyAttributes": attributes
                .iter()
                .map(|(n, ty)| json!({ "AttributeName": n, "AttributeType": ty }))
                .collect::<Vec<_>>(),
            "TableFacets": facets,
            "GlobalSecondaryIndexes": gsis,
            "TableData": data,
            "DataAccess": { "MySql": {} },
            "BillingMode": "PAY_PER_REQUEST",
        }));
    }
    json!({
        "ModelName": name,
        "ModelMetadata": {
            "Author": "dyno",
            "DateCreated": now,
            "DateLastModified": now,
            "Description": format!("Generated by dyno export workbench from {}", path.display()),
            "AWSService": "Amazon DynamoDB",
            "Version": "3.0",
        },
        "DataModel": tables,
    })
}

/// The global indexes the model leaves out, as `table.index`: a model's
/// index has one `PartitionKey` and one `SortKey`, so it cannot say a key
/// of several attributes, and writing only the first of them would model
/// another index.
pub fn left_out(analysis: &Analysis) -> Vec<String> {
    let model = &analysis.schema.model;
    model
        .tables
        .iter()
        .flat_map(|t| {
            t.access
                .iter()
                .filter(|a| a.is_multi_attribute())
                .map(move |a| format!("{}.{}", t.name.text, a.name.text))
        })
        .collect()
}

/// `Jan 12, 2023, 10:14 AM` (UTC), as Workbench writes dates.
fn workbench_date(time: SystemTime) -> String {
    let secs = time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs()) as i64;
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Civil from days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let (hour, minute) = (rem / 3600, rem % 3600 / 60);
    let (h12, ampm) = match hour {
        0 => (12, "AM"),
        1..=11 => (hour, "AM"),
        12 => (12, "PM"),
        _ => (hour - 12, "PM"),
    };
    format!(
        "{} {day:02}, {year}, {h12:02}:{minute:02} {ampm}",
        MONTHS[(month - 1) as usize]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workbench_dates_are_in_its_format() {
        let t = UNIX_EPOCH + std::time::Duration::from_secs(1_673_518_440);
        assert_eq!(workbench_date(t), "Jan 12, 2023, 10:14 AM");
    }
}
