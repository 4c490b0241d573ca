//! An entity's attributes and size hints, old against new. What matters is
//! how an existing item is read: an attribute it lacks, a value stored as
//! another DynamoDB type, a name it was written under.

use super::Pair;
use crate::diff::{At, Change, Class};

pub fn compare(pair: &Pair<'_>, out: &mut Vec<Change>) {
    let (a, b) = (pair.a, pair.b);
    let subject = pair.subject;
    for &(i, j) in &pair.attributes.pairs {
        let (x, y) = (&a.attributes[i], &b.attributes[j]);
        if pair.attributes.renamed.contains(&(i, j)) {
            out.push(
                Change::new(
                    Class::Migration,
                    subject,
                    At::New(pair.b.at(y.name.span)),
                    format!(
                        "attribute `{}` is renamed `{}` (recognised as a rename: same type, same place): existing items still store `{}`",
                        x.name.text, y.name.text, x.name.text
                    ),
                )
                .was(pair.a.at(x.span))
                .steps(vec![
                    format!("copy `{}` to `{}` on every existing `{}` item", x.name.text, y.name.text, b.name.text),
                    format!("remove `{}` once every reader uses `{}`", x.name.text, y.name.text),
                ])
                .affecting(pair.affected(0)),
            );
        }
        if x.ty != y.ty {
            let (was, now) = (pair.old_type(i), pair.new_type(j));
            let (old_kind, new_kind) = (x.ty.stored_kind(), y.ty.stored_kind());
            if old_kind != new_kind {
                out.push(
                    Change::new(
                        Class::Migration,
                        subject,
                        At::New(pair.b.at(y.ty_span)),
                        format!(
                            "`{}` changes from `{was}` to `{now}`: existing items store it as {old_kind}, the new readers expect {new_kind}",
                            y.name.text
                        ),
                    )
                    .was(pair.a.at(x.span))
                    .steps(vec![format!(
                        "rewrite `{}` on every existing `{}` item as {new_kind}",
                        y.name.text, b.name.text
                    )])
                    .affecting(pair.affected(0)),
                );
            } else if !in_a_key(pair, j) {
                out.push(
                    Change::new(
                        Class::Safe,
                        subject,
                        At::New(pair.b.at(y.ty_span)),
                        format!(
                            "`{}` changes from `{was}` to `{now}`, stored as {new_kind} as before",
                            y.name.text
                        ),
                    )
                    .was(pair.a.at(x.span)),
                );
            }
        }
        if x.optional && !y.optional {
            out.push(
                Change::new(
                    Class::Migration,
                    subject,
                    At::New(pair.b.at(y.span)),
                    format!("`{}` becomes required: existing items may not have it", y.name.text),
                )
                .was(pair.a.at(x.span))
                .steps(vec![format!(
                    "give `{}` a value on every existing `{}` item that lacks it",
                    y.name.text, b.name.text
                )])
                .affecting(pair.affected(0)),
            );
        } else if !x.optional && y.optional {
            out.push(
                Change::new(
                    Class::Safe,
                    subject,
                    At::New(pair.b.at(y.span)),
                    format!("`{}` becomes optional", y.name.text),
                )
                .was(pair.a.at(x.span)),
            );
        }
        if x.size_hint != y.size_hint {
            out.push(
                Change::new(
                    Class::Safe,
                    subject,
                    At::New(pair.b.at(y.ty_span)),
                    format!(
                        "the size hint of `{}` changes ({} → {}): only estimates change",
                        y.name.text,
                        hint(x.size_hint),
                        hint(y.size_hint)
                    ),
                )
                .was(pair.a.at(x.span)),
            );
        }
    }
    for &j in &pair.attributes.added {
        let y = &b.attributes[j];
        let change = if y.optional {
            Change::new(
                Class::Safe,
                subject,
                At::New(pair.b.at(y.span)),
                format!(
                    "new optional attribute `{}`: existing items simply lack it",
                    y.name.text
                ),
            )
        } else {
            Change::new(
                Class::Migration,
                subject,
                At::New(pair.b.at(y.span)),
                format!(
                    "new required attribute `{}`: existing `{}` items do not have it",
                    y.name.text, b.name.text
                ),
            )
            .steps(vec![format!(
                "give `{}` a value on every existing `{}` item (or declare it optional: `{}?`)",
                y.name.text, b.name.text, y.name.text
            )])
            .affecting(pair.affected(0))
        };
        out.push(change);
    }
    for &i in &pair.attributes.removed {
        let x = &a.attributes[i];
        out.push(Change::new(
            Class::Safe,
            subject,
            At::Old(pair.a.at(x.span)),
            format!(
                "attribute `{}` is removed: existing items keep it, nothing reads it",
                x.name.text
            ),
        ));
    }
    if a.size_hint != b.size_hint {
        out.push(
            Change::new(
                Class::Safe,
                subject,
                At::New(pair.b.at(b.name.span)),
                format!(
                    "the size hint of `{}` changes ({} → {}): only estimates change",
                    b.name.text,
                    hint(a.size_hint),
                    hint(b.size_hint)
                ),
            )
            .was(pair.a.at(a.name.span)),
        );
    }
}

/// Whether the new attribute `j` is a hole of a key template: then a type
/// change is a key change, reported with the key.
fn in_a_key(pair: &Pair<'_>, j: usize) -> bool {
    pair.b.items.iter().any(|item| {
        item.keys
            .iter()
            .any(|k| k.template.holes().any(|(_, attr)| attr == Some(j)))
    })
}

fn hint(bytes: Option<f64>) -> String {
    bytes.map_or("none".into(), |b| format!("~{b} B"))
}
