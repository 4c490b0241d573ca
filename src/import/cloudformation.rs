//! `dyno import cloudformation`: every `AWS::DynamoDB::Table` and
//! `AWS::DynamoDB::GlobalTable` of a template (YAML or JSON) as a table of
//! a schema skeleton — keys, indexes, projections and Time to Live — with
//! a TODO for the entities, which a template does not describe.
//!
//! YAML's short forms of the intrinsic functions (`!Ref X`, `!Sub ...`,
//! `!GetAtt a.b`) are read as their JSON forms (`{"Ref": "X"}`,
//! `{"Fn::Sub": ...}`), so both formats are read by one function; a value
//! that is a function is not known before deployment and becomes a TODO.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value as Json};

use super::entity::usable;
use super::workbench::projection;
use super::{Draft, ImportError, IndexDraft, KeyDraft, TableDraft};
use crate::syntax::ast::KeyType;

const TABLE_TYPES: [&str; 2] = ["AWS::DynamoDB::Table", "AWS::DynamoDB::GlobalTable"];

/// The schema text for the template in `text`; `source` names it in
/// errors and in the header. JSON when `json`, else YAML.
pub fn import(text: &str, source: &str, json: bool) -> Result<String, ImportError> {
    draft(text, source, json)?.render()
}

pub fn draft(text: &str, source: &str, json: bool) -> Result<Draft, ImportError> {
    let template: Json = if json {
        serde_json::from_str(text).map_err(|e| ImportError(format!("{source}: not valid JSON: {e}")))?
    } else {
        // YAML 1.1 reads `N` (the Number type letter) as false; templates
        // mean the letter, so only `true` and `false` are booleans. Errors
        // are one line, as the JSON ones.
        let options = serde_saphyr::options! { strict_booleans: true, with_snippet: false };
        serde_saphyr::from_str_with_options::<Node>(text, options)
            .map_err(|e| ImportError(format!("{source}: not valid YAML: {e}")))?
            .0
    };
    let Some(resources) = template.get("Resources").and_then(Json::as_object) else {
        return Err(ImportError(format!(
            "{source}: no `Resources` mapping: not a CloudFormation template"
        )));
    };
    let mut draft = Draft::default();
    draft
        .header
        .push(format!("Imported from {source} by `dyno import cloudformation`."));
    draft.header.push(
        "A template describes tables, not the items in them: describe each entity, then the access patterns.".into(),
    );
    for (logical_id, resource) in resources {
        let kind = resource.get("Type").and_then(Json::as_str).unwrap_or("");
        if !TABLE_TYPES.contains(&kind) {
            continue;
        }
        let properties = resource.get("Properties").cloned().unwrap_or(Json::Object(Map::new()));
        match table(logical_id, kind, &properties) {
            Ok(table) => {
                draft.footer.push(format!(
                    "describe the entities stored in `{}`: `entity Name {{ attributes  key templates }}`",
                    table.name
                ));
                draft.tables.push(table);
            }
            Err(why) => draft
                .footer
                .push(format!("{kind} `{logical_id}` is not imported: {why}")),
        }
    }
    if draft.tables.is_empty() {
        let why = draft.footer.first().map(|why| format!(" ({why})")).unwrap_or_default();
        return Err(ImportError(format!(
            "{source}: no {} that can be imported{why}",
            TABLE_TYPES.join(" or ")
        )));
    }
    draft.footer.push(
        "write the access patterns, one `pattern name(known values) -> Entity[]` each: dyno checks that each one is a single Query"
            .into(),
    );
    Ok(draft)
}

/// A property that is a plain string, or why it is not.
fn plain<'a>(json: &'a Json, what: &str) -> Result<&'a str, String> {
    match json {
        Json::String(s) if usable(s) => Ok(s),
        Json::String(s) => Err(format!("{what} {s:?} cannot be written in a schema")),
        Json::Object(map) if map.len() == 1 => Err(format!(
            "{what} is `{}`, known only when the stack is deployed",
            map.keys().next().map_or("", String::as_str)
        )),
        other => Err(format!("{what} is not a string: {other}")),
    }
}

