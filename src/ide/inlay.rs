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
    for (id, pattern) in analysis.schema.model.pattern_ids() {
        let Some(served) = file.served(id) else { continue };
        let via = served.index.as_deref().unwrap_or("table");
        let cost = &served.cost;
        let rcu = if cost.rcu.fract() == 0.0 {
            format!("{}", cost.rcu as i64)
        } else {
            format!("{}", cost.rcu)
        };
        // A read over every write shard: that many Queries.
        let times = if cost.requests > 1 {
            format!(" ×{}", cost.requests)
        } else {
            String::new()
        };
        out.push(Hint {
            offset: first_line_end(&file.text, pattern.span),
            label: format!("{via}{times} · {rcu} RCU"),
            tooltip: cost.describe(),
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
        .map(|(_, s)| span.start + s.end)
        .max()
        .unwrap_or(span.start + source[..line].trim_end().len())
}
