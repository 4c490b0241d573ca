//! Hover: what a name means here, in Markdown. On a pattern, its Query
//! (ready to paste) and cost; on an entity, its keys, an example item and
//! its size; on a type tag, the entities that use it; on an index, who
//! writes it; on an attribute, its type and the keys it appears in.

use std::fmt::Write;

use super::File;
use super::locate::Symbol;
use crate::check::cost;
use crate::check::model::{AccessId, AccessKind, AttrType, EntityId, KeySchema, Model, PatternId, Projection, TableId};
use crate::check::sample::example_item;
use crate::syntax::{Span, ast, names};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HoverResult {
    pub span: Span,
    pub markdown: String,
}

/// What a hover on the entity or table named `name` says, wherever it is
/// declared: a completion item's documentation (`completionItem/resolve`).
pub fn of_name(file: &File, name: &str) -> Option<String> {
    let model = &file.analysis.schema.model;
    if let Some(e) = model.entity_named(name) {
        return Some(entity(model, e));
    }
    model.table_named(name).map(|t| table(model, t))
}

pub fn hover(file: &File, offset: usize) -> Option<HoverResult> {
    if let Some(result) = ttl_keyword(file, offset)
        .or_else(|| where_keyword(file, offset))
        .or_else(|| shard_type(file, offset))
    {
        return Some(result);
    }
    let occurrence = file.occurrence_at(offset)?;
    let model = &file.analysis.schema.model;
    let markdown = match &occurrence.symbol {
        Symbol::Pattern(p) => pattern(file, *p),
        Symbol::Entity(e) => entity(model, *e),
        Symbol::Table(t) => table(model, *t),
        Symbol::Index { table, access } => index(model, *table, *access),
        Symbol::Key { table, name } => key(model, *table, name),
        Symbol::Attribute { entity, attr } => attribute(model, *entity, *attr),
        Symbol::Tag { table, text } => tag(file, *table, text),
        Symbol::Value { pattern, name } => value(model, *pattern, name),
    };
    Some(HoverResult {
        span: occurrence.span,
        markdown,
    })
}

/// The `ttl` keyword of a table: what Time to Live does with the attribute
/// (a keyword with a hover: its meaning is DynamoDB's, not obvious).
fn ttl_keyword(file: &File, offset: usize) -> Option<HoverResult> {
    let ttl = file.analysis.parse.file.items.iter().find_map(|item| match item {
        ast::Item::Table(table) => table.ttls.iter().find(|t| {
            let keyword = Span::new(t.span.start(), t.span.start() + "ttl".len());
            keyword.contains(offset) || keyword.touches(offset)
        }),
        _ => None,
    })?;
    let name = names::written(&ttl.attribute.text);
    Some(HoverResult {
        span: Span::new(ttl.span.start(), ttl.span.start() + "ttl".len()),
        markdown: format!(
            "**ttl** `{name}`: DynamoDB's Time to Live. An item whose `{name}` holds a Number of \
             epoch seconds in the past has expired and is deleted in the background, typically within \
             a few days; until then reads still return it. Items without a Number there never expire."
        ),
    })
}

/// A pattern's `where`: when DynamoDB applies the filter, and what that
/// costs (the other keyword whose meaning is DynamoDB's and not obvious).
fn where_keyword(file: &File, offset: usize) -> Option<HoverResult> {
    let filter = file.analysis.parse.file.items.iter().find_map(|item| match item {
        ast::Item::Pattern(pattern) => pattern.modifiers.iter().find_map(|m| match m {
            ast::Modifier::Where(filter) => {
                let keyword = Span::new(filter.span.start(), filter.span.start() + "where".len());
                (keyword.contains(offset) || keyword.touches(offset)).then_some(filter)
            }
            _ => None,
        }),
        _ => None,
    })?;
    let share = crate::check::filter::share(filter) * 100.0;
    Some(HoverResult {
        span: Span::new(filter.span.start(), filter.span.start() + "where".len()),
        markdown: format!(
            "**where**: a filter, DynamoDB's `FilterExpression`. It runs after the key condition has read \
             the items and before they are returned: every item read is paid for and counts toward the 1 MB \
             page, and `limit` counts items before the filter. Assumed to keep ~{share}% of the items read."
        ),
    })
}

