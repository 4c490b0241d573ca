//! Moving a piece of tree (or a diagnostic) along the text: an edit before
//! an item moves every offset in it by the same amount, so an item whose
//! own text is unchanged is kept, shifted, instead of parsed again.

use super::ast::*;
use super::{FileId, Span};
use crate::diagnostic::Diagnostic;

/// Adds `delta` to every offset held.
pub trait Shift {
    fn shift(&mut self, delta: isize);
}

impl Shift for Span {
    fn shift(&mut self, delta: isize) {
        *self = self.shifted(delta);
    }
}

impl<T: Shift> Shift for Vec<T> {
    fn shift(&mut self, delta: isize) {
        self.iter_mut().for_each(|t| t.shift(delta));
    }
}

impl<T: Shift> Shift for Option<T> {
    fn shift(&mut self, delta: isize) {
        if let Some(t) = self {
            t.shift(delta);
        }
    }
}

impl<T: Shift> Shift for Box<T> {
    fn shift(&mut self, delta: isize) {
        (**self).shift(delta);
    }
}

/// Structs: the fields that hold offsets, then (after `;`) the others. The
/// struct is destructured without `..`, so a field added to the tree does
/// not compile until it is listed here, shifted or not.
macro_rules! shift_fields {
    ($($ty:ident { $($field:ident),* ; $($other:ident),* })*) => {
        $(impl Shift for $ty {
            fn shift(&mut self, delta: isize) {
                let $ty { $($field,)* $($other: _,)* } = self;
                $($field.shift(delta);)*
            }
        })*
    };
}

/// For the checker's model, whose items are kept across edits too.
pub(crate) use shift_fields;

shift_fields! {
    Name { span; text }
    Docs { span; text }
    Table { span, docs, name, keys, indexes, delimiters, ttls; }
    KeyDecl { span, partition, sort; }
    KeyPart { attrs, list; }
    IndexDecl { span, docs, name, partition, sort, projection; local }
    TtlDecl { span, attribute; }
    DelimiterDecl { span, value; }
    Entity { span, docs, name, table, size, rate, attributes, keys, items; }
    Attribute { span, docs, name, ty; optional }
    TypeRef { span, name, args; }
    KeyTemplate { span, docs, key, template; }
    ItemShape { span, keys; }
    SizeHint { span; amount, unit }
    RateHint { span; per_second, text }
    StringLit { span, segments; }
    Pattern { span, docs, name, known, returns, modifiers, query; }
    Known { span, attr, kind, bound_type; }
    Returned { span, entity, count; many }
    Filter { span, expr, keeps; }
    Share { span; fraction, text }
    Query { span, table, index, conditions; }
    Condition { span, key, kind; }
}

impl Shift for KeyAttr {
    fn shift(&mut self, delta: isize) {
        let KeyAttr { name, ty } = self;
        name.shift(delta);
        if let Some((_, span)) = ty {
            span.shift(delta);
        }
    }
}

impl Shift for Item {
    fn shift(&mut self, delta: isize) {
        match self {
            Item::Table(t) => t.shift(delta),
            Item::Entity(e) => e.shift(delta),
            Item::Pattern(p) => p.shift(delta),
        }
    }
}

impl Shift for Projection {
    fn shift(&mut self, delta: isize) {
        match self {
            Projection::Default => {}
            Projection::All(span) | Projection::KeysOnly(span) => span.shift(delta),
            Projection::Include(span, names) => {
                span.shift(delta);
                names.shift(delta);
            }
        }
    }
}

impl Shift for TypeArg {
    fn shift(&mut self, delta: isize) {
        match self {
            TypeArg::Pad { span, .. } | TypeArg::Count { span, .. } => span.shift(delta),
            TypeArg::Size(size) => size.shift(delta),
            TypeArg::Word(name) | TypeArg::Of(name) => name.shift(delta),
            TypeArg::Str(lit) => lit.shift(delta),
        }
    }
}

