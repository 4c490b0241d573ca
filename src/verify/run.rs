//! The run against an endpoint: create the tables, write the samples, send
//! each plan's read, judge what came back, delete the tables.

use serde_json::{Value as Json, json};

use super::judge::{self, Failure, Returned};
use super::pages::Pages;
use super::plan::{ConcreteQuery, Plan};
use super::{dynamo, plans, reads};
use crate::check::Analysis;
use crate::check::model::{AccessKind, PatternId, TableId};
use crate::check::sample::{self, Samples};

#[derive(Clone, Debug)]
pub struct Options {
    pub endpoint: String,
    /// Leave the tables (and their items) on the endpoint.
    pub keep: bool,
    pub sample: sample::Options,
    /// Table names are `{prefix}{table}`; a unique prefix when `None`.
    pub prefix: Option<String>,
}

#[derive(Clone, Debug)]
pub struct TableReport {
    /// The schema's name.
    pub table: String,
    /// The name on the endpoint.
    pub name: String,
    pub items: usize,
    pub global_indexes: usize,
    pub local_indexes: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    Pass,
    Fail,
    /// Not run: the checker found no Query (and there is no pinned one).
    Skipped(String),
}

#[derive(Clone, Debug)]
pub struct PatternReport {
    pub pattern: String,
    pub status: Status,
    pub plan: Option<Plan>,
    /// The request as sent, with real values and the endpoint's table name.
    pub request: Option<Json>,
    /// `pk = "TENANT#k3x9qz" and begins_with(sk, "USER#")`.
    pub condition: Option<String>,
    pub returned: usize,
    pub pages: usize,
    pub failures: Vec<Failure>,
    /// Checks the samples could not exercise for this pattern (an order seen
    /// on fewer than two items, a limit no more items match than).
    pub unexercised: Vec<String>,
}

#[derive(Clone, Debug)]
pub struct Report {
    pub endpoint: String,
    pub prefix: String,
    pub tables: Vec<TableReport>,
    pub patterns: Vec<PatternReport>,
    /// The tables were deleted (false with `--keep`, or when deleting failed).
    pub deleted: bool,
    /// Problems cleaning up, and sample notes.
    pub notes: Vec<String>,
}

impl Report {
    pub fn passed(&self) -> usize {
        self.patterns.iter().filter(|p| p.status == Status::Pass).count()
    }

    pub fn failed(&self) -> usize {
        self.patterns.iter().filter(|p| p.status != Status::Pass).count()
    }

    pub fn ok(&self) -> bool {
        self.failed() == 0
    }

    pub fn json(&self) -> Json {
        let patterns: Vec<Json> = self
            .patterns
            .iter()
            .map(|p| {
                let status = match &p.status {
                    Status::Pass => "pass",
                    Status::Fail => "fail",
                    Status::Skipped(_) => "skipped",
                };
                json!({
                    "pattern": p.pattern,
                    "status": status,
                    "reason": match &p.status { Status::Skipped(r) => Some(r.clone()), _ => None },
                    "pinned": p.plan.as_ref().map(|plan| plan.pinned),
                    "checker_ok": p.plan.as_ref().map(|plan| plan.checker_ok),
                    "params": p.plan.as_ref().map(|plan| plan.params.iter().map(|(k, v)| (k.clone(), json!(v))).collect::<serde_json::Map<_, _>>()),
                    "request": p.request,
                    // The Query is sent once per write shard, or once.
                    "requests": p.plan.as_ref().map(|plan| plan.requests().len()),
                    "expected": p.plan.as_ref().map(|plan| plan.expected.len()),
                    "matching": p.plan.as_ref().map(|plan| plan.matching.len()),
                    "returned": p.returned,
                    "pages": p.pages,
                    "failures": p.failures.iter().map(|f| json!({
                        "kind": f.kind,
                        "message": f.message,
                        "items": f.items.iter().map(|i| i.json()).collect::<Vec<_>>(),
                    })).collect::<Vec<_>>(),
                    "unexercised": p.unexercised,
                })
            })
            .collect();
        json!({
            "version": 1,
            "endpoint": self.endpoint,
            "prefix": self.prefix,
            "tables": self.tables.iter().map(|t| json!({
                "table": t.table,
                "name": t.name,
                "items": t.items,
                "global_indexes": t.global_indexes,
                "local_indexes": t.local_indexes,
            })).collect::<Vec<_>>(),
            "patterns": patterns,
            "summary": { "passed": self.passed(), "failed": self.failed() },
            "deleted": self.deleted,
            "notes": self.notes,
        })
    }
}

/// Why a pattern served by a multi-attribute index was not run, when the
/// endpoint rejected the index.
fn endpoint_rejected(analysis: &Analysis, pattern: PatternId, rejected: &[(TableId, String)]) -> Option<String> {
    let model = &analysis.schema.model;
    let resolution = analysis.schema.resolution(pattern)?;
    let access = resolution.key_schema(model);
    let (_, answer) = rejected.iter().find(|(t, _)| *t == resolution.table)?;
    access.is_multi_attribute().then(|| {
        format!(
            "the endpoint does not support index `{}`, a key of several attributes (DynamoDB, November 2025): \
             it answered {answer}",
            access.name.text
        )
    })
}

/// A prefix no earlier run used: `dyno-verify-<pid>-<time>-`.
pub fn unique_prefix() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("dyno-verify-{:x}{:x}-", std::process::id(), nanos % 0xffff_ffff)
}

