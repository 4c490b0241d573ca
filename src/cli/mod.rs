//! The command line: a thin shell that reads files, runs the library and
//! prints. Exit codes: 0 no errors, 1 errors found, 2 usage or I/O problem.

mod check;
mod design;
mod diff;
mod doc;
mod explain;
mod export;
mod fmt;
mod generate;
mod import;
pub mod input;
use crate::diagnostic::render;
mod sample;
mod size;
mod verify;
mod view;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "dyno",
    version,
    about = "Checks DynamoDB single-table designs written in .dyno schemas"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check schemas and report problems like a compiler.
    Check(check::CheckArgs),
    /// Run the language server on stdin/stdout.
    Lsp,
    /// Compare two versions of a schema: what each change does to the items already written (docs/diff.md).
    Diff(diff::DiffArgs),
    /// Print each pattern's resolved Query as the low-level request JSON.
    Explain(explain::ExplainArgs),
    /// Print the model document (Markdown): prefix registry, access patterns, item collections (`--check`: compare with a committed one).
    Doc(doc::DocArgs),
    /// Format schemas in place in the canonical style (`--check`: list the files that are not).
    Fmt(fmt::FmtArgs),
    /// Print sample items for every entity (BatchWriteItem requests, one per line).
    Sample(sample::SampleArgs),
    /// Measure items (DynamoDB JSON or plain JSON): exact size, read and write units, entity (`--schema`).
    Size(size::SizeArgs),
    /// Run every pattern's Query against a DynamoDB endpoint on sample items (feature `verify`; docs/verify.md).
    Verify(verify::VerifyArgs),
    /// Write typed data-access code, one module per table: `typescript`, `python` or `rust` (docs/generate.md).
    Generate(generate::GenerateArgs),
    /// Propose key templates and indexes for entities and patterns that lack them, each proved by the checker (docs/design.md).
    Design(design::DesignArgs),
    /// Write the DynoTable page (HTML): items grouped by partition, keys decoded, each pattern's reads highlighted (docs/view.md).
    View(view::ViewArgs),
    /// Export the tables: `cloudformation` (a template) or `workbench` (a NoSQL Workbench model).
    Export(export::ExportArgs),
    /// Write a schema from an existing description: `workbench` (a NoSQL Workbench model) or `cloudformation` (a template).
    Import(import::ImportArgs),
    /// Print the syntax tree outline of a file (for debugging the parser).
    #[command(hide = true)]
    Syntax { file: std::path::PathBuf },
}

pub const EXIT_OK: i32 = 0;
pub const EXIT_ERRORS: i32 = 1;
pub const EXIT_USAGE: i32 = 2;

/// A schema read and analysed, for the commands that work from its model.
/// `Err` is the exit status, the reason already printed: `EXIT_USAGE` when
/// the file cannot be read; with `refusal` (what the command then does not
/// do, e.g. "nothing exported"), `EXIT_ERRORS` after the syntax errors.
/// These commands read the text of one file (to edit it, or to show it): a
/// file of a schema folder is refused, with the commands that read folders.
fn analysed(path: &std::path::Path, refusal: Option<&str>) -> Result<(input::SourceText, crate::check::Analysis), i32> {
    let (mut sources, analysis) = analysed_schema(path, refusal)?;
    if sources.len() > 1 {
        eprintln!(
            "error: `{}` is part of a schema of {} files (a folder with a `dyno.json`); this command reads a schema of one file so far — `dyno check`, `explain`, `diff`, `doc`, `export`, `generate`, `view`, `verify`, `sample` and `size` read the folder",
            path.display(),
            sources.len()
        );
        return Err(EXIT_USAGE);
    }
    Ok((sources.remove(analysis.file.index()), analysis))
}

/// How the schema read by [`analysed_schema`] from `path` is named in
/// output: its file, or its folder when it has several files.
fn schema_name(path: &std::path::Path, sources: &[input::SourceText]) -> std::path::PathBuf {
    match sources {
        [one] => one.path.clone(),
        _ => crate::db::folder::schema_root(path).unwrap_or_else(|| path.to_path_buf()),
    }
}

