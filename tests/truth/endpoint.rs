//! The endpoints (moto's server, dynalite): where they are, and running one
//! concrete Query on them. The table is created and filled with the
//! crate's `verify::dynamo` helpers, which are not under test here.

use std::cmp::Ordering;

use aws_sdk_dynamodb::Client;
use dyno::check::model::Model;
use dyno::verify::plan::ConcreteQuery;

use super::oracle::Id;

pub struct Endpoint {
    pub name: &'static str,
    pub url: String,
    pub client: Client,
}

/// The endpoint in `var`; the test is ignored unless asked for, and then
/// fails without it (`.ci/run` starts both endpoints).
pub fn from_env(var: &str, name: &'static str) -> String {
    let url = std::env::var(var).unwrap_or_default();
    assert!(
        !url.is_empty(),
        "{var} is not set: start {name} and set {var}=http://127.0.0.1:PORT (README: Tests; docs/truth.md)"
    );
    assert!(
        dyno::verify::dynamo::is_local(&url),
        "{var}={url}: the truth test only talks to this machine"
    );
    url
}

/// Runs the Query on `table` with the crate's own request (the thing under
/// test): every page, or only the first (a `limit`). The rows in the order
/// the endpoint returned them.
pub async fn run(
    client: &Client,
    model: &Model,
    query: &ConcreteQuery,
    table: &str,
    first_page: bool,
) -> Result<Vec<Row>, String> {
    let pages = dyno::verify::dynamo::query_pages(client, model, query, table, !first_page).await?;
    // Items come back in DynamoDB JSON: `{"pk": {"S": "TENANT#t1"}}`.
    let key = |item: &serde_json::Map<String, serde_json::Value>, k: &str| match item.get(k).and_then(|v| v.get("S")) {
        Some(serde_json::Value::String(s)) => s.clone(),
        other => format!("{other:?}"),
    };
    let sort_keys: Vec<&str> = query.key_schema(model).sort_keys().map(|k| k.name.as_str()).collect();
    let rows = pages.items.iter().map(|item| Row {
        id: (key(item, "pk"), key(item, "sk")),
        sort: sort_keys.iter().map(|k| SortValue::of(item.get(*k))).collect(),
    });
    Ok(match first_page {
        true => rows.take(pages.first_page).collect(),
        false => rows.collect(),
    })
}

/// A row: its primary key, and its sort key in the Query's access path (what
/// the application merges write shards by).
pub struct Row {
    pub id: Id,
    pub sort: Vec<SortValue>,
}

/// A sort key value as DynamoDB orders it: numbers by value, strings by
/// their UTF-8 bytes.
#[derive(Debug, Clone)]
pub enum SortValue {
    Number(f64),
    Text(Vec<u8>),
    Absent,
}

impl SortValue {
    fn of(value: Option<&serde_json::Value>) -> SortValue {
        let text = |k: &str| value.and_then(|v| v.get(k)).and_then(|v| v.as_str());
        if let Some(n) = text("N") {
            SortValue::Number(n.parse().unwrap_or(f64::NAN))
        } else if let Some(s) = text("S").or_else(|| text("B")) {
            SortValue::Text(s.as_bytes().to_vec())
        } else {
            SortValue::Absent
        }
    }

    fn cmp(&self, other: &SortValue) -> Ordering {
        match (self, other) {
            (SortValue::Number(a), SortValue::Number(b)) => a.total_cmp(b),
            (SortValue::Text(a), SortValue::Text(b)) => a.cmp(b),
            _ => Ordering::Equal,
        }
    }
}

/// A read: one Query, or one per write shard merged by the sort key in the
/// Query's direction, as the application merges them (the merge is this
/// test's own, not the crate's `merge_by_key`). For the first page of a
/// `limit L` read, each shard's first page, merged, then the first `L`.
pub async fn read(
    client: &Client,
    model: &Model,
    queries: &[ConcreteQuery],
    table: &str,
    first_page: bool,
) -> Result<Vec<Id>, String> {
    let mut rows = Vec::new();
    for query in queries {
        rows.extend(run(client, model, query, table, first_page).await?);
    }
    if let [first, _, ..] = queries {
        let forward = first.forward;
        rows.sort_by(|a, b| {
            let o = a
                .sort
                .iter()
                .zip(&b.sort)
                .map(|(x, y)| x.cmp(y))
                .find(|o| o.is_ne())
                .unwrap_or(Ordering::Equal);
            if forward { o } else { o.reverse() }
        });
        if first_page && let Some(limit) = first.limit {
            rows.truncate(limit as usize);
        }
    }
    Ok(rows.into_iter().map(|r| r.id).collect())
}
