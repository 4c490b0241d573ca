//! `textDocument/publishDiagnostics`: every diagnostic of the analysis,
//! with its code, severity, related locations and tags.

use tower_lsp::lsp_types::{
    Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, DiagnosticTag, Location, NumberOrString,
};

use crate::diagnostic::{self, Related, Severity};
use crate::slices;
#[cfg(test)]
use crate::syntax::FileId;
use crate::syntax::Span;
use ropey::Rope;
use tower_lsp::lsp_types::Url;

use std::hash::{Hash, Hasher};

use crate::lsp::documents::Snapshot;
use crate::lsp::position::{self, Encoding};
use crate::lsp::state::{Level, Severities, State};

/// More than this many diagnostics in one file helps nobody and slows the
/// editor; the first ones (in source order) are kept.
pub const MAX_PER_FILE: usize = 500;

/// Every diagnostic of a document, pushed or pulled: the checker's and,
/// with `diffAgainstHead`, the comparison with git `HEAD`.
pub fn all(state: &State, snapshot: &Snapshot) -> Vec<Diagnostic> {
    let encoding = state.encoding();
    let severities = state.severities();
    let mut diagnostics = to_lsp(snapshot, encoding, &severities);
    diagnostics.extend(super::schema_diff::to_lsp(state, snapshot, encoding));
    overridden(diagnostics, &severities)
}

/// The `severity` setting applied: codes turned off are left out, the
/// others take the severity it gives them.
pub fn overridden(diagnostics: Vec<Diagnostic>, severities: &Severities) -> Vec<Diagnostic> {
    diagnostics
        .into_iter()
        .filter_map(|mut d| {
            let code = match &d.code {
                Some(NumberOrString::String(code)) => code.as_str(),
                _ => return Some(d),
            };
            match severities.get(code) {
                None => {}
                Some(None) => return None,
                Some(Some(level)) => {
                    let severity = match level {
                        Level::Error => DiagnosticSeverity::ERROR,
                        Level::Warning => DiagnosticSeverity::WARNING,
                        Level::Information => DiagnosticSeverity::INFORMATION,
                        Level::Hint => DiagnosticSeverity::HINT,
                    };
                    // Greyed-out text is for hints only.
                    if severity != DiagnosticSeverity::HINT {
                        d.tags = None;
                    }
                    d.severity = Some(severity);
                }
            }
            Some(d)
        })
        .collect()
}

/// The result id of a pull: the document version and a hash of its text,
/// of its schema's revision and of the settings that change what is
/// reported. A client sending it
/// back gets `unchanged` without an analysis.
pub fn result_id(state: &State, rope: &Rope, version: i32, revision: u64) -> String {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for chunk in rope.chunks() {
        hasher.write(chunk.as_bytes());
    }
    hasher.write_u8(0xff); // the text ends here
    // The schema's revision: in a folder, another file's edit changes this
    // document's diagnostics without changing its text.
    revision.hash(&mut hasher);
    state.diff_against_head().hash(&mut hasher);
    state.severities().hash(&mut hasher);
    format!("{version}-{:016x}", hasher.finish())
}

/// The checker's diagnostics, without the codes the settings turn off
/// (their severities are [`overridden`] after).
pub fn to_lsp(snapshot: &Snapshot, encoding: Encoding, severities: &Severities) -> Vec<Diagnostic> {
    let diagnostics = &snapshot.file.analysis.diagnostics();
    publishable(&snapshot.uri, &snapshot.rope, diagnostics, encoding, severities)
}

/// The first [`MAX_PER_FILE`] of `diagnostics` (in source order) that are
/// not turned off, as the protocol has them.
fn publishable(
    uri: &Url,
    rope: &Rope,
    diagnostics: &[diagnostic::Diagnostic],
    encoding: Encoding,
    severities: &Severities,
) -> Vec<Diagnostic> {
    let on = diagnostics.iter().filter(|d| !severities.is_off(d.code.as_str()));
    let shown = on.take(MAX_PER_FILE);
    shown.map(|d| convert(uri, rope, d, encoding)).collect()
}

/// The checker's diagnostics of an analysis, without the syntax errors:
/// what a syntax-first publish of a later revision carries over.
pub fn semantic(snapshot: &Snapshot) -> Vec<diagnostic::Diagnostic> {
    let all = &snapshot.file.analysis.diagnostics();
    all.iter().filter(|d| !d.code.is_syntax()).cloned().collect()
}

/// What is published first when the analysis of a large file takes a
/// while: the new text's syntax errors, and the checker's diagnostics of
/// the last complete publish (`previous`: its text and diagnostics) that lie
/// outside the edited region, moved with the text around them — so they do
/// not vanish and come back on every keystroke.
pub fn syntax_first(
    uri: &Url,
    rope: &Rope,
    syntax: &[diagnostic::Diagnostic],
    previous: Option<(&Rope, &[diagnostic::Diagnostic])>,
    encoding: Encoding,
    severities: &Severities,
) -> Vec<Diagnostic> {
    let mut shown: Vec<diagnostic::Diagnostic> = syntax.to_vec();
    if let Some((old_rope, semantic)) = previous {
        shown.extend(carry_over(old_rope, rope, semantic));
    }
    shown.sort_by_key(|d| (d.span.start(), d.span.end()));
    overridden(publishable(uri, rope, &shown, encoding, severities), severities)
}

