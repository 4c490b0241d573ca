//! Byte ranges into the source text.

/// A half-open byte range `start..end` into one file's text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub const fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    pub const fn empty(at: usize) -> Span {
        Span { start: at, end: at }
    }

    pub fn len(self) -> usize {
        self.end.saturating_sub(self.start)
    }

    pub fn is_empty(self) -> bool {
        self.start == self.end
    }

    pub fn contains(self, offset: usize) -> bool {
        self.start <= offset && offset < self.end
    }

    /// Like `contains`, but also true at the end: a cursor right after a
    /// name is still "on" it, as editors expect.
    pub fn touches(self, offset: usize) -> bool {
        self.start <= offset && offset <= self.end
    }

    pub fn cover(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }

    pub fn range(self) -> std::ops::Range<usize> {
        self.start..self.end
    }
}

impl From<std::ops::Range<usize>> for Span {
    fn from(range: std::ops::Range<usize>) -> Span {
        Span::new(range.start, range.end)
    }
}

/// One file of a workspace. Ids are handed out by the workspace database
/// (`crate::db`) in the order files are added; a text analysed on its own
/// is file 0, as in a workspace of that one file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub u32);

impl FileId {
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// `span` in this file.
    pub const fn at(self, span: Span) -> FileSpan {
        FileSpan { file: self, span }
    }
}

/// A location that may leave its file: a diagnostic, a related location,
/// a definition, a reference, an edit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileSpan {
    pub file: FileId,
    pub span: Span,
}

impl FileSpan {
    pub const fn new(file: FileId, span: Span) -> FileSpan {
        FileSpan { file, span }
    }
}