fn list<'a>(properties: &'a Json, field: &str) -> Result<Vec<&'a Json>, String> {
    match properties.get(field) {
        None => Ok(Vec::new()),
        Some(Json::Array(items)) => Ok(items.iter().collect()),
        Some(other) => Err(format!(
            "`{field}` is not a list: {}",
            plain(other, field).err().unwrap_or_default()
        )),
    }
}

/// `KeySchema` with the types of `AttributeDefinitions`: the partition key
/// and the sort key.
fn key_schema(
    json: &Json,
    definitions: &[(String, KeyType)],
    todos: &mut Vec<String>,
) -> Result<(KeyDraft, Option<KeyDraft>), String> {
    let mut partition = None;
    let mut sort = None;
    for element in list(json, "KeySchema")? {
        let name = plain(
            element.get("AttributeName").unwrap_or(&Json::Null),
            "a key's `AttributeName`",
        )?;
        let ty = definitions
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, t)| *t)
            .unwrap_or_else(|| {
                todos.push(format!(
                    "`{name}` is not in `AttributeDefinitions`: taken as a string key"
                ));
                KeyType::String
            });
        let key = KeyDraft {
            name: name.to_string(),
            ty,
        };
        let slot = match element.get("KeyType").and_then(Json::as_str) {
            Some("HASH") => &mut partition,
            Some("RANGE") => &mut sort,
            other => return Err(format!("key `{name}` has the `KeyType` {other:?}, not HASH or RANGE")),
        };
        // A GSI key of several attributes (up to four per key since
        // November 2025) has no dyno equivalent.
        if slot.replace(key).is_some() {
            return Err("a key of several attributes (multi-attribute keys): dyno has none".into());
        }
    }
    Ok((partition.ok_or("its `KeySchema` has no HASH key")?, sort))
}

fn table(logical_id: &str, kind: &str, properties: &Json) -> Result<TableDraft, String> {
    let mut todos = Vec::new();
    let name = match properties.get("TableName").map(|n| plain(n, "`TableName`")) {
        Some(Ok(name)) => name.to_string(),
        Some(Err(why)) => {
            todos.push(format!("{why}: the table is named after its logical id `{logical_id}`"));
            logical_id.to_string()
        }
        None => {
            todos.push(format!(
                "no `TableName`: CloudFormation generates the name; the table is named after its logical id `{logical_id}`"
            ));
            logical_id.to_string()
        }
    };
    let mut definitions = Vec::new();
    for definition in list(properties, "AttributeDefinitions")? {
        let name = plain(
            definition.get("AttributeName").unwrap_or(&Json::Null),
            "an `AttributeName`",
        )?;
        let ty = match definition.get("AttributeType").and_then(Json::as_str) {
            Some("S") => KeyType::String,
            Some("N") => KeyType::Number,
            Some("B") => KeyType::Binary,
            other => return Err(format!("attribute `{name}` has the type {other:?}, not S, N or B")),
        };
        definitions.push((name.to_string(), ty));
    }
    let (partition, sort) = key_schema(properties, &definitions, &mut todos)?;
    let mut indexes = Vec::new();
    for (field, local) in [("GlobalSecondaryIndexes", false), ("LocalSecondaryIndexes", true)] {
        for index in list(properties, field)? {
            let mut index_todos = Vec::new();
            let name = plain(index.get("IndexName").unwrap_or(&Json::Null), "an `IndexName`")?;
            let (index_partition, index_sort) = match key_schema(index, &definitions, &mut index_todos) {
                Ok(keys) => keys,
                Err(why) => {
                    todos.push(format!("index `{name}` is not imported: {why}"));
                    continue;
                }
            };
            let projection = projection(index.get("Projection"), &mut index_todos);
            indexes.push(IndexDraft {
                name: name.to_string(),
                local,
                partition: index_partition,
                sort: index_sort,
                projection,
                todos: index_todos,
            });
        }
    }
    let ttl = time_to_live(properties.get("TimeToLiveSpecification"), &mut todos);
    if kind == "AWS::DynamoDB::GlobalTable" {
        todos.push("a global table: dyno checks one Region's table; its replicas are not imported".into());
    }
    Ok(TableDraft {
        name,
        todos,
        partition,
        sort,
        indexes,
        ttl,
    })
}