/// `diagnostics` of `old` moved into `new`: the two texts differ only
/// between their common prefix and suffix; a span before that region keeps
/// its offsets, a span after it moves by the change in length, and a span
/// that touches it is dropped (the next analysis reports it again). A
/// related location that touches it is dropped alone.
pub fn carry_over(old: &Rope, new: &Rope, diagnostics: &[diagnostic::Diagnostic]) -> Vec<diagnostic::Diagnostic> {
    let (prefix, suffix) = common_ends(old, new);
    let (old_len, new_len) = (old.len_bytes(), new.len_bytes());
    let (changed_from, changed_to) = (prefix, old_len - suffix);
    let map = |span: Span| -> Option<Span> {
        if span.end() <= changed_from {
            Some(span)
        } else if span.start() >= changed_to {
            // `start >= old_len - suffix` and `suffix <= new_len`: no underflow.
            let moved = |at: usize| at + new_len - old_len;
            Some(Span::new(moved(span.start()), moved(span.end())))
        } else {
            None
        }
    };
    diagnostics
        .iter()
        .filter_map(|d| {
            let span = map(d.span)?;
            let mut moved = d.clone();
            moved.span = span;
            moved.related = d
                .related
                .iter()
                .filter_map(|r| {
                    let span = map(r.at.span).filter(|_| r.at.file == d.file)?;
                    Some(Related {
                        at: r.at.file.at(span),
                        ..r.clone()
                    })
                })
                .collect();
            moved.fixes.clear(); // code actions come from a complete analysis
            Some(moved)
        })
        .collect()
}

/// How many bytes two texts share from their start, and how many more
/// from their end (the two runs never overlap in either text): the edit lies
/// between. Read chunk by chunk from the ropes, where a copy of each text as
/// one string was 2.4 MB at 50k lines, made on every syntax-first publish.
fn common_ends(old: &Rope, new: &Rope) -> (usize, usize) {
    let prefix = common_run(forward(old), forward(new), usize::MAX, false);
    let limit = old.len_bytes().min(new.len_bytes()) - prefix;
    (prefix, common_run(backward(old), backward(new), limit, true))
}

fn forward(rope: &Rope) -> impl Iterator<Item = &[u8]> {
    rope.chunks().map(str::as_bytes)
}

fn backward(rope: &Rope) -> impl Iterator<Item = &[u8]> {
    let (mut chunks, ..) = rope.chunks_at_byte(rope.len_bytes());
    std::iter::from_fn(move || chunks.prev()).map(str::as_bytes)
}

/// The length of the run of equal bytes at the start (or, `backward`, the
/// end) of two texts given as chunks in reading order, up to `limit`. The
/// chunks of the two need not break at the same places.
fn common_run<'a>(
    mut a: impl Iterator<Item = &'a [u8]>,
    mut b: impl Iterator<Item = &'a [u8]>,
    limit: usize,
    backward: bool,
) -> usize {
    let (mut x, mut y): (&[u8], &[u8]) = (&[], &[]);
    let mut same = 0;
    while same < limit {
        if x.is_empty() {
            match a.next() {
                Some(chunk) => x = chunk,
                None => break,
            }
            continue;
        }
        if y.is_empty() {
            match b.next() {
                Some(chunk) => y = chunk,
                None => break,
            }
            continue;
        }
        let k = x.len().min(y.len()).min(limit - same);
        let (run, x_rest, y_rest) = if backward {
            let ((x_rest, x_end), (y_rest, y_end)) = (x.split_at(x.len() - k), y.split_at(y.len() - k));
            (slices::common_suffix(x_end, y_end, k), x_rest, y_rest)
        } else {
            let ((x_start, x_rest), (y_start, y_rest)) = (x.split_at(k), y.split_at(k));
            (slices::common_prefix(x_start, y_start), x_rest, y_rest)
        };
        same += run;
        if run < k {
            break;
        }
        (x, y) = (x_rest, y_rest);
    }
    same
}

