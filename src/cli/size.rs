//! `dyno size ITEMS.json [--schema FILE]`: each item's exact size and what
//! it costs to read and write, by DynamoDB's rules; with a schema, which
//! entity each item is and how it compares with the schema's estimate. The
//! rules live in `crate::size`; this file reads, calls and prints.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use serde_json::{Value as Json, json};

use super::{EXIT_ERRORS, EXIT_OK, EXIT_USAGE, input};
use crate::check::cost::format_bytes;
use crate::check::model::Model;
use crate::size::{self, Capacity, Expected, Item, Match, Summary, units};

#[derive(Args)]
pub struct SizeArgs {
    /// Items as DynamoDB JSON or plain JSON: one item, an array, JSON Lines or BatchWriteItem requests (`-`: standard input).
    #[arg(value_name = "ITEMS.json")]
    items: PathBuf,
    /// Name each item's entity and compare its size with the schema's estimate.
    #[arg(long, value_name = "FILE.dyno")]
    schema: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// Per item: size, read and write units, entity; then the totals.
    Text,
    /// One JSON document: `items` and `summary` (docs/cli.md).
    Json,
}

/// One item measured.
struct Measured {
    path: String,
    item: Item,
    bytes: u64,
    capacity: Capacity,
    problems: Vec<String>,
    /// With a schema: every entity whose keys the item fits.
    matches: Option<Vec<Match>>,
}

pub fn run(args: &SizeArgs) -> i32 {
    let items = match load_items(&args.items) {
        Ok(items) => items,
        Err(status) => return status,
    };
    let analysis = match &args.schema {
        Some(path) => match super::analysed_schema(path, Some("no entities identified")) {
            Ok((_, analysis)) => Some(analysis),
            Err(status) => return status,
        },
        None => None,
    };
    let model = analysis.as_ref().map(|a| &a.schema.model);
    let measured: Vec<Measured> = items
        .into_iter()
        .map(|(path, item)| {
            let bytes = size::item_size(&item);
            let mut problems = size::problems(&item, bytes);
            let matches = model.map(|m| size::identify(m, &item));
            if let (Some(model), Some(matches)) = (model, &matches)
                && let Some(table) = size::table_of(model, matches)
            {
                problems.extend(size::key_problems(model, table, &item));
                problems.extend(size::local_index_problems(model, table, &item, bytes));
            }
            Measured {
                problems,
                capacity: size::capacity(bytes),
                matches,
                path,
                item,
                bytes,
            }
        })
        .collect();
    let sizes: Vec<u64> = measured.iter().map(|m| m.bytes).collect();
    let summary = size::summary(&sizes);
    match args.format {
        Format::Text => print!("{}", text_report(model, &measured, &summary)),
        Format::Json => {
            let document = json_report(model, &measured, &summary);
            println!("{}", serde_json::to_string_pretty(&document).unwrap());
        }
    }
    if measured.iter().any(|m| !m.problems.is_empty()) {
        EXIT_ERRORS
    } else {
        EXIT_OK
    }
}

/// The items of `path` (`-`: standard input), each with its JSONPath; every
/// reason they cannot be read is printed, and the exit status returned.
/// What `dyno size` and `dyno explain --items` read.
pub(super) fn load_items(path: &std::path::Path) -> Result<Vec<(String, Item)>, i32> {
    let shown = path.display();
    let text = read_items(path).map_err(|message| {
        eprintln!("error: {message}");
        EXIT_USAGE
    })?;
    size::parse_items(&text).map_err(|errors| {
        for e in &errors {
            eprintln!("error: {shown}: {e}");
        }
        eprintln!("error: `{shown}`: nothing measured until the input above is fixed");
        EXIT_USAGE
    })
}

fn read_items(path: &std::path::Path) -> Result<String, String> {
    if path.as_os_str() == "-" {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)
            .map_err(|e| format!("standard input cannot be read: {e}"))?;
        return Ok(text);
    }
    input::read(path).map(|source| source.text.to_string())
}

fn bytes_text(bytes: u64) -> String {
    if bytes < 1024 {
        format!("{bytes} B")
    } else {
        // Two decimals: 409,609 B is over the limit, and "400 KB" would hide it.
        format!("{bytes} B ({:.2} KB)", bytes as f64 / 1024.0)
    }
}

/// `Invoice: 187 B, 13% less than the estimate of 214 B (…)`.
fn compare(name: &str, bytes: u64, expected: &Expected) -> String {
    let against = if expected.hinted {
        format!("the entity's size hint of {}", format_bytes(expected.bytes))
    } else {
        format!("the schema's estimate of {} B", expected.bytes.round())
    };
    let share = if expected.bytes > 0.0 {
        bytes as f64 / expected.bytes * 100.0
    } else {
        100.0
    };
    let how = if share < 1.0 {
        "under 1% of".to_string()
    } else {
        format!("{}% of", share.round())
    };
    let defaults = if expected.estimated {
        " (sized from type defaults)"
    } else {
        ""
    };
    format!("entity {name}: {} B is {how} {against}{defaults}", bytes)
}

