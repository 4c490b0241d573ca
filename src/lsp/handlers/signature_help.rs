//! `textDocument/signatureHelp`

use tower_lsp::lsp_types::{
    Documentation, MarkupContent, MarkupKind, ParameterInformation, ParameterLabel, SignatureHelp, SignatureHelpParams,
    SignatureInformation,
};

use crate::ide::signature::signature;
use crate::lsp::state::State;

pub fn handle(state: &State, params: SignatureHelpParams) -> Option<SignatureHelp> {
    let (snapshot, offset) = super::locate(state, &params.text_document_position_params)?;
    let found = signature(&snapshot.file, offset)?;
    // Parameter offsets count UTF-16 code units of the label.
    let units = |byte: usize| found.label[..byte].encode_utf16().count() as u32;
    let parameters = found
        .parameters
        .iter()
        .map(|span| ParameterInformation {
            label: ParameterLabel::LabelOffsets([units(span.start()), units(span.end())]),
            documentation: None,
        })
        .collect();
    let active = found.active as u32;
    Some(SignatureHelp {
        signatures: vec![SignatureInformation {
            label: found.label,
            documentation: Some(Documentation::MarkupContent(MarkupContent {
                kind: MarkupKind::Markdown,
                value: found.documentation,
            })),
            parameters: Some(parameters),
            active_parameter: Some(active),
        }],
        active_signature: Some(0),
        active_parameter: Some(active),
    })
}
