//! One entity from sample items: its attributes (types from their values)
//! and its key templates (from the shape of the key values, with holes
//! named after the attributes whose values fill them).

use serde_json::{Map, Value as Json};

use super::infer::{self, Sample, Segment, Shape};
use super::{AttributeDraft, EntityDraft, KeyDraft, Part, TableDraft, Template, camel_case, unique};
use crate::syntax::ast::KeyType;
use crate::syntax::names::is_bare;
use crate::syntax::template::is_identifier;

/// The delimiter dyno assumes (the default of `delimiter`); the samples'
/// keys are split at it.
pub const DELIMITER: &str = "#";

/// What is known of one entity before its items are read.
pub struct EntitySource<'a> {
    pub name: String,
    pub table: &'a TableDraft,
    /// The sample items, each an attribute map.
    pub items: Vec<&'a Map<String, Json>>,
    /// Attribute names the model lists for the entity, in its order.
    pub listed: Vec<String>,
    /// The DynamoDB type letter the model declares for an attribute.
    pub declared: &'a dyn Fn(&str) -> Option<String>,
    /// A key template (`USER#{userId}`) or a name (`userId`) the model
    /// gives a key attribute.
    pub alias: &'a dyn Fn(&str) -> Option<String>,
    pub todos: Vec<String>,
}

/// A name the schema can hold: not empty, on one line.
pub fn usable(name: &str) -> bool {
    !name.is_empty() && !name.chars().any(char::is_control)
}

/// The table's key attributes, base keys first, each once, with the
/// attribute it is paired with in its index (the other key of the pair).
fn key_pairs(table: &TableDraft) -> Vec<(&KeyDraft, Option<&KeyDraft>)> {
    let mut pairs: Vec<(&KeyDraft, Option<&KeyDraft>)> = vec![(&table.partition, None)];
    if let Some(sort) = &table.sort {
        pairs.push((sort, None));
    }
    for index in &table.indexes {
        pairs.push((&index.partition, index.sort.as_ref()));
        if let Some(sort) = &index.sort {
            pairs.push((sort, Some(&index.partition)));
        }
    }
    let mut seen = Vec::new();
    pairs.retain(|(key, _)| {
        let fresh = !seen.contains(&key.name);
        seen.push(key.name.clone());
        fresh
    });
    pairs
}

struct Column {
    attribute: String,
    values: Vec<Option<String>>,
    tag: Option<String>,
}

struct Builder<'a> {
    source: &'a EntitySource<'a>,
    attributes: Vec<AttributeDraft>,
    /// Each attribute's text value in each item, for naming holes, and
    /// for an attribute made for a hole, the literal text before it: two
    /// keys share such an attribute only after the same tag (`c#12345`
    /// and `o#12345` are a customer and an order).
    columns: Vec<Column>,
    keys: Vec<(String, Template)>,
    todos: Vec<String>,
    /// String keys without a template or a sample value: nothing says
    /// what they hold.
    missing: Vec<String>,
}

