//! Reads that are not a Query: `get` (GetItem), `batch get` (BatchGetItem)
//! and `scan` (Scan). A get is a Query the checker already proves, narrowed
//! to the whole primary key of the table; a scan reads every item of a table
//! or index, so what it returns is every entity stored there.

use super::{Context, Resolution, registry::ItemRef};
use crate::check::model::{AccessId, AccessKind, Model, Pattern, Table, TableId};
use crate::check::value::Value;
use crate::diagnostic::{Code, Diagnostic};
use crate::syntax::Span;
use crate::syntax::ast::{KnownKind, Operation};

/// The request a resolution makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Read {
    #[default]
    Query,
    GetItem,
    BatchGetItem,
    /// `TotalSegments`, for a parallel Scan.
    Scan {
        segments: Option<u64>,
    },
}

impl Read {
    /// The DynamoDB operation's name.
    pub fn name(self) -> &'static str {
        match self {
            Read::Query => "Query",
            Read::GetItem => "GetItem",
            Read::BatchGetItem => "BatchGetItem",
            Read::Scan { .. } => "Scan",
        }
    }

    /// The AWS CLI's name of the operation (`aws dynamodb get-item`).
    pub fn cli_name(self) -> &'static str {
        match self {
            Read::Query => "query",
            Read::GetItem => "get-item",
            Read::BatchGetItem => "batch-get-item",
            Read::Scan { .. } => "scan",
        }
    }

    /// The request a `get`, `batch get` or `scan` pattern makes.
    pub fn of(operation: &Operation, segments: Option<u64>) -> Read {
        match operation {
            Operation::Get => Read::GetItem,
            Operation::BatchGet => Read::BatchGetItem,
            Operation::Scan(_) => Read::Scan { segments },
        }
    }
}

/// BatchGetItem: "If you request more than 100 items, BatchGetItem returns a
/// ValidationException" (AWS, *BatchGetItem*).
pub const BATCH_GET_KEYS: f64 = 100.0;
/// Scan's `TotalSegments`: "greater than or equal to 1, and less than or
/// equal to 1000000" (AWS, *Scan*).
const MAX_SEGMENTS: u64 = 1_000_000;

/// What the modifiers of a `get`, `batch get` or `scan` pattern may not say,
/// whatever the keys: reported, and `false` when the pattern cannot resolve.
pub fn check_modifiers(pattern: &Pattern, diagnostics: &mut Vec<Diagnostic>) -> bool {
    let mut rule = |span: Span, message: String, help: &str| {
        diagnostics.push(Diagnostic::new(Code::ReadOperationRule, pattern.at(span), message).with_help(help));
    };
    let mut ok = true;
    let Some((op_span, operation)) = &pattern.operation else {
        if let Some((span, _)) = pattern.segments {
            rule(
                span,
                "`segments` divides a Scan; this pattern is a Query".into(),
                "add `scan`, or drop `segments`",
            );
            ok = false;
        }
        return ok;
    };
    let name = Read::of(operation, None).name();
    if pattern.query.is_some() {
        rule(
            *op_span,
            format!("a pinned query is a Query, not a {name}"),
            "drop the pinned query, or the operation",
        );
        ok = false;
    }
    if let Some(order) = &pattern.order {
        rule(
            order.span,
            format!("{name} returns items in no order it lets you choose: only a Query has `ScanIndexForward`"),
            "drop `by`, or drop the operation to read with an ordered Query",
        );
        ok = false;
    }
    let many = pattern.returns.iter().any(|r| r.many);
    match operation {
        Operation::Get | Operation::BatchGet => {
            if pattern.limit.is_some() {
                rule(
                    *op_span,
                    format!("{name} has no `Limit`: it reads the keys it is given"),
                    "drop `limit`",
                );
                ok = false;
            }
            if let Some(filter) = &pattern.filter {
                rule(
                    filter.span,
                    format!("{name} has no `FilterExpression`: it returns the items whose keys it is given"),
                    "drop the filter and test the item in the application, or read with a Query",
                );
                ok = false;
            }
            if let Some((span, _)) = pattern.segments {
                rule(
                    span,
                    format!("`segments` divides a Scan, not a {name}"),
                    "drop `segments`",
                );
                ok = false;
            }
            if let Some(range) = pattern
                .known
                .iter()
                .find(|k| !matches!(k.kind, KnownKind::Equal | KnownKind::Fixed(_)))
            {
                rule(
                    range.span,
                    format!("{name} reads by whole primary keys: a range needs a Query"),
                    "make the value an equality, or drop the operation",
                );
                ok = false;
            }
            if pattern.returns.len() > 1 {
                rule(
                    *op_span,
                    format!("{name} reads items of one entity per pattern, by its primary key"),
                    "return one entity, or drop the operation to read an item collection with a Query",
                );
                ok = false;
            }
            let batch = *operation == Operation::BatchGet;
            if many != batch {
                let (says, write) = if batch {
                    ("returns several items", "`E[]`")
                } else {
                    ("returns one item", "`E`")
                };
                rule(
                    *op_span,
                    format!("{name} {says}: write the return as {write}"),
                    if batch {
                        "use `get` for one item"
                    } else {
                        "use `batch get` for several keys"
                    },
                );
                ok = false;
            }
            if batch
                && let Some(count) = pattern
                    .returns
                    .iter()
                    .filter_map(|r| r.count)
                    .find(|&c| c > BATCH_GET_KEYS)
            {
                diagnostics.push(
                    Diagnostic::new(
                        Code::BatchTooLarge,
                        pattern.at(*op_span),
                        format!("BatchGetItem takes at most 100 keys, and `{}` expects ~{count}: DynamoDB rejects the request", pattern.name.text),
                    )
                    .with_help("split the keys into requests of 100 in the application"),
                );
                ok = false;
            }
        }
        Operation::Scan(_) => {
            if let Some(known) = pattern.known.first() {
                rule(
                    known.span,
                    "a Scan reads no key: a known value would only be checked after every item is read".into(),
                    "read with a Query whose key holds it, or test it in a filter (`where attr = value`)",
                );
                ok = false;
            }
            if let Some((span, count)) = pattern.segments
                && !(1..=MAX_SEGMENTS).contains(&count)
            {
                rule(
                    span,
                    format!("`TotalSegments` is 1 to 1000000, not {count}"),
                    "pick a number of segments in range",
                );
                ok = false;
            }
        }
    }
    ok
}

