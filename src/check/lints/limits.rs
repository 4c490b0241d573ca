//! E302: key values longer than DynamoDB allows — 2048 bytes for a
//! partition key, 1024 bytes for a sort key (dynamodb-rules.md 2.5). Only
//! provable when every hole of the template is bounded (`enum`, `date`,
//! `uuid`, `int(pad N)`, …); an `id` or `string` can always be short.

use crate::check::fxhash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::check::lang::{Part, Shape};
use crate::check::model::{EntityId, KeyAttr, Model, Table};
use crate::diagnostic::{Code, Diagnostic};
use crate::syntax::ast::KeyType;

pub const PARTITION_KEY_MAX: usize = 2048;
pub const SORT_KEY_MAX: usize = 1024;

pub fn key_lengths(model: &Model, entities: &[EntityId], diagnostics: &mut Vec<Diagnostic>) {
    let mut seen = HashSet::default();
    // The longest rendering of each distinct hole shape, computed once.
    let mut shape_max: HashMap<&Shape, Option<usize>> = HashMap::default();
    for entity in entities.iter().map(|&e| model.entity(e)) {
        let Some(table) = entity.table.map(|t| model.table(t)) else {
            continue;
        };
        for key in entity.items.iter().flat_map(|i| &i.keys) {
            let Some((limit, role)) = limit(table, &key.attr) else {
                continue;
            };
            // Keys written beside `item { }` blocks are shared by items.
            if !seen.insert(entity.at(key.template.span)) {
                continue;
            }
            // Holes are independent, so the longest value is the sum of the
            // longest of each part; `None` as soon as one is unbounded.
            let max = key.template.lang.parts.iter().try_fold(0usize, |sum, part| {
                let len = match part {
                    Part::Literal(text) => Some(text.len()),
                    Part::Hole(shape) => *shape_max.entry(shape).or_insert_with(|| shape.len_bounds().1),
                };
                len.map(|l| sum + l)
            });
            let Some(max) = max else { continue };
            if max > limit {
                diagnostics.push(
                    Diagnostic::new(
                        Code::KeyTooLong,
                        entity.at(key.template.span),
                        format!(
                            "`{}` of `{}` can be {max} bytes long, over DynamoDB's limit of {limit} bytes for a {role}",
                            key.attr, entity.name.text
                        ),
                    )
                    .with_label(format!("up to {max} bytes"))
                    .with_help("shorten the literal text, or use shorter values (a smaller `pad`, shorter enum words)"),
                );
            }
        }
    }
}

/// The strictest limit of the roles `attr` plays in the table and its
/// indexes: a sort key anywhere is limited to 1024 bytes.
fn limit(table: &Table, attr: &str) -> Option<(usize, &'static str)> {
    let string_key = |k: &KeyAttr| k.name == attr && k.ty != KeyType::Number;
    if table.access.iter().any(|a| a.sk.as_ref().is_some_and(string_key)) {
        return Some((SORT_KEY_MAX, "sort key"));
    }
    table
        .access
        .iter()
        .any(|a| string_key(&a.pk))
        .then_some((PARTITION_KEY_MAX, "partition key"))
}
