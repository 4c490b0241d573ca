//! A schema as it was at a git revision (`dyno diff git:REV:PATH`, the
//! editor's comparison with `HEAD`): the same rule as `folder` — a folder
//! whose revision holds a `dyno.json` is one schema, every `*.dyno` under
//! it except sub-folders with their own marker — read with `git` from the
//! revision's tree, not from the disk.

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

/// Reads the schema of `path` (a file, or a folder with a `dyno.json`) at
/// `revision`, running git in `dir`; an error is why it cannot be read. `path` is as `git show REV:PATH` takes
/// it: from the repository's top, or from `dir` when it starts with `./`.
pub fn read_at(dir: &Path, revision: &str, path: &str) -> Result<AtRevision, String> {
    let spec = |p: &str| format!("{revision}:{p}");
    // The caller names the side (`git:REV:PATH`): the reason alone.
    let kind = git(dir, &["cat-file", "-t", &spec(path)])?;
    let root = match kind.trim() {
        "tree" if exists(dir, &spec(&join(path, MARKER))) => path.to_string(),
        "tree" => {
            return Err(format!(
                "`{}` is a folder without a `{MARKER}`: not a schema",
                spec(path)
            ));
        }
        _ => match marker_above(dir, revision, path) {
            Some(root) => root,
            None => {
                let text = show(dir, &spec(path))?;
                return Ok(AtRevision {
                    files: vec![(PathBuf::from(spec(path)), text)],
                    marker: None,
                    name: spec(path),
                });
            }
        },
    };
    let marker_path = join(&root, MARKER);
    let marker = folder::parse_marker(&show(dir, &spec(&marker_path))?, Path::new(&spec(&marker_path)))?;
    // `ls-tree` does not take every form `REV:PATH` has (`HEAD:.`): the
    // tree's id does.
    let listed = git(dir, &["rev-parse", &spec(&root)])
        .and_then(|tree| git(dir, &["ls-tree", "-r", "--full-tree", "--name-only", tree.trim()]))
        .map_err(|reason| format!("`{}` cannot be listed: {reason}", spec(&root)))?;
    let names: Vec<&str> = listed.lines().collect();
    // Sub-folders with a marker of their own are other schemas.
    let nested: Vec<String> = names
        .iter()
        .filter_map(|n| n.strip_suffix(&format!("/{MARKER}")).map(|dir| format!("{dir}/")))
        .collect();
    let mut members: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| n.ends_with(".dyno") && !nested.iter().any(|dir| n.starts_with(dir.as_str())))
        .collect();
    members.sort();
    let mut files = Vec::new();
    for name in members {
        let path = join(&root, name);
        files.push((PathBuf::from(spec(&path)), show(dir, &spec(&path))?));
    }
    Ok(AtRevision {
        files,
        marker: Some(marker),
        name: spec(&root),
    })
}

/// The nearest folder above the file `path` whose revision holds a marker.
fn marker_above(dir: &Path, revision: &str, path: &str) -> Option<String> {
    let mut at = Path::new(path).parent();
    while let Some(folder) = at {
        let folder = folder.to_str()?;
        if exists(dir, &format!("{revision}:{}", join(folder, MARKER))) {
            // `REV:.` is the top of the repository; `REV:./` is `dir`.
            return Some(if folder == "." { "./".into() } else { folder.to_string() });
        }
        if folder.is_empty() || folder == "." {
            return None;
        }
        at = Path::new(folder).parent();
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
