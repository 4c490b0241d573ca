//! What every name in a file refers to. One pass over the syntax tree
//! yields each occurrence (declaration or reference) with its symbol;
//! hover, definition, references and rename all look things up here. A
//! name that stands for several symbols at once (a pattern's known name
//! binds the attribute of that name in each returned entity) is one
//! occurrence per symbol, with the same span.

use smol_str::SmolStr;

use crate::check::Analysis;
use crate::check::model::{AccessId, EntityId, Model, PatternId, TableId};
use crate::syntax::Span;
use crate::syntax::ast::{self, Item, KnownKind, Name, Operand, Segment, StringLit};

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Symbol {
    Table(TableId),
    /// An index (never the base table).
    Index {
        table: TableId,
        access: AccessId,
    },
    /// A key attribute name (`pk`, `gsi1sk`) of a table.
    Key {
        table: TableId,
        name: SmolStr,
    },
    Entity(EntityId),
    Attribute {
        entity: EntityId,
        attr: usize,
    },
    Pattern(PatternId),
    /// A value a pattern's caller passes that is not an attribute (a range
    /// bound such as `since`).
    Value {
        pattern: PatternId,
        name: SmolStr,
    },
    /// A type tag: one delimiter-separated word of literal key text
    /// (`USER` in `"USER#{userId}"`), per table.
    Tag {
        table: TableId,
        text: SmolStr,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Occurrence {
    pub span: Span,
    pub symbol: Symbol,
    pub declaration: bool,
}

/// The occurrence under the cursor (a cursor right after a name counts).
pub fn at(occurrences: &[Occurrence], offset: usize) -> Option<&Occurrence> {
    // Prefer an occurrence that contains the offset over one that ends there.
    occurrences
        .iter()
        .find(|o| o.span.contains(offset))
        .or_else(|| occurrences.iter().find(|o| o.span.touches(offset)))
}

pub fn occurrences(analysis: &Analysis) -> Vec<Occurrence> {
    of_items(analysis, analysis.parse.file.items.iter())
}

/// The occurrences of the items that contain `offset` or end there: all
/// that [`at`] can find at `offset` (an item's occurrences lie within its
/// span), without walking the whole file.
pub fn occurrences_near(analysis: &Analysis, offset: usize) -> Vec<Occurrence> {
    let items = analysis.parse.file.items.iter();
    of_items(
        analysis,
        items.filter(|item| (item.span().start()..=item.span().end()).contains(&offset)),
    )
}

/// The type tags the entities' key templates write, in source order: what
/// a tag's hover lists, without walking the whole file (a hover right after
/// an edit comes before any index of it).
pub fn tags_written(analysis: &Analysis) -> Vec<Occurrence> {
    let mut walk = Walk {
        model: &analysis.schema.model,
        out: Vec::new(),
    };
    for item in &analysis.parse.file.items {
        if let Item::Entity(entity) = item
            && let Some(id) = walk.model.entity_named(&entity.name.text)
            && let Some(table) = walk.model.entity(id).table
        {
            for key in key_lines(entity) {
                walk.literals(table, &key.template);
            }
        }
    }
    // In source order, as the index has them.
    walk.out.sort_by_key(|o| (o.span.start(), o.span.end()));
    walk.out
}

/// An entity's key lines: its own, then its items'.
fn key_lines(entity: &ast::Entity) -> impl Iterator<Item = &ast::KeyTemplate> {
    entity.keys.iter().chain(entity.items.iter().flat_map(|i| &i.keys))
}

fn of_items<'a>(analysis: &Analysis, items: impl Iterator<Item = &'a Item>) -> Vec<Occurrence> {
    let mut walk = Walk {
        model: &analysis.schema.model,
        out: Vec::new(),
    };
    for item in items {
        let first = walk.out.len();
        walk.item(item);
        // Items come in source order and their occurrences lie within them:
        // sorting each item's own is sorting the whole, without a scratch
        // buffer the size of the file's occurrences.
        walk.out[first..].sort_by_key(|o| (o.span.start(), o.span.end()));
    }
    // Kept for the life of the analysis: without the room it grew into.
    walk.out.shrink_to_fit();
    walk.out
}

struct Walk<'m> {
    model: &'m Model,
    out: Vec<Occurrence>,
}

