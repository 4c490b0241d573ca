//! A schema as it was at a git revision (`dyno diff git:REV:PATH`, the
//! editor's comparison with `HEAD`): the rule of `folder` — a folder whose
//! revision holds a `dyno.json` is one schema, every `*.dyno` under it
//! except sub-folders with their own marker and hidden names — read with
//! `git` from the revision's tree, not from the disk. One difference: the
//! revision's `.gitignore` files are not applied (a committed file is
//! read even if an ignore rule matches it).

use std::path::{Path, PathBuf};
use std::process::Command;

use super::folder::{self, MARKER, Marker};

/// The files of a schema at a revision, in the folder's order, each named
/// `REV:PATH`, and its folder's marker when it has one.
pub struct AtRevision {
    pub files: Vec<(PathBuf, String)>,
    pub marker: Option<Marker>,
    /// The folder (`REV:DIR`) when the schema is one, else the file.
    pub name: String,
}

/// Reads the schema of `path` (a file, or a folder in a schema folder) at
/// `revision`, running git in `dir`; an error is why it cannot be read.
/// `path` is as `git show REV:PATH` takes it: from the repository's top,
/// or from `dir` when it starts with `./` or `../`. The files are named
/// `REV:PATH` with paths from the repository's top.
pub fn read_at(dir: &Path, revision: &str, path: &str) -> Result<AtRevision, String> {
    // The caller names the side (`git:REV:PATH`): the reason alone.
    let kind = git(dir, &["cat-file", "-t", &format!("{revision}:{path}")])?;
    let top = from_top(dir, path)?;
    let spec = |p: &str| format!("{revision}:{p}");
    let is_tree = kind.trim() == "tree";
    let start = if is_tree { Some(top.clone()) } else { parent(&top) };
    let Some(root) = start.and_then(|start| marker_at_or_above(dir, revision, &start)) else {
        if is_tree {
            return Err(format!(
                "`{}` is a folder without a `{MARKER}` in it or above it: not a schema",
                spec(&top)
            ));
        }
        let text = show(dir, &spec(&top))?;
        return Ok(AtRevision {
            files: vec![(PathBuf::from(spec(&top)), text)],
            marker: None,
            name: spec(&top),
        });
    };
    let marker_path = join(&root, MARKER);
    let marker = folder::parse_marker(&show(dir, &spec(&marker_path))?, Path::new(&spec(&marker_path)))?;
    // `ls-tree` does not take every form `REV:PATH` has: the tree's id does.
    let listed = git(dir, &["rev-parse", &spec(&root)])
        .and_then(|tree| git(dir, &["ls-tree", "-r", "--full-tree", "--name-only", tree.trim()]))
        .map_err(|reason| format!("`{}` cannot be listed: {reason}", spec(&root)))?;
    let names: Vec<&Path> = listed.lines().map(Path::new).collect();
    // Sub-folders with a marker of their own are other schemas.
    let nested: Vec<&Path> = names
        .iter()
        .filter(|n| n.file_name().is_some_and(|f| f == MARKER))
        .filter_map(|n| n.parent())
        .filter(|dir| !dir.as_os_str().is_empty())
        .collect();
    // The disk's walk leaves hidden names out (`folder::members`); sorted as
    // paths, as it sorts them.
    let hidden = |n: &Path| {
        n.components()
            .any(|c| c.as_os_str().to_str().is_some_and(|c| c.starts_with('.')))
    };
    let mut members: Vec<&Path> = names
        .iter()
        .copied()
        .filter(|n| n.extension().is_some_and(|e| e == "dyno"))
        .filter(|n| !hidden(n) && !nested.iter().any(|dir| n.starts_with(dir)))
        .collect();
    members.sort();
    let mut files = Vec::new();
    for name in members {
        let path = join(&root, &name.to_string_lossy());
        files.push((PathBuf::from(spec(&path)), show(dir, &spec(&path))?));
    }
    Ok(AtRevision {
        files,
        marker: Some(marker),
        name: spec(&root),
    })
}

/// The id of the object `path` names at `revision` (a folder's tree or a
/// file's blob): it changes when anything under it does, so a caller can
/// keep what it read until then.
pub fn object_id(dir: &Path, revision: &str, path: &str) -> Option<String> {
    git(dir, &["rev-parse", &format!("{revision}:{path}")])
        .ok()
        .map(|id| id.trim().to_string())
}

/// `path` from the repository's top: as it is, or, when it starts with
/// `./` or `../` (or is `.`), from `dir`'s place in the repository.
fn from_top(dir: &Path, path: &str) -> Result<String, String> {
    let relative = path == "." || path == ".." || path.starts_with("./") || path.starts_with("../");
    let prefix = if relative {
        git(dir, &["rev-parse", "--show-prefix"])?.trim().to_string()
    } else {
        String::new()
    };
    let mut parts: Vec<&str> = Vec::new();
    for part in prefix.split('/').chain(path.split('/')) {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            part => parts.push(part),
        }
    }
    Ok(parts.join("/"))
}

/// The folder above `path` (`""` is the repository's top), if any.
fn parent(path: &str) -> Option<String> {
    Some(path.rsplit_once('/').map_or("", |(folder, _)| folder).to_string())
}

/// The nearest folder at or above `folder` whose revision holds a marker,
/// up to the repository's top.
fn marker_at_or_above(dir: &Path, revision: &str, folder: &str) -> Option<String> {
    let mut at = Some(folder.to_string());
    while let Some(folder) = at {
        if exists(dir, &format!("{revision}:{}", join(&folder, MARKER))) {
            return Some(folder);
        }
        at = (!folder.is_empty()).then(|| parent(&folder)).flatten();
    }
    None
}

fn join(folder: &str, name: &str) -> String {
    match folder.trim_end_matches('/') {
        "" => name.to_string(),
        folder => format!("{folder}/{name}"),
    }
}

fn exists(dir: &Path, spec: &str) -> bool {
    git(dir, &["cat-file", "-e", spec]).is_ok()
}

fn show(dir: &Path, spec: &str) -> Result<String, String> {
    git(dir, &["show", spec]).map_err(|reason| format!("`{spec}` cannot be read: {reason}"))
}

/// Runs git in `dir`: its output, or why not.
fn git(dir: &Path, args: &[&str]) -> Result<String, String> {
    let output = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .map_err(|error| format!("cannot run git: {error}"))?;
    if !output.status.success() {
        return Err(String::from_utf8_lossy(&output.stderr).trim().to_string());
    }
    String::from_utf8(output.stdout).map_err(|_| "not UTF-8 text".to_string())
}
