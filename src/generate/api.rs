//! The data-access API of a schema, as plain data every target renders:
//! per table, each entity's fields and key builders, and each pattern's
//! read with its typed parameters and the request `dyno explain` prints.
//! Built from the model and [`describe::served`]; nothing here is decided
//! again, so the generated code sends the Query the checker proved.

use std::collections::BTreeMap;

use serde_json::Value as Json;

use super::matcher;
use crate::check::Schema;
use crate::check::describe::{self, Served};
use crate::check::model::{AccessKind, AttrType, Entity, EntityId, Model, Part, Pattern, Projection, Table, TableId};
use crate::check::resolve::{Read, Resolution, Shards};
use crate::syntax::ast::{KeyType, KnownKind};

/// Everything one schema generates.
#[derive(Clone, Debug, PartialEq)]
pub struct Api {
    /// The schema's path as the user gave it, for the generated header.
    pub source: String,
    pub tables: Vec<TableApi>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TableApi {
    /// The table's name in the schema: the default name on the endpoint.
    pub name: String,
    /// Every key attribute of the table and its indexes, base keys first.
    pub keys: Vec<KeyAttrApi>,
    pub entities: Vec<EntityApi>,
    /// The patterns that read this table and resolved, in schema order.
    pub reads: Vec<ReadApi>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyAttrApi {
    pub name: String,
    pub ty: KeyType,
    /// One of the table's own primary key attributes (an item must have it).
    pub base: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct EntityApi {
    pub name: String,
    pub docs: Option<String>,
    /// The attributes, in declaration order; each is stored under its own
    /// name unless a key attribute of that name takes its place.
    pub fields: Vec<Field>,
    /// The items the entity writes: one, or one per `item { }` block.
    pub shapes: Vec<ShapeApi>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    pub name: String,
    pub ty: AttrType,
    pub optional: bool,
    pub stored: Stored,
    /// The value's text in a key must match this (`^[^#]+$` for an `id`):
    /// generated key builders refuse a value that would build another key.
    /// `None` for types that cannot be in a key.
    pub key_pattern: Option<String>,
}

/// The DynamoDB type an attribute is written as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stored {
    S,
    N,
    Bool,
    B,
    L,
    M,
}

impl Stored {
    pub fn of(ty: &AttrType) -> Stored {
        match ty {
            AttrType::Int { .. } | AttrType::Decimal | AttrType::Epoch(_) | AttrType::Shard { .. } => Stored::N,
            AttrType::Bool => Stored::Bool,
            AttrType::Binary => Stored::B,
            AttrType::List => Stored::L,
            AttrType::Map => Stored::M,
            _ => Stored::S,
        }
    }
}

/// One item shape: how each of its key attributes is built.
#[derive(Clone, Debug, PartialEq)]
pub struct ShapeApi {
    pub keys: Vec<KeyBuild>,
}

/// `sk = "USER#{userId}"`: the key attribute's value is the concatenation
/// of `parts`, each field as its key text (see [`Segment`]).
#[derive(Clone, Debug, PartialEq)]
pub struct KeyBuild {
    pub attr: String,
    pub ty: KeyType,
    pub base: bool,
    pub parts: Vec<Segment>,
    /// A regular expression (`^…$`, the subset JavaScript, Python and
    /// Rust's `regex` share) for the values this template writes: telling
    /// which entity an item read back is, as `dyno size` does.
    pub matcher: String,
}

/// Part of a key value or of a request value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Segment {
    Literal(String),
    /// A field's or parameter's value as key text: an `int(pad N)` zero-
    /// padded to N digits, a `bool` as `true`/`false`, any other value as
    /// its text.
    Value(String),
}

/// A parameter of a read: a value the caller knows.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: String,
    pub ty: AttrType,
    /// A value in the request that is the key text of `ty`, or a Number.
    /// `None` for a `begins_with` bound typed as its attribute: its value is
    /// a prefix of a key text (a day of a `datetime`), not a whole value.
    pub key_pattern: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operation {
    Query,
    GetItem,
    BatchGetItem,
    /// `segments`: a parallel Scan of that many segments.
    Scan {
        segments: Option<u64>,
    },
}

/// A string in the request that holds parameters: the value at `path`
/// (object keys from the request's root) is `parts` concatenated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fill {
    pub path: Vec<String>,
    pub parts: Vec<Segment>,
}

