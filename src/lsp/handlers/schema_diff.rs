//! The open schema against its version at git `HEAD` (setting
//! `diffAgainstHead`, off by default): the breaking changes of
//! `dyno diff` as warnings on the changed lines, the migration in the
//! hover. The comparison is `ide::schema_diff`'s; this reads `HEAD`.

use std::sync::Arc;

use tower_lsp::lsp_types::{Diagnostic, DiagnosticSeverity, NumberOrString};

use crate::db::{Workspace, git};
use crate::ide::schema_diff::{self, Earlier, Warning};
use crate::lsp::documents::Snapshot;
use crate::lsp::position::{self, Encoding};
use crate::lsp::state::{Head, State};

/// The warnings of the open document; none when the setting is off, the
/// document is not a file in a git repository, or it is new since `HEAD`.
/// A document of a schema folder is compared as the folder: its files at
/// `HEAD` against its files now.
pub fn warnings(state: &State, snapshot: &Snapshot) -> Vec<Warning> {
    if !state.diff_against_head() {
        return Vec::new();
    }
    let Some(head) = head(state, snapshot) else {
        return Vec::new();
    };
    let earlier_texts: Vec<&str> = head.texts.iter().map(String::as_str).collect();
    let earlier = Earlier {
        texts: &earlier_texts,
        analysis: &head.analysis,
        label: "HEAD",
    };
    // The schema's files now, by their ids in the workspace.
    let (views, _) = snapshot.schema_files();
    let last = views.iter().map(|v| v.analysis.file.index()).max().unwrap_or(0);
    let mut texts = vec![""; last + 1];
    for view in &views {
        texts[view.analysis.file.index()] = &view.text;
    }
    schema_diff::warnings(&earlier, &texts, &snapshot.file)
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

/// The schema at `HEAD` (the document's file, or its folder), checked;
/// analysed again only when a text there changed (a commit), read with git
/// each time (a few milliseconds a process).
fn head(state: &State, snapshot: &Snapshot) -> Option<Arc<Head>> {
    let path = snapshot.uri.to_file_path().ok()?;
    let (dir, spec) = match &snapshot.root {
        Some(root) => (root.clone(), "./".to_string()),
        None => (
            path.parent()?.to_path_buf(),
            format!("./{}", path.file_name()?.to_str()?),
        ),
    };
    // One git process while `HEAD` keeps the same tree (or blob) there;
    // the files are read again only after a commit changed it.
    let id = git::object_id(&dir, "HEAD", &spec)?;
    let key = dir.join(&spec);
    if let Some(head) = lock(state)
        .get(&key)
        .filter(|h| h.id == id && h.defaults == snapshot.defaults)
    {
        return Some(head.clone());
    }
    let read = git::read_at(&dir, "HEAD", &spec).ok()?;
    let texts: Vec<String> = read.files.into_iter().map(|(_, text)| text).collect();
    // The same defaults as the schema now: a cost is not what is compared.
    let defaults = snapshot.defaults;
    let (workspace, files) = Workspace::of_files(texts.iter().enumerate().map(|(i, t)| (i.to_string(), t.as_str())));
    let analysis = workspace.analysis_with(*files.first()?, &files, &defaults);
    let head = Arc::new(Head {
        id,
        defaults: snapshot.defaults,
        texts,
        analysis,
    });
    lock(state).insert(key, head.clone());
    Some(head)
}

fn lock(state: &State) -> std::sync::MutexGuard<'_, std::collections::HashMap<std::path::PathBuf, Arc<Head>>> {
    state.heads.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
