//! Small parsers shared by every item: names, contextual keywords, strings,
//! numbers, size hints, and the recovery that resynchronises a body at the
//! next member.

use chumsky::error::LabelError;
use chumsky::input::ValueInput;
use chumsky::prelude::*;

use crate::diagnostic::Code;
use crate::syntax::ast::{Name, RateHint, Segment, SizeHint, SizeUnit, StringLit};
use crate::syntax::lexer::Token;
use crate::syntax::{Span, names, template};

pub type Extra<E> = extra::Err<E>;

/// What the parsers need of their error type: `Rich` errors, which say
/// what was expected. The grammar runs only on chunks the hand-written
/// parser (`direct`) found an error in; before that parser, it also ran
/// with chumsky's `EmptyErr` as a first pass, which is why it is generic.
pub trait Fail<'t, 'src: 't, I: Tokens<'t, 'src>>:
    chumsky::error::Error<'t, I> + LabelError<'t, I, &'static str> + 't
{
    /// A custom parse error with its diagnostic code.
    fn coded(code: Code, at: SimpleSpan, message: impl std::fmt::Display) -> Self;
}

impl<'t, 'src: 't, I: Tokens<'t, 'src>> Fail<'t, 'src, I> for Rich<'t, Token<'src>, SimpleSpan> {
    fn coded(code: Code, at: SimpleSpan, message: impl std::fmt::Display) -> Self {
        Rich::custom(at, format!("{}|{message}", code.as_str()))
    }
}

/// The token stream the parsers read: trivia already removed.
pub trait Tokens<'t, 'src: 't>: ValueInput<'t, Token = Token<'src>, Span = SimpleSpan> {}
impl<'t, 'src: 't, I: ValueInput<'t, Token = Token<'src>, Span = SimpleSpan>> Tokens<'t, 'src> for I {}

/// chumsky gives a zero-width parse (a missing piece) the span from the
/// next token's start back to the previous token's end; such an inverted
/// span becomes an empty span right after the previous token.
pub fn span(s: SimpleSpan) -> Span {
    if s.start > s.end {
        Span::empty(s.end)
    } else {
        Span::new(s.start, s.end)
    }
}

/// A custom parse error with its diagnostic code, decoded again in
/// `parser::to_diagnostic`.
pub fn coded<'t, 'src: 't, I: Tokens<'t, 'src>, E: Fail<'t, 'src, I>>(
    code: Code,
    at: SimpleSpan,
    message: impl std::fmt::Display,
) -> E {
    E::coded(code, at, message)
}

pub fn name<'t, 'src: 't, I: Tokens<'t, 'src>, E: Fail<'t, 'src, I>>() -> impl Parser<'t, I, Name, Extra<E>> + Clone {
    select! { Token::Ident(text) => text }
        .map_with(|text, e| Name::new(text, span(e.span())))
        .labelled("a name")
}

/// The name of a DynamoDB thing (table, index, key, attribute): an
/// identifier or a quoted name (`"GSI1-PK"`). The name's text is the quoted
/// content with its escapes decoded; its span covers the quotes. An
/// unterminated quoted name is accepted (the lexer has reported it) so that
/// the rest of the line still parses.
pub fn dynamo_name<'t, 'src: 't, I: Tokens<'t, 'src>, E: Fail<'t, 'src, I>>()
-> impl Parser<'t, I, Name, Extra<E>> + Clone {
    let quoted = select! { Token::Str(raw) => raw, Token::UnterminatedStr(raw) => raw }.validate(|raw, e, emitter| {
        let at = span(e.span());
        let segments = template::split(raw, at.start(), &mut Vec::new());
        if let Some(hole) = segments.iter().find(|s| matches!(s, Segment::Hole { .. })) {
            let hole = hole.span();
            emitter.emit(coded(
                Code::InvalidQuotedName,
                (hole.start()..hole.end()).into(),
                "a name has no holes: write \\{ and \\} for literal braces",
            ));
        } else if segments.is_empty() {
            emitter.emit(coded(Code::InvalidQuotedName, e.span(), "a name cannot be empty"));
        }
        Name::new(names::read(raw), at)
    });
    name().or(quoted).labelled("a name")
}

