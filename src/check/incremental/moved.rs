//! Moving a kept part of the earlier check along the text: an entity the
//! edit did not touch, and what lowering it reported.

use crate::check::model::{Attribute, Entity, ItemShape, KeyValue, Part, Template};
use crate::diagnostic::Diagnostic;
use crate::syntax::shift::{Shift, shift_fields};
use crate::syntax::{FileId, Span};

shift_fields! {
    Entity { name, span, attributes, items; file, docs, table, size_hint, rate }
    Attribute { name, span, ty_span; ty, optional, size_hint }
    ItemShape { span, keys; }
    KeyValue { span, template; attr, implicit }
    Template { span, parts; lang }
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
