//! `table Name { key ...  [local] index ...  delimiter "..."  ttl attr }`

use chumsky::prelude::*;

use super::atoms::{Extra, Fail, Tokens, braced, coded, dynamo_name, kw, name, paren_list, skip_member, span, string};
use crate::diagnostic::Code;
use crate::syntax::ast::{DelimiterDecl, IndexDecl, KeyAttr, KeyDecl, KeyPart, KeyType, Projection, Table, TtlDecl};
use crate::syntax::lexer::Token;

enum Member {
    Key(KeyDecl),
    Index(IndexDecl),
    Delimiter(DelimiterDecl),
    Ttl(TtlDecl),
}

/// `pk` or `pk: number`
fn key_attr<'t, 'src: 't, I: Tokens<'t, 'src>, E: Fail<'t, 'src, I>>() -> impl Parser<'t, I, KeyAttr, Extra<E>> + Clone
{
    dynamo_name()
        .then(just(Token::Colon).ignore_then(name()).or_not())
        .validate(|(name, ty), _, emitter| {
            let ty = ty.map(|word| match KeyType::from_word(&word.text) {
                Some(ty) => (ty, word.span),
                None => {
                    emitter.emit(coded(
                        Code::UnknownKeyType,
                        (word.span.start()..word.span.end()).into(),
                        format!("unknown key type `{}`: use string, number or binary", word.text),
                    ));
                    (KeyType::String, word.span)
                }
            });
            KeyAttr { name, ty }
        })
}

/// `pk`, `pk: number`, or a list `[tenantId, region: string]`: a key
/// composed of several attributes (the checker says where that is allowed).
fn key_part<'t, 'src: 't, I: Tokens<'t, 'src>, E: Fail<'t, 'src, I>>() -> impl Parser<'t, I, KeyPart, Extra<E>> + Clone
{
    let list = key_attr()
        .separated_by(just(Token::Comma))
        .allow_trailing()
        .at_least(1)
        .collect::<Vec<_>>()
        .delimited_by(just(Token::LBracket), just(Token::RBracket))
        .map_with(|attrs, e| KeyPart {
            attrs,
            list: Some(span(e.span())),
        });
    choice((list, key_attr().map(KeyPart::single)))
}

fn projection<'t, 'src: 't, I: Tokens<'t, 'src>, E: Fail<'t, 'src, I>>()
-> impl Parser<'t, I, Projection, Extra<E>> + Clone {
    choice((
        kw("all").map(Projection::All),
        kw("keys_only").map(Projection::KeysOnly),
        kw("include")
            .then(paren_list(dynamo_name()))
            .map_with(|(_, names), e| Projection::Include(span(e.span()), names)),
    ))
}

pub fn table<'t, 'src: 't, I: Tokens<'t, 'src>, E: Fail<'t, 'src, I>>() -> impl Parser<'t, I, Table, Extra<E>> + Clone {
    let key_decl = kw("key")
        .ignore_then(key_part())
        .then(just(Token::Comma).ignore_then(key_part()).or_not())
        .map_with(|(partition, sort), e| {
            Member::Key(KeyDecl {
                span: span(e.span()),
                partition,
                sort,
            })
        });

    let index_keys = key_part()
        .then(just(Token::Comma).ignore_then(key_part()).or_not())
        .delimited_by(just(Token::LParen), just(Token::RParen));
    let index_decl = kw("local")
        .or_not()
        .then_ignore(kw("index"))
        .then(dynamo_name())
        .then(index_keys)
        .then(projection().or_not())
        .map_with(|(((local, name), (partition, sort)), projection), e| {
            Member::Index(IndexDecl {
                span: span(e.span()),
                docs: None,
                local: local.is_some(),
                name,
                partition,
                sort,
                projection: projection.unwrap_or_default(),
            })
        });

    let delimiter_decl = kw("delimiter").ignore_then(string()).map_with(|value, e| {
        Member::Delimiter(DelimiterDecl {
            span: span(e.span()),
            value,
        })
    });

    let ttl_decl = kw("ttl").ignore_then(dynamo_name()).map_with(|attribute, e| {
        Member::Ttl(TtlDecl {
            span: span(e.span()),
            attribute,
        })
    });

    let member_start = select! {
        Token::Ident("key" | "index" | "local" | "delimiter" | "ttl") => (),
    };
    let member = choice((key_decl, index_decl, delimiter_decl, ttl_decl))
        .map(Some)
        .recover_with(via_parser(skip_member(member_start)));

    just(Token::Table)
        .ignore_then(dynamo_name())
        .then(braced(member.repeated().collect::<Vec<_>>(), "table"))
        .map_with(|(name, members), e| {
            let mut table = Table {
                span: span(e.span()),
                docs: None,
                name,
                keys: Vec::new(),
                indexes: Vec::new(),
                delimiters: Vec::new(),
                ttls: Vec::new(),
            };
            for member in members.into_iter().flatten() {
                match member {
                    Member::Key(k) => table.keys.push(k),
                    Member::Index(i) => table.indexes.push(i),
                    Member::Delimiter(d) => table.delimiters.push(d),
                    Member::Ttl(t) => table.ttls.push(t),
                }
            }
            table.keys.shrink_to_fit();
            table.indexes.shrink_to_fit();
            table.delimiters.shrink_to_fit();
            table.ttls.shrink_to_fit();
            table
        })
}
