//! Lowering: syntax tree → model, reporting names that do not resolve,
//! duplicates, and keys that are not keys. Runs on partial trees: whatever
//! is missing is skipped, everything present is still checked.

use std::collections::HashMap;

use super::lang;
use super::model::*;
use super::shard;
use super::suggest::did_you_mean_fix;
use crate::diagnostic::{Code, Diagnostic};
use crate::syntax::ast::{self, KeyType, Name, Segment, TypeArg};
use crate::syntax::template::is_identifier;
use crate::syntax::{FileId, FileSpan, Span};

mod keys;
use keys::{KeyOwner, lower_side};

/// Local secondary indexes per table: a hard limit.
pub const MAX_LOCAL_INDEXES: usize = 5;
/// Global secondary indexes per table: the default quota, adjustable.
pub const DEFAULT_GLOBAL_INDEXES: usize = 20;

/// Items lowered before, to stand for the `n`th entity or pattern lowered
/// now.
pub(super) trait Reuse {
    /// The model to lower into: an empty one with room for so many tables,
    /// entities and patterns, or the earlier model (its tables dropped), whose
    /// entities and patterns are then kept or replaced where they are.
    fn model(&mut self, tables: usize, entities: usize, patterns: usize) -> Model {
        let mut model = Model::default();
        model.reserve(tables, entities, patterns);
        model
    }

    /// Puts the kept `n`th entity at `model.entities[n]`, with what lowering
    /// it reported (reported again into `diagnostics`): true; false to lower
    /// it. `model` has its tables and the entities before the `n`th.
    fn entity(&mut self, n: usize, entity: &ast::Entity, model: &mut Model, diagnostics: &mut Vec<Diagnostic>) -> bool;
    /// The same for the `n`th pattern; `model` has its tables and entities.
    fn pattern(
        &mut self,
        n: usize,
        pattern: &ast::Pattern,
        model: &mut Model,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> bool;
}

/// Lowering every item.
pub(super) struct LowerAll;

impl Reuse for LowerAll {
    fn entity(&mut self, _: usize, _: &ast::Entity, _: &mut Model, _: &mut Vec<Diagnostic>) -> bool {
        false
    }

    fn pattern(&mut self, _: usize, _: &ast::Pattern, _: &mut Model, _: &mut Vec<Diagnostic>) -> bool {
        false
    }
}

/// Lowers the files of one schema, in order: the tables of every file
/// first, then the entities, then the patterns, so that a name declared in
/// one file resolves in another. The entities and patterns `reuse` keeps
/// are not lowered again: lowering an entity reads its own tree and the
/// tables; a pattern, its own tree, the tables, the entities' names and the
/// entities it returns (`check::incremental` decides when that reading
/// cannot have changed). `places` are the `files`' own.
pub(super) fn lower_reusing(
    files: &[(FileId, &ast::SourceFile)],
    places: &Places,
    diagnostics: &mut Vec<Diagnostic>,
    reuse: &mut dyn Reuse,
) -> Model {
    let mut model = reuse.model(places.tables.len(), places.entities.len(), places.patterns.len());
    // Each item with whether it is the first declaration of its name (a
    // later one is reported and not lowered).
    let items = || {
        (files.iter())
            .flat_map(|(file, tree)| tree.items.iter().map(move |item| (*file, item)))
            .zip(places.first.iter().copied())
    };
    for ((file, item), first) in items() {
        if let ast::Item::Table(table) = item {
            if first {
                model.add_table(lower_table(file, table, diagnostics));
            } else {
                let first = model
                    .table_named(&table.name.text)
                    .map(|id| model.table(id).at(model.table(id).name.span));
                duplicate("table", file.at(table.name.span), &table.name.text, first, diagnostics);
            }
        }
    }
    let mut n = 0;
    for ((file, item), first) in items() {
        if let ast::Item::Entity(entity) = item {
            if !first {
                let first =
                    (model.entity_named(&entity.name.text)).map(|id| model.entity(id).at(model.entity(id).name.span));
                duplicate(
                    "entity",
                    file.at(entity.name.span),
                    &entity.name.text,
                    first,
                    diagnostics,
                );
            } else if !reuse.entity(n, entity, &mut model, diagnostics) {
                let from = diagnostics.len();
                let lowered = lower_entity(file, entity, &model.tables, diagnostics);
                model.set_entity(n, lowered, diagnostics[from..].to_vec());
            }
            n += usize::from(first);
        }
    }
    let mut n = 0;
    for ((file, item), first) in items() {
        if let ast::Item::Pattern(pattern) = item {
            if !first {
                let first = (model.pattern_named(&pattern.name.text))
                    .map(|id| model.pattern(id).at(model.pattern(id).name.span));
                duplicate(
                    "pattern",
                    file.at(pattern.name.span),
                    &pattern.name.text,
                    first,
                    diagnostics,
                );
            } else if !reuse.pattern(n, pattern, &mut model, diagnostics) {
                let from = diagnostics.len();
                let lowered = lower_pattern(file, pattern, &model, diagnostics);
                model.set_pattern(n, lowered, diagnostics[from..].to_vec());
            }
            n += usize::from(first);
        }
    }
    model
}

/// Where the items [`lower_reusing`] lowers are declared, by kind and in order: the
/// first declaration of each name (a later one is reported, not lowered).
/// Known before lowering, so that an incremental check can match them with
/// the earlier model's items first.
#[derive(Default)]
pub(super) struct Places {
    pub tables: Vec<(FileId, Span)>,
    pub entities: Vec<(FileId, Span)>,
    pub patterns: Vec<(FileId, Span)>,
    /// Per item of every file, in order: whether it is the first
    /// declaration of its name among items of its kind.
    pub first: Vec<bool>,
}

pub(super) fn places(files: &[(FileId, &ast::SourceFile)]) -> Places {
    let mut places = Places::default();
    let mut seen: [super::fxhash::FxHashSet<&str>; 3] = Default::default();
    // Room for every item in each set at once: on every keystroke, growing
    // them rehashed each name about twice over.
    let items: usize = files.iter().map(|(_, tree)| tree.items.len()).sum();
    seen.iter_mut().for_each(|set| set.reserve(items));
    places.first.reserve(items);
    for (file, tree) in files {
        for item in &tree.items {
            let (kind, list) = match item {
                ast::Item::Table(_) => (0, &mut places.tables),
                ast::Item::Entity(_) => (1, &mut places.entities),
                ast::Item::Pattern(_) => (2, &mut places.patterns),
            };
            let first = seen[kind].insert(&item.name().text);
            if first {
                list.push((*file, item.span()));
            }
            places.first.push(first);
        }
    }
    places
}

/// Reports a later declaration of a name `first` declared.
fn duplicate(kind: &str, at: FileSpan, name: &str, first: Option<FileSpan>, diagnostics: &mut Vec<Diagnostic>) {
    let diagnostic = Diagnostic::new(Code::DuplicateName, at, format!("{kind} `{name}` is declared twice"));
    diagnostics.push(match first {
        Some(first) => diagnostic.with_related(first, "first declared here"),
        None => diagnostic,
    });
}

fn key_attr(attr: &ast::KeyAttr) -> KeyAttr {
    KeyAttr {
        name: attr.name.text.to_string(),
        span: attr.name.span,
        ty: attr.ty.map_or(KeyType::String, |(t, _)| t),
    }
}

/// DynamoDB's naming rule for tables and indexes: 3 to 255 characters, each
/// one of `a-z A-Z 0-9 _ - .` (docs/diagnostics.md, E116).
pub const NAME_LENGTHS: std::ops::RangeInclusive<usize> = 3..=255;

/// What is wrong with `name` as a DynamoDB table or index name, if anything.
pub fn invalid_name(name: &str) -> Option<String> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.');
    if let Some(bad) = name.chars().find(|&c| !allowed(c)) {
        return Some(format!("it contains `{bad}`"));
    }
    let length = name.chars().count();
    (!NAME_LENGTHS.contains(&length))
        .then(|| format!("it is {length} character{} long", if length == 1 { "" } else { "s" }))
}

