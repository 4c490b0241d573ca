//! `dyno doc FILE`: the model document (Markdown) on stdout;
//! `dyno doc --check FILE MODEL.md`: whether the committed document is
//! still what would be generated now.

use std::path::PathBuf;

use clap::Args;

use super::{EXIT_ERRORS, EXIT_OK, EXIT_USAGE, input};

#[derive(Args)]
pub struct DocArgs {
    /// Compare with a committed document instead of printing: exit 1 when it differs.
    #[arg(long)]
    check: bool,
    /// The schema.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// The committed document (with `--check`).
    #[arg(value_name = "MODEL.md")]
    document: Option<PathBuf>,
}

pub fn run(args: &DocArgs) -> i32 {
    let (sources, analysis) = match super::analysed_schema(&args.file, None) {
        Ok(analysed) => analysed,
        Err(status) => return status,
    };
    let named = super::schema_name(&args.file, &sources);
    // The schema by its file (or folder) name alone: the document sits
    // beside it, and `--check` in CI must not fail because it was run from
    // another directory than the one the document was generated in.
    let absolute = std::fs::canonicalize(&named).unwrap_or_else(|_| named.clone());
    let name = absolute
        .file_name()
        .map_or_else(|| named.display().to_string(), |n| n.to_string_lossy().into_owned());
    let generated = crate::doc::document(&name, &sources, &analysis);
    if !args.check {
        print!("{generated}");
        return EXIT_OK;
    }
    let Some(path) = &args.document else {
        eprintln!("error: `--check` needs the committed document: dyno doc --check FILE MODEL.md");
        return EXIT_USAGE;
    };
    let committed = match input::read(path) {
        Ok(committed) => committed,
        Err(message) => {
            eprintln!("error: {message}");
            return EXIT_USAGE;
        }
    };
    // A checkout that turned the committed document's line ends into CRLF
    // has not made it stale.
    if committed.text.replace("\r\n", "\n") == generated {
        EXIT_OK
    } else {
        eprintln!(
            "error: `{}` is out of date with `{}`; regenerate it: dyno doc {} > {}",
            path.display(),
            named.display(),
            named.display(),
            path.display()
        );
        EXIT_ERRORS
    }
}
