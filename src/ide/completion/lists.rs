//! The fixed lists completion offers: keywords, types and the names the
//! model knows, each for one kind of place. Which list applies where is
//! decided in `mod.rs`.

use super::{Completion, CompletionKind};
use crate::check::model::{AttrType, EntityId, Model, TableId};

pub(super) fn top_level(model: &Model, snippets: bool) -> Vec<Completion> {
    let mut out = vec![
        Completion::new("table", CompletionKind::Keyword).detail("a DynamoDB table: keys, indexes, delimiter"),
        Completion::new("entity", CompletionKind::Keyword)
            .detail("an item type with typed attributes and key templates"),
        Completion::new("pattern", CompletionKind::Keyword).detail("an access pattern: one Query"),
    ];
    if snippets {
        out.push(
            Completion::new("table { key … }", CompletionKind::Snippet)
                .detail("a table with a partition and a sort key")
                .snippet("table ${1:Name} {\n\tkey ${2:pk}, ${3:sk}\n}"),
        );
        // An entity assigns the keys of the (first) table.
        let keys: Vec<String> = model
            .tables
            .first()
            .and_then(|t| t.base())
            .map(|b| std::iter::once(b.pk.name.clone()).chain(b.sk.as_ref().map(|s| s.name.clone())))
            .map(|k| k.collect())
            .unwrap_or_else(|| vec!["pk".into(), "sk".into()]);
        let mut body = String::from("entity ${1:Name} {\n\t${2:id}: ${3:id}\n");
        for (i, key) in keys.iter().enumerate() {
            body.push_str(&format!("\n\t{key} = \"${}\"", i + 4));
        }
        body.push_str("\n}");
        out.push(
            Completion::new("entity { … }", CompletionKind::Snippet)
                .detail("an entity with its key templates")
                .snippet(body),
        );
        out.push(
            Completion::new("pattern (…) -> …", CompletionKind::Snippet)
                .detail("an access pattern")
                .snippet("pattern ${1:name}(${2:known}) -> ${3:Entity}"),
        );
    }
    out
}

pub(super) fn table_members() -> Vec<Completion> {
    vec![
        Completion::new("key", CompletionKind::Keyword).detail("the partition key [, sort key]"),
        Completion::new("index", CompletionKind::Keyword).detail("a global secondary index (GSI)"),
        Completion::new("local index", CompletionKind::Keyword)
            .detail("a local secondary index (LSI)")
            .insert("local index "),
        Completion::new("delimiter", CompletionKind::Keyword).detail("the key separator (default \"#\")"),
        Completion::new("ttl", CompletionKind::Keyword).detail("the Time to Live attribute (epoch seconds)"),
    ]
}

pub(super) fn projections() -> Vec<Completion> {
    vec![
        Completion::new("all", CompletionKind::Keyword).detail("project every attribute (the default)"),
        Completion::new("keys_only", CompletionKind::Keyword).detail("project the table and index keys only"),
        Completion::new("include", CompletionKind::Keyword)
            .detail("the keys plus the named attributes")
            .snippet("include(${1:attribute})"),
    ]
}

pub(super) fn key_types() -> Vec<Completion> {
    vec![
        Completion::new("string", CompletionKind::Type).detail("S (the default)"),
        Completion::new("number", CompletionKind::Type).detail("N: numeric order"),
        Completion::new("binary", CompletionKind::Type).detail("B"),
    ]
}

pub(super) fn attribute_types() -> Vec<Completion> {
    let plain = |name: &str, detail: &str| Completion::new(name, CompletionKind::Type).detail(detail);
    vec![
        plain("string", "any text"),
        plain("id", "non-empty text without the delimiter"),
        plain("int", "decimal digits"),
        Completion::new("int(pad N)", CompletionKind::Type)
            .detail("exactly N digits, zero-padded: string order = numeric order")
            .snippet("int(pad ${1:6})"),
        plain("decimal", "a decimal number"),
        plain("bool", "true or false"),
        plain("date", "YYYY-MM-DD"),
        plain("datetime", "ISO-8601 UTC, YYYY-MM-DDThh:mm:ssZ"),
        plain("datetime(local)", "ISO-8601 without a zone, YYYY-MM-DDThh:mm:ss"),
        plain("datetime(offset)", "ISO-8601 with +hh:mm: text order is not time order"),
        plain("epoch", "a Number of seconds since 1970 (a TTL attribute)"),
        plain("epoch(ms)", "a Number of milliseconds since 1970"),
        plain("uuid", "36 characters, random"),
        plain("ulid", "26 characters, sorts by creation time"),
        Completion::new("enum(...)", CompletionKind::Type)
            .detail("one of the listed words")
            .snippet("enum(${1:a}, ${2:b})"),
        Completion::new("shard(N)", CompletionKind::Type)
            .detail("a write shard: 0 to N-1, picked at random on each write")
            .snippet("shard(${1:10})"),
        Completion::new("shard(N, of attribute)", CompletionKind::Type)
            .detail("a calculated shard: FNV-1a of the attribute's key text, modulo N")
            .snippet("shard(${1:10}, of ${2:attribute})"),
        plain("binary", "bytes (cannot fill a hole)"),
        plain("list", "a DynamoDB list (cannot fill a hole)"),
        plain("map", "a DynamoDB map (cannot fill a hole)"),
    ]
}