/// E116 on a table or index name DynamoDB rejects.
fn check_name(file: FileId, kind: &str, name: &Name, diagnostics: &mut Vec<Diagnostic>) {
    // An empty name is a syntax error already reported.
    if name.text.is_empty() {
        return;
    }
    if let Some(why) = invalid_name(&name.text) {
        let field = if kind == "table" { "TableName" } else { "IndexName" };
        diagnostics.push(
            Diagnostic::new(
                Code::InvalidName,
                file.at(name.span),
                format!(
                    "DynamoDB rejects {kind} name `{}`: {why}; `{field}` has 3 to 255 characters of \
                     `a-z`, `A-Z`, `0-9`, `_`, `-` and `.`",
                    name.text
                ),
            )
            .with_label(format!("not a valid {field}"))
            .with_help(format!("rename the {kind}")),
        );
    }
}

fn lower_table(file: FileId, table: &ast::Table, diagnostics: &mut Vec<Diagnostic>) -> Table {
    check_name(file, "table", &table.name, diagnostics);
    let mut access: Vec<KeySchema> = base_key(file, table, diagnostics).into_iter().collect();
    let mut index_names: HashMap<&str, Span> = HashMap::new();
    for index in &table.indexes {
        if let Some(&first) = index_names.get(index.name.text.as_str()) {
            diagnostics.push(
                Diagnostic::new(
                    Code::DuplicateName,
                    file.at(index.name.span),
                    format!("index `{}` is declared twice", index.name.text),
                )
                .with_related(file.at(first), "first declared here"),
            );
            continue;
        }
        index_names.insert(&index.name.text, index.name.span);
        access.push(lower_index(file, table, index, access.first(), diagnostics));
    }
    check_index_counts(file, table, &access, diagnostics);
    keys::check_key_types_agree(file, &access, diagnostics);
    Table {
        file,
        name: table.name.clone(),
        span: table.span,
        access,
        delimiter: lower_delimiter(file, table, diagnostics),
        ttl: lower_ttl(file, table, diagnostics),
    }
}

/// The table's one `ttl` attribute: DynamoDB enables Time to Live on one
/// attribute per table.
fn lower_ttl(file: FileId, table: &ast::Table, diagnostics: &mut Vec<Diagnostic>) -> Option<Name> {
    let (first, rest) = table.ttls.split_first()?;
    for extra in rest {
        diagnostics.push(
            Diagnostic::new(
                Code::InvalidTable,
                file.at(extra.span),
                "a table has one `ttl` attribute: DynamoDB's Time to Live reads one attribute per table",
            )
            .with_related(file.at(first.span), "the ttl attribute is declared here"),
        );
    }
    Some(first.attribute.clone())
}

