//! Moving a kept part of the earlier check along the text: an entity or a
//! pattern the edit did not touch, and what lowering it reported.

use std::borrow::Cow;

use crate::check::model::{Attribute, Entity, ItemShape, KeyValue, Model, Order, Part, Pattern, Return, Template};
use crate::diagnostic::Diagnostic;
use crate::syntax::shift::{Shift, shift_fields};
use crate::syntax::{FileId, Span, ast};

shift_fields! {
    Entity { name, span, attributes, items; file, docs, table, size_hint, rate }
    Attribute { name, span, ty_span; ty, optional, size_hint }
    ItemShape { span, keys; }
    KeyValue { span, template; attr, implicit }
    Template { span, parts; lang }
    Return { name, span; entity, many, count }
    Order { attr, span; descending }
}

impl Shift for Part {
    fn shift(&mut self, delta: isize) {
        match self {
            Part::Literal { span, text: _ } => span.shift(delta),
            Part::Hole { name, span, attr: _ } => {
                name.shift(delta);
                span.shift(delta);
            }
        }
    }
}

impl Shift for Pattern {
    fn shift(&mut self, delta: isize) {
        let Pattern {
            file: _,
            name,
            span,
            docs: _,
            known,
            returns,
            order,
            consistent,
            limit: _,
            rate: _,
            operation,
            segments,
            filter,
            modifiers_end,
            query,
        } = self;
        name.shift(delta);
        span.shift(delta);
        known.shift(delta);
        returns.shift(delta);
        order.shift(delta);
        consistent.shift(delta);
        if let Some((at, operation)) = operation {
            at.shift(delta);
            operation.shift(delta);
        }
        if let Some((at, _)) = segments {
            at.shift(delta);
        }
        filter.shift(delta);
        *modifiers_end = modifiers_end.wrapping_add_signed(delta);
        query.shift(delta);
    }
}

/// An entity or a pattern of the model, with what lowering it reported.
pub(super) trait Lowered: Clone + Sized {
    fn of(model: &Model) -> (&[Self], &[Vec<Diagnostic>]);
    fn of_mut(model: &mut Model) -> (&mut [Self], &mut [Vec<Diagnostic>]);
    /// Puts it at the `n`th place of `model`'s items (see `Model::set_entity`).
    fn set(model: &mut Model, n: usize, item: Self, reported: Vec<Diagnostic>);
    fn place(&self) -> (FileId, Span);
    fn docs_mut(&mut self) -> &mut Option<String>;
    /// What stays behind when it is taken: its place, nothing more (the
    /// earlier model is only read for places after that).
    fn husk(&self) -> Self;
}

impl Lowered for Entity {
    fn of(model: &Model) -> (&[Self], &[Vec<Diagnostic>]) {
        (&model.entities, &model.entity_diagnostics)
    }

    fn of_mut(model: &mut Model) -> (&mut [Self], &mut [Vec<Diagnostic>]) {
        (&mut model.entities, &mut model.entity_diagnostics)
    }

    fn set(model: &mut Model, n: usize, item: Self, reported: Vec<Diagnostic>) {
        model.set_entity(n, item, reported);
    }

    fn place(&self) -> (FileId, Span) {
        (self.file, self.span)
    }

    fn docs_mut(&mut self) -> &mut Option<String> {
        &mut self.docs
    }

    fn husk(&self) -> Self {
        Entity {
            file: self.file,
            name: nameless(self.span),
            span: self.span,
            docs: None,
            table: self.table,
            attributes: Vec::new(),
            items: Vec::new(),
            size_hint: None,
            rate: None,
        }
    }
}

impl Lowered for Pattern {
    fn of(model: &Model) -> (&[Self], &[Vec<Diagnostic>]) {
        (&model.patterns, &model.pattern_diagnostics)
    }

    fn of_mut(model: &mut Model) -> (&mut [Self], &mut [Vec<Diagnostic>]) {
        (&mut model.patterns, &mut model.pattern_diagnostics)
    }

    fn set(model: &mut Model, n: usize, item: Self, reported: Vec<Diagnostic>) {
        model.set_pattern(n, item, reported);
    }

    fn place(&self) -> (FileId, Span) {
        (self.file, self.span)
    }

    fn docs_mut(&mut self) -> &mut Option<String> {
        &mut self.docs
    }

    fn husk(&self) -> Self {
        Pattern {
            file: self.file,
            name: nameless(self.span),
            span: self.span,
            docs: None,
            known: Vec::new(),
            returns: Vec::new(),
            order: None,
            consistent: None,
            limit: None,
            rate: None,
            operation: None,
            segments: None,
            filter: None,
            modifiers_end: self.modifiers_end,
            query: None,
        }
    }
}

fn nameless(span: Span) -> ast::Name {
    ast::Name {
        text: Default::default(),
        span,
    }
}

/// The `n`th item and what lowering it reported: taken out of an owned
/// model (a husk stays), copied from a borrowed one.
pub(super) fn take<T: Lowered>(model: &mut Cow<'_, Model>, n: usize) -> (T, Vec<Diagnostic>) {
    match model {
        Cow::Borrowed(model) => {
            let (items, reported) = T::of(model);
            (items[n].clone(), reported[n].clone())
        }
        Cow::Owned(model) => {
            let (items, reported) = T::of_mut(model);
            let husk = items[n].husk();
            (std::mem::replace(&mut items[n], husk), std::mem::take(&mut reported[n]))
        }
    }
}

/// The docs as the tree has them now: they lie before the item, in the
/// stretch of the item before, so an edit there changes them without
/// touching the item.
pub(super) fn read_docs_again(kept: &mut Option<String>, now: &Option<Box<ast::Docs>>) {
    let now = now.as_ref().map(|d| d.text.as_str());
    if kept.as_deref() != now {
        *kept = now.map(str::to_string);
    }
}

/// Moves every place `diagnostic` points at by `shift(file, span)`: a
/// related place or a fix may lie on the other side of the edit than the
/// diagnostic itself.
pub(super) fn move_diagnostic(diagnostic: &mut Diagnostic, shift: impl Fn(FileId, Span) -> isize) {
    let by = shift(diagnostic.file, diagnostic.span);
    diagnostic.span.shift(by);
    for related in &mut diagnostic.related {
        related.at.span.shift(shift(related.at.file, related.at.span));
    }
    for fix in &mut diagnostic.fixes {
        for (at, _) in &mut fix.edits {
            at.span.shift(shift(at.file, at.span));
        }
    }
}