/// Runs the plan's Query over every page; and, when no more items match than
/// the pattern's `limit`, the same Query with a smaller `Limit`, first page
/// only (see `judge::probe_limit`).
async fn run(
    client: &aws_sdk_dynamodb::Client,
    model: &crate::check::model::Model,
    samples: &Samples,
    plan: &Plan,
    name: &str,
) -> Result<(Pages, Option<(u64, Pages)>), String> {
    // One Query, or one per write shard, merged.
    let read = |queries: Vec<ConcreteQuery>, follow: bool| async move {
        match queries.as_slice() {
            [one] => reads::read_pages(client, model, one, name, follow).await,
            shards => reads::read_shards(client, model, shards, name, follow).await,
        }
    };
    let queries = plan.requests().to_vec();
    let all = read(queries.clone(), true).await?;
    let probe = match judge::probe_limit(model, samples, plan) {
        Some(limit) => {
            let limited = queries
                .into_iter()
                .map(|query| ConcreteQuery {
                    limit: Some(limit),
                    ..query
                })
                .collect();
            Some((limit, read(limited, false).await?))
        }
        None => None,
    };
    Ok((all, probe))
}

/// Runs the whole verification. `Err` when the endpoint cannot be used at
/// all (tables already created are deleted first).
pub async fn verify(texts: &[&str], analysis: &Analysis, options: &Options) -> Result<Report, String> {
    let model = &analysis.schema.model;
    let samples = sample::generate(model, &options.sample);
    let plans = plans(texts, analysis, &samples);
    let prefix = options.prefix.clone().unwrap_or_else(unique_prefix);
    let client = dynamo::client(&options.endpoint).await;
    let name_of = |t: TableId| format!("{prefix}{}", model.table(t).name.text);

    let mut report = Report {
        endpoint: options.endpoint.clone(),
        prefix: prefix.clone(),
        tables: Vec::new(),
        patterns: Vec::new(),
        deleted: false,
        notes: samples.notes.clone(),
    };
    let mut created: Vec<String> = Vec::new();
    // Tables the endpoint created without their multi-attribute indexes,
    // with its answer.
    let mut rejected: Vec<(TableId, String)> = Vec::new();
    let setup = async {
        for (t, table) in model.table_ids() {
            if table.base().is_none() {
                continue;
            }
            let name = name_of(t);
            let without_multi_attribute = dynamo::create_table(&client, table, &name).await?;
            if let Some(answer) = &without_multi_attribute {
                report.notes.push(format!(
                    "table `{}` was created without its indexes keyed on several attributes, which the endpoint \
                     rejected: {answer}",
                    table.name.text
                ));
                rejected.push((t, answer.clone()));
            }
            created.push(name.clone());
            let items: Vec<_> = samples.tables[t.index()].items.iter().map(|i| &i.item).collect();
            dynamo::write_items(&client, &name, &items).await?;
            report.tables.push(TableReport {
                table: table.name.text.to_string(),
                name,
                items: items.len(),
                global_indexes: table
                    .access
                    .iter()
                    .filter(|a| a.kind == AccessKind::Gsi)
                    .filter(|a| without_multi_attribute.is_none() || !a.is_multi_attribute())
                    .count(),
                local_indexes: table.access.iter().filter(|a| a.kind == AccessKind::Lsi).count(),
            });
        }
        Ok::<(), String>(())
    }
    .await;
    if let Err(error) = setup {
        if !options.keep {
            for name in &created {
                let _ = dynamo::delete_table(&client, name).await;
            }
        }
        return Err(error);
    }

    for ((id, pattern), plan) in model.pattern_ids().zip(plans) {
        let pattern = pattern.name.text.to_string();
        // An index the endpoint rejected is not on its table: nothing to run.
        let plan = match endpoint_rejected(analysis, id, &rejected) {
            Some(reason) => Err(reason),
            None => plan,
        };
        let plan = match plan {
            Ok(plan) => plan,
            Err(reason) => {
                report.patterns.push(PatternReport {
                    pattern,
                    status: Status::Skipped(reason),
                    plan: None,
                    request: None,
                    condition: None,
                    returned: 0,
                    pages: 0,
                    failures: Vec::new(),
                    unexercised: Vec::new(),
                });
                continue;
            }
        };
        let name = name_of(plan.query.table);
        let request = plan.query.request(model, &name);
        let mut condition = plan.query.condition(model);
        if plan.requests().len() > 1 {
            condition.push_str(&format!(
                ", and the same for each of {} shards, merged by the sort key",
                plan.requests().len()
            ));
        }
        let (verdict, returned, pages) = match run(&client, model, &samples, &plan, &name).await {
            Ok((got, probe)) => {
                let returned = Returned {
                    items: &got.items,
                    first_page: got.first_page,
                    probe: probe.as_ref().map(|(limit, page)| judge::Probe {
                        limit: *limit,
                        items: &page.items[..page.first_page.min(page.items.len())],
                    }),
                };
                (
                    judge::check(model, &samples, &plan, returned),
                    got.items.len(),
                    got.pages,
                )
            }
            Err(error) => (
                judge::Verdict {
                    failures: vec![Failure {
                        kind: "error",
                        message: error,
                        items: Vec::new(),
                    }],
                    unexercised: Vec::new(),
                },
                0,
                0,
            ),
        };
        let judge::Verdict { failures, unexercised } = verdict;
        report.patterns.push(PatternReport {
            pattern,
            status: if failures.is_empty() {
                Status::Pass
            } else {
                Status::Fail
            },
            plan: Some(plan),
            request: Some(request),
            condition: Some(condition),
            returned,
            pages,
            failures,
            unexercised,
        });
    }

    if !options.keep {
        let mut ok = true;
        for name in &created {
            if let Err(error) = dynamo::delete_table(&client, name).await {
                report.notes.push(error);
                ok = false;
            }
        }
        report.deleted = ok;
    }
    Ok(report)
}
