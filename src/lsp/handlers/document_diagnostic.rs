//! `textDocument/diagnostic`: the pull model. The result id is the
//! document version with a hash of its text (and of the settings that
//! change the report); a client sending it back as `previousResultId`
//! gets `unchanged`, and the document is not analysed for it.

use tower_lsp::lsp_types::{
    Diagnostic, DocumentDiagnosticParams, DocumentDiagnosticReport, DocumentDiagnosticReportResult,
    FullDocumentDiagnosticReport, RelatedFullDocumentDiagnosticReport, RelatedUnchangedDocumentDiagnosticReport,
    UnchangedDocumentDiagnosticReport, Url,
};

use crate::lsp::state::State;

/// One document's pull.
pub enum Pulled {
    Unchanged { result_id: String },
    Full { result_id: String, items: Vec<Diagnostic> },
}

/// The report of an open document at its current version (returned with
/// it), or `None` when it is not open.
pub fn pull(state: &State, uri: &Url, previous: Option<&str>) -> Option<(i32, Pulled)> {
    let (rope, version, revision) = state.documents.text(uri)?;
    let result_id = super::diagnostics::result_id(state, &rope, version, revision);
    if previous == Some(result_id.as_str()) {
        return Some((version, Pulled::Unchanged { result_id }));
    }
    let snapshot = state.snapshot(uri)?;
    let items = super::diagnostics::all(state, &snapshot);
    Some((version, Pulled::Full { result_id, items }))
}

pub fn handle(state: &State, params: DocumentDiagnosticParams) -> DocumentDiagnosticReportResult {
    let pulled = pull(state, &params.text_document.uri, params.previous_result_id.as_deref());
    let report = match pulled {
        Some((_, Pulled::Unchanged { result_id })) => {
            DocumentDiagnosticReport::Unchanged(RelatedUnchangedDocumentDiagnosticReport {
                related_documents: None,
                unchanged_document_diagnostic_report: UnchangedDocumentDiagnosticReport { result_id },
            })
        }
        Some((_, Pulled::Full { result_id, items })) => full(Some(result_id), items),
        // Not an open document: nothing to report.
        None => full(None, Vec::new()),
    };
    DocumentDiagnosticReportResult::Report(report)
}

fn full(result_id: Option<String>, items: Vec<Diagnostic>) -> DocumentDiagnosticReport {
    DocumentDiagnosticReport::Full(RelatedFullDocumentDiagnosticReport {
        related_documents: None,
        full_document_diagnostic_report: FullDocumentDiagnosticReport { result_id, items },
    })
}
