//! What a read returned, page after page, and the merge of a sharded
//! read's Queries by the sort key: plain data, so the simulated endpoint of
//! the tests (and any caller without the SDK) shares them with the run.

use serde_json::{Map, Value as Json};

use super::plan::key_order;
use crate::check::model::KeySchema;

/// What one Query returned over all its pages.
#[derive(Clone, Debug, Default)]
pub struct Pages {
    /// Every item, page after page.
    pub items: Vec<Map<String, Json>>,
    /// How many of them the first page held (what `limit` is judged on).
    pub first_page: usize,
    pub pages: usize,
}

/// The Queries of every write shard merged as a client merges them: each
/// shard's first page (its first `limit` items) sorted by the key make the
/// merged first page, cut at `limit`; every other item follows in key order.
pub fn merge_by_key(access: &KeySchema, forward: bool, limit: Option<u64>, shards: Vec<Pages>) -> Pages {
    let order = |a: &Map<String, Json>, b: &Map<String, Json>| key_order(access, forward, a, b);
    let mut first = Vec::new();
    let mut rest = Vec::new();
    let mut pages = 0;
    for shard in shards {
        pages += shard.pages;
        let mut items = shard.items;
        rest.extend(items.split_off(shard.first_page.min(items.len())));
        first.extend(items);
    }
    first.sort_by(order);
    if let Some(limit) = limit.and_then(|l| usize::try_from(l).ok()) {
        rest.extend(first.split_off(limit.min(first.len())));
    }
    rest.sort_by(order);
    let first_page = first.len();
    first.extend(rest);
    Pages {
        items: first,
        first_page,
        pages,
    }
}