/// The table's own key schema: its one `key` line.
fn base_key(file: FileId, table: &ast::Table, diagnostics: &mut Vec<Diagnostic>) -> Option<KeySchema> {
    let [key, rest @ ..] = table.keys.as_slice() else {
        let no_key = Diagnostic::new(
            Code::InvalidTable,
            file.at(table.name.span),
            format!("table `{}` declares no key", table.name.text),
        );
        diagnostics.push(no_key.with_help("add `key pk, sk` (partition key, optional sort key)"));
        return None;
    };
    for extra in rest {
        diagnostics.push(
            Diagnostic::new(Code::InvalidTable, file.at(extra.span), "a table has one `key` line")
                .with_related(file.at(key.span), "the key is declared here"),
        );
    }
    let (pk, _) = lower_side(file, KeyOwner::Table, "partition", &key.partition, diagnostics);
    let sk = key
        .sort
        .as_ref()
        .map(|sort| lower_side(file, KeyOwner::Table, "sort", sort, diagnostics).0);
    Some(KeySchema {
        kind: AccessKind::Base,
        name: table.name.clone(),
        span: key.span,
        pk,
        sk,
        pk_rest: Vec::new(),
        sk_rest: Vec::new(),
        projection: Projection::All,
    })
}

/// One `index` line; `base` is the table's key schema, when it has one.
fn lower_index(
    file: FileId,
    table: &ast::Table,
    index: &ast::IndexDecl,
    base: Option<&KeySchema>,
    diagnostics: &mut Vec<Diagnostic>,
) -> KeySchema {
    check_name(file, "index", &index.name, diagnostics);
    let owner = if index.local {
        KeyOwner::LocalIndex
    } else {
        KeyOwner::GlobalIndex
    };
    let (pk, pk_rest) = lower_side(file, owner, "partition", &index.partition, diagnostics);
    let (sk, sk_rest) = match &index.sort {
        Some(sort) => {
            let (sk, rest) = lower_side(file, owner, "sort", sort, diagnostics);
            (Some(sk), rest)
        }
        None => (None, Vec::new()),
    };
    keys::check_distinct(file, index, diagnostics);
    if index.local {
        check_local_index(file, table, index, &pk, base, diagnostics);
    }
    let projection = match &index.projection {
        ast::Projection::Default | ast::Projection::All(_) => Projection::All,
        ast::Projection::KeysOnly(_) => Projection::KeysOnly,
        ast::Projection::Include(_, names) => Projection::Include(names.iter().map(|n| n.text.to_string()).collect()),
    };
    KeySchema {
        kind: if index.local { AccessKind::Lsi } else { AccessKind::Gsi },
        name: index.name.clone(),
        span: index.span,
        pk,
        sk,
        pk_rest,
        sk_rest,
        projection,
    }
}

/// What DynamoDB requires of a local index: a table with a sort key, the
/// table's partition key, and a sort key of its own.
fn check_local_index(
    file: FileId,
    table: &ast::Table,
    index: &ast::IndexDecl,
    pk: &KeyAttr,
    base: Option<&KeySchema>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    if let Some(base) = base.filter(|base| base.sk.is_none()) {
        diagnostics.push(
            Diagnostic::new(
                Code::InvalidTable,
                file.at(index.span),
                format!(
                    "table `{}` has no sort key, so it cannot have a local index: DynamoDB requires a \
                     range key in the table's key schema for a LocalSecondaryIndex",
                    table.name.text
                ),
            )
            .with_related(file.at(base.span), "the table's key has no sort key")
            .with_help(format!(
                "drop `local` to make `{}` a global index, or give the table a sort key",
                index.name.text
            )),
        );
    }
    let table_pk = base.map(|base| base.pk.name.clone());
    if let Some(table_pk) = table_pk.filter(|t| *t != pk.name) {
        diagnostics.push(
            Diagnostic::new(
                Code::InvalidTable,
                file.at(index.partition.first().name.span),
                format!(
                    "a local index shares the table's partition key `{table_pk}`, not `{}`",
                    pk.name
                ),
            )
            .with_help(format!(
                "write `local index {} ({table_pk}, ...)`, or drop `local` for a global index",
                index.name.text
            )),
        );
    }
    if index.sort.is_none() {
        diagnostics.push(Diagnostic::new(
            Code::InvalidTable,
            file.at(index.span),
            "a local index needs a sort key: it only adds another sort order to the table's partitions",
        ));
    }
}

/// DynamoDB's limit on local indexes and default quota on global ones.
fn check_index_counts(file: FileId, table: &ast::Table, access: &[KeySchema], diagnostics: &mut Vec<Diagnostic>) {
    let lsi_count = access.iter().filter(|a| a.kind == AccessKind::Lsi).count();
    if lsi_count > MAX_LOCAL_INDEXES {
        diagnostics.push(Diagnostic::new(
            Code::InvalidTable,
            file.at(table.name.span),
            format!(
                "table `{}` has {lsi_count} local indexes; DynamoDB allows at most {MAX_LOCAL_INDEXES}",
                table.name.text
            ),
        ));
    }
    let gsi_count = access.iter().filter(|a| a.kind == AccessKind::Gsi).count();
    if gsi_count > DEFAULT_GLOBAL_INDEXES {
        diagnostics.push(
            Diagnostic::new(
                Code::TooManyGlobalIndexes,
                file.at(table.name.span),
                format!(
                    "table `{}` has {gsi_count} global indexes; DynamoDB's default quota is \
                     {DEFAULT_GLOBAL_INDEXES} per table",
                    table.name.text
                ),
            )
            .with_help("request a higher quota (Service Quotas) before deploying, or merge indexes (overload them)"),
        );
    }
}

