//! The reads that are not a Query, run against the endpoint: GetItem,
//! BatchGetItem (retrying `UnprocessedKeys`) and Scan (every segment of a
//! parallel scan, every page), returning what they read as [`Pages`].

use std::collections::HashMap;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{AttributeValue, KeysAndAttributes};

use super::dynamo::{filter_placeholders, key_value, query_pages, sdk_error};
use super::pages::{Pages, merge_by_key};

use super::plan::ConcreteQuery;
use crate::check::model::Model;
use crate::check::resolve::{Read, SortOp};

/// Runs the plan's read; `follow` follows `LastEvaluatedKey` to the last page.
pub async fn read_pages(
    client: &Client,
    model: &Model,
    query: &ConcreteQuery,
    name: &str,
    follow: bool,
) -> Result<Pages, String> {
    match query.read {
        Read::Query => query_pages(client, model, query, name, follow).await,
        Read::GetItem => {
            let output = client
                .get_item()
                .table_name(name)
                .set_key(Some(primary_key(model, query)))
                .consistent_read(query.consistent)
                .send()
                .await
                .map_err(|e| sdk_error("GetItem", e))?;
            let mut out = Pages::default();
            out.add(output.item.as_slice(), None, false);
            Ok(out)
        }
        Read::BatchGetItem => batch_get(client, model, query, name).await,
        Read::Scan { segments } => {
            let mut out = Pages::default();
            let total = segments.unwrap_or(1);
            for segment in 0..total {
                scan_segment(client, model, query, name, follow, (segment, segments), &mut out).await?;
            }
            Ok(out)
        }
    }
}

/// A read over every write shard: each shard's Query, merged by the sort
/// key as a client merges them. With a `Limit`, each shard's first page
/// holds its first `limit` items; the merged first page is the first
/// `limit` of those (the read's first `limit` items overall), and every
/// other item follows in key order.
pub async fn read_shards(
    client: &Client,
    model: &Model,
    queries: &[ConcreteQuery],
    name: &str,
    follow: bool,
) -> Result<Pages, String> {
    let mut shards = Vec::with_capacity(queries.len());
    for query in queries {
        shards.push(read_pages(client, model, query, name, follow).await?);
    }
    let Some(first) = queries.first() else {
        return Ok(Pages::default());
    };
    Ok(merge_by_key(
        first.key_schema(model),
        first.forward,
        first.limit,
        shards,
    ))
}

fn primary_key(model: &Model, query: &ConcreteQuery) -> HashMap<String, AttributeValue> {
    let access = query.key_schema(model);
    let mut key = HashMap::from([(access.pk.name.clone(), key_value(access.pk.ty, query.partition.clone()))]);
    if let (Some(sk), Some(SortOp::Eq(value))) = (&access.sk, &query.sort) {
        key.insert(sk.name.clone(), key_value(sk.ty, value.to_string()));
    }
    key
}

/// One key, asked again while DynamoDB returns it unprocessed ("If
/// DynamoDB returns any unprocessed items, you should retry the batch
/// operation on those items", AWS, *BatchGetItem*).
async fn batch_get(client: &Client, model: &Model, query: &ConcreteQuery, name: &str) -> Result<Pages, String> {
    let mut request = KeysAndAttributes::builder()
        .keys(primary_key(model, query))
        .consistent_read(query.consistent)
        .build()
        .map_err(|e| sdk_error("BatchGetItem", e))?;
    let mut out = Pages::default();
    loop {
        let output = client
            .batch_get_item()
            .request_items(name, request)
            .send()
            .await
            .map_err(|e| sdk_error("BatchGetItem", e))?;
        let items = output
            .responses()
            .and_then(|r| r.get(name))
            .map_or(&[][..], Vec::as_slice);
        out.add(items, None, false);
        match output.unprocessed_keys().and_then(|u| u.get(name)) {
            Some(rest) if !rest.keys().is_empty() && out.pages < 100 => request = rest.clone(),
            Some(rest) if !rest.keys().is_empty() => {
                return Err("BatchGetItem: keys still unprocessed after 100 tries".into());
            }
            _ => break,
        }
    }
    Ok(out)
}

/// Every page of one segment (`(segment, Some(total))`) or of a whole Scan
/// (`(0, None)`), appended to `out`.
async fn scan_segment(
    client: &Client,
    model: &Model,
    query: &ConcreteQuery,
    name: &str,
    follow: bool,
    (segment, total): (u64, Option<u64>),
    out: &mut Pages,
) -> Result<(), String> {
    let access = query.key_schema(model);
    let to_i32 = |n: u64| n.min(i32::MAX as u64) as i32;
    let (names, values) = match &query.filter {
        Some(filter) => {
            let (names, values) = filter_placeholders(filter);
            (Some(names), Some(values))
        }
        None => (None, None),
    };
    let mut start: Option<HashMap<String, AttributeValue>> = None;
    let mut pages = 0;
    loop {
        let output = client
            .scan()
            .table_name(name)
            .set_index_name(access.is_index().then(|| access.name.text.to_string()))
            .consistent_read(query.consistent)
            .set_filter_expression(query.filter.as_ref().map(|f| f.text.clone()))
            .set_expression_attribute_names(names.clone())
            .set_expression_attribute_values(values.clone())
            .set_limit(query.limit.map(to_i32))
            .set_segment(total.map(|_| to_i32(segment)))
            .set_total_segments(total.map(to_i32))
            .set_exclusive_start_key(start.take())
            .send()
            .await
            .map_err(|e| sdk_error("Scan", e))?;
        pages += 1;
        start = out.add(output.items(), output.last_evaluated_key.clone(), follow);
        if start.is_none() {
            break;
        }
        if pages >= 10_000 {
            return Err("Scan: more than 10000 pages in one segment".into());
        }
    }
    Ok(())
}
