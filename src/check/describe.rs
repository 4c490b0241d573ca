//! How each pattern is served, as plain data: the access path its Query
//! uses, the request ready for an SDK, whether it was pinned, and its read
//! cost. Hover, inlay hints and `dyno explain` render this one description
//! (and later generated docs and code), so none of them re-derives it from
//! the resolution; rendering stays with each consumer.

use serde_json::Value as Json;

use super::Schema;
use super::cost::{self, ReadCost};
use super::model::{PatternId, TableId};
use super::resolve::request::query_request;

/// How one resolved pattern is served.
#[derive(Clone, Debug, PartialEq)]
pub struct Served {
    pub table: TableId,
    /// The index the Query runs on; `None` on the table itself.
    pub index: Option<String>,
    /// The Query needed a pinned (verified) key, not the declarative match.
    pub pinned: bool,
    /// The entities the Query returns, by name.
    pub returns: Vec<String>,
    /// The low-level Query request (`TableName`, `IndexName`,
    /// `KeyConditionExpression`, `ExpressionAttributeNames`/`Values`, …),
    /// values the caller supplies in braces.
    pub request: Json,
    pub cost: ReadCost,
}

/// How the pattern is served; `None` when no single Query serves it (its
/// diagnostics say why).
pub fn served(schema: &Schema, pattern: PatternId) -> Option<Served> {
    let resolution = schema.resolution(pattern)?;
    let model = &schema.model;
    let access = resolution.key_schema(model);
    Some(Served {
        table: resolution.table,
        index: access.is_index().then(|| access.name.text.clone()),
        pinned: resolution.pinned,
        returns: resolution
            .returns
            .iter()
            .map(|&e| model.entity(e).name.text.clone())
            .collect(),
        request: query_request(model, resolution),
        cost: cost::read_cost(model, &schema.registry, model.pattern(pattern), resolution),
    })
}

/// [`served`] for every pattern, in model order.
pub fn served_all(schema: &Schema) -> Vec<Option<Served>> {
    schema.model.pattern_ids().map(|(id, _)| served(schema, id)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::analyze;

    fn billing_and(extra: &str) -> Schema {
        let analysis = analyze(&format!("{}\n{extra}\n", include_str!("../../examples/billing.dyno")));
        Schema::clone(&analysis.schema)
    }

    fn served_by_name(schema: &Schema, name: &str) -> Option<Served> {
        served(schema, schema.model.pattern_named(name)?)
    }

    #[test]
    fn a_pattern_on_an_index_names_it_in_the_description_and_the_request() {
        let schema = billing_and("");
        let on_table = served_by_name(&schema, "listUsers").expect("listUsers is served");
        assert_eq!((on_table.index, on_table.pinned), (None, false));
        assert_eq!(on_table.returns, ["User"]);
        assert!(on_table.request.get("IndexName").is_none());
        let on_index = served_by_name(&schema, "openInvoices").expect("openInvoices is served");
        assert_eq!(on_index.index.as_deref(), Some("gsi1"));
        assert_eq!(on_index.request["IndexName"], "gsi1");
        assert!(!on_index.cost.consistent);
        assert!(
            served_by_name(&schema, "usersPinned")
                .expect("usersPinned is served")
                .pinned
        );
        assert_eq!(served_all(&schema).len(), schema.model.patterns.len());
    }

    #[test]
    fn a_pattern_no_query_serves_has_no_description() {
        let schema = billing_and("pattern byEmail(email) -> User");
        assert!(served_by_name(&schema, "byEmail").is_none());
        assert!(
            served(&schema, PatternId::new(schema.model.patterns.len())).is_none(),
            "past the last pattern"
        );
    }
}