/// The table's one `delimiter`, `#` when it declares none.
fn lower_delimiter(file: FileId, table: &ast::Table, diagnostics: &mut Vec<Diagnostic>) -> String {
    match table.delimiters.as_slice() {
        [] => "#".to_string(),
        [first, rest @ ..] => {
            for extra in rest {
                diagnostics.push(
                    Diagnostic::new(Code::InvalidTable, file.at(extra.span), "a table has one `delimiter`")
                        .with_related(file.at(first.span), "the delimiter is declared here"),
                );
            }
            match first.value.constant() {
                Some(value) if !value.is_empty() => value,
                _ => {
                    diagnostics.push(Diagnostic::new(
                        Code::InvalidTable,
                        file.at(first.value.span),
                        "the delimiter is a non-empty plain string, such as \"#\"",
                    ));
                    "#".to_string()
                }
            }
        }
    }
}

fn lower_type(file: FileId, ty: &ast::TypeRef, diagnostics: &mut Vec<Diagnostic>) -> (AttrType, Option<f64>) {
    let mut size_hint = None;
    let mut pad = None;
    let mut words = Vec::new();
    // `datetime(local)`, `epoch(ms)`: the spelling of a time.
    let mut zone = Zone::Utc;
    let mut unit = EpochUnit::Seconds;
    // `shard(10, of userId)`
    let mut shards = None;
    let mut shard_source = None;
    let invalid = |span: Span, message: String, diagnostics: &mut Vec<Diagnostic>| {
        diagnostics.push(Diagnostic::new(Code::InvalidTypeArguments, file.at(span), message));
    };
    let name = ty.name.text.as_str();
    // An unknown type's arguments mean nothing: report the type alone.
    let args = if AttrType::NAMES.contains(&name) {
        ty.args.as_slice()
    } else {
        &[]
    };
    for arg in args {
        match arg {
            TypeArg::Size(hint) => size_hint = Some(hint.bytes()),
            TypeArg::Pad { span, width } if name == "int" => {
                if (1..=38).contains(width) {
                    pad = Some(*width);
                } else {
                    // Reported, and not kept: the checker's automata and the
                    // samples are built digit by digit (`pad 4294967296`
                    // asked for 64 GB; found by a fuzz regression input).
                    // The parser saturates widths past `u32` at `u32::MAX`.
                    let quoted = if *width == u32::MAX {
                        "pad N".to_string()
                    } else {
                        format!("pad {width}")
                    };
                    invalid(*span, format!("`{quoted}`: a number has 1 to 38 digits"), diagnostics);
                }
            }
            TypeArg::Word(word) if name == "enum" => words.push((word.text.to_string(), word.span)),
            TypeArg::Word(word) if name == "datetime" && ["utc", "local", "offset"].contains(&word.text.as_str()) => {
                zone = match word.text.as_str() {
                    "local" => Zone::Local,
                    "offset" => Zone::Offset,
                    _ => Zone::Utc,
                };
            }
            TypeArg::Word(word) if name == "epoch" && ["s", "ms"].contains(&word.text.as_str()) => {
                unit = if word.text == "ms" {
                    EpochUnit::Millis
                } else {
                    EpochUnit::Seconds
                };
            }
            TypeArg::Str(s) if name == "enum" => words.push((s.display(), s.span)),
            TypeArg::Count { span, value } if name == "shard" && shards.is_none() => {
                if (2..=u64::from(shard::MAX_SHARDS)).contains(value) {
                    shards = Some(*value as u32);
                } else {
                    invalid(
                        *span,
                        format!("a key is split into 2 to {} shards, not {value}", shard::MAX_SHARDS),
                        diagnostics,
                    );
                    shards = Some(2);
                }
            }
            TypeArg::Of(source) if name == "shard" && shard_source.is_none() => {
                shard_source = Some(source.text.to_string());
            }
            other => invalid(other.span(), format!("`{name}` takes no such argument"), diagnostics),
        }
    }
    let ty = match name {
        "string" => AttrType::String,
        "id" => AttrType::Id,
        "int" => AttrType::Int { pad },
        "decimal" => AttrType::Decimal,
        "bool" => AttrType::Bool,
        "date" => AttrType::Date,
        "datetime" => AttrType::DateTime(zone),
        "epoch" => AttrType::Epoch(unit),
        "uuid" => AttrType::Uuid,
        "ulid" => AttrType::Ulid,
        "binary" => AttrType::Binary,
        "list" => AttrType::List,
        "map" => AttrType::Map,
        "shard" => {
            if shards.is_none() {
                invalid(
                    ty.span,
                    "a shard says how many: `shard(10)`, or `shard(10, of userId)` for a calculated one".into(),
                    diagnostics,
                );
            }
            AttrType::Shard {
                count: shards.unwrap_or(2),
                of: shard_source,
            }
        }
        "enum" => {
            let mut values: Vec<String> = Vec::new();
            for (value, span) in words {
                if values.contains(&value) {
                    invalid(span, format!("`{value}` is listed twice"), diagnostics);
                } else if value.is_empty() {
                    invalid(span, "an enum value cannot be empty".into(), diagnostics);
                } else {
                    values.push(value.clone());
                }
            }
            if values.is_empty() {
                invalid(
                    ty.span,
                    "an enum lists its values: `enum(open, paid)`".into(),
                    diagnostics,
                );
            }
            AttrType::Enum(values)
        }
        other => {
            let (hint, fix) = did_you_mean_fix(other, file.at(ty.name.span), AttrType::NAMES.iter().copied());
            diagnostics.push(
                Diagnostic::new(
                    Code::UnknownType,
                    file.at(ty.name.span),
                    format!("unknown type `{other}`{hint}"),
                )
                .with_fixes(fix),
            );
            AttrType::String
        }
    };
    (ty, size_hint)
}