impl Walk<'_> {
    fn item(&mut self, item: &Item) {
        match item {
            Item::Table(t) => self.table(t),
            Item::Entity(e) => self.entity(e),
            Item::Pattern(p) => self.pattern(p),
        }
    }

    fn push(&mut self, span: Span, symbol: Symbol, declaration: bool) {
        self.out.push(Occurrence {
            span,
            symbol,
            declaration,
        });
    }

    fn table(&mut self, table: &ast::Table) {
        let Some(id) = self.model.table_named(&table.name.text) else {
            return;
        };
        self.push(table.name.span, Symbol::Table(id), true);
        for key in &table.keys {
            self.key_declarations(id, key.attrs());
        }
        for index in &table.indexes {
            let access = self.model.table(id).index_id(&index.name.text);
            if let Some(access) = access {
                self.push(index.name.span, Symbol::Index { table: id, access }, true);
            }
            self.key_declarations(id, index.attrs());
            // A key of several attributes names the entities' own
            // attributes: renaming one renames them together.
            let lists = std::iter::once(&index.partition).chain(&index.sort);
            for attr in lists.filter(|part| part.list.is_some()).flat_map(|part| &part.attrs) {
                self.attribute_everywhere(id, &attr.name);
            }
        }
        // `ttl expiresAt` names the attribute of each entity of the table
        // that declares it: one occurrence per entity, as a known value.
        for ttl in &table.ttls {
            self.attribute_everywhere(id, &ttl.attribute);
        }
    }

    /// `name` as an occurrence of the attribute of that name in each entity
    /// of `table` that declares it.
    fn attribute_everywhere(&mut self, table: TableId, name: &Name) {
        for (entity, model_entity) in self.model.entities.iter().enumerate() {
            if model_entity.table != Some(table) {
                continue;
            }
            if let Some(attr) = model_entity.attribute_id(&name.text) {
                let entity = EntityId::new(entity);
                self.push(name.span, Symbol::Attribute { entity, attr }, false);
            }
        }
    }

    /// Key attributes named in a table's `key` or `index` line.
    fn key_declarations<'k>(&mut self, table: TableId, attrs: impl Iterator<Item = &'k ast::KeyAttr>) {
        for attr in attrs {
            let symbol = Symbol::Key {
                table,
                name: attr.name.text.clone(),
            };
            self.push(attr.name.span, symbol, true);
        }
    }

    fn entity(&mut self, entity: &ast::Entity) {
        let Some(id) = self.model.entity_named(&entity.name.text) else {
            return;
        };
        let model_entity = self.model.entity(id);
        self.push(entity.name.span, Symbol::Entity(id), true);
        let table = model_entity.table;
        if let (Some(name), Some(table)) = (&entity.table, table) {
            self.push(name.span, Symbol::Table(table), false);
        }
        for attribute in &entity.attributes {
            if let Some(attr) = model_entity.attribute_id(&attribute.name.text) {
                // A duplicate declaration points at the first one's symbol too.
                self.push(attribute.name.span, Symbol::Attribute { entity: id, attr }, true);
            }
            // `shard(4, of userId)` names the attribute the shard is computed from.
            for arg in &attribute.ty.args {
                if let ast::TypeArg::Of(source) = arg
                    && let Some(symbol) = self.attribute(id, &source.text)
                {
                    self.push(source.span, symbol, false);
                }
            }
        }
        for key in key_lines(entity) {
            if let Some(table) = table {
                self.push(
                    key.key.span,
                    Symbol::Key {
                        table,
                        name: key.key.text.clone(),
                    },
                    false,
                );
            }
            self.template(id, table, &key.template);
        }
    }

    /// Holes refer to the entity's attributes; literal words are type tags.
    fn template(&mut self, entity: EntityId, table: Option<TableId>, template: &StringLit) {
        for segment in &template.segments {
            if let Segment::Hole { name, .. } = segment
                && let Some(attr) = self.attribute(entity, &name.text)
            {
                self.push(name.span, attr, false);
            }
        }
        if let Some(table) = table {
            self.literals(table, template);
        }
    }

    /// The type tags of a template's literal text.
    fn literals(&mut self, table: TableId, template: &StringLit) {
        for segment in &template.segments {
            if let Segment::Literal { text, span } = segment {
                self.tags(table, text, *span);
            }
        }
    }

    /// Each delimiter-separated word of a literal, when its source text is
    /// exactly its value (no escapes), so the word's span is exact.
    fn tags(&mut self, table: TableId, text: &str, span: Span) {
        if span.len() != text.len() {
            return;
        }
        let delimiter = self.model.table(table).delimiter.as_str();
        let mut at = 0;
        for word in text.split(delimiter) {
            if !word.is_empty() {
                let start = span.start() + at;
                self.push(
                    Span::new(start, start + word.len()),
                    Symbol::Tag {
                        table,
                        text: SmolStr::new(word),
                    },
                    false,
                );
            }
            at += word.len() + delimiter.len();
        }
    }

    fn attribute(&self, entity: EntityId, name: &str) -> Option<Symbol> {
        let attr = self.model.entity(entity).attribute_id(name)?;
        Some(Symbol::Attribute { entity, attr })
    }

    /// The attributes of that name of the pattern's returned entities: a
    /// known name binds each of them, so it is an occurrence of each (the
    /// first returned entity's first, which is what the cursor finds).
    fn returned_attributes(&self, pattern: PatternId, name: &str) -> Vec<Symbol> {
        let mut out = Vec::new();
        for entity in self.model.pattern(pattern).returns.iter().filter_map(|r| r.entity) {
            if let Some(symbol) = self.attribute(entity, name)
                && !out.contains(&symbol)
            {
                out.push(symbol);
            }
        }
        out
    }

    fn push_all(&mut self, span: Span, symbols: Vec<Symbol>) {
        for symbol in symbols {
            self.push(span, symbol, false);
        }
    }

    fn pattern(&mut self, pattern: &ast::Pattern) {
        let Some(id) = self.model.pattern_named(&pattern.name.text) else {
            return;
        };
        self.push(pattern.name.span, Symbol::Pattern(id), true);
        for returned in &pattern.returns {
            if let Some(entity) = self.model.entity_named(&returned.entity.text) {
                self.push(returned.entity.span, Symbol::Entity(entity), false);
            }
        }
        for known in &pattern.known {
            let attrs = self.returned_attributes(id, &known.attr.text);
            self.push_all(known.attr.span, attrs);
            let bounds: Vec<&Name> = match &known.kind {
                KnownKind::Compare(_, b) | KnownKind::BeginsWith(b) => vec![b],
                KnownKind::Between(a, b) => vec![a, b],
                KnownKind::Equal | KnownKind::Fixed(_) => vec![],
            };
            for bound in bounds {
                self.push(
                    bound.span,
                    Symbol::Value {
                        pattern: id,
                        name: bound.text.clone(),
                    },
                    true,
                );
            }
        }
        for modifier in &pattern.modifiers {
            match modifier {
                ast::Modifier::OrderBy { attr, .. } => {
                    let attrs = self.returned_attributes(id, &attr.text);
                    self.push_all(attr.span, attrs);
                }
                ast::Modifier::Operation {
                    operation: ast::Operation::Scan(Some(index)),
                    ..
                } => {
                    // The index of the returned entities' table.
                    let pattern = self.model.pattern(id);
                    let table = pattern.returns.iter().find_map(|r| self.model.entity(r.entity?).table);
                    if let Some(table) = table
                        && let Some(access) = self.model.table(table).index_id(&index.text)
                    {
                        self.push(index.span, Symbol::Index { table, access }, false);
                    }
                }
                ast::Modifier::Where(filter) => self.filter(id, filter),
                _ => {}
            }
        }
        if let Some(query) = &pattern.query {
            self.query(id, query);
        }
    }

    /// A filter's attributes are occurrences of the returned entities'
    /// attributes; its caller's values are the pattern's values (an enum
    /// word is neither).
    fn filter(&mut self, id: PatternId, filter: &ast::Filter) {
        for attr in filter.expr.attributes() {
            let attrs = self.returned_attributes(id, &attr.text);
            self.push_all(attr.span, attrs);
        }
        let returns: Vec<_> = self.model.pattern(id).returns.iter().filter_map(|r| r.entity).collect();
        for (attr, value) in filter.expr.values() {
            let operand = crate::check::filter::operand(self.model, &returns, &attr.text, value);
            if let (crate::check::filter::Operand::Param(name), ast::FilterValue::Word(word)) = (operand, value) {
                let symbol = Symbol::Value {
                    pattern: id,
                    name: SmolStr::new(name),
                };
                self.push(word.span, symbol, true);
            }
        }
    }

    fn query(&mut self, pattern: PatternId, query: &ast::Query) {
        let Some(table) = self.model.table_named(&query.table.text) else {
            return;
        };
        self.push(query.table.span, Symbol::Table(table), false);
        if let Some(index) = &query.index {
            let access = self.model.table(table).index_id(&index.text);
            if let Some(access) = access {
                self.push(index.span, Symbol::Index { table, access }, false);
            }
        }
        for condition in &query.conditions {
            self.push(
                condition.key.span,
                Symbol::Key {
                    table,
                    name: condition.key.text.clone(),
                },
                false,
            );
            let operands: Vec<&Operand> = match &condition.kind {
                ast::ConditionKind::Compare(_, o) | ast::ConditionKind::BeginsWith(o) => vec![o],
                ast::ConditionKind::Between(a, b) => vec![a, b],
            };
            for operand in operands {
                match operand {
                    Operand::Param(name) => self.value(pattern, name),
                    Operand::Str(s) => {
                        for segment in &s.segments {
                            match segment {
                                Segment::Hole { name, .. } => self.value(pattern, name),
                                Segment::Literal { text, span } => self.tags(table, text, *span),
                            }
                        }
                    }
                    Operand::Number(..) => {}
                }
            }
        }
    }

    /// A name standing for a value in a pinned query: a known attribute, or
    /// a range bound.
    fn value(&mut self, pattern: PatternId, name: &Name) {
        let is_bound = self.model.pattern(pattern).known.iter().any(|k| match &k.kind {
            KnownKind::Compare(_, b) | KnownKind::BeginsWith(b) => b.text == name.text,
            KnownKind::Between(a, b) => a.text == name.text || b.text == name.text,
            KnownKind::Equal | KnownKind::Fixed(_) => false,
        });
        if is_bound {
            self.push(
                name.span,
                Symbol::Value {
                    pattern,
                    name: name.text.clone(),
                },
                false,
            );
        } else {
            let attrs = self.returned_attributes(pattern, &name.text);
            self.push_all(name.span, attrs);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The schemas of the tests, one with broken items (recovery leaves
    /// partial trees), and one whose entity has a key line after its items.
    fn texts() -> Vec<String> {
        let mut texts = crate::test_edits::texts();
        texts.push(texts[0].replacen('}', "", 3));
        texts.push(
            "table T {\n  key pk, sk\n  index gsi1 (gsi1pk)\n}\n\nentity M in T {\n  a: id\n  \
             item { pk = \"ITEM#{a}\"  sk = \"ITEM\" }\n  gsi1pk = \"LATER#{a}\"\n}\n"
                .to_string(),
        );
        texts
    }

    #[test]
    fn sorting_each_item_sorts_the_whole_file_as_one_sort_would() {
        for text in &texts() {
            let analysis = crate::check::analyze(text);
            let mut walk = Walk {
                model: &analysis.schema.model,
                out: Vec::new(),
            };
            for item in &analysis.parse.file.items {
                walk.item(item);
            }
            walk.out.sort_by_key(|o| (o.span.start(), o.span.end()));
            assert_eq!(occurrences(&analysis), walk.out);
        }
    }

    #[test]
    fn the_tags_written_are_the_index_tags_inside_entities() {
        let mut tags = 0;
        for text in &texts() {
            let analysis = crate::check::analyze(text);
            let entities: Vec<Span> = (analysis.parse.file.items.iter())
                .filter(|item| matches!(item, Item::Entity(_)))
                .map(Item::span)
                .collect();
            let expected: Vec<Occurrence> = (occurrences(&analysis).into_iter())
                .filter(|o| matches!(o.symbol, Symbol::Tag { .. }))
                .filter(|o| {
                    entities
                        .iter()
                        .any(|e| e.start() <= o.span.start() && o.span.end() <= e.end())
                })
                .collect();
            tags += expected.len();
            assert_eq!(tags_written(&analysis), expected);
        }
        assert!(tags > 50, "{tags}");
    }

    #[test]
    fn the_items_at_an_offset_hold_what_the_whole_index_finds_there() {
        let mut found = 0;
        for text in &texts() {
            let analysis = crate::check::analyze(text);
            let all = occurrences(&analysis);
            found += all.len();
            for offset in 0..=text.len() {
                let near = occurrences_near(&analysis, offset);
                assert_eq!(at(&near, offset), at(&all, offset), "at {offset}");
            }
        }
        assert!(found > 50, "{found}");
    }
}
