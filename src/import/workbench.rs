//! `dyno import workbench`: a NoSQL Workbench data model (the JSON its
//! "Export model" writes, and what `dyno export workbench` writes) as a
//! schema: its tables, key schemas and global indexes, one entity per
//! facet, inferred from the facet's key aliases and sample items.

use serde_json::{Map, Value as Json};

use super::entity::{self, EntitySource, usable};
use super::template::Template;
use super::{Draft, EntityDraft, ImportError, IndexDraft, KeyDraft, ProjectionDraft, TableDraft, pascal_case, unique};
use crate::syntax::ast::KeyType;

/// The schema text for the model in `text`; `source` names it in errors
/// and in the header.
pub fn import(text: &str, source: &str) -> Result<String, ImportError> {
    draft(text, source)?.render()
}

pub fn draft(text: &str, source: &str) -> Result<Draft, ImportError> {
    let model: Json = serde_json::from_str(text).map_err(|e| ImportError(format!("{source}: not valid JSON: {e}")))?;
    let Some(tables) = model.get("DataModel").and_then(Json::as_array) else {
        return Err(ImportError(format!(
            "{source}: no `DataModel` list: not a NoSQL Workbench data model"
        )));
    };
    let mut draft = Draft::default();
    let model_name = model.get("ModelName").and_then(Json::as_str).unwrap_or("");
    draft.header.push(format!(
        "Imported from {source} (NoSQL Workbench model {model_name:?}) by `dyno import workbench`."
    ));
    draft
        .header
        .push("Review each TODO: it marks what the model does not say or the samples only suggest.".into());
    let mut read = Vec::new();
    for (n, table) in tables.iter().enumerate() {
        match read_table(table) {
            Ok(t) => read.push((t, table)),
            Err(why) => draft
                .footer
                .push(format!("table {} of the model is not imported: {why}", n + 1)),
        }
    }
    if read.is_empty() {
        return Err(ImportError(format!(
            "{source}: the model has no table that can be imported"
        )));
    }
    for (table, json) in &read {
        let entities = entities(table, json, &mut draft.footer);
        for mut entity in entities {
            entity.name = unique(entity.name, |n| draft.entities.iter().any(|e| e.name == n));
            draft.entities.push(entity);
        }
    }
    draft.tables = read.into_iter().map(|(t, _)| t).collect();
    draft.footer.extend(access_patterns(&model));
    draft.footer.push(
        "write the access patterns, one `pattern name(known values) -> Entity[]` each: dyno checks that each one is a single Query"
            .into(),
    );
    Ok(draft)
}

fn text<'a>(json: &'a Json, field: &str) -> Option<&'a str> {
    json.get(field).and_then(Json::as_str)
}

fn key(json: Option<&Json>, what: &str, todos: &mut Vec<String>) -> Result<Option<KeyDraft>, String> {
    let Some(json) = json else { return Ok(None) };
    let name = text(json, "AttributeName").ok_or(format!("its {what} has no `AttributeName`"))?;
    if !usable(name) {
        return Err(format!("its {what} {name:?} cannot be written in a schema"));
    }
    let ty = match text(json, "AttributeType") {
        Some("S") => KeyType::String,
        Some("N") => KeyType::Number,
        Some("B") => KeyType::Binary,
        other => {
            todos.push(format!(
                "the model gives the key `{name}` the type {other:?}; a key is S, N or B (taken as S)"
            ));
            KeyType::String
        }
    };
    Ok(Some(KeyDraft {
        name: name.to_string(),
        ty,
    }))
}

/// The name in `field` and the `KeyAttributes` of a table or index
/// (`what`), with the TODOs about them.
fn name_and_keys(
    json: &Json,
    field: &str,
    what: &str,
) -> Result<(String, KeyDraft, Option<KeyDraft>, Vec<String>), String> {
    let name = text(json, field).ok_or(format!("it has no `{field}`"))?;
    if !usable(name) {
        return Err(format!("its name {name:?} cannot be written in a schema"));
    }
    let mut todos = Vec::new();
    let keys = json.get("KeyAttributes");
    let partition = key(keys.and_then(|k| k.get("PartitionKey")), "partition key", &mut todos)?
        .ok_or(format!("{what} `{name}` has no partition key"))?;
    let sort = key(keys.and_then(|k| k.get("SortKey")), "sort key", &mut todos)?;
    Ok((name.to_string(), partition, sort, todos))
}

