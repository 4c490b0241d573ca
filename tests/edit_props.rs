//! Property tests of the language server's document store and of the
//! analysis it caches (issue 6):
//!
//! - random edit sequences (UTF-8 and UTF-16 positions, CRLF and lone `\r`,
//!   astral characters, positions out of range) give the same text in the
//!   store as in a `String` edited by an independent reading of positions,
//!   and every position round-trips (the fuzz target `edits`);
//! - the analysis of a document after incremental edits — with analyses
//!   cached at some revisions on the way — equals a fresh analysis of the
//!   final text;
//! - the formatter is idempotent on the benchmark's generated schemas.

use dyno::lsp::documents::Documents;
use dyno::lsp::position::{self, Encoding};
use proptest::prelude::*;
use tower_lsp::lsp_types::{Range, TextDocumentContentChangeEvent, Url};

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn store_edits_equal_string_edits(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        dyno::fuzz::edits(&bytes);
    }
}

/// One edit: where (a fraction of the text), how much to delete, what to type.
#[derive(Clone, Debug)]
struct Edit {
    at: f64,
    delete: usize,
    insert: String,
    /// Take a snapshot (and so cache an analysis) after this edit.
    snapshot: bool,
}

fn edit() -> impl Strategy<Value = Edit> {
    let insert = prop_oneof![
        Just(String::new()),
        "[a-z]{1,3}",
        Just("\n".to_string()),
        Just("\r\n".to_string()),
        Just("{".to_string()),
        Just("}".to_string()),
        Just("\"".to_string()),
        Just("#".to_string()),
        Just("é🎉".to_string()),
        Just("pattern p(x) -> A\n".to_string()),
    ];
    (0.0..=1.0f64, 0usize..4, insert, any::<bool>()).prop_map(|(at, delete, insert, snapshot)| Edit {
        at,
        delete,
        insert,
        snapshot,
    })
}

fn schema() -> String {
    dyno::synth::generate(&dyno::synth::Config::for_lines(200, 7)).dyno
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn analysis_after_edits_equals_a_fresh_analysis(
        edits in proptest::collection::vec(edit(), 1..12),
        utf8 in any::<bool>(),
    ) {
        let encoding = if utf8 { Encoding::Utf8 } else { Encoding::Utf16 };
        let documents = Documents::default();
        let uri = Url::parse("file:///props.dyno").unwrap();
        let mut text = schema();
        documents.open(uri.clone(), &text, 0);
        documents.snapshot(&uri);
        for (version, edit) in (1..).zip(&edits) {
            // A character boundary near the chosen place, and a few
            // characters after it.
            let mut start = ((text.len() as f64) * edit.at) as usize;
            while !text.is_char_boundary(start) {
                start -= 1;
            }
            let end = text[start..].char_indices().nth(edit.delete).map_or(text.len(), |(i, _)| start + i);
            let rope = ropey::Rope::from_str(&text);
            let range = position::range(&rope, dyno::syntax::Span::new(start, end), encoding);
            // A range that starts between `\r` and `\n` maps to the `\r`.
            let start = position::offset(&rope, range.start, encoding).unwrap();
            let end = position::offset(&rope, range.end, encoding).unwrap().max(start);
            text.replace_range(start..end, &edit.insert);
            let change = TextDocumentContentChangeEvent {
                range: Some(Range::new(range.start, range.end)),
                range_length: None,
                text: edit.insert.clone(),
            };
            documents.change(&uri, version, &[change], encoding).unwrap();
            if edit.snapshot {
                let snapshot = documents.snapshot(&uri).unwrap();
                prop_assert_eq!(&*snapshot.file.text, text.as_str());
            }
        }
        let snapshot = documents.snapshot(&uri).unwrap();
        prop_assert_eq!(&*snapshot.file.text, text.as_str());
        let fresh = dyno::check::analyze(&text);
        prop_assert_eq!(snapshot.file.analysis.diagnostics(), fresh.diagnostics());
        prop_assert_eq!(
            format!("{:?}", snapshot.file.analysis.schema.resolutions),
            format!("{:?}", fresh.schema.resolutions)
        );
    }
}

#[test]
fn formatting_generated_schemas_is_idempotent() {
    for (lines, seed) in [(300, 1), (2000, 2), (2000, 3)] {
        let text = dyno::synth::generate(&dyno::synth::Config::for_lines(lines, seed)).dyno;
        let once = dyno::ide::format::format(&text).expect("a generated schema has no syntax error");
        assert_eq!(
            dyno::ide::format::kept_tokens(&text),
            dyno::ide::format::kept_tokens(&once)
        );
        let twice = dyno::ide::format::format(&once).expect("formatted text formats again");
        assert_eq!(once, twice, "{lines} lines, seed {seed}");
    }
}
