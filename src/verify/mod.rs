//! `dyno verify`: the checker's claim — each pattern is one Query that
//! returns exactly its entities — proved against a DynamoDB endpoint. It
//! creates the schema's tables under a unique prefix, writes the samples of
//! `dyno sample`, runs every pattern's Query with parameters taken from the
//! samples, checks what came back, and deletes the tables.
//!
//! Only the run against an endpoint (`run`, `dynamo`, `reads`: the AWS SDK)
//! is behind the cargo feature `verify`. What needs no endpoint — the plan
//! of each pattern (its Query with parameters from the samples, the items
//! its key condition selects), the judge of what came back, the filter's
//! evaluation — is in the lean build, for `dyno view`, which highlights
//! the items a pattern reads with this same matching.

#[cfg(feature = "verify")]
pub mod dynamo;
pub mod filtered;
pub mod judge;
pub mod pages;
pub mod plan;
#[cfg(feature = "verify")]
mod reads;
#[cfg(feature = "verify")]
mod run;
#[cfg(test)]
mod simulate;

use crate::check::Analysis;
use crate::check::model::PatternId;
use crate::check::resolve::{Resolution, pinned_as_written};
use crate::check::sample::Samples;
use plan::Plan;
#[cfg(feature = "verify")]
pub use run::{Options, PatternReport, Report, Status, TableReport, unique_prefix, verify};

/// The Query verify runs for a pattern: the checker's resolution (`true`),
/// or a pinned query as written when the checker rejects it (`false`);
/// `Err` says why there is none. `texts` are the schema's files' texts,
/// by `FileId` (one for a schema of one file).
pub fn resolution(texts: &[&str], analysis: &Analysis, pattern: PatternId) -> Result<(Resolution, bool), String> {
    let model = &analysis.schema.model;
    if let Some(r) = analysis.schema.resolution(pattern) {
        return Ok((r.clone(), true));
    }
    let written = model.pattern(pattern);
    // The pinned query is read again from its own file's text.
    let file = written.file;
    let text = texts.get(file.index()).copied().unwrap_or_default();
    let parsed;
    let source = if file == analysis.file {
        analysis.source(text)
    } else {
        parsed = crate::syntax::parse_in(file, text);
        crate::check::Source {
            file,
            text,
            parse: &parsed,
        }
    };
    match pinned_as_written(&[source], model, &analysis.schema.registry, written) {
        Some(r) => Ok((r, false)),
        None if written.query.is_some() => Err("the pinned query is not a valid Query (see `dyno check`)".into()),
        None => Err("no single Query serves it (see `dyno check`)".into()),
    }
}

/// What verify runs for each pattern: the plan of its [`resolution`].
pub fn plans(texts: &[&str], analysis: &Analysis, samples: &Samples) -> Vec<Result<Plan, String>> {
    let model = &analysis.schema.model;
    model
        .pattern_ids()
        .map(|(i, _)| {
            let (resolution, checker_ok) = resolution(texts, analysis, i)?;
            Ok(plan::plan(model, samples, i, &resolution, checker_ok))
        })
        .collect()
}
