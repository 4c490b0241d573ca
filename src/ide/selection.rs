//! Selection ranges (expand / shrink selection): from the token under the
//! cursor outwards through the syntax it sits in — a hole, its template
//! string, the key line, the entity or item body, the declaration with its
//! docs — to the whole file. Each range strictly contains the one before.

use super::File;
use super::locate;
use crate::syntax::Span;
use crate::syntax::ast::{self, FilterExpr, Item, KnownKind, Operand, Segment, StringLit};
use crate::syntax::lexer;

/// The ranges around `offset`, innermost first, ending with the whole file.
/// An offset past the end gives the whole file alone.
pub fn ranges(file: &File, offset: usize) -> Vec<Span> {
    let text = &*file.text;
    let mut candidates: Vec<Span> = Vec::new();
    if let Some(token) = token_at(text, offset) {
        candidates.push(token);
    }
    // A name, or one word of a key's literal text (a type tag).
    if let Some(occurrence) = locate::at(file.occurrences(), offset) {
        candidates.push(occurrence.span);
    }
    for item in &file.analysis.parse.file.items {
        if item.span().touches(offset) || item_with_docs(item).touches(offset) {
            Collect {
                text,
                offset,
                out: &mut candidates,
            }
            .item(item);
        }
    }
    candidates.push(Span::new(0, text.len()));
    chain(candidates, offset)
}

/// The token (comments included) containing the offset, or ending at it.
fn token_at(text: &str, offset: usize) -> Option<Span> {
    let mut containing = None;
    let mut ending = None;
    lexer::lex_into(text, &mut Vec::new(), |_, span| {
        if span.contains(offset) {
            containing = Some(span);
        } else if span.end() == offset && !span.is_empty() {
            ending = Some(span);
        }
    });
    containing.or(ending)
}

/// Innermost first: the smallest candidate touching the offset, then each
/// larger one that covers everything before it.
fn chain(mut candidates: Vec<Span>, offset: usize) -> Vec<Span> {
    candidates.retain(|s| s.touches(offset));
    candidates.sort_by_key(|s| (s.len(), s.start()));
    let mut out: Vec<Span> = Vec::new();
    for span in candidates {
        match out.last() {
            None => out.push(span),
            Some(last) if span.start() <= last.start() && last.end() <= span.end() && span.len() > last.len() => {
                out.push(span)
            }
            Some(_) => {}
        }
    }
    out
}

fn item_with_docs(item: &Item) -> Span {
    let docs = match item {
        Item::Table(t) => t.docs.as_ref(),
        Item::Entity(e) => e.docs.as_ref(),
        Item::Pattern(p) => p.docs.as_ref(),
    };
    docs.map_or(item.span(), |d| d.span.cover(item.span()))
}

struct Collect<'a> {
    text: &'a str,
    offset: usize,
    out: &'a mut Vec<Span>,
}

