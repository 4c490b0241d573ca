//! dyno: a checker and language server for `.dyno` DynamoDB single-table
//! schemas.
//!
//! Layers, bottom up: `syntax` (lexer, parser, tree) → `check` (semantics)
//! → `db` (the workspace: files and cached queries) → `ide` (editor
//! features as pure functions) → `lsp` (the only code that
//! speaks the protocol); `cli` is a thin shell over them. Rooms above
//! `check`, such as `export`, turn the analysis into other tools' inputs;
//! `size` measures items already written against the same rules.

pub mod check;
pub mod cli;
pub mod db;
pub mod design;
pub mod diagnostic;
pub mod diff;
pub mod doc;
pub mod export;
#[doc(hidden)]
pub mod fuzz;
pub mod generate;
pub mod ide;
pub mod import;
pub mod lsp;
/// Spreading independent work over the cores (the parser, the checker).
pub(crate) mod parallel;
pub mod size;
pub(crate) mod slices;
pub mod syntax;
#[doc(hidden)]
pub mod synth;
#[cfg(test)]
mod test_edits;
pub mod verify;
pub mod view;
