//! The parser's fast path: a hand-written recursive descent over the same
//! tokens, reading an item exactly as the grammar (`table`, `entity`,
//! `pattern`, `atoms`) reads it when nothing in it is an error, and giving
//! up at the first thing that would be one. The grammar's own parse, which
//! says what was expected and recovers, takes the chunk then, so every
//! message and every partial tree stay the grammar's.
//!
//! Why: chumsky's combinators spent most of a parse's instructions trying
//! alternatives and threading their state (docs/performance.md, "a
//! hand-written parser for the hot path"); here a token of lookahead picks
//! the rule, and only the few places the grammar backtracks try again.
//!
//! Its one obligation: where it returns items, the grammar reads the same
//! items without an error; and where the grammar reads a chunk without an
//! error, so does this (`tests`: every example and fixture, random edits of
//! them, and random token sequences near the grammar's edges).

use super::atoms::{size_amount, tight};
use crate::syntax::ast::{
    Attribute, CompareOp, Condition, ConditionKind, DelimiterDecl, Entity, Filter, FilterExpr, FilterOp, FilterValue,
    IndexDecl, Item, ItemShape, KeyAttr, KeyDecl, KeyPart, KeyTemplate, KeyType, Known, KnownKind, Literal, Modifier,
    Name, Operand, Operation, Pattern, Projection, Query, RateHint, Returned, Segment, Share, SizeHint, StringLit,
    Table, TtlDecl, TypeArg, TypeRef,
};
use crate::syntax::lexer::Token;
use crate::syntax::names::{self, CLAUSE_WORDS};
use crate::syntax::{Span, template};

/// The items of one chunk's tokens (its ending keyword included unless it
/// `ends_text`), or `None` where the grammar would report an error.
pub(super) fn chunk(tokens: &[(Token<'_>, Span)], ends_text: bool) -> Option<Vec<Item>> {
    let end = if ends_text {
        tokens.len()
    } else {
        tokens.len().checked_sub(1)?
    };
    // Nothing inside an item reads an item keyword: the chunk's ending one
    // is left out, and a rule looking for more sees the end instead.
    let mut reader = Reader {
        tokens: &tokens[..end],
        at: 0,
        depth: 0,
    };
    let mut items = Vec::new();
    while reader.at < end {
        let item = match reader.peek()? {
            Token::Table => reader.table().map(Item::Table),
            Token::Entity => reader.entity().map(Item::Entity),
            Token::Pattern => reader.pattern().map(Item::Pattern),
            _ => return None, // stray tokens before the first item
        };
        items.push(item.ok()?);
    }
    Some(items)
}

/// Why a rule did not read.
enum Stop {
    /// The tokens are not this rule's: the grammar tries its next
    /// alternative (or reads nothing, for an optional part).
    NotThis,
    /// The grammar reports an error here, whichever way it reads on: the
    /// chunk goes to the grammar.
    Broken,
}

use Stop::{Broken, NotThis};

type Read<T> = Result<T, Stop>;

/// How deep filters may nest (`not`, parentheses) before the grammar takes
/// over: a bound on this parser's recursion.
const MAX_DEPTH: u32 = 200;

struct Reader<'t, 'src> {
    tokens: &'t [(Token<'src>, Span)],
    at: usize,
    depth: u32,
}

