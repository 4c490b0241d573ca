//! Completion: what may be typed at the cursor. The file is usually broken
//! while the user types, so the context comes from the token stream around
//! the offset (the previous significant tokens, the enclosing item, `{}`,
//! `()` or string), and the names offered come from the (partial) analysis.
//!
//! Inside a pinned-query string the registered prefixes of the key being
//! compared are offered (`USER#`, `INVOICE#`, …); inside a `{` hole, the
//! entity's attributes (key templates) or the pattern's known values
//! (pinned queries).

use super::File;
use crate::check::model::{AttrType, EntityId, Model, TableId};
use crate::syntax::lexer::Token;
use crate::syntax::{Span, names};

mod filter;
mod limit;
mod lists;
mod places;
mod snippet;
pub mod window;

pub use limit::limit;
pub use snippet::plain_text;

use lists::*;
use places::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CompletionKind {
    Keyword,
    /// An attribute type (`string`, `int(pad N)`) or a key type.
    Type,
    Entity,
    Attribute,
    Index,
    Table,
    /// A key attribute name of a table or index (`pk`, `gsi1sk`).
    Key,
    /// A value the pattern's caller knows (a known attribute or a range bound).
    Value,
    /// One word of an `enum`.
    EnumMember,
    /// A registered leading literal of a key (`USER#`).
    Prefix,
    /// A whole declaration to fill in.
    Snippet,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completion {
    pub label: String,
    pub kind: CompletionKind,
    pub detail: Option<String>,
    /// The text to insert when it differs from the label.
    pub insert_text: Option<String>,
    /// `insert_text` is an LSP snippet (`${1:name}` placeholders).
    pub snippet: bool,
    /// The text the completion replaces; `None` lets the editor pick the
    /// word at the cursor.
    pub replace: Option<Span>,
}

impl Completion {
    fn new(label: impl Into<String>, kind: CompletionKind) -> Completion {
        Completion {
            label: label.into(),
            kind,
            detail: None,
            insert_text: None,
            snippet: false,
            replace: None,
        }
    }

    fn detail(mut self, detail: impl Into<String>) -> Completion {
        self.detail = Some(detail.into());
        self
    }

    fn insert(mut self, text: impl Into<String>) -> Completion {
        self.insert_text = Some(text.into());
        self
    }

    fn snippet(mut self, text: impl Into<String>) -> Completion {
        self.insert_text = Some(text.into());
        self.snippet = true;
        self
    }

    fn replacing(mut self, span: Span) -> Completion {
        self.replace = Some(span);
        self
    }
}

pub fn completions(file: &File, offset: usize) -> Vec<Completion> {
    if offset > file.text.len() || !file.text.is_char_boundary(offset) {
        return Vec::new();
    }
    // Only the item around the cursor: lexing a large file on every
    // request would be most of the request's time.
    let tokens = window::tokens(&file.text, offset);
    let mut string = None;
    for &(token, span) in &tokens {
        match token {
            // A line comment runs to the end of its line: a cursor at its end
            // is still typing the comment.
            Token::Comment(_) | Token::DocComment(_) | Token::Error(_)
                if span.start() < offset && offset <= span.end() =>
            {
                return Vec::new();
            }
            Token::Str(_) if span.start() < offset && offset < span.end() => string = Some(span),
            Token::UnterminatedStr(_) if span.start() < offset && offset <= span.end() => string = Some(span),
            _ => {}
        }
    }
    let sig: Vec<(Token<'_>, Span)> = tokens
        .iter()
        .copied()
        .filter(|(t, _)| !t.is_trivia() && !matches!(t, Token::Error(_)))
        .collect();
    let cx = Cx {
        text: &file.text,
        model: &file.analysis.schema.model,
        file,
        sig,
        offset,
    };
    let mut out = match string {
        Some(span) => {
            let index = cx.sig.iter().position(|(_, s)| *s == span).unwrap_or(0);
            let inside = cx.in_string(index, span);
            if inside.is_empty() {
                cx.quoted_name(index, span)
            } else {
                inside
            }
        }
        None => {
            // The word being typed is replaced; the context is what precedes it.
            let word = cx.sig.iter().find(|(t, s)| {
                s.start() < offset
                    && offset <= s.end()
                    && matches!(
                        t,
                        Token::Ident(_) | Token::Number(_) | Token::Table | Token::Entity | Token::Pattern
                    )
            });
            let anchor = word.map_or(offset, |(_, s)| s.start());
            let before = cx.sig.partition_point(|(_, s)| s.end() <= anchor);
            cx.at(before)
        }
    };
    // One item per label, first wins.
    let mut seen = std::collections::HashSet::new();
    out.retain(|c| seen.insert(c.label.clone()));
    for completion in &mut out {
        if completion.insert_text.is_none() && is_dynamo_name(completion.kind) && !names::is_bare(&completion.label) {
            completion.insert_text = Some(names::written(&completion.label).into_owned());
        }
    }
    out
}

/// The kinds of completion that name a DynamoDB thing, which may be quoted.
fn is_dynamo_name(kind: CompletionKind) -> bool {
    matches!(
        kind,
        CompletionKind::Attribute | CompletionKind::Key | CompletionKind::Index | CompletionKind::Table
    )
}

/// What the cursor is in, once the item around it is known.
struct Cx<'a> {
    text: &'a str,
    model: &'a Model,
    file: &'a File,
    /// Significant tokens: no comments, no unknown bytes.
    sig: Vec<(Token<'a>, Span)>,
    offset: usize,
}

fn ident<'a>(token: Token<'a>) -> Option<&'a str> {
    match token {
        Token::Ident(text) => Some(text),
        _ => None,
    }
}

