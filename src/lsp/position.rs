//! LSP positions ↔ byte offsets. The client and server agree on an
//! encoding at initialize: UTF-16 code units by default, UTF-8 bytes when
//! the client offers it. Lines end at `\n`, `\r\n` or `\r` (ropey's
//! `cr_lines`, without the Unicode line breaks LSP does not count).

use ropey::Rope;
use tower_lsp::lsp_types::{Position, Range};

use crate::syntax::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    Utf16,
}

/// The byte offset of a position, or `None` when its line does not exist.
/// A column past the end of its line means the end of the line, as the
/// protocol says.
pub fn offset(rope: &Rope, position: Position, encoding: Encoding) -> Option<usize> {
    let line = position.line as usize;
    if line >= rope.len_lines() {
        return None;
    }
    let start_char = rope.line_to_char(line);
    let line_slice = rope.line(line);
    let content_chars = line_slice.len_chars() - line_break_chars(&line_slice);
    let column = position.character as usize;
    let chars_in = match encoding {
        Encoding::Utf8 => {
            let start_byte = rope.char_to_byte(start_char);
            let content_bytes = line_slice.char_to_byte(content_chars);
            let target = start_byte + column.min(content_bytes);
            // A column inside a multi-byte character rounds down to it.
            rope.byte_to_char(target) - start_char
        }
        Encoding::Utf16 => {
            let start_cu = rope.char_to_utf16_cu(start_char);
            let content_cu = rope.char_to_utf16_cu(start_char + content_chars) - start_cu;
            rope.utf16_cu_to_char(start_cu + column.min(content_cu)) - start_char
        }
    };
    Some(rope.char_to_byte(start_char + chars_in))
}

/// Like `offset`, but a line past the end means the end of the document
/// (what an edit at the very end needs).
pub fn offset_clamped(rope: &Rope, position: Position, encoding: Encoding) -> usize {
    offset(rope, position, encoding).unwrap_or(rope.len_bytes())
}

pub fn position(rope: &Rope, offset: usize, encoding: Encoding) -> Position {
    let offset = offset.min(rope.len_bytes());
    let char_index = rope.byte_to_char(offset);
    let line = rope.char_to_line(char_index);
    let start_char = rope.line_to_char(line);
    let character = match encoding {
        Encoding::Utf8 => offset - rope.char_to_byte(start_char),
        Encoding::Utf16 => rope.char_to_utf16_cu(char_index) - rope.char_to_utf16_cu(start_char),
    };
    Position::new(line as u32, character as u32)
}

pub fn range(rope: &Rope, span: Span, encoding: Encoding) -> Range {
    Range::new(
        position(rope, span.start(), encoding),
        position(rope, span.end(), encoding),
    )
}

pub fn span(rope: &Rope, range: Range, encoding: Encoding) -> Option<Span> {
    let start = offset(rope, range.start, encoding)?;
    let end = offset(rope, range.end, encoding)?;
    (start <= end).then_some(Span::new(start, end))
}

fn line_break_chars(line: &ropey::RopeSlice) -> usize {
    let n = line.len_chars();
    match (n >= 2).then(|| (line.char(n - 2), line.char(n - 1))) {
        Some(('\r', '\n')) => 2,
        _ if n >= 1 && matches!(line.char(n - 1), '\n' | '\r') => 1,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(text: &str, encoding: Encoding) {
        let rope = Rope::from_str(text);
        for (offset_in, _) in text.char_indices().chain(std::iter::once((text.len(), ' '))) {
            // Offsets between \r and \n have no position of their own.
            if offset_in > 0 && text.as_bytes()[offset_in - 1] == b'\r' && text[offset_in..].starts_with('\n') {
                continue;
            }
            let p = position(&rope, offset_in, encoding);
            assert_eq!(
                offset(&rope, p, encoding),
                Some(offset_in),
                "{text:?} at {offset_in} via {p:?}"
            );
        }
    }

    #[test]
    fn utf16_counts_surrogate_pairs() {
        let rope = Rope::from_str("a🎉b\r\nc");
        assert_eq!(position(&rope, 5, Encoding::Utf16), Position::new(0, 3)); // after 🎉 (2 units)
        assert_eq!(position(&rope, 5, Encoding::Utf8), Position::new(0, 5));
        assert_eq!(offset(&rope, Position::new(1, 0), Encoding::Utf16), Some(8));
        assert_eq!(
            offset(&rope, Position::new(0, 99), Encoding::Utf16),
            Some(6),
            "clamped before \\r\\n"
        );
        assert_eq!(offset(&rope, Position::new(5, 0), Encoding::Utf16), None);
    }

    #[test]
    fn round_trips_with_crlf_tabs_and_astral_characters() {
        for text in ["", "x", "a\r\nb\n\r\nc\r", "\tpk = \"🎉{x}\"\r\n\u{2028}é", "日本\n語"] {
            round_trip(text, Encoding::Utf16);
            round_trip(text, Encoding::Utf8);
        }
    }

    #[test]
    fn unicode_line_separators_are_not_line_breaks() {
        let rope = Rope::from_str("a\u{2028}b\nc");
        assert_eq!(rope.len_lines(), 2);
        assert_eq!(
            position(&rope, 5, Encoding::Utf16),
            Position::new(0, 3),
            "still line 0 after U+2028"
        );
    }
}