/// The type name of a `shard(...)` attribute: which values it takes and
/// how each write picks one (a type whose meaning is not obvious).
fn shard_type(file: &File, offset: usize) -> Option<HoverResult> {
    let model = &file.analysis.schema.model;
    file.analysis.parse.file.items.iter().find_map(|item| {
        let ast::Item::Entity(entity) = item else { return None };
        let attribute = entity.attributes.iter().find(|a| {
            a.ty.name.text == "shard" && (a.ty.name.span.contains(offset) || a.ty.name.span.touches(offset))
        })?;
        let lowered = model.entity(model.entity_named(&entity.name.text)?);
        let AttrType::Shard { count, of } = &lowered.attribute(&attribute.name.text)?.ty else {
            return None;
        };
        let written = match of {
            Some(source) => format!("shard({count}, of {})", names::written(source)),
            None => format!("shard({count})"),
        };
        Some(HoverResult {
            span: attribute.ty.name.span,
            markdown: format!("**type** `{written}`\n\n{}", shard_values(*count, of.as_deref())),
        })
    })
}

/// What a shard attribute holds and who can know its value.
fn shard_values(count: u32, of: Option<&str>) -> String {
    let last = count.saturating_sub(1);
    match of {
        None => format!(
            "A write shard: a Number from `0` to `{last}`, picked at random on each write, so the items \
             written under one key value spread over {count} partitions instead of one hot partition. \
             Nobody can know it before reading: a read of them all is {count} Queries, one per shard, \
             merged by the caller."
        ),
        Some(source) => {
            let source = names::written(source);
            format!(
                "A calculated shard: a Number from `0` to `{last}`, computed from `{source}` as FNV-1a \
                 (32 bit) of its UTF-8 key text, modulo {count}. The same `{source}` always has the same \
                 shard, so a caller who knows `{source}` computes it and reads one partition; a read \
                 without `{source}` is {count} Queries, one per shard."
            )
        }
    }
}

fn docs(out: &mut String, docs: &Option<String>) {
    if let Some(docs) = docs {
        let _ = write!(out, "\n\n{docs}");
    }
}

fn pattern(file: &File, index: PatternId) -> String {
    let pattern = file.analysis.schema.model.pattern(index);
    let mut out = format!("**pattern** `{}`", pattern.name.text);
    docs(&mut out, &pattern.docs);
    match file.served(index) {
        Some(served) => {
            let via = match &served.index {
                Some(index) => format!("index `{index}`"),
                None => "the table".into(),
            };
            let how = served.sentence(&via);
            // Capitalised: it starts the sentence.
            let how = format!("{}{}", how[..1].to_uppercase(), &how[1..]);
            let request = serde_json::to_string_pretty(&served.request).unwrap_or_default();
            let _ = write!(
                out,
                "\n\n{how}:\n\n```json\n{request}\n```\n\nCost: {}",
                served.cost.describe()
            );
        }
        None => out.push_str("\n\nNo single Query serves this pattern yet: see its diagnostics."),
    }
    out
}

fn entity(model: &Model, id: EntityId) -> String {
    let entity = model.entity(id);
    let table = entity
        .table
        .map(|t| format!(" in `{}`", model.table(t).name.text))
        .unwrap_or_default();
    let mut out = format!("**entity** `{}`{table}", entity.name.text);
    docs(&mut out, &entity.docs);
    for (i, item) in entity.items.iter().enumerate() {
        let written: Vec<String> = item
            .keys
            .iter()
            .filter(|k| !k.implicit)
            .map(|k| format!("{} = \"{}\"", k.attr, k.template.lang_display()))
            .collect();
        if entity.items.len() > 1 {
            let _ = write!(out, "\n\nItem {}:", i + 1);
        } else {
            out.push_str("\n\nKeys:");
        }
        let _ = write!(out, "\n\n```dyno\n{}\n```", written.join("\n"));
        let example = serde_json::to_string_pretty(&example_item(entity, item)).unwrap_or_default();
        let size = cost::item_size(model, id, i);
        let estimated = if size.size.estimated {
            ", estimated from type defaults"
        } else {
            ""
        };
        let _ = write!(
            out,
            "\n\nExample item ({}{estimated}):\n\n```json\n{example}\n```",
            cost::format_bytes(size.size.bytes)
        );
    }
    out
}

