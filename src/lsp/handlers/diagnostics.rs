//! `textDocument/publishDiagnostics`: every diagnostic of the analysis,
//! with its code, severity, related locations and tags.

use tower_lsp::lsp_types::{
    Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, DiagnosticTag, Location, NumberOrString,
};

use crate::diagnostic::{self, Severity};
use ropey::Rope;
use tower_lsp::lsp_types::Url;

use crate::lsp::documents::Snapshot;
use crate::lsp::position::{self, Encoding};

/// More than this many diagnostics in one file helps nobody and slows the
/// editor; the first ones (in source order) are kept.
pub const MAX_PER_FILE: usize = 500;

pub fn to_lsp(snapshot: &Snapshot, encoding: Encoding) -> Vec<Diagnostic> {
    snapshot
        .file
        .analysis
        .diagnostics
        .iter()
        .take(MAX_PER_FILE)
        .map(|d| convert(&snapshot.uri, &snapshot.rope, d, encoding))
        .collect()
}

/// One diagnostic as the protocol has it.
/// The parser's diagnostics alone: what is published first when the full
/// analysis of a large file takes a while.
pub fn syntax_only(uri: &Url, rope: &Rope, encoding: Encoding) -> Vec<Diagnostic> {
    let text = rope.to_string();
    crate::syntax::parse(&text)
        .diagnostics
        .iter()
        .take(MAX_PER_FILE)
        .map(|d| convert(uri, rope, d, encoding))
        .collect()
}

pub fn convert(uri: &Url, rope: &Rope, d: &diagnostic::Diagnostic, encoding: Encoding) -> Diagnostic {
    let range = |span| position::range(rope, span, encoding);
    let mut message = d.message.clone();
    if let Some(help) = &d.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    let related = d
        .related
        .iter()
        .map(|r| DiagnosticRelatedInformation {
            location: Location::new(uri.clone(), range(r.span)),
            message: r.message.clone(),
        })
        .collect::<Vec<_>>();
    Diagnostic {
        range: range(d.span),
        severity: Some(match d.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Hint => DiagnosticSeverity::HINT,
        }),
        code: Some(NumberOrString::String(d.code.as_str().to_string())),
        source: Some("dyno".into()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        // Hints report what nothing uses: editors grey it out.
        tags: (d.severity == Severity::Hint).then(|| vec![DiagnosticTag::UNNECESSARY]),
        ..Diagnostic::default()
    }
}
