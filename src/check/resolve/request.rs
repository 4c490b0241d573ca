//! A resolution as the low-level Query request, ready for an SDK or
//! `aws dynamodb query --cli-input-json`. Values the caller supplies appear
//! in braces (`"TENANT#{tenantId}"`), as in the schema's templates.

use serde_json::{Map, Value as Json, json};

use super::Resolution;
use crate::check::filter;
use crate::check::model::Model;
use crate::syntax::ast::KeyType;

pub fn query_request(model: &Model, resolution: &Resolution) -> Json {
    let table = model.table(resolution.table);
    let access = table.access(resolution.access);
    let typed = |ty: KeyType, value: String| match ty {
        KeyType::String => json!({ "S": value }),
        KeyType::Number => json!({ "N": value }),
        KeyType::Binary => json!({ "B": value }),
    };
    let mut names = Map::new();
    let mut values = Map::new();
    names.insert("#pk".into(), json!(access.pk.name));
    values.insert(":pk".into(), typed(access.pk.ty, resolution.partition.to_string()));
    let mut expression = "#pk = :pk".to_string();
    if let (Some(sort), Some(sk)) = (&resolution.sort, &access.sk) {
        names.insert("#sk".into(), json!(sk.name));
        for (placeholder, value) in sort.values() {
            values.insert(placeholder.into(), typed(sk.ty, value.to_string()));
        }
        expression.push_str(" AND ");
        expression.push_str(&sort.expression("#sk"));
    }
    let filter = resolution
        .filter
        .as_ref()
        .map(|f| filter::expression(model, &resolution.returns, f));
    if let Some(filter) = &filter {
        names.extend(filter.names.clone());
        values.extend(filter.values.clone());
    }
    let mut request = Map::new();
    request.insert("TableName".into(), json!(table.name.text));
    if access.is_index() {
        request.insert("IndexName".into(), json!(access.name.text));
    }
    request.insert("KeyConditionExpression".into(), json!(expression));
    if let Some(filter) = filter {
        request.insert("FilterExpression".into(), json!(filter.text));
    }
    request.insert("ExpressionAttributeNames".into(), Json::Object(names));
    request.insert("ExpressionAttributeValues".into(), Json::Object(values));
    request.insert("ScanIndexForward".into(), json!(!resolution.descending));
    request.insert("ConsistentRead".into(), json!(resolution.consistent));
    if let Some(limit) = resolution.limit {
        request.insert("Limit".into(), json!(limit));
    }
    Json::Object(request)
}