fn read_table(json: &Json) -> Result<TableDraft, String> {
    let (name, partition, sort, mut todos) = name_and_keys(json, "TableName", "table")?;
    let mut indexes = Vec::new();
    for (field, local) in [("GlobalSecondaryIndexes", false), ("LocalSecondaryIndexes", true)] {
        for index in json.get(field).and_then(Json::as_array).into_iter().flatten() {
            match read_index(index, local) {
                Ok(index) => indexes.push(index),
                Err(why) => todos.push(format!("an index is not imported: {why}")),
            }
        }
    }
    Ok(TableDraft {
        name,
        todos,
        partition,
        sort,
        indexes,
        ttl: None,
    })
}

fn read_index(json: &Json, local: bool) -> Result<IndexDraft, String> {
    let (name, partition, sort, mut todos) = name_and_keys(json, "IndexName", "index")?;
    let projection = projection(json.get("Projection"), &mut todos);
    Ok(IndexDraft {
        name,
        local,
        partition,
        sort,
        projection,
        todos,
    })
}

/// An index's projection as Workbench and CloudFormation write it.
pub(super) fn projection(json: Option<&Json>, todos: &mut Vec<String>) -> ProjectionDraft {
    let Some(json) = json else { return ProjectionDraft::All };
    match text(json, "ProjectionType") {
        Some("KEYS_ONLY") => ProjectionDraft::KeysOnly,
        Some("INCLUDE") => {
            let names: Vec<String> = json
                .get("NonKeyAttributes")
                .and_then(Json::as_array)
                .into_iter()
                .flatten()
                .filter_map(Json::as_str)
                .filter(|n| usable(n))
                .map(str::to_string)
                .collect();
            if names.is_empty() {
                todos.push("an INCLUDE projection without attributes: written as keys_only".into());
                ProjectionDraft::KeysOnly
            } else {
                ProjectionDraft::Include(names)
            }
        }
        Some("ALL") | None => ProjectionDraft::All,
        Some(other) => {
            todos.push(format!("unknown projection {other:?}: written as all"));
            ProjectionDraft::All
        }
    }
}

fn items(json: Option<&Json>) -> Vec<&Map<String, Json>> {
    json.and_then(Json::as_array)
        .into_iter()
        .flatten()
        .filter_map(Json::as_object)
        .collect()
}

fn string_list(json: Option<&Json>) -> Vec<String> {
    json.and_then(Json::as_array)
        .into_iter()
        .flatten()
        .filter_map(Json::as_str)
        .map(str::to_string)
        .collect()
}

/// The text of a key attribute of an item, for matching it to a facet.
fn key_text<'a>(item: &'a Map<String, Json>, key: &str) -> Option<&'a str> {
    item.get(key).map(super::infer::sample).and_then(|s| s.text())
}

