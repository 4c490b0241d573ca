//! How each pattern is served, as plain data: the access path its Query
//! uses, the request ready for an SDK, whether it was pinned, and its read
//! cost. Hover, inlay hints and `dyno explain` render this one description
//! (and later generated docs and code), so none of them re-derives it from
//! the resolution; rendering stays with each consumer.

use serde_json::Value as Json;

use super::Schema;
use super::cost::{self, ReadCost};
use super::model::{PatternId, TableId};
use super::resolve::request::request;
use super::resolve::{Read, Shards};

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
    /// The operation: a Query unless the pattern says otherwise.
    pub read: Read,
    /// A write-sharded partition key: the request is sent once per shard,
    /// or once with the shard computed from a known value.
    pub shards: Option<Shards>,
}

impl Served {
    /// How the pattern is read, as a phrase: `one Query`, `pinned Query,
    /// verified`, `one GetItem`, `a parallel Scan of 4 segments`.
    pub fn how(&self) -> String {
        if let Some(shards) = self.shards.as_ref().filter(|s| s.requests() > 1) {
            return format!("{} Queries", shards.requests());
        }
        match self.read {
            Read::Query if self.pinned => "pinned Query, verified".into(),
            Read::Scan { segments: Some(n) } if n > 1 => format!("a parallel Scan of {n} segments"),
            read => format!("one {}", read.name()),
        }
    }

    /// Where and how often it reads, as inlay hints and code lenses show
    /// it: `gsi1`, `table ×4` (one request per write shard).
    pub fn place(&self) -> String {
        let via = self.index.as_deref().unwrap_or("table");
        match self.cost.requests {
            0 | 1 => via.to_string(),
            n => format!("{via} ×{n}"),
        }
    }

    /// The read as an AWS CLI command: `aws dynamodb query --cli-input-json
    /// '{…}'`, the values the caller supplies left in braces. The JSON is
    /// one line, quoted for a POSIX shell.
    pub fn aws_cli(&self) -> String {
        let json = serde_json::to_string(&self.request).unwrap_or_default();
        format!(
            "aws dynamodb {} --cli-input-json '{}'",
            self.read.cli_name(),
            json.replace('\'', "'\\''")
        )
    }

    /// The whole sentence: `10 Queries on index gsi1, one per `shard` (0 to
    /// 9), merged by the sort key`; `via` names the table or index.
    pub fn sentence(&self, via: &str) -> String {
        let mut out = format!("{} on {via}", self.how());
        match &self.shards {
            Some(Shards {
                attr,
                from: Some(source),
                ..
            }) => {
                out.push_str(&format!(", `{attr}` computed from `{source}`"));
            }
            Some(Shards {
                attr,
                count,
                from: None,
            }) => {
                out.push_str(&format!(
                    ", one per `{attr}` (0 to {}), merged by the sort key",
                    count - 1
                ));
            }
            None => {}
        }
        out
    }
}

/// How the pattern is served; `None` when no single Query serves it (its
/// diagnostics say why).
pub fn served(schema: &Schema, pattern: PatternId) -> Option<Served> {
    let resolution = schema.resolution(pattern)?;
    let model = &schema.model;
    let access = resolution.key_schema(model);
    Some(Served {
        table: resolution.table,
        index: access.is_index().then(|| access.name.text.to_string()),
        pinned: resolution.pinned,
        returns: resolution
            .returns
            .iter()
            .map(|&e| model.entity(e).name.text.to_string())
            .collect(),
        request: request(model, resolution),
        cost: cost::read_cost(model, &schema.registry, model.pattern(pattern), resolution),
        read: resolution.read,
        shards: resolution.shards.clone(),
    })
}

/// What the checker proved about a schema's patterns: how many there are,
/// how many are each one Query, and on which indexes. `dyno check` says it
/// on a file's summary line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proved {
    pub patterns: usize,
    pub one_query: usize,
    /// The indexes the resolved Queries read (not the tables themselves),
    /// `Table.index` when the schema has several tables, with their counts,
    /// in the order first used.
    pub on_indexes: Vec<(String, usize)>,
    /// The reads that are not a Query (`GetItem`, `Scan`, ...) with their
    /// counts, in the order first used.
    pub other_reads: Vec<(&'static str, usize)>,
    /// Patterns read with one Query per write shard.
    pub sharded: usize,
}

