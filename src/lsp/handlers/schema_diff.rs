//! The open schema against its version at git `HEAD` (setting
//! `diffAgainstHead`, off by default): the breaking changes of
//! `dyno diff` as warnings on the changed lines, the migration in the
//! hover. The comparison is `ide::schema_diff`'s; this reads `HEAD`.

use std::path::Path;
use std::process::Command;
use std::sync::Arc;

use tower_lsp::lsp_types::{Diagnostic, DiagnosticSeverity, NumberOrString};

use crate::ide::schema_diff::{self, Earlier, Warning};
use crate::lsp::documents::Snapshot;
use crate::lsp::position::{self, Encoding};
use crate::lsp::state::{Head, State};

/// The warnings of the open document; none when the setting is off, the
/// document is not a file in a git repository, or it is new since `HEAD`.
pub fn warnings(state: &State, snapshot: &Snapshot) -> Vec<Warning> {
    if !state.diff_against_head() {
        return Vec::new();
    }
    let Some(head) = snapshot.uri.to_file_path().ok().and_then(|path| head(state, &path)) else {
        return Vec::new();
    };
    let earlier = Earlier {
        text: &head.text,
        analysis: &head.analysis,
        label: "HEAD",
    };
    schema_diff::warnings(&earlier, &snapshot.file)
}

pub fn to_lsp(state: &State, snapshot: &Snapshot, encoding: Encoding) -> Vec<Diagnostic> {
    warnings(state, snapshot)
        .into_iter()
        .map(|w| Diagnostic {
            range: position::range(&snapshot.rope, w.span, encoding),
            severity: Some(DiagnosticSeverity::WARNING),
            code: Some(NumberOrString::String(format!("diff:{}", w.class.name()))),
            source: Some("dyno diff".into()),
            message: w.message,
            ..Diagnostic::default()
        })
        .collect()
}

/// The file at `HEAD`, checked; analysed again only when its text there
/// changed (a commit), read with `git show` each time (a few milliseconds).
fn head(state: &State, path: &Path) -> Option<Arc<Head>> {
    let dir = path.parent()?;
    let name = path.file_name()?.to_str()?;
    let output = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["show", &format!("HEAD:./{name}")])
        .output()
        .ok()?;
    if !output.status.success() {
        return None;
    }
    let text = String::from_utf8(output.stdout).ok()?;
    let mut heads = state.heads.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(head) = heads.get(path).filter(|h| h.text == text) {
        return Some(head.clone());
    }
    let analysis = crate::check::analyze(&text);
    let head = Arc::new(Head { text, analysis });
    heads.insert(path.to_path_buf(), head.clone());
    Some(head)
}
