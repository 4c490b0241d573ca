//! Byte offset ↔ line/column for rendering diagnostics. Lines end at `\n`;
//! a `\r` before it is not part of the line.

#[derive(Clone, Debug)]
pub struct LineIndex {
    /// Byte offset where each line starts: a `u32`, as in a span (a text
    /// is at most `MAX_TEXT`).
    starts: Vec<u32>,
    len: usize,
}

/// A zero-based line and a zero-based column counted in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineCol {
    pub line: usize,
    pub col: usize,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        debug_assert!(text.len() <= super::MAX_TEXT);
        // Counted first, so that the list has room for exactly its lines.
        let mut starts = Vec::with_capacity(1 + text.bytes().filter(|&b| b == b'\n').count());
        starts.push(0);
        starts.extend(text.match_indices('\n').map(|(i, _)| (i + 1) as u32));
        LineIndex {
            starts,
            len: text.len(),
        }
    }

    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// Offsets past the end clamp to the end.
    pub fn line_col(&self, offset: usize) -> LineCol {
        let offset = offset.min(self.len);
        let line = self.starts.partition_point(|&s| s as usize <= offset) - 1;
        LineCol {
            line,
            col: offset - self.starts[line] as usize,
        }
    }

    pub fn line_start(&self, line: usize) -> usize {
        self.starts.get(line).map_or(self.len, |&start| start as usize)
    }

    /// The text of a line, without its line break.
    pub fn line_text<'a>(&self, text: &'a str, line: usize) -> &'a str {
        let start = self.line_start(line);
        let end = self.starts.get(line + 1).map_or(self.len, |&next| next as usize - 1);
        let line_text = &text[start..end.max(start)];
        line_text.strip_suffix('\r').unwrap_or(line_text)
    }

    /// The one-based column a person counts: characters, not bytes.
    pub fn char_col(&self, text: &str, at: LineCol) -> usize {
        let start = self.line_start(at.line);
        let end = (start + at.col).min(text.len());
        text.get(start..end).map_or(at.col, |s| s.chars().count()) + 1
    }
}
