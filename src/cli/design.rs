//! `dyno design FILE [--write] [--explain] [--alternatives N] [--max-indexes N]`:
//! the completed schema on standard output (or written over FILE), the
//! report on standard error (docs/design.md). The design is made by
//! `crate::design`; this file reads the input and prints.

use std::path::PathBuf;

use clap::Args;

use super::{EXIT_ERRORS, EXIT_OK, EXIT_USAGE};
use crate::design::{self, Options};

#[derive(Args)]
pub struct DesignArgs {
    /// The schema: entities (key templates optional), tables (indexes optional) and patterns.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Start from the entities and patterns alone: drop the key templates, indexes and pinned Queries written in FILE.
    #[arg(long)]
    fresh: bool,
    /// Write the completed schema over FILE instead of printing it.
    #[arg(long)]
    write: bool,
    /// Say, for each choice, which patterns forced it.
    #[arg(long)]
    explain: bool,
    /// Also list the N best designs found, with their index count and read cost.
    #[arg(long, value_name = "N", default_value_t = 0)]
    alternatives: usize,
    /// At most N indexes per table (local and global); patterns that would need more are reported.
    #[arg(long, value_name = "N")]
    max_indexes: Option<usize>,
}

pub fn run(args: &DesignArgs) -> i32 {
    let (source, _) = match super::analysed(&args.file, Some("nothing designed")) {
        Ok(analysed) => analysed,
        Err(status) => return status,
    };
    let options = Options {
        max_indexes: args.max_indexes,
        alternatives: args.alternatives,
    };
    let input = if args.fresh {
        design::without_keys(&source.text)
    } else {
        source.text.to_string()
    };
    let design = design::design(&input, &options);
    if args.write {
        if let Err(error) = std::fs::write(&args.file, &design.text) {
            eprintln!("error: `{}` cannot be written: {error}", args.file.display());
            return EXIT_USAGE;
        }
    } else {
        print!("{}", design.text);
    }
    eprint!("{}", design::report(&design, args.explain, args.alternatives > 0));
    if design.errors == 0 { EXIT_OK } else { EXIT_ERRORS }
}
