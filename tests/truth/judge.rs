//! One case: a pattern's resolved Query with concrete parameters, the rows
//! the oracle expects, and the verdict on what an endpoint returned.

use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap};

use dyno::check::Analysis;
use dyno::check::resolve::{Resolution, Shards, SortOp};
use dyno::check::value::{Value, ValuePart};
use dyno::verify::plan::ConcreteQuery;

use super::design::{Design, Known, Pattern};
use super::endpoint::{self, Endpoint};
use super::oracle::{self, Id, Item};

/// Disagreements printed with their design; later ones get one line.
const DETAILED: usize = 40;

#[derive(Default)]
pub struct Tally {
    pub designs: usize,
    pub patterns: usize,
    pub ok: usize,
    /// Of the ok patterns: read over every write shard; with a computed shard.
    pub ok_sharded: usize,
    pub ok_calculated: usize,
    /// The ok patterns read over every shard, by shape: `limit`, `by`,
    /// several entities, on an index, a single return.
    pub sharded_shapes: std::collections::BTreeMap<&'static str, usize>,
    /// Designs with a write shard.
    pub sharded_designs: usize,
    pub unresolved_without_error: usize,
    pub rejected: HashMap<&'static str, usize>,
    pub patterns_run: std::collections::HashSet<(String, String)>,
    pub queries: usize,
    /// Ok patterns read over every write shard (N Queries, merged), and
    /// those whose calculated shard the caller computes (one Query).
    pub sharded_run: std::collections::HashSet<(String, String)>,
    pub calculated_run: std::collections::HashSet<(String, String)>,
    /// Queries sent for the reads over every shard.
    pub shard_queries: usize,
    /// Queries the oracle expects rows from.
    pub hits: usize,
    pub disagreements: usize,
    /// The patterns (table, name) with a disagreement.
    pub disagreeing: std::collections::HashSet<(String, String)>,
    /// Disagreements by what went wrong (`kind`), and whether the read was
    /// over every write shard.
    pub kinds: std::collections::BTreeMap<(&'static str, bool), usize>,
    pub leak_runs: usize,
    pub leak_differs: usize,
}

impl Tally {
    pub fn summary(&self) -> String {
        format!(
            "designs {}, patterns run {} ({} over every write shard, {} with a computed shard), queries run {} ({} with expected rows; {} of them per shard), disagreements {} in {} patterns (kind, over every shard: {:?}); E202-rejected queries run {}, rows differ in {}",
            self.designs,
            self.patterns_run.len(),
            self.sharded_run.len(),
            self.calculated_run.len(),
            self.queries,
            self.hits,
            self.shard_queries,
            self.disagreements,
            self.disagreeing.len(),
            self.kinds,
            self.leak_runs,
            self.leak_differs
        )
    }
}

pub struct Case {
    pattern: Pattern,
    design: Design,
    params: BTreeMap<String, String>,
    /// Err: a parameter the resolution uses that the pattern does not bind.
    /// Several: one per write shard, merged.
    queries: Result<Vec<ConcreteQuery>, String>,
    shards: Option<Shards>,
    expected: Vec<Item>,
    ok: bool,
}

/// The value with the caller's parameters filled in, as `verify::plan` does.
fn fill(value: &Value, texts: &BTreeMap<String, String>) -> Result<Value, String> {
    let mut out = Value::default();
    for part in &value.parts {
        match part {
            ValuePart::Literal(text) => out.push_literal(text),
            ValuePart::Param { name, .. } => match texts.get(name.as_str()) {
                Some(text) => out.push_literal(text),
                None => return Err(format!("the Query uses `{name}`, which the pattern does not bind")),
            },
        }
    }
    Ok(out)
}

fn fill_sort(op: &SortOp, texts: &BTreeMap<String, String>) -> Result<SortOp, String> {
    Ok(match op {
        SortOp::Eq(v) => SortOp::Eq(fill(v, texts)?),
        SortOp::Lt(v) => SortOp::Lt(fill(v, texts)?),
        SortOp::Le(v) => SortOp::Le(fill(v, texts)?),
        SortOp::Gt(v) => SortOp::Gt(fill(v, texts)?),
        SortOp::Ge(v) => SortOp::Ge(fill(v, texts)?),
        SortOp::Between(lo, hi) => SortOp::Between(fill(lo, texts)?, fill(hi, texts)?),
        SortOp::BeginsWith(v) => SortOp::BeginsWith(fill(v, texts)?),
    })
}

impl Case {
    pub fn new(
        design: &Design,
        analysis: &Analysis,
        index: usize,
        resolution: &Resolution,
        params: BTreeMap<String, String>,
        expected: Vec<&Item>,
        ok: bool,
    ) -> Case {
        let pattern = design.patterns[index].clone();
        // Parameters as they appear in keys: `int(pad 4)` zero-padded.
        let mut texts = BTreeMap::new();
        for known in &pattern.known {
            let ty = oracle::attr_ty(design, &pattern, known.attr());
            let names: Vec<&String> = match known {
                Known::Eq(a) => vec![a],
                Known::Fixed(..) => vec![],
                Known::Cmp(_, _, b) | Known::Begins(_, b) => vec![b],
                Known::Between(_, lo, hi) => vec![lo, hi],
            };
            for n in names {
                let v = &params[n];
                let text = if matches!(known, Known::Begins(..)) {
                    v.clone()
                } else {
                    ty.key_text(v)
                };
                texts.insert(n.clone(), text);
            }
        }
        // A calculated shard whose source the pattern knows: the caller
        // computes it from the source's key text.
        if let Some(Shards {
            attr,
            count,
            from: Some(source),
        }) = &resolution.shards
        {
            let text = pattern.known.iter().find_map(|k| match k {
                Known::Eq(a) if a == source => texts.get(a).cloned(),
                Known::Fixed(a, v) if a == source => Some(oracle::attr_ty(design, &pattern, a).key_text(v)),
                _ => None,
            });
            if let Some(text) = text {
                texts.insert(attr.clone(), dyno::check::shard::of(&text, *count).to_string());
            }
        }
        // A random shard: the same Query for each of its values.
        let shard_values: Vec<Option<String>> = match &resolution.shards {
            Some(Shards { count, from: None, .. }) => {
                dyno::check::shard::values(*count).into_iter().map(Some).collect()
            }
            _ => vec![None],
        };
        let query = |texts: &BTreeMap<String, String>| -> Result<ConcreteQuery, String> {
            Ok(ConcreteQuery {
                table: resolution.table,
                access: resolution.access,
                partition: fill(&resolution.partition, texts)?.to_string(),
                partition_rest: Vec::new(),
                sort_equal: Vec::new(),
                sort: resolution.sort.as_ref().map(|s| fill_sort(s, texts)).transpose()?,
                forward: !resolution.descending,
                consistent: resolution.consistent,
                limit: resolution.limit,
                read: resolution.read,
                // The generated designs write no filters.
                filter: None,
            })
        };
        let queries = shard_values
            .into_iter()
            .map(|value| {
                let mut texts = texts.clone();
                if let (Some(v), Some(shards)) = (value, &resolution.shards) {
                    texts.insert(shards.attr.clone(), v);
                }
                query(&texts)
            })
            .collect();
        let _ = analysis;
        Case {
            pattern,
            design: design.clone(),
            params,
            queries,
            shards: resolution.shards.clone(),
            expected: expected.into_iter().cloned().collect(),
            ok,
        }
    }

