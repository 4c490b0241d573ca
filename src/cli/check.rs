//! `dyno check FILE...`

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::input::{self, SourceText};
use super::{EXIT_ERRORS, EXIT_OK, EXIT_USAGE, Format, render};
use crate::diagnostic::{Diagnostic, Severity};

#[derive(Args)]
pub struct CheckArgs {
    /// Schema files to check.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Treat this kind of diagnostic as an error (`--deny warnings`).
    #[arg(long, value_enum, value_name = "KIND")]
    deny: Vec<Deny>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Deny {
    Warnings,
}

pub fn run(args: &CheckArgs) -> i32 {
    let mut checked: Vec<(SourceText, Vec<Diagnostic>)> = Vec::new();
    let mut unreadable = false;
    for path in &args.files {
        match input::read(path) {
            Ok(source) => {
                if source.text.trim().is_empty() {
                    eprintln!("warning: `{}` is empty: nothing to check", source.display_path());
                }
                let diagnostics = crate::check::analyze(&source.text).diagnostics;
                checked.push((source, diagnostics));
            }
            Err(message) => {
                eprintln!("error: {message}");
                unreadable = true;
            }
        }
    }

    let deny_warnings = args.deny.contains(&Deny::Warnings);
    let failing = |d: &Diagnostic| d.severity == Severity::Error || (deny_warnings && d.severity == Severity::Warning);
    let has_errors = checked.iter().any(|(_, ds)| ds.iter().any(failing));

    match args.format {
        Format::Text => {
            let mut out = String::new();
            for (source, diagnostics) in &checked {
                for diagnostic in diagnostics {
                    out.push_str(&render::text(source, diagnostic));
                }
                out.push_str(&render::summary(source, diagnostics));
            }
            print!("{out}");
        }
        Format::Json => println!("{}", render::json(&checked)),
    }

    if unreadable {
        EXIT_USAGE
    } else if has_errors {
        EXIT_ERRORS
    } else {
        EXIT_OK
    }
}
