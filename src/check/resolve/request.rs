//! A resolution as the low-level Query request, ready for an SDK or
//! `aws dynamodb query --cli-input-json`. Values the caller supplies appear
//! in braces (`"TENANT#{tenantId}"`), as in the schema's templates.

use serde_json::{Map, Value as Json, json};

use super::{Resolution, SortOp};
use crate::check::model::{KeySchema, Model};
use crate::check::value::Value;
use crate::syntax::ast::KeyType;

pub fn query_request(model: &Model, resolution: &Resolution) -> Json {
    let table = model.table(resolution.table);
    let access = table.access(resolution.access);
    let mut names = Map::new();
    let mut values = Map::new();
    let expression = if access.is_multi_attribute() {
        let partition: Vec<Value> = std::iter::once(&resolution.partition)
            .chain(&resolution.partition_rest)
            .cloned()
            .collect();
        let conditions = (
            partition.as_slice(),
            resolution.sort_equal.as_slice(),
            resolution.sort.as_ref(),
        );
        multi_attribute_condition(access, conditions, &mut names, &mut values)
    } else {
        one_attribute_condition(resolution, access, &mut names, &mut values)
    };
    let mut request = Map::new();
    request.insert("TableName".into(), json!(table.name.text));
    if access.is_index() {
        request.insert("IndexName".into(), json!(access.name.text));
    }
    request.insert("KeyConditionExpression".into(), json!(expression));
    request.insert("ExpressionAttributeNames".into(), Json::Object(names));
    request.insert("ExpressionAttributeValues".into(), Json::Object(values));
    request.insert("ScanIndexForward".into(), json!(!resolution.descending));
    request.insert("ConsistentRead".into(), json!(resolution.consistent));
    if let Some(limit) = resolution.limit {
        request.insert("Limit".into(), json!(limit));
    }
    Json::Object(request)
}

fn typed(ty: KeyType, value: String) -> Json {
    match ty {
        KeyType::String => json!({ "S": value }),
        KeyType::Number => json!({ "N": value }),
        KeyType::Binary => json!({ "B": value }),
    }
}

/// `#pk = :pk AND <sort condition on #sk>`.
fn one_attribute_condition(
    resolution: &Resolution,
    access: &KeySchema,
    names: &mut Map<String, Json>,
    values: &mut Map<String, Json>,
) -> String {
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
    expression
}

/// `#tenantId = :tenantId AND #region = :region AND #status = :status AND
/// #createdAt >= :since`: every partition attribute, the fixed sort
/// attributes, then the range on the next one, each under its own name.
/// The values of every partition attribute, of the leading sort
/// attributes, and the condition on the next one.
pub type MultiAttributeConditions<'a> = (&'a [Value], &'a [Value], Option<&'a SortOp>);

pub fn multi_attribute_condition(
    access: &KeySchema,
    (partition, sort_equal, sort): MultiAttributeConditions,
    names: &mut Map<String, Json>,
    values: &mut Map<String, Json>,
) -> String {
    let equal = partition
        .iter()
        .zip(access.partition_keys())
        .chain(sort_equal.iter().zip(access.sort_keys()));
    let mut conditions = Vec::new();
    for (i, (value, key)) in equal.enumerate() {
        let (name, placeholder) = placeholders(&key.name, i);
        names.insert(name.clone(), json!(key.name));
        values.insert(placeholder.clone(), typed(key.ty, value.to_string()));
        conditions.push(format!("{name} = {placeholder}"));
    }
    let ranged = access.sort_keys().nth(sort_equal.len());
    if let (Some(sort), Some(key)) = (sort, ranged) {
        let (name, _) = placeholders(&key.name, conditions.len());
        names.insert(name.clone(), json!(key.name));
        // The bounds are the caller's parameters: `:since`, `:from`, `:to`.
        let mut expression = sort.expression(&name);
        for (generic, value) in sort.values() {
            let placeholder = value
                .params()
                .next()
                .filter(|p| is_placeholder_name(p) && !values.contains_key(&format!(":{p}")))
                .map_or_else(|| generic.to_string(), |p| format!(":{p}"));
            expression = expression.replace(generic, &placeholder);
            values.insert(placeholder, typed(key.ty, value.to_string()));
        }
        conditions.push(expression);
    }
    conditions.join(" AND ")
}

/// `#name` and `:name` for a key attribute whose name can be a placeholder,
/// `#k2` and `:k2` otherwise.
fn placeholders(attr: &str, position: usize) -> (String, String) {
    if is_placeholder_name(attr) {
        (format!("#{attr}"), format!(":{attr}"))
    } else {
        (format!("#k{position}"), format!(":k{position}"))
    }
}

/// Expression placeholders are `#` or `:` and then alphanumeric characters.
fn is_placeholder_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}
