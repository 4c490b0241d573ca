//! The bodies of the fuzz targets, shared by `fuzz/` (cargo-fuzz) and the
//! regression tests in `tests/fuzz_regressions.rs`. Each takes arbitrary
//! bytes and panics on a finding.
//!
//! - [`parse`]: any bytes lex and parse without panicking, and every
//!   diagnostic span lies inside the text, on character boundaries.
//! - [`check`]: any text analyses without panicking, in bounded time, and
//!   the editor features built on the analysis do not panic either.
//! - [`format`]: formatting is idempotent and keeps the token and comment
//!   sequence.
//! - [`import_workbench`], [`import_cloudformation`]: any input imports
//!   without panicking, and what is imported parses without errors and is
//!   formatted (a refusal is an `ImportError`, not a panic).
//! - [`edits`]: incremental edits applied to the language server's document
//!   store give the same text as the same edits applied to a `String` by an
//!   independent reading of the protocol's positions; positions out of range
//!   are clamped or refused, never a panic.

use std::time::{Duration, Instant};

use ropey::Rope;
use tower_lsp::lsp_types::{Position, Range, TextDocumentContentChangeEvent, Url};

use crate::diagnostic::Diagnostic;
use crate::lsp::documents::Documents;
use crate::lsp::position::{self, Encoding};

/// Inputs longer than this are skipped by [`check`]: the time bound is about
/// pathological small inputs, not about large files (the benchmarks).
pub const CHECK_MAX_BYTES: usize = 16 * 1024;

/// How long [`check`] may take for one input of at most
/// [`CHECK_MAX_BYTES`], debug assertions on.
pub const CHECK_TIME_LIMIT: Duration = Duration::from_secs(2);

fn assert_spans(text: &str, diagnostics: &[Diagnostic]) {
    for d in diagnostics {
        let spans = std::iter::once(d.span).chain(d.related.iter().map(|r| r.at.span));
        for span in spans {
            assert!(
                span.start() <= span.end() && span.end() <= text.len(),
                "{:?} span {span:?} outside a text of {} bytes",
                d.code,
                text.len()
            );
            assert!(
                text.is_char_boundary(span.start()) && text.is_char_boundary(span.end()),
                "{:?} span {span:?} splits a character",
                d.code
            );
        }
    }
}

pub fn parse(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (tokens, lexical) = crate::syntax::lexer::lex(&text);
    let mut end = 0;
    for (_, span) in &tokens {
        assert!(
            span.start() >= end && span.end() <= text.len(),
            "token {span:?} out of order"
        );
        end = span.end();
    }
    assert_spans(&text, &lexical);
    let parse = crate::syntax::parse(&text);
    assert_spans(&text, &parse.diagnostics);
}

/// [`check_analysis`], and the analysis within [`CHECK_TIME_LIMIT`]: what the
/// fuzzer runs, to find inputs that are slow as well as inputs that panic.
pub fn check(data: &[u8]) {
    if data.len() > CHECK_MAX_BYTES {
        return;
    }
    let started = Instant::now();
    let file = crate::ide::File::new(String::from_utf8_lossy(data).into_owned());
    let elapsed = started.elapsed();
    assert!(
        elapsed <= CHECK_TIME_LIMIT,
        "analysing {} bytes took {elapsed:?}",
        file.text.len()
    );
    check_file(&file);
}

/// Everything [`check`] asserts but the time: what `cargo test` replays, as
/// a timed assertion fails whenever the machine is busy.
pub fn check_analysis(data: &[u8]) {
    if data.len() > CHECK_MAX_BYTES {
        return;
    }
    check_file(&crate::ide::File::new(String::from_utf8_lossy(data).into_owned()));
}

