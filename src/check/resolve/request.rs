//! A resolution as the low-level request (Query, GetItem, BatchGetItem or
//! Scan), ready for an SDK or `aws dynamodb query --cli-input-json`. Values
//! the caller supplies appear in braces (`"TENANT#{tenantId}"`), as in the
//! schema's templates.

use serde_json::{Map, Value as Json, json};

use super::{Read, Resolution, SortOp};
use crate::check::filter::{self, Expression};
use crate::check::model::{KeySchema, Model};
use crate::check::value::Value;
use crate::syntax::ast::KeyType;

fn typed(ty: KeyType, value: String) -> Json {
    match ty {
        KeyType::String => json!({ "S": value }),
        KeyType::Number => json!({ "N": value }),
        KeyType::Binary => json!({ "B": value }),
    }
}

pub fn request(model: &Model, resolution: &Resolution) -> Json {
    let table = model.table(resolution.table);
    let access = table.access(resolution.access);
    let filter = resolution
        .filter
        .as_ref()
        .map(|f| filter::expression(model, &resolution.returns, f));
    let shape = Shape {
        table_name: &table.name.text,
        access,
        partition: std::iter::once(&resolution.partition)
            .chain(&resolution.partition_rest)
            .cloned()
            .collect(),
        sort_equal: resolution.sort_equal.clone(),
        sort: resolution.sort.as_ref(),
        forward: !resolution.descending,
        consistent: resolution.consistent,
        limit: resolution.limit,
        filter: filter.as_ref(),
    };
    shape.request(resolution.read)
}

/// What a request is built from, with its values as text: the caller's in
/// braces (`dyno explain`), or real ones (`dyno verify`).
pub struct Shape<'a> {
    pub table_name: &'a str,
    pub access: &'a KeySchema,
    /// Every partition attribute's value: one, unless the key is
    /// multi-attribute.
    pub partition: Vec<Value>,
    /// A multi-attribute key: the leading sort attributes' values (the
    /// condition `sort` is on the next one).
    pub sort_equal: Vec<Value>,
    pub sort: Option<&'a SortOp>,
    pub forward: bool,
    pub consistent: bool,
    pub limit: Option<u64>,
    /// The FilterExpression with its names and values (`#fN`, `:fN`).
    pub filter: Option<&'a Expression>,
}

impl Shape<'_> {
    pub fn request(&self, read: Read) -> Json {
        match read {
            Read::Query => self.query(),
            Read::GetItem => json!({
                "TableName": self.table_name,
                "Key": self.primary_key(),
                "ConsistentRead": self.consistent,
            }),
            // One key per item, up to 100: the caller repeats this one.
            Read::BatchGetItem => json!({
                "RequestItems": {
                    self.table_name: {
                        "Keys": [self.primary_key()],
                        "ConsistentRead": self.consistent,
                    }
                }
            }),
            Read::Scan { segments } => {
                let mut request = Map::new();
                request.insert("TableName".into(), json!(self.table_name));
                if self.access.is_index() {
                    request.insert("IndexName".into(), json!(self.access.name.text));
                }
                if let Some(filter) = self.filter {
                    request.insert("FilterExpression".into(), json!(filter.text));
                    request.insert("ExpressionAttributeNames".into(), Json::Object(filter.names.clone()));
                    request.insert("ExpressionAttributeValues".into(), Json::Object(filter.values.clone()));
                }
                request.insert("ConsistentRead".into(), json!(self.consistent));
                if let Some(limit) = self.limit {
                    request.insert("Limit".into(), json!(limit));
                }
                if let Some(total) = segments {
                    // Each worker sends its own segment, 0 to total - 1.
                    request.insert("Segment".into(), json!("{segment}"));
                    request.insert("TotalSegments".into(), json!(total));
                }
                Json::Object(request)
            }
        }
    }

    /// `{"pk": {"S": ...}, "sk": {"S": ...}}`: the whole primary key of a get.
    pub fn primary_key(&self) -> Json {
        let mut key = Map::new();
        let partition = self.partition.first().map(Value::to_string).unwrap_or_default();
        key.insert(self.access.pk.name.clone(), typed(self.access.pk.ty, partition));
        if let (Some(sk), Some(SortOp::Eq(value))) = (&self.access.sk, self.sort) {
            key.insert(sk.name.clone(), typed(sk.ty, value.to_string()));
        }
        Json::Object(key)
    }

    fn query(&self) -> Json {
        let access = self.access;
        let mut names = Map::new();
        let mut values = Map::new();
        let expression = if access.is_multi_attribute() {
            let conditions = (self.partition.as_slice(), self.sort_equal.as_slice(), self.sort);
            multi_attribute_condition(access, conditions, &mut names, &mut values)
        } else {
            let partition = self.partition.first().map(Value::to_string).unwrap_or_default();
            names.insert("#pk".into(), json!(access.pk.name));
            values.insert(":pk".into(), typed(access.pk.ty, partition));
            let mut expression = "#pk = :pk".to_string();
            if let (Some(sort), Some(sk)) = (self.sort, &access.sk) {
                names.insert("#sk".into(), json!(sk.name));
                for (placeholder, value) in sort.values() {
                    values.insert(placeholder.into(), typed(sk.ty, value.to_string()));
                }
                expression.push_str(" AND ");
                expression.push_str(&sort.expression("#sk"));
            }
            expression
        };
        let mut request = Map::new();
        request.insert("TableName".into(), json!(self.table_name));
        if access.is_index() {
            request.insert("IndexName".into(), json!(access.name.text));
        }
        request.insert("KeyConditionExpression".into(), json!(expression));
        if let Some(filter) = self.filter {
            request.insert("FilterExpression".into(), json!(filter.text));
            names.extend(filter.names.clone());
            values.extend(filter.values.clone());
        }
        request.insert("ExpressionAttributeNames".into(), Json::Object(names));
        request.insert("ExpressionAttributeValues".into(), Json::Object(values));
        request.insert("ScanIndexForward".into(), json!(self.forward));
        request.insert("ConsistentRead".into(), json!(self.consistent));
        if let Some(limit) = self.limit {
            request.insert("Limit".into(), json!(limit));
        }
        Json::Object(request)
    }
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
