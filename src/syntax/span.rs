//! Byte ranges into the source text.

/// A half-open byte range `start..end` into one file's text.
///
/// Held as two `u32`: the tree, the model and the diagnostics hold spans by
/// the hundred thousand, and half their size is megabytes at 50k lines. A
/// text is at most 4 GiB (`MAX_TEXT`); readers refuse a larger one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    start: u32,
    end: u32,
}

/// The longest text a span can point into.
pub const MAX_TEXT: usize = u32::MAX as usize;

impl Span {
    pub const fn new(start: usize, end: usize) -> Span {
        debug_assert!(start <= MAX_TEXT && end <= MAX_TEXT);
        Span {
            start: start as u32,
            end: end as u32,
        }
    }

    pub const fn empty(at: usize) -> Span {
        Span::new(at, at)
    }

    pub const fn start(self) -> usize {
        self.start as usize
    }

    pub const fn end(self) -> usize {
        self.end as usize
    }

    /// Moved by `delta` bytes (wrapping, as offsets did when they were
    /// `usize`: a caller moves only what lies past an edit).
    pub fn shifted(self, delta: isize) -> Span {
        Span {
            start: self.start.wrapping_add_signed(delta as i32),
            end: self.end.wrapping_add_signed(delta as i32),
        }
    }

    pub fn set_end(&mut self, end: usize) {
        *self = Span::new(self.start(), end);
    }

    pub fn len(self) -> usize {
        self.end.saturating_sub(self.start) as usize
    }

    pub fn is_empty(self) -> bool {
        self.start == self.end
    }

    pub fn contains(self, offset: usize) -> bool {
        self.start() <= offset && offset < self.end()
    }

    /// Like `contains`, but also true at the end: a cursor right after a
    /// name is still "on" it, as editors expect.
    pub fn touches(self, offset: usize) -> bool {
        self.start() <= offset && offset <= self.end()
    }

    pub fn cover(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    pub fn range(self) -> std::ops::Range<usize> {
        self.start()..self.end()
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
