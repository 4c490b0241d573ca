//! The page as data: each table and index as a grid of item collections,
//! every key value decoded by its entity's template, the prefix registry,
//! and for each pattern the rows its read touches — computed with
//! `dyno verify`'s plan and key-condition evaluation, never again here.

use std::collections::{BTreeMap, HashSet};

use serde_json::{Map, Value as Json};

use super::items::{Items, ViewItem};
use crate::check::Analysis;
use crate::check::describe;
use crate::check::model::{AccessId, EntityId, KeySchema, Model, Part, PatternId, Projection, TableId};
use crate::verify::judge::scalar_text;
use crate::verify::plan::{self, in_access, key_order};

/// Everything the page shows.
#[derive(Clone, Debug)]
pub struct Page {
    pub legend: Vec<Legend>,
    pub grids: Vec<Grid>,
    pub patterns: Vec<PatternView>,
    /// What the items are (`sample items …`, `12 given items`).
    pub items: String,
    pub notes: Vec<String>,
}

/// One entity in the prefix registry: its key templates on each access path.
#[derive(Clone, Debug)]
pub struct Legend {
    pub entity: EntityId,
    pub name: String,
    pub table: Option<String>,
    /// (key attribute, template as written); an index's key attribute as
    /// `gsi1.gsi1pk`.
    pub keys: Vec<(String, String)>,
}

/// The base table or one index, its items grouped by partition.
#[derive(Clone, Debug)]
pub struct Grid {
    /// `g0`: the HTML id; rows are `g0r0`, `g0r1`, …
    pub id: String,
    pub table: TableId,
    pub access: AccessId,
    /// `table Billing`, `index gsi1 of Billing`.
    pub title: String,
    pub partition_keys: Vec<String>,
    pub sort_keys: Vec<String>,
    pub partitions: Vec<Partition>,
}

/// One item collection: the items sharing a partition key value.
#[derive(Clone, Debug)]
pub struct Partition {
    pub key: Vec<KeyCell>,
    pub rows: Vec<Row>,
}

#[derive(Clone, Debug)]
pub struct Row {
    pub id: String,
    /// Into the table's items.
    pub item: usize,
    pub entity: Option<EntityId>,
    pub sort: Vec<KeyCell>,
    /// The attributes the access path holds, but for its own key.
    pub attributes: Vec<(String, String)>,
    /// The item's primary key in its table (`pk`, `sk` texts): the same item
    /// in every grid.
    pub primary: Vec<String>,
    pub origin: String,
}

