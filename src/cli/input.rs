//! Reading input files (schemas, models, templates), with one clear line for every way that can fail.

use std::path::{Path, PathBuf};

pub use crate::diagnostic::render::SourceText;

/// Reads a text file, or says in one line why it cannot.
pub fn read(path: &Path) -> Result<SourceText, String> {
    let shown = path.display();
    if path.is_dir() {
        return Err(format!("`{shown}` is a directory, not a file"));
    }
    let bytes = std::fs::read(path).map_err(|error| match error.kind() {
        std::io::ErrorKind::NotFound => format!("`{shown}` does not exist"),
        std::io::ErrorKind::PermissionDenied => {
            format!("`{shown}` cannot be read: permission denied")
        }
        _ => format!("`{shown}` cannot be read: {error}"),
    })?;
    let text = String::from_utf8(bytes).map_err(|error| {
        let at = error.utf8_error().valid_up_to();
        format!("`{shown}` is not UTF-8 text (invalid byte at offset {at})")
    })?;
    Ok(SourceText::new(path.to_path_buf(), text))
}

/// The `*.dyno` files under a directory, at any depth, sorted; what
/// `.gitignore` (also outside a git repository), `.ignore` and hidden
/// names leave out is skipped. An entry that cannot be read is reported.
pub fn schemas_under(dir: &Path, report: &mut dyn FnMut(String)) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in ignore::WalkBuilder::new(dir).require_git(false).build() {
        match entry {
            Ok(entry) => {
                let path = entry.path();
                if entry.file_type().is_some_and(|t| !t.is_dir()) && path.extension().is_some_and(|e| e == "dyno") {
                    found.push(path.to_path_buf());
                }
            }
            Err(error) => report(format!("`{}` cannot be searched: {error}", dir.display())),
        }
    }
    found.sort();
    found
}
