//! `dyno diff OLD NEW`: what a schema change does to the items already
//! written (docs/diff.md). Each side is a file or `git:REV:PATH`. The
//! comparison is `crate::diff`'s; this file reads the two versions, counts
//! items on a live table when asked (feature `verify`) and prints.
//! Exit codes: 0 nothing breaking (or all of it allowed), 1 breaking
//! changes, 2 usage or I/O problem.

use std::path::PathBuf;
use std::process::Command;

use clap::{Args, ValueEnum};

use super::input::{self, SourceText};
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
    let (old, old_analysis) = match load(&args.old) {
        Ok(loaded) => loaded,
        Err(status) => return status,
    };
    let (new, new_analysis) = match load(&args.new) {
        Ok(loaded) => loaded,
        Err(status) => return status,
    };
    let changes = diff::diff(
        Version {
            schema: &old_analysis.schema,
            text: &old.text,
        },
        Version {
            schema: &new_analysis.schema,
            text: &new.text,
        },
    );
    let counts = match &args.endpoint {
        Some(endpoint) => match count(endpoint, args, &old_analysis, &changes) {
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
        old: &old,
        new: &new,
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

/// One side, read and checked; a side with syntax errors cannot be
/// compared (its model is partial), so that is exit 2 with the errors.
fn load(spec: &str) -> Result<(SourceText, Analysis), i32> {
    // A file of a schema folder is not a schema on its own (docs/language.md).
    let path = std::path::Path::new(spec);
    if !spec.starts_with("git:")
        && let Some(root) = crate::db::folder::schema_root(path)
        && crate::db::folder::members(&root, &mut |_| {}).len() > 1
    {
        eprintln!(
            "error: `{spec}` is part of a schema of several files (`{}` holds a `dyno.json`); `dyno diff` compares schemas of one file so far",
            root.display()
        );
        return Err(EXIT_USAGE);
    }
    let source = read(spec).map_err(|message| {
        eprintln!("error: {message}");
        EXIT_USAGE
    })?;
    // The workspace `dyno check` and the server build, of this one text.
    let mut workspace = crate::db::Workspace::new();
    let (file, _) = workspace.set_text(&source.display_path(), ropey::Rope::from_str(&source.text));
    let analysis = workspace.analysis(file, &[file]);
    if !analysis.parse.diagnostics.is_empty() {
        for d in &analysis.parse.diagnostics {
            eprint!("{}", render::text(&source, d));
        }
        eprintln!("error: `{}` has syntax errors: nothing compared", source.display_path());
        return Err(EXIT_USAGE);
    }
    Ok((source, analysis))
}

/// A file, or `git:REV:PATH` read with `git show` from the current
/// directory's repository.
fn read(spec: &str) -> Result<SourceText, String> {
    let Some(revision) = spec.strip_prefix("git:") else {
        return input::read(&PathBuf::from(spec));
    };
    if !revision.contains(':') {
        return Err(format!("`{spec}` is not `git:REV:PATH` (e.g. `git:main:schema.dyno`)"));
    }
    let output = Command::new("git")
        .args(["show", revision])
        .output()
        .map_err(|error| format!("`{spec}`: cannot run git: {error}"))?;
    if !output.status.success() {
        let reason = String::from_utf8_lossy(&output.stderr);
        return Err(format!("`{spec}` cannot be read: {}", reason.trim()));
    }
    let text = String::from_utf8(output.stdout).map_err(|_| format!("`{spec}` is not UTF-8 text"))?;
    Ok(SourceText::new(PathBuf::from(revision), text))
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