pub fn proved(schema: &Schema) -> Proved {
    let model = &schema.model;
    let mut on_indexes: Vec<(String, usize)> = Vec::new();
    let mut other_reads: Vec<(&'static str, usize)> = Vec::new();
    let mut one_query = 0;
    let mut sharded = 0;
    for (id, _) in model.pattern_ids() {
        let Some(resolution) = schema.resolution(id) else {
            continue;
        };
        one_query += 1;
        if resolution.shards.as_ref().is_some_and(|s| s.requests() > 1) {
            sharded += 1;
        }
        if resolution.read != Read::Query {
            let name = resolution.read.name();
            match other_reads.iter_mut().find(|(n, _)| *n == name) {
                Some((_, count)) => *count += 1,
                None => other_reads.push((name, 1)),
            }
        }
        let access = resolution.key_schema(model);
        if !access.is_index() {
            continue;
        }
        let name = if model.tables.len() > 1 {
            format!("{}.{}", model.table(resolution.table).name.text, access.name.text)
        } else {
            access.name.text.to_string()
        };
        match on_indexes.iter_mut().find(|(n, _)| *n == name) {
            Some((_, count)) => *count += 1,
            None => on_indexes.push((name, 1)),
        }
    }
    Proved {
        patterns: model.patterns.len(),
        one_query,
        on_indexes,
        other_reads,
        sharded,
    }
}

impl std::fmt::Display for Proved {
    /// `11 patterns, each one Query (4 on gsi1)`; `3 patterns: 2 one Query
    /// each, 1 with no single Query`; `4 patterns, each one request (1 on
    /// gsi1; 1 GetItem, 1 Scan)`; `2 patterns, each one read (1 as one
    /// Query per shard)`; `no patterns`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let indexes = || {
            let on: Vec<String> = self.on_indexes.iter().map(|(n, c)| format!("{c} on {n}")).collect();
            let mut reads: Vec<String> = self.other_reads.iter().map(|(n, c)| format!("{c} {n}")).collect();
            if self.sharded > 0 {
                reads.push(format!("{} as one Query per shard", self.sharded));
            }
            match (on.is_empty(), reads.is_empty()) {
                (true, true) => String::new(),
                (false, true) => format!(" ({})", on.join(", ")),
                (true, false) => format!(" ({})", reads.join(", ")),
                (false, false) => format!(" ({}; {})", on.join(", "), reads.join(", ")),
            }
        };
        // A GetItem or a Scan is one request, not a Query; a read over
        // every shard is several requests.
        let read = if self.sharded > 0 {
            "read"
        } else if self.other_reads.is_empty() {
            "Query"
        } else {
            "request"
        };
        match (self.patterns, self.one_query) {
            (0, _) => write!(f, "no patterns"),
            (1, 1) => write!(f, "1 pattern, one {read}{}", indexes()),
            (1, _) => write!(f, "1 pattern, with no single Query"),
            (n, q) if n == q => write!(f, "{n} patterns, each one {read}{}", indexes()),
            (n, q) => write!(
                f,
                "{n} patterns: {q} one {read} each{}, {} with no single Query",
                indexes(),
                n - q
            ),
        }
    }
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
    fn proved_counts_the_patterns_each_one_query_and_their_indexes() {
        let clean = proved(&billing_and(""));
        assert_eq!(clean.to_string(), "11 patterns, each one Query (3 on gsi1)");
        let one_unresolved = proved(&billing_and("pattern byName(name) -> User"));
        assert_eq!(
            one_unresolved.to_string(),
            "12 patterns: 11 one Query each (3 on gsi1), 1 with no single Query"
        );
        let none = proved(&Schema::clone(&analyze("table T {\n  key pk\n}\n").schema));
        assert_eq!(none.to_string(), "no patterns");
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