fn key_values(model: &Model, item: &Item) -> String {
    let mut names: Vec<&str> = Vec::new();
    for (_, table) in model.table_ids() {
        if let Some(base) = table.base() {
            for key in base.key_attributes() {
                if !names.contains(&key.name.as_str()) {
                    names.push(&key.name);
                }
            }
        }
    }
    let shown: Vec<String> = names
        .iter()
        .map(|name| match item.get(name) {
            Some(size::AttrValue::S(s)) => format!("{name} = {}", Json::String(s.clone())),
            Some(size::AttrValue::N(n)) => format!("{name} = {n}"),
            Some(_) => format!("{name} = (not a string or number)"),
            None => format!("no {name}"),
        })
        .collect();
    shown.join(", ")
}

fn text_report(model: Option<&Model>, measured: &[Measured], summary: &Summary) -> String {
    let mut out = String::new();
    for m in measured {
        let c = &m.capacity;
        out.push_str(&format!("{}: {}\n", m.path, bytes_text(m.bytes)));
        out.push_str(&format!(
            "  read (GetItem): {} RCU strongly consistent, {} eventually consistent, {} transactional\n",
            units(c.read_strong),
            units(c.read_eventual),
            units(c.read_transactional)
        ));
        out.push_str(&format!(
            "  write (PutItem): {} WCU, {} transactional\n",
            units(c.write),
            units(c.write_transactional)
        ));
        if let (Some(model), Some(matches)) = (model, &m.matches) {
            match matches.as_slice() {
                [] => out.push_str(&format!(
                    "  entity: none of the schema's entities writes these keys ({})\n",
                    key_values(model, &m.item)
                )),
                [first, rest @ ..] => {
                    let name = &model.entity(first.entity).name.text;
                    out.push_str(&format!(
                        "  {}\n",
                        compare(name, m.bytes, &size::expected(model, *first))
                    ));
                    if !rest.is_empty() {
                        let others: Vec<&str> =
                            rest.iter().map(|r| model.entity(r.entity).name.text.as_str()).collect();
                        out.push_str(&format!(
                            "  note: its keys also fit {}: the schema lets these entities write the same keys\n",
                            others.join(", ")
                        ));
                    }
                }
            }
        }
        for problem in &m.problems {
            out.push_str(&format!("  error: {problem}\n"));
        }
    }
    let s = summary;
    let noun = if s.count == 1 { "item" } else { "items" };
    out.push_str(&format!(
        "{} {noun}: min {}, avg {} B, max {}, {} in all\n",
        s.count,
        bytes_text(s.min),
        (s.average * 10.0).round() / 10.0,
        bytes_text(s.max),
        bytes_text(s.total)
    ));
    out.push_str(&format!(
        "  read all, one GetItem or BatchGetItem entry each (each rounded up to 4 KB): {} RCU strongly consistent, {} eventually consistent, {} transactional\n",
        units(s.batch_get_strong),
        units(s.batch_get_eventual),
        units(s.transact_get)
    ));
    out.push_str(&format!(
        "  read all in one Query (summed, then rounded up to 4 KB once): {} RCU strongly consistent, {} eventually consistent\n",
        units(s.query_strong),
        units(s.query_eventual)
    ));
    out.push_str(&format!(
        "  write all, one PutItem or BatchWriteItem entry each (each rounded up to 1 KB): {} WCU, {} transactional\n",
        units(s.write),
        units(s.write_transactional)
    ));
    let over = measured.iter().filter(|m| !m.problems.is_empty()).count();
    if over > 0 {
        out.push_str(&format!(
            "{over} {} DynamoDB would reject\n",
            if over == 1 { "item" } else { "items" }
        ));
    }
    out
}

fn json_report(model: Option<&Model>, measured: &[Measured], summary: &Summary) -> Json {
    let items: Vec<Json> = measured
        .iter()
        .map(|m| {
            let c = &m.capacity;
            let mut item = json!({
                "path": m.path,
                "format": m.item.format.as_str(),
                "bytes": m.bytes,
                "read": {
                    "strong": c.read_strong,
                    "eventual": c.read_eventual,
                    "transactional": c.read_transactional,
                },
                "write": {
                    "standard": c.write,
                    "transactional": c.write_transactional,
                },
                "over_limit": m.bytes > size::MAX_ITEM_BYTES,
                "problems": m.problems,
            });
            if let (Some(model), Some(matches)) = (model, &m.matches) {
                item["entity"] = match matches.as_slice() {
                    [] => Json::Null,
                    [first, rest @ ..] => {
                        let expected = size::expected(model, *first);
                        json!({
                            "name": model.entity(first.entity).name.text,
                            "item_shape": first.shape,
                            "also": rest.iter().map(|r| model.entity(r.entity).name.text.to_string()).collect::<Vec<_>>(),
                            "expected_bytes": expected.bytes,
                            "hinted": expected.hinted,
                            "estimated": expected.estimated,
                        })
                    }
                };
            }
            item
        })
        .collect();
    let s = summary;
    json!({
        "version": 1,
        "items": items,
        "summary": {
            "count": s.count,
            "min": s.min,
            "avg": s.average,
            "max": s.max,
            "total": s.total,
            "batch_get": { "strong": s.batch_get_strong, "eventual": s.batch_get_eventual, "transactional": s.transact_get },
            "query": { "strong": s.query_strong, "eventual": s.query_eventual },
            "batch_write": { "standard": s.write, "transactional": s.write_transactional },
        },
    })
}
