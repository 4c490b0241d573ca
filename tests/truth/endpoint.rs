//! The endpoints (moto's server, dynalite): where they are, and running one
//! concrete Query on them. The table is created and filled with the
//! crate's `verify::dynamo` helpers, which are not under test here.

use std::collections::HashMap;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::error::DisplayErrorContext;
use aws_sdk_dynamodb::types::AttributeValue;
use dyno::check::model::Model;
use dyno::verify::plan::ConcreteQuery;

use super::oracle::Id;

pub struct Endpoint {
    pub name: &'static str,
    pub url: String,
    pub client: Client,
}

/// The endpoint in `var`; `None` (with a notice) when it is not set, which
/// under `CI=true` is a failure: `.ci/run` starts both endpoints.
pub fn from_env(var: &str, name: &'static str) -> Option<String> {
    match std::env::var(var) {
        Ok(url) if !url.is_empty() => {
            assert!(
                dyno::verify::dynamo::is_local(&url),
                "{var}={url}: the truth test only talks to this machine"
            );
            Some(url)
        }
        _ => {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "CI=true but {var} is not set: .ci/run starts {name} and exports it"
            );
            eprintln!("notice: truth test skips {name}: set {var}=http://127.0.0.1:PORT (see docs/truth.md)");
            None
        }
    }
}

/// Runs the Query on `table`: every page, or only the first (a `limit`).
/// The primary keys of the rows, in the order the endpoint returned them.
pub async fn run(
    client: &Client,
    model: &Model,
    query: &ConcreteQuery,
    table: &str,
    first_page: bool,
) -> Result<Vec<Id>, String> {
    let access = &model.tables[query.table].access[query.access];
    let mut names = HashMap::from([("#pk".to_string(), access.pk.name.clone())]);
    let mut values = HashMap::from([(":pk".to_string(), AttributeValue::S(query.partition.clone()))]);
    let mut expression = "#pk = :pk".to_string();
    if let (Some(sort), Some(sk)) = (&query.sort, &access.sk) {
        names.insert("#sk".into(), sk.name.clone());
        for (placeholder, value) in sort.values() {
            values.insert(placeholder.to_string(), AttributeValue::S(value.to_string()));
        }
        expression = format!("{expression} AND {}", sort.expression("#sk"));
    }
    let mut rows = Vec::new();
    let mut start = None;
    for _ in 0..1000 {
        let output = client
            .query()
            .table_name(table)
            .set_index_name(access.is_index().then(|| access.name.text.clone()))
            .key_condition_expression(&expression)
            .set_expression_attribute_names(Some(names.clone()))
            .set_expression_attribute_values(Some(values.clone()))
            .scan_index_forward(query.forward)
            .consistent_read(query.consistent)
            .set_limit(query.limit.map(|l| l as i32))
            .set_exclusive_start_key(start.take())
            .send()
            .await
            .map_err(|e| {
                // The endpoint's message, not the whole response.
                let text = format!("{}", DisplayErrorContext(e));
                let message = text.split("message: Some(\"").nth(1).and_then(|m| m.split('"').next());
                format!("Query rejected: {}", message.unwrap_or(&text[..text.len().min(300)]))
            })?;
        for item in output.items() {
            let key = |k: &str| match item.get(k) {
                Some(AttributeValue::S(s)) => s.clone(),
                other => format!("{other:?}"),
            };
            rows.push((key("pk"), key("sk")));
        }
        match output.last_evaluated_key {
            Some(key) if !key.is_empty() && !first_page => start = Some(key),
            _ => return Ok(rows),
        }
    }
    Err("Query: more than 1000 pages".into())
}
