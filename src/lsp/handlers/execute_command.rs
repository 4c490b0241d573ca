//! `workspace/executeCommand`: `dyno.view [uri, pattern?]` writes the
//! DynoTable page of an open document (`crate::ide::view::page`) to the
//! temp folder and answers `{"path": …}`, for the editor to open;
//! `dyno.copyQuery` / `dyno.copyAwsCli [uri, pattern]` answer
//! `{"text": …}`, the pattern's request JSON or AWS CLI command.

use std::hash::{Hash, Hasher};
use std::path::PathBuf;

use serde_json::{Value, json};
use tower_lsp::lsp_types::{ExecuteCommandParams, Url};

use crate::ide::code_lens::{Action, copied};
use crate::ide::view::page;
use crate::lsp::state::State;

pub fn handle(state: &State, params: ExecuteCommandParams) -> Result<Option<Value>, String> {
    let command = params.command.as_str();
    let action = Action::from_command(command).ok_or_else(|| format!("unknown command `{command}`"))?;
    let uri = params
        .arguments
        .first()
        .and_then(Value::as_str)
        .and_then(|text| Url::parse(text).ok())
        .ok_or_else(|| format!("`{command}` takes the document's URI first"))?;
    let pattern = params.arguments.get(1).and_then(Value::as_str);
    let snapshot = state
        .snapshot(&uri)
        .ok_or_else(|| format!("`{uri}` is not an open document"))?;
    if action != Action::View {
        let pattern = pattern.ok_or_else(|| format!("`{command}` takes a pattern's name second"))?;
        // The text for the client to put on the clipboard (the VS Code
        // extension and the Neovim plugin do; docs/lsp.md).
        let text = copied(&snapshot.file, action, pattern)
            .ok_or_else(|| format!("no single Query serves `{pattern}` in `{uri}`"))?;
        return Ok(Some(json!({ "text": text })));
    }
    let name = uri
        .path_segments()
        .and_then(|mut segments| segments.next_back())
        .filter(|last| !last.is_empty())
        .unwrap_or("schema.dyno")
        .to_string();
    let (files, current) = snapshot.schema_files();
    let files: Vec<&crate::ide::File> = files.iter().map(|f| &**f).collect();
    let html = page(&files, current, &name, pattern);
    let path = page_path(&uri, &name, pattern);
    let written = path
        .parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|()| std::fs::write(&path, html));
    written.map_err(|e| format!("`{}` cannot be written: {e}", path.display()))?;
    Ok(Some(json!({ "path": path })))
}

/// `<temp>/dyno-view/billing-<hash>.html`: one file per document and
/// pattern, rewritten on each request, so that pages of two documents
/// with the same name never overwrite each other.
fn page_path(uri: &Url, name: &str, pattern: Option<&str>) -> PathBuf {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    (uri.as_str(), pattern).hash(&mut hasher);
    let stem = name.strip_suffix(".dyno").unwrap_or(name);
    let safe: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    std::env::temp_dir()
        .join("dyno-view")
        .join(format!("{safe}-{:016x}.html", hasher.finish()))
}