/// A contextual keyword: an identifier with this exact text.
pub fn kw<'t, 'src: 't, I: Tokens<'t, 'src>, E: Fail<'t, 'src, I>>(
    word: &'static str,
) -> impl Parser<'t, I, Span, Extra<E>> + Clone {
    just(Token::Ident(word)).map_with(|_, e| span(e.span()))
}

/// A string literal, split into literal text and holes. An unterminated
/// string is accepted here (the lexer has reported it) so that the rest of
/// the line still parses.
pub fn string<'t, 'src: 't, I: Tokens<'t, 'src>, E: Fail<'t, 'src, I>>()
-> impl Parser<'t, I, StringLit, Extra<E>> + Clone {
    select! { Token::Str(raw) => raw, Token::UnterminatedStr(raw) => raw }
        .map_with(|raw, e| {
            let at = span(e.span());
            // Template errors were reported by the lexer already.
            let segments = template::split(raw, at.start(), &mut Vec::new());
            StringLit { span: at, segments }
        })
        .labelled("a string")
}

/// The raw text of a number token.
pub fn number_text<'t, 'src: 't, I: Tokens<'t, 'src>, E: Fail<'t, 'src, I>>()
-> impl Parser<'t, I, (&'src str, Span), Extra<E>> + Clone {
    select! { Token::Number(text) => text }
        .map_with(|text, e| (text, span(e.span())))
        .labelled("a number")
}

/// A whole number without unit (`pad 6`, `limit 10`).
pub fn count<'t, 'src: 't, I: Tokens<'t, 'src>, E: Fail<'t, 'src, I>>()
-> impl Parser<'t, I, (u64, Span), Extra<E>> + Clone {
    number_text().validate(|(text, at), e, emitter| match text.parse::<u64>() {
        Ok(n) => (n, at),
        Err(_) => {
            emitter.emit(coded(
                Code::InvalidNumber,
                e.span(),
                format!("expected a whole number, found `{text}`"),
            ));
            (0, at)
        }
    })
}

/// `~2KB`, `~1500`, `~200`.
pub fn size_hint<'t, 'src: 't, I: Tokens<'t, 'src>, E: Fail<'t, 'src, I>>()
-> impl Parser<'t, I, SizeHint, Extra<E>> + Clone {
    just(Token::Tilde)
        .ignore_then(number_text())
        .validate(|(text, _), e, emitter| {
            let (amount, unit) = size_amount(text);
            let unit = unit.unwrap_or_else(|other| {
                emitter.emit(coded(
                    Code::InvalidNumber,
                    e.span(),
                    format!("unknown size unit `{other}`: use B, KB or MB"),
                ));
                SizeUnit::None
            });
            SizeHint {
                span: span(e.span()),
                amount,
                unit,
            }
        })
        // `~2000/s` is a rate, not a size.
        .then_ignore(just(Token::Slash).not())
        .labelled("a size hint")
}

/// A size hint's number (`1500`, `2KB`): its amount, and its unit or the
/// suffix that is none.
pub(super) fn size_amount(text: &str) -> (f64, Result<SizeUnit, &str>) {
    let digits_end = text
        .find(|c: char| c.is_ascii_alphabetic() || c == '_')
        .unwrap_or(text.len());
    let (digits, suffix) = text.split_at(digits_end);
    let unit = match suffix {
        "" => Ok(SizeUnit::None),
        "B" => Ok(SizeUnit::Bytes),
        "KB" => Ok(SizeUnit::KiloBytes),
        "MB" => Ok(SizeUnit::MegaBytes),
        other => Err(other),
    };
    (digits.parse().unwrap_or(0.0), unit)
}

/// `~2000/s`: requests per second.
pub fn rate_hint<'t, 'src: 't, I: Tokens<'t, 'src>, E: Fail<'t, 'src, I>>()
-> impl Parser<'t, I, RateHint, Extra<E>> + Clone {
    just(Token::Tilde)
        .ignore_then(number_text())
        .then_ignore(just(Token::Slash))
        .then(name())
        .validate(|((text, _), unit), e, emitter| {
            let per_second = text.parse::<f64>().ok().filter(|n| n.is_finite() && *n > 0.0);
            if per_second.is_none() {
                emitter.emit(coded(
                    Code::InvalidNumber,
                    e.span(),
                    format!("a rate is a positive number per second, not `{text}`"),
                ));
            } else if unit.text != "s" {
                emitter.emit(coded(
                    Code::InvalidNumber,
                    e.span(),
                    format!("a rate is per second: write `~{text}/s`, not `/{}`", unit.text),
                ));
            }
            RateHint {
                span: span(e.span()),
                per_second: per_second.unwrap_or(0.0),
                text: text.to_string(),
            }
        })
        .labelled("a rate such as ~500/s")
}

