//! The syntax layer: lexer, parser, syntax tree, printer and line index.
//! It knows nothing of checking or editors.

pub mod ast;
pub mod lexer;
pub mod line_index;
pub mod outline;
mod parser;
pub mod print;
mod span;
pub mod template;

pub use line_index::{LineCol, LineIndex};
pub use parser::{Parse, parse};
pub use span::Span;
