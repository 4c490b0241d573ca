//! The lexer: never fails. Unknown bytes become `Token::Error`, an
//! unterminated string becomes `Token::UnterminatedStr`, and both are reported
//! as diagnostics while the parser carries on.

use logos::Logos;

use super::template;
use super::{Span, in_text};
use crate::diagnostic::{Code, Diagnostic};

#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[logos(skip r"[ \t\r\n\f]+")]
pub enum Token<'src> {
    #[token("table")]
    Table,
    #[token("entity")]
    Entity,
    #[token("pattern")]
    Pattern,

    /// Every other word; contextual keywords (`key`, `index`, `by`, …) are
    /// identifiers that the parser recognises by their text.
    #[regex(r"[\p{L}_][\p{L}\p{N}_]*")]
    Ident(&'src str),
    /// Digits with an optional fraction and an optional unit suffix (`2KB`);
    /// the parser decides which suffixes are allowed where.
    #[regex(r"[0-9]+(\.[0-9]+)?[A-Za-z_][A-Za-z0-9_]*|[0-9]+(\.[0-9]+)?")]
    Number(&'src str),
    /// A string on one line, quotes included.
    #[regex(r#""([^"\\\r\n]|\\[^\r\n])*""#)]
    Str(&'src str),
    /// A string missing its closing quote: it runs to the end of the line.
    #[regex(r#""([^"\\\r\n]|\\[^\r\n])*\\?"#)]
    UnterminatedStr(&'src str),

    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("[")]
    LBracket,
    #[token("]")]
    RBracket,
    #[token(",")]
    Comma,
    #[token(":")]
    Colon,
    #[token(".")]
    Dot,
    #[token("=")]
    Eq,
    #[token("<")]
    Lt,
    #[token("<=")]
    Le,
    #[token(">")]
    Gt,
    #[token(">=")]
    Ge,
    #[token("<>")]
    Ne,
    #[token("%")]
    Percent,
    #[token("->")]
    Arrow,
    #[token("?")]
    Question,
    #[token("~")]
    Tilde,
    /// `~2000/s`; a lone `/` (`//` starts a comment).
    #[token("/")]
    Slash,

    /// `// ...` (but not `///`; `////` is a plain comment, as in Rust).
    #[regex(r"//([^/\r\n][^\r\n]*)?|////[^\r\n]*", allow_greedy = true)]
    Comment(&'src str),
    /// `/// ...`: documents the item or member that follows.
    #[regex(r"///([^/\r\n][^\r\n]*)?", allow_greedy = true)]
    DocComment(&'src str),

    /// A run of bytes that starts no token.
    Error(&'src str),
}

impl Token<'_> {
    /// Comments are kept for the formatter and doc attachment but never
    /// reach the parser.
    pub fn is_trivia(self) -> bool {
        matches!(self, Token::Comment(_) | Token::DocComment(_))
    }

    /// How the token is named in "expected X, found Y" messages.
    pub fn describe(self) -> String {
        match self {
            Token::Table => "`table`".into(),
            Token::Entity => "`entity`".into(),
            Token::Pattern => "`pattern`".into(),
            Token::Ident(s) => format!("`{s}`"),
            Token::Number(s) => format!("number `{s}`"),
            Token::Str(_) | Token::UnterminatedStr(_) => "a string".into(),
            Token::Comment(_) | Token::DocComment(_) => "a comment".into(),
            Token::Error(s) => format!("`{s}`"),
            punct => format!("`{}`", punct.punct_text()),
        }
    }

    fn punct_text(self) -> &'static str {
        match self {
            Token::LBrace => "{",
            Token::RBrace => "}",
            Token::LParen => "(",
            Token::RParen => ")",
            Token::LBracket => "[",
            Token::RBracket => "]",
            Token::Comma => ",",
            Token::Colon => ":",
            Token::Dot => ".",
            Token::Eq => "=",
            Token::Lt => "<",
            Token::Le => "<=",
            Token::Gt => ">",
            Token::Ge => ">=",
            Token::Ne => "<>",
            Token::Percent => "%",
            Token::Arrow => "->",
            Token::Question => "?",
            Token::Tilde => "~",
            Token::Slash => "/",
            _ => "",
        }
    }
}

impl std::fmt::Display for Token<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe())
    }
}

/// Every token of `text`, trivia included, in order, with lexical errors.
pub fn lex(text: &str) -> (Vec<(Token<'_>, Span)>, Vec<Diagnostic>) {
    let mut tokens: Vec<(Token<'_>, Span)> = Vec::new();
    let mut diagnostics = Vec::new();
    lex_into(text, &mut diagnostics, |token, span| tokens.push((token, span)));
    (tokens, diagnostics)
}

/// Lexes `text`, handing every token to `emit` in order (a run of adjacent
/// unknown bytes is one `Error` token) and reporting lexical errors as it
/// goes, in token order. What [`lex`] collects; the parser sorts the tokens
/// as they come instead of copying a full list.
pub fn lex_into<'src>(text: &'src str, diagnostics: &mut Vec<Diagnostic>, mut emit: impl FnMut(Token<'src>, Span)) {
    let mut report = |token: Token<'src>, span: Span| {
        match token {
            Token::Error(s) => diagnostics.push(
                Diagnostic::new(
                    Code::UnknownCharacter,
                    in_text(span),
                    format!("unknown character `{s}`"),
                )
                .with_label("not part of any token"),
            ),
            Token::UnterminatedStr(raw) => {
                diagnostics.push(
                    Diagnostic::new(Code::UnterminatedString, in_text(span), "unterminated string")
                        .with_label("missing closing `\"` before the end of the line"),
                );
                template::check(raw, span.start(), diagnostics);
            }
            Token::Str(raw) => template::check(raw, span.start(), diagnostics),
            _ => {}
        }
        emit(token, span);
    };
    // Unknown bytes wait here until the run ends.
    let mut unknown: Option<Span> = None;
    for (result, range) in Token::lexer(text).spanned() {
        let span = Span::from(range);
        match result {
            Ok(token) => {
                if let Some(run) = unknown.take() {
                    report(Token::Error(&text[run.range()]), run);
                }
                report(token, span);
            }
            Err(()) => match &mut unknown {
                Some(run) if run.end() == span.start() => run.set_end(span.end()),
                _ => {
                    if let Some(run) = unknown.replace(span) {
                        report(Token::Error(&text[run.range()]), run);
                    }
                }
            },
        }
    }
    if let Some(run) = unknown {
        report(Token::Error(&text[run.range()]), run);
    }
}
