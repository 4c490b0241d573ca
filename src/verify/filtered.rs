//! A pattern's filter under the plan's parameters: the FilterExpression as
//! sent (`check::filter` writes it; the caller's values filled in here), and
//! the filter evaluated on a sample item the way DynamoDB evaluates it, so
//! that verify knows which items should come back. The evaluation follows
//! DynamoDB and dynalite (probed on both emulators): a comparison with a
//! missing attribute, or with a value of another type, is false — except
//! `<>`, which is then true.

use std::cmp::Ordering;
use std::collections::HashMap;

use serde_json::{Map, Value as Json, json};

use crate::check::filter::{self, Operand};
use crate::check::model::{EntityId, Model};
use crate::syntax::ast::{Filter, FilterExpr, FilterOp, FilterValue, Name};

/// The FilterExpression with real values.
pub type ConcreteFilter = filter::Expression;

/// The filter as sent with the plan's parameter values in place of `{name}`.
pub fn concrete(model: &Model, returns: &[EntityId], filter: &Filter, params: &HashMap<&str, &str>) -> ConcreteFilter {
    let written = filter::expression(model, returns, filter);
    let values = written
        .values
        .into_iter()
        .map(|(placeholder, value)| (placeholder, fill(value, params)))
        .collect();
    ConcreteFilter {
        text: written.text,
        names: written.names,
        values,
    }
}

/// `{"N": "{minTotal}"}` with `minTotal` → `{"N": "120"}`.
fn fill(value: Json, params: &HashMap<&str, &str>) -> Json {
    let Some((kind, Json::String(text))) = value.as_object().and_then(|o| o.iter().next()) else {
        return value;
    };
    let Some(name) = text.strip_prefix('{').and_then(|t| t.strip_suffix('}')) else {
        return value;
    };
    let Some(given) = params.get(name) else { return value };
    match kind.as_str() {
        "BOOL" => json!({ "BOOL": *given == "true" }),
        kind => json!({ kind: given }),
    }
}

/// Whether DynamoDB's filter keeps `item` (DynamoDB JSON) under `params`.
pub fn holds(
    model: &Model,
    returns: &[EntityId],
    filter: &Filter,
    params: &HashMap<&str, &str>,
    item: &Map<String, Json>,
) -> bool {
    Eval {
        model,
        returns,
        params,
        item,
    }
    .expr(&filter.expr)
}

struct Eval<'a> {
    model: &'a Model,
    returns: &'a [EntityId],
    params: &'a HashMap<&'a str, &'a str>,
    item: &'a Map<String, Json>,
}

impl Eval<'_> {
    /// The right side as DynamoDB JSON.
    fn operand(&self, attr: &Name, value: &FilterValue) -> Json {
        match filter::operand(self.model, self.returns, &attr.text, value) {
            Operand::Constant(constant) => constant.json(),
            Operand::Param(name) => {
                let kind = self
                    .model
                    .attribute_among(self.returns, &attr.text)
                    .map_or("S", |a| a.ty.stored_kind());
                fill(json!({ kind: format!("{{{name}}}") }), self.params)
            }
        }
    }

    /// The item's value against the right side; `None` when the attribute
    /// is missing or the types differ (or booleans differ: they are not ordered).
    fn compare(&self, attr: &Name, value: &FilterValue) -> Option<Ordering> {
        let got = self.item.get(attr.text.as_str())?.as_object()?.iter().next()?;
        let operand = self.operand(attr, value);
        let want = operand.as_object()?.iter().next()?;
        if got.0 != want.0 {
            return None;
        }
        match (got.0.as_str(), got.1, want.1) {
            ("N", Json::String(a), Json::String(b)) => a.parse::<f64>().ok()?.partial_cmp(&b.parse::<f64>().ok()?),
            ("S", Json::String(a), Json::String(b)) => Some(a.as_bytes().cmp(b.as_bytes())),
            (_, a, b) => (a == b).then_some(Ordering::Equal),
        }
    }

    fn expr(&self, expr: &FilterExpr) -> bool {
        match expr {
            FilterExpr::Compare { attr, op, value, .. } => {
                let order = self.compare(attr, value);
                match op {
                    FilterOp::Eq => order == Some(Ordering::Equal),
                    FilterOp::Ne => order != Some(Ordering::Equal),
                    FilterOp::Lt => order.is_some_and(Ordering::is_lt),
                    FilterOp::Le => order.is_some_and(Ordering::is_le),
                    FilterOp::Gt => order.is_some_and(Ordering::is_gt),
                    FilterOp::Ge => order.is_some_and(Ordering::is_ge),
                }
            }
            FilterExpr::In { attr, values, .. } => {
                values.iter().any(|v| self.compare(attr, v) == Some(Ordering::Equal))
            }
            FilterExpr::BeginsWith { attr, value, .. } => {
                let got = self
                    .item
                    .get(attr.text.as_str())
                    .and_then(|v| v.get("S"))
                    .and_then(Json::as_str);
                let operand = self.operand(attr, value);
                let prefix = operand.get("S").and_then(Json::as_str);
                matches!((got, prefix), (Some(got), Some(prefix)) if got.starts_with(prefix))
            }
            FilterExpr::Exists { attr, exists, .. } => self.item.contains_key(attr.text.as_str()) == *exists,
            FilterExpr::And(a, b) => self.expr(a) && self.expr(b),
            FilterExpr::Or(a, b) => self.expr(a) || self.expr(b),
            FilterExpr::Not { inner, .. } => !self.expr(inner),
            FilterExpr::Group { inner, .. } => self.expr(inner),
        }
    }
}