fn check_file(file: &crate::ide::File) {
    assert_spans(&file.text, file.analysis.diagnostics());
    // What the editor asks of every analysis, and at some offsets.
    let _ = file.occurrences();
    let _ = crate::ide::symbols::document_symbols(file);
    let _ = crate::ide::folding::folds(file);
    let _ = crate::ide::semantic_tokens::tokens(file);
    let _ = crate::ide::inlay::hints(file);
    let step = (file.text.len() / 32).max(1);
    let offsets = (0..=file.text.len())
        .step_by(step)
        .filter(|&o| file.text.is_char_boundary(o));
    let (all_tokens, _) = crate::syntax::lexer::lex(&file.text);
    for offset in offsets {
        let _ = crate::ide::hover::hover(file, offset);
        let _ = crate::ide::completion::completions(file, offset);
        let _ = crate::ide::goto::definition(file, offset);
        completion_window(&file.text, &all_tokens, offset);
    }
}

/// Completion lexes only the lines around the cursor
/// (`ide::completion::window`): those tokens must be a run of the whole
/// file's tokens (`all`), and include the token under the cursor.
pub fn completion_window(text: &str, all: &[(crate::syntax::lexer::Token<'_>, crate::syntax::Span)], offset: usize) {
    let window = crate::ide::completion::window::tokens(text, offset);
    let Some(first) = window.first() else { return };
    let at = all.iter().position(|t| t == first).expect("a token of the file");
    assert_eq!(
        &all[at..at + window.len()],
        window.as_slice(),
        "window at {offset} of {text:?}"
    );
    if let Some(under) = all.iter().find(|(_, s)| s.start() <= offset && offset <= s.end()) {
        assert!(
            window.contains(under),
            "window at {offset} misses {under:?} in {text:?}"
        );
    }
}

pub fn format(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(once) = crate::ide::format::format(&text) else {
        return;
    };
    assert_eq!(
        crate::ide::format::kept_tokens(&text),
        crate::ide::format::kept_tokens(&once),
        "formatting changed the tokens"
    );
    let twice = crate::ide::format::format(&once).expect("formatted text formats again");
    assert_eq!(once, twice, "formatting is not idempotent");
}

/// Reads the fuzzer's bytes as small numbers.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> Option<u8> {
        let (&first, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(first)
    }

    /// A line or column: mostly small, sometimes far out of range.
    fn coordinate(&mut self) -> Option<u32> {
        Some(match self.byte()? {
            255 => u32::MAX,
            254 => 1 << 20,
            b => u32::from(b % 32),
        })
    }

    /// Text with the characters that matter for positions: line breaks of
    /// each kind, multi-byte and astral characters.
    fn text(&mut self) -> Option<String> {
        const PIECES: [&str; 12] = ["a", "b", " ", "\n", "\r\n", "\r", "é", "日", "🎉", "{", "\"", "\t"];
        let n = usize::from(self.byte()? % 16);
        let mut out = String::new();
        for _ in 0..n {
            out.push_str(PIECES[usize::from(self.byte()?) % PIECES.len()]);
        }
        Some(out)
    }
}

/// The start of every line: after `\n`, `\r\n` or a lone `\r`.
fn line_starts(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut starts = vec![0];
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\r' if bytes.get(i + 1) == Some(&b'\n') => {
                starts.push(i + 2);
                i += 2;
            }
            b'\r' | b'\n' => {
                starts.push(i + 1);
                i += 1;
            }
            _ => i += 1,
        }
    }
    starts
}

/// The protocol's reading of a position, written without ropey: `None` for a
/// line past the end; a column past the end of its line is the end of the
/// line; a column inside a character is that character's start.
pub fn oracle_offset(text: &str, at: Position, encoding: Encoding) -> Option<usize> {
    let starts = line_starts(text);
    let line = at.line as usize;
    let start = *starts.get(line)?;
    let mut content_end = starts.get(line + 1).copied().unwrap_or(text.len());
    let before_break = &text[start..content_end];
    if before_break.ends_with("\r\n") {
        content_end -= 2;
    } else if before_break.ends_with(['\r', '\n']) {
        content_end -= 1;
    }
    let mut units = 0usize;
    let mut offset = start;
    for c in text[start..content_end].chars() {
        let width = match encoding {
            Encoding::Utf8 => c.len_utf8(),
            Encoding::Utf16 => c.len_utf16(),
        };
        if units + width > at.character as usize {
            break;
        }
        units += width;
        offset += c.len_utf8();
    }
    Some(offset)
}