/// One entity per facet; a table without facets but with items is one
/// entity of them all. What cannot be imported is a TODO in `todos`.
fn entities(table: &TableDraft, json: &Json, todos: &mut Vec<String>) -> Vec<EntityDraft> {
    let declared = |name: &str| -> Option<String> {
        json.get("NonKeyAttributes")
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
            .find(|a| text(a, "AttributeName") == Some(name))
            .and_then(|a| text(a, "AttributeType"))
            .map(str::to_string)
    };
    let table_items = items(json.get("TableData"));
    let facets: Vec<&Json> = json
        .get("TableFacets")
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
        .collect();
    if facets.is_empty() {
        if table_items.is_empty() {
            return Vec::new();
        }
        let no_alias = |_: &str| None;
        let source = EntitySource {
            name: pascal_case(&table.name),
            table,
            items: table_items,
            listed: Vec::new(),
            declared: &declared,
            alias: &no_alias,
            todos: vec![
                "the model has no facets: this entity holds every sample item of the table; split it into one entity per item type".into(),
            ],
        };
        return match entity::entity(&source) {
            Ok(entity) => vec![entity],
            Err(why) => {
                todos.push(why);
                Vec::new()
            }
        };
    }
    let alias_of = |facet: &Json, key: &str| -> Option<String> {
        let aliases = facet.get("KeyAttributeAlias")?;
        let field = if key == table.partition.name {
            "PartitionKeyAlias"
        } else if table.sort.as_ref().is_some_and(|s| s.name == key) {
            "SortKeyAlias"
        } else {
            return None;
        };
        text(aliases, field).map(str::to_string)
    };
    // Facets without items of their own take the table's items their key
    // templates match (the layout of Workbench 3 and `dyno export`): an
    // alias with holes is a template, and beside one, any other alias but
    // the key's own name is the key's constant value (`META`).
    let matches = |facet: &Json, item: &Map<String, Json>| {
        let base: Vec<&KeyDraft> = std::iter::once(&table.partition).chain(table.sort.as_ref()).collect();
        let aliases: Vec<Option<String>> = base.iter().map(|k| alias_of(facet, &k.name)).collect();
        if !aliases.iter().flatten().any(|a| Template::parse(a).is_some()) {
            return false;
        }
        base.iter().zip(&aliases).all(|(key, alias)| {
            let value = key_text(item, &key.name);
            match alias {
                None => true,
                Some(alias) if *alias == key.name => true,
                Some(alias) => match Template::parse(alias) {
                    Some(template) => value.is_some_and(|v| template.captures(v).is_some()),
                    None => value == Some(alias.as_str()),
                },
            }
        })
    };
    let mut claimed = vec![false; table_items.len()];
    let mut out: Vec<(String, EntityDraft)> = Vec::new();
    for (n, facet) in facets.iter().enumerate() {
        let facet_name = text(facet, "FacetName").unwrap_or("");
        let mut facet_items = items(facet.get("TableData"));
        let mut facet_todos = Vec::new();
        if facet_items.is_empty() {
            for (i, item) in table_items.iter().enumerate() {
                if !claimed[i] && (facets.len() == 1 || matches(facet, item)) {
                    claimed[i] = true;
                    facet_items.push(item);
                }
            }
        }
        if facet_name.is_empty() {
            facet_todos.push(format!("facet {} of table `{}` has no name", n + 1, table.name));
        }
        let alias = |key: &str| alias_of(facet, key);
        let name = if facet_name.is_empty() {
            format!("Facet{}", n + 1)
        } else {
            pascal_case(facet_name)
        };
        let source = EntitySource {
            name,
            table,
            items: facet_items,
            listed: string_list(facet.get("NonKeyAttributes")),
            declared: &declared,
            alias: &alias,
            todos: facet_todos,
        };
        match entity::entity(&source) {
            Ok(entity) => merge_or_push(&mut out, facet_name, entity),
            Err(why) => todos.push(why),
        }
    }
    let out: Vec<EntityDraft> = out.into_iter().map(|(_, e)| e).collect();
    let unclaimed = claimed.iter().filter(|c| !**c).count();
    if unclaimed > 0 {
        todos.push(format!(
            "{unclaimed} sample items of table `{}` are in no facet (their keys match no facet's key templates): their entities are not imported",
            table.name
        ));
    }
    out
}

/// TODO lines naming the access patterns a model lists, which are not
/// imported: Workbench's access-pattern format is not documented.
fn access_patterns(model: &Json) -> Vec<String> {
    let Some(object) = model.as_object() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (field, value) in object {
        if !field.to_ascii_lowercase().contains("accesspattern") {
            continue;
        }
        let patterns = value.as_array().map(Vec::as_slice).unwrap_or_default();
        out.push(format!(
            "the model lists {} access patterns (`{field}`), which are not imported; write each as a pattern:",
            patterns.len()
        ));
        for pattern in patterns {
            let describe = ["Name", "name", "AccessPatternName", "Description", "description"]
                .iter()
                .filter_map(|f| text(pattern, f))
                .collect::<Vec<_>>()
                .join(": ");
            if !describe.is_empty() {
                out.push(format!("  {describe}"));
            }
        }
    }
    out
}

/// `dyno export workbench` writes an entity of several item shapes as
/// facets `Name`, `Name_2`, …: a facet so named, with the same attributes
/// as the facet `Name` before it, is another item shape of its entity.
fn merge_or_push(out: &mut Vec<(String, EntityDraft)>, facet: &str, entity: EntityDraft) {
    let base = facet
        .rsplit_once('_')
        .filter(|(_, n)| n.parse::<usize>().is_ok_and(|n| n >= 2))
        .map(|(base, _)| base);
    let names = |e: &EntityDraft| {
        let mut names: Vec<String> = e.attributes.iter().map(|a| a.name.clone()).collect();
        names.sort_unstable();
        names
    };
    if let Some(base) = base
        && let Some((_, first)) = out.iter_mut().find(|(name, _)| name == base)
        && names(first) == names(&entity)
    {
        if first.items.is_empty() {
            first.items.push(std::mem::take(&mut first.keys));
        }
        first.items.push(entity.keys);
        let new: Vec<String> = entity.todos.into_iter().filter(|t| !first.todos.contains(t)).collect();
        first.todos.extend(new);
        return;
    }
    out.push((facet.to_string(), entity));
}
