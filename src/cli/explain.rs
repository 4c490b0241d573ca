//! `dyno explain FILE [PATTERN]`: each pattern's Query as the low-level
//! request JSON, ready for an SDK or `aws dynamodb query --cli-input-json`.

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use serde_json::json;

use super::{EXIT_ERRORS, EXIT_OK, EXIT_USAGE, render};
use crate::check::Schema;
use crate::check::cost::{ReadCost, format_bytes};
use crate::check::describe;
use crate::check::model::PatternId;
use crate::diagnostic::Severity;
use crate::size::{self, EntitySize};

#[derive(Args)]
pub struct ExplainArgs {
    /// The schema.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Only this pattern.
    #[arg(value_name = "PATTERN")]
    pattern: Option<String>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Items to size the entities by instead of the schema's estimates
    /// (what `dyno size` reads: DynamoDB JSON or plain JSON).
    #[arg(long, value_name = "ITEMS.json")]
    items: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// Per pattern: the access path, the Query request as JSON, the read cost.
    Text,
    /// One JSON document: each pattern's index, request and cost (docs/cli.md).
    Json,
}

pub fn run(args: &ExplainArgs) -> i32 {
    let (sources, analysis) = match super::analysed_schema(&args.file, None) {
        Ok(analysed) => analysed,
        Err(status) => return status,
    };
    let source = &sources[analysis.file.index()];
    let selected: Vec<PatternId> = (0..analysis.schema.model.patterns.len())
        .map(PatternId::new)
        .filter(|&i| {
            args.pattern
                .as_ref()
                .is_none_or(|p| analysis.schema.model.pattern(i).name.text == *p)
        })
        .collect();
    if let Some(name) = &args.pattern
        && selected.is_empty()
    {
        eprintln!("error: `{}` has no pattern `{name}`", source.display_path());
        return EXIT_USAGE;
    }
    // Sizes measured from real items replace the schema's estimates.
    let (schema, measured) = match &args.items {
        None => (analysis.schema.clone(), Vec::new()),
        Some(path) => match measured_schema(&analysis.schema, path) {
            Ok((schema, measured)) => (std::sync::Arc::new(schema), measured),
            Err(status) => return status,
        },
    };
    let unresolved = selected
        .iter()
        .filter(|&&i| analysis.schema.resolution(i).is_none())
        .count();
    match args.format {
        Format::Json => {
            let patterns: Vec<_> = selected.iter().map(|&i| pattern_json(&schema, i)).collect();
            println!(
                "{}",
                serde_json::to_string_pretty(&json!({
                    "version": 1,
                    "patterns": patterns,
                    "measured": measured.iter().map(|m| json!({
                        "entity": schema.model.entity(m.entity).name.text,
                        "bytes": m.bytes.round() as u64,
                        "items": m.items,
                    })).collect::<Vec<_>>(),
                }))
                .unwrap()
            );
        }
        Format::Text => {
            for m in &measured {
                println!(
                    "sized from {}: `{}` ~{} ({} item{})",
                    args.items.as_ref().map(|p| p.display().to_string()).unwrap_or_default(),
                    schema.model.entity(m.entity).name.text,
                    format_bytes(m.bytes),
                    m.items,
                    if m.items == 1 { "" } else { "s" }
                );
            }
            if !measured.is_empty() {
                println!();
            }
            for &i in &selected {
                print!("{}", pattern_text(&schema, i));
            }
            if unresolved > 0 {
                // Say why, with the same diagnostics `dyno check` prints.
                // Every file's: a folder's patterns and keys may be apart.
                for d in analysis
                    .schema
                    .diagnostics
                    .iter()
                    .filter(|d| d.severity == Severity::Error)
                {
                    print!("{}", render::text(sources.as_slice(), d));
                }
            }
        }
    }
    if unresolved > 0 { EXIT_ERRORS } else { EXIT_OK }
}

/// The schema with each measured entity sized by its items' average (as
/// an `entity X ~N` hint would), and what was measured.
fn measured_schema(schema: &Schema, path: &Path) -> Result<(Schema, Vec<EntitySize>), i32> {
    let shown = path.display();
    let items = super::size::load_items(path)?;
    let measured = size::measured_sizes(&schema.model, &items);
    if measured.is_empty() {
        eprintln!("warning: {shown}: no item has the keys of exactly one entity of the schema; sizes stay estimated");
    }
    let mut schema = schema.clone();
    for m in &measured {
        schema.model.entities[m.entity.index()].size_hint = Some(m.bytes);
    }
    Ok((schema, measured))
}

fn pattern_json(schema: &Schema, index: PatternId) -> serde_json::Value {
    let pattern = schema.model.pattern(index);
    match describe::served(schema, index) {
        Some(served) => json!({
            "pattern": pattern.name.text,
            "resolved": true,
            "pinned": served.pinned,
            "operation": served.read.name(),
            "index": served.index,
            "returns": served.returns,
            "request": served.request,
            "cost": cost_json(&served.cost),
            "requests": served.cost.requests,
            "shard": served.shards.as_ref().map(|s| json!({
                "attribute": s.attr,
                "count": s.count,
                "computed_from": s.from,
            })),
        }),
        None => json!({ "pattern": pattern.name.text, "resolved": false }),
    }
}

fn pattern_text(schema: &Schema, index: PatternId) -> String {
    let pattern = schema.model.pattern(index);
    let mut out = format!("pattern {}", pattern.name.text);
    if let Some(docs) = &pattern.docs {
        out.push_str(&format!("  // {}", docs.lines().next().unwrap_or_default()));
    }
    out.push('\n');
    match describe::served(schema, index) {
        Some(served) => {
            let via = match &served.index {
                Some(index) => format!("index {index}"),
                None => "the table".into(),
            };
            out.push_str(&format!("  {}\n", served.sentence(&via)));
            let request = serde_json::to_string_pretty(&served.request).unwrap();
            for line in request.lines() {
                out.push_str(&format!("  {line}\n"));
            }
            out.push_str(&format!("  cost: {}\n", served.cost.describe()));
        }
        None => out.push_str("  no single Query (see the errors below)\n"),
    }
    out.push('\n');
    out
}

fn cost_json(cost: &ReadCost) -> serde_json::Value {
    let mut out = json!({
        "items": whole(cost.items),
        "bytes": cost.bytes.ceil() as u64,
        "rcu": cost.rcu,
        "consistent": cost.consistent,
        "estimated": cost.estimated,
        "default_count": cost.default_count.is_some(),
        "pages": cost.pages,
    });
    if let Some(filtered) = &cost.filtered {
        // Items read above, items the filter returns here.
        out["returned"] = whole(filtered.returned);
        out["filter_keeps"] = json!(filtered.share);
    }
    out
}

/// `200` rather than `200.0`; fractions keep up to two decimals.
fn whole(n: f64) -> serde_json::Value {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        json!(n as i64)
    } else {
        json!((n * 100.0).round() / 100.0)
    }
}