/// One entity a read returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReturnApi {
    pub entity: String,
    /// `E[]`: a list; else one item (or none).
    pub many: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ReadApi {
    pub name: String,
    pub docs: Option<String>,
    pub operation: Operation,
    /// The caller's values, in the order they first appear in the pattern.
    pub params: Vec<Param>,
    /// The request exactly as `dyno explain --format json` shows it, values
    /// the caller supplies in braces; `fills` says where.
    pub request: Json,
    pub fills: Vec<Fill>,
    pub returns: Vec<ReturnApi>,
    /// A Query or Scan with a list return: the read pages through
    /// `LastEvaluatedKey` (a BatchGetItem returns a list without paging).
    pub paginated: bool,
    /// `limit N`: the page size.
    pub limit: Option<u64>,
    /// A write-sharded partition key: one request per shard, merged by the
    /// sort key (`sort_key`), or one with the shard computed from `from`.
    pub shards: Option<Shards>,
    /// The sort key attribute of the access path: what sharded reads merge
    /// by, and in which direction (`forward`).
    pub sort_key: Option<KeyAttrApi>,
    pub forward: bool,
    /// The fields an index projects (`keys_only`, `include`): the rest are
    /// absent from what it returns. `None` when every attribute is there.
    pub projected: Option<Vec<String>>,
}

/// The API of every table of a checked schema. Patterns without a
/// resolution are left out (the caller refuses a schema with errors).
pub fn api(source: &str, schema: &Schema) -> Api {
    let model = &schema.model;
    let tables = model
        .table_ids()
        .map(|(id, table)| table_api(schema, id, table))
        .collect();
    Api {
        source: source.to_string(),
        tables,
    }
}

fn table_api(schema: &Schema, id: TableId, table: &Table) -> TableApi {
    let model = &schema.model;
    let base: Vec<&str> = table
        .base()
        .map(|b| b.key_attributes().map(|k| k.name.as_str()).collect())
        .unwrap_or_default();
    let mut keys: Vec<KeyAttrApi> = Vec::new();
    for key in table.key_attributes() {
        if !keys.iter().any(|k| k.name == key.name) {
            keys.push(KeyAttrApi {
                name: key.name.clone(),
                ty: key.ty,
                base: base.contains(&key.name.as_str()),
            });
        }
    }
    let entities = model
        .entity_ids()
        .filter(|(_, e)| e.table == Some(id))
        .map(|(_, e)| entity_api(e, &table.delimiter, &keys))
        .collect();
    let reads = model
        .pattern_ids()
        .filter_map(|(pid, pattern)| {
            let served = describe::served(schema, pid)?;
            let resolution = schema.resolution(pid)?;
            (served.table == id).then(|| read_api(model, resolution, pattern, &served, &table.delimiter))
        })
        .collect();
    TableApi {
        name: table.name.text.to_string(),
        keys,
        entities,
        reads,
    }
}

fn entity_api(entity: &Entity, delimiter: &str, keys: &[KeyAttrApi]) -> EntityApi {
    let fields = entity
        .attributes
        .iter()
        .map(|a| Field {
            name: a.name.text.to_string(),
            ty: a.ty.clone(),
            optional: a.optional,
            stored: Stored::of(&a.ty),
            key_pattern: a
                .ty
                .shape(delimiter)
                .map(|s| matcher::whole(&[crate::check::lang::Part::Hole(s)])),
        })
        .collect();
    let shapes = entity
        .items
        .iter()
        .map(|shape| {
            // In the table's key order, so every target writes them alike.
            let keys = keys
                .iter()
                .filter_map(|key| {
                    let kv = shape.key(&key.name)?;
                    let parts = kv
                        .template
                        .parts
                        .iter()
                        .filter_map(|part| match part {
                            Part::Literal { text, .. } => Some(Segment::Literal(text.to_string())),
                            Part::Hole { attr, .. } => {
                                attr.map(|a| Segment::Value(entity.attributes[a].name.text.to_string()))
                            }
                        })
                        .collect();
                    Some(KeyBuild {
                        attr: key.name.clone(),
                        ty: key.ty,
                        base: key.base,
                        parts,
                        matcher: matcher::whole(&kv.template.lang.parts),
                    })
                })
                .collect();
            ShapeApi { keys }
        })
        .collect();
    EntityApi {
        name: entity.name.text.to_string(),
        docs: entity.docs.clone(),
        fields,
        shapes,
    }
}

