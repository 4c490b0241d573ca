//! `entity Name [in Table] [~size] { attributes, key templates, item shapes }`

use chumsky::prelude::*;

use super::atoms::{
    Extra, Fail, Tokens, braced, coded, count, dynamo_name, kw, name, paren_list, rate_hint, size_hint, skip_member,
    span, string, tight,
};
use crate::diagnostic::Code;
use crate::syntax::ast::{Attribute, Entity, ItemShape, KeyTemplate, TypeArg, TypeRef};
use crate::syntax::lexer::Token;

enum Member {
    Attribute(Attribute),
    Key(KeyTemplate),
    Item(ItemShape),
}

fn type_ref<'t, 'src: 't, I: Tokens<'t, 'src>, E: Fail<'t, 'src, I>>() -> impl Parser<'t, I, TypeRef, Extra<E>> + Clone
{
    let arg = choice((
        kw("pad").ignore_then(count()).map_with(|(width, _), e| TypeArg::Pad {
            span: span(e.span()),
            width: width.min(u32::MAX as u64) as u32,
        }),
        size_hint().map(TypeArg::Size),
        count().map_with(|(value, _), e| TypeArg::Count {
            span: span(e.span()),
            value,
        }),
        kw("of").ignore_then(dynamo_name()).map(TypeArg::Of),
        name().map(TypeArg::Word),
        string().map(TypeArg::Str),
    ));
    // A type is never followed by `:` or `=`: a name that is must be the
    // next member, and the type is missing (a half-typed `email:` line).
    let type_name = name()
        .labelled("a type")
        .then(one_of([Token::Colon, Token::Eq]).rewind().or_not())
        .try_map(|(name, next), at| match next {
            None => Ok(name),
            Some(_) => Err(coded(
                Code::UnexpectedToken,
                at,
                format!("expected a type, found `{}`", name.text),
            )),
        });
    type_name
        .then(paren_list(arg).or_not())
        .map_with(|(name, args), e| TypeRef {
            span: span(e.span()),
            name,
            args: args.unwrap_or_default(),
        })
}

/// `pk = "USER#{userId}"`
pub fn key_template<'t, 'src: 't, I: Tokens<'t, 'src>, E: Fail<'t, 'src, I>>()
-> impl Parser<'t, I, KeyTemplate, Extra<E>> + Clone {
    dynamo_name()
        .then_ignore(just(Token::Eq))
        .then(string())
        .map_with(|(key, template), e| KeyTemplate {
            span: span(e.span()),
            docs: None,
            key,
            template,
        })
}

pub fn entity<'t, 'src: 't, I: Tokens<'t, 'src>, E: Fail<'t, 'src, I>>() -> impl Parser<'t, I, Entity, Extra<E>> + Clone
{
    let attribute = dynamo_name()
        .then_ignore(just(Token::Colon))
        .then(type_ref())
        .then(just(Token::Question).or_not())
        .map_with(|((name, ty), optional), e| {
            Member::Attribute(Attribute {
                span: span(e.span()),
                docs: None,
                name,
                ty,
                optional: optional.is_some(),
            })
        });

    let key_start = dynamo_name().then(just(Token::Eq)).ignored();
    let shape_key = key_template()
        .map(Some)
        .recover_with(via_parser(skip_member(key_start)));
    let item_shape = kw("item")
        .ignore_then(braced(shape_key.repeated().collect::<Vec<_>>(), "item"))
        .map_with(|keys, e| {
            Member::Item(ItemShape {
                span: span(e.span()),
                keys: tight(keys.into_iter().flatten().collect()),
            })
        });

    let member_start = choice((
        kw("item").then(just(Token::LBrace)).ignored(),
        dynamo_name().then(one_of([Token::Colon, Token::Eq])).ignored(),
    ));
    let member = choice((item_shape, attribute, key_template().map(Member::Key)))
        .map(Some)
        .recover_with(via_parser(skip_member(member_start)));

    just(Token::Entity)
        .ignore_then(name())
        .then(kw("in").ignore_then(dynamo_name()).or_not())
        .then(size_hint().or_not())
        .then(rate_hint().or_not())
        .then(braced(member.repeated().collect::<Vec<_>>(), "entity"))
        .map_with(|((((name, table), size), rate), members), e| {
            let mut entity = Entity {
                span: span(e.span()),
                docs: None,
                name,
                table,
                size,
                rate,
                attributes: Vec::new(),
                keys: Vec::new(),
                items: Vec::new(),
            };
            for member in members.into_iter().flatten() {
                match member {
                    Member::Attribute(a) => entity.attributes.push(a),
                    Member::Key(k) => entity.keys.push(k),
                    Member::Item(i) => entity.items.push(i),
                }
            }
            // Lists grown one member at a time keep up to half their room
            // unused: the tree is kept for the life of a revision.
            entity.attributes.shrink_to_fit();
            entity.keys.shrink_to_fit();
            entity.items.shrink_to_fit();
            entity
        })
}