/// A `get` or `batch get`: the Query for one item on the table itself —
/// GetItem reads no index — with an equality on the whole primary key.
/// `one_key` is the pattern with each return single, as each key names one
/// item.
pub fn get(
    cx: &Context,
    pattern: &Pattern,
    one_key: &Pattern,
    batch: bool,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Resolution> {
    let table = cx.model.table(cx.table);
    let base = AccessId::new(0);
    let access = table.access(base);
    let read = if batch { Read::BatchGetItem } else { Read::GetItem };
    let name = read.name();
    let (span, _) = pattern.operation.as_ref()?;
    let why = match super::sharded::try_access(cx, one_key, base) {
        Ok((query, _)) => match (&access.sk, &query.sort) {
            // A random shard is not known: one request per shard is no get.
            _ if query.shards.as_ref().is_some_and(|s| s.requests() > 1) => {
                let shards = query.shards.as_ref().expect("checked");
                format!(
                    "the partition key has a random shard `{}` (one of {}): know it, or compute it from a known value (`shard({}, of ...)`)",
                    shards.attr, shards.count, shards.count
                )
            }
            (None, _) | (Some(_), Some(super::SortOp::Eq(_))) => {
                return Some(Resolution { read, ..query });
            }
            (Some(sk), _) => format!("the known values do not give the whole sort key `{}`", sk.name),
        },
        Err(reason) => reason.render(cx.model),
    };
    diagnostics.push(
        Diagnostic::new(
            Code::GetWithoutKey,
            pattern.at(*span),
            format!("{name} needs the whole primary key of `{}`: {why}", table.name.text),
        )
        .with_related(table.at(access.span), "the table's primary key")
        .with_help("know every attribute of the primary key, or drop the operation to read with a Query"),
    );
    None
}

/// A `scan` or `scan index`: every entity stored in the table or index must
/// be declared, and every declared one must be there.
pub fn scan(
    cx: &Context,
    pattern: &Pattern,
    index: Option<&crate::syntax::ast::Name>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Resolution> {
    let table = cx.model.table(cx.table);
    let (op_span, _) = pattern.operation.as_ref()?;
    let access_id = match index {
        None => AccessId::new(0),
        Some(name) => match table.index_id(&name.text) {
            Some(id) => id,
            None => {
                diagnostics.push(Diagnostic::new(
                    Code::UnknownTableOrIndex,
                    pattern.at(name.span),
                    format!("table `{}` has no index `{}`", table.name.text, name.text),
                ));
                return None;
            }
        },
    };
    let access = table.access(access_id);
    if let Some(span) = pattern.consistent
        && access.kind == AccessKind::Gsi
    {
        diagnostics.push(
            Diagnostic::new(
                Code::ConsistentGsi,
                pattern.at(span),
                format!(
                    "index `{}` is a global index: a Scan of it cannot be strongly consistent",
                    access.name.text
                ),
            )
            .with_help("drop `consistent`, or scan the table"),
        );
        return None;
    }
    let stored = stored_in(cx.model, cx.registry, cx.table, table, access_id);
    let where_ = scanned_place(table, access_id);
    let mut ok = true;
    // Undeclared entities a filter removes are read, not returned (W231).
    let (mut filtered_out, extra): (Vec<&ItemRef>, Vec<&ItemRef>) = stored
        .iter()
        .filter(|i| !cx.returns.contains(&i.entity))
        .partition(|i| super::removed_by_filter(cx, pattern, i.entity));
    if !extra.is_empty() {
        let mut names: Vec<&str> = extra
            .iter()
            .map(|i| cx.model.entity(i.entity).name.text.as_str())
            .collect();
        names.dedup();
        let mut diagnostic = Diagnostic::new(
            Code::ExtraEntities,
            pattern.at(*op_span),
            format!(
                "a Scan of {where_} also returns `{}`, which `{}` does not declare",
                names.join("`, `"),
                pattern.name.text
            ),
        );
        for item in extra {
            let entity = cx.model.entity(item.entity);
            if let Some(kv) = entity.items[item.item].key(&access.pk.name) {
                diagnostic =
                    diagnostic.with_related(entity.at(kv.span), format!("`{}` is stored there", entity.name.text));
            }
        }
        diagnostics.push(
            diagnostic.with_help("declare every entity stored there, or scan a sparse index that holds only these"),
        );
        ok = false;
    }
    for ret in &pattern.returns {
        let Some(entity) = ret.entity else { continue };
        if !stored.iter().any(|i| i.entity == entity) {
            diagnostics.push(Diagnostic::new(
                Code::ReadOperationRule,
                pattern.at(ret.span),
                format!(
                    "`{}` has no item in {where_}: the Scan never returns it",
                    cx.model.entity(entity).name.text
                ),
            ));
            ok = false;
        }
    }
    if !ok {
        return None;
    }
    let resolution = Resolution {
        table: cx.table,
        access: access_id,
        partition: Value::default(),
        partition_rest: Vec::new(),
        sort_equal: Vec::new(),
        sort: None,
        descending: false,
        consistent: pattern.consistent.is_some(),
        limit: pattern.limit,
        returns: cx.returns.clone(),
        relies_on: vec![table.at(access.span)],
        pinned: false,
        shards: None,
        read: Read::Scan {
            segments: pattern.segments.map(|(_, n)| n),
        },
        filtered_out: {
            filtered_out.dedup_by_key(|i| i.entity);
            filtered_out.iter().map(|i| i.entity).collect()
        },
        filter: pattern.filter.clone(),
    };
    // Allowed, but never silent: the cost grows with the table, not with
    // what the caller needs.
    let cost = crate::check::cost::read_cost(cx.model, cx.registry, pattern, &resolution);
    diagnostics.push(
        Diagnostic::new(
            Code::ScanReadsAll,
            pattern.at(*op_span),
            format!(
                "`{}` scans {where_}: every call reads every item stored there, {}",
                pattern.name.text,
                // The cost's own note would say the same again.
                crate::check::cost::ReadCost { scan: false, ..cost }.describe()
            ),
        )
        .with_help("size it with `~N` on the returns; a Query on a key (or a sparse index) reads only what it returns"),
    );
    Some(resolution)
}

/// "the table `Shop`" or "index `gsi1`".
fn scanned_place(table: &Table, access: AccessId) -> String {
    let access = table.access(access);
    match access.kind {
        AccessKind::Base => format!("table `{}`", table.name.text),
        _ => format!("index `{}`", access.name.text),
    }
}

/// Every item shape that is stored in the table or index: it writes every
/// key attribute of the access path.
pub fn stored_in(
    model: &Model,
    registry: &super::Registry,
    table_id: TableId,
    table: &Table,
    access: AccessId,
) -> Vec<ItemRef> {
    let access = table.access(access);
    let mut found: Vec<ItemRef> = registry
        .compatible(table_id, &access.pk.name, "")
        .into_iter()
        .filter(|i| super::multi::in_index(access, &model.entity(i.entity).items[i.item]))
        .collect();
    found.sort_by_key(|i| (i.entity.index(), i.item));
    found.dedup();
    found
}
