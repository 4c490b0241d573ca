//! `pattern name(known values) -> Returns[] [by attr desc] [consistent]
//!  [limit N] [get | batch get | scan [index] [segments N]]
//!  [= query Table.index where ...]`

use chumsky::prelude::*;

use super::atoms::{
    Extra, Fail, Tokens, coded, count, dynamo_name, kw, name, number_text, paren_list, size_hint, span, string,
};
use crate::diagnostic::Code;
use crate::syntax::ast::{
    CompareOp, Condition, ConditionKind, Known, KnownKind, Literal, Modifier, Name, Operand, Operation, Pattern, Query,
    Returned,
};
use crate::syntax::lexer::Token;
use crate::syntax::names::CLAUSE_WORDS;

fn compare_op<'t, 'src: 't, I: Tokens<'t, 'src>, E: Fail<'t, 'src, I>>()
-> impl Parser<'t, I, CompareOp, Extra<E>> + Clone {
    select! {
        Token::Lt => CompareOp::Lt,
        Token::Le => CompareOp::Le,
        Token::Gt => CompareOp::Gt,
        Token::Ge => CompareOp::Ge,
    }
}

fn literal<'t, 'src: 't, I: Tokens<'t, 'src>, E: Fail<'t, 'src, I>>() -> impl Parser<'t, I, Literal, Extra<E>> + Clone {
    choice((
        string().map(Literal::Str),
        number_text().map(|(text, at)| Literal::Number(text.to_string(), at)),
        kw("true").map(|at| Literal::Bool(true, at)),
        kw("false").map(|at| Literal::Bool(false, at)),
        // A bare word, as enum values are declared: `status = open`.
        name().map(Literal::Word),
    ))
    .labelled("a value")
}

fn known<'t, 'src: 't, I: Tokens<'t, 'src>, E: Fail<'t, 'src, I>>() -> impl Parser<'t, I, Known, Extra<E>> + Clone {
    let kind = choice((
        just(Token::Eq).ignore_then(literal()).map(KnownKind::Fixed),
        compare_op()
            .then(name())
            .map(|(op, bound)| KnownKind::Compare(op, bound)),
        kw("between")
            .ignore_then(name())
            .then_ignore(kw("and"))
            .then(name())
            .map(|(low, high)| KnownKind::Between(low, high)),
        kw("begins_with").ignore_then(name()).map(KnownKind::BeginsWith),
    ));
    dynamo_name().then(kind.or_not()).map_with(|(attr, kind), e| Known {
        span: span(e.span()),
        attr,
        kind: kind.unwrap_or(KnownKind::Equal),
    })
}

fn returned<'t, 'src: 't, I: Tokens<'t, 'src>, E: Fail<'t, 'src, I>>() -> impl Parser<'t, I, Returned, Extra<E>> + Clone
{
    name()
        .then(just(Token::LBracket).then(just(Token::RBracket)).or_not())
        .then(size_hint().or_not())
        .map_with(|((entity, many), count), e| Returned {
            span: span(e.span()),
            entity,
            many: many.is_some(),
            count,
        })
        .labelled("an entity name")
}

fn modifier<'t, 'src: 't, I: Tokens<'t, 'src>, E: Fail<'t, 'src, I>>() -> impl Parser<'t, I, Modifier, Extra<E>> + Clone
{
    let direction = choice((kw("asc").to(false), kw("desc").to(true)));
    choice((
        kw("by")
            .ignore_then(dynamo_name())
            .then(direction.or_not())
            .map_with(|(attr, descending), e| Modifier::OrderBy {
                span: span(e.span()),
                attr,
                descending: descending.unwrap_or(false),
            }),
        kw("consistent").map(Modifier::Consistent),
        kw("limit")
            .ignore_then(count())
            .map_with(|(count, _), e| Modifier::Limit {
                span: span(e.span()),
                count,
            }),
        operation().map_with(|operation, e| Modifier::Operation {
            span: span(e.span()),
            operation,
        }),
        kw("segments")
            .ignore_then(count())
            .map_with(|(count, _), e| Modifier::Segments {
                span: span(e.span()),
                count,
            }),
    ))
}

