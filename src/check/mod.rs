//! The checker: semantics over the (possibly partial) syntax tree. It knows
//! nothing of editors or the protocol.

pub mod cost;
pub mod defaults;
pub mod describe;
pub mod filter;
pub mod incremental;
/// The checker's maps are keyed by short schema names: SipHash's defence
/// against chosen collisions buys nothing there, FxHash is faster.
mod fxhash {
    pub use rustc_hash::{FxHashMap, FxHashSet};
}
pub mod lang;
pub mod lints;
mod lower;
pub mod model;
pub mod reads;
pub mod resolve;
pub mod sample;
pub mod shard;
mod suggest;
pub mod value;

use std::sync::Arc;

use crate::diagnostic::Diagnostic;
use crate::parallel;
use crate::syntax::{self, FileId, Parse};
pub use defaults::Defaults;

/// One file of a schema as the checker reads it: its text (for fixes that
/// add lines indented like their neighbours) and its syntax tree.
#[derive(Clone, Copy)]
pub struct Source<'a> {
    pub file: FileId,
    pub text: &'a str,
    pub parse: &'a Parse,
}

/// The text of `file` among `sources` (empty for a file not among them).
pub fn text_of<'a>(sources: &[Source<'a>], file: FileId) -> &'a str {
    sources.iter().find(|s| s.file == file).map_or("", |s| s.text)
}

/// Everything known about one schema, which may span several files: the
/// merged model, each pattern's Query and every diagnostic of its files.
#[derive(Clone, Debug, Default)]
pub struct Schema {
    pub model: model::Model,
    pub registry: resolve::registry::Registry,
    /// Per pattern (in model order): its Query, when one was found.
    pub resolutions: Vec<Option<resolve::Resolution>>,
    /// Syntax and semantic diagnostics, by file and then in source order.
    pub diagnostics: Vec<Diagnostic>,
    /// Per pattern: when resolving it reported nothing, what it read of the
    /// entities, which lets a later check reuse its Query (`incremental`).
    pub reads: reads::ReadsTable,
    /// What the model lints found, per table: a later check keeps a
    /// table's when the edit did not touch it (`incremental`).
    findings: lints::ModelFindings,
    /// Per pattern, the holes its Query relies on for an order they do not
    /// have: a later check keeps a pattern's with its Query.
    orders: Vec<Vec<lints::Dependent>>,
}

impl Schema {
    /// The diagnostics in `file`, in source order.
    pub fn diagnostics_in(&self, file: FileId) -> &[Diagnostic] {
        let start = self.diagnostics.partition_point(|d| d.file < file);
        let end = self.diagnostics.partition_point(|d| d.file <= file);
        &self.diagnostics[start..end]
    }

    /// The pattern's Query, when one was found.
    pub fn resolution(&self, pattern: model::PatternId) -> Option<&resolve::Resolution> {
        self.resolutions.get(pattern.index())?.as_ref()
    }
}

/// One file and the schema it belongs to: what the CLI prints for a file
/// and what editor features read.
#[derive(Clone, Debug, Default)]
pub struct Analysis {
    pub file: FileId,
    pub parse: Arc<Parse>,
    pub schema: Arc<Schema>,
}

impl Analysis {
    /// This file's syntax and semantic diagnostics, in source order.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        self.schema.diagnostics_in(self.file)
    }

    /// This file as the checker reads it, given its `text`.
    pub fn source<'a>(&'a self, text: &'a str) -> Source<'a> {
        Source {
            file: self.file,
            text,
            parse: &self.parse,
        }
    }
}

/// A text on its own: a schema of one file.
pub fn analyze(text: &str) -> Analysis {
    analyze_with(text, |_| {})
}

