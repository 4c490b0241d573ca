//! `dyno verify FILE --endpoint URL`: runs every pattern's Query against a
//! DynamoDB endpoint on sample items and reports per pattern. Needs the
//! cargo feature `verify` (off by default); see docs/verify.md.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::check::sample::{DEFAULT_PER_ENTITY, DEFAULT_SEED};

#[derive(Args)]
pub struct VerifyArgs {
    /// The schema.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// The DynamoDB endpoint: `http://localhost:8000` (DynamoDB Local, moto)
    /// or `https://dynamodb.REGION.amazonaws.com` (a real account).
    #[arg(long, value_name = "URL")]
    endpoint: String,
    /// Leave the tables and their items on the endpoint.
    #[arg(long)]
    keep: bool,
    /// Table names are PREFIX + the schema's table name (default: a unique
    /// `dyno-verify-...-` prefix).
    #[arg(long, value_name = "PREFIX")]
    table_prefix: Option<String>,
    /// Sample records per entity.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_PER_ENTITY)]
    per_entity: usize,
    /// Sample seed.
    #[arg(long, value_name = "S", default_value_t = DEFAULT_SEED)]
    seed: u64,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// One line per pattern (pass, FAIL or skip), each failure with the items that break it.
    Text,
    /// One JSON document: the tables, every pattern's Query, result and failures (docs/verify.md).
    Json,
}

#[cfg(not(feature = "verify"))]
pub fn run(args: &VerifyArgs) -> i32 {
    let _ = (
        &args.file,
        &args.endpoint,
        args.keep,
        &args.table_prefix,
        args.per_entity,
        args.seed,
        args.format,
    );
    eprintln!(
        "error: this dyno was built without `dyno verify`: install it with `cargo install --locked --path . --features verify` (docs/verify.md)"
    );
    super::EXIT_USAGE
}

#[cfg(feature = "verify")]
pub fn run(args: &VerifyArgs) -> i32 {
    use super::{EXIT_ERRORS, EXIT_OK, EXIT_USAGE};
    use crate::check::sample::Options as SampleOptions;
    use crate::verify::{self, Options};

    let (sources, analysis) = match super::analysed_schema(&args.file, Some("nothing to verify")) {
        Ok(analysed) => analysed,
        Err(status) => return status,
    };
    let texts: Vec<&str> = sources.iter().map(|s| &*s.text).collect();
    let named = super::schema_name(&args.file, &sources);
    let options = Options {
        endpoint: args.endpoint.clone(),
        keep: args.keep,
        sample: SampleOptions {
            per_entity: args.per_entity.max(1),
            seed: args.seed,
        },
        prefix: args.table_prefix.clone(),
    };
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("error: cannot start the async runtime: {error}");
            return EXIT_USAGE;
        }
    };
    if args.format == Format::Text {
        println!("verify {} against {}", named.display(), args.endpoint);
    }
    let report = match runtime.block_on(verify::verify(&texts, &analysis, &options)) {
        Ok(report) => report,
        Err(error) => {
            eprintln!("error: {error}");
            return EXIT_USAGE;
        }
    };
    match args.format {
        Format::Json => println!("{}", serde_json::to_string_pretty(&report.json()).unwrap()),
        Format::Text => print!("{}", text(&report)),
    }
    if report.ok() { EXIT_OK } else { EXIT_ERRORS }
}

/// The report as text: one line per pattern, then its failures.
#[cfg(feature = "verify")]
fn text(report: &crate::verify::Report) -> String {
    use crate::verify::Status;
    const SHOWN: usize = 5;
    let mut out = String::new();
    for table in &report.tables {
        out.push_str(&format!(
            "  table {} as {}: {} items, {} global and {} local indexes\n",
            table.table, table.name, table.items, table.global_indexes, table.local_indexes
        ));
    }
    out.push('\n');
    let width = report.patterns.iter().map(|p| p.pattern.len()).max().unwrap_or(0);
    for p in &report.patterns {
        let label = match p.status {
            Status::Pass => "pass",
            Status::Fail => "FAIL",
            Status::Skipped(_) => "skip",
        };
        match (&p.status, &p.plan) {
            (Status::Skipped(reason), _) => {
                out.push_str(&format!("{label}  {:width$}  {reason}\n", p.pattern));
            }
            (_, Some(plan)) => {
                let how = match (plan.pinned, plan.checker_ok) {
                    (true, true) => " (pinned)",
                    (true, false) => " (pinned, run as written: the checker rejects it)",
                    _ => "",
                };
                out.push_str(&format!(
                    "{label}  {:width$}  {}: {} item{}{how}\n",
                    p.pattern,
                    p.condition.as_deref().unwrap_or_default(),
                    p.returned,
                    if p.returned == 1 { "" } else { "s" },
                ));
            }
            (_, None) => out.push_str(&format!("{label}  {}\n", p.pattern)),
        }
        for failure in &p.failures {
            out.push_str(&format!("      {}: {}\n", failure.kind, failure.message));
            for item in failure.items.iter().take(SHOWN) {
                out.push_str(&format!("        {item}\n"));
            }
            if failure.items.len() > SHOWN {
                out.push_str(&format!("        ... and {} more\n", failure.items.len() - SHOWN));
            }
        }
        for note in &p.unexercised {
            out.push_str(&format!("      not exercised: {note}\n"));
        }
    }
    for note in &report.notes {
        out.push_str(&format!("note: {note}\n"));
    }
    out.push_str(&format!(
        "\n{} pattern{}: {} passed, {} failed\n",
        report.patterns.len(),
        if report.patterns.len() == 1 { "" } else { "s" },
        report.passed(),
        report.failed()
    ));
    if report.deleted {
        out.push_str("tables deleted\n");
    } else {
        let names: Vec<&str> = report.tables.iter().map(|t| t.name.as_str()).collect();
        out.push_str(&format!("tables kept: {}\n", names.join(", ")));
    }
    out
}
