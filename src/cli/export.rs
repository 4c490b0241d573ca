//! `dyno export cloudformation FILE` and `dyno export workbench FILE`: the
//! schema's tables as an `AWS::DynamoDB::Table` resource each, and as a NoSQL
//! Workbench data model with one facet per item shape and sample data.

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand, ValueEnum};
use serde_json::{Map, Value as Json, json};

use super::{EXIT_ERRORS, EXIT_OK};
use crate::check::model::{AccessKind, AttrType, KeySchema, Model, Projection, Table};
use crate::check::sample::{self, DEFAULT_PER_ENTITY, DEFAULT_SEED, Options};
use crate::syntax::ast::KeyType;

#[derive(Args)]
pub struct ExportArgs {
    #[command(subcommand)]
    target: Target,
}

#[derive(Subcommand)]
enum Target {
    /// A CloudFormation template: one `AWS::DynamoDB::Table` per table.
    Cloudformation {
        /// The schema.
        #[arg(value_name = "FILE")]
        file: PathBuf,
        #[arg(long, value_enum, default_value_t = TemplateFormat::Yaml)]
        format: TemplateFormat,
    },
    /// A NoSQL Workbench data model (JSON), with sample items.
    Workbench {
        /// The schema.
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// Sample records per entity.
        #[arg(long, value_name = "N", default_value_t = DEFAULT_PER_ENTITY)]
        per_entity: usize,
        /// Sample seed.
        #[arg(long, value_name = "S", default_value_t = DEFAULT_SEED)]
        seed: u64,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum TemplateFormat {
    Yaml,
    Json,
}

pub fn run(args: &ExportArgs) -> i32 {
    let file = match &args.target {
        Target::Cloudformation { file, .. } | Target::Workbench { file, .. } => file,
    };
    let (source, analysis) = match super::analysed(file, Some("nothing exported")) {
        Ok(analysed) => analysed,
        Err(status) => return status,
    };
    let model = &analysis.schema.model;
    if !model.tables.iter().any(|t| t.base().is_some()) {
        eprintln!("error: `{}` declares no table with a key", source.display_path());
        return EXIT_ERRORS;
    }
    match &args.target {
        Target::Cloudformation { format, .. } => {
            let template = cloudformation(model, &source.display_path());
            match format {
                TemplateFormat::Json => println!("{}", serde_json::to_string_pretty(&template).unwrap()),
                TemplateFormat::Yaml => print!("{}", yaml(&template)),
            }
        }
        Target::Workbench { per_entity, seed, .. } => {
            let options = Options {
                per_entity: *per_entity,
                seed: *seed,
            };
            let document = workbench(model, &source.path, &options);
            println!("{}", serde_json::to_string_pretty(&document).unwrap());
        }
    }
    EXIT_OK
}

fn scalar_type(ty: KeyType) -> &'static str {
    match ty {
        KeyType::String => "S",
        KeyType::Number => "N",
        KeyType::Binary => "B",
    }
}

/// Every key attribute of the table and its indexes, once, in order.
fn key_definitions(table: &Table) -> Vec<Json> {
    let mut seen: Vec<&str> = Vec::new();
    let mut out = Vec::new();
    for key in table.key_attributes() {
        if !seen.contains(&key.name.as_str()) {
            seen.push(&key.name);
            out.push(json!({ "AttributeName": key.name, "AttributeType": scalar_type(key.ty) }));
        }
    }
    out
}

fn key_schema(access: &KeySchema) -> Vec<Json> {
    let mut out = vec![json!({ "AttributeName": access.pk.name, "KeyType": "HASH" })];
    if let Some(sk) = &access.sk {
        out.push(json!({ "AttributeName": sk.name, "KeyType": "RANGE" }));
    }
    out
}

fn projection(projection: &Projection) -> Json {
    match projection {
        Projection::All => json!({ "ProjectionType": "ALL" }),
        Projection::KeysOnly => json!({ "ProjectionType": "KEYS_ONLY" }),
        Projection::Include(names) => json!({ "ProjectionType": "INCLUDE", "NonKeyAttributes": names }),
    }
}

/// A logical id: the table name's letters and digits, then `Table`.
fn logical_id(name: &str, taken: &[String]) -> String {
    let base: String = name.chars().filter(char::is_ascii_alphanumeric).collect();
    let base = format!("{}Table", if base.is_empty() { "Dyno" } else { &base });
    let mut id = base.clone();
    let mut n = 2;
    while taken.contains(&id) {
        id = format!("{base}{n}");
        n += 1;
    }
    id
}

/// The CloudFormation template: one `AWS::DynamoDB::Table` per table, on
/// demand. Tables with indexes are created one after another (`DependsOn`),
/// as DynamoDB creates only one table with indexes at a time.
pub fn cloudformation(model: &Model, file: &str) -> Json {
    let mut resources = Map::new();
    let mut ids: Vec<String> = Vec::new();
    let mut previous_indexed: Option<String> = None;
    for table in model.tables.iter().filter(|t| t.base().is_some()) {
        let base = table.base().expect("filtered");
        let id = logical_id(&table.name.text, &ids);
        ids.push(id.clone());
        let mut properties = Map::new();
        properties.insert("TableName".into(), json!(table.name.text));
        properties.insert("BillingMode".into(), json!("PAY_PER_REQUEST"));
        properties.insert("AttributeDefinitions".into(), Json::Array(key_definitions(table)));
        properties.insert("KeySchema".into(), Json::Array(key_schema(base)));
        let indexes = |kind: AccessKind| -> Vec<Json> {
            table
                .access
                .iter()
                .filter(|a| a.kind == kind)
                .map(|a| {
                    json!({
                        "IndexName": a.name.text,
                        "KeySchema": key_schema(a),
                        "Projection": projection(&a.projection),
                    })
                })
                .collect()
        };
        let gsis = indexes(AccessKind::Gsi);
        let lsis = indexes(AccessKind::Lsi);
        let indexed = !gsis.is_empty() || !lsis.is_empty();
        if !gsis.is_empty() {
            properties.insert("GlobalSecondaryIndexes".into(), Json::Array(gsis));
        }
        if !lsis.is_empty() {
            properties.insert("LocalSecondaryIndexes".into(), Json::Array(lsis));
        }
        let mut resource = Map::new();
        resource.insert("Type".into(), json!("AWS::DynamoDB::Table"));
        if indexed && let Some(previous) = &previous_indexed {
            resource.insert("DependsOn".into(), json!(previous));
        }
        resource.insert("Properties".into(), Json::Object(properties));
        if indexed {
            previous_indexed = Some(id.clone());
        }
        resources.insert(id, Json::Object(resource));
    }
    json!({
        "AWSTemplateFormatVersion": "2010-09-09",
        "Description": format!("DynamoDB tables of {file} (generated by dyno export cloudformation)"),
        "Resources": Json::Object(resources),
    })
}

/// JSON as block-style YAML. Strings are plain when that is unambiguous,
/// otherwise double-quoted with JSON escapes (valid YAML).
pub fn yaml(value: &Json) -> String {
    let mut out = String::new();
    write_yaml(value, 0, &mut out);
    out
}

fn write_yaml(value: &Json, indent: usize, out: &mut String) {
    let pad = " ".repeat(indent);
    match value {
        Json::Object(fields) => {
            for (key, v) in fields {
                out.push_str(&format!("{pad}{}:", yaml_scalar(&Json::String(key.clone()))));
                write_value_after_key(v, indent, out);
            }
        }
        Json::Array(items) => {
            for item in items {
                match item {
                    Json::Object(o) if !o.is_empty() => {
                        let mut inner = String::new();
                        write_yaml(item, indent + 2, &mut inner);
                        out.push_str(&pad);
                        out.push_str("- ");
                        out.push_str(&inner[indent + 2..]);
                    }
                    Json::Array(a) if !a.is_empty() => {
                        let mut inner = String::new();
                        write_yaml(item, indent + 2, &mut inner);
                        out.push_str(&pad);
                        out.push_str("- ");
                        out.push_str(&inner[indent + 2..]);
                    }
                    _ => out.push_str(&format!("{pad}- {}\n", yaml_scalar(item))),
                }
            }
        }
        scalar => out.push_str(&format!("{pad}{}\n", yaml_scalar(scalar))),
    }
}

fn write_value_after_key(v: &Json, indent: usize, out: &mut String) {
    match v {
        Json::Object(o) if !o.is_empty() => {
            out.push('\n');
            write_yaml(v, indent + 2, out);
        }
        Json::Array(a) if !a.is_empty() => {
            out.push('\n');
            write_yaml(v, indent + 2, out);
        }
        _ => out.push_str(&format!(" {}\n", yaml_scalar(v))),
    }
}

fn yaml_scalar(value: &Json) -> String {
    match value {
        Json::String(s) => {
            let plain = s.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && s.chars().all(|c| c.is_ascii_alphanumeric() || "_-.:/".contains(c))
                && !s.ends_with(':')
                && !s.contains(": ")
                && !matches!(
                    s.to_ascii_lowercase().as_str(),
                    "y" | "n" | "yes" | "no" | "on" | "off" | "true" | "false" | "null"
                );
            if plain {
                s.clone()
            } else {
                serde_json::to_string(s).unwrap()
            }
        }
        Json::Object(o) if o.is_empty() => "{}".into(),
        Json::Array(a) if a.is_empty() => "[]".into(),
        other => other.to_string(),
    }
}

/// The DynamoDB type Workbench shows for an attribute.
fn workbench_type(ty: &AttrType) -> &'static str {
    match ty {
        AttrType::Int { .. } | AttrType::Decimal => "N",
        AttrType::Bool => "BOOL",
        AttrType::Binary => "B",
        AttrType::List => "L",
        AttrType::Map => "M",
        _ => "S",
    }
}

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
pub fn workbench(model: &Model, path: &Path, options: &Options) -> Json {
    let samples = sample::generate(model, options);
    let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or("dyno").to_string();
    let now = workbench_date(std::time::SystemTime::now());
    let mut tables = Vec::new();
    for (t, table) in model.tables.iter().enumerate() {
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
                add(&attribute.name.text, workbench_type(&attribute.ty));
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
                    .map(|k| k.attr.clone())
                    .collect();
                for attribute in &entity.attributes {
                    let name = &attribute.name.text;
                    if !base_keys.contains(&name.as_str()) && !non_key.contains(name) {
                        non_key.push(name.clone());
                    }
                }
                let facet_name = if n == 0 {
                    entity.name.text.clone()
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
            .filter(|a| a.kind == AccessKind::Gsi)
            .map(|a| {
                json!({
                    "IndexName": a.name.text,
                    "KeyAttributes": key_attributes(a),
                    "Projection": projection(&a.projection),
                })
            })
            .collect();
        let data: Vec<Json> = samples.tables[t]
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

/// `Jan 12, 2023, 10:14 AM` (UTC), as Workbench writes dates.
fn workbench_date(time: std::time::SystemTime) -> String {
    let secs = time.duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs()) as i64;
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
    fn yaml_quotes_what_would_be_misread() {
        let value = json!({
            "Version": "2010-09-09",
            "Type": "AWS::DynamoDB::Table",
            "Flag": "yes",
            "List": [{ "A": "x", "B": "z" }, "plain"],
            "Empty": [],
        });
        assert_eq!(
            yaml(&value),
            "Version: \"2010-09-09\"\nType: AWS::DynamoDB::Table\nFlag: \"yes\"\nList:\n  - A: x\n    B: z\n  - plain\nEmpty: []\n"
        );
    }

    #[test]
    fn workbench_dates_are_in_its_format() {
        let t = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_673_518_440);
        assert_eq!(workbench_date(t), "Jan 12, 2023, 10:14 AM");
    }

    #[test]
    fn attribute_definitions_are_only_key_attributes() {
        let analysis = crate::check::analyze(include_str!("../../examples/teams.dyno"));
        let template = cloudformation(&analysis.schema.model, "teams.dyno");
        let properties = &template["Resources"]["TeamsTable"]["Properties"];
        let names: Vec<&str> = properties["AttributeDefinitions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["AttributeName"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["pk", "sk", "lsi1sk"]);
        assert_eq!(
            properties["GlobalSecondaryIndexes"][0]["Projection"]["ProjectionType"],
            "INCLUDE"
        );
        assert_eq!(properties["LocalSecondaryIndexes"][0]["IndexName"], "lsi1");
    }
}
