//! `dyno view FILE [--items ITEMS.json] --out table.html`: the DynoTable
//! page (docs/view.md). The page is built by `crate::view`; this file reads
//! the inputs and writes the file.

use std::path::PathBuf;

use clap::Args;

use super::{EXIT_OK, EXIT_USAGE};
use crate::check::sample::{DEFAULT_PER_ENTITY, DEFAULT_SEED, Options};
use crate::view::{self, Source};

#[derive(Args)]
pub struct ViewArgs {
    /// The schema.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Show these items instead of sample items: what `dyno size` reads (DynamoDB JSON or plain JSON; `-`: standard input).
    #[arg(long, value_name = "ITEMS.json")]
    items: Option<PathBuf>,
    /// The HTML file to write.
    #[arg(long, value_name = "FILE.html")]
    out: PathBuf,
    /// The pattern picked when the page opens.
    #[arg(long, value_name = "PATTERN")]
    pattern: Option<String>,
    /// Sample records per entity (without `--items`).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_PER_ENTITY)]
    per_entity: usize,
    /// The same seed gives the same sample items.
    #[arg(long, value_name = "S", default_value_t = DEFAULT_SEED)]
    seed: u64,
}

pub fn run(args: &ViewArgs) -> i32 {
    let (sources, analysis) = match super::analysed_schema(&args.file, Some("no page written")) {
        Ok(analysed) => analysed,
        Err(status) => return status,
    };
    let texts: Vec<&str> = sources.iter().map(|s| &*s.text).collect();
    let named = super::schema_name(&args.file, &sources);
    if let Some(name) = &args.pattern
        && analysis.schema.model.pattern_named(name).is_none()
    {
        eprintln!("error: `{}` has no pattern `{name}`", named.display());
        return EXIT_USAGE;
    }
    let items = match &args.items {
        Some(path) => match super::size::load_items(path) {
            Ok(items) => Source::Given(items),
            Err(status) => return status,
        },
        None => Source::Samples(Options {
            per_entity: args.per_entity,
            seed: args.seed,
        }),
    };
    let title = named.display().to_string();
    let html = view::page(&title, &texts, &analysis, items, args.pattern.as_deref());
    if let Err(error) = std::fs::write(&args.out, html) {
        eprintln!("error: `{}` cannot be written: {error}", args.out.display());
        return EXIT_USAGE;
    }
    EXIT_OK
}