fn read_api(model: &Model, resolution: &Resolution, pattern: &Pattern, served: &Served, delimiter: &str) -> ReadApi {
    let declared: Vec<EntityId> = pattern.returns.iter().filter_map(|r| r.entity).collect();
    let types = param_types(model, pattern, &declared);
    let mut fills = Vec::new();
    collect_fills(&served.request, &mut Vec::new(), &types, &mut fills);
    // A `begins_with` bound is a prefix of the attribute's key text, not a
    // whole value of its type (unless it declares a type of its own): it
    // has no language to check.
    let prefixes: Vec<&str> = pattern
        .known
        .iter()
        .filter_map(|known| match &known.kind {
            KnownKind::BeginsWith(bound) if known.bound_type.is_none() => Some(bound.text.as_str()),
            _ => None,
        })
        .collect();
    // The parameters: every one the request names, in pattern order, and a
    // calculated shard's source.
    let mut params: Vec<Param> = Vec::new();
    let mut add = |name: &str| {
        let shard_attr = served.shards.as_ref().map(|s| s.attr.as_str());
        if Some(name) == shard_attr || params.iter().any(|p| p.name == name) {
            return;
        }
        if let Some(ty) = types.get(name) {
            params.push(Param {
                name: name.to_string(),
                ty: ty.clone(),
                key_pattern: ty
                    .shape(delimiter)
                    .filter(|_| !prefixes.contains(&name))
                    .map(|s| matcher::whole(&[crate::check::lang::Part::Hole(s)])),
            });
        }
    };
    let named: Vec<String> = fills
        .iter()
        .flat_map(|f| &f.parts)
        .filter_map(|p| match p {
            Segment::Value(name) => Some(name.clone()),
            Segment::Literal(_) => None,
        })
        .collect();
    for name in pattern_order(pattern) {
        if named.contains(&name) {
            add(&name);
        }
    }
    for name in &named {
        add(name);
    }
    if let Some(Shards { from: Some(source), .. }) = &served.shards {
        add(source);
    }
    let access = resolution.key_schema(model);
    let returns = pattern
        .returns
        .iter()
        .filter_map(|r| {
            Some(ReturnApi {
                entity: model.entity(r.entity?).name.text.to_string(),
                many: r.many,
            })
        })
        .collect::<Vec<_>>();
    let operation = match served.read {
        Read::Query => Operation::Query,
        Read::GetItem => Operation::GetItem,
        Read::BatchGetItem => Operation::BatchGetItem,
        Read::Scan { segments } => Operation::Scan { segments },
    };
    let sort_key = access.sort_keys().last().map(|k| KeyAttrApi {
        name: k.name.clone(),
        ty: k.ty,
        base: access.kind == AccessKind::Base,
    });
    let projected = match (&access.kind, &access.projection) {
        (AccessKind::Base, _) | (_, Projection::All) => None,
        (_, Projection::KeysOnly) => Some(Vec::new()),
        (_, Projection::Include(attrs)) => Some(attrs.clone()),
    };
    ReadApi {
        name: pattern.name.text.to_string(),
        docs: pattern.docs.clone(),
        operation,
        params,
        request: served.request.clone(),
        fills,
        paginated: returns.iter().any(|r| r.many) && matches!(operation, Operation::Query | Operation::Scan { .. }),
        returns,
        limit: pattern.limit,
        shards: served.shards.clone(),
        sort_key,
        forward: served
            .request
            .get("ScanIndexForward")
            .and_then(Json::as_bool)
            .unwrap_or(true),
        projected,
    }
}

/// Names in the order the pattern writes them: knowns, bounds, filter
/// values.
fn pattern_order(pattern: &Pattern) -> Vec<String> {
    let mut names = Vec::new();
    for known in &pattern.known {
        names.extend(known.caller_names().into_iter().map(str::to_string));
    }
    if let Some(filter) = &pattern.filter {
        for (_, value) in filter.expr.values() {
            if let crate::syntax::ast::FilterValue::Word(w) = value {
                names.push(w.text.to_string());
            }
        }
    }
    names
}