fn is_item_keyword(token: Token<'_>) -> bool {
    matches!(token, Token::Table | Token::Entity | Token::Pattern)
}

fn is_compare(token: Token<'_>) -> bool {
    matches!(token, Token::Lt | Token::Le | Token::Gt | Token::Ge)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ItemKind {
    Table,
    Entity,
    Pattern,
}

impl<'a> Cx<'a> {
    fn token(&self, index: usize) -> Option<Token<'a>> {
        self.sig.get(index).map(|(t, _)| *t)
    }

    fn word(&self, index: usize) -> Option<&'a str> {
        self.token(index).and_then(ident)
    }

    /// The name a token writes: an identifier, or a quoted name's text.
    fn name_at(&self, index: usize) -> Option<std::borrow::Cow<'a, str>> {
        match self.token(index)? {
            Token::Ident(text) => Some(text.into()),
            Token::Str(raw) | Token::UnterminatedStr(raw) => Some(names::read(raw)),
            _ => None,
        }
    }

    fn is_word(&self, index: usize, word: &str) -> bool {
        self.word(index) == Some(word)
    }

    /// The item keyword that starts the item the first `before` tokens end
    /// in, with the item's kind.
    fn item(&self, before: usize) -> Option<(usize, ItemKind)> {
        let start = self.sig[..before].iter().rposition(|(t, _)| is_item_keyword(*t))?;
        let kind = match self.sig[start].0 {
            Token::Table => ItemKind::Table,
            Token::Entity => ItemKind::Entity,
            _ => ItemKind::Pattern,
        };
        Some((start, kind))
    }

    /// The end (exclusive) of the item starting at `start`: the next item
    /// keyword or the end of the file.
    fn item_end(&self, start: usize) -> usize {
        self.sig[start + 1..]
            .iter()
            .position(|(t, _)| is_item_keyword(*t))
            .map_or(self.sig.len(), |i| start + 1 + i)
    }

    /// The open `{` / `(` tokens around position `before`, inside the item
    /// starting at `start`, innermost last; `None` once the item's body has
    /// been closed (the cursor is after the item).
    fn open_brackets(&self, start: usize, before: usize) -> Option<Vec<usize>> {
        let mut stack: Vec<usize> = Vec::new();
        for index in start + 1..before {
            match self.sig[index].0 {
                Token::LBrace | Token::LParen => stack.push(index),
                Token::RBrace => {
                    // Unbalanced parentheses close with their body.
                    while let Some(open) = stack.pop() {
                        if self.sig[open].0 == Token::LBrace {
                            break;
                        }
                    }
                    if stack.is_empty() {
                        return None;
                    }
                }
                Token::RParen if stack.last().is_some_and(|&open| self.sig[open].0 == Token::LParen) => {
                    stack.pop();
                }
                _ => {}
            }
        }
        Some(stack)
    }

    /// Completions after the first `before` significant tokens.
    fn at(&self, before: usize) -> Vec<Completion> {
        let Some((start, kind)) = self.item(before) else {
            return top_level(self.model, true);
        };
        let Some(stack) = self.open_brackets(start, before) else {
            return top_level(self.model, true);
        };
        match kind {
            ItemKind::Table => self.in_table(start, before, &stack),
            ItemKind::Entity => self.in_entity(start, before, &stack),
            ItemKind::Pattern => self.in_pattern(start, before),
        }
    }

    // ---------- tables ----------

    fn in_table(&self, start: usize, before: usize, stack: &[usize]) -> Vec<Completion> {
        let table = self.word(start + 1).and_then(|name| self.model.table_named(name));
        let prev = before - 1;
        match stack {
            // The header: a new name.
            [] => Vec::new(),
            [_body] => {
                let prev_token = self.sig[prev].0;
                match prev_token {
                    Token::LBrace | Token::Str(_) | Token::UnterminatedStr(_) => table_members(),
                    Token::Colon => key_types(),
                    Token::Comma => Vec::new(),
                    // After an index's key list: its projection, or the next member.
                    Token::RParen if self.index_keyword_before(prev) => {
                        let mut out = projections();
                        out.extend(table_members());
                        out
                    }
                    Token::RParen => table_members(),
                    Token::Ident(word) => match word {
                        "key" | "index" | "delimiter" | "include" => Vec::new(),
                        "local" => vec![Completion::new("index", CompletionKind::Keyword)],
                        // `ttl ` names an attribute of the table's entities.
                        "ttl" if !self.is_word(prev - 1, "key") => {
                            let entities: Vec<EntityId> = table.map_or_else(Vec::new, |t| self.entities_in(t));
                            attributes(self.model, &entities, false)
                        }
                        _ if self.token(prev - 1).is_some_and(|t| t == Token::Colon) => table_members(),
                        // `index gsi1 ` (the key list comes next).
                        _ if self.is_word(prev - 1, "index") => Vec::new(),
                        _ => table_members(),
                    },
                    _ => Vec::new(),
                }
            }
            [.., open] => {
                let open = *open;
                if self.is_word(open.wrapping_sub(1), "include") {
                    if matches!(self.sig[prev].0, Token::LParen | Token::Comma) {
                        let entities: Vec<EntityId> = table.map_or_else(Vec::new, |t| self.entities_in(t));
                        return attributes(self.model, &entities, false);
                    }
                    return Vec::new();
                }
                // A multi-attribute key `[tenantId, region]` lists attributes
                // the table's entities already have.
                if self.in_key_list(open, before) && matches!(self.sig[prev].0, Token::LBracket | Token::Comma) {
                    let entities: Vec<EntityId> = table.map_or_else(Vec::new, |t| self.entities_in(t));
                    return attributes(self.model, &entities, false);
                }
                // An index's key list.
                match self.sig[prev].0 {
                    Token::Colon => key_types(),
                    Token::LParen if self.is_word(open.wrapping_sub(3), "local") => {
                        // An LSI restates the table's partition key.
                        let pk = table
                            .and_then(|t| self.model.table(t).base())
                            .map(|b| b.pk.name.clone());
                        pk.map(|pk| vec![Completion::new(pk, CompletionKind::Key).detail("the table's partition key")])
                            .unwrap_or_default()
                    }
                    _ => Vec::new(),
                }
            }
        }
    }

    /// Whether the tokens after `open` up to `before` leave a `[` open.
    fn in_key_list(&self, open: usize, before: usize) -> bool {
        let mut depth = 0usize;
        for (token, _) in &self.sig[open + 1..before] {
            match token {
                Token::LBracket => depth += 1,
                Token::RBracket => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        depth > 0
    }

    /// `index name (...)` ends at token `close`.
    fn index_keyword_before(&self, close: usize) -> bool {
        let Some(open) = self.sig[..close].iter().rposition(|(t, _)| *t == Token::LParen) else {
            return false;
        };
        open >= 2 && self.is_word(open - 2, "index")
    }

    fn entities_in(&self, table: TableId) -> Vec<EntityId> {
        self.model
            .entity_ids()
            .filter(|(_, e)| e.table == Some(table))
            .map(|(id, _)| id)
            .collect()
    }

    // ---------- entities ----------

    /// The table an entity (by its item keyword) is stored in.
    fn entity_table(&self, start: usize) -> Option<TableId> {
        if self.is_word(start + 2, "in") {
            return self.word(start + 3).and_then(|t| self.model.table_named(t));
        }
        let name = self.word(start + 1)?;
        let at = self.sig[start].1.start();
        if let Some(entity) = self
            .model
            .entities
            .iter()
            .find(|e| e.name.text == name && e.span.start() == at)
        {
            return entity.table;
        }
        (self.model.tables.len() == 1).then_some(TableId::new(0))
    }

    /// The model entity declared by the item keyword at `start`, if lowered.
    fn entity_here(&self, start: usize) -> Option<EntityId> {
        let name = self.word(start + 1)?;
        let at = self.sig[start].1.start();
        self.model
            .entity_ids()
            .find(|(_, e)| e.name.text == name && e.span.start() == at)
            .map(|(id, _)| id)
    }

    /// Indices of the tokens directly inside the `{` at `open` (not nested),
    /// up to its `}` or the end of the item.
    fn scope(&self, open: usize) -> Vec<usize> {
        let mut depth = 0usize;
        let mut out = Vec::new();
        for index in open + 1..self.sig.len() {
            let token = self.sig[index].0;
            if is_item_keyword(token) {
                break;
            }
            match token {
                Token::LBrace | Token::LParen => depth += 1,
                Token::RBrace if depth == 0 => break,
                Token::RBrace | Token::RParen => depth = depth.saturating_sub(1),
                _ if depth == 0 => out.push(index),
                _ => {}
            }
            if depth == 1 && matches!(token, Token::LBrace | Token::LParen) {
                out.push(index);
            }
        }
        out
    }

    fn in_entity(&self, start: usize, before: usize, stack: &[usize]) -> Vec<Completion> {
        let prev = before - 1;
        let prev_token = self.sig[prev].0;
        match stack {
            [] => {
                // `entity Name in Table ~2KB {`
                if self.is_word(prev, "in") && prev == start + 2 {
                    self.tables()
                } else if prev_token == Token::Slash {
                    per_second()
                } else if prev == start + 1 && self.word(prev).is_some() {
                    vec![Completion::new("in", CompletionKind::Keyword).detail("the table this entity is stored in")]
                } else {
                    Vec::new()
                }
            }
            [.., open] if self.sig[*open].0 == Token::LParen => {
                // Type arguments: `int(pad 6)`, `shard(10, of userId)`.
                let ty = self.word(open - 1);
                if prev == *open && ty == Some("int") {
                    vec![Completion::new("pad", CompletionKind::Keyword).detail("zero-padded to N digits")]
                } else if ty == Some("shard") {
                    self.shard_arguments(start, stack[0], *open, prev)
                } else {
                    Vec::new()
                }
            }
            [body, rest @ ..] => {
                let shape = rest.last().copied();
                let member_start = match prev_token {
                    Token::LBrace | Token::RBrace | Token::Question | Token::RParen => true,
                    Token::Str(_) | Token::UnterminatedStr(_) => true,
                    Token::Colon => return attribute_types(),
                    // A type word ends an attribute; any other word is a
                    // member name still waiting for its `:` or `=`.
                    Token::Ident(_) => self.token(prev - 1) == Some(Token::Colon),
                    _ => false,
                };
                if !member_start {
                    return Vec::new();
                }
                self.entity_members(start, *body, shape)
            }
        }
    }

    /// Inside `shard(`: `of` after the count, then the attributes a shard
    /// can be computed from (a value that can stand in a key, not a shard,
    /// not the attribute being declared).
    fn shard_arguments(&self, start: usize, body: usize, open: usize, prev: usize) -> Vec<Completion> {
        let after_count = prev == open + 2
            && self.token(prev) == Some(Token::Comma)
            && matches!(self.token(open + 1), Some(Token::Number(_)));
        if after_count {
            return vec![
                Completion::new("of", CompletionKind::Keyword)
                    .detail("calculated from an attribute: FNV-1a of its key text, modulo the count")
                    .insert("of "),
            ];
        }
        if !self.is_word(prev, "of") {
            return Vec::new();
        }
        // `name: shard(`
        let declaring = (open >= 3 && self.token(open - 2) == Some(Token::Colon)).then(|| self.name_at(open - 3));
        let declaring = declaring.flatten();
        let is_declaring = |name: &str| declaring.as_deref() == Some(name);
        match self.entity_here(start) {
            Some(entity) => self
                .model
                .entity(entity)
                .attributes
                .iter()
                .filter(|a| !is_declaring(&a.name.text))
                .filter(|a| !matches!(a.ty, AttrType::Shard { .. }) && a.ty.shape("#").is_some())
                .map(|a| {
                    let optional = if a.optional { "?" } else { "" };
                    Completion::new(a.name.text.as_str(), CompletionKind::Attribute)
                        .detail(format!("{}{optional}", a.ty.name()))
                })
                .collect(),
            None => self
                .attributes_from_tokens(body)
                .into_iter()
                .filter(|c| !is_declaring(&c.label) && c.detail.as_deref() != Some("shard"))
                .collect(),
        }
    }

    /// At the start of a member: the key attributes not assigned yet in this
    /// body (or `item { }` shape), and `item`.
    fn entity_members(&self, start: usize, body: usize, shape: Option<usize>) -> Vec<Completion> {
        let body_scope = self.scope(body);
        let assigns = |scope: &[usize]| -> Vec<&'a str> {
            scope
                .iter()
                .filter(|&&i| self.token(i + 1) == Some(Token::Eq))
                .filter_map(|&i| self.word(i))
                .collect()
        };
        let declared: Vec<&str> = body_scope
            .iter()
            .filter(|&&i| self.token(i + 1) == Some(Token::Colon))
            .filter_map(|&i| self.word(i))
            .collect();
        let has_shapes = body_scope
            .iter()
            .any(|&i| self.is_word(i, "item") && self.token(i + 1) == Some(Token::LBrace));
        let (assigned, offer_item) = match shape {
            Some(open) => (assigns(&self.scope(open)), false),
            None => {
                let direct = assigns(&body_scope);
                if has_shapes {
                    (Vec::new(), true)
                } else {
                    let offer_item = direct.is_empty();
                    (direct, offer_item)
                }
            }
        };
        let mut out = Vec::new();
        if (shape.is_some() || !has_shapes)
            && let Some(table) = self.entity_table(start)
        {
            for (name, role) in key_roles(self.model, table) {
                if !assigned.contains(&name.as_str()) && !declared.contains(&name.as_str()) {
                    out.push(Completion::new(name, CompletionKind::Key).detail(role));
                }
            }
        }
        if offer_item {
            out.push(
                Completion::new("item", CompletionKind::Keyword)
                    .detail("one item of several (an adjacency list)")
                    .snippet("item {\n\t$0\n}"),
            );
        }
        out
    }

    // ---------- patterns ----------

    fn in_pattern(&self, start: usize, before: usize) -> Vec<Completion> {
        let prev = before - 1;
        let prev_token = self.sig[prev].0;
        match self.pattern_phase(start, before) {
            Phase::Head | Phase::AfterKnowns => Vec::new(),
            Phase::Knowns { open, depth } => {
                if depth != 1 {
                    return Vec::new();
                }
                let at_known_start = |i: usize| i == open || self.token(i) == Some(Token::Comma);
                match prev_token {
                    _ if at_known_start(prev) => attributes(self.model, &self.returned(start), false),
                    Token::Ident(_) if at_known_start(prev - 1) => vec![
                        Completion::new("between", CompletionKind::Keyword).detail("a range: `at between from and to`"),
                        Completion::new("begins_with", CompletionKind::Keyword)
                            .detail("a prefix: `name begins_with p`"),
                    ],
                    Token::Eq if prev >= 2 && at_known_start(prev - 2) => match self.word(prev - 1) {
                        Some(attr) => fixed_values(self.model, &self.returned(start), attr),
                        None => Vec::new(),
                    },
                    // `at <= until: ` — the bound's type (W203 says what a day does).
                    Token::Colon => vec![
                        Completion::new("date", CompletionKind::Type)
                            .detail("the caller passes a day for a datetime: see W203"),
                    ],
                    _ => Vec::new(),
                }
            }
            Phase::Returns | Phase::Modifiers => match prev_token {
                Token::Arrow | Token::Comma => self.entities(),
                Token::Tilde => Vec::new(),
                // `~200/`: a rate is per second.
                Token::Slash => per_second(),
                Token::Ident("by") => attributes(self.model, &self.returned(start), false),
                Token::Ident("limit" | "segments") => Vec::new(),
                Token::Ident("batch") => vec![Completion::new("get", CompletionKind::Keyword).detail("BatchGetItem")],
                Token::Ident("scan") => {
                    // The index to scan, from the returned entities' table.
                    let table = self.returned(start).first().and_then(|&e| self.model.entity(e).table);
                    let mut out = table.map(|t| self.indexes(t)).unwrap_or_default();
                    out.extend(modifiers());
                    out
                }
                Token::Ident(_) if self.is_word(prev - 1, "by") => {
                    let mut out = vec![
                        Completion::new("asc", CompletionKind::Keyword).detail("ascending (the default)"),
                        Completion::new("desc", CompletionKind::Keyword).detail("descending"),
                    ];
                    out.extend(modifiers());
                    out
                }
                _ => {
                    let mut out = modifiers();
                    out.extend(top_level(self.model, false));
                    out
                }
            },
            Phase::Filter => self.in_filter(start, before),
            Phase::Query { eq } => self.in_query(start, eq, before),
        }
    }

    /// Where the first `before` tokens leave a pattern starting at `start`.
    fn pattern_phase(&self, start: usize, before: usize) -> Phase {
        (start + 1..before).fold(Phase::Head, |phase, index| self.pattern_phase_step(phase, index))
    }

    /// The entities a pattern returns (the whole item is read, also after
    /// the cursor), or every entity when none is written yet.
    fn returned(&self, start: usize) -> Vec<EntityId> {
        let end = self.item_end(start);
        let mut found = Vec::new();
        let mut phase = Phase::Head;
        for index in start + 1..end {
            let next = self.pattern_phase_step(phase, index);
            if matches!(phase, Phase::Returns)
                && matches!(next, Phase::Returns)
                && matches!(self.sig[index - 1].0, Token::Arrow | Token::Comma)
                && let Some(entity) = self.word(index).and_then(|w| self.model.entity_named(w))
                && !found.contains(&entity)
            {
                found.push(entity);
            }
            phase = next;
        }
        if found.is_empty() {
            self.model.entity_ids().map(|(id, _)| id).collect()
        } else {
            found
        }
    }

    /// The phase after token `index`.
    fn pattern_phase_step(&self, phase: Phase, index: usize) -> Phase {
        let token = self.sig[index].0;
        match phase {
            Phase::Head => match token {
                Token::LParen => Phase::Knowns { open: index, depth: 1 },
                Token::Arrow => Phase::Returns,
                _ => Phase::Head,
            },
            Phase::Knowns { open, depth } => match token {
                Token::LParen => Phase::Knowns { open, depth: depth + 1 },
                Token::RParen if depth == 1 => Phase::AfterKnowns,
                Token::RParen => Phase::Knowns { open, depth: depth - 1 },
                _ => phase,
            },
            Phase::AfterKnowns => match token {
                Token::Arrow => Phase::Returns,
                _ => phase,
            },
            Phase::Returns | Phase::Modifiers | Phase::Filter => match token {
                // In a filter, `=` compares; only `= query` pins the Query.
                Token::Eq if matches!(phase, Phase::Filter) && !self.is_word(index + 1, "query") => phase,
                Token::Eq => Phase::Query { eq: index },
                Token::Ident("where") if !matches!(self.sig[index - 1].0, Token::Arrow | Token::Comma) => Phase::Filter,
                Token::Ident("by" | "consistent" | "limit" | "get" | "batch" | "scan" | "segments")
                    if !matches!(self.sig[index - 1].0, Token::Arrow | Token::Comma) =>
                {
                    Phase::Modifiers
                }
                _ => phase,
            },
            Phase::Query { .. } => phase,
        }
    }

    /// The values a pattern's caller knows: known attributes (by equality or
    /// fixed) and range bounds, from its `( ... )`.
    fn known_values(&self, start: usize) -> Vec<Completion> {
        let end = self.item_end(start);
        let mut out = Vec::new();
        let mut phase = Phase::Head;
        for index in start + 1..end {
            let next = self.pattern_phase_step(phase, index);
            if let (Phase::Knowns { open, depth: 1 }, Phase::Knowns { depth: 1, .. }) = (phase, next)
                && let Some(name) = self.word(index)
            {
                let prev = self.sig[index - 1].0;
                let known_start = index - 1 == open || prev == Token::Comma;
                let bound = is_compare(prev) || matches!(prev, Token::Ident("between" | "and" | "begins_with"));
                // `attr = value` / `attr between a and b`: the attribute is
                // known by equality only in the first form.
                let ranged = !matches!(self.token(index + 1), Some(Token::Comma | Token::RParen | Token::Eq));
                if known_start && !ranged {
                    out.push(Completion::new(name, CompletionKind::Value).detail("known attribute"));
                } else if bound {
                    out.push(Completion::new(name, CompletionKind::Value).detail("caller value (range bound)"));
                }
            }
            phase = next;
        }
        out
    }

    // ---------- pinned queries ----------

    /// Reads `query Table[.index] where ...` from the `=` at `eq`.
    fn query_place(&self, eq: usize, before: usize) -> QueryPlace {
        let mut index = eq + 1;
        if index == before {
            return QueryPlace::ExpectQuery;
        }
        if !self.is_word(index, "query") {
            return QueryPlace::Dead;
        }
        index += 1;
        if index == before {
            return QueryPlace::ExpectTable;
        }
        let Some(table) = self.name_at(index).and_then(|t| self.model.table_named(&t)) else {
            return QueryPlace::Dead;
        };
        index += 1;
        let mut access = Some(0);
        if index < before && self.token(index) == Some(Token::Dot) {
            index += 1;
            if index == before {
                return QueryPlace::ExpectIndex(table);
            }
            let name = self.name_at(index);
            access = self
                .model
                .table(table)
                .access
                .iter()
                .position(|a| a.is_index() && Some(a.name.text.as_str()) == name.as_deref());
            index += 1;
        }
        if index == before {
            return QueryPlace::ExpectWhere;
        }
        if !self.is_word(index, "where") {
            return QueryPlace::Dead;
        }
        let mut cond = Cond::Start;
        for index in index + 1..before {
            cond = cond.step(self.sig[index].0);
        }
        QueryPlace::Condition { table, access, cond }
    }

    fn in_query(&self, start: usize, eq: usize, before: usize) -> Vec<Completion> {
        match self.query_place(eq, before) {
            QueryPlace::ExpectQuery => {
                vec![Completion::new("query", CompletionKind::Keyword).detail("pin the Query: `query Table where ...`")]
            }
            QueryPlace::ExpectTable => self.tables(),
            QueryPlace::ExpectIndex(table) => self.indexes(table),
            QueryPlace::ExpectWhere => vec![Completion::new("where", CompletionKind::Keyword)],
            QueryPlace::Dead => Vec::new(),
            QueryPlace::Condition { table, access, cond } => {
                let keys = access.and_then(|a| self.model.table(table).access.get(a));
                match cond {
                    Cond::Start => {
                        let mut out = Vec::new();
                        if let Some(keys) = keys {
                            out.push(Completion::new(&keys.pk.name, CompletionKind::Key).detail("partition key"));
                            if let Some(sk) = &keys.sk {
                                out.push(Completion::new(&sk.name, CompletionKind::Key).detail("sort key"));
                            }
                        }
                        out.push(
                            Completion::new("begins_with", CompletionKind::Keyword)
                                .detail("a sort-key prefix: `begins_with(sk, \"USER#\")`"),
                        );
                        out
                    }
                    Cond::BwKey => keys
                        .and_then(|k| k.sk.as_ref())
                        .map(|sk| vec![Completion::new(&sk.name, CompletionKind::Key).detail("sort key")])
                        .unwrap_or_default(),
                    Cond::AfterKey(_) => vec![Completion::new("between", CompletionKind::Keyword)],
                    Cond::AfterLow(_) => vec![Completion::new("and", CompletionKind::Keyword)],
                    Cond::Operand { .. } => self.known_values(start),
                    Cond::After => {
                        let mut out = vec![Completion::new("and", CompletionKind::Keyword).detail("another condition")];
                        out.extend(top_level(self.model, false));
                        out
                    }
                    Cond::BwOpen | Cond::BwComma(_) | Cond::BwClose | Cond::Dead => Vec::new(),
                }
            }
        }
    }

    // ---------- strings ----------

    /// A string where a name stands (`by "Sta`, `key "GSI1-`): the names the
    /// place takes, each replacing the whole string, quoted when it must be.
    /// After `=`, a comparison or `delimiter` a string is a value, not a name.
    fn quoted_name(&self, index: usize, span: Span) -> Vec<Completion> {
        let previous = index.checked_sub(1).and_then(|i| self.token(i));
        if previous.is_some_and(|t| t == Token::Eq || is_compare(t) || t == Token::Ident("delimiter")) {
            return Vec::new();
        }
        let typed = names::read(&self.text[span.start()..self.offset]);
        self.at(index)
            .into_iter()
            .filter(|c| is_dynamo_name(c.kind) && c.label.starts_with(typed.as_ref()))
            .map(|c| {
                let written = names::written(&c.label).into_owned();
                c.insert(written).replacing(span)
            })
            .collect()
    }

    fn in_string(&self, index: usize, span: Span) -> Vec<Completion> {
        let Some(place) = StringPlace::read(self.text, span, self.offset) else {
            return Vec::new();
        };
        let Some((start, kind)) = self.item(index) else {
            return Vec::new();
        };
        let Some(stack) = self.open_brackets(start, index) else {
            return Vec::new();
        };
        match kind {
            ItemKind::Table => Vec::new(),
            ItemKind::Entity => {
                // Only key templates: `name = "..."` directly in a body.
                let key = match index.checked_sub(2) {
                    Some(k) if self.token(k + 1) == Some(Token::Eq) => self.word(k),
                    _ => None,
                };
                let in_body = matches!(stack.last(), Some(&open) if self.sig[open].0 == Token::LBrace);
                let (Some(key), true) = (key, in_body) else {
                    return Vec::new();
                };
                let here = self.entity_here(start);
                match place {
                    StringPlace::Hole { typed, replace } => {
                        let names = match here {
                            Some(entity) => attributes(self.model, &[entity], true),
                            None => self.attributes_from_tokens(stack[0]),
                        };
                        hole_names(names, &typed, replace)
                    }
                    StringPlace::Prefix { typed, replace } => match self.entity_table(start) {
                        Some(table) => self.prefixes(table, key, &typed, replace, here),
                        None => Vec::new(),
                    },
                    StringPlace::AfterHole => Vec::new(),
                }
            }
            ItemKind::Pattern => {
                let Phase::Query { eq } = self.pattern_phase(start, index) else {
                    return Vec::new();
                };
                let QueryPlace::Condition { table, cond, .. } = self.query_place(eq, index) else {
                    return Vec::new();
                };
                let Cond::Operand { key, .. } = cond else {
                    return Vec::new();
                };
                match place {
                    StringPlace::Hole { typed, replace } => hole_names(self.known_values(start), &typed, replace),
                    StringPlace::Prefix { typed, replace } => self.prefixes(table, &key, &typed, replace, None),
                    StringPlace::AfterHole => Vec::new(),
                }
            }
        }
    }

    /// The registered leading literals of `key` on `table` that start with
    /// what is typed, each once, with the entities that write it.
    fn prefixes(
        &self,
        table: TableId,
        key: &str,
        typed: &str,
        replace: Span,
        exclude: Option<EntityId>,
    ) -> Vec<Completion> {
        let mut found: Vec<(String, Vec<&str>)> = Vec::new();
        for (literal, item) in self.file.analysis.schema.registry.entries(table, key) {
            if literal.is_empty() || !literal.starts_with(typed) || Some(item.entity) == exclude {
                continue;
            }
            let entity = self.model.entity(item.entity).name.text.as_str();
            match found.iter_mut().find(|(l, _)| l == literal) {
                Some((_, entities)) => {
                    if !entities.contains(&entity) {
                        entities.push(entity);
                    }
                }
                None => found.push((literal.clone(), vec![entity])),
            }
        }
        found
            .into_iter()
            .map(|(literal, entities)| {
                let escaped = escape(&literal);
                let mut c = Completion::new(&literal, CompletionKind::Prefix)
                    .detail(format!("{key} prefix of {}", entities.join(", ")))
                    .replacing(replace);
                if escaped != literal {
                    c = c.insert(escaped);
                }
                c
            })
            .collect()
    }

    /// `name: type` members of an entity body the model does not have (the
    /// entity did not lower), read from the tokens.
    fn attributes_from_tokens(&self, body: usize) -> Vec<Completion> {
        self.scope(body)
            .iter()
            .filter(|&&i| self.token(i + 1) == Some(Token::Colon))
            .filter_map(|&i| {
                let name = self.word(i)?;
                let ty = self.word(i + 2).unwrap_or("");
                (!matches!(ty, "binary" | "list" | "map"))
                    .then(|| Completion::new(name, CompletionKind::Attribute).detail(ty))
            })
            .collect()
    }

    // ---------- names ----------

    fn tables(&self) -> Vec<Completion> {
        self.model
            .tables
            .iter()
            .map(|t| {
                let keys = t
                    .base()
                    .map(|b| std::iter::once(b.pk.name.as_str()).chain(b.sk.as_ref().map(|s| s.name.as_str())))
                    .map(|k| k.collect::<Vec<_>>().join(", "))
                    .unwrap_or_default();
                Completion::new(t.name.text.as_str(), CompletionKind::Table).detail(format!("table ({keys})"))
            })
            .collect()
    }

    fn indexes(&self, table: TableId) -> Vec<Completion> {
        self.model
            .table(table)
            .access
            .iter()
            .filter(|a| a.is_index())
            .map(|a| {
                let keys = std::iter::once(a.pk.name.as_str()).chain(a.sk.as_ref().map(|s| s.name.as_str()));
                let kind = if a.kind == crate::check::model::AccessKind::Lsi {
                    "local index"
                } else {
                    "global index"
                };
                Completion::new(a.name.text.as_str(), CompletionKind::Index)
                    .detail(format!("{kind} ({})", keys.collect::<Vec<_>>().join(", ")))
            })
            .collect()
    }

    fn entities(&self) -> Vec<Completion> {
        self.model
            .entities
            .iter()
            .map(|e| {
                let c = Completion::new(e.name.text.as_str(), CompletionKind::Entity);
                match e.table {
                    Some(t) => c.detail(format!("entity in {}", self.model.table(t).name.text)),
                    None => c.detail("entity"),
                }
            })
            .collect()
    }
}