/// Recovery for one member of a `{ ... }` body: skip the broken member's
/// tokens up to the next token that starts a member (`member_start`) or ends
/// the body (`}` or an item keyword). The parse error itself is kept.
pub fn skip_member<'t, 'src: 't, I, E, S, O>(member_start: S) -> impl Parser<'t, I, Option<O>, Extra<E>> + Clone
where
    I: Tokens<'t, 'src>,
    E: Fail<'t, 'src, I>,
    S: Parser<'t, I, (), Extra<E>> + Clone,
{
    let stop = one_of([Token::RBrace, Token::Table, Token::Entity, Token::Pattern]).ignored();
    any()
        .and_is(stop.not())
        .then(any().and_is(stop.not()).and_is(member_start.not()).repeated())
        .map(|_| None)
}

/// `{ members }`. When the `}` is missing the body still counts (its
/// members were read up to the next item keyword), and the error points at
/// the `{` that was never closed.
pub fn braced<'t, 'src: 't, I, E, P, O>(members: P, what: &'static str) -> impl Parser<'t, I, O, Extra<E>> + Clone
where
    I: Tokens<'t, 'src>,
    E: Fail<'t, 'src, I>,
    P: Parser<'t, I, O, Extra<E>> + Clone,
{
    just(Token::LBrace)
        .map_with(|_, e| e.span())
        .then(members)
        .then(just(Token::RBrace).or_not())
        .validate(move |((open, members), closed), _, emitter| {
            if closed.is_none() {
                emitter.emit(coded(
                    Code::UnclosedDelimiter,
                    open,
                    format!("unclosed `{{` of this {what}"),
                ));
            }
            members
        })
}

/// A list without the room it grew into: the tree is kept for the life of a
/// revision, and a list grown one element at a time keeps up to half of it
/// unused.
pub fn tight<T>(mut list: Vec<T>) -> Vec<T> {
    list.shrink_to_fit();
    list
}

/// A parenthesised, comma-separated list; a broken list is skipped as a
/// whole (respecting nesting) and reads as empty. The skip stops at an item
/// keyword, as every recovery does: a keyword always starts an item (which
/// is what lets a text be parsed item by item).
pub fn paren_list<'t, 'src: 't, I, E, P, O>(element: P) -> impl Parser<'t, I, Vec<O>, Extra<E>> + Clone
where
    I: Tokens<'t, 'src>,
    E: Fail<'t, 'src, I>,
    P: Parser<'t, I, O, Extra<E>> + Clone,
{
    element
        .separated_by(just(Token::Comma))
        .allow_trailing()
        .collect::<Vec<_>>()
        .map(tight)
        .delimited_by(just(Token::LParen), just(Token::RParen))
        .recover_with(via_parser(balanced_group().map(|_| Vec::new())))
}

/// `( ... )` with whatever nests inside (`(…)` and `[…]` pairs), up to its
/// matching `)`, never past an item keyword.
fn balanced_group<'t, 'src: 't, I, E>() -> impl Parser<'t, I, (), Extra<E>> + Clone
where
    I: Tokens<'t, 'src>,
    E: Fail<'t, 'src, I>,
{
    let stop = one_of([
        Token::LParen,
        Token::RParen,
        Token::LBracket,
        Token::RBracket,
        Token::Table,
        Token::Entity,
        Token::Pattern,
    ]);
    let nested = recursive(|group| {
        let inside = group.or(any().and_is(stop.not()).ignored()).repeated();
        choice((
            just(Token::LParen)
                .then(inside.clone())
                .then(just(Token::RParen))
                .ignored(),
            just(Token::LBracket).then(inside).then(just(Token::RBracket)).ignored(),
        ))
    });
    just(Token::LParen)
        .then(nested.or(any().and_is(stop.not()).ignored()).repeated())
        .then(just(Token::RParen))
        .ignored()
}