fn operation<'t, 'src: 't, I: Tokens<'t, 'src>, E: Fail<'t, 'src, I>>()
-> impl Parser<'t, I, Operation, Extra<E>> + Clone {
    // A quoted name's span is longer than its text: `scan "limit"` names an index.
    let index =
        dynamo_name().filter(|n: &Name| n.span.len() != n.text.len() || !CLAUSE_WORDS.contains(&n.text.as_str()));
    choice((
        kw("get").to(Operation::Get),
        kw("batch").ignore_then(kw("get")).to(Operation::BatchGet),
        kw("scan").ignore_then(index.or_not()).map(Operation::Scan),
    ))
}

fn query<'t, 'src: 't, I: Tokens<'t, 'src>, E: Fail<'t, 'src, I>>() -> impl Parser<'t, I, Query, Extra<E>> + Clone {
    let operand = choice((
        string().map(Operand::Str),
        number_text().map(|(text, at)| Operand::Number(text.to_string(), at)),
        name().map(Operand::Param),
    ))
    .labelled("a value");

    let begins_with = kw("begins_with")
        .ignore_then(
            dynamo_name()
                .then_ignore(just(Token::Comma))
                .then(operand.clone())
                .delimited_by(just(Token::LParen), just(Token::RParen)),
        )
        .map(|(key, prefix)| (key, ConditionKind::BeginsWith(prefix)));
    let between = dynamo_name()
        .then_ignore(kw("between"))
        .then(operand.clone())
        .then_ignore(kw("and"))
        .then(operand.clone())
        .map(|((key, low), high)| (key, ConditionKind::Between(low, high)));
    let compare = dynamo_name()
        .then(just(Token::Eq).to(CompareOp::Eq).or(compare_op()))
        .then(operand)
        .map(|((key, op), value)| (key, ConditionKind::Compare(op, value)));
    let condition = choice((begins_with, between, compare))
        .map_with(|(key, kind), e| Condition {
            span: span(e.span()),
            key,
            kind,
        })
        .labelled("a key condition");

    kw("query")
        .ignore_then(dynamo_name())
        .then(just(Token::Dot).ignore_then(dynamo_name()).or_not())
        .then_ignore(kw("where"))
        .then(condition.separated_by(kw("and")).at_least(1).collect::<Vec<_>>())
        .map_with(|((table, index), conditions), e| Query {
            span: span(e.span()),
            table,
            index,
            conditions,
        })
}

pub fn pattern<'t, 'src: 't, I: Tokens<'t, 'src>, E: Fail<'t, 'src, I>>()
-> impl Parser<'t, I, Pattern, Extra<E>> + Clone {
    let item_start = one_of([Token::Table, Token::Entity, Token::Pattern]).ignored();

    // `-> A, B[]`; a half-typed `->` keeps the pattern, with an error.
    let returns = just(Token::Arrow)
        .ignore_then(returned().separated_by(just(Token::Comma)).collect::<Vec<_>>())
        .validate(|returns, e, emitter| {
            if returns.is_empty() {
                emitter.emit(coded(
                    Code::UnexpectedToken,
                    e.span(),
                    "expected the returned entities after `->`",
                ));
            }
            returns
        });
    let returns = returns.or_not().validate(|returns, e, emitter| {
        returns.unwrap_or_else(|| {
            emitter.emit(coded(
                Code::UnexpectedToken,
                e.span(),
                "expected `->` and the entities this pattern returns",
            ));
            Vec::new()
        })
    });

    // A broken pinned query is skipped up to the next item and read as none,
    // so the pattern itself survives while it is being typed.
    let pinned = just(Token::Eq).ignore_then(
        query()
            .map(Some)
            .recover_with(via_parser(any().and_is(item_start.not()).repeated().map(|_| None))),
    );

    just(Token::Pattern)
        .ignore_then(name())
        .then(paren_list(known()))
        .then(returns)
        .then(modifier().repeated().collect::<Vec<_>>())
        .then(pinned.or_not())
        .map_with(|((((name, known), returns), modifiers), query), e| Pattern {
            span: span(e.span()),
            docs: None,
            name,
            known,
            returns,
            modifiers,
            query: query.flatten(),
        })
}