impl<'src> Reader<'_, 'src> {
    fn peek(&self) -> Option<Token<'src>> {
        self.tokens.get(self.at).map(|(token, _)| *token)
    }

    /// Takes the next token, whatever it is, and gives its span.
    fn bump(&mut self) -> Span {
        let span = self.tokens[self.at].1;
        self.at += 1;
        span
    }

    fn token(&mut self, token: Token<'_>) -> Read<Span> {
        if self.peek() == Some(token) {
            Ok(self.bump())
        } else {
            Err(NotThis)
        }
    }

    fn eat(&mut self, token: Token<'_>) -> bool {
        self.token(token).is_ok()
    }

    /// A contextual keyword: an identifier with this exact text.
    fn kw(&mut self, word: &str) -> Read<Span> {
        match self.peek() {
            Some(Token::Ident(text)) if text == word => Ok(self.bump()),
            _ => Err(NotThis),
        }
    }

    /// From the token at `start` to the last one read.
    fn since(&self, start: usize) -> Span {
        self.tokens[start].1.cover(self.tokens[self.at - 1].1)
    }

    /// The grammar's `or_not`: `rule`, or nothing read when it does not
    /// read. What the grammar would report stays reported.
    fn optional<T>(&mut self, rule: impl FnOnce(&mut Self) -> Read<T>) -> Read<Option<T>> {
        let at = self.at;
        match rule(self) {
            Ok(value) => Ok(Some(value)),
            Err(NotThis) => {
                self.at = at;
                Ok(None)
            }
            Err(Broken) => Err(Broken),
        }
    }

    /// Anything but `NotThis` from here on is an error: a part the grammar
    /// has read its way into and recovers from.
    fn committed<T>(read: Read<T>) -> Read<T> {
        read.map_err(|_| Broken)
    }

    fn nested<T>(&mut self, rule: impl FnOnce(&mut Self) -> Read<T>) -> Read<T> {
        if self.depth >= MAX_DEPTH {
            return Err(Broken);
        }
        self.depth += 1;
        let read = rule(self);
        self.depth -= 1;
        read
    }

    /// Where a `{ }` body's members end: its `}`, or what no member reads
    /// past (an item keyword, the chunk's end).
    fn at_body_end(&self) -> bool {
        matches!(
            self.peek(),
            None | Some(Token::RBrace | Token::Table | Token::Entity | Token::Pattern)
        )
    }

    /// The `}` of a body: missing, it is an error (`atoms::braced`).
    fn close_body(&mut self) -> Read<()> {
        Self::committed(self.token(Token::RBrace)).map(|_| ())
    }

    // ---------- atoms ----------

    fn name(&mut self) -> Read<Name> {
        match self.peek() {
            Some(Token::Ident(text)) => {
                let span = self.bump();
                Ok(Name::new(text, span))
            }
            _ => Err(NotThis),
        }
    }

    /// An identifier or a quoted name; a quoted one with a hole, or empty,
    /// is an error.
    fn dynamo_name(&mut self) -> Read<Name> {
        match self.peek() {
            Some(Token::Ident(_)) => self.name(),
            Some(Token::Str(raw) | Token::UnterminatedStr(raw)) => {
                let at = self.bump();
                let segments = template::split(raw, at.start(), &mut Vec::new());
                if segments.is_empty() || segments.iter().any(|s| matches!(s, Segment::Hole { .. })) {
                    return Err(Broken);
                }
                Ok(Name::new(names::read(raw), at))
            }
            _ => Err(NotThis),
        }
    }

    fn string(&mut self) -> Read<StringLit> {
        match self.peek() {
            Some(Token::Str(raw) | Token::UnterminatedStr(raw)) => {
                let span = self.bump();
                let segments = template::split(raw, span.start(), &mut Vec::new());
                Ok(StringLit { span, segments })
            }
            _ => Err(NotThis),
        }
    }

    fn number_text(&mut self) -> Read<(&'src str, Span)> {
        match self.peek() {
            Some(Token::Number(text)) => Ok((text, self.bump())),
            _ => Err(NotThis),
        }
    }

    /// A whole number; any other number is an error.
    fn count(&mut self) -> Read<(u64, Span)> {
        let (text, at) = self.number_text()?;
        text.parse::<u64>().map(|n| (n, at)).map_err(|_| Broken)
    }

    fn size_hint(&mut self) -> Read<SizeHint> {
        let start = self.at;
        self.token(Token::Tilde)?;
        let (text, _) = self.number_text()?;
        // `~2000/s` is a rate, not a size (the grammar backtracks, and what
        // it would have said of the unit goes with it).
        if self.peek() == Some(Token::Slash) {
            return Err(NotThis);
        }
        let (amount, unit) = size_amount(text);
        Ok(SizeHint {
            span: self.since(start),
            amount,
            unit: unit.map_err(|_| Broken)?,
        })
    }

    fn rate_hint(&mut self) -> Read<RateHint> {
        let start = self.at;
        self.token(Token::Tilde)?;
        let (text, _) = self.number_text()?;
        self.token(Token::Slash)?;
        let unit = self.name()?;
        let per_second = text.parse::<f64>().ok().filter(|n| n.is_finite() && *n > 0.0);
        match per_second {
            Some(per_second) if unit.text == "s" => Ok(RateHint {
                span: self.since(start),
                per_second,
                text: text.to_string(),
            }),
            _ => Err(Broken),
        }
    }

    /// `( element, ... )`, a trailing comma allowed; a list that does not
    /// read to its `)` is an error (the grammar skips it as a whole).
    fn paren_list<T>(&mut self, element: impl Fn(&mut Self) -> Read<T>) -> Read<Vec<T>> {
        self.token(Token::LParen)?;
        let mut list = Vec::new();
        if let Some(first) = self.optional(&element)? {
            list.push(first);
            while self.eat(Token::Comma) {
                match self.optional(&element)? {
                    Some(next) => list.push(next),
                    None => break,
                }
            }
        }
        Self::committed(self.token(Token::RParen))?;
        Ok(tight(list))
    }

    /// `separated_by(separator).at_least(1)` without a trailing separator:
    /// a separator not followed by an element is left unread.
    fn one_or_more<T>(
        &mut self,
        separator: impl Fn(&mut Self) -> Read<Span>,
        element: impl Fn(&mut Self) -> Read<T>,
    ) -> Read<Vec<T>> {
        let mut list = vec![element(self)?];
        while let Some(next) = self.optional(|r| {
            separator(r)?;
            element(r)
        })? {
            list.push(next);
        }
        Ok(list)
    }

    // ---------- tables ----------

    fn table(&mut self) -> Read<Table> {
        let start = self.at;
        self.token(Token::Table)?;
        let name = self.dynamo_name()?;
        self.token(Token::LBrace)?;
        let (mut keys, mut indexes, mut delimiters, mut ttls) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        while !self.at_body_end() {
            if let Some(key) = self.optional(Self::key_decl)? {
                keys.push(key);
            } else if let Some(index) = self.optional(Self::index_decl)? {
                indexes.push(index);
            } else if let Some(delimiter) = self.optional(Self::delimiter_decl)? {
                delimiters.push(delimiter);
            } else if let Some(ttl) = self.optional(Self::ttl_decl)? {
                ttls.push(ttl);
            } else {
                return Err(Broken);
            }
        }
        self.close_body()?;
        Ok(Table {
            span: self.since(start),
            docs: None,
            name,
            keys: tight(keys),
            indexes: tight(indexes),
            delimiters: tight(delimiters),
            ttls: tight(ttls),
        })
    }

    fn key_decl(&mut self) -> Read<KeyDecl> {
        let start = self.at;
        self.kw("key")?;
        let partition = self.key_part()?;
        let sort = self.optional(|r| {
            r.token(Token::Comma)?;
            r.key_part()
        })?;
        Ok(KeyDecl {
            span: self.since(start),
            partition,
            sort,
        })
    }

    fn index_decl(&mut self) -> Read<IndexDecl> {
        let start = self.at;
        let local = self.optional(|r| r.kw("local"))?.is_some();
        self.kw("index")?;
        let name = self.dynamo_name()?;
        self.token(Token::LParen)?;
        let partition = self.key_part()?;
        let sort = self.optional(|r| {
            r.token(Token::Comma)?;
            r.key_part()
        })?;
        self.token(Token::RParen)?;
        let projection = self.optional(Self::projection)?.unwrap_or_default();
        Ok(IndexDecl {
            span: self.since(start),
            docs: None,
            local,
            name,
            partition,
            sort,
            projection,
        })
    }

    fn projection(&mut self) -> Read<Projection> {
        let start = self.at;
        if let Ok(at) = self.kw("all") {
            return Ok(Projection::All(at));
        }
        if let Ok(at) = self.kw("keys_only") {
            return Ok(Projection::KeysOnly(at));
        }
        self.kw("include")?;
        let names = self.paren_list(Self::dynamo_name)?;
        Ok(Projection::Include(self.since(start), names))
    }

    fn delimiter_decl(&mut self) -> Read<DelimiterDecl> {
        let start = self.at;
        self.kw("delimiter")?;
        let value = self.string()?;
        Ok(DelimiterDecl {
            span: self.since(start),
            value,
        })
    }

    fn ttl_decl(&mut self) -> Read<TtlDecl> {
        let start = self.at;
        self.kw("ttl")?;
        let attribute = self.dynamo_name()?;
        Ok(TtlDecl {
            span: self.since(start),
            attribute,
        })
    }

    /// `pk`, `pk: number`, or a list `[a, b: number]`.
    fn key_part(&mut self) -> Read<KeyPart> {
        let start = self.at;
        let list = self.optional(|r| {
            r.token(Token::LBracket)?;
            let mut attrs = vec![r.key_attr()?];
            while r.eat(Token::Comma) {
                match r.optional(Self::key_attr)? {
                    Some(attr) => attrs.push(attr),
                    None => break,
                }
            }
            r.token(Token::RBracket)?;
            Ok(attrs)
        })?;
        match list {
            Some(attrs) => Ok(KeyPart {
                attrs,
                list: Some(self.since(start)),
            }),
            None => self.key_attr().map(KeyPart::single),
        }
    }

    fn key_attr(&mut self) -> Read<KeyAttr> {
        let name = self.dynamo_name()?;
        let ty = self.optional(|r| {
            r.token(Token::Colon)?;
            r.name()
        })?;
        let ty = match ty {
            Some(word) => Some((KeyType::from_word(&word.text).ok_or(Broken)?, word.span)),
            None => None,
        };
        Ok(KeyAttr { name, ty })
    }

    // ---------- entities ----------

    fn entity(&mut self) -> Read<Entity> {
        let start = self.at;
        self.token(Token::Entity)?;
        let name = self.name()?;
        let table = self.optional(|r| {
            r.kw("in")?;
            r.dynamo_name()
        })?;
        let size = self.optional(Self::size_hint)?;
        let rate = self.optional(Self::rate_hint)?;
        self.token(Token::LBrace)?;
        let (mut attributes, mut keys, mut items) = (Vec::new(), Vec::new(), Vec::new());
        while !self.at_body_end() {
            if let Some(shape) = self.optional(Self::item_shape)? {
                items.push(shape);
            } else if let Some(attribute) = self.optional(Self::attribute)? {
                attributes.push(attribute);
            } else if let Some(key) = self.optional(Self::key_template)? {
                keys.push(key);
            } else {
                return Err(Broken);
            }
        }
        self.close_body()?;
        Ok(Entity {
            span: self.since(start),
            docs: None,
            name,
            table,
            size,
            rate,
            attributes: tight(attributes),
            keys: tight(keys),
            items: tight(items),
        })
    }

    /// `item { key templates }`; `item` not followed by `{` is a name.
    fn item_shape(&mut self) -> Read<ItemShape> {
        let start = self.at;
        self.kw("item")?;
        self.token(Token::LBrace)?;
        let mut keys = Vec::new();
        while !self.at_body_end() {
            keys.push(Self::committed(self.key_template())?);
        }
        self.close_body()?;
        Ok(ItemShape {
            span: self.since(start),
            keys: tight(keys),
        })
    }

    fn attribute(&mut self) -> Read<Attribute> {
        let start = self.at;
        let name = self.dynamo_name()?;
        self.token(Token::Colon)?;
        let ty = self.type_ref()?;
        let optional = self.eat(Token::Question);
        Ok(Attribute {
            span: self.since(start),
            docs: None,
            name,
            ty,
            optional,
        })
    }

    /// A type is never followed by `:` or `=`: a name that is starts the
    /// next member (the grammar's `type_ref`).
    fn type_ref(&mut self) -> Read<TypeRef> {
        let start = self.at;
        let name = self.name()?;
        if matches!(self.peek(), Some(Token::Colon | Token::Eq)) {
            return Err(NotThis);
        }
        let args = if self.peek() == Some(Token::LParen) {
            self.paren_list(Self::type_arg)?
        } else {
            Vec::new()
        };
        Ok(TypeRef {
            span: self.since(start),
            name,
            args,
        })
    }

    fn type_arg(&mut self) -> Read<TypeArg> {
        let start = self.at;
        let pad = self.optional(|r| {
            r.kw("pad")?;
            r.count()
        })?;
        if let Some((width, _)) = pad {
            return Ok(TypeArg::Pad {
                span: self.since(start),
                width: width.min(u32::MAX as u64) as u32,
            });
        }
        if let Some(hint) = self.optional(Self::size_hint)? {
            return Ok(TypeArg::Size(hint));
        }
        if let Some((value, span)) = self.optional(Self::count)? {
            return Ok(TypeArg::Count { span, value });
        }
        let of = self.optional(|r| {
            r.kw("of")?;
            r.dynamo_name()
        })?;
        if let Some(name) = of {
            return Ok(TypeArg::Of(name));
        }
        if let Some(name) = self.optional(Self::name)? {
            return Ok(TypeArg::Word(name));
        }
        self.string().map(TypeArg::Str)
    }

    fn key_template(&mut self) -> Read<KeyTemplate> {
        let start = self.at;
        let key = self.dynamo_name()?;
        self.token(Token::Eq)?;
        let template = self.string()?;
        Ok(KeyTemplate {
            span: self.since(start),
            docs: None,
            key,
            template,
        })
    }

    // ---------- patterns ----------

    fn pattern(&mut self) -> Read<Pattern> {
        let start = self.at;
        self.token(Token::Pattern)?;
        let name = self.name()?;
        let known = self.paren_list(Self::known)?;
        // `-> A, B[]`: without it, or without an entity after it, the
        // grammar keeps the pattern with an error.
        self.token(Token::Arrow).map_err(|_| Broken)?;
        let returns = Self::committed(self.one_or_more(|r| r.token(Token::Comma), Self::returned))?;
        let mut modifiers = Vec::new();
        while let Some(modifier) = self.optional(Self::modifier)? {
            modifiers.push(modifier);
        }
        let query = match self.eat(Token::Eq) {
            true => Some(Self::committed(self.query())?),
            false => None,
        };
        Ok(Pattern {
            span: self.since(start),
            docs: None,
            name,
            known,
            returns: tight(returns),
            modifiers: tight(modifiers),
            query,
        })
    }

    fn known(&mut self) -> Read<Known> {
        let start = self.at;
        let attr = self.dynamo_name()?;
        let kind = self.optional(Self::known_kind)?.unwrap_or(KnownKind::Equal);
        let bound_type = self.optional(|r| {
            r.token(Token::Colon)?;
            r.name()
        })?;
        Ok(Known {
            span: self.since(start),
            attr,
            kind,
            bound_type,
        })
    }

    fn known_kind(&mut self) -> Read<KnownKind> {
        let fixed = self.optional(|r| {
            r.token(Token::Eq)?;
            r.literal()
        })?;
        if let Some(literal) = fixed {
            return Ok(KnownKind::Fixed(literal));
        }
        let compare = self.optional(|r| Ok((r.compare_op()?, r.name()?)))?;
        if let Some((op, bound)) = compare {
            return Ok(KnownKind::Compare(op, bound));
        }
        let between = self.optional(|r| {
            r.kw("between")?;
            let low = r.name()?;
            r.kw("and")?;
            Ok((low, r.name()?))
        })?;
        if let Some((low, high)) = between {
            return Ok(KnownKind::Between(low, high));
        }
        self.kw("begins_with")?;
        self.name().map(KnownKind::BeginsWith)
    }

    fn compare_op(&mut self) -> Read<CompareOp> {
        let op = match self.peek() {
            Some(Token::Lt) => CompareOp::Lt,
            Some(Token::Le) => CompareOp::Le,
            Some(Token::Gt) => CompareOp::Gt,
            Some(Token::Ge) => CompareOp::Ge,
            _ => return Err(NotThis),
        };
        self.bump();
        Ok(op)
    }

    /// A string, a number, `true`, `false` or a word.
    fn literal(&mut self) -> Read<Literal> {
        match self.peek() {
            Some(Token::Str(_) | Token::UnterminatedStr(_)) => self.string().map(Literal::Str),
            Some(Token::Number(text)) => Ok(Literal::Number(text.to_string(), self.bump())),
            Some(Token::Ident("true")) => Ok(Literal::Bool(true, self.bump())),
            Some(Token::Ident("false")) => Ok(Literal::Bool(false, self.bump())),
            Some(Token::Ident(_)) => self.name().map(Literal::Word),
            _ => Err(NotThis),
        }
    }

    fn returned(&mut self) -> Read<Returned> {
        let start = self.at;
        let entity = self.name()?;
        let many = self
            .optional(|r| {
                r.token(Token::LBracket)?;
                r.token(Token::RBracket)
            })?
            .is_some();
        let count = self.optional(Self::size_hint)?;
        Ok(Returned {
            span: self.since(start),
            entity,
            many,
            count,
        })
    }

    fn modifier(&mut self) -> Read<Modifier> {
        let start = self.at;
        let order = self.optional(|r| {
            r.kw("by")?;
            let attr = r.dynamo_name()?;
            let descending = match () {
                _ if r.kw("asc").is_ok() => false,
                _ => r.kw("desc").is_ok(),
            };
            Ok(Modifier::OrderBy {
                span: r.since(start),
                attr,
                descending,
            })
        })?;
        if let Some(order) = order {
            return Ok(order);
        }
        if let Ok(span) = self.kw("consistent") {
            return Ok(Modifier::Consistent(span));
        }
        let limit = self.optional(|r| {
            r.kw("limit")?;
            r.count()
        })?;
        if let Some((count, _)) = limit {
            return Ok(Modifier::Limit {
                span: self.since(start),
                count,
            });
        }
        if let Some(operation) = self.optional(Self::operation)? {
            return Ok(Modifier::Operation {
                span: self.since(start),
                operation,
            });
        }
        let segments = self.optional(|r| {
            r.kw("segments")?;
            r.count()
        })?;
        if let Some((count, _)) = segments {
            return Ok(Modifier::Segments {
                span: self.since(start),
                count,
            });
        }
        if let Some(rate) = self.optional(Self::rate_hint)? {
            return Ok(Modifier::Rate(rate));
        }
        self.filter().map(Modifier::Where)
    }

    fn operation(&mut self) -> Read<Operation> {
        if self.kw("get").is_ok() {
            return Ok(Operation::Get);
        }
        let batch = self.optional(|r| {
            r.kw("batch")?;
            r.kw("get")
        })?;
        if batch.is_some() {
            return Ok(Operation::BatchGet);
        }
        self.kw("scan")?;
        // A clause word after `scan` is the next clause; quoted, a name
        // (its span is longer than its text).
        let index = self.optional(|r| {
            let name = r.dynamo_name()?;
            match name.span.len() != name.text.len() || !CLAUSE_WORDS.contains(&name.text.as_str()) {
                true => Ok(name),
                false => Err(NotThis),
            }
        })?;
        Ok(Operation::Scan(index))
    }

    /// `where expr [~N%]`: past `where`, a filter that does not read is an
    /// error (the grammar skips it).
    fn filter(&mut self) -> Read<Filter> {
        let start = self.at;
        self.kw("where")?;
        let expr = Self::committed(self.filter_or())?;
        let keeps = self.optional(Self::share)?;
        Ok(Filter {
            span: self.since(start),
            expr,
            keeps,
        })
    }

    fn share(&mut self) -> Read<Share> {
        let start = self.at;
        self.token(Token::Tilde)?;
        let (text, _) = self.number_text()?;
        self.token(Token::Percent)?;
        let percent = text.parse::<f64>().unwrap_or(f64::NAN);
        if !(percent > 0.0 && percent <= 100.0) {
            return Err(Broken);
        }
        Ok(Share {
            span: self.since(start),
            fraction: percent / 100.0,
            text: text.to_string(),
        })
    }

    fn filter_or(&mut self) -> Read<FilterExpr> {
        let mut expr = self.filter_and()?;
        while let Some(next) = self.optional(|r| {
            r.kw("or")?;
            r.filter_and()
        })? {
            expr = FilterExpr::Or(Box::new(expr), Box::new(next));
        }
        Ok(expr)
    }

    fn filter_and(&mut self) -> Read<FilterExpr> {
        let mut expr = self.filter_unary()?;
        while let Some(next) = self.optional(|r| {
            r.kw("and")?;
            r.filter_unary()
        })? {
            expr = FilterExpr::And(Box::new(expr), Box::new(next));
        }
        Ok(expr)
    }

    /// `not unary`, or an atom (an attribute may be called `not`).
    fn filter_unary(&mut self) -> Read<FilterExpr> {
        let start = self.at;
        let not = self.optional(|r| {
            r.kw("not")?;
            r.nested(Self::filter_unary)
        })?;
        match not {
            Some(inner) => Ok(FilterExpr::Not {
                span: self.since(start),
                inner: Box::new(inner),
            }),
            None => self.filter_atom(),
        }
    }

    fn filter_atom(&mut self) -> Read<FilterExpr> {
        let start = self.at;
        let begins_with = self.optional(|r| {
            r.kw("begins_with")?;
            r.token(Token::LParen)?;
            let attr = r.dynamo_name()?;
            r.token(Token::Comma)?;
            let value = r.filter_value()?;
            r.token(Token::RParen)?;
            Ok(FilterExpr::BeginsWith {
                span: r.since(start),
                attr,
                value,
            })
        })?;
        if let Some(expr) = begins_with {
            return Ok(expr);
        }
        let exists = self.optional(|r| {
            let exists = match () {
                _ if r.kw("attribute_exists").is_ok() => true,
                _ => r.kw("attribute_not_exists").map(|_| false)?,
            };
            r.token(Token::LParen)?;
            let attr = r.dynamo_name()?;
            r.token(Token::RParen)?;
            Ok(FilterExpr::Exists {
                span: r.since(start),
                attr,
                exists,
            })
        })?;
        if let Some(expr) = exists {
            return Ok(expr);
        }
        let group = self.optional(|r| {
            r.token(Token::LParen)?;
            let inner = r.nested(Self::filter_or)?;
            r.token(Token::RParen)?;
            Ok(FilterExpr::Group {
                span: r.since(start),
                inner: Box::new(inner),
            })
        })?;
        if let Some(expr) = group {
            return Ok(expr);
        }
        let in_list = self.optional(|r| {
            let attr = r.dynamo_name()?;
            r.kw("in")?;
            r.token(Token::LParen)?;
            let values = r.one_or_more(|r| r.token(Token::Comma), Self::filter_value)?;
            r.token(Token::RParen)?;
            Ok(FilterExpr::In {
                span: r.since(start),
                attr,
                values,
            })
        })?;
        if let Some(expr) = in_list {
            return Ok(expr);
        }
        let attr = self.dynamo_name()?;
        let op = match self.peek() {
            Some(Token::Eq) => FilterOp::Eq,
            Some(Token::Ne) => FilterOp::Ne,
            Some(Token::Lt) => FilterOp::Lt,
            Some(Token::Le) => FilterOp::Le,
            Some(Token::Gt) => FilterOp::Gt,
            Some(Token::Ge) => FilterOp::Ge,
            _ => return Err(NotThis),
        };
        self.bump();
        let value = self.filter_value()?;
        Ok(FilterExpr::Compare {
            span: self.since(start),
            attr,
            op,
            value,
        })
    }

    fn filter_value(&mut self) -> Read<FilterValue> {
        match self.peek() {
            Some(Token::Ident(text)) if text != "true" && text != "false" => self.name().map(FilterValue::Word),
            _ => self.literal().map(FilterValue::Literal),
        }
    }

    fn query(&mut self) -> Read<Query> {
        let start = self.at;
        self.kw("query")?;
        let table = self.dynamo_name()?;
        let index = self.optional(|r| {
            r.token(Token::Dot)?;
            r.dynamo_name()
        })?;
        self.kw("where")?;
        let conditions = self.one_or_more(|r| r.kw("and"), Self::condition)?;
        Ok(Query {
            span: self.since(start),
            table,
            index,
            conditions,
        })
    }

    fn condition(&mut self) -> Read<Condition> {
        let start = self.at;
        let begins_with = self.optional(|r| {
            r.kw("begins_with")?;
            r.token(Token::LParen)?;
            let key = r.dynamo_name()?;
            r.token(Token::Comma)?;
            let prefix = r.operand()?;
            r.token(Token::RParen)?;
            Ok((key, ConditionKind::BeginsWith(prefix)))
        })?;
        let between = match begins_with {
            Some(_) => None,
            None => self.optional(|r| {
                let key = r.dynamo_name()?;
                r.kw("between")?;
                let low = r.operand()?;
                r.kw("and")?;
                Ok((key, ConditionKind::Between(low, r.operand()?)))
            })?,
        };
        let (key, kind) = match begins_with.or(between) {
            Some(read) => read,
            None => {
                let key = self.dynamo_name()?;
                let op = match self.eat(Token::Eq) {
                    true => CompareOp::Eq,
                    false => self.compare_op()?,
                };
                (key, ConditionKind::Compare(op, self.operand()?))
            }
        };
        Ok(Condition {
            span: self.since(start),
            key,
            kind,
        })
    }

    /// A template, a number, or a known value by name.
    fn operand(&mut self) -> Read<Operand> {
        match self.peek() {
            Some(Token::Str(_) | Token::UnterminatedStr(_)) => self.string().map(Operand::Str),
            Some(Token::Number(text)) => Ok(Operand::Number(text.to_string(), self.bump())),
            _ => self.name().map(Operand::Param),
        }
    }
}

#[cfg(test)]
mod tests;