impl Shift for Segment {
    fn shift(&mut self, delta: isize) {
        match self {
            Segment::Literal { span, .. } => span.shift(delta),
            Segment::Hole { name, span } => {
                name.shift(delta);
                span.shift(delta);
            }
        }
    }
}

impl Shift for KnownKind {
    fn shift(&mut self, delta: isize) {
        match self {
            KnownKind::Equal => {}
            KnownKind::Fixed(literal) => literal.shift(delta),
            KnownKind::Compare(_, name) | KnownKind::BeginsWith(name) => name.shift(delta),
            KnownKind::Between(low, high) => {
                low.shift(delta);
                high.shift(delta);
            }
        }
    }
}

impl Shift for Literal {
    fn shift(&mut self, delta: isize) {
        match self {
            Literal::Str(lit) => lit.shift(delta),
            Literal::Number(_, span) | Literal::Bool(_, span) => span.shift(delta),
            Literal::Word(name) => name.shift(delta),
        }
    }
}

impl Shift for Modifier {
    fn shift(&mut self, delta: isize) {
        match self {
            Modifier::OrderBy { span, attr, .. } => {
                span.shift(delta);
                attr.shift(delta);
            }
            Modifier::Consistent(span) | Modifier::Limit { span, .. } | Modifier::Segments { span, .. } => {
                span.shift(delta)
            }
            Modifier::Operation { span, operation } => {
                span.shift(delta);
                operation.shift(delta);
            }
            Modifier::Where(filter) => filter.shift(delta),
            Modifier::Rate(rate) => rate.shift(delta),
        }
    }
}

impl Shift for Operation {
    fn shift(&mut self, delta: isize) {
        match self {
            Operation::Get | Operation::BatchGet => {}
            Operation::Scan(index) => index.shift(delta),
        }
    }
}

impl Shift for FilterExpr {
    fn shift(&mut self, delta: isize) {
        match self {
            FilterExpr::Compare { span, attr, value, .. } | FilterExpr::BeginsWith { span, attr, value } => {
                span.shift(delta);
                attr.shift(delta);
                value.shift(delta);
            }
            FilterExpr::In { span, attr, values } => {
                span.shift(delta);
                attr.shift(delta);
                values.shift(delta);
            }
            FilterExpr::Exists { span, attr, .. } => {
                span.shift(delta);
                attr.shift(delta);
            }
            FilterExpr::And(left, right) | FilterExpr::Or(left, right) => {
                left.shift(delta);
                right.shift(delta);
            }
            FilterExpr::Not { span, inner } | FilterExpr::Group { span, inner } => {
                span.shift(delta);
                inner.shift(delta);
            }
        }
    }
}

impl Shift for FilterValue {
    fn shift(&mut self, delta: isize) {
        match self {
            FilterValue::Literal(literal) => literal.shift(delta),
            FilterValue::Word(name) => name.shift(delta),
        }
    }
}

impl Shift for ConditionKind {
    fn shift(&mut self, delta: isize) {
        match self {
            ConditionKind::Compare(_, operand) | ConditionKind::BeginsWith(operand) => operand.shift(delta),
            ConditionKind::Between(low, high) => {
                low.shift(delta);
                high.shift(delta);
            }
        }
    }
}

impl Shift for Operand {
    fn shift(&mut self, delta: isize) {
        match self {
            Operand::Str(lit) => lit.shift(delta),
            Operand::Number(_, span) => span.shift(delta),
            Operand::Param(name) => name.shift(delta),
        }
    }
}

/// A diagnostic of `file` moves with its text; what it says of other files
/// stays where it is.
pub fn shift_diagnostic(diagnostic: &mut Diagnostic, file: FileId, delta: isize) {
    if diagnostic.file == file {
        diagnostic.span.shift(delta);
    }
    for related in &mut diagnostic.related {
        if related.at.file == file {
            related.at.span.shift(delta);
        }
    }
    for fix in &mut diagnostic.fixes {
        for (at, _) in &mut fix.edits {
            if at.file == file {
                at.span.shift(delta);
            }
        }
    }
}
