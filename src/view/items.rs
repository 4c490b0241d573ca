//! The items a page shows: the samples of `dyno sample`, or the user's own
//! (read by `dyno size`'s loader), each with the entity that wrote it when
//! that can be told. Either way they are also laid out as [`Samples`], the
//! input `verify::plan` chooses a pattern's parameters from.

use serde_json::{Map, Value as Json};

use crate::check::model::{EntityId, Model};
use crate::check::sample::{self, AttrValue, Record, SampleItem, Samples, TableSamples};
use crate::size::{self, Item};
use crate::verify::judge::scalar_text;

/// Where the items come from.
pub enum Source {
    /// `dyno sample`'s generator.
    Samples(sample::Options),
    /// The user's items, each with its JSONPath in the input.
    Given(Vec<(String, Item)>),
}

/// One item as a page shows it.
#[derive(Clone, Debug)]
pub struct ViewItem {
    /// DynamoDB JSON.
    pub item: Map<String, Json>,
    /// `None`: no entity's keys fit the item.
    pub entity: Option<EntityId>,
    /// Into the entity's item shapes.
    pub shape: Option<usize>,
    /// Where it came from: `sample 3`, `$[12]`.
    pub origin: String,
}

/// Every item of every table.
pub struct Items {
    /// One list per table of the model, in model order.
    pub tables: Vec<Vec<ViewItem>>,
    /// The items with an entity, as the plans read them.
    pub samples: Samples,
    /// Items that could not be placed, and sample notes.
    pub notes: Vec<String>,
    /// What the page says the items are.
    pub described: String,
}

pub fn collect(model: &Model, source: Source) -> Items {
    match source {
        Source::Samples(options) => from_samples(model, &options),
        Source::Given(items) => from_given(model, items),
    }
}

fn from_samples(model: &Model, options: &sample::Options) -> Items {
    let samples = sample::generate(model, options);
    let mut n = 0;
    let tables = samples
        .tables
        .iter()
        .map(|table| {
            table
                .items
                .iter()
                .map(|i| {
                    n += 1;
                    ViewItem {
                        item: i.item.clone(),
                        entity: Some(i.entity),
                        shape: Some(i.shape),
                        origin: format!("sample {n}"),
                    }
                })
                .collect()
        })
        .collect();
    Items {
        tables,
        notes: samples.notes.clone(),
        samples,
        described: format!(
            "sample items (`dyno sample --per-entity {} --seed {}`)",
            options.per_entity, options.seed
        ),
    }
}

fn from_given(model: &Model, given: Vec<(String, Item)>) -> Items {
    let count = given.len();
    let mut tables: Vec<Vec<ViewItem>> = vec![Vec::new(); model.tables.len()];
    let mut samples = Samples {
        records: Vec::new(),
        tables: model
            .table_ids()
            .map(|(table, _)| TableSamples {
                table,
                items: Vec::new(),
            })
            .collect(),
        notes: Vec::new(),
    };
    let mut notes = Vec::new();
    for (path, item) in given {
        let matches = size::identify(model, &item);
        let Some(table) = size::table_of(model, &matches) else {
            notes.push(format!(
                "{path}: not shown: no entity's keys fit it, and the schema has several tables"
            ));
            continue;
        };
        if matches.len() > 1 {
            let names: Vec<&str> = matches
                .iter()
                .map(|m| model.entity(m.entity).name.text.as_str())
                .collect();
            notes.push(format!(
                "{path}: the keys of several entities fit it ({}); shown as the first",
                names.join(", ")
            ));
        }
        let json = item.dynamodb_json();
        if let Some(m) = matches.first() {
            samples.records.push(record(model, m.entity, m.shape, &item));
            samples.tables[table.index()].items.push(SampleItem {
                record: samples.records.len() - 1,
                entity: m.entity,
                shape: m.shape,
                item: json.clone(),
            });
        }
        tables[table.index()].push(ViewItem {
            item: json,
            entity: matches.first().map(|m| m.entity),
            shape: matches.first().map(|m| m.shape),
            origin: path,
        });
    }
    Items {
        tables,
        samples,
        notes,
        described: format!("{count} given item{}", if count == 1 { "" } else { "s" }),
    }
}

/// The entity's attribute values in an item: a hole's value where a key
/// template holds the attribute (the text as keys spell it, `000042` for
/// `int(pad 6)`), else the item's own attribute of that name.
fn record(model: &Model, entity: EntityId, shape: usize, item: &Item) -> Record {
    let declared = model.entity(entity);
    let mut from_keys: Vec<(String, String)> = Vec::new();
    for key in &declared.items[shape].keys {
        let Some(text) = item.get(&key.attr).and_then(key_text) else {
            continue;
        };
        if let Some(holes) = key.template.captures(&text) {
            from_keys.extend(
                holes
                    .into_iter()
                    .map(|(name, value)| (name.text.to_string(), value.to_string())),
            );
        }
    }
    let values = declared
        .attributes
        .iter()
        .filter_map(|attribute| {
            let name = &attribute.name.text;
            let stored = item.get(name).map(size::AttrValue::dynamodb_json);
            let text = from_keys
                .iter()
                .find(|(hole, _)| hole == name)
                .map(|(_, v)| v.clone())
                .or_else(|| stored.as_ref().map(scalar_text))?;
            let stored = stored.unwrap_or_else(|| serde_json::json!({ "S": text }));
            Some((name.to_string(), AttrValue { text, stored }))
        })
        .collect();
    Record { entity, values }
}

/// A key attribute's text: a string's, a number as written.
fn key_text(value: &size::AttrValue) -> Option<String> {
    match value {
        size::AttrValue::S(s) | size::AttrValue::N(s) => Some(s.clone()),
        _ => None,
    }
}