fn lower_entity(file: FileId, entity: &ast::Entity, tables: &[Table], diagnostics: &mut Vec<Diagnostic>) -> Entity {
    let table = resolve_table(file, entity, tables, diagnostics);
    let mut attributes: Vec<Attribute> = Vec::with_capacity(entity.attributes.len());
    for attribute in &entity.attributes {
        if let Some(first) = attributes.iter().find(|a| a.name.text == attribute.name.text) {
            diagnostics.push(
                Diagnostic::new(
                    Code::DuplicateName,
                    file.at(attribute.name.span),
                    format!("attribute `{}` is declared twice", attribute.name.text),
                )
                .with_related(file.at(first.name.span), "first declared here"),
            );
            continue;
        }
        let (ty, size_hint) = lower_type(file, &attribute.ty, diagnostics);
        attributes.push(Attribute {
            name: attribute.name.clone(),
            span: attribute.span,
            ty_span: attribute.ty.span,
            ty,
            optional: attribute.optional,
            size_hint,
        });
    }
    let mut lowered = Entity {
        file,
        name: entity.name.clone(),
        span: entity.span,
        docs: entity.docs.as_ref().map(|d| d.text.clone()),
        table,
        attributes,
        items: Vec::with_capacity(entity.items.len().max(1)),
        size_hint: entity.size.as_ref().map(|s| s.bytes()),
        rate: entity.rate.as_ref().map(|r| r.per_second),
    };
    check_shard_sources(file, &lowered, diagnostics);
    let shapes: Vec<(Span, Vec<&ast::KeyTemplate>)> = if entity.items.is_empty() {
        vec![(entity.name.span, entity.keys.iter().collect())]
    } else {
        // Keys written beside `item { }` blocks are shared by every item.
        entity
            .items
            .iter()
            .map(|i| (i.span, entity.keys.iter().chain(&i.keys).collect()))
            .collect()
    };
    let table = table.map(|t| &tables[t.index()]);
    for (span, keys) in shapes {
        let item = lower_item(&lowered, table, span, &keys, diagnostics);
        lowered.items.push(item);
    }
    lowered
}

/// `shard(10, of userId)` is computed from `userId`: an attribute of the
/// entity with a value that can stand in a key (and not another shard).
fn check_shard_sources(file: FileId, entity: &Entity, diagnostics: &mut Vec<Diagnostic>) {
    for attribute in &entity.attributes {
        let AttrType::Shard { of: Some(source), .. } = &attribute.ty else {
            continue;
        };
        let problem = match entity.attribute(source).map(|a| &a.ty) {
            None => format!(
                "`{}` has no attribute `{source}` to compute the shard from",
                entity.name.text
            ),
            Some(AttrType::Shard { .. }) => format!("`{source}` is itself a shard: compute the shard from a value"),
            // An item without its source would have no shard to compute.
            Some(_) if entity.attribute(source).is_some_and(|a| a.optional) => {
                format!("`{source}` is optional: an item without it has no shard; make it required")
            }
            Some(ty) if ty.shape("#").is_none() => {
                format!(
                    "`{source}` is a `{}`, which has no text to compute a shard from",
                    ty.name()
                )
            }
            Some(_) => continue,
        };
        diagnostics.push(Diagnostic::new(
            Code::InvalidTypeArguments,
            file.at(attribute.ty_span),
            problem,
        ));
    }
}