/// The `ttl` attribute of an enabled `TimeToLiveSpecification`.
fn time_to_live(json: Option<&Json>, todos: &mut Vec<String>) -> Option<String> {
    let json = json?;
    let attribute = json
        .get("AttributeName")
        .map(|a| plain(a, "the Time to Live `AttributeName`"));
    match (json.get("Enabled"), attribute) {
        (Some(Json::Bool(true)), Some(Ok(attribute))) => Some(attribute.to_string()),
        (Some(Json::Bool(false)), Some(Ok(attribute))) => {
            todos.push(format!("Time to Live on `{attribute}` is disabled: no `ttl` written"));
            None
        }
        (_, Some(Err(why))) => {
            todos.push(format!("{why}: no `ttl` written"));
            None
        }
        (enabled, _) => {
            todos.push(format!(
                "a `TimeToLiveSpecification` whose `Enabled` is {} is not imported",
                enabled.map_or("missing".into(), Json::to_string)
            ));
            None
        }
    }
}

/// A YAML node as the JSON form of the template: a tagged node
/// (`!Ref X`) becomes the intrinsic function's object (`{"Ref": "X"}`).
struct Node(Json);

/// The node's value without its tag.
struct Untagged(Json);

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let serde_saphyr::Tagged(Untagged(value), tag) = Deserialize::deserialize(deserializer)?;
        Ok(Node(match tag.as_deref().and_then(|t| t.strip_prefix('!')) {
            // `!!str` and the other core tags arrive resolved (`tag:yaml.org,2002:str`).
            Some(name) if !name.is_empty() && !name.starts_with('!') => {
                let function = match name {
                    "Ref" | "Condition" => name.to_string(),
                    _ => format!("Fn::{name}"),
                };
                let mut map = Map::new();
                map.insert(function, value);
                Json::Object(map)
            }
            _ => value,
        }))
    }
}

impl<'de> Deserialize<'de> for Untagged {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(NodeVisitor)
    }
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Untagged;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a YAML value")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Untagged, E> {
        Ok(Untagged(Json::Bool(v)))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Untagged, E> {
        Ok(Untagged(Json::from(v)))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Untagged, E> {
        Ok(Untagged(Json::from(v)))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Untagged, E> {
        Ok(Untagged(
            serde_json::Number::from_f64(v).map_or(Json::Null, Json::Number),
        ))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Untagged, E> {
        Ok(Untagged(Json::String(v.to_string())))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Untagged, E> {
        Ok(Untagged(Json::Null))
    }

    fn visit_none<E: de::Error>(self) -> Result<Untagged, E> {
        Ok(Untagged(Json::Null))
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Untagged, D::Error> {
        Node::deserialize(deserializer).map(|n| Untagged(n.0))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Untagged, A::Error> {
        let mut out = Vec::new();
        while let Some(Node(value)) = seq.next_element()? {
            out.push(value);
        }
        Ok(Untagged(Json::Array(out)))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Untagged, A::Error> {
        let mut out = Map::new();
        while let Some((Node(key), Node(value))) = map.next_entry()? {
            let key = match key {
                Json::String(s) => s,
                other => other.to_string(),
            };
            out.insert(key, value);
        }
        Ok(Untagged(Json::Object(out)))
    }
}
