//! An entity's item shapes and their key templates, old against new.

use super::{Pair, Piece, access_of, pieces};
use crate::check::model::{AccessKind, ItemShape, KeyValue, Table};
use crate::diff::{Affected, At, Change, Class};

/// Pairs the old item shapes with the new ones (equal keys first, then in
/// declaration order) and compares each pair's keys.
pub fn compare_shapes(pair: &Pair<'_>, table: &Table, out: &mut Vec<Change>) {
    let (a, b) = (pair.a, pair.b);
    let old_delimiter = delimiter(pair, true);
    let new_delimiter = &table.delimiter;
    let old_text = |s: &ItemShape| -> Vec<(String, String)> {
        let mut keys: Vec<_> = s
            .keys
            .iter()
            .map(|k| (k.attr.to_string(), Piece::text(&old_pieces(pair, k, &old_delimiter))))
            .collect();
        keys.sort();
        keys
    };
    let new_text = |s: &ItemShape| -> Vec<(String, String)> {
        let mut keys: Vec<_> = s
            .keys
            .iter()
            .map(|k| (k.attr.to_string(), Piece::text(&pieces(k, b, new_delimiter, |_| None))))
            .collect();
        keys.sort();
        keys
    };
    let mut old_left: Vec<usize> = (0..a.items.len()).collect();
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let mut new_left: Vec<usize> = Vec::new();
    for (j, shape) in b.items.iter().enumerate() {
        match old_left.iter().position(|&i| old_text(&a.items[i]) == new_text(shape)) {
            Some(at) => pairs.push((old_left.remove(at), j)),
            None => new_left.push(j),
        }
    }
    new_left.retain(|&j| {
        if old_left.is_empty() {
            return true;
        }
        pairs.push((old_left.remove(0), j));
        false
    });
    pairs.sort_by_key(|&(_, j)| j);
    for (i, j) in pairs {
        compare_keys(pair, table, i, j, &old_delimiter, out);
    }
    for j in new_left {
        let affected = pair.affected(0);
        out.push(
            Change::new(
                Class::Migration,
                pair.subject,
                At::New(pair.b.at(b.items[j].span)),
                format!(
                    "`{}` writes a new item: existing `{}` records do not have it yet",
                    b.name.text, b.name.text
                ),
            )
            .was(pair.a.at(a.name.span))
            .steps(vec![
                format!(
                    "read each existing `{}` record by its old keys ({})",
                    a.name.text,
                    templates(&affected.keys)
                ),
                format!("write the new item for it: {}", new_keys(&b.items[j])),
            ])
            .affecting(affected),
        );
    }
    for i in old_left {
        let affected = pair.affected(i);
        out.push(
            Change::new(
                Class::Migration,
                pair.subject,
                At::New(pair.b.at(b.name.span)),
                format!(
                    "`{}` no longer writes the item with keys {}: the existing ones stay, read by nothing",
                    b.name.text,
                    templates(&affected.keys)
                ),
            )
            .was(pair.a.at(a.items[i].span))
            .steps(vec![format!(
                "delete the items with keys {} (or keep them)",
                templates(&affected.keys)
            )])
            .affecting(affected),
        );
    }
}

fn delimiter(pair: &Pair<'_>, old: bool) -> String {
    let (version, entity) = if old { (pair.old, pair.a) } else { (pair.new, pair.b) };
    entity
        .table
        .map(|t| version.schema.model.table(t).delimiter.clone())
        .unwrap_or_default()
}

/// An old key's pieces, its holes under the attributes' new names.
fn old_pieces(pair: &Pair<'_>, key: &KeyValue, delimiter: &str) -> Vec<Piece> {
    pieces(key, pair.a, delimiter, |i| {
        pair.attributes
            .new_of(i)
            .map(|j| pair.b.attributes[j].name.text.to_string())
    })
}

