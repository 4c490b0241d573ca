//! Inlay hints: after each pattern, the index its Query uses and its read
//! cost, so the design's price is visible while it is typed.

use super::File;
use crate::syntax::Span;
use crate::syntax::lexer::{Token, lex};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    /// Where the hint is shown (the end of the pattern's first line).
    pub offset: usize,
    pub label: String,
    pub tooltip: String,
}

pub fn hints(file: &File) -> Vec<Hint> {
    let analysis = &file.analysis;
    let mut out = Vec::new();
    // Only this file's patterns: a folder's others are in their own files.
    let here = analysis
        .schema
        .model
        .pattern_ids()
        .filter(|(_, p)| p.file == analysis.file);
    for (id, pattern) in here {
        let Some(served) = file.served(id) else { continue };
        out.push(Hint {
            offset: first_line_end(&file.text, pattern.span),
            label: format!("{} · {}", served.place(), served.cost.rcu_label()),
            tooltip: served.cost.describe(),
        });
    }
    out
}

/// The end of the last token on the first line of `span`, so the hint
/// comes after the code and before any comment.
fn first_line_end(text: &str, span: Span) -> usize {
    let source = &text[span.range()];
    let line = source.find('\n').unwrap_or(source.len());
    let (tokens, _) = lex(&source[..line]);
    tokens
        .iter()
        .filter(|(token, _)| !matches!(token, Token::Comment(_) | Token::DocComment(_)))
        .map(|(_, s)| span.start() + s.end())
        .max()
        .unwrap_or(span.start() + source[..line].trim_end().len())
}
