//! `dyno check PATH...`: text, JSON, GitHub annotations or SARIF

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use clap::{Args, ValueEnum};

use super::input::{self, SourceText};
use super::{EXIT_ERRORS, EXIT_OK, EXIT_USAGE, render};

use crate::check::{Schema, describe};
use crate::db::{Workspace, folder};
use crate::diagnostic::{Diagnostic, Severity, github, sarif};
use crate::syntax::FileId;

#[derive(Args)]
pub struct CheckArgs {
    /// Schema files to check, or directories to search for `*.dyno` files.
    #[arg(required = true, value_name = "PATH")]
    files: Vec<PathBuf>,
    #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
    format: CheckFormat,
    /// Treat this kind of diagnostic as an error (`--deny warnings`).
    #[arg(long, value_enum, value_name = "KIND")]
    deny: Vec<Deny>,
}

/// `dyno check`'s outputs: those of the other commands and two for CI.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum CheckFormat {
    /// rustc-style text with the source line and a caret.
    Text,
    /// One JSON document on stdout (fields documented in docs/cli.md).
    Json,
    /// GitHub Actions annotations (`::error file=...::message`), one a line.
    Github,
    /// A SARIF 2.1.0 log for code scanning (docs/cli.md).
    Sarif,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Deny {
    Warnings,
}

pub fn run(args: &CheckArgs) -> i32 {
    // The same workspace the server builds: each file is read into it and,
    // as in the editor, checked as a schema of its own — or with the other
    // files of its folder, when the folder holds a `dyno.json`.
    let mut workspace = Workspace::new();
    let mut sources: Vec<SourceText> = Vec::new();
    let mut unreadable: Vec<render::Unreadable> = Vec::new();
    let mut paths = Vec::new();
    for path in &args.files {
        if path.is_dir() {
            let found = input::schemas_under(path, &mut |message| {
                eprintln!("error: {message}");
                unreadable.push(render::Unreadable {
                    path: path.display().to_string(),
                    message,
                });
            });
            if found.is_empty() {
                eprintln!("warning: no .dyno files under `{}`", path.display());
            }
            paths.extend(found);
        } else {
            paths.push(path.clone());
        }
    }
    let mut groups: Vec<Group> = Vec::new();
    let (schemas, defaults) = schemas(&paths, &mut unreadable);
    for path in schemas {
        let (root, path) = path;
        match input::read(&path) {
            // A file named twice is checked once.
            Ok(source) if workspace.file(&source.display_path()).is_some() => {}
            Ok(source) => {
                if source.text.trim().is_empty() {
                    eprintln!("warning: `{}` is empty: nothing to check", source.display_path());
                }
                let (file, _) = workspace.set_source(&source.display_path(), source.text.clone());
                debug_assert_eq!(file.index(), sources.len());
                sources.push(source);
                match groups.last_mut() {
                    Some(group) if root.is_some() && group.root == root => group.files.push(file),
                    _ => groups.push(Group {
                        defaults: root.as_ref().and_then(|r| defaults.get(r)).copied().unwrap_or_default(),
                        root,
                        files: vec![file],
                    }),
                }
            }
            Err(message) => {
                eprintln!("error: {message}");
                unreadable.push(render::Unreadable {
                    path: path.display().to_string(),
                    message,
                });
            }
        }
    }
    // Only the diagnostics and the model are read: the check lets go of
    // the trees once it has lowered the model from them.
    let analyses: Vec<(FileId, Arc<Schema>)> = groups
        .iter()
        .flat_map(|group| {
            let schema = workspace.check_once(&group.files, &group.defaults);
            group.files.iter().map(move |&file| (file, schema.clone()))
        })
        .collect();
    let checked: Vec<(FileId, Vec<Diagnostic>)> = analyses
        .iter()
        .map(|(file, schema)| (*file, schema.diagnostics_in(*file).to_vec()))
        .collect();

    let deny_warnings = args.deny.contains(&Deny::Warnings);
    let failing = |d: &Diagnostic| d.severity == Severity::Error || (deny_warnings && d.severity == Severity::Warning);
    let has_errors = checked.iter().any(|(_, ds)| ds.iter().any(failing));

    match args.format {
        CheckFormat::Text => {
            let mut out = String::new();
            let mut resolved = Vec::new();
            let mut at = 0;
            for group in &groups {
                let members = &checked[at..at + group.files.len()];
                let schema = &analyses[at].1;
                at += group.files.len();
                let mut all = Vec::new();
                for (_, diagnostics) in members {
                    for diagnostic in diagnostics {
                        out.push_str(&render::text(sources.as_slice(), diagnostic));
                    }
                    all.extend(diagnostics.iter().cloned());
                }
                // One summary per schema: a folder's files are one.
                let shown = match &group.root {
                    Some(root) => SourceText::new(root.clone(), String::new()),
                    None => SourceText::new(sources[group.files[0].index()].path.clone(), String::new()),
                };
                let proved = describe::proved(schema);
                if proved.one_query > 0 {
                    resolved.push(shown.display_path());
                }
                out.push_str(&render::summary(&shown, &proved.to_string(), &all));
            }
            // Where to see what was proved: one file by name, several by `FILE`.
            match resolved.as_slice() {
                [] => {}
                [one] => out.push_str(&format!("`dyno explain {one}` prints each Query and its cost\n")),
                _ => out.push_str("`dyno explain FILE` prints each Query and its cost\n"),
            }
            print!("{out}");
        }
        CheckFormat::Json => println!("{}", render::json(&sources, &checked, &unreadable)),
        CheckFormat::Github => {
            let mut out: String = unreadable.iter().map(github::unreadable).collect();
            for diagnostic in checked.iter().flat_map(|(_, ds)| ds) {
                out.extend(github::annotation(sources.as_slice(), diagnostic));
            }
            print!("{out}");
        }
        CheckFormat::Sarif => println!(
            "{}",
            serde_json::to_string_pretty(&sarif::log(&sources, &checked, &unreadable)).unwrap()
        ),
    }

    // The process exits next: freeing the analyses (hundreds of thousands
    // of small allocations, about a fifth of `check` on a large schema)
    // would be work no one sees. The OS takes the memory back.
    std::mem::forget((workspace, analyses, checked));
    if !unreadable.is_empty() {
        EXIT_USAGE
    } else if has_errors {
        EXIT_ERRORS
    } else {
        EXIT_OK
    }
}