fn table(model: &Model, id: TableId) -> String {
    let table = model.table(id);
    let mut out = format!("**table** `{}`", table.name.text);
    for access in &table.access {
        let keys = key_list(access);
        let _ = match access.kind {
            AccessKind::Base => write!(out, "\n\n- key ({keys})"),
            AccessKind::Gsi => write!(out, "\n- global index `{}` ({keys})", access.name.text),
            AccessKind::Lsi => write!(out, "\n- local index `{}` ({keys})", access.name.text),
        };
    }
    let entities = model.entities.iter().filter(|e| e.table == Some(id)).count();
    let _ = write!(out, "\n\nDelimiter `{}`; {entities} entities.", table.delimiter);
    out
}

/// `pk, sk`, or `[tenantId, region], [status, createdAt]` for a key of
/// several attributes.
fn key_list(access: &KeySchema) -> String {
    let side = |keys: Vec<&str>| match keys.as_slice() {
        [one] if !access.is_multi_attribute() => one.to_string(),
        _ => format!("[{}]", keys.join(", ")),
    };
    let partition = side(access.partition_keys().map(|k| k.name.as_str()).collect());
    match access.sk {
        Some(_) => format!(
            "{partition}, {}",
            side(access.sort_keys().map(|k| k.name.as_str()).collect())
        ),
        None => partition,
    }
}

/// How a Query names a multi-attribute key: each attribute under its own
/// name, equality on every partition attribute, the sort attributes left
/// to right with a range only on the last one used.
fn multi_attribute_condition(access: &KeySchema) -> String {
    let equal: Vec<String> = access
        .key_attributes()
        .map(|k| format!("#{} = :{}", k.name, k.name))
        .collect();
    let sort: Vec<&str> = access.sort_keys().map(|k| k.name.as_str()).collect();
    let mut out = format!("\n\nKey condition, in full: `{}`.", equal.join(" AND "));
    out.push_str(" Every partition attribute is compared by equality");
    if !sort.is_empty() {
        let _ = write!(
            out,
            "; the sort attributes ({}) are used left to right, equality on the leading ones and at most one \
             range (`<`, `<=`, `>`, `>=`, `BETWEEN`, `begins_with`) on the last one used",
            sort.join(", ")
        );
    }
    out.push_str(". Each attribute compares by its own type: numbers numerically.");
    out
}

fn index(model: &Model, table: TableId, access_id: AccessId) -> String {
    let access = model.access(table, access_id);
    let kind = if access.kind == AccessKind::Lsi {
        "local index"
    } else {
        "global index"
    };
    let mut out = format!("**{kind}** `{}` ({})", access.name.text, key_list(access));
    if access.is_multi_attribute() {
        out.push_str(&multi_attribute_condition(access));
    }
    let projection = match &access.projection {
        Projection::All => "all attributes".to_string(),
        Projection::KeysOnly => "keys only".to_string(),
        Projection::Include(names) => format!("keys and {}", names.join(", ")),
    };
    let _ = write!(out, "\n\nProjection: {projection}.");
    if access.kind == AccessKind::Gsi {
        out.push_str(" Eventually consistent reads only.");
    }
    let writers: Vec<String> = model
        .entities
        .iter()
        .filter(|e| e.table == Some(table))
        .filter(|e| {
            e.items
                .iter()
                .any(|i| access.key_attributes().all(|k| i.key(&k.name).is_some()))
        })
        .map(|e| format!("`{}`", e.name.text))
        .collect();
    if writers.is_empty() {
        out.push_str("\n\nNo entity writes this index's keys yet.");
    } else {
        let _ = write!(
            out,
            "\n\nWritten by {} (sparse: entities that do not write its keys are not in it).",
            writers.join(", ")
        );
    }
    out
}

