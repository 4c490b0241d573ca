//! The resolved model of one schema: tables with their key schemas and
//! indexes, entities with typed attributes and item shapes, and patterns.
//! Built by `lower` from a possibly partial syntax tree; names that do not
//! resolve are `None`, never a panic.

use smol_str::SmolStr;

use crate::syntax::ast::{self, KeyType, Name};
use crate::syntax::{FileId, FileSpan, Span};

use super::fxhash::FxHashMap;
use super::lang;

/// Typed positions into the model's lists, so that an entity's position
/// cannot index the tables (or an index's position the patterns).
macro_rules! id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(u32);

        impl $name {
            pub fn new(index: usize) -> $name {
                $name(u32::try_from(index).expect("fewer than 2^32 declarations"))
            }

            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

id!(
    /// A table: its position in `Model::tables`.
    TableId
);
id!(
    /// An entity: its position in `Model::entities`.
    EntityId
);
id!(
    /// A pattern: its position in `Model::patterns` (and in the analysis's
    /// resolutions).
    PatternId
);
id!(
    /// The base table or one of its indexes: a position in `Table::access`,
    /// so only meaningful with its table.
    AccessId
);

impl AccessId {
    /// The table itself.
    pub const BASE: AccessId = AccessId(0);
}

#[derive(Clone, Debug, Default)]
pub struct Model {
    pub tables: Vec<Table>,
    pub entities: Vec<Entity>,
    pub patterns: Vec<Pattern>,
    /// Per entity, what lowering it reported: an entity kept from an
    /// earlier check reports it again (`check::incremental`).
    pub entity_diagnostics: Vec<Vec<crate::diagnostic::Diagnostic>>,
    /// The same per pattern.
    pub pattern_diagnostics: Vec<Vec<crate::diagnostic::Diagnostic>>,
    /// What the cost model assumes where the schema gives no hint.
    pub defaults: super::defaults::Defaults,
    /// Ids by name, so that looking a name up is not a scan of every
    /// declaration. Names are unique: a duplicate is reported, not lowered.
    ids: Ids,
}

#[derive(Clone, Debug, Default)]
struct Ids {
    // Keyed by the names themselves (`SmolStr`: a copy allocates nothing),
    // as the maps are built again on every check.
    tables: FxHashMap<SmolStr, TableId>,
    entities: FxHashMap<SmolStr, EntityId>,
    patterns: FxHashMap<SmolStr, PatternId>,
}

impl Model {
    pub fn table(&self, id: TableId) -> &Table {
        &self.tables[id.index()]
    }

    pub fn entity(&self, id: EntityId) -> &Entity {
        &self.entities[id.index()]
    }

    pub fn pattern(&self, id: PatternId) -> &Pattern {
        &self.patterns[id.index()]
    }

    /// The base table or index `access` of `table`.
    pub fn access(&self, table: TableId, access: AccessId) -> &KeySchema {
        self.table(table).access(access)
    }

    pub fn table_named(&self, name: &str) -> Option<TableId> {
        self.ids.tables.get(name).copied()
    }

    pub fn entity_named(&self, name: &str) -> Option<EntityId> {
        super::reads::whole();
        self.ids.entities.get(name).copied()
    }

    /// The first declaration of `attr` among `entities` (a pattern's
    /// returns): what the pattern means by that name.
    pub fn attribute_among(&self, entities: &[EntityId], attr: &str) -> Option<&Attribute> {
        entities.iter().find_map(|&e| self.entity(e).attribute(attr))
    }

    pub fn pattern_named(&self, name: &str) -> Option<PatternId> {
        self.ids.patterns.get(name).copied()
    }

    /// Every table with its id, in declaration order.
    pub fn table_ids(&self) -> impl Iterator<Item = (TableId, &Table)> {
        self.tables.iter().enumerate().map(|(i, t)| (TableId::new(i), t))
    }

    /// Every entity with its id, in declaration order.
    pub fn entity_ids(&self) -> impl Iterator<Item = (EntityId, &Entity)> {
        super::reads::whole();
        self.entities.iter().enumerate().map(|(i, e)| (EntityId::new(i), e))
    }

    /// Every pattern with its id, in declaration order.
    pub fn pattern_ids(&self) -> impl Iterator<Item = (PatternId, &Pattern)> {
        self.patterns.iter().enumerate().map(|(i, p)| (PatternId::new(i), p))
    }

    /// Room for so many declarations: the lists and the name maps are
    /// filled without growing.
    pub(super) fn reserve(&mut self, tables: usize, entities: usize, patterns: usize) {
        self.tables.reserve(tables);
        self.ids.tables.reserve(tables);
        self.entities.reserve(entities);
        self.entity_diagnostics.reserve(entities);
        self.ids.entities.reserve(entities);
        self.patterns.reserve(patterns);
        self.pattern_diagnostics.reserve(patterns);
        self.ids.patterns.reserve(patterns);
    }

    pub(super) fn add_table(&mut self, table: Table) {
        self.ids
            .tables
            .entry(table.name.text.clone())
            .or_insert(TableId::new(self.tables.len()));
        self.tables.push(table);
    }

    /// Puts `entity`, with what lowering it reported, at the `n`th place:
    /// after the last, or instead of the entity there (lowered again).
    pub(super) fn set_entity(&mut self, n: usize, entity: Entity, reported: Vec<crate::diagnostic::Diagnostic>) {
        let old = set(&mut self.entities, &mut self.entity_diagnostics, n, entity, reported);
        rename(
            &mut self.ids.entities,
            old.map(|e| e.name.text),
            &self.entities[n].name.text,
            EntityId::new(n),
        );
    }

    /// The same for a pattern.
    pub(super) fn set_pattern(&mut self, n: usize, pattern: Pattern, reported: Vec<crate::diagnostic::Diagnostic>) {
        let old = set(&mut self.patterns, &mut self.pattern_diagnostics, n, pattern, reported);
        rename(
            &mut self.ids.patterns,
            old.map(|p| p.name.text),
            &self.patterns[n].name.text,
            PatternId::new(n),
        );
    }

    /// Drops the tables, to lower them again into a model whose entities
    /// and patterns are kept where they are.
    pub(super) fn clear_tables(&mut self) {
        self.tables.clear();
        self.ids.tables.clear();
    }

    /// Whether the two models find the same ids by the same names.
    #[cfg(test)]
    pub(super) fn same_names(&self, other: &Model) -> bool {
        self.ids.tables == other.ids.tables
            && self.ids.entities == other.ids.entities
            && self.ids.patterns == other.ids.patterns
    }
}

/// `item` and what it `reported` at the `n`th place of `items` and
/// `reports` (as many, one per item): pushed after the last one, or
/// replacing the one there (returned).
fn set<T>(
    items: &mut Vec<T>,
    reports: &mut Vec<Vec<crate::diagnostic::Diagnostic>>,
    n: usize,
    item: T,
    reported: Vec<crate::diagnostic::Diagnostic>,
) -> Option<T> {
    if n < items.len() {
        reports[n] = reported;
        return Some(std::mem::replace(&mut items[n], item));
    }
    items.push(item);
    reports.push(reported);
    None
}

/// The name map after the item at `id` was named `old` and is named `now`.
/// Names are unique among the items lowered: `old`, when another item has
/// it now, maps to that one already (set before this one) or will (set
/// after).
fn rename<Id: Copy + PartialEq>(ids: &mut FxHashMap<SmolStr, Id>, old: Option<SmolStr>, now: &SmolStr, id: Id) {
    if let Some(old) = old.filter(|old| old != now)
        && ids.get(&old) == Some(&id)
    {
        ids.remove(&old);
    }
    ids.insert(now.clone(), id);
}

#[derive(Clone, Debug)]
pub struct Table {
    /// The file it is declared in: every span below is in it.
    pub file: FileId,
    pub name: Name,
    pub span: Span,
    /// Base table first, then each index, in declaration order.
    pub access: Vec<KeySchema>,
    pub delimiter: String,
    /// `ttl expiresAt`: the attribute DynamoDB's Time to Live reads, as the
    /// name written (the attribute's name in DynamoDB) and its span.
    pub ttl: Option<Name>,
}

impl Table {
    /// A span of this declaration, in its file.
    pub fn at(&self, span: Span) -> FileSpan {
        self.file.at(span)
    }

    /// `None` only for a table that declares no key (already reported).
    pub fn base(&self) -> Option<&KeySchema> {
        self.access.first()
    }

    pub fn access(&self, id: AccessId) -> &KeySchema {
        &self.access[id.index()]
    }

    /// The base table and every index with its id, in declaration order.
    pub fn access_ids(&self) -> impl Iterator<Item = (AccessId, &KeySchema)> {
        self.access.iter().enumerate().map(|(i, a)| (AccessId::new(i), a))
    }

    /// The index called `name`.
    pub fn index_id(&self, name: &str) -> Option<AccessId> {
        self.access
            .iter()
            .position(|a| a.is_index() && a.name.text == name)
            .map(AccessId::new)
    }

    /// Every key attribute name of the table and its indexes.
    pub fn key_attributes(&self) -> impl Iterator<Item = &KeyAttr> {
        self.access.iter().flat_map(KeySchema::key_attributes)
    }

    pub fn is_key_attribute(&self, name: &str) -> bool {
        self.key_attributes().any(|k| k.name == name)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccessKind {
    Base,
    Gsi,
    Lsi,
}

/// The base table or one index: the key schema a Query can use.
#[derive(Clone, Debug)]
pub struct KeySchema {
    pub kind: AccessKind,
    /// The index name; the table name for the base table.
    pub name: Name,
    pub span: Span,
    /// The (first) partition key attribute.
    pub pk: KeyAttr,
    /// The (first) sort key attribute.
    pub sk: Option<KeyAttr>,
    /// A multi-attribute GSI key (`index byRegion ([tenantId, region],
    /// [status, createdAt])`): the partition attributes after `pk` and the
    /// sort attributes after `sk`, in order. Empty for a one-attribute key.
    pub pk_rest: Vec<KeyAttr>,
    pub sk_rest: Vec<KeyAttr>,
    pub projection: Projection,
}

impl KeySchema {
    pub fn is_index(&self) -> bool {
        self.kind != AccessKind::Base
    }

    /// A key of several attributes on either side: the Query names each
    /// one, and no key template is involved.
    pub fn is_multi_attribute(&self) -> bool {
        !self.pk_rest.is_empty() || !self.sk_rest.is_empty()
    }

    /// The partition key attributes, in order.
    pub fn partition_keys(&self) -> impl Iterator<Item = &KeyAttr> {
        std::iter::once(&self.pk).chain(&self.pk_rest)
    }

    /// The sort key attributes, in order (none without a sort key).
    pub fn sort_keys(&self) -> impl Iterator<Item = &KeyAttr> {
        self.sk.iter().chain(&self.sk_rest)
    }

    /// Every key attribute: partition, then sort.
    pub fn key_attributes(&self) -> impl Iterator<Item = &KeyAttr> {
        self.partition_keys().chain(self.sort_keys())
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyAttr {
    pub name: String,
    pub span: Span,
    pub ty: KeyType,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Projection {
    All,
    KeysOnly,
    Include(Vec<String>),
}

#[derive(Clone, Debug)]
pub struct Entity {
    /// The file it is declared in: every span below is in it.
    pub file: FileId,
    pub name: Name,
    pub span: Span,
    pub docs: Option<String>,
    pub table: Option<TableId>,
    pub attributes: Vec<Attribute>,
    /// The items the entity writes: one, or several `item { }` shapes.
    pub items: Vec<ItemShape>,
    /// `entity X ~2KB`: the typical item size in bytes.
    pub size_hint: Option<f64>,
    /// `entity X ~2000/s`: items written per second.
    pub rate: Option<f64>,
}

impl Entity {
    /// A span of this declaration, in its file.
    pub fn at(&self, span: Span) -> FileSpan {
        self.file.at(span)
    }

    pub fn attribute(&self, name: &str) -> Option<&Attribute> {
        self.attribute_id(name).map(|i| &self.attributes[i])
    }

    /// The position of the (first) attribute called `name`.
    pub fn attribute_id(&self, name: &str) -> Option<usize> {
        self.attributes.iter().position(|a| a.name.text == name)
    }
}

#[derive(Clone, Debug)]
pub struct Attribute {
    pub name: Name,
    pub span: Span,
    pub ty: AttrType,
    /// The type as written: `int`, `int(pad 6)`, `enum(open, paid)`.
    pub ty_span: Span,
    pub optional: bool,
    /// `string(~1500)`: the typical value size in bytes.
    pub size_hint: Option<f64>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AttrType {
    String,
    Id,
    Int {
        pad: Option<u32>,
    },
    Decimal,
    Bool,
    Date,
    DateTime(Zone),
    /// Seconds or milliseconds since 1970-01-01T00:00:00Z, stored as a Number.
    Epoch(EpochUnit),
    Uuid,
    Ulid,
    Enum(Vec<String>),
    /// `shard(10)`: a write shard, `0` to `count - 1`, picked at random on
    /// each write; `shard(10, of userId)`: computed from another attribute
    /// (`shard::of`), so a caller who knows that attribute knows the shard.
    Shard {
        count: u32,
        of: Option<String>,
    },
    Binary,
    List,
    Map,
}

/// How a `datetime` spells its zone: `Z` (UTC), none, or an offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Zone {
    Utc,
    Local,
    Offset,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EpochUnit {
    Seconds,
    Millis,
}

impl EpochUnit {
    /// Digits of every value from 2001-09-09T01:46:40Z to 2286-11-20: the
    /// range where the text of an epoch value sorts like the number.
    pub fn digits(self) -> u32 {
        match self {
            EpochUnit::Seconds => 10,
            EpochUnit::Millis => 13,
        }
    }
}

impl AttrType {
    pub const NAMES: &'static [&'static str] = &[
        "string", "id", "int", "decimal", "bool", "date", "datetime", "epoch", "uuid", "ulid", "enum", "shard",
        "binary", "list", "map",
    ];

    /// The shape of the values this type puts into a key, or `None` for
    /// types that cannot be part of a key.
    pub fn shape(&self, delimiter: &str) -> Option<lang::Shape> {
        Some(match self {
            AttrType::String => lang::Shape::String,
            AttrType::Id => lang::Shape::Id {
                delimiter: delimiter.to_string(),
            },
            AttrType::Int { pad } => lang::Shape::Int { pad: *pad },
            AttrType::Decimal => lang::Shape::Decimal,
            AttrType::Bool => lang::Shape::Bool,
            AttrType::Date => lang::Shape::Date,
            AttrType::DateTime(Zone::Utc) => lang::Shape::DateTime,
            AttrType::DateTime(Zone::Local) => lang::Shape::LocalDateTime,
            AttrType::DateTime(Zone::Offset) => lang::Shape::OffsetDateTime,
            // In the range where every value has as many digits (see
            // `EpochUnit::digits`), the text is fixed-length and sorts.
            AttrType::Epoch(unit) => lang::Shape::Int {
                pad: Some(unit.digits()),
            },
            AttrType::Uuid => lang::Shape::Uuid,
            AttrType::Ulid => lang::Shape::Ulid,
            AttrType::Enum(values) => lang::Shape::Enum(values.clone()),
            AttrType::Shard { count, .. } => lang::Shape::Enum(super::shard::values(*count)),
            AttrType::Binary | AttrType::List | AttrType::Map => return None,
        })
    }

    /// The type as written in a schema (without arguments).
    pub fn name(&self) -> &'static str {
        match self {
            AttrType::String => "string",
            AttrType::Id => "id",
            AttrType::Int { .. } => "int",
            AttrType::Decimal => "decimal",
            AttrType::Bool => "bool",
            AttrType::Date => "date",
            AttrType::DateTime(_) => "datetime",
            AttrType::Epoch(_) => "epoch",
            AttrType::Uuid => "uuid",
            AttrType::Ulid => "ulid",
            AttrType::Enum(_) => "enum",
            AttrType::Shard { .. } => "shard",
            AttrType::Binary => "binary",
            AttrType::List => "list",
            AttrType::Map => "map",
        }
    }

    /// The DynamoDB type a value of this type is stored as: `N`, `BOOL`,
    /// `B`, `L`, `M`, else `S`.
    pub fn stored_kind(&self) -> &'static str {
        match self {
            AttrType::Int { .. } | AttrType::Decimal | AttrType::Epoch(_) | AttrType::Shard { .. } => "N",
            AttrType::Bool => "BOOL",
            AttrType::Binary => "B",
            AttrType::List => "L",
            AttrType::Map => "M",
            AttrType::String
            | AttrType::Id
            | AttrType::Date
            | AttrType::DateTime(_)
            | AttrType::Uuid
            | AttrType::Ulid
            | AttrType::Enum(_) => "S",
        }
    }

    pub fn is_numeric(&self) -> bool {
        matches!(
            self,
            AttrType::Int { .. } | AttrType::Decimal | AttrType::Epoch(_) | AttrType::Shard { .. }
        )
    }
}

/// One item an entity writes: a template per key attribute.
#[derive(Clone, Debug)]
pub struct ItemShape {
    pub span: Span,
    pub keys: Vec<KeyValue>,
}

impl ItemShape {
    pub fn key(&self, attr: &str) -> Option<&KeyValue> {
        self.keys.iter().find(|k| k.attr == attr)
    }
}

/// `pk = "USER#{userId}"`, or an attribute used directly as an index key.
#[derive(Clone, Debug)]
pub struct KeyValue {
    /// The key attribute it is assigned to (`pk`).
    pub attr: SmolStr,
    /// The whole `pk = "..."` line (the attribute declaration when implicit).
    pub span: Span,
    pub template: Template,
    /// True for an index keyed on a plain attribute (no template written).
    pub implicit: bool,
}

/// A key template with its holes resolved to the entity's attributes.
#[derive(Clone, Debug)]
pub struct Template {
    /// The string literal (quotes included).
    pub span: Span,
    pub parts: Vec<Part>,
    /// The exact language of values it produces.
    pub lang: lang::Template,
}

#[derive(Clone, Debug)]
pub enum Part {
    Literal {
        text: SmolStr,
        span: Span,
    },
    /// `{name}`; `attr` is the attribute's index in the entity, `None` when
    /// the name resolves to nothing (already reported).
    Hole {
        name: Name,
        span: Span,
        attr: Option<usize>,
    },
}

impl Template {
    /// The literal text before the first hole.
    pub fn literal_prefix(&self) -> String {
        let mut out = String::new();
        for part in &self.parts {
            match part {
                Part::Literal { text, .. } => out.push_str(text),
                Part::Hole { .. } => break,
            }
        }
        out
    }

    /// The template as written, without quotes: `TENANT#{tenantId}`.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for part in &self.parts {
            match part {
                Part::Literal { text, .. } => out.push_str(text),
                Part::Hole { name, .. } => {
                    out.push('{');
                    out.push_str(&name.text);
                    out.push('}');
                }
            }
        }
        out
    }

    /// The value of each hole in `value`, when the template's literals fit
    /// it ([`capture_holes`]): `TENANT#acme` → `[(tenantId, "acme")]`.
    pub fn captures<'v>(&self, value: &'v str) -> Option<Vec<(&Name, &'v str)>> {
        let parts: Vec<Option<&str>> = self
            .parts
            .iter()
            .map(|p| match p {
                Part::Literal { text, .. } => Some(text.as_str()),
                Part::Hole { .. } => None,
            })
            .collect();
        let values = capture_holes(&parts, value)?;
        Some(self.holes().map(|(name, _)| name).zip(values).collect())
    }

    pub fn holes(&self) -> impl Iterator<Item = (&Name, Option<usize>)> {
        self.parts.iter().filter_map(|p| match p {
            Part::Hole { name, attr, .. } => Some((name, *attr)),
            Part::Literal { .. } => None,
        })
    }
}

/// Splits a key value by a template's parts (`Some(literal)`, `None` for a
/// hole): each literal must come next in the value, and a hole runs to the
/// first occurrence of the literal after it (or to the end). `None` when
/// the value does not fit or a hole would be empty. Holes of types that
/// cannot hold the delimiter (every key type but `string`) split exactly;
/// a `string` hole that contains the next literal is cut short.
pub fn capture_holes<'v>(parts: &[Option<&str>], value: &'v str) -> Option<Vec<&'v str>> {
    let mut rest = value;
    let mut out = Vec::new();
    let mut parts = parts.iter().peekable();
    while let Some(part) = parts.next() {
        match part {
            Some(literal) => rest = rest.strip_prefix(literal)?,
            None => {
                let end = match parts.peek() {
                    Some(Some(next)) => rest.find(next)?,
                    _ => rest.len(),
                };
                if end == 0 {
                    return None;
                }
                out.push(&rest[..end]);
                rest = &rest[end..];
            }
        }
    }
    rest.is_empty().then_some(out)
}

