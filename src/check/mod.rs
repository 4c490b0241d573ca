//! The checker: semantics over the (possibly partial) syntax tree. It knows
//! nothing of editors or the protocol.


use crate::diagnostic::Diagnostic;
use crate::syntax::{self, Parse};

/// Everything known about one file: its syntax tree and every diagnostic.
/// The CLI prints it; editor features read it.
#[derive(Clone, Debug, Default)]
pub struct Analysis {
    pub parse: Parse,
    /// Syntax and semantic diagnostics, in source order.
    pub diagnostics: Vec<Diagnostic>,
}

pub fn analyze(text: &str) -> Analysis {
    let parse = syntax::parse(text);
    let diagnostics = parse.diagnostics.clone();
    Analysis { parse, diagnostics }
}
