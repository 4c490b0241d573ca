//! Folding ranges: every table, entity and multi-line pattern, `item { }`
//! blocks, and runs of comment lines.

use super::File;
use crate::syntax::Span;
use crate::syntax::ast::Item;
use crate::syntax::lexer::{Token, lex};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FoldKind {
    Region,
    Comment,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fold {
    pub span: Span,
    pub kind: FoldKind,
}

pub fn folds(file: &File) -> Vec<Fold> {
    let text = &file.text;
    let multi_line = |span: Span| text.get(span.range()).is_some_and(|s| s.trim_end().contains('\n'));
    let mut out = Vec::new();
    for item in &file.analysis.parse.file.items {
        let span = item.span();
        if multi_line(span) {
            out.push(Fold {
                span,
                kind: FoldKind::Region,
            });
        }
        if let Item::Entity(entity) = item {
            out.extend(
                entity
                    .items
                    .iter()
                    .map(|i| i.span)
                    .filter(|s| multi_line(*s))
                    .map(|span| Fold {
                        span,
                        kind: FoldKind::Region,
                    }),
            );
        }
    }
    // Consecutive comment lines fold together.
    let (tokens, _) = lex(text);
    let mut run: Option<Span> = None;
    for (token, span) in tokens {
        let is_comment = matches!(token, Token::Comment(_) | Token::DocComment(_));
        match (&mut run, is_comment) {
            (Some(current), true) if text[current.end()..span.start()].matches('\n').count() == 1 => {
                current.set_end(span.end())
            }
            (_, true) => {
                if let Some(done) = run.take().filter(|s| multi_line(*s)) {
                    out.push(Fold {
                        span: done,
                        kind: FoldKind::Comment,
                    });
                }
                run = Some(span);
            }
            (_, false) => {
                if let Some(done) = run.take().filter(|s| multi_line(*s)) {
                    out.push(Fold {
                        span: done,
                        kind: FoldKind::Comment,
                    });
                }
            }
        }
    }
    if let Some(done) = run.filter(|s| multi_line(*s)) {
        out.push(Fold {
            span: done,
            kind: FoldKind::Comment,
        });
    }
    out.sort_by_key(|f| f.span.start());
    out
}
