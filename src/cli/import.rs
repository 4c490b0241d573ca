//! `dyno import workbench MODEL.json` and `dyno import cloudformation
//! TEMPLATE`: read the file, print the schema `crate::import` writes.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::{EXIT_ERRORS, EXIT_OK, EXIT_USAGE, input};
use crate::import::{cloudformation, workbench};

#[derive(Args)]
pub struct ImportArgs {
    #[command(subcommand)]
    source: Source,
}

#[derive(Subcommand)]
enum Source {
    /// A NoSQL Workbench data model (JSON): tables, indexes, one entity per facet.
    Workbench {
        /// The model, as Workbench exports it.
        #[arg(value_name = "MODEL.json")]
        file: PathBuf,
    },
    /// The DynamoDB tables of a CloudFormation template (YAML or JSON).
    Cloudformation {
        /// The template; `.json` is read as JSON, anything else as YAML.
        #[arg(value_name = "TEMPLATE")]
        file: PathBuf,
    },
}

pub fn run(args: &ImportArgs) -> i32 {
    let file = match &args.source {
        Source::Workbench { file } | Source::Cloudformation { file } => file,
    };
    let source = match input::read(file) {
        Ok(source) => source,
        Err(message) => {
            eprintln!("error: {message}");
            return EXIT_USAGE;
        }
    };
    let shown = source.display_path();
    let imported = match &args.source {
        Source::Workbench { .. } => workbench::import(&source.text, &shown),
        Source::Cloudformation { file } => {
            let json = file.extension().is_some_and(|e| e.eq_ignore_ascii_case("json"));
            cloudformation::import(&source.text, &shown, json)
        }
    };
    match imported {
        Ok(schema) => {
            print!("{schema}");
            EXIT_OK
        }
        Err(error) => {
            eprintln!("error: {error}");
            EXIT_ERRORS
        }
    }
}
