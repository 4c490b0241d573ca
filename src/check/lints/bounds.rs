//! W203: a range whose caller passes a `date` for a `datetime` attribute
//! (`at <= until: date`). Keys compare as text, and a datetime extends the
//! text of its day (`2026-03-14T09:26:53Z` sorts after `2026-03-14`), so the
//! bound cuts at the day's first instant: `<=` (and `between`'s upper bound)
//! drops the rest of that day, `>` keeps all of it. `>=`, `<` and
//! `begins_with` mean what they say.

use crate::check::model::{AttrType, Model, Pattern};
use crate::diagnostic::{Code, Diagnostic};
use crate::syntax::ast::{CompareOp, KnownKind};

pub fn coarse_bounds(model: &Model, diagnostics: &mut Vec<Diagnostic>) {
    for pattern in &model.patterns {
        for known in &pattern.known {
            let Some(ty) = &known.bound_type else { continue };
            let Some(attr_ty) = attribute_type(model, pattern, &known.attr.text) else {
                continue; // E112 names the attribute.
            };
            let invalid = |message: String| Diagnostic::new(Code::InvalidTypeArguments, pattern.at(ty.span), message);
            if matches!(known.kind, KnownKind::Equal | KnownKind::Fixed(_)) {
                diagnostics.push(invalid(format!(
                    "only a range's bound takes a type: `{}` is an equality",
                    known.attr.text
                )));
                continue;
            }
            if ty.text == attr_ty.name() {
                continue;
            }
            if ty.text != "date" || !matches!(attr_ty, AttrType::DateTime(_)) {
                diagnostics.push(invalid(format!(
                    "a bound of `{}` is a `{}` (its type), or a `date` for a `datetime`, not `{}`",
                    known.attr.text,
                    attr_ty.name(),
                    ty.text
                )));
                continue;
            }
            let attr = &known.attr.text;
            let (bound, wrong) = match &known.kind {
                KnownKind::Compare(CompareOp::Le, b) => {
                    (b, "drops the rest of that day: every item after its midnight")
                }
                KnownKind::Between(_, high) => (
                    high,
                    "drops the rest of the upper bound's day: every item after its midnight",
                ),
                KnownKind::Compare(CompareOp::Gt, b) => {
                    (b, "keeps that whole day: every item of it sorts after the date")
                }
                _ => continue,
            };
            let name = &bound.text;
            diagnostics.push(
                Diagnostic::new(
                    Code::CoarseBound,
                    pattern.at(known.span),
                    format!(
                        "`{name}` is a date and `{attr}` a datetime: keys compare as text and `2026-03-14T09:26:53Z` sorts after `2026-03-14`, so with `{name}` = `2026-03-14` the Query {wrong}"
                    ),
                )
                .with_help(match &known.kind {
                    KnownKind::Compare(CompareOp::Gt, _) => {
                        format!("pass the next day and write `{attr} >= {name}: date`, or pass a datetime")
                    }
                    KnownKind::Between(..) => format!("pass datetimes, or the day's last instant as `{name}`"),
                    _ => format!("pass the next day and write `{attr} < {name}: date`, or pass a datetime"),
                }),
            );
        }
    }
}

/// The type of `attr` in the first returned entity that declares it.
fn attribute_type<'m>(model: &'m Model, pattern: &Pattern, attr: &str) -> Option<&'m AttrType> {
    let returned: Vec<_> = pattern.returns.iter().filter_map(|r| r.entity).collect();
    model.attribute_among(&returned, attr).map(|a| &a.ty)
}