    pub async fn run(&self, endpoint: &Endpoint, analysis: &Analysis, table: &str, source: &str, tally: &mut Tally) {
        let mut problems = Vec::new();
        let mut actual_text = String::new();
        let fanout = self.queries.as_ref().map_or(0, |q| q.len());
        let per_shard = if fanout > 1 { fanout } else { 0 };
        match &self.queries {
            Err(e) => problems.push(e.clone()),
            Ok(queries) => {
                tally.queries += queries.len();
                tally.shard_queries += per_shard;
                tally.hits += usize::from(!self.expected.is_empty());
                match endpoint::read(&endpoint.client, &analysis.schema.model, queries, table, false).await {
                    Err(e) => problems.push(e),
                    Ok(rows) => {
                        actual_text = format!("{rows:?}");
                        problems.extend(self.judge_all(&rows));
                    }
                }
                if let Some(n) = self.pattern.limit.filter(|_| self.ok) {
                    tally.queries += queries.len();
                    tally.shard_queries += per_shard;
                    match endpoint::read(&endpoint.client, &analysis.schema.model, queries, table, true).await {
                        Err(e) => problems.push(e),
                        Ok(rows) => problems.extend(self.judge_page(&rows, n as usize)),
                    }
                }
            }
        }
        if !self.ok {
            tally.leak_runs += 1;
            tally.leak_differs += usize::from(!problems.is_empty());
            return;
        }
        let run = (table.to_string(), self.pattern.name.clone());
        match &self.shards {
            Some(Shards { from: None, .. }) => tally.sharded_run.insert(run.clone()),
            Some(Shards { from: Some(_), .. }) => tally.calculated_run.insert(run.clone()),
            None => false,
        };
        tally.patterns_run.insert(run.clone());
        if problems.is_empty() {
            return;
        }
        tally.disagreements += 1;
        tally.disagreeing.insert(run);
        let sharded = matches!(self.shards, Some(Shards { from: None, .. }));
        for problem in &problems {
            *tally.kinds.entry((kind(problem), sharded)).or_default() += 1;
        }
        let request = match &self.queries {
            Ok(qs) => qs
                .iter()
                .map(|q| serde_json::to_string(&q.request(&analysis.schema.model, table)).unwrap())
                .collect::<Vec<_>>()
                .join("\n    "),
            Err(_) => "-".into(),
        };
        let expected: Vec<Id> = self.expected.iter().map(Item::id).collect();
        if tally.disagreements > DETAILED {
            println!(
                "DISAGREEMENT [{}] {}: {}",
                endpoint.name,
                self.pattern.source(&self.design),
                problems.join("; ")
            );
            return;
        }
        println!(
            "DISAGREEMENT [{}] {}\n  problems: {}\n  params: {:?}\n  query: {request}\n  expected: {expected:?}\n  actual: {actual_text}\n--- design ---\n{source}--------------",
            endpoint.name,
            self.pattern.source(&self.design),
            problems.join("; "),
            self.params,
        );
    }

