//! Which files form a schema. A folder holding a `dyno.json` is one
//! schema: every `*.dyno` file under it, at any depth, except those under a
//! sub-folder with a `dyno.json` of its own (another schema). Any other
//! file is a schema of its own. docs/language.md ("A schema in several
//! files") says why a marker file and not imports or every folder.

use std::path::{Path, PathBuf};

use crate::check::Defaults;

/// The file that makes its folder one schema.
pub const MARKER: &str = "dyno.json";

/// The folder whose schema `path` (a file or a folder) belongs to: the
/// nearest one at or above it holding a `dyno.json`.
pub fn schema_root(path: &Path) -> Option<PathBuf> {
    // A bare file name's folder is the working one (its parent is `""`).
    let start = match path.parent() {
        _ if path.is_dir() => path,
        Some(parent) if parent.as_os_str().is_empty() => Path::new("."),
        parent => parent?,
    };
    let start = std::fs::canonicalize(start).unwrap_or_else(|_| start.to_path_buf());
    let root = start.ancestors().find(|dir| dir.join(MARKER).is_file())?;
    // Relative to the working folder when under it, as paths are shown.
    let cwd = std::env::current_dir().ok().and_then(|d| std::fs::canonicalize(d).ok());
    Some(match cwd.as_deref().and_then(|cwd| root.strip_prefix(cwd).ok()) {
        Some(relative) if relative.as_os_str().is_empty() => PathBuf::from("."),
        Some(relative) => relative.to_path_buf(),
        None => root.to_path_buf(),
    })
}

/// The `*.dyno` files of the schema rooted at `root`, sorted (every reader
/// merges them in this order, so the CLI and the server agree).
pub fn members(root: &Path, report: &mut dyn FnMut(String)) -> Vec<PathBuf> {
    let top = root.to_path_buf();
    let nested = move |dir: &Path| dir != top && dir.join(MARKER).is_file();
    let mut found = Vec::new();
    let walk = ignore::WalkBuilder::new(root)
        .require_git(false)
        .filter_entry(move |entry| !(entry.file_type().is_some_and(|t| t.is_dir()) && nested(entry.path())))
        .build();
    collect(walk, root, &mut found, report);
    found
}

/// The `*.dyno` files under a directory, at any depth, sorted; what
/// `.gitignore` (also outside a git repository), `.ignore` and hidden
/// names leave out is skipped. An entry that cannot be read is reported.
pub fn schemas_under(dir: &Path, report: &mut dyn FnMut(String)) -> Vec<PathBuf> {
    let mut found = Vec::new();
    collect(
        ignore::WalkBuilder::new(dir).require_git(false).build(),
        dir,
        &mut found,
        report,
    );
    found
}

fn collect(walk: ignore::Walk, dir: &Path, found: &mut Vec<PathBuf>, report: &mut dyn FnMut(String)) {
    for entry in walk {
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
}

/// What a folder's `dyno.json` says: so far, the cost model's defaults for
/// its schema (`{"defaults": {"items": 50, "sizes": {"string": 200}}}`,
/// read like the editor setting `dyno.defaults`, over it).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Marker {
    defaults: Option<serde_json::Value>,
    /// Keys that mean nothing (yet): reported, not read.
    unknown: Vec<String>,
}

impl Marker {
    /// The schema's defaults: `base` with what the marker sets over it, and
    /// what could not be read, each as `dyno.json: key: why`.
    pub fn defaults(&self, base: Defaults) -> (Defaults, Vec<String>) {
        let (defaults, unread) = match &self.defaults {
            Some(value) => base.read(value),
            None => (base, Vec::new()),
        };
        let unread = self
            .unknown
            .iter()
            .map(|key| format!("{key}: unknown (defaults)"))
            .chain(unread.into_iter().map(|u| format!("defaults.{u}")))
            .map(|u| format!("{MARKER}: {u}"))
            .collect();
        (defaults, unread)
    }
}

/// The marker's content must be a JSON object (`{}` is enough); keys a
/// later version may read are reported by [`Marker::defaults`], so an old
/// file's meaning does not change silently.
pub fn read_marker(root: &Path) -> Result<Marker, String> {
    let path = root.join(MARKER);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("`{}` cannot be read: {e}", path.display()))?;
    parse_marker(&text, &path)
}

/// [`read_marker`] of a marker's text, read from `path` (a file, or a git
/// revision's).
pub fn parse_marker(text: &str, path: &Path) -> Result<Marker, String> {
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(serde_json::Value::Object(mut object)) => Ok(Marker {
            defaults: object.remove("defaults"),
            unknown: object.keys().cloned().collect(),
        }),
        Ok(_) => Err(format!(
            "`{}` must hold a JSON object (`{{}}` is enough)",
            path.display()
        )),
        Err(e) => Err(format!("`{}` is not JSON: {e}", path.display())),
    }
}
