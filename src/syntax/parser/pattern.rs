//! `pattern name(known values) -> Returns[] [by attr desc] [consistent]
//!  [limit N] [get | batch get | scan [index] [segments N]] [where filter ~N%]
//!  [= query Table.index where ...]`

use chumsky::prelude::*;

use super::atoms::{
    Extra, Fail, Tokens, coded, count, dynamo_name, kw, name, number_text, paren_list, rate_hint, size_hint, span,
    string, tight,
};
use crate::diagnostic::Code;
use crate::syntax::ast::{
    CompareOp, Condition, ConditionKind, Filter, FilterExpr, FilterOp, FilterValue, Known, KnownKind, Literal,
    Modifier, Name, Operand, Operation, Pattern, Query, Returned, Share,
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
    let bound_type = just(Token::Colon).ignore_then(name());
    dynamo_name()
        .then(kind.or_not())
        .then(bound_type.or_not())
        .map_with(|((attr, kind), bound_type), e| Known {
            span: span(e.span()),
            attr,
            kind: kind.unwrap_or(KnownKind::Equal),
            bound_type,
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

/// A filter's right side: a string, number, `true`, `false`, or a word
/// (an enum value or a caller's value, told apart by the checker).
fn filter_value<'t, 'src: 't, I: Tokens<'t, 'src>, E: Fail<'t, 'src, I>>()
-> impl Parser<'t, I, FilterValue, Extra<E>> + Clone {
    choice((
        string().map(|s| FilterValue::Literal(Literal::Str(s))),
        number_text().map(|(text, at)| FilterValue::Literal(Literal::Number(text.to_string(), at))),
        kw("true").map(|at| FilterValue::Literal(Literal::Bool(true, at))),
        kw("false").map(|at| FilterValue::Literal(Literal::Bool(false, at))),
        name().map(FilterValue::Word),
    ))
    .labelled("a value")
}

/// `not` binds tighter than `and`, which binds tighter than `or`, as in
/// DynamoDB's condition expressions.
fn filter_expr<'t, 'src: 't, I: Tokens<'t, 'src>, E: Fail<'t, 'src, I>>()
-> impl Parser<'t, I, FilterExpr, Extra<E>> + Clone {
    recursive(|expr| {
        let op = choice((
            just(Token::Eq).to(FilterOp::Eq),
            just(Token::Ne).to(FilterOp::Ne),
            just(Token::Lt).to(FilterOp::Lt),
            just(Token::Le).to(FilterOp::Le),
            just(Token::Gt).to(FilterOp::Gt),
            just(Token::Ge).to(FilterOp::Ge),
        ));
        let call = |word: &'static str| kw(word).ignore_then(just(Token::LParen)).ignore_then(dynamo_name());
        let begins_with = call("begins_with")
            .then_ignore(just(Token::Comma))
            .then(filter_value())
            .then_ignore(just(Token::RParen))
            .map_with(|(attr, value), e| FilterExpr::BeginsWith {
                span: span(e.span()),
                attr,
                value,
            });
        let exists = choice((
            call("attribute_exists").map(|attr| (attr, true)),
            call("attribute_not_exists").map(|attr| (attr, false)),
        ))
        .then_ignore(just(Token::RParen))
        .map_with(|(attr, exists), e| FilterExpr::Exists {
            span: span(e.span()),
            attr,
            exists,
        });
        let group = expr
            .clone()
            .delimited_by(just(Token::LParen), just(Token::RParen))
            .map_with(|inner, e| FilterExpr::Group {
                span: span(e.span()),
                inner: Box::new(inner),
            });
        let in_list = dynamo_name()
            .then_ignore(kw("in"))
            .then(
                filter_value()
                    .separated_by(just(Token::Comma))
                    .at_least(1)
                    .collect::<Vec<_>>()
                    .delimited_by(just(Token::LParen), just(Token::RParen)),
            )
            .map_with(|(attr, values), e| FilterExpr::In {
                span: span(e.span()),
                attr,
                values,
            });
        let compare = dynamo_name()
            .then(op)
            .then(filter_value())
            .map_with(|((attr, op), value), e| FilterExpr::Compare {
                span: span(e.span()),
                attr,
                op,
                value,
            });
        let atom = choice((begins_with, exists, group, in_list, compare)).labelled("a filter condition");
        let unary = recursive(|unary| {
            kw("not")
                .ignore_then(unary)
                .map_with(|inner, e| FilterExpr::Not {
                    span: span(e.span()),
                    inner: Box::new(inner),
                })
                .or(atom)
        });
        let and = unary.clone().foldl(kw("and").ignore_then(unary).repeated(), |a, b| {
            FilterExpr::And(Box::new(a), Box::new(b))
        });
        and.clone().foldl(kw("or").ignore_then(and).repeated(), |a, b| {
            FilterExpr::Or(Box::new(a), Box::new(b))
        })
    })
}

/// `~20%`: a share of the read items, more than 0 and at most 100 percent.
fn share<'t, 'src: 't, I: Tokens<'t, 'src>, E: Fail<'t, 'src, I>>() -> impl Parser<'t, I, Share, Extra<E>> + Clone {
    just(Token::Tilde)
        .ignore_then(number_text())
        .then_ignore(just(Token::Percent))
        .validate(|(text, _), e, emitter| {
            let percent = text.parse::<f64>().unwrap_or(f64::NAN);
            if !(percent > 0.0 && percent <= 100.0) {
                emitter.emit(coded(
                    Code::InvalidNumber,
                    e.span(),
                    format!("a filter keeps more than 0% and at most 100% of what it reads, not `{text}%`"),
                ));
            }
            Share {
                span: span(e.span()),
                fraction: if percent > 0.0 && percent <= 100.0 {
                    percent / 100.0
                } else {
                    1.0
                },
                text: text.to_string(),
            }
        })
        .labelled("a share such as ~20%")
}

/// `where expr [~N%]`. A broken filter is skipped up to the next item or
/// pinned query and read as none, so the pattern survives while it is typed.
fn filter<'t, 'src: 't, I: Tokens<'t, 'src>, E: Fail<'t, 'src, I>>()
-> impl Parser<'t, I, Option<Filter>, Extra<E>> + Clone {
    let stop = one_of([Token::Table, Token::Entity, Token::Pattern, Token::Eq]).ignored();
    kw("where")
        .ignore_then(
            filter_expr()
                .then(share().or_not())
                .map_with(|(expr, keeps), e| Some((expr, keeps, e.span())))
                .recover_with(via_parser(any().and_is(stop.not()).repeated().map(|_| None))),
        )
        .map_with(|parsed, e| {
            parsed.map(|(expr, keeps, _)| Filter {
                span: span(e.span()),
                expr,
                keeps,
            })
        })
}

fn modifier<'t, 'src: 't, I: Tokens<'t, 'src>, E: Fail<'t, 'src, I>>()
-> impl Parser<'t, I, Option<Modifier>, Extra<E>> + Clone {
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
        rate_hint().map(Modifier::Rate),
    ))
    .map(Some)
    .or(filter().map(|f| f.map(Modifier::Where)))
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
            known: tight(known),
            returns: tight(returns),
            modifiers: tight(modifiers.into_iter().flatten().collect()),
            query: query.flatten(),
        })
}
