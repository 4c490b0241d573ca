//! A resolution as the low-level request (Query, GetItem, BatchGetItem or
//! Scan), ready for an SDK or `aws dynamodb query --cli-input-json`. Values
//! the caller supplies appear in braces (`"TENANT#{tenantId}"`), as in the
//! schema's templates.

use serde_json::{Map, Value as Json, json};

use super::{Read, Resolution, SortOp};
use crate::check::filter::{self, Expression};
use crate::check::model::{KeySchema, Model};
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
        partition: resolution.partition.to_string(),
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
    pub partition: String,
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
        key.insert(
            self.access.pk.name.clone(),
            typed(self.access.pk.ty, self.partition.clone()),
        );
        if let (Some(sk), Some(SortOp::Eq(value))) = (&self.access.sk, self.sort) {
            key.insert(sk.name.clone(), typed(sk.ty, value.to_string()));
        }
        Json::Object(key)
    }

    fn query(&self) -> Json {
        let access = self.access;
        let mut names = Map::new();
        let mut values = Map::new();
        names.insert("#pk".into(), json!(access.pk.name));
        values.insert(":pk".into(), typed(access.pk.ty, self.partition.clone()));
        let mut expression = "#pk = :pk".to_string();
        if let (Some(sort), Some(sk)) = (self.sort, &access.sk) {
            names.insert("#sk".into(), json!(sk.name));
            for (placeholder, value) in sort.values() {
                values.insert(placeholder.into(), typed(sk.ty, value.to_string()));
            }
            expression.push_str(" AND ");
            expression.push_str(&sort.expression("#sk"));
        }
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
