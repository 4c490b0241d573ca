//! `dyno fmt [--check] FILE...`: rewrites schemas in the canonical style
//! (see `ide::format`), or with `--check` lists the files that are not.
//!
//! Exit status: 0 all formatted (or rewritten); 1 a file has syntax errors
//! (it is left untouched), or under `--check` a file would change; 2 a file
//! could not be read or written (the other files are still processed).

use std::path::PathBuf;

use clap::Args;

use super::input;
use super::{EXIT_ERRORS, EXIT_OK, EXIT_USAGE, render};
use crate::ide::format::{FormatError, format};

#[derive(Args)]
pub struct FmtArgs {
    /// Schema files to format in place.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Change nothing: print the files that are not formatted, and exit 1
    /// if there are any.
    #[arg(long)]
    check: bool,
}

pub fn run(args: &FmtArgs) -> i32 {
    let mut io_problem = false;
    let mut failed = false;
    for path in &args.files {
        let source = match input::read(path) {
            Ok(source) => source,
            Err(message) => {
                eprintln!("error: {message}");
                io_problem = true;
                continue;
            }
        };
        let shown = source.display_path();
        match format(&source.text) {
            Ok(formatted) if *formatted == *source.text => {}
            Ok(_) if args.check => {
                println!("{shown}");
                failed = true;
            }
            Ok(formatted) => {
                if let Err(error) = std::fs::write(path, formatted) {
                    eprintln!("error: `{shown}` cannot be written: {error}");
                    io_problem = true;
                }
            }
            Err(FormatError::SyntaxErrors(errors)) => {
                let mut out = String::new();
                for error in &errors {
                    out.push_str(&render::text(&source, error));
                }
                eprint!("{out}");
                eprintln!("error: `{shown}` has syntax errors: fix them first (it was left unchanged)");
                failed = true;
            }
            Err(error @ FormatError::Internal(_)) => {
                eprintln!("error: `{shown}`: {error}");
                failed = true;
            }
        }
    }
    if io_problem {
        EXIT_USAGE
    } else if failed {
        EXIT_ERRORS
    } else {
        EXIT_OK
    }
}
