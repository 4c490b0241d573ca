//! `dyno sample FILE`: sample items for every entity, shaped by the types,
//! with the near-misses that expose key hazards. The default output is one
//! BatchWriteItem request body per line (at most 25 puts each), ready for
//! `aws dynamodb batch-write-item --cli-input-json "$line"`.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use serde_json::{Value as Json, json};

use super::EXIT_OK;
use crate::check::sample::{self, DEFAULT_PER_ENTITY, DEFAULT_SEED, Options};

#[derive(Args)]
pub struct SampleArgs {
    /// The schema.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Records per entity (at least as many as the longest enum has values).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_PER_ENTITY)]
    per_entity: usize,
    /// The same seed gives the same items.
    #[arg(long, value_name = "S", default_value_t = DEFAULT_SEED)]
    seed: u64,
    #[arg(long, value_enum, default_value_t = SampleFormat::DynamodbJson)]
    format: SampleFormat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SampleFormat {
    /// One BatchWriteItem request per line: `{"RequestItems": {TABLE: [{"PutRequest": {"Item": …}}]}}`.
    DynamodbJson,
    /// One JSON document with plain values, each item with its entity.
    Json,
}

pub fn run(args: &SampleArgs) -> i32 {
    let (_, analysis) = match super::analysed_schema(&args.file, Some("no samples")) {
        Ok(analysed) => analysed,
        Err(status) => return status,
    };
    let model = &analysis.schema.model;
    let samples = sample::generate(
        model,
        &Options {
            per_entity: args.per_entity,
            seed: args.seed,
        },
    );
    for note in &samples.notes {
        eprintln!("note: {note}");
    }
    match args.format {
        SampleFormat::DynamodbJson => {
            let mut out = String::new();
            for request in sample::batch_requests(model, &samples, |t| model.table(t).name.text.to_string()) {
                out.push_str(&request.to_string());
                out.push('\n');
            }
            write_stdout(&out);
        }
        SampleFormat::Json => {
            let tables: Vec<Json> = samples
                .tables
                .iter()
                .filter(|t| !t.items.is_empty())
                .map(|t| {
                    let items: Vec<Json> = t
                        .items
                        .iter()
                        .map(|i| {
                            let item: serde_json::Map<String, Json> =
                                i.item.iter().map(|(k, v)| (k.clone(), sample::plain(v))).collect();
                            json!({ "entity": model.entity(i.entity).name.text, "item": item })
                        })
                        .collect();
                    json!({ "table": model.table(t.table).name.text, "items": items })
                })
                .collect();
            let document = json!({
                "version": 1,
                "seed": args.seed,
                "per_entity": args.per_entity,
                "tables": tables,
            });
            write_stdout(&(serde_json::to_string_pretty(&document).unwrap() + "\n"));
        }
    }
    EXIT_OK
}

/// Writes to standard output; a closed pipe (`dyno sample | head`) is not
/// an error.
fn write_stdout(text: &str) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush());
}