/// A key value and how its entity's template reads it.
#[derive(Clone, Debug)]
pub struct KeyCell {
    pub text: String,
    /// The template's literals and hole values; `None` when the item has no
    /// entity or the template does not fit the value.
    pub decoded: Option<Vec<Segment>>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Segment {
    Literal(String),
    Hole { attr: String, value: String },
}

/// A pattern, and the rows its read touches under concrete parameters.
#[derive(Clone, Debug)]
pub struct PatternView {
    pub name: String,
    pub docs: Option<String>,
    /// The grid its read runs on.
    pub grid: Option<String>,
    /// `one Query on index gsi1`.
    pub how: String,
    /// The request as `dyno explain` prints it (values in braces).
    pub request: Option<Json>,
    pub cost: Option<String>,
    /// The values chosen for its parameters (from an item, as verify does).
    pub params: Vec<(String, String)>,
    /// Each request's key condition with those values, and the request.
    pub sent: Vec<(String, Json)>,
    /// Rows the key condition selects (DynamoDB reads them).
    pub reads: Vec<String>,
    /// Rows the read returns (after the filter): `Plan::expected`.
    pub returns: Vec<String>,
    /// Rows the pattern means (declared entities, known values holding):
    /// `Plan::matching`.
    pub means: Vec<String>,
    /// Why nothing is highlighted, or that the checker rejected it.
    pub note: Option<String>,
}

pub fn build(texts: &[&str], analysis: &Analysis, items: Items) -> Page {
    let model = &analysis.schema.model;
    let legend = model
        .entity_ids()
        .map(|(id, entity)| {
            let table = entity.table.map(|t| model.table(t));
            let mut keys = Vec::new();
            for shape in &entity.items {
                for access in table.iter().flat_map(|t| &t.access) {
                    for key in access.key_attributes() {
                        if let Some(value) = shape.key(&key.name) {
                            let attr = if access.is_index() {
                                format!("{}.{}", access.name.text, key.name)
                            } else {
                                key.name.clone()
                            };
                            keys.push((attr, value.template.text()));
                        }
                    }
                }
            }
            Legend {
                entity: id,
                name: entity.name.text.to_string(),
                table: table.map(|t| t.name.text.to_string()),
                keys,
            }
        })
        .collect();
    let grids: Vec<Grid> = model
        .table_ids()
        .filter(|(_, table)| table.base().is_some())
        .flat_map(|(t, table)| table.access_ids().map(move |(a, _)| (t, a)))
        .enumerate()
        .map(|(n, (t, a))| grid(model, format!("g{n}"), t, a, &items.tables[t.index()]))
        .collect();
    let patterns = model
        .pattern_ids()
        .map(|(id, _)| pattern(texts, analysis, &items, &grids, id))
        .collect();
    Page {
        legend,
        grids,
        patterns,
        items: items.described,
        notes: items.notes,
    }
}

fn grid(model: &Model, id: String, t: TableId, a: AccessId, items: &[ViewItem]) -> Grid {
    let table = model.table(t);
    let access = table.access(a);
    let title = if access.is_index() {
        format!("index {} of {}", access.name.text, table.name.text)
    } else {
        format!("table {}", table.name.text)
    };
    // Partitions in byte order of their key, items in Query order within.
    let mut partitions: BTreeMap<Vec<String>, Vec<usize>> = BTreeMap::new();
    for (n, item) in items.iter().enumerate().filter(|(_, i)| in_access(&i.item, access)) {
        let key = access.partition_keys().map(|k| text_of(&item.item, &k.name)).collect();
        partitions.entry(key).or_default().push(n);
    }
    let base_keys: Vec<&str> = table
        .base()
        .map(|b| b.key_attributes().map(|k| k.name.as_str()).collect())
        .unwrap_or_default();
    let mut row = 0;
    let partitions = partitions
        .into_values()
        .map(|mut members| {
            members.sort_by(|&x, &y| key_order(access, true, &items[x].item, &items[y].item));
            let first = &items[members[0]];
            let rows = members
                .iter()
                .map(|&n| {
                    let item = &items[n];
                    row += 1;
                    Row {
                        id: format!("{id}r{}", row - 1),
                        item: n,
                        entity: item.entity,
                        sort: access.sort_keys().map(|k| key_cell(model, item, &k.name)).collect(),
                        attributes: shown_attributes(access, &base_keys, &item.item),
                        primary: base_keys.iter().map(|k| text_of(&item.item, k)).collect(),
                        origin: item.origin.clone(),
                    }
                })
                .collect();
            Partition {
                key: access
                    .partition_keys()
                    .map(|k| key_cell(model, first, &k.name))
                    .collect(),
                rows,
            }
        })
        .collect();
    Grid {
        id,
        table: t,
        access: a,
        title,
        partition_keys: access.partition_keys().map(|k| k.name.clone()).collect(),
        sort_keys: access.sort_keys().map(|k| k.name.clone()).collect(),
        partitions,
    }
}

/// The text of an item's attribute (`TENANT#acme`, `42`), empty when absent.
fn text_of(item: &Map<String, Json>, attr: &str) -> String {
    item.get(attr).map(scalar_text).unwrap_or_default()
}

/// A key value, decoded by the template the item's entity writes it with.
fn key_cell(model: &Model, item: &ViewItem, attr: &str) -> KeyCell {
    let text = text_of(&item.item, attr);
    let decoded = item.entity.zip(item.shape).and_then(|(entity, shape)| {
        let template = &model.entity(entity).items[shape].key(attr)?.template;
        let holes = template.captures(&text)?;
        let mut holes = holes.into_iter();
        template
            .parts
            .iter()
            .map(|part| match part {
                Part::Literal { text, .. } => Some(Segment::Literal(text.to_string())),
                Part::Hole { .. } => holes.next().map(|(name, value)| Segment::Hole {
                    attr: name.text.to_string(),
                    value: value.to_string(),
                }),
            })
            .collect()
    });
    KeyCell { text, decoded }
}

/// The attributes an access path holds, but for its own key attributes:
/// everything on the table and on an index projecting all; the table's
/// keys and the listed attributes on one projecting some.
fn shown_attributes(access: &KeySchema, base_keys: &[&str], item: &Map<String, Json>) -> Vec<(String, String)> {
    let projected = |name: &str| match (&access.projection, access.is_index()) {
        (_, false) | (Projection::All, _) => true,
        (Projection::KeysOnly, true) => base_keys.contains(&name),
        (Projection::Include(listed), true) => base_keys.contains(&name) || listed.iter().any(|l| l == name),
    };
    item.iter()
        .filter(|(name, _)| !access.key_attributes().any(|k| k.name == **name) && projected(name))
        .map(|(name, value)| (name.clone(), shown_value(value)))
        .collect()
}

/// A value as the page prints it: a scalar's text, anything else as
/// compact plain JSON.
fn shown_value(value: &Json) -> String {
    match value.as_object().and_then(|o| o.keys().next()).map(String::as_str) {
        Some("S" | "N") => scalar_text(value),
        _ => crate::check::sample::plain(value).to_string(),
    }
}

fn pattern(texts: &[&str], analysis: &Analysis, items: &Items, grids: &[Grid], id: PatternId) -> PatternView {
    let model = &analysis.schema.model;
    let declared = model.pattern(id);
    let served = describe::served(&analysis.schema, id);
    let mut view = PatternView {
        name: declared.name.text.to_string(),
        docs: declared.docs.clone(),
        grid: None,
        how: String::new(),
        request: served.as_ref().map(|s| s.request.clone()),
        cost: served.as_ref().map(|s| s.cost.describe()),
        params: Vec::new(),
        sent: Vec::new(),
        reads: Vec::new(),
        returns: Vec::new(),
        means: Vec::new(),
        note: None,
    };
    let (resolution, checker_ok) = match crate::verify::resolution(texts, analysis, id) {
        Ok(found) => found,
        Err(reason) => {
            view.note = Some(reason);
            return view;
        }
    };
    let plan = plan::plan(model, &items.samples, id, &resolution, checker_ok);
    let table = model.table(resolution.table);
    let access = resolution.key_schema(model);
    let via = if access.is_index() {
        format!("index {}", access.name.text)
    } else {
        format!("table {}", table.name.text)
    };
    view.how = match &served {
        Some(served) => served.sentence(&via),
        None => format!("{} on {via}", resolution.read.name()),
    };
    if !checker_ok {
        view.note =
            Some("the checker rejects this pattern (see `dyno check`): its pinned query is shown as written".into());
    }
    view.params = plan.params.clone();
    view.sent = plan
        .requests()
        .iter()
        .map(|q| (q.condition(model), q.request(model, &table.name.text)))
        .collect();
    let Some(grid) = grids
        .iter()
        .find(|g| g.table == resolution.table && g.access == resolution.access)
    else {
        return view;
    };
    view.grid = Some(grid.id.clone());
    let table_items = &items.tables[resolution.table.index()];
    // The rows of `plan.matching`: sample items are the view's items with
    // an entity, in order.
    let with_entity: Vec<usize> = (0..table_items.len())
        .filter(|&n| table_items[n].entity.is_some())
        .collect();
    let meant: HashSet<usize> = plan.matching.iter().map(|&s| with_entity[s]).collect();
    for row in grid.partitions.iter().flat_map(|p| &p.rows) {
        let item = &table_items[row.item].item;
        if plan.reads_item(model, item) {
            view.reads.push(row.id.clone());
        }
        if plan.returns_item(model, &resolution, item) {
            view.returns.push(row.id.clone());
        }
        if meant.contains(&row.item) {
            view.means.push(row.id.clone());
        }
    }
    view
}
