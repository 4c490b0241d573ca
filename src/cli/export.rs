//! `dyno export cloudformation FILE` and `dyno export workbench FILE`: the
//! arguments and the printing; `crate::export` builds what is printed.

use std::path::PathBuf;
use std::time::SystemTime;

use clap::{Args, Subcommand, ValueEnum};

use super::{EXIT_ERRORS, EXIT_OK};
use crate::check::sample::{DEFAULT_PER_ENTITY, DEFAULT_SEED, Options};
use crate::export::{cloudformation, workbench};

#[derive(Args)]
pub struct ExportArgs {
    #[command(subcommand)]
    target: Target,
}

#[derive(Subcommand)]
enum Target {
    /// A CloudFormation template: one `AWS::DynamoDB::Table` per table.
    Cloudformation {
        /// The schema.
        #[arg(value_name = "FILE")]
        file: PathBuf,
        #[arg(long, value_enum, default_value_t = TemplateFormat::Yaml)]
        format: TemplateFormat,
    },
    /// A NoSQL Workbench data model (JSON), with sample items.
    Workbench {
        /// The schema.
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// Sample records per entity.
        #[arg(long, value_name = "N", default_value_t = DEFAULT_PER_ENTITY)]
        per_entity: usize,
        /// Sample seed.
        #[arg(long, value_name = "S", default_value_t = DEFAULT_SEED)]
        seed: u64,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum TemplateFormat {
    Yaml,
    Json,
}

pub fn run(args: &ExportArgs) -> i32 {
    let file = match &args.target {
        Target::Cloudformation { file, .. } | Target::Workbench { file, .. } => file,
    };
    let (sources, analysis) = match super::analysed_schema(file, Some("nothing exported")) {
        Ok(analysed) => analysed,
        Err(status) => return status,
    };
    // The schema as named: a file, or a folder of files.
    let named = super::schema_name(file, &sources);
    if !analysis.schema.model.tables.iter().any(|t| t.base().is_some()) {
        eprintln!("error: `{}` declares no table with a key", named.display());
        return EXIT_ERRORS;
    }
    match &args.target {
        Target::Cloudformation { format, .. } => {
            let template = cloudformation::template(&analysis, &named.display().to_string());
            match format {
                TemplateFormat::Json => println!("{}", serde_json::to_string_pretty(&template).unwrap()),
                TemplateFormat::Yaml => print!("{}", cloudformation::yaml(&template)),
            }
        }
        Target::Workbench { per_entity, seed, .. } => {
            let options = Options {
                per_entity: *per_entity,
                seed: *seed,
            };
            let document = workbench::data_model(&analysis, &named, &options, SystemTime::now());
            println!("{}", serde_json::to_string_pretty(&document).unwrap());
            for index in workbench::left_out(&analysis) {
                eprintln!(
                    "warning: index `{index}` is left out of the model: its key has several attributes, and a \
                     Workbench model's index has one partition key and one sort key"
                );
            }
        }
    }
    EXIT_OK
}
