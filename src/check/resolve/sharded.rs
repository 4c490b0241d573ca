//! A partition key with a write shard (`"SCORE#{day}.{shard}"`,
//! `shard: shard(10)`) that the pattern does not know. The shard becomes a
//! parameter of the request, and the pattern is proved as if the caller
//! knew it: each request returns exactly the declared items of one shard,
//! so the requests for every shard together return exactly the declared
//! items. That composes for collections, order (merged by the sort key)
//! and `limit` (each shard's first page, merged), but not for a single
//! return: each shard can hold one, so it is rejected. A calculated shard
//! (`shard(10, of userId)`) whose source the caller knows is computed by
//! the caller: one request.

use super::exact::Caveats;
use super::rejection::Rejection;
use super::{Context, Resolution, Shards, declarative};
use crate::check::lang;
use crate::check::model::{AccessId, AttrType, Pattern};
use crate::check::shard;
use crate::check::value::Value;
use crate::syntax::ast::{Known, KnownKind, Name};

/// [`declarative::try_access`], with the shard of the partition key as a
/// parameter when that is all the pattern is missing.
pub fn try_access(cx: &Context, pattern: &Pattern, access: AccessId) -> Result<(Resolution, Caveats), Rejection> {
    let first = declarative::try_access(cx, pattern, access);
    let Err(Rejection::PartitionNeeds { attr, .. }) = &first else {
        return first;
    };
    let Some(shards) = unknown_shard(cx, attr) else {
        return first;
    };
    // Each shard's Query returns at most one item of a single return, but
    // every shard can hold one: together they return up to N.
    if shards.from.is_none()
        && let Some(single) = pattern.returns.iter().find(|r| {
            !r.many
                && r.entity
                    .is_some_and(|e| cx.model.entity(e).attribute(&shards.attr).is_some())
        })
    {
        return Err(Rejection::OnePerShard {
            entity: single.entity.expect("checked"),
            attr: shards.attr.clone(),
            count: shards.count,
        });
    }
    let (cx, pattern) = knowing_the_shard(cx, pattern, &shards);
    let (resolution, caveats) = declarative::try_access(&cx, &pattern, access)?;
    Ok((
        Resolution {
            shards: Some(shards),
            ..resolution
        },
        caveats,
    ))
}

/// The pattern and its context with the shard a known value (a parameter).
pub fn knowing_the_shard<'m>(cx: &Context<'m>, pattern: &Pattern, shards: &Shards) -> (Context<'m>, Pattern) {
    let mut knowns = cx.knowns.clone();
    let mut value = Value::default();
    value.push_param(&shards.attr, lang::Shape::Enum(shard::values(shards.count)));
    knowns.equal.insert(shards.attr.clone(), value);
    let mut known = pattern.known.clone();
    known.push(Known {
        span: pattern.name.span,
        attr: Name {
            text: shards.attr.as_str().into(),
            span: pattern.name.span,
        },
        kind: KnownKind::Equal,
        bound_type: None,
    });
    let cx = Context {
        sources: cx.sources,
        file: cx.file,
        model: cx.model,
        registry: cx.registry,
        table: cx.table,
        returns: cx.returns.clone(),
        knowns,
    };
    (
        cx,
        Pattern {
            known,
            ..pattern.clone()
        },
    )
}

/// `attr` when it is a shard of the returned entities that the pattern does
/// not know: the most shards any of them writes, and the known source every
/// one of them computes it from, if they all do.
fn unknown_shard(cx: &Context, attr: &str) -> Option<Shards> {
    if cx.knowns.equal.contains_key(attr) {
        return None;
    }
    let kinds: Vec<(u32, Option<&String>)> = cx
        .returns
        .iter()
        .filter_map(|&e| cx.model.entity(e).attribute(attr))
        .map(|a| match &a.ty {
            AttrType::Shard { count, of } => Some((*count, of.as_ref())),
            _ => None,
        })
        .collect::<Option<_>>()?;
    let count = kinds.iter().map(|(count, _)| *count).max()?;
    let (_, first_source) = kinds[0];
    let from = first_source
        .filter(|source| cx.knowns.equal.contains_key(source.as_str()))
        .filter(|_| kinds.iter().all(|&(c, of)| c == count && of == first_source))
        .cloned();
    Some(Shards {
        attr: attr.to_string(),
        count,
        from,
    })
}