/// [`analyze`], handing the parse to `parsed` as soon as it exists: the
/// syntax errors of a large file can be shown before the semantic passes,
/// which take longer, have finished.
pub fn analyze_with(text: &str, parsed: impl FnOnce(&Parse)) -> Analysis {
    let file = FileId::default();
    let parse = Arc::new(syntax::parse_in(file, text));
    parsed(&parse);
    let schema = check(&[Source {
        file,
        text,
        parse: &parse,
    }]);
    Analysis {
        file,
        parse,
        schema: Arc::new(schema),
    }
}

/// Checks the schema made of `sources`, on as many threads as its size
/// makes worth it.
pub fn check(sources: &[Source<'_>]) -> Schema {
    check_with(sources, &Defaults::default())
}

/// [`check`], with the cost model's `defaults` where the schema gives no
/// hint (an editor setting, a folder's `dyno.json`).
pub fn check_with(sources: &[Source<'_>], defaults: &Defaults) -> Schema {
    check_on(sources, defaults, None, threads_for)
}

/// [`check_with`] after an edit: the patterns the edit cannot have changed
/// keep the Query of the `earlier` check, which was made with the same
/// `defaults`. Equal to a fresh check. What it took out of an owned
/// `earlier` stays there, for the caller to free off its path.
pub fn check_after(sources: &[Source<'_>], defaults: &Defaults, earlier: &mut incremental::Earlier<'_>) -> Schema {
    check_on(sources, defaults, Some(earlier), threads_for)
}

fn threads_for(model: &model::Model) -> usize {
    parallel::worth_it(model.patterns.len() + model.entities.len())
}

/// The check on this thread alone (to try out a fix from inside one).
pub(crate) fn check_single_threaded(sources: &[Source<'_>], defaults: &Defaults) -> Schema {
    check_on(sources, defaults, None, |_| 1)
}

/// The check, on as many threads as `threads` says for the model.
fn check_on(
    sources: &[Source<'_>],
    defaults: &Defaults,
    earlier: Option<&mut incremental::Earlier<'_>>,
    threads: impl FnOnce(&model::Model) -> usize,
) -> Schema {
    let lowered = lower_model(sources, defaults, earlier);
    resolve_and_lint(sources, lowered, threads)
}

/// A first check that lets go of the files' syntax trees once the model is
/// lowered from them, when nothing after needs them: a third of a large
/// check's peak memory. Trying out fixes (small schemas) re-reads the
/// trees, which are then kept. A tree is freed only where `files` hold the
/// last reference to it. For commands that check once and show the
/// diagnostics.
pub fn check_letting_go_of_trees(mut files: Vec<(FileId, Arc<str>, Arc<Parse>)>, defaults: &Defaults) -> Schema {
    let lowered = lower_model(&as_sources(&files), defaults, None);
    if !resolve::tries_fixes(&as_sources(&files)) {
        for (_, _, parse) in &mut files {
            *parse = Arc::default();
        }
    }
    resolve_and_lint(&as_sources(&files), lowered, threads_for)
}

fn as_sources(files: &[(FileId, Arc<str>, Arc<Parse>)]) -> Vec<Source<'_>> {
    files
        .iter()
        .map(|(file, text, parse)| Source {
            file: *file,
            text,
            parse,
        })
        .collect()
}

/// What a check holds once its model is lowered: nothing after that reads
/// the syntax trees but trying out fixes.
struct Lowered {
    model: model::Model,
    /// `None` for a first check: built from the model after the trees are
    /// let go of, as it is no small part of the peak (5.8 MB at 10 MB).
    registry: Option<resolve::registry::Registry>,
    reused: resolve::Reused,
    earlier_reads: reads::ReadsTable,
    kept_findings: Vec<Option<lints::TableFindings>>,
    kept_orders: Vec<Option<Vec<lints::Dependent>>>,
    /// The syntax errors and what lowering reported.
    diagnostics: Vec<Diagnostic>,
}

fn lower_model(sources: &[Source<'_>], defaults: &Defaults, earlier: Option<&mut incremental::Earlier<'_>>) -> Lowered {
    resolve::new_analysis();
    let mut diagnostics: Vec<Diagnostic> = sources
        .iter()
        .flat_map(|s| s.parse.diagnostics.iter().cloned())
        .collect();
    let trees: Vec<_> = sources.iter().map(|s| (s.file, &s.parse.file)).collect();
    // After an edit: what it left as it was, worked out before lowering so
    // that the entities it did not touch are kept rather than lowered again.
    let places = lower::places(&trees);
    let mut earlier = earlier.and_then(|earlier| {
        let plan = incremental::Plan::new(earlier, sources, &places)?;
        Some((earlier, plan))
    });
    let mut lowered = Vec::new();
    let mut model = match &mut earlier {
        Some((earlier, plan)) => {
            let mut keeping = incremental::Keeping::new(plan, earlier);
            let model = lower::lower_reusing(&trees, &places, &mut diagnostics, &mut keeping);
            lowered = keeping.kept_patterns();
            model
        }
        None => lower::lower_reusing(&trees, &places, &mut diagnostics, &mut lower::LowerAll),
    };
    model.defaults = *defaults;
    let (registry, (reused, earlier_reads), kept_findings, kept_orders) = match earlier {
        Some((earlier, plan)) => {
            let rebuilt = incremental::tables_rebuilt(&plan, &model);
            let reused = incremental::reusable(earlier, &plan, &lowered, &model);
            let kept: Vec<bool> = reused.was.iter().map(Option::is_some).collect();
            (
                Some(incremental::registry(earlier, &plan, &rebuilt, &model)),
                (reused, std::mem::take(&mut earlier.reads).into_owned()),
                incremental::findings(earlier, &plan, &rebuilt),
                incremental::orders(earlier, &plan, &kept),
            )
        }
        None => (
            None,
            (
                resolve::Reused::none(model.patterns.len()),
                reads::ReadsTable::default(),
            ),
            Vec::new(),
            Vec::new(),
        ),
    };
    Lowered {
        model,
        registry,
        reused,
        earlier_reads,
        kept_findings,
        kept_orders,
        diagnostics,
    }
}

fn resolve_and_lint(sources: &[Source<'_>], lowered: Lowered, threads: impl FnOnce(&model::Model) -> usize) -> Schema {
    let Lowered {
        model,
        registry,
        reused,
        earlier_reads,
        kept_findings,
        kept_orders,
        mut diagnostics,
    } = lowered;
    let registry = registry.unwrap_or_else(|| resolve::registry::Registry::new(&model));
    // Where fixes are tried out, their budget is per thread: one thread.
    let threads = if resolve::tries_fixes(sources) {
        1
    } else {
        threads(&model)
    };
    // The model lints run while the patterns resolve.
    let ((resolutions, reads), findings) = parallel::join(
        threads,
        || {
            resolve::resolve_all(
                sources,
                &model,
                &registry,
                reused,
                earlier_reads,
                threads,
                &mut diagnostics,
            )
        },
        || lints::model_lints(&model, &registry, threads, kept_findings),
    );
    let orders = lints::orders(&model, &resolutions, kept_orders);
    lints::lint_with(&model, &registry, &resolutions, &findings, &orders, &mut diagnostics);
    diagnostics.sort_by_key(|d| (d.file, d.span.start(), d.span.end()));
    Schema {
        model,
        registry,
        resolutions,
        diagnostics,
        reads,
        findings,
        orders,
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
        let parse = syntax::parse(&text);
        let sources = [Source {
            file: FileId::default(),
            text: &text,
            parse: &parse,
        }];
        let one = check_on(&sources, &Defaults::default(), None, |_| 1);
        assert!(one.diagnostics.iter().any(|d| !d.code.is_syntax()));
        for threads in [2, 3] {
            let many = check_on(&sources, &Defaults::default(), None, |_| threads);
            assert_eq!(many.diagnostics, one.diagnostics, "{threads} threads");
            assert_eq!(format!("{:?}", many.resolutions), format!("{:?}", one.resolutions));
        }
    }
}
