//! The end-to-end scenario of generated code (docs/generate.md, "How it is
//! tested"), one JSON document every target's driver runs: the tables to
//! create (from `dyno export cloudformation`), the records to write with
//! the generated `put` functions (`dyno sample`'s), and each read to call
//! with the parameters `dyno verify` chooses and the records it expects
//! back. Then [`compare`] judges what a driver returned.
//!
//! Values are typed as docs/generate.md's table says: strings as strings,
//! `int`/`epoch`/`shard` as integers, `decimal` as its exact text, `bool`,
//! `binary` as base64 text, `list`/`map` as plain JSON.

use serde_json::{Map, Value as Json, json};

use dyno::check::Analysis;
use dyno::check::model::{AttrType, Model};
use dyno::check::sample::{self, AttrValue, Options, Samples};
use dyno::export::cloudformation;
use dyno::generate::api::{self, Api};
use dyno::verify::plan::plan;

/// The scenario of one schema; tables are named `{prefix}{table}` on the
/// endpoint.
pub fn scenario(analysis: &Analysis, source: &str, prefix: &str) -> Json {
    let schema = &analysis.schema;
    let model = &schema.model;
    let api = api::api(source, schema);
    // More than `dyno sample`'s six per entity, so that reads over several
    // partitions (write shards) find several items to merge.
    let samples = sample::generate(
        model,
        &Options {
            per_entity: 20,
            ..Options::default()
        },
    );
    let mut tables = Vec::new();
    let template = cloudformation::template(analysis, source);
    for (_, resource) in template["Resources"].as_object().into_iter().flatten() {
        let properties = &resource["Properties"];
        let Some(name) = properties["TableName"].as_str() else {
            continue;
        };
        let mut create = Map::new();
        for field in [
            "AttributeDefinitions",
            "KeySchema",
            "GlobalSecondaryIndexes",
            "LocalSecondaryIndexes",
            "BillingMode",
        ] {
            if let Some(value) = properties.get(field) {
                create.insert(field.into(), value.clone());
            }
        }
        create.insert("TableName".into(), json!(format!("{prefix}{name}")));
        tables.push(json!({ "name": name, "endpoint_name": format!("{prefix}{name}"), "create": create }));
    }
    json!({
        "tables": tables,
        "puts": puts(model, &samples),
        "reads": reads(analysis, &api, &samples),
    })
}

/// Each record written to some table, once, in sample order.
fn puts(model: &Model, samples: &Samples) -> Vec<Json> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for table in &samples.tables {
        for item in &table.items {
            if seen.insert(item.record) {
                let record = &samples.records[item.record];
                out.push(json!({
                    "table": model.table(table.table).name.text,
                    "entity": model.entity(record.entity).name.text,
                    "record": typed_record(model, record),
                }));
            }
        }
    }
    out
}

fn reads(analysis: &Analysis, api: &Api, samples: &Samples) -> Vec<Json> {
    let schema = &analysis.schema;
    let model = &schema.model;
    let mut out = Vec::new();
    for (id, pattern) in model.pattern_ids() {
        let Some(resolution) = schema.resolution(id) else {
            continue;
        };
        let table = model.table(resolution.table);
        let Some(read) = api
            .tables
            .iter()
            .find(|t| t.name == table.name.text)
            .and_then(|t| t.reads.iter().find(|r| r.name == pattern.name.text))
        else {
            continue;
        };
        let plan = plan(model, samples, id, resolution, true);
        let mut params = Map::new();
        for param in &read.params {
            if let Some((_, text)) = plan.params.iter().find(|(name, _)| *name == param.name) {
                params.insert(param.name.clone(), typed(&param.ty, text, None));
            }
        }
        let items = &samples.tables[resolution.table.index()].items;
        // The items the pattern means that its request reads: an entity
        // that writes two items (one per side of a relation) means its
        // record once, through the item the key condition selects.
        let expected: Vec<Json> = plan
            .matching
            .iter()
            .filter(|i| plan.expected.contains(i))
            .map(|&i| {
                let record = &samples.records[items[i].record];
                json!({
                    "entity": model.entity(record.entity).name.text,
                    "record": typed_record(model, record),
                })
            })
            .collect();
        out.push(json!({
            "table": table.name.text,
            "pattern": pattern.name.text,
            "params": params,
            "expected": expected,
        }));
    }
    out
}

fn typed_record(model: &Model, record: &sample::Record) -> Json {
    let entity = model.entity(record.entity);
    let mut out = Map::new();
    for (name, value) in &record.values {
        let Some(attribute) = entity.attribute(name) else {
            continue;
        };
        out.insert(name.clone(), typed(&attribute.ty, &value.text, Some(value)));
    }
    Json::Object(out)
}

/// A value as the generated code types it, from its key text (and its
/// stored form, for the types that are not key material).
fn typed(ty: &AttrType, text: &str, stored: Option<&AttrValue>) -> Json {
    match ty {
        AttrType::Int { .. } | AttrType::Epoch(_) | AttrType::Shard { .. } => {
            text.parse::<i64>().map(Json::from).unwrap_or_else(|_| json!(text))
        }
        AttrType::Bool => json!(text == "true"),
        AttrType::Binary | AttrType::List | AttrType::Map => stored.map_or(Json::Null, |v| sample::plain(&v.stored)),
        _ => json!(text),
    }
}

/// What a driver returned for one read, against what it should have: the
/// same records, each as often, of the same entities. A returned record
/// may lack fields (an index that projects only some); every field it has
/// must equal the expected record's (numbers compared as numbers, decimals
/// as DynamoDB normalises them). `Err` says what differs.
pub fn compare(model: &Model, read: &Json, returned: &[Json]) -> Result<(), String> {
    let expected = read["expected"].as_array().cloned().unwrap_or_default();
    let mut unmatched: Vec<Json> = expected.clone();
    let mut extra = Vec::new();
    for got in returned {
        match unmatched.iter().position(|want| agrees(model, want, got)) {
            Some(i) => {
                unmatched.remove(i);
            }
            None => extra.push(got.clone()),
        }
    }
    if unmatched.is_empty() && extra.is_empty() {
        return Ok(());
    }
    Err(format!(
        "pattern {}: {} expected, {} returned; missing {}; unexpected {}",
        read["pattern"],
        expected.len(),
        returned.len(),
        serde_json::to_string(&unmatched).unwrap(),
        serde_json::to_string(&extra).unwrap()
    ))
}

fn agrees(model: &Model, want: &Json, got: &Json) -> bool {
    if want["entity"] != got["entity"] {
        return false;
    }
    let entity = want["entity"]
        .as_str()
        .and_then(|n| model.entity_ids().find(|(_, e)| e.name.text == n).map(|(_, e)| e));
    let (Some(entity), Some(got)) = (entity, got["record"].as_object()) else {
        return false;
    };
    got.iter().all(|(name, value)| {
        let wanted = &want["record"][name];
        match entity.attribute(name).map(|a| &a.ty) {
            Some(AttrType::Decimal) => match (wanted.as_str(), value.as_str()) {
                (Some(a), Some(b)) => sample::normalize_number(a) == sample::normalize_number(b),
                _ => false,
            },
            _ if value.is_null() => wanted.is_null(),
            _ => wanted == value,
        }
    })
}
