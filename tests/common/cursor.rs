//! Fixtures for editor features, rust-analyzer style: the text carries a
//! `$0` cursor marker (or two, around a range), and results render back as
//! the text they cover so expected outputs read like the source.

use dyno::syntax::Span;

/// The cursor marker.
pub const CURSOR: &str = "$0";

/// Removes the indentation every non-blank line shares and a leading line
/// break, so fixtures can sit indented inside raw strings.
pub fn trim_indent(text: &str) -> String {
    let text = text.strip_prefix('\n').unwrap_or(text);
    let indent = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let mut out = String::new();
    for line in text.split_inclusive('\n') {
        if line.trim().is_empty() {
            out.push_str(if line.ends_with('\n') { "\n" } else { "" });
        } else {
            out.push_str(&line[indent.min(line.len())..]);
        }
    }
    out
}

/// A fixture with exactly one `$0`: the text without it and the offset
/// where it stood.
pub fn cursor(fixture: &str) -> (String, usize) {
    let text = trim_indent(fixture);
    let offset = text
        .find(CURSOR)
        .unwrap_or_else(|| panic!("fixture has no `{CURSOR}` cursor:\n{text}"));
    let without = format!("{}{}", &text[..offset], &text[offset + CURSOR.len()..]);
    assert!(
        !without.contains(CURSOR),
        "fixture has more than one `{CURSOR}`:\n{text}"
    );
    (without, offset)
}

/// A fixture with `$0…$0` around a range: the text without the markers and
/// the range.
pub fn range(fixture: &str) -> (String, Span) {
    let text = trim_indent(fixture);
    let markers: Vec<usize> = text.match_indices(CURSOR).map(|(i, _)| i).collect();
    let [start, end] = markers[..] else {
        panic!("fixture needs exactly two `{CURSOR}` markers around a range:\n{text}");
    };
    let without = text.replace(CURSOR, "");
    (without, Span::new(start, end - CURSOR.len()))
}

/// A fixture without markers (features that take no cursor).
pub fn plain(fixture: &str) -> String {
    let text = trim_indent(fixture);
    assert!(!text.contains(CURSOR), "this fixture takes no `{CURSOR}`:\n{text}");
    text
}

/// One-based line and column (in characters) of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

/// `line:col` of a span's start.
pub fn position(text: &str, span: Span) -> String {
    let (line, col) = line_col(text, span.start());
    format!("{line}:{col}")
}

/// The text a span covers, on one line: line breaks are shown as `⏎` and
/// long text is cut in the middle.
pub fn excerpt(text: &str, span: Span) -> String {
    let covered = text.get(span.range()).unwrap_or("<out of range>");
    let flat = covered.replace("\r\n", "⏎").replace('\n', "⏎");
    let chars: Vec<char> = flat.chars().collect();
    if chars.len() <= 60 {
        flat
    } else {
        let head: String = chars[..28].iter().collect();
        let tail: String = chars[chars.len() - 28..].iter().collect();
        format!("{head} … {tail}")
    }
}

/// Each span on its own line as `line:col text`, in the order given. No
/// spans renders as `(none)` so an empty result is visible.
pub fn spans(text: &str, spans: &[Span]) -> String {
    if spans.is_empty() {
        return "(none)\n".into();
    }
    spans
        .iter()
        .map(|&s| format!("{} {}\n", position(text, s), excerpt(text, s)))
        .collect()
}

/// The file with every span marked inline as `«…»` (nested spans nest;
/// empty spans show as `«»`).
pub fn mark(text: &str, spans: &[Span]) -> String {
    // (offset, opens?, length): closes before opens at the same offset,
    // outer spans open first and close last.
    let mut events: Vec<(usize, bool, usize)> = Vec::new();
    for s in spans {
        events.push((s.start(), true, s.len()));
        events.push((s.end(), false, s.len()));
    }
    events.sort_by(|a, b| {
        a.0.cmp(&b.0)
            .then(a.1.cmp(&b.1))
            .then(if a.1 { b.2.cmp(&a.2) } else { a.2.cmp(&b.2) })
    });
    // An empty span opens and closes at the same offset: keep its pair
    // together.
    let mut out = String::new();
    let mut at = 0;
    for (offset, opens, len) in events {
        if offset > at {
            out.push_str(&text[at..offset]);
            at = offset;
        }
        if len == 0 {
            if opens {
                out.push_str("«»");
            }
        } else {
            out.push(if opens { '«' } else { '»' });
        }
    }
    out.push_str(&text[at..]);
    out
}

/// The text after applying non-overlapping edits.
pub fn apply(text: &str, edits: &[(Span, String)]) -> String {
    let mut edits = edits.to_vec();
    edits.sort_by_key(|(s, _)| s.start());
    let mut out = String::new();
    let mut at = 0;
    for (span, new) in edits {
        assert!(span.start() >= at, "overlapping edits at {span:?}");
        out.push_str(&text[at..span.start()]);
        out.push_str(&new);
        at = span.end();
    }
    out.push_str(&text[at..]);
    out
}

/// The text after applying a fix's edits, every one of which must be in
/// the text's own file (a text analysed alone is file 0).
#[allow(dead_code)]
pub fn apply_fix(text: &str, edits: &[(dyno::syntax::FileSpan, String)]) -> String {
    assert!(
        edits.iter().all(|(at, _)| at.file == dyno::syntax::FileId::default()),
        "{edits:?}"
    );
    let local: Vec<(Span, String)> = edits.iter().map(|(at, new)| (at.span, new.clone())).collect();
    apply(text, &local)
}

/// The schema every quoted-name editor test reads (quoted table, index, key
/// and attribute names).
pub const QUOTED_NAMES: &str = include_str!("../fixtures/check/quoted_names.dyno");

/// [`QUOTED_NAMES`] with the cursor right after `cursor_after`, a prefix of
/// the first occurrence of `at`.
pub fn in_quoted_names(at: &str, cursor_after: &str) -> String {
    assert!(
        at.starts_with(cursor_after),
        "`{cursor_after}` is not a prefix of `{at}`"
    );
    let index = QUOTED_NAMES
        .find(at)
        .unwrap_or_else(|| panic!("`{at}` not in quoted_names.dyno"));
    let cut = index + cursor_after.len();
    format!("{}{CURSOR}{}", &QUOTED_NAMES[..cut], &QUOTED_NAMES[cut..])
}

/// The labels of the completions at the fixture's cursor, in order.
pub fn completion_labels(fixture: &str) -> Vec<String> {
    let (text, offset) = cursor(fixture);
    let file = dyno::ide::File::new(text);
    dyno::ide::completion::completions(&file, offset)
        .into_iter()
        .map(|c| c.label)
        .collect()
}