/// After the `/` of a rate hint (`~2500/`): the only unit.
pub(super) fn per_second() -> Vec<Completion> {
    vec![Completion::new("s", CompletionKind::Keyword).detail("per second: `~2500/s`")]
}

pub(super) fn modifiers() -> Vec<Completion> {
    vec![
        Completion::new("by", CompletionKind::Keyword).detail("order by an attribute"),
        Completion::new("consistent", CompletionKind::Keyword).detail("a strongly consistent read"),
        Completion::new("limit", CompletionKind::Keyword).detail("at most N items per page"),
        Completion::new("get", CompletionKind::Keyword).detail("read with GetItem: the whole primary key"),
        Completion::new("batch get", CompletionKind::Keyword).detail("read with BatchGetItem: up to 100 keys"),
        Completion::new("scan", CompletionKind::Keyword).detail("read every item of the table or an index"),
        Completion::new("segments", CompletionKind::Keyword).detail("a parallel Scan in N segments"),
        Completion::new("where", CompletionKind::Keyword).detail("filter the items read (FilterExpression)"),
        Completion::new("= query …", CompletionKind::Snippet)
            .detail("pin the Query")
            .snippet("= query ${1:Table} where ${2}"),
    ]
}

/// Every key attribute of a table, each once, with its role.
pub(super) fn key_roles(model: &Model, table: TableId) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for access in &model.table(table).access {
        let keys = std::iter::once((&access.pk, "partition key")).chain(access.sk.as_ref().map(|s| (s, "sort key")));
        for (key, role) in keys {
            if out.iter().any(|(n, _)| *n == key.name) {
                continue;
            }
            let role = if access.is_index() {
                format!("{role} of index {}", access.name.text)
            } else {
                format!("{role} of {}", access.name.text)
            };
            out.push((key.name.clone(), role));
        }
    }
    out
}

/// The attributes of some entities, each name once, with its type (and the
/// entities that have it when there are several). `holes` keeps only the
/// types that can fill a key-template hole.
pub(super) fn attributes(model: &Model, entities: &[EntityId], holes: bool) -> Vec<Completion> {
    let mut found: Vec<(String, String, Vec<&str>)> = Vec::new();
    for &entity in entities {
        let entity = model.entity(entity);
        for attribute in &entity.attributes {
            if holes && matches!(attribute.ty, AttrType::Binary | AttrType::List | AttrType::Map) {
                continue;
            }
            match found.iter_mut().find(|(n, _, _)| *n == attribute.name.text) {
                Some((_, _, owners)) => owners.push(&entity.name.text),
                None => {
                    let optional = if attribute.optional { "?" } else { "" };
                    found.push((
                        attribute.name.text.to_string(),
                        format!("{}{optional}", attribute.ty.name()),
                        vec![&entity.name.text],
                    ));
                }
            }
        }
    }
    found
        .into_iter()
        .map(|(name, ty, owners)| {
            let detail = if entities.len() > 1 {
                format!("{ty} ({})", owners.join(", "))
            } else {
                ty
            };
            Completion::new(name, CompletionKind::Attribute).detail(detail)
        })
        .collect()
}

/// The values a fixed known may take: an enum's words, or `true`/`false`.
pub(super) fn fixed_values(model: &Model, entities: &[EntityId], attr: &str) -> Vec<Completion> {
    let ty = model.attribute_among(entities, attr).map(|a| &a.ty);
    match ty {
        Some(AttrType::Enum(values)) => values
            .iter()
            .map(|v| Completion::new(v, CompletionKind::EnumMember).detail(format!("{attr} value")))
            .collect(),
        Some(AttrType::Bool) => vec![
            Completion::new("true", CompletionKind::Keyword),
            Completion::new("false", CompletionKind::Keyword),
        ],
        _ => Vec::new(),
    }
}
