//! Reading input files (schemas, models, templates), with one clear line for every way that can fail.

use std::path::Path;

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
    if bytes.len() > crate::syntax::MAX_TEXT {
        return Err(format!("`{shown}` is larger than 4 GiB, the most dyno reads"));
    }
    let text = String::from_utf8(bytes).map_err(|error| {
        let at = error.utf8_error().valid_up_to();
        format!("`{shown}` is not UTF-8 text (invalid byte at offset {at})")
    })?;
    Ok(SourceText::new(path.to_path_buf(), text))
}

pub use crate::db::folder::schemas_under;