#[derive(Clone, Debug)]
pub struct Pattern {
    /// The file it is declared in: every span below is in it.
    pub file: FileId,
    pub name: Name,
    pub span: Span,
    pub docs: Option<String>,
    pub known: Vec<ast::Known>,
    pub returns: Vec<Return>,
    pub order: Option<Order>,
    pub consistent: Option<Span>,
    pub limit: Option<u64>,
    /// `~500/s`: how many times a second the application makes this read.
    pub rate: Option<f64>,
    /// `get`, `batch get`, `scan`: the read, when it is not a Query.
    pub operation: Option<(Span, ast::Operation)>,
    /// `segments N`: a parallel Scan.
    pub segments: Option<(Span, u64)>,
    /// `where ...`: the FilterExpression (`check::filter` reads it). Boxed,
    /// like `query`: few patterns have one, and a keystroke moves every
    /// kept pattern.
    pub filter: Option<Box<ast::Filter>>,
    /// Where the returns and modifiers end (before a pinned query): where a
    /// fix adds a modifier.
    pub modifiers_end: usize,
    pub query: Option<Box<ast::Query>>,
}

impl Pattern {
    /// A span of this declaration, in its file.
    pub fn at(&self, span: Span) -> FileSpan {
        self.file.at(span)
    }
}

#[derive(Clone, Debug)]
pub struct Return {
    pub name: Name,
    pub span: Span,
    pub entity: Option<EntityId>,
    pub many: bool,
    /// `~200`: the expected number of items.
    pub count: Option<f64>,
}

#[derive(Clone, Debug)]
pub struct Order {
    pub attr: Name,
    pub span: Span,
    pub descending: bool,
}

impl Template {
    /// The template as written, holes in braces.
    pub fn lang_display(&self) -> String {
        self.parts
            .iter()
            .map(|p| match p {
                Part::Literal { text, .. } => text.to_string(),
                Part::Hole { name, .. } => format!("{{{}}}", name.text),
            })
            .collect()
    }
}
