//! `workspace/diagnostic`: a report for every open document (`unchanged`
//! where the client's previous result id still holds). Files on disk that
//! are not open are not analysed for it.

use tower_lsp::lsp_types::{
    FullDocumentDiagnosticReport, UnchangedDocumentDiagnosticReport, WorkspaceDiagnosticParams,
    WorkspaceDiagnosticReport, WorkspaceDiagnosticReportResult, WorkspaceDocumentDiagnosticReport,
    WorkspaceFullDocumentDiagnosticReport, WorkspaceUnchangedDocumentDiagnosticReport,
};

use super::document_diagnostic::{Pulled, pull};
use crate::lsp::state::State;

pub fn handle(state: &State, params: WorkspaceDiagnosticParams) -> WorkspaceDiagnosticReportResult {
    let mut uris = state.documents.uris();
    uris.sort();
    let items = uris
        .into_iter()
        .filter_map(|uri| {
            let previous = params
                .previous_result_ids
                .iter()
                .find(|p| p.uri == uri)
                .map(|p| p.value.as_str());
            let (version, pulled) = pull(state, &uri, previous)?;
            let version = Some(i64::from(version));
            Some(match pulled {
                Pulled::Unchanged { result_id } => {
                    WorkspaceDocumentDiagnosticReport::Unchanged(WorkspaceUnchangedDocumentDiagnosticReport {
                        uri,
                        version,
                        unchanged_document_diagnostic_report: UnchangedDocumentDiagnosticReport { result_id },
                    })
                }
                Pulled::Full { result_id, items } => {
                    WorkspaceDocumentDiagnosticReport::Full(WorkspaceFullDocumentDiagnosticReport {
                        uri,
                        version,
                        full_document_diagnostic_report: FullDocumentDiagnosticReport {
                            result_id: Some(result_id),
                            items,
                        },
                    })
                }
            })
        })
        .collect();
    WorkspaceDiagnosticReportResult::Report(WorkspaceDiagnosticReport { items })
}
