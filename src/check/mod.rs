//! The checker: semantics over the (possibly partial) syntax tree. It knows
//! nothing of editors or the protocol.

pub mod cost;
mod fxhash;
pub mod lang;
pub mod lints;
mod lower;
pub mod model;
pub mod resolve;
pub mod sample;
mod suggest;
pub mod value;

use crate::diagnostic::Diagnostic;
use crate::syntax::{self, Parse};

/// Everything known about one file: its syntax tree and every diagnostic.
/// The CLI prints it; editor features read it.
#[derive(Clone, Debug, Default)]
pub struct Analysis {
    pub parse: Parse,
    pub model: model::Model,
    pub registry: resolve::registry::Registry,
    /// Per pattern (in model order): its Query, when one was found.
    pub resolutions: Vec<Option<resolve::Resolution>>,
    /// Syntax and semantic diagnostics, in source order.
    pub diagnostics: Vec<Diagnostic>,
}

pub fn analyze(text: &str) -> Analysis {
    analyze_with(text, |_| {})
}

/// [`analyze`], handing the parse to `parsed` as soon as it exists: the
/// syntax errors of a large file can be shown before the semantic passes,
/// which take longer, have finished.
pub fn analyze_with(text: &str, parsed: impl FnOnce(&Parse)) -> Analysis {
    let parse = syntax::parse(text);
    parsed(&parse);
    let mut diagnostics = parse.diagnostics.clone();
    let model = lower::lower(&parse.file, &mut diagnostics);
    let registry = resolve::registry::Registry::new(&model);
    let resolutions = resolve::resolve_all(text, &model, &registry, &mut diagnostics);
    lints::lint(&model, &registry, &resolutions, &mut diagnostics);
    diagnostics.sort_by_key(|d| (d.span.start, d.span.end));
    Analysis {
        parse,
        model,
        registry,
        resolutions,
        diagnostics,
    }
}
