//! H301 / H302: entities no pattern returns and indexes no pattern uses.
//! Design is access-pattern-first: an entity nothing reads is either a
//! missing pattern or dead data, and an index no Query uses still costs a
//! write for every item that has its keys.

use crate::check::model::Model;
use crate::check::resolve::Resolution;
use crate::diagnostic::{Code, Diagnostic};

pub fn unused_entities(model: &Model, diagnostics: &mut Vec<Diagnostic>) {
    let mut returned = vec![false; model.entities.len()];
    for r in model.patterns.iter().flat_map(|p| &p.returns) {
        if let Some(e) = r.entity {
            returned[e.index()] = true;
        }
    }
    for (entity, _) in model.entities.iter().zip(&returned).filter(|(_, r)| !**r) {
        diagnostics.push(
            Diagnostic::new(
                Code::UnusedEntity,
                entity.at(entity.name.span),
                format!("no pattern returns `{}`", entity.name.text),
            )
            .with_help(format!(
                "add the access pattern that reads it (`pattern get{0}(...) -> {0}`), or remove the entity",
                entity.name.text
            )),
        );
    }
}

pub fn unused_indexes(model: &Model, resolutions: &[Option<Resolution>], diagnostics: &mut Vec<Diagnostic>) {
    let mut used: Vec<Vec<bool>> = model.tables.iter().map(|t| vec![false; t.access.len()]).collect();
    for r in resolutions.iter().flatten() {
        used[r.table.index()][r.access.index()] = true;
    }
    // A pinned query names its index even when it fails to verify: that
    // error is the one to fix, not the index.
    for query in model.patterns.iter().filter_map(|p| p.query.as_ref()) {
        let Some(index) = &query.index else { continue };
        if let Some(t) = model.table_named(&query.table.text)
            && let Some(a) = model.table(t).index_id(&index.text)
        {
            used[t.index()][a.index()] = true;
        }
    }
    for (table, used) in model.tables.iter().zip(&used) {
        for (access, _) in table.access.iter().zip(used).filter(|(a, u)| a.is_index() && !**u) {
            diagnostics.push(
                Diagnostic::new(
                    Code::UnusedIndex,
                    table.at(access.name.span),
                    format!("no pattern uses index `{}`", access.name.text),
                )
                .with_help(
                    "an index costs a write for every item that has its keys: add the pattern it is for, or remove it",
                ),
            );
        }
    }
}
