//! The endpoints (moto's server, dynalite): where they are, and running one
//! concrete Query on them. The table is created and filled with the
//! crate's `verify::dynamo` helpers, which are not under test here.

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
/// test): every page, or only the first (a `limit`). The primary keys of the
/// rows, in the order the endpoint returned them.
pub async fn run(
    client: &Client,
    model: &Model,
    query: &ConcreteQuery,
    table: &str,
    first_page: bool,
) -> Result<Vec<Id>, String> {
    let pages = dyno::verify::dynamo::query_pages(client, model, query, table, !first_page).await?;
    // Items come back in DynamoDB JSON: `{"pk": {"S": "TENANT#t1"}}`.
    let key = |item: &serde_json::Map<String, serde_json::Value>, k: &str| match item.get(k).and_then(|v| v.get("S")) {
        Some(serde_json::Value::String(s)) => s.clone(),
        other => format!("{other:?}"),
    };
    let rows = pages.items.iter().map(|item| (key(item, "pk"), key(item, "sk")));
    Ok(match first_page {
        true => rows.take(pages.first_page).collect(),
        false => rows.collect(),
    })
}