fn compare_keys(pair: &Pair<'_>, table: &Table, i: usize, j: usize, old_delimiter: &str, out: &mut Vec<Change>) {
    let (old_shape, new_shape) = (&pair.a.items[i], &pair.b.items[j]);
    let base: Vec<&str> = table
        .base()
        .map(|k| k.key_attributes().map(|a| a.name.as_str()).collect())
        .unwrap_or_default();
    let old_table = pair.a.table.map(|t| pair.old.schema.model.table(t));
    let affected = pair.affected(i);
    let migrate = |new_keys_text: String| migration_steps(&affected, Some(new_keys_text), &table.name.text);
    let mut entering: Vec<(&str, crate::syntax::Span, Vec<&str>)> = Vec::new();
    for new_key in &new_shape.keys {
        let new_pieces = pieces(new_key, pair.b, &table.delimiter, |_| None);
        let Some(old_key) = old_shape.key(&new_key.attr) else {
            // A new base key means a new key schema: reported with the table.
            if base.contains(&new_key.attr.as_str()) {
                continue;
            }
            let Some((index, kind)) = access_of(table, &new_key.attr) else {
                continue;
            };
            // A plain attribute as an index key: DynamoDB indexes every
            // item that has the attribute, old ones included; an attribute
            // the old items lack is the attribute's change (members).
            let index_is_new = old_table.is_none_or(|t| t.index_id(index).is_none());
            if new_key.implicit || (index_is_new && kind == AccessKind::Lsi) {
                continue;
            }
            // One change per index: its first new key is shown.
            if !entering.iter().any(|(i, _, _)| *i == index) {
                entering.push((index, new_key.span, Vec::new()));
            }
            if let Some((_, _, attrs)) = entering.iter_mut().find(|(i, _, _)| *i == index) {
                attrs.push(new_key.attr.as_str());
            }
            continue;
        };
        let old = old_pieces(pair, old_key, old_delimiter);
        let message = if Piece::text(&old) != Piece::text(&new_pieces) {
            format!(
                "`{}` of `{}` changes from `{}` to `{}` ({}): items written under the old template are not found by the new keys",
                new_key.attr,
                pair.b.name.text,
                old_key.template.text(),
                new_key.template.text(),
                how(&old, &new_pieces)
            )
        } else if old != new_pieces && !new_key.implicit {
            // A plain attribute's value is stored as is: its type change is
            // the attribute's (members), not a new key text.
            let holes = retyped(pair, old_key);
            format!(
                "the text of `{}` of `{}` changes although its template `{}` does not: {holes}",
                new_key.attr,
                pair.b.name.text,
                new_key.template.text()
            )
        } else {
            continue;
        };
        out.push(
            Change::new(
                Class::Migration,
                pair.subject,
                At::New(pair.b.at(new_key.span)),
                message,
            )
            .was(pair.a.at(old_key.span))
            .steps(migrate(new_keys(new_shape)))
            .affecting(affected.clone()),
        );
    }
    for (index, span, attrs) in entering {
        out.push(
            Change::new(
                Class::Migration,
                pair.subject,
                At::New(pair.b.at(span)),
                format!(
                    "`{}` items now write {}, so they enter index `{index}`: the items already written are not in it until rewritten",
                    pair.b.name.text,
                    quoted(&attrs)
                ),
            )
            .steps(migrate(new_keys(new_shape)))
            .affecting(affected.clone()),
        );
    }
    let mut leaving: Vec<(&str, Vec<&KeyValue>)> = Vec::new();
    for old_key in &old_shape.keys {
        if new_shape.key(&old_key.attr).is_some() || base.contains(&old_key.attr.as_str()) {
            continue;
        }
        // Gone with its index: the index's removal says it.
        let Some((index, _)) = access_of(table, &old_key.attr) else {
            continue;
        };
        match leaving.iter_mut().find(|(i, _)| *i == index) {
            Some((_, keys)) => keys.push(old_key),
            None => leaving.push((index, vec![old_key])),
        }
    }
    for (index, keys) in leaving {
        let attrs: Vec<&str> = keys.iter().map(|k| k.attr.as_str()).collect();
        out.push(
            Change::new(
                Class::Migration,
                pair.subject,
                At::New(pair.b.at(pair.b.name.span)),
                format!(
                    "`{}` items no longer write {}: the items already written stay in index `{index}` until that is removed from them",
                    pair.b.name.text,
                    quoted(&attrs)
                ),
            )
            .was(pair.a.at(keys[0].span))
            .steps(vec![
                format!("find the items by their old keys ({})", templates(&affected.keys)),
                format!("remove {} from each (UpdateItem REMOVE)", quoted(&attrs)),
            ])
            .affecting(affected.clone()),
        );
    }
}