/// The entity, or why it cannot be written (a base key nothing describes).
pub fn entity(source: &EntitySource) -> Result<EntityDraft, String> {
    let mut builder = Builder {
        source,
        attributes: Vec::new(),
        columns: Vec::new(),
        keys: Vec::new(),
        todos: source.todos.clone(),
        missing: Vec::new(),
    };
    let pairs = key_pairs(source.table);
    let is_key = |name: &str| pairs.iter().any(|(k, _)| k.name == name);
    let mut names: Vec<String> = source.listed.clone();
    for item in &source.items {
        names.extend(item.keys().cloned());
    }
    let mut seen = Vec::new();
    names.retain(|n| {
        let fresh = !is_key(n) && !seen.contains(n);
        seen.push(n.clone());
        fresh
    });
    for name in &names {
        builder.attribute(name);
    }
    let writes = |key: &KeyDraft| {
        key.name == source.table.partition.name
            || source.table.sort.as_ref().is_some_and(|s| s.name == key.name)
            || source.listed.contains(&key.name)
            || source.items.iter().any(|i| i.contains_key(&key.name))
    };
    let mut templated = Vec::new();
    for (key, partner) in &pairs {
        if !writes(key) {
            continue;
        }
        if let Some(partner) = partner
            && !writes(partner)
        {
            builder.todos.push(format!(
                "the samples have `{}` without `{}`, so these items are in no index on it; not imported",
                key.name, partner.name
            ));
            continue;
        }
        let is_index_key =
            key.name != source.table.partition.name && source.table.sort.as_ref().is_none_or(|s| s.name != key.name);
        if !builder.plain_attribute_key(key, is_index_key) {
            templated.push(*key);
        }
    }
    // After the plain keys, whose attributes a template's holes may name.
    for key in templated {
        builder.key(key);
    }
    let is_base =
        |name: &str| name == source.table.partition.name || source.table.sort.as_ref().is_some_and(|s| s.name == name);
    if let Some(base) = builder.missing.iter().find(|m| is_base(m)) {
        let attributes: Vec<&str> = builder.attributes.iter().map(|a| a.name.as_str()).collect();
        let listed = if attributes.is_empty() {
            "it lists no attributes".to_string()
        } else {
            format!("its attributes: {}", attributes.join(", "))
        };
        return Err(format!(
            "entity `{}` is not imported: no key template and no sample value says what its `{base}` holds; write it ({listed})",
            source.name
        ));
    }
    // An index key nothing says anything of is not written, nor its partner.
    for missing in std::mem::take(&mut builder.missing) {
        builder.todos.push(format!(
            "no key template and no sample value for `{missing}`: not written, so this entity is in no index on it"
        ));
        let partners: Vec<&str> = pairs
            .iter()
            .filter(|(k, p)| k.name == missing || p.is_some_and(|p| p.name == missing))
            .flat_map(|(k, p)| std::iter::once(k.name.as_str()).chain(p.map(|p| p.name.as_str())))
            .collect();
        builder.keys.retain(|(k, _)| !partners.contains(&k.as_str()));
    }
    match source.items.len() {
        0 => builder.todos.push(
            "no sample items: the attribute types come from the model's type letters and no attribute is optional"
                .into(),
        ),
        1 => builder
            .todos
            .push("one sample item: the key templates and types come from its values alone".into()),
        _ => {}
    }
    Ok(EntityDraft {
        name: source.name.clone(),
        table: source.table.name.clone(),
        todos: builder.todos,
        attributes: builder.attributes,
        keys: builder.keys,
        items: Vec::new(),
    })
}