impl Collect<'_> {
    fn push(&mut self, span: Span) {
        if span.touches(self.offset) {
            self.out.push(span);
        }
    }

    /// `{ … }` from the first `{` after `from` to the end of `within`.
    fn braces(&mut self, from: usize, within: Span) {
        let Some(rest) = self.text.get(from..within.end()) else {
            return;
        };
        if let Some(open) = rest.find('{')
            && self.text[..within.end()].ends_with('}')
        {
            self.push(Span::new(from + open, within.end()));
        }
    }

    fn item(&mut self, item: &Item) {
        self.push(item.span());
        self.push(item_with_docs(item));
        self.push(item.name().span);
        match item {
            Item::Table(t) => self.table(t),
            Item::Entity(e) => self.entity(e),
            Item::Pattern(p) => self.pattern(p),
        }
    }

    fn docs(&mut self, docs: &Option<Box<ast::Docs>>) {
        if let Some(docs) = docs {
            self.push(docs.span);
        }
    }

    fn table(&mut self, table: &ast::Table) {
        self.braces(table.name.span.end(), table.span);
        for key in &table.keys {
            self.push(key.span);
            self.key_attrs(key.attrs());
        }
        for index in &table.indexes {
            self.push(index.span);
            self.docs(&index.docs);
            self.push(index.name.span);
            self.key_attrs(index.attrs());
        }
        for ttl in &table.ttls {
            self.push(ttl.span);
            self.push(ttl.attribute.span);
        }
        for delimiter in &table.delimiters {
            self.push(delimiter.span);
            self.string(&delimiter.value);
        }
    }

    fn key_attrs<'k>(&mut self, attrs: impl Iterator<Item = &'k ast::KeyAttr>) {
        for attr in attrs {
            self.push(attr.name.span);
            if let Some((_, span)) = attr.ty {
                self.push(span);
                self.push(attr.name.span.cover(span));
            }
        }
    }

    fn entity(&mut self, entity: &ast::Entity) {
        self.braces(entity.name.span.end(), entity.span);
        if let Some(table) = &entity.table {
            self.push(table.span);
        }
        for attribute in &entity.attributes {
            self.push(attribute.span);
            self.docs(&attribute.docs);
            self.push(attribute.name.span);
            self.push(attribute.ty.span);
            for arg in &attribute.ty.args {
                self.push(arg.span());
                if let ast::TypeArg::Str(s) = arg {
                    self.string(s);
                }
            }
        }
        self.templates(&entity.keys);
        for item in &entity.items {
            self.push(item.span);
            self.braces(item.span.start(), item.span);
            self.templates(&item.keys);
        }
    }

    fn templates(&mut self, keys: &[ast::KeyTemplate]) {
        for key in keys {
            self.push(key.span);
            self.docs(&key.docs);
            self.push(key.key.span);
            self.string(&key.template);
        }
    }

    /// The string with its quotes, its contents without them, and each
    /// segment (a hole with its braces, then its name).
    fn string(&mut self, string: &StringLit) {
        self.push(string.span);
        if string.span.len() >= 2 {
            self.push(Span::new(string.span.start() + 1, string.span.end() - 1));
        }
        for segment in &string.segments {
            self.push(segment.span());
            if let Segment::Hole { name, .. } = segment {
                self.push(name.span);
            }
        }
    }

    fn pattern(&mut self, pattern: &ast::Pattern) {
        // `(…)`: from the `(` after the name to the `)` after the last value.
        let after_name = pattern.name.span.end();
        let last = pattern.known.last().map_or(after_name, |k| k.span.end());
        let rest = self.text.get(after_name..pattern.span.end()).unwrap_or("");
        if rest.trim_start().starts_with('(')
            && let Some(close) = self.text.get(last..pattern.span.end()).and_then(|r| r.find(')'))
        {
            let open = after_name + rest.find('(').unwrap_or(0);
            self.push(Span::new(open, last + close + 1));
        }
        for known in &pattern.known {
            self.push(known.span);
            self.push(known.attr.span);
            match &known.kind {
                KnownKind::Compare(_, b) | KnownKind::BeginsWith(b) => self.push(b.span),
                KnownKind::Between(a, b) => {
                    self.push(a.span);
                    self.push(b.span);
                }
                KnownKind::Equal | KnownKind::Fixed(_) => {}
            }
            if let Some(ty) = &known.bound_type {
                self.push(ty.span);
            }
        }
        for returned in &pattern.returns {
            self.push(returned.span);
            self.push(returned.entity.span);
        }
        if let (Some(first), Some(last)) = (pattern.returns.first(), pattern.returns.last()) {
            self.push(first.span.cover(last.span));
        }
        for modifier in &pattern.modifiers {
            self.push(modifier.span());
            match modifier {
                ast::Modifier::OrderBy { attr, .. } => self.push(attr.span),
                ast::Modifier::Operation {
                    operation: ast::Operation::Scan(Some(index)),
                    ..
                } => self.push(index.span),
                ast::Modifier::Where(filter) => filter.expr.visit(&mut |e| self.filter(e)),
                _ => {}
            }
        }
        if let Some(query) = &pattern.query {
            self.push(query.span);
            self.push(query.table.span);
            if let Some(index) = &query.index {
                self.push(index.span);
                self.push(query.table.span.cover(index.span));
            }
            for condition in &query.conditions {
                self.push(condition.span);
                self.push(condition.key.span);
                let operands: Vec<&Operand> = match &condition.kind {
                    ast::ConditionKind::Compare(_, o) | ast::ConditionKind::BeginsWith(o) => vec![o],
                    ast::ConditionKind::Between(a, b) => vec![a, b],
                };
                for operand in operands {
                    match operand {
                        Operand::Str(s) => self.string(s),
                        other => self.push(other.span()),
                    }
                }
            }
        }
    }

    fn filter(&mut self, expr: &FilterExpr) {
        self.push(expr.span());
        match expr {
            FilterExpr::Compare { attr, value, .. } | FilterExpr::BeginsWith { attr, value, .. } => {
                self.push(attr.span);
                self.push(value.span());
            }
            FilterExpr::In { attr, values, .. } => {
                self.push(attr.span);
                for value in values {
                    self.push(value.span());
                }
            }
            FilterExpr::Exists { attr, .. } => self.push(attr.span),
            _ => {}
        }
    }
}