/// Each name the caller may supply, typed by the attribute it stands for:
/// an attribute by its own name, a bound (`at >= since`) by the attribute
/// it bounds (or its declared `: type`), a filter value by the attribute it
/// is compared with.
fn param_types(model: &Model, pattern: &Pattern, returns: &[EntityId]) -> BTreeMap<String, AttrType> {
    let attr_type = |attr: &str| model.attribute_among(returns, attr).map(|a| a.ty.clone());
    let mut types = BTreeMap::new();
    for entity in returns {
        for attribute in &model.entity(*entity).attributes {
            types
                .entry(attribute.name.text.to_string())
                .or_insert(attribute.ty.clone());
        }
    }
    for known in &pattern.known {
        let Some(ty) = attr_type(&known.attr.text) else {
            continue;
        };
        let ty = match known.bound_type.as_ref().map(|n| n.text.as_str()) {
            Some("date") => AttrType::Date,
            Some("string") => AttrType::String,
            _ => ty,
        };
        let bounds: Vec<&str> = match &known.kind {
            KnownKind::Compare(_, b) | KnownKind::BeginsWith(b) => vec![&b.text],
            KnownKind::Between(lo, hi) => vec![&lo.text, &hi.text],
            KnownKind::Equal | KnownKind::Fixed(_) => Vec::new(),
        };
        for bound in bounds {
            types.insert(bound.to_string(), ty.clone());
        }
    }
    if let Some(filter) = &pattern.filter {
        for (attr, value) in filter.expr.values() {
            if let crate::check::filter::Operand::Param(param) =
                crate::check::filter::operand(model, returns, &attr.text, value)
                && let Some(ty) = attr_type(&attr.text)
            {
                types.insert(param.to_string(), ty);
            }
        }
    }
    types
}

/// Every string in the request that names a parameter (`{tenantId}`).
fn collect_fills(value: &Json, path: &mut Vec<String>, params: &BTreeMap<String, AttrType>, out: &mut Vec<Fill>) {
    match value {
        Json::Object(map) => {
            for (key, value) in map {
                path.push(key.clone());
                collect_fills(value, path, params, out);
                path.pop();
            }
        }
        Json::Array(items) => {
            for (i, value) in items.iter().enumerate() {
                path.push(i.to_string());
                collect_fills(value, path, params, out);
                path.pop();
            }
        }
        Json::String(text) => {
            let parts = segments(text, |name| params.contains_key(name));
            if parts.iter().any(|p| matches!(p, Segment::Value(_))) {
                out.push(Fill {
                    path: path.clone(),
                    parts,
                });
            }
        }
        _ => {}
    }
}

/// `TENANT#{tenantId}` → literal `TENANT#`, value `tenantId`; braces around
/// anything but a known name stay literal text.
fn segments(text: &str, is_param: impl Fn(&str) -> bool) -> Vec<Segment> {
    let mut parts = Vec::new();
    let mut literal = String::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) if is_param(&after[..close]) => {
                literal.push_str(&rest[..open]);
                if !literal.is_empty() {
                    parts.push(Segment::Literal(std::mem::take(&mut literal)));
                }
                parts.push(Segment::Value(after[..close].to_string()));
                rest = &after[close + 1..];
            }
            _ => {
                literal.push_str(&rest[..=open]);
                rest = after;
            }
        }
    }
    literal.push_str(rest);
    if !literal.is_empty() {
        parts.push(Segment::Literal(literal));
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_begins_with_bound_has_no_language_to_check() {
        let analysis = crate::check::analyze(include_str!("../../examples/real/device-state-log.dyno"));
        let api = api("device-state-log.dyno", &analysis.schema);
        let read = api.tables[0]
            .reads
            .iter()
            .find(|r| r.name == "escalatedLogsInStateOnDate")
            .expect("the pattern resolves");
        let param = |name: &str| read.params.iter().find(|p| p.name == name).expect(name);
        assert_eq!(param("date1").key_pattern, None, "a prefix of a datetime");
        assert!(param("EscalatedTo").key_pattern.is_some());
    }

    #[test]
    fn segments_split_known_names_only() {
        let known = |n: &str| n == "tenantId";
        assert_eq!(
            segments("TENANT#{tenantId}#{other}", known),
            vec![
                Segment::Literal("TENANT#".into()),
                Segment::Value("tenantId".into()),
                Segment::Literal("#{other}".into()),
            ]
        );
        assert_eq!(segments("META", known), vec![Segment::Literal("META".into())]);
    }
}