/// The files of one schema: one file, or the members of a folder with a
/// `dyno.json` (`root`).
struct Group {
    root: Option<PathBuf>,
    files: Vec<FileId>,
    /// The cost defaults its `dyno.json` sets (reported by `schemas` when
    /// they cannot be read).
    defaults: crate::check::Defaults,
}

/// The cost defaults each schema folder's `dyno.json` sets, read once.
type FolderDefaults = HashMap<PathBuf, crate::check::Defaults>;

/// Each path with the schema folder it belongs to; a folder's members
/// come together, all of them (also those not named), where the first of
/// them was named. With the defaults of each folder whose `dyno.json`
/// could be read (the others are reported in `unreadable`).
fn schemas(
    paths: &[PathBuf],
    unreadable: &mut Vec<render::Unreadable>,
) -> (Vec<(Option<PathBuf>, PathBuf)>, FolderDefaults) {
    let mut out: Vec<(Option<PathBuf>, PathBuf)> = Vec::new();
    let mut defaults = HashMap::new();
    let mut roots_seen: Vec<PathBuf> = Vec::new();
    // The folders' files already listed, as one path each (a directory's
    // files are named again by the walk of `dyno check DIR`).
    let mut listed: std::collections::HashSet<PathBuf> = std::collections::HashSet::new();
    let canonical = |p: &PathBuf| std::fs::canonicalize(p).unwrap_or_else(|_| p.clone());
    for path in paths {
        match folder::schema_root(path) {
            None => out.push((None, path.clone())),
            // Named, but left out of the folder's walk (ignored or hidden):
            // read with the folder all the same, after its files.
            Some(root) if roots_seen.contains(&root) => {
                if !path.is_dir() && listed.insert(canonical(path)) {
                    let after = out
                        .iter()
                        .rposition(|(r, _)| r.as_ref() == Some(&root))
                        .map_or(out.len(), |i| i + 1);
                    out.insert(after, (Some(root), path.clone()));
                }
            }
            Some(root) => {
                match super::schema_defaults(&root) {
                    Ok(read) => {
                        defaults.insert(root.clone(), read);
                    }
                    Err(message) => {
                        eprintln!("error: {message}");
                        unreadable.push(render::Unreadable {
                            path: root.join(folder::MARKER).display().to_string(),
                            message,
                        });
                    }
                }
                let members = folder::members(&root, &mut |message| {
                    eprintln!("error: {message}");
                });
                listed.extend(members.iter().map(&canonical));
                out.extend(members.into_iter().map(|m| (Some(root.clone()), m)));
                if !path.is_dir() && listed.insert(canonical(path)) {
                    out.push((Some(root.clone()), path.clone()));
                }
                roots_seen.push(root);
            }
        }
    }
    (out, defaults)
}
