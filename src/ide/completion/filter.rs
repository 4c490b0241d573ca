//! Completion inside a pattern's filter (`where ...`): the returned
//! entities' attributes and the filter's functions where a condition
//! starts, `in` after an attribute, an enum's words after `=` or `<>`, and
//! `and`, `or` and the modifiers after a condition.

use super::lists::{attributes, fixed_values, modifiers};
use super::{Completion, CompletionKind, Cx};
use crate::syntax::lexer::Token;

/// Where a condition can start: after `where`, `and`, `or`, `not` or `(`.
fn starts_condition(token: Token<'_>) -> bool {
    matches!(token, Token::Ident("where" | "and" | "or" | "not") | Token::LParen)
}

fn is_operator(token: Token<'_>) -> bool {
    matches!(
        token,
        Token::Eq | Token::Ne | Token::Lt | Token::Le | Token::Gt | Token::Ge
    )
}

impl Cx<'_> {
    /// Completions at the end of the first `before` tokens, inside the
    /// filter of the pattern starting at token `start`.
    pub(super) fn in_filter(&self, start: usize, before: usize) -> Vec<Completion> {
        let prev = before - 1;
        let prev_token = self.sig[prev].0;
        let returned = self.returned(start);
        // `begins_with(` and `attribute_exists(` take an attribute.
        let in_call = prev_token == Token::LParen
            && matches!(
                self.word(prev - 1),
                Some("begins_with" | "attribute_exists" | "attribute_not_exists")
            );
        if in_call {
            return attributes(self.model, &returned, false);
        }
        if matches!(prev_token, Token::Eq | Token::Ne) || (prev_token == Token::LParen && self.is_word(prev - 1, "in"))
        {
            let attr_at = if prev_token == Token::LParen {
                prev - 2
            } else {
                prev - 1
            };
            return match self.name_at(attr_at) {
                Some(attr) => fixed_values(self.model, &returned, &attr),
                None => Vec::new(),
            };
        }
        if starts_condition(prev_token) {
            let mut out = attributes(self.model, &returned, false);
            out.extend([
                Completion::new("begins_with", CompletionKind::Keyword)
                    .detail("a string attribute's prefix")
                    .snippet("begins_with(${1:attr}, ${2:prefix})"),
                Completion::new("attribute_exists", CompletionKind::Keyword)
                    .detail("the item has the attribute")
                    .snippet("attribute_exists(${1:attr})"),
                Completion::new("attribute_not_exists", CompletionKind::Keyword)
                    .detail("the item lacks the attribute")
                    .snippet("attribute_not_exists(${1:attr})"),
                Completion::new("not", CompletionKind::Keyword).detail("negates the condition after it"),
            ]);
            return out;
        }
        if is_operator(prev_token) || matches!(prev_token, Token::Comma | Token::Tilde) {
            return Vec::new();
        }
        // Right after an attribute that starts a condition.
        if matches!(prev_token, Token::Ident(_) | Token::Str(_)) && self.token(prev - 1).is_some_and(starts_condition) {
            return vec![Completion::new("in", CompletionKind::Keyword).detail("one of a list: `attr in (a, b)`")];
        }
        let mut out = vec![
            Completion::new("and", CompletionKind::Keyword).detail("both conditions"),
            Completion::new("or", CompletionKind::Keyword).detail("either condition"),
        ];
        out.extend(modifiers());
        out
    }
}