/// One diagnostic as the protocol has it.
pub fn convert(uri: &Url, rope: &Rope, d: &diagnostic::Diagnostic, encoding: Encoding) -> Diagnostic {
    let range = |span| position::range(rope, span, encoding);
    let mut message = d.message.clone();
    if let Some(help) = &d.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    // The document is the schema's only file: a location elsewhere (none
    // today) has no URI here.
    let related = d
        .related
        .iter()
        .filter(|r| r.at.file == d.file)
        .map(|r| DiagnosticRelatedInformation {
            location: Location::new(uri.clone(), range(r.at.span)),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Code;

    /// Spans given as the text they cover in `old` (first occurrence),
    /// returned as the text they cover in `new`.
    fn carried(old: &str, new: &str, marked: &[&str]) -> Vec<String> {
        let diagnostics: Vec<_> = marked
            .iter()
            .map(|m| {
                let start = old.find(m).unwrap();
                let span = Span::new(start, start + m.len());
                let at = FileId::default().at(span);
                diagnostic::Diagnostic::new(Code::UnknownEntity, at, "x").with_related(at, "here")
            })
            .collect();
        carry_over(&Rope::from_str(old), &Rope::from_str(new), &diagnostics)
            .iter()
            .map(|d| {
                assert_eq!(d.related.len(), 1, "the related span moves with the diagnostic");
                assert_eq!(d.related[0].at.span, d.span);
                new[d.span.start()..d.span.end()].to_string()
            })
            .collect()
    }

    #[test]
    fn spans_before_the_edit_stay_and_spans_after_it_move() {
        let old = "entity Usr { }\npattern p -> Usr\npattern q -> Grp\n";
        let new = "entity Usr { x }\npattern p -> Usr\npattern q -> Grp\n";
        assert_eq!(carried(old, new, &["Usr", "Grp"]), ["Usr", "Grp"]);
        // Deleting moves them back.
        assert_eq!(carried(new, old, &["Usr", "Grp"]), ["Usr", "Grp"]);
    }

    #[test]
    fn spans_touching_the_edit_are_dropped() {
        let old = "pattern p -> Usr\npattern q -> Grp\n";
        let new = "pattern p -> User\npattern q -> Grp\n";
        assert_eq!(carried(old, new, &["Usr", "Grp"]), ["Grp"]);
        // A related location inside the edit goes, its diagnostic stays.
        let span = Span::new(old.find("Grp").unwrap(), old.find("Grp").unwrap() + 3);
        let file = FileId::default();
        let d = diagnostic::Diagnostic::new(Code::UnknownEntity, file.at(span), "x")
            .with_related(file.at(Span::new(13, 16)), "Usr");
        let moved = carry_over(&Rope::from_str(old), &Rope::from_str(new), &[d]);
        assert_eq!(moved.len(), 1);
        assert!(moved[0].related.is_empty());
        assert_eq!(&new[moved[0].span.start()..moved[0].span.end()], "Grp");
    }

    #[test]
    fn multibyte_text_and_repeated_characters_keep_spans_on_the_same_text() {
        // The inserted `é` sits among equal bytes: the common prefix and
        // suffix must not overlap.
        let old = "/// ééé\npattern p -> Usr\n";
        let new = "/// éééé\npattern p -> Usr\n";
        assert_eq!(carried(old, new, &["Usr", "/// "]), ["Usr", "/// "]);
        let (a, b) = ("aaaa", "aaaaaa");
        assert_eq!(carried(a, b, &["aa"]), ["aa"]);
        assert_eq!(carried(b, a, &["aa"]), ["aa"]);
        // A whole replacement keeps nothing that it touched.
        assert_eq!(carried("abc", "xyz", &["b"]), Vec::<String>::new());
        assert_eq!(carried("", "abc", &[]), Vec::<String>::new());
    }

    /// The common ends read chunk by chunk equal those of the two texts as
    /// strings, for ropes of many chunks that break at different places
    /// (one built whole, one edited), for edits anywhere, repeats included.
    #[test]
    fn common_ends_read_from_chunks_equal_those_of_the_whole_texts() {
        let line = |i: usize| format!("pattern p{i}(userId) -> User // {}\n", "x".repeat(i % 7));
        let base: String = (0..2_000).map(line).collect();
        let plain = |old: &str, new: &str| slices::common_ends(old.as_bytes(), new.as_bytes());
        // Among equal bytes the runs from either end could overlap.
        let repeats = base.find("xxxxxx").unwrap() + 2;
        let edits: &[(usize, usize, &str)] = &[
            (repeats, 0, "x"),
            (repeats, 1, ""),
            (0, 0, "x"),
            (0, 1, ""),
            (base.len(), 0, "tail"),
            (base.len() - 1, 1, ""),
            (31_337, 4, "ab"),
            (40_000, 0, "xxxxxxx"),
            (50_000, 3_000, "pattern"),
            (12_345, 0, ""),
        ];
        for &(at, removed, inserted) in edits {
            let mut edited = Rope::from_str(&base);
            edited.remove(at..at + removed);
            edited.insert(at, inserted);
            let new = edited.to_string();
            let whole = Rope::from_str(&base);
            assert!(whole.chunks().count() > 10, "the test needs ropes of many chunks");
            assert_eq!(common_ends(&whole, &edited), plain(&base, &new), "edit at {at}");
            assert_eq!(common_ends(&edited, &whole), plain(&new, &base), "edit at {at}, undone");
            assert_eq!(common_ends(&edited, &Rope::from_str(&new)), (new.len(), 0));
        }
    }
}
