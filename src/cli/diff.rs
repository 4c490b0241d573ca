//! `dyno diff OLD NEW`: what a schema change does to the items already
//! written (docs/diff.md). Each side is a file or `git:REV:PATH`. The
//! comparison is `crate::diff`'s; this file reads the two versions, counts
//! items on a live table when asked (feature `verify`) and prints.
//! Exit codes: 0 nothing breaking (or all of it allowed), 1 breaking
//! changes, 2 usage or I/O problem.

use std::path::Path;

use clap::{Args, ValueEnum};

use super::input::SourceText;
use super::{EXIT_ERRORS, EXIT_OK, EXIT_USAGE, render};
use crate::check::Analysis;
use crate::diff::render::{self as report, Count, Report};
use crate::diff::{self, Class, Version};

#[derive(Args)]
pub struct DiffArgs {
    /// The schema before: a file, or `git:REV:PATH` (read with `git show REV:PATH`).
    #[arg(value_name = "OLD")]
    old: String,
    /// The schema after: a file, or `git:REV:PATH`.
    #[arg(value_name = "NEW")]
    new: String,
    #[arg(long, value_enum, default_value_t = DiffFormat::Text)]
    format: DiffFormat,
    /// Accept this class of breaking change knowingly: it is reported but does not fail the run.
    #[arg(long, value_enum, value_name = "CLASS")]
    allow: Vec<Allow>,
    /// Count the existing items each migration affects on this DynamoDB endpoint (read-only; feature `verify`).
    #[arg(long, value_name = "URL")]
    endpoint: Option<String>,
    /// The table to count in (default: the schema's table name).
    #[arg(long, value_name = "NAME", requires = "endpoint")]
    table: Option<String>,
    /// Stop counting one change's items at this many.
    #[arg(long, value_name = "N", default_value_t = 10_000, requires = "endpoint")]
    max_items: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum DiffFormat {
    /// rustc-style text at the new file's lines, the old value in a note.
    Text,
    /// One JSON document on stdout (docs/diff.md).
    Json,
    /// GitHub Actions annotations, one a line.
    Github,
}

/// The breaking classes (`safe` and `rename` never fail a run).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Allow {
    Migration,
    NewTable,
    BreaksReaders,
}

impl Allow {
    fn class(self) -> Class {
        match self {
            Allow::Migration => Class::Migration,
            Allow::NewTable => Class::NewTable,
            Allow::BreaksReaders => Class::BreaksReaders,
        }
    }
}

pub fn run(args: &DiffArgs) -> i32 {
    let old = match load(&args.old) {
        Ok(loaded) => loaded,
        Err(status) => return status,
    };
    let new = match load(&args.new) {
        Ok(loaded) => loaded,
        Err(status) => return status,
    };
    let (old_texts, new_texts) = (old.texts(), new.texts());
    let changes = diff::diff(
        Version {
            schema: &old.analysis.schema,
            texts: &old_texts,
        },
        Version {
            schema: &new.analysis.schema,
            texts: &new_texts,
        },
    );
    let counts = match &args.endpoint {
        Some(endpoint) => match count(endpoint, args, &old.analysis, &changes) {
            Ok(counts) => counts,
            Err(message) => {
                eprintln!("error: {message}");
                return EXIT_USAGE;
            }
        },
        None => Vec::new(),
    };
    let allowed: Vec<Class> = args.allow.iter().map(|a| a.class()).collect();
    let report = Report {
        old: &old.sources,
        new: &new.sources,
        old_name: &old.name,
        new_name: &new.name,
        changes: &changes,
        allowed: &allowed,
        counts: &counts,
        counted_in: args.table.as_deref(),
    };
    match args.format {
        DiffFormat::Text => print!("{}", report::text(&report)),
        DiffFormat::Json => println!("{}", serde_json::to_string_pretty(&report::json(&report)).unwrap()),
        DiffFormat::Github => print!("{}", report::github(&report)),
    }
    if report.failing() > 0 { EXIT_ERRORS } else { EXIT_OK }
}

/// One side: its files (several for a schema folder), how it is named, and
/// the check of the whole schema.
struct Side {
    sources: Vec<SourceText>,
    name: String,
    analysis: Analysis,
}

impl Side {
    fn texts(&self) -> Vec<&str> {
        self.sources.iter().map(|s| &*s.text).collect()
    }
}

/// One side, read and checked as `dyno check` reads it (a file of a schema
/// folder brings the folder); a side with syntax errors cannot be compared
/// (its model is partial), so that is exit 2 with the errors.
fn load(spec: &str) -> Result<Side, i32> {
    let usage = |message: String| {
        eprintln!("error: {message}");
        EXIT_USAGE
    };
    let (sources, analysis) = match spec.strip_prefix("git:") {
        Some(revision) => {
            let (revision, path) = revision
                .split_once(':')
                .ok_or_else(|| usage(format!("`{spec}` is not `git:REV:PATH` (e.g. `git:main:schema.dyno`)")))?;
            let read = crate::db::git::read_at(Path::new("."), revision, path)
                .map_err(|reason| usage(format!("`{spec}` cannot be read: {reason}")))?;
            // An older revision's marker may hold what this version does not
            // read: a comparison of keys does not depend on costs, so it is
            // said and left out rather than refused.
            let defaults = match &read.marker {
                Some(marker) => {
                    let (defaults, unread) = marker.defaults(Default::default());
                    if !unread.is_empty() {
                        eprintln!("warning: in `{}`, ignored: {}", read.name, unread.join("; "));
                    }
                    defaults
                }
                None => Default::default(),
            };
            let sources: Vec<SourceText> = read
                .files
                .into_iter()
                .map(|(p, text)| SourceText::new(p, text))
                .collect();
            if sources.is_empty() {
                return Err(usage(format!("no .dyno files in `{}`", read.name)));
            }
            let name = read.name;
            let (sources, analysis) = super::analyse_sources(sources, 0, &defaults, None, Path::new(&name))?;
            return checked(Side {
                sources,
                name,
                analysis,
            });
        }
        None => super::analysed_schema(Path::new(spec), None)?,
    };
    let name = super::schema_name(Path::new(spec), &sources).display().to_string();
    checked(Side {
        sources,
        name,
        analysis,
    })
}

fn checked(side: Side) -> Result<Side, i32> {
    let syntax: Vec<_> = side
        .analysis
        .schema
        .diagnostics
        .iter()
        .filter(|d| d.code.is_syntax())
        .collect();
    if syntax.is_empty() {
        return Ok(side);
    }
    for d in syntax {
        eprint!("{}", render::text(side.sources.as_slice(), d));
    }
    eprintln!("error: `{}` has syntax errors: nothing compared", side.name);
    Err(EXIT_USAGE)
}

#[cfg(not(feature = "verify"))]
fn count(_: &str, _: &DiffArgs, _: &Analysis, _: &[diff::Change]) -> Result<Vec<Option<Count>>, String> {
    Err("this dyno was built without `--endpoint` counting: install it with `cargo install --locked --path . --features verify` (docs/diff.md)".into())
}

#[cfg(feature = "verify")]
fn count(
    endpoint: &str,
    args: &DiffArgs,
    old: &Analysis,
    changes: &[diff::Change],
) -> Result<Vec<Option<Count>>, String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|error| format!("cannot start the async runtime: {error}"))?;
    runtime.block_on(diff::count::count_all(
        endpoint,
        args.table.as_deref(),
        args.max_items,
        &old.schema.model,
        changes,
    ))
}