/// `` `gsi1pk` and `gsi1sk` ``.
fn quoted(attrs: &[&str]) -> String {
    attrs.iter().map(|a| format!("`{a}`")).collect::<Vec<_>>().join(" and ")
}

/// Why two templates' texts differ, in the words of the issue tracker:
/// prefix renamed, hole added/removed/reordered, literal text changed.
fn how(old: &[Piece], new: &[Piece]) -> String {
    let prefix = |ps: &[Piece]| match ps.first() {
        Some(Piece::Literal(t)) => t.clone(),
        _ => String::new(),
    };
    let holes = |ps: &[Piece]| -> Vec<String> {
        ps.iter()
            .filter_map(|p| match p {
                Piece::Hole(n, _) => Some(n.clone()),
                Piece::Literal(_) => None,
            })
            .collect()
    };
    let (old_holes, new_holes) = (holes(old), holes(new));
    let mut why = Vec::new();
    match (prefix(old), prefix(new)) {
        (a, b) if a == b => {}
        (a, b) if b.is_empty() => why.push(format!("prefix `{a}` removed")),
        (a, b) if a.is_empty() => why.push(format!("prefix `{b}` added")),
        (a, b) => why.push(format!("prefix `{a}` → `{b}`")),
    }
    for h in new_holes.iter().filter(|h| !old_holes.contains(h)) {
        why.push(format!("hole `{{{h}}}` added"));
    }
    for h in old_holes.iter().filter(|h| !new_holes.contains(h)) {
        why.push(format!("hole `{{{h}}}` removed"));
    }
    let mut sorted_old = old_holes.clone();
    let mut sorted_new = new_holes.clone();
    sorted_old.sort();
    sorted_new.sort();
    if sorted_old == sorted_new && old_holes != new_holes {
        why.push("holes reordered".into());
    }
    if why.is_empty() {
        why.push("literal text between the holes (the delimiter) changes".into());
    }
    why.join(", ")
}

/// `{n}` is `int`, now `int(pad 6)`: each hole whose attribute's text changes.
fn retyped(pair: &Pair<'_>, old_key: &KeyValue) -> String {
    let mut out = Vec::new();
    for (name, attr) in old_key.template.holes() {
        let Some(i) = attr else { continue };
        let Some(j) = pair.attributes.new_of(i) else { continue };
        let (x, y) = (&pair.a.attributes[i], &pair.b.attributes[j]);
        if x.ty != y.ty {
            out.push(format!(
                "`{{{}}}` is written as `{}`, now as `{}`",
                name.text,
                pair.old_type(i),
                pair.new_type(j)
            ));
        }
    }
    if out.is_empty() {
        "the table's delimiter changes what an `id` hole may hold".into()
    } else {
        out.join("; ")
    }
}

/// `pk `USER#{userId}`, sk `PROFILE``.
pub fn templates(keys: &[(String, String)]) -> String {
    keys.iter()
        .map(|(attr, text)| format!("{attr} `{text}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn new_keys(shape: &ItemShape) -> String {
    let keys: Vec<(String, String)> = shape
        .keys
        .iter()
        .filter(|k| !k.implicit)
        .map(|k| (k.attr.to_string(), k.template.text()))
        .collect();
    templates(&keys)
}

/// Read by the old key → write the new keys → delete the old item.
pub fn migration_steps(affected: &Affected, new_keys: Option<String>, table: &str) -> Vec<String> {
    let scan = match affected.keys.first() {
        Some((attr, text)) => {
            let prefix: String = text.split('{').next().unwrap_or_default().to_string();
            format!(
                " (a Scan of `{}` with begins_with({attr}, \"{prefix}\"), or a Query per known partition)",
                affected.table
            )
        }
        None => String::new(),
    };
    vec![
        format!("read every item with the old keys {}{scan}", templates(&affected.keys)),
        match new_keys {
            Some(keys) => format!("write it again with the new keys {keys}"),
            None => format!("write it again into table `{table}`"),
        },
        "delete the old item once every reader uses the new keys".to_string(),
    ]
}