impl Builder<'_> {
    fn taken(&self, name: &str) -> bool {
        self.attributes.iter().any(|a| a.name == name)
    }

    fn attribute(&mut self, name: &str) {
        let items = &self.source.items;
        if !usable(name) {
            self.todos.push(format!(
                "an attribute named {name:?} cannot be written in a schema; not imported"
            ));
            return;
        }
        let samples: Vec<Sample> = items.iter().filter_map(|i| i.get(name)).map(infer::sample).collect();
        let declared = (self.source.declared)(name);
        match infer::attribute_type(&samples, declared.as_deref()) {
            Ok(inferred) => {
                let optional = !items.is_empty() && samples.len() < items.len();
                self.attributes.push(AttributeDraft {
                    name: name.to_string(),
                    ty: inferred.ty,
                    optional,
                    todo: inferred.todo,
                });
                let values = items.iter().map(|i| key_value(i, name)).collect();
                self.columns.push(Column {
                    attribute: name.to_string(),
                    values,
                    tag: None,
                });
            }
            Err(why) => self.todos.push(format!("attribute `{name}` is not imported: {why}")),
        }
    }

    /// Whether `key` is better written as a plain attribute of its name
    /// (no template): a key whose values have no literal part, or an index
    /// key only some samples have (an optional attribute: a sparse index).
    /// Then the attribute is added.
    fn plain_attribute_key(&mut self, key: &KeyDraft, is_index_key: bool) -> bool {
        let items = &self.source.items;
        let alias = (self.source.alias)(&key.name);
        if !is_bare(&key.name) || key.ty != KeyType::String || alias.as_ref().is_some_and(|a| *a != key.name) {
            return false;
        }
        let samples: Vec<Sample> = items
            .iter()
            .filter_map(|i| i.get(&key.name))
            .map(infer::sample)
            .collect();
        let values: Vec<&str> = samples.iter().filter_map(|s| s.text()).collect();
        if values.is_empty() {
            return false;
        }
        let sparse = is_index_key && samples.len() < items.len();
        let (segments, uneven) = infer::key_segments(&values, DELIMITER);
        if !sparse && (uneven || !matches!(segments.as_slice(), [Segment::Column(_)])) {
            return false;
        }
        let inferred = infer::attribute_type(&samples, Some("S")).unwrap_or_else(|why| infer::Inferred {
            ty: "string".into(),
            todo: Some(why),
        });
        self.attributes.push(AttributeDraft {
            name: key.name.clone(),
            ty: inferred.ty,
            optional: sparse,
            todo: inferred.todo,
        });
        self.columns.push(Column {
            attribute: key.name.clone(),
            values: items.iter().map(|i| key_value(i, &key.name)).collect(),
            tag: None,
        });
        true
    }

    /// A key attribute whose value is the entity's attribute of the same
    /// name (no template).
    fn plain_key(&mut self, key: &KeyDraft, values: &[Sample], todo: Option<String>) {
        let letter = match key.ty {
            KeyType::String => "S",
            KeyType::Number => "N",
            KeyType::Binary => "B",
        };
        let inferred = infer::attribute_type(values, Some(letter)).unwrap_or_else(|why| infer::Inferred {
            ty: "string".into(),
            todo: Some(why),
        });
        self.attributes.push(AttributeDraft {
            name: key.name.clone(),
            ty: inferred.ty,
            optional: false,
            todo: todo.or(inferred.todo),
        });
    }

    fn key(&mut self, key: &KeyDraft) {
        let items = &self.source.items;
        let samples: Vec<Sample> = items
            .iter()
            .filter_map(|i| i.get(&key.name))
            .map(infer::sample)
            .collect();
        let alias = (self.source.alias)(&key.name);
        if let Some(template) = alias.as_deref().and_then(Template::parse) {
            return self.aliased_key(key, template, &samples);
        }
        if key.ty != KeyType::String {
            return self.plain_key(key, &samples, None);
        }
        let values: Vec<&str> = samples.iter().filter_map(|s| s.text()).collect();
        if values.is_empty() {
            self.missing.push(key.name.clone());
            return;
        }
        if values.len() < items.len() {
            self.todos.push(format!(
                "only {} of {} samples have `{}`: dyno writes it on every item of the entity",
                values.len(),
                items.len(),
                key.name
            ));
        }
        let (segments, uneven) = infer::key_segments(&values, DELIMITER);
        if uneven {
            self.todos.push(format!(
                "the samples' `{}` values have different numbers of `{DELIMITER}`-separated parts: its template is a guess",
                key.name
            ));
        }
        let columns = segments.iter().filter(|s| matches!(s, Segment::Column(_))).count();
        let alias_name = alias.filter(|a| is_bare(a) && *a != key.name && columns == 1);
        let mut parts = Vec::new();
        let mut tag = None;
        for segment in segments {
            match segment {
                Segment::Literal(text) => {
                    tag = Some(text.clone());
                    parts.push(Part::Literal(text));
                }
                Segment::Column(column) => {
                    let name = self.hole(key, &column, tag.as_deref(), alias_name.as_deref(), uneven);
                    parts.push(Part::Hole(name));
                }
            }
        }
        self.keys.push((key.name.clone(), Template(parts)));
    }

    /// The attribute a column of key values names: an attribute whose
    /// values are the same in every item, else a new one.
    fn hole(
        &mut self,
        key: &KeyDraft,
        column: &[String],
        tag: Option<&str>,
        alias: Option<&str>,
        uneven: bool,
    ) -> String {
        let same = |values: &Vec<Option<String>>| {
            values.len() == column.len() && values.iter().zip(column).all(|(v, c)| v.as_deref() == Some(c))
        };
        let fillable = |ty: &str| !matches!(ty, "binary" | "list" | "map") && !ty.starts_with("binary(");
        let values: Vec<&str> = column.iter().map(String::as_str).collect();
        let shape = infer::shape_of(&values);
        // The same moments in every sample are one attribute whatever tag
        // precedes them; equal ids after different tags are not.
        let moment = matches!(shape, Shape::Date | Shape::Datetime | Shape::LocalDatetime);
        if let Some(found) = self.columns.iter().find(|c| {
            is_identifier(&c.attribute)
                && same(&c.values)
                && (moment || c.tag.as_deref().is_none_or(|t| t == tag.unwrap_or("")))
                && self.attributes.iter().any(|a| a.name == c.attribute && fillable(&a.ty))
        }) {
            let name = found.attribute.clone();
            self.narrow_to_id(&name, column);
            return name;
        }
        let mut inferred = infer::hole_type(shape, &values);
        if uneven {
            inferred.ty = "string".into();
        }
        let name = match alias {
            Some(alias) => alias.to_string(),
            None => {
                let stem = tag
                    .map(|t| t.trim_end_matches(DELIMITER))
                    .filter(|t| !t.is_empty())
                    .unwrap_or(&key.name);
                let suffix = match shape {
                    Shape::Date => "Date",
                    Shape::Datetime | Shape::LocalDatetime => "At",
                    _ if inferred.ty == "string" => "Value",
                    _ => "Id",
                };
                format!("{}{suffix}", camel_case(stem))
            }
        };
        // Not a key attribute's name either: an attribute so named would put
        // the entity in an index on it.
        let is_key = |n: &str| key_pairs(self.source.table).iter().any(|(k, _)| k.name == n);
        let name = unique(name, |n| self.taken(n) || is_key(n));
        self.attributes.push(AttributeDraft {
            name: name.clone(),
            ty: inferred.ty,
            optional: false,
            todo: inferred.todo,
        });
        self.columns.push(Column {
            attribute: name.clone(),
            values: column.iter().map(|c| Some(c.clone())).collect(),
            tag: Some(tag.unwrap_or_default().to_string()),
        });
        name
    }

    /// A `string` attribute that fills a hole, whose sample values are never
    /// empty and never contain the delimiter, is an `id` (the type a hole
    /// infers for an attribute of its own).
    fn narrow_to_id<S: AsRef<str>>(&mut self, name: &str, values: &[S]) {
        let id_like = !values.is_empty()
            && values
                .iter()
                .all(|v| !v.as_ref().is_empty() && !v.as_ref().contains(DELIMITER));
        if let Some(attribute) = self.attributes.iter_mut().find(|a| a.name == name)
            && attribute.ty == "string"
            && attribute.todo.is_none()
            && id_like
        {
            attribute.ty = "id".into();
        }
    }

    /// A key whose template the model spells out as its alias.
    fn aliased_key(&mut self, key: &KeyDraft, template: Template, samples: &[Sample]) {
        let values: Vec<&str> = samples.iter().filter_map(|s| s.text()).collect();
        let captures: Vec<Vec<String>> = values.iter().filter_map(|v| template.captures(v)).collect();
        let mut hole = 0;
        for part in &template.0 {
            let Part::Hole(name) = part else { continue };
            let column: Vec<&str> = captures.iter().map(|c| c[hole].as_str()).collect();
            hole += 1;
            if self.taken(name) {
                self.narrow_to_id(name, &column);
                continue;
            }
            let inferred = if key.ty != KeyType::String {
                let numeric: Vec<Sample> = column.iter().map(|v| Sample::N(v)).collect();
                infer::attribute_type(&numeric, Some("N")).unwrap_or_else(|_| infer::hole_type(Shape::Text, &[]))
            } else if column.is_empty() {
                infer::Inferred {
                    ty: "id".into(),
                    todo: Some("no sample values: check the type".into()),
                }
            } else {
                infer::hole_type(infer::shape_of(&column), &column)
            };
            self.attributes.push(AttributeDraft {
                name: name.clone(),
                ty: inferred.ty,
                optional: false,
                todo: inferred.todo,
            });
        }
        self.keys.push((key.name.clone(), template));
    }
}

/// The text of an item's attribute as a key holds it (strings, numbers).
fn key_value(item: &Map<String, Json>, name: &str) -> Option<String> {
    item.get(name).and_then(|v| infer::sample(v).text().map(str::to_string))
}