/// [`analysed`] for the commands that read a whole schema folder: `path` is
/// a file, or a folder with a `dyno.json`, and a file of such a folder
/// brings its other files (`db::folder`). Returns every file read, by
/// `FileId`, and the analysis of the named one (the first member for a
/// folder) over the whole schema: `sources[analysis.file.index()]`.
fn analysed_schema(
    path: &std::path::Path,
    refusal: Option<&str>,
) -> Result<(Vec<input::SourceText>, crate::check::Analysis), i32> {
    let usage = |message: String| {
        eprintln!("error: {message}");
        EXIT_USAGE
    };
    let root = crate::db::folder::schema_root(path);
    let mut paths = vec![path.to_path_buf()];
    let mut named_at = 0;
    let mut defaults = crate::check::Defaults::default();
    if let Some(root) = &root {
        defaults = schema_defaults(root).map_err(usage)?;
        let members = crate::db::folder::members(root, &mut |message| eprintln!("error: {message}"));
        let same = |a: &std::path::Path, b: &std::path::Path| {
            std::fs::canonicalize(a)
                .ok()
                .is_some_and(|a| std::fs::canonicalize(b).ok() == Some(a))
        };
        let named = (!path.is_dir()).then(|| members.iter().position(|m| same(m, path)));
        paths = members;
        match named {
            None => named_at = 0,
            Some(Some(at)) => named_at = at,
            // Left out of the walk (ignored): read with the others.
            Some(None) => {
                named_at = paths.len();
                paths.push(path.to_path_buf());
            }
        }
        if paths.is_empty() {
            return Err(usage(format!("no .dyno files under `{}`", root.display())));
        }
    }
    let mut sources = Vec::new();
    for path in &paths {
        sources.push(input::read(path).map_err(usage)?);
    }
    let shown = root.as_deref().unwrap_or(path);
    analyse_sources(sources, named_at, &defaults, refusal, shown)
}

/// The analysis of `sources` as one schema, in their order, with the
/// schema's cost defaults: of `sources[named_at]`. With `refusal`, syntax
/// errors in any file are printed and end the command (`EXIT_ERRORS`).
fn analyse_sources(
    sources: Vec<input::SourceText>,
    named_at: usize,
    defaults: &crate::check::Defaults,
    refusal: Option<&str>,
    shown: &std::path::Path,
) -> Result<(Vec<input::SourceText>, crate::check::Analysis), i32> {
    // The workspace the server and `dyno check` build, of these files, in
    // the folder's order, so that every command gives the same answers.
    let (workspace, files) = crate::db::Workspace::of_files(sources.iter().map(|s| (s.display_path(), s.text.clone())));
    let analysis = workspace.analysis_with(files[named_at], &files, defaults);
    if let Some(refusal) = refusal {
        let syntax: Vec<_> = files
            .iter()
            .flat_map(|&f| workspace.parse(f).diagnostics.clone())
            .collect();
        if !syntax.is_empty() {
            for d in &syntax {
                eprint!("{}", render::text(sources.as_slice(), d));
            }
            eprintln!("error: `{}` has syntax errors: {refusal}", shown.display());
            return Err(EXIT_ERRORS);
        }
    }
    Ok((sources, analysis))
}

/// The cost defaults of the schema folder at `root`, from its `dyno.json`;
/// an entry that cannot be read is an error (it would change every cost
/// and the warnings that depend on them).
fn schema_defaults(root: &std::path::Path) -> Result<crate::check::Defaults, String> {
    let marker = crate::db::folder::read_marker(root)?;
    match marker.defaults(crate::check::Defaults::default()) {
        (defaults, unread) if unread.is_empty() => Ok(defaults),
        (_, unread) => Err(format!("in `{}`: {}", root.display(), unread.join("; "))),
    }
}

pub fn main() -> i32 {
    crate::parallel::limit_malloc_arenas();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            let _ = error.print();
            return if error.use_stderr() { EXIT_USAGE } else { EXIT_OK };
        }
    };
    if !matches!(cli.command, Command::Lsp) {
        end_quietly_on_a_closed_pipe();
    }
    match cli.command {
        Command::Check(args) => check::run(&args),
        Command::Diff(args) => diff::run(&args),
        Command::Explain(args) => explain::run(&args),
        Command::Doc(args) => doc::run(&args),
        Command::Lsp => crate::lsp::run(),
        Command::Fmt(args) => fmt::run(&args),
        Command::Sample(args) => sample::run(&args),
        Command::Size(args) => size::run(&args),
        Command::Verify(args) => verify::run(&args),
        Command::Generate(args) => generate::run(&args),
        Command::View(args) => view::run(&args),
        Command::Design(args) => design::run(&args),
        Command::Export(args) => export::run(&args),
        Command::Import(args) => import::run(&args),
        Command::Syntax { file } => match input::read(&file) {
            Ok(source) => {
                print!(
                    "{}",
                    crate::syntax::outline::outline(&crate::syntax::parse(&source.text).file)
                );
                EXIT_OK
            }
            Err(message) => {
                eprintln!("error: {message}");
                EXIT_USAGE
            }
        },
    }
}

/// `dyno explain FILE | head` should stop like any Unix tool when the reader
/// goes away, not panic in `print!`: Rust ignores SIGPIPE, so its default
/// action is restored for the commands that only print. (The language
/// server keeps it ignored and sees the closed pipe as an error.)
fn end_quietly_on_a_closed_pipe() {
    #[cfg(unix)]
    {
        const SIGPIPE: i32 = 13;
        const SIG_DFL: usize = 0;
        unsafe extern "C" {
            fn signal(signum: i32, handler: usize) -> usize;
        }
        // SAFETY: restores the default disposition of one signal before any
        // thread is started; no handler of ours is involved.
        unsafe {
            signal(SIGPIPE, SIG_DFL);
        }
    }
}