fn resolve_table(
    file: FileId,
    entity: &ast::Entity,
    tables: &[Table],
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<TableId> {
    if let Some(name) = &entity.table {
        let found = tables.iter().position(|t| t.name.text == name.text).map(TableId::new);
        if found.is_none() {
            let (hint, fix) = did_you_mean_fix(
                &name.text,
                file.at(name.span),
                tables.iter().map(|t| t.name.text.as_str()),
            );
            diagnostics.push(
                Diagnostic::new(
                    Code::NoTable,
                    file.at(name.span),
                    format!("unknown table `{}`{hint}", name.text),
                )
                .with_fixes(fix),
            );
        }
        return found;
    }
    match tables.len() {
        1 => Some(TableId::new(0)),
        0 => {
            diagnostics.push(
                Diagnostic::new(
                    Code::NoTable,
                    file.at(entity.name.span),
                    format!("entity `{}` has no table", entity.name.text),
                )
                .with_help("declare one: `table App { key pk, sk }`"),
            );
            None
        }
        _ => {
            diagnostics.push(
                Diagnostic::new(
                    Code::NoTable,
                    file.at(entity.name.span),
                    format!(
                        "entity `{}` could belong to any of {} tables",
                        entity.name.text,
                        tables.len()
                    ),
                )
                .with_help(format!(
                    "say which: `entity {} in {}`",
                    entity.name.text, tables[0].name.text
                )),
            );
            None
        }
    }
}

fn lower_item(
    entity: &Entity,
    table: Option<&Table>,
    span: Span,
    keys: &[&ast::KeyTemplate],
    diagnostics: &mut Vec<Diagnostic>,
) -> ItemShape {
    let file = entity.file;
    let delimiter = table.map_or("#", |t| t.delimiter.as_str());
    let mut item = ItemShape {
        span,
        keys: Vec::with_capacity(keys.len()),
    };
    for key in keys {
        if let Some(first) = item.key(&key.key.text) {
            diagnostics.push(
                Diagnostic::new(
                    Code::DuplicateName,
                    file.at(key.key.span),
                    format!("`{}` is assigned twice in one item", key.key.text),
                )
                .with_related(file.at(first.span), "first assigned here"),
            );
            continue;
        }
        let key_type = table
            .and_then(|t| t.key_attributes().find(|k| k.name == key.key.text))
            .map(|k| k.ty);
        if let Some(table) = table
            && key_type.is_none()
        {
            let names: Vec<&str> = table.key_attributes().map(|k| k.name.as_str()).collect();
            let (hint, fix) = did_you_mean_fix(&key.key.text, file.at(key.key.span), names.iter().copied());
            diagnostics.push(
                Diagnostic::new(
                    Code::NotAKeyAttribute,
                    file.at(key.key.span),
                    format!(
                        "`{}` is not a key of table `{}` or its indexes{hint}",
                        key.key.text, table.name.text,
                    ),
                )
                .with_help(format!("the key attributes are: {}", names.join(", ")))
                .with_fixes(fix),
            );
        }
        let template = lower_template(entity, &key.template, delimiter, diagnostics);
        if key_type == Some(KeyType::Number) {
            check_number_key(entity, key, &template, diagnostics);
        }
        item.keys.push(KeyValue {
            attr: key.key.text.clone(),
            span: key.span,
            template,
            implicit: false,
        });
    }
    let Some(table) = table else { return item };
    // An index keyed on a plain attribute: the attribute is the key value.
    for key in table.key_attributes() {
        if item.key(&key.name).is_none()
            && let Some(index) = entity.attribute_id(&key.name)
        {
            let attribute = &entity.attributes[index];
            let shape = attribute.ty.shape(delimiter).unwrap_or(lang::Shape::String);
            let template = Template {
                span: attribute.span,
                parts: vec![Part::Hole {
                    name: attribute.name.clone(),
                    span: attribute.span,
                    attr: Some(index),
                }],
                lang: lang::Template::new(vec![lang::Part::Hole(shape)]),
            };
            item.keys.push(KeyValue {
                attr: key.name.as_str().into(),
                span: attribute.span,
                template,
                implicit: true,
            });
        }
    }
    keys::check_plain_key_types(entity, table, &item, diagnostics);
    check_item_keys(entity, table, &item, diagnostics);
    item
}

/// The base keys must be written; a key template must put the item into
/// some index keyed on it.
fn check_item_keys(entity: &Entity, table: &Table, item: &ItemShape, diagnostics: &mut Vec<Diagnostic>) {
    let file = entity.file;
    let Some(base) = table.access.first() else { return };
    for key in std::iter::once(&base.pk).chain(base.sk.as_ref()) {
        if item.key(&key.name).is_none() {
            diagnostics.push(
                Diagnostic::new(
                    Code::MissingPartitionKey,
                    file.at(item.span),
                    format!(
                        "`{}` writes no `{}`: every item needs the table's keys",
                        entity.name.text, key.name
                    ),
                )
                .with_help(format!("add `{} = \"...\"`", key.name)),
            );
        }
    }
    // E105: a key template that puts the item into no index. An item is in
    // an index exactly when it has every key attribute of the index (indexes
    // are sparse), so an item missing an index's keys is simply not in it.
    // That is only a mistake when the item *writes* a template for a key
    // attribute and yet is in none of the indexes keyed on it: the template
    // then serves no Query. A plain attribute used as a key is the
    // attribute's own value, never dead, and is not checked.
    let in_access = |access: &KeySchema| access.key_attributes().all(|k| item.key(&k.name).is_some());
    for written in item.keys.iter().filter(|k| !k.implicit) {
        let keyed: Vec<&KeySchema> = table
            .access
            .iter()
            .filter(|a| a.key_attributes().any(|k| k.name == written.attr))
            .collect();
        // The table's own keys are E104's.
        let base_key = written.attr == base.pk.name || base.sk.as_ref().is_some_and(|sk| sk.name == written.attr);
        if base_key || keyed.is_empty() || keyed.iter().any(|a| in_access(a)) {
            continue;
        }
        // Every index keyed on it lacks another key of the item: name them.
        let mut missing: Vec<&str> = Vec::new();
        for key in keyed.iter().flat_map(|a| a.key_attributes()) {
            if item.key(&key.name).is_none() && !missing.contains(&key.name.as_str()) {
                missing.push(&key.name);
            }
        }
        let indexes: Vec<String> = keyed.iter().map(|a| format!("`{}`", a.name.text)).collect();
        let mut diagnostic = Diagnostic::new(
            Code::PartialIndexKey,
            file.at(written.span),
            format!(
                "`{}` writes `{}` but not {}: the item is in no index keyed on `{}`, so the template serves no Query",
                entity.name.text,
                written.attr,
                missing
                    .iter()
                    .map(|m| format!("`{m}`"))
                    .collect::<Vec<_>>()
                    .join(" or "),
                written.attr
            ),
        );
        for index in &keyed {
            let keys = std::iter::once(index.pk.name.as_str())
                .chain(index.sk.as_ref().map(|k| k.name.as_str()))
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(" and ");
            diagnostic = diagnostic.with_related(
                table.at(index.name.span),
                format!("index `{}` holds only items with {keys}", index.name.text),
            );
        }
        diagnostics.push(diagnostic.with_help(format!(
            "add `{} = \"...\"` to put the item into {}, or remove `{}`",
            missing.first().copied().unwrap_or_default(),
            indexes.join(" or "),
            written.attr
        )));
    }
}

fn lower_template(
    entity: &Entity,
    string: &ast::StringLit,
    delimiter: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Template {
    let file = entity.file;
    let mut parts = Vec::with_capacity(string.segments.len());
    let mut lang_parts = Vec::with_capacity(string.segments.len());
    for segment in &string.segments {
        match segment {
            Segment::Literal { text, span } => {
                parts.push(Part::Literal {
                    text: text.clone(),
                    span: *span,
                });
                lang_parts.push(lang::Part::Literal(text.clone()));
            }
            Segment::Hole { name, span } => {
                let attr = entity.attribute_id(&name.text);
                let shape = match attr.map(|i| &entity.attributes[i]) {
                    None => {
                        if !name.text.is_empty() {
                            // A hole names an attribute with an identifier name.
                            let names = entity
                                .attributes
                                .iter()
                                .map(|a| a.name.text.as_str())
                                .filter(|n| is_identifier(n));
                            let (hint, fix) = did_you_mean_fix(&name.text, file.at(name.span), names);
                            diagnostics.push(
                                Diagnostic::new(
                                    Code::UnknownHoleAttribute,
                                    file.at(name.span),
                                    format!("`{}` has no attribute `{}`{hint}", entity.name.text, name.text),
                                )
                                .with_fixes(fix),
                            );
                        }
                        lang::Shape::String
                    }
                    Some(attribute) => attribute.ty.shape(delimiter).unwrap_or_else(|| {
                        diagnostics.push(
                            Diagnostic::new(
                                Code::UnkeyableHole,
                                file.at(name.span),
                                format!(
                                    "`{}` is a `{}` and cannot be part of a key",
                                    name.text,
                                    attribute.ty.name()
                                ),
                            )
                            .with_related(file.at(attribute.span), "declared here")
                            .with_help("keys are strings, numbers or binary; use a scalar attribute"),
                        );
                        lang::Shape::String
                    }),
                };
                parts.push(Part::Hole {
                    name: name.clone(),
                    span: *span,
                    attr,
                });
                lang_parts.push(lang::Part::Hole(shape));
            }
        }
    }
    Template {
        span: string.span,
        parts,
        lang: lang::Template::new(lang_parts),
    }
}

/// A `number` key holds a number, not text: its template is one numeric hole.
fn check_number_key(entity: &Entity, key: &ast::KeyTemplate, template: &Template, diagnostics: &mut Vec<Diagnostic>) {
    let file = entity.file;
    let single_numeric = match template.parts.as_slice() {
        [Part::Hole { attr: Some(i), .. }] => entity.attributes[*i].ty.is_numeric(),
        [Part::Hole { attr: None, .. }] => true, // already reported
        _ => false,
    };
    if !single_numeric {
        diagnostics.push(
            Diagnostic::new(
                Code::NumberKeyTemplate,
                file.at(template.span),
                format!(
                    "`{}` is a number key: its value is one `int` or `decimal` attribute",
                    key.key.text
                ),
            )
            .with_help(format!(
                "write `{} = \"{{version}}\"` with `version: int`, or make the key a string",
                key.key.text
            )),
        );
    }
}

fn lower_pattern(file: FileId, pattern: &ast::Pattern, model: &Model, diagnostics: &mut Vec<Diagnostic>) -> Pattern {
    let mut returns = Vec::with_capacity(pattern.returns.len());
    for returned in &pattern.returns {
        let entity = model.entity_named(&returned.entity.text);
        if entity.is_none() {
            let name = &returned.entity;
            // In declaration order: among equally close names the first
            // declared wins, the same every run (a map's order is not).
            let names = model.entities.iter().map(|e| e.name.text.as_str());
            let (hint, fix) = did_you_mean_fix(&name.text, file.at(name.span), names);
            diagnostics.push(
                Diagnostic::new(
                    Code::UnknownEntity,
                    file.at(name.span),
                    format!("unknown entity `{}`{hint}", name.text),
                )
                .with_fixes(fix),
            );
        }
        returns.push(Return {
            name: returned.entity.clone(),
            span: returned.span,
            entity,
            many: returned.many,
            count: returned.count.as_ref().map(|c| c.amount),
        });
    }
    let returned: Vec<&Entity> = returns
        .iter()
        .filter_map(|r| r.entity.map(|e| model.entity(e)))
        .collect();
    let mut check_attr = |name: &Name, what: &str| {
        if !returned.is_empty() && !returned.iter().any(|e| e.attribute(&name.text).is_some()) {
            let names = returned
                .iter()
                .flat_map(|e| e.attributes.iter().map(|a| a.name.text.as_str()));
            let (hint, fix) = did_you_mean_fix(&name.text, file.at(name.span), names);
            diagnostics.push(
                Diagnostic::new(
                    Code::UnknownPatternAttribute,
                    file.at(name.span),
                    format!(
                        "{what} `{}` is not an attribute of the returned entities{hint}",
                        name.text
                    ),
                )
                .with_fixes(fix),
            );
        }
    };
    for known in &pattern.known {
        check_attr(&known.attr, "known value");
    }
    let mut order = None;
    let mut consistent = None;
    let mut limit = None;
    let mut operation: Option<(Span, ast::Operation)> = None;
    let mut segments = None;
    let mut rate = None;
    // Reported after the loop: `check_attr` holds the diagnostics until then.
    let mut second_operations = Vec::new();
    let mut filter = None;
    let mut extra_filters = Vec::new();
    for modifier in &pattern.modifiers {
        match modifier {
            ast::Modifier::OrderBy { span, attr, descending } => {
                check_attr(attr, "order");
                order = Some(Order {
                    attr: attr.clone(),
                    span: *span,
                    descending: *descending,
                });
            }
            ast::Modifier::Consistent(span) => consistent = Some(*span),
            ast::Modifier::Limit { count, .. } => limit = Some(*count),
            ast::Modifier::Operation { span, operation: op } => {
                if let Some((first, _)) = &operation {
                    second_operations.push(
                        Diagnostic::new(
                            Code::ReadOperationRule,
                            file.at(*span),
                            "a pattern is one read: it has one operation",
                        )
                        .with_related(file.at(*first), "the first operation"),
                    );
                } else {
                    operation = Some((*span, op.clone()));
                }
            }
            ast::Modifier::Segments { span, count } => segments = Some((*span, *count)),
            ast::Modifier::Rate(hint) => rate = Some(hint.per_second),
            ast::Modifier::Where(written) => {
                // A key attribute is E232's (the resolver knows which keys the Query reads).
                let table_keys = returned.iter().filter_map(|e| e.table).map(|t| model.table(t));
                let keys: Vec<&str> = table_keys
                    .flat_map(|t| t.key_attributes().map(|k| k.name.as_str()))
                    .collect();
                for attr in written.expr.attributes() {
                    if !keys.contains(&attr.text.as_str()) {
                        check_attr(attr, "filter attribute");
                    }
                }
                if filter.is_some() {
                    extra_filters.push(written.span);
                } else {
                    filter = Some(written.clone());
                }
            }
        }
    }
    for span in extra_filters {
        diagnostics.push(
            Diagnostic::new(Code::UnexpectedToken, file.at(span), "a pattern has one `where`")
                .with_help("join the conditions with `and`"),
        );
    }
    if let Some(filter) = &filter {
        let returned: Vec<EntityId> = returns.iter().filter_map(|r| r.entity).collect();
        for mismatch in super::filter::mismatches(model, &returned, filter) {
            diagnostics.push(
                Diagnostic::new(Code::FilterTypeMismatch, file.at(mismatch.span), mismatch.message)
                    .with_related(mismatch.declared, "declared here"),
            );
        }
    }
    diagnostics.extend(second_operations);
    if let Some(query) = &pattern.query {
        check_query_names(file, pattern, query, model, diagnostics);
    }
    Pattern {
        file,
        name: pattern.name.clone(),
        span: pattern.span,
        docs: pattern.docs.as_ref().map(|d| d.text.clone()),
        known: pattern.known.clone(),
        returns,
        order,
        consistent,
        limit,
        operation,
        segments,
        rate,
        filter: filter.map(Box::new),
        modifiers_end: pattern
            .modifiers
            .iter()
            .map(|m| m.span().end())
            .chain(pattern.returns.iter().map(|r| r.span.end()))
            .max()
            .unwrap_or(pattern.name.span.end()),
        query: pattern.query.clone().map(Box::new),
    }
}

/// The names a pinned query may use for values: the known attributes and the
/// names of range bounds.
pub fn value_names(known: &[ast::Known]) -> Vec<&str> {
    let mut names = Vec::new();
    for k in known {
        match &k.kind {
            ast::KnownKind::Equal | ast::KnownKind::Fixed(_) => names.push(k.attr.text.as_str()),
            ast::KnownKind::Compare(_, bound) | ast::KnownKind::BeginsWith(bound) => names.push(bound.text.as_str()),
            ast::KnownKind::Between(low, high) => names.extend([low.text.as_str(), high.text.as_str()]),
        }
    }
    names
}

fn check_query_names(
    file: FileId,
    pattern: &ast::Pattern,
    query: &ast::Query,
    model: &Model,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let values = value_names(&pattern.known);
    let mut check_value = |name: &Name| {
        if !values.contains(&name.text.as_str()) {
            // A value is referred to by an identifier.
            let names = values.iter().copied().filter(|n| is_identifier(n));
            let (hint, fix) = did_you_mean_fix(&name.text, file.at(name.span), names);
            diagnostics.push(
                Diagnostic::new(
                    Code::UnknownValue,
                    file.at(name.span),
                    format!("`{}` is not a value this pattern knows{hint}", name.text),
                )
                .with_help(format!(
                    "add it to the pattern's known values: `pattern {}(..., {})`",
                    pattern.name.text, name.text
                ))
                .with_fixes(fix),
            );
        }
    };
    for condition in &query.conditions {
        let operands: Vec<&ast::Operand> = match &condition.kind {
            ast::ConditionKind::Compare(_, o) | ast::ConditionKind::BeginsWith(o) => vec![o],
            ast::ConditionKind::Between(a, b) => vec![a, b],
        };
        for operand in operands {
            match operand {
                ast::Operand::Param(name) => check_value(name),
                ast::Operand::Str(s) => s.holes().for_each(&mut check_value),
                ast::Operand::Number(..) => {}
            }
        }
    }
    let Some(table) = model.table_named(&query.table.text) else {
        let names = model.tables.iter().map(|t| t.name.text.as_str());
        let (hint, fix) = did_you_mean_fix(&query.table.text, file.at(query.table.span), names);
        diagnostics.push(
            Diagnostic::new(
                Code::UnknownTableOrIndex,
                file.at(query.table.span),
                format!("unknown table `{}`{hint}", query.table.text),
            )
            .with_fixes(fix),
        );
        return;
    };
    if let Some(index) = &query.index {
        let table = model.table(table);
        if !table.access.iter().skip(1).any(|a| a.name.text == index.text) {
            let names = table.access.iter().skip(1).map(|a| a.name.text.as_str());
            let (hint, fix) = did_you_mean_fix(&index.text, file.at(index.span), names);
            diagnostics.push(
                Diagnostic::new(
                    Code::UnknownTableOrIndex,
                    file.at(index.span),
                    format!("table `{}` has no index `{}`{hint}", table.name.text, index.text),
                )
                .with_fixes(fix),
            );
        }
    }
}