pub fn edits(data: &[u8]) {
    let mut input = Bytes(data);
    let encoding = match input.byte() {
        Some(b) if b % 2 == 0 => Encoding::Utf8,
        _ => Encoding::Utf16,
    };
    let Some(mut model) = input.text() else { return };
    let documents = Documents::default();
    let uri = Url::parse("file:///fuzz.dyno").expect("a valid URL");
    documents.open(uri.clone(), &model, 0);
    let mut version = 0;
    while let Some(kind) = input.byte() {
        let change = if kind % 16 == 0 {
            let Some(text) = input.text() else { break };
            model = text.clone();
            TextDocumentContentChangeEvent {
                range: None,
                range_length: None,
                text,
            }
        } else {
            let mut coordinates = [0u32; 4];
            for c in &mut coordinates {
                match input.coordinate() {
                    Some(value) => *c = value,
                    None => return,
                }
            }
            let Some(text) = input.text() else { break };
            let [sl, sc, el, ec] = coordinates;
            let (start, end) = (Position::new(sl, sc), Position::new(el, ec));
            let rope = Rope::from_str(&model);
            for at in [start, end] {
                assert_eq!(
                    position::offset(&rope, at, encoding),
                    oracle_offset(&model, at, encoding),
                    "offset of {at:?} in {model:?}"
                );
            }
            let from = oracle_offset(&model, start, encoding).unwrap_or(model.len());
            let to = oracle_offset(&model, end, encoding).unwrap_or(model.len()).max(from);
            model.replace_range(from..to, &text);
            TextDocumentContentChangeEvent {
                range: Some(Range::new(start, end)),
                range_length: None,
                text,
            }
        };
        version += 1;
        documents
            .change(&uri, version, &[change], encoding)
            .expect("the document is open");
        let (rope, current, _) = documents.text(&uri).expect("the document is open");
        assert_eq!(current, version);
        assert_eq!(rope.to_string(), model, "the store and the model disagree");
        // Every position maps back to its offset (none lies between `\r` and `\n`).
        for (offset, _) in model.char_indices().chain(std::iter::once((model.len(), ' '))) {
            if offset > 0 && model.as_bytes()[offset - 1] == b'\r' && model[offset..].starts_with('\n') {
                continue;
            }
            let at = position::position(&rope, offset, encoding);
            assert_eq!(
                position::offset(&rope, at, encoding),
                Some(offset),
                "round trip of {offset}"
            );
        }
    }
}

/// An imported schema, if any, parses without errors and is formatted.
fn assert_imported(imported: Result<String, crate::import::ImportError>) {
    let Ok(schema) = imported else { return };
    let diagnostics = crate::syntax::parse(&schema).diagnostics;
    assert!(
        diagnostics.is_empty(),
        "the imported schema does not parse: {diagnostics:?}\n{schema}"
    );
    let formatted = crate::ide::format::format(&schema);
    assert_eq!(
        formatted.as_deref(),
        Ok(schema.as_str()),
        "the imported schema is not formatted"
    );
}

/// `dyno import workbench` of any text.
pub fn import_workbench(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    assert_imported(crate::import::workbench::import(&text, "fuzz.json"));
}

/// `dyno import cloudformation` of any text, as JSON when the first byte
/// is even, else as YAML.
pub fn import_cloudformation(data: &[u8]) {
    let Some((first, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    assert_imported(crate::import::cloudformation::import(&text, "fuzz", first % 2 == 0));
}