fn key(model: &Model, table: TableId, name: &str) -> String {
    let table = model.table(table);
    let owner = table
        .access
        .iter()
        .find(|a| a.key_attributes().any(|k| k.name == name))
        .map(|a| {
            let role = if a.partition_keys().any(|k| k.name == name) {
                "partition key"
            } else {
                "sort key"
            };
            if a.is_index() {
                format!("{role} of index `{}`", a.name.text)
            } else {
                format!("{role} of table `{}`", table.name.text)
            }
        })
        .unwrap_or_else(|| "not a key of this table".into());
    let ty = table
        .key_attributes()
        .find(|k| k.name == name)
        .map(|k| format!("{:?} ", k.ty).to_lowercase())
        .unwrap_or_default();
    format!("**key** `{name}`: {ty}{owner}")
}

fn attribute(model: &Model, entity_id: EntityId, attr: usize) -> String {
    let entity = model.entity(entity_id);
    let attribute = &entity.attributes[attr];
    let optional = if attribute.optional { "?" } else { "" };
    let mut out = format!(
        "**attribute** `{}.{}`: `{}{optional}`",
        entity.name.text,
        names::written(&attribute.name.text),
        attribute.ty.name()
    );
    match &attribute.ty {
        AttrType::Enum(values) => {
            let _ = write!(out, " ({})", values.join(" | "));
        }
        AttrType::Shard { count, of } => {
            let _ = write!(out, "\n\n{}", shard_values(*count, of.as_deref()));
        }
        _ => {}
    }
    let uses: Vec<String> = entity
        .items
        .iter()
        .flat_map(|i| &i.keys)
        .filter(|k| k.template.holes().any(|(_, a)| a == Some(attr)))
        .map(|k| format!("`{} = \"{}\"`", names::written(&k.attr), k.template.lang_display()))
        .collect();
    if uses.is_empty() {
        out.push_str("\n\nNot part of any key.");
    } else {
        let _ = write!(out, "\n\nIn keys: {}", uses.join(", "));
    }
    let ttl_table = entity
        .table
        .map(|t| model.table(t))
        .filter(|t| t.ttl.as_ref().is_some_and(|ttl| ttl.text == attribute.name.text));
    if let Some(table) = ttl_table {
        let _ = write!(
            out,
            "\n\nThe Time to Live attribute of `{}`: a Number of epoch seconds, after which DynamoDB \
             deletes the item in the background (typically within a few days; reads return it until then).",
            table.name.text
        );
    }
    out
}

fn tag(file: &File, table: TableId, text: &str) -> String {
    let model = &file.analysis.schema.model;
    let mut users: Vec<String> = Vec::new();
    for occurrence in file.tags_written().iter() {
        if !matches!(&occurrence.symbol, Symbol::Tag { table: t, text: x } if *t == table && x == text) {
            continue;
        }
        if let Some((entity, key)) = key_line_at(model, file.analysis.file, occurrence.span.start()) {
            let line = format!(
                "`{}`: `{} = \"{}\"`",
                model.entity(entity).name.text,
                names::written(&key.0),
                key.1
            );
            if !users.contains(&line) {
                users.push(line);
            }
        }
    }
    let mut out = format!("**type tag** `{text}`");
    if users.is_empty() {
        out.push_str("\n\nNo key template writes this tag.");
    } else {
        let _ = write!(out, "\n\nWritten by:\n- {}", users.join("\n- "));
    }
    out
}

/// The entity of `file` and `(key, template)` whose template contains
/// `offset`.
fn key_line_at(model: &Model, file: crate::syntax::FileId, offset: usize) -> Option<(EntityId, (String, String))> {
    model.entity_ids().filter(|(_, e)| e.file == file).find_map(|(id, e)| {
        e.items
            .iter()
            .flat_map(|i| &i.keys)
            .find(|k| !k.implicit && k.template.span.contains(offset))
            .map(|k| (id, (k.attr.to_string(), k.template.lang_display())))
    })
}

fn value(model: &Model, pattern: PatternId, name: &str) -> String {
    let pattern = model.pattern(pattern);
    format!("**value** `{name}`: passed by the caller of `{}`", pattern.name.text)
}
