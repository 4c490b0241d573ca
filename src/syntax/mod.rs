//! The syntax layer: lexer, parser, syntax tree, printer and line index.
//! It knows nothing of checking or editors.

pub mod ast;
pub mod lexer;
pub mod line_index;
pub mod names;
pub mod outline;
mod parser;
pub mod print;
pub mod shift;
mod span;
pub mod template;

pub use line_index::{LineCol, LineIndex};
pub use parser::{Parse, parse, parse_in, reparse_in};
pub use span::{FileId, FileSpan, MAX_TEXT, Span};

/// A location in the text being read. The lexer and parser know no file:
/// [`parse_in`] gives their diagnostics the file of the text.
pub(crate) fn in_text(span: Span) -> FileSpan {
    FileId::default().at(span)
}
