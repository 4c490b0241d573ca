//! The checker: semantics over the (possibly partial) syntax tree. It knows
//! nothing of editors or the protocol.

pub mod cost;
/// The checker's maps are keyed by short schema names: SipHash's defence
/// against chosen collisions buys nothing there, FxHash is faster.
mod fxhash {
    pub use rustc_hash::{FxHashMap, FxHashSet};
}
pub mod lang;
pub mod lints;
mod lower;
pub mod model;
mod parallel;
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
    analyze_on(text, parsed, |model| {
        parallel::worth_it(model.patterns.len() + model.entities.len())
    })
}

/// The analysis on this thread alone (to try out a fix from inside one).
pub(crate) fn analyze_single_threaded(text: &str) -> Analysis {
    analyze_on(text, |_| {}, |_| 1)
}

/// The analysis, on as many threads as `threads` says for the model.
fn analyze_on(text: &str, parsed: impl FnOnce(&Parse), threads: impl FnOnce(&model::Model) -> usize) -> Analysis {
    resolve::new_analysis();
    let parse = syntax::parse(text);
    parsed(&parse);
    let mut diagnostics = parse.diagnostics.clone();
    let model = lower::lower(&parse.file, &mut diagnostics);
    let registry = resolve::registry::Registry::new(&model);
    let threads = threads(&model);
    // The model lints run while the patterns resolve.
    let (resolutions, findings) = parallel::join(
        threads,
        || resolve::resolve_all(text, &model, &registry, threads, &mut diagnostics),
        || lints::model_lints(&model, &registry),
    );
    lints::lint_with(&model, &resolutions, findings, &mut diagnostics);
    diagnostics.sort_by_key(|d| (d.span.start, d.span.end));
    Analysis {
        parse,
        model,
        registry,
        resolutions,
        diagnostics,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_do_not_change_the_analysis() {
        // Large enough for the parallel path, with hazards planted.
        let config = crate::synth::Config::for_lines(15_000, 3);
        let text = crate::synth::generate(&config).dyno;
        let one = analyze_on(&text, |_| {}, |_| 1);
        assert!(one.diagnostics.iter().any(|d| !d.code.is_syntax()));
        for threads in [2, 3] {
            let many = analyze_on(&text, |_| {}, |_| threads);
            assert_eq!(many.diagnostics, one.diagnostics, "{threads} threads");
            assert_eq!(format!("{:?}", many.resolutions), format!("{:?}", one.resolutions));
        }
    }
}