    fn by_value<'a>(&self, item: &'a Item) -> Option<&'a String> {
        self.pattern.by.as_ref().and_then(|(attr, _)| item.attrs.get(attr))
    }

    fn order(&self, a: &str, b: &str) -> Ordering {
        let (attr, desc) = self.pattern.by.as_ref().unwrap();
        let o = oracle::compare(&oracle::attr_ty(&self.design, &self.pattern, attr), a, b);
        if *desc { o.reverse() } else { o }
    }

    /// Every page: exactly the expected rows, in order, single returns single.
    fn judge_all(&self, rows: &[Id]) -> Vec<String> {
        let mut problems = Vec::new();
        let expected: HashMap<Id, &Item> = self.expected.iter().map(|i| (i.id(), i)).collect();
        let missing: Vec<&Id> = self
            .expected
            .iter()
            .map(|i| i.id())
            .filter(|id| !rows.contains(id))
            .map(|id| expected.get_key_value(&id).unwrap().0)
            .collect();
        let extra: Vec<&Id> = rows.iter().filter(|r| !expected.contains_key(*r)).collect();
        if !missing.is_empty() {
            problems.push(format!("missing {missing:?}"));
        }
        if !extra.is_empty() {
            problems.push(format!("extra {extra:?}"));
        }
        for (entity, many) in &self.pattern.returns {
            let n = self.expected.iter().filter(|i| i.entity == *entity).count();
            if !many && n > 1 {
                problems.push(format!(
                    "`-> {entity}` is a single return but {n} items of {entity} match"
                ));
            }
        }
        if self.pattern.by.is_some() {
            let values: Vec<&String> = rows
                .iter()
                .filter_map(|r| expected.get(r))
                .filter_map(|i| self.by_value(i))
                .collect();
            if values.windows(2).any(|w| self.order(w[0], w[1]) == Ordering::Greater) {
                problems.push(format!("wrong order: {values:?}"));
            }
        }
        problems
    }

    /// The first page of a `limit N` pattern: the first N expected rows.
    fn judge_page(&self, rows: &[Id], n: usize) -> Vec<String> {
        let mut problems = Vec::new();
        let expected: HashMap<Id, &Item> = self.expected.iter().map(|i| (i.id(), i)).collect();
        let want = n.min(self.expected.len());
        if rows.len() != want || rows.iter().any(|r| !expected.contains_key(r)) {
            problems.push(format!(
                "limit {n}: first page {rows:?}, expected {want} of the expected rows"
            ));
        } else if self.pattern.by.is_some() {
            let got: Vec<_> = rows.iter().filter_map(|r| self.by_value(expected[r])).collect();
            let first: Vec<_> = self.expected[..want].iter().filter_map(|i| self.by_value(i)).collect();
            if got != first {
                problems.push(format!(
                    "limit {n}: first page in order {got:?}, expected the first {first:?}"
                ));
            }
        }
        problems
    }
}

/// What a problem is about, for the tally.
fn kind(problem: &str) -> &'static str {
    const KINDS: [(&str, &str); 6] = [
        ("missing", "missing rows"),
        ("extra", "extra rows"),
        ("wrong order", "order"),
        ("limit", "first page"),
        ("is a single return", "single return"),
        ("the Query uses", "unbound parameter"),
    ];
    KINDS
        .iter()
        .find(|(needle, _)| problem.contains(needle))
        .map_or("endpoint error", |(_, k)| k)
}
