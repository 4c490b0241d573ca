//! `dyno generate typescript|python|rust FILE --out DIR`: writes one module
//! per table; `crate::generate` builds the text.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::{EXIT_ERRORS, EXIT_OK, EXIT_USAGE};
use crate::diagnostic::Severity;
use crate::diagnostic::render;
use crate::generate::{self, Target};

#[derive(Args)]
pub struct GenerateArgs {
    /// The language to generate.
    #[arg(value_enum)]
    language: Language,
    /// The schema.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// The directory to write the modules into (created when missing).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Language {
    /// TypeScript on the AWS SDK for JavaScript v3.
    Typescript,
    /// Python on boto3, typed for mypy --strict.
    Python,
    /// Rust on aws-sdk-dynamodb.
    Rust,
}

pub fn run(args: &GenerateArgs) -> i32 {
    let (sources, analysis) = match super::analysed_schema(&args.file, Some("nothing generated")) {
        Ok(analysed) => analysed,
        Err(status) => return status,
    };
    let source = &sources[analysis.file.index()];
    // Code for a schema with errors would leave patterns out or send a
    // Query the checker rejected: generate only what it proved.
    let errors: Vec<_> = analysis
        .schema
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    if !errors.is_empty() {
        for d in &errors {
            eprint!("{}", render::text(sources.as_slice(), d));
        }
        eprintln!(
            "error: `{}` has {} error(s): nothing generated",
            source.display_path(),
            errors.len()
        );
        return EXIT_ERRORS;
    }
    let target = match args.language {
        Language::Typescript => Target::TypeScript,
        Language::Python => Target::Python,
        Language::Rust => Target::Rust,
    };
    let files = generate::generate(target, &source.display_path(), &analysis.schema);
    if let Err(error) = std::fs::create_dir_all(&args.out) {
        eprintln!("error: cannot create `{}`: {error}", args.out.display());
        return EXIT_USAGE;
    }
    for file in &files {
        let path = args.out.join(&file.name);
        if let Err(error) = std::fs::write(&path, &file.text) {
            eprintln!("error: cannot write `{}`: {error}", path.display());
            return EXIT_USAGE;
        }
        println!("{}", path.display());
    }
    EXIT_OK
}
