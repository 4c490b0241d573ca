//! Lints on the literal text of key templates: type tags that are prefixes
//! of one another (W301) and delimiters other than the table's (W302).

use std::collections::HashSet;

use super::{key_of, shorten, string_sort_keys};
use crate::check::model::{EntityId, KeyValue, Model, Part};
use crate::check::resolve::registry::Registry;
use crate::diagnostic::{Code, Diagnostic};

/// Characters that separate the parts of a key in common single-table
/// designs. Any of these in a template literal, other than the table's own
/// delimiter, splits keys into two spellings (`USER#1` vs `USER:1`) that no
/// one `begins_with` covers. `-`, `.` and `_` are deliberately absent: they
/// occur inside words, dates, decimals and versions. `$` too: some libraries
/// start every key with `$` by convention.
pub const DELIMITER_LIKE: &[char] = &['#', ':', '|', '/', ';', '~', '^'];

/// The type tag of a template with this leading literal: the text before the
/// first delimiter, or the whole leading literal when it has none.
pub fn type_tag<'a>(leading: &'a str, delimiter: &str) -> &'a str {
    match leading.find(delimiter) {
        Some(end) if !delimiter.is_empty() => &leading[..end],
        _ => leading,
    }
}

/// W301: on one string sort key of one table, a type tag that is a proper
/// prefix of another (`USER` / `USERGROUP`): `begins_with(sk, "USER")` reads
/// both. One diagnostic per pair of distinct tags, found by sorting the tags
/// and scanning forward only while the next tag extends the current one.
pub fn type_tag_prefixes(model: &Model, registry: &Registry, diagnostics: &mut Vec<Diagnostic>) {
    for (table_id, table) in model.tables.iter().enumerate() {
        for attr in string_sort_keys(table) {
            let mut tags: Vec<(&str, &KeyValue, EntityId)> = registry
                .entries(table_id, attr)
                .iter()
                .filter_map(|(leading, item)| {
                    let tag = type_tag(leading, &table.delimiter);
                    let key = key_of(model, *item, attr)?;
                    (!tag.is_empty() && !key.implicit).then_some((tag, key, item.entity))
                })
                .collect();
            // The first template (in source order) stands for its tag.
            tags.sort_by(|a, b| a.0.cmp(b.0).then(a.1.template.span.start.cmp(&b.1.template.span.start)));
            tags.dedup_by(|later, first| later.0 == first.0);
            for (i, &(short, short_key, short_entity)) in tags.iter().enumerate() {
                for &(long, long_key, long_entity) in tags[i + 1..].iter().take_while(|t| t.0.starts_with(short)) {
                    let (short_name, long_name) = (
                        &model.entities[short_entity].name.text,
                        &model.entities[long_entity].name.text,
                    );
                    diagnostics.push(
                        Diagnostic::new(
                            Code::TypeTagPrefix,
                            short_key.template.span,
                            format!(
                                "type tag `{short}` is a prefix of `{long}` on `{attr}`: \
                                 `begins_with({attr}, \"{short}\")` returns both `{short_name}` and `{long_name}` items"
                            ),
                        )
                        .with_label(format!("`{short}` is a prefix of `{long}`"))
                        .with_related(
                            long_key.template.span,
                            format!("`{long_name}` writes `{}` here", long_key.template.lang_display()),
                        )
                        .with_help(format!(
                            "rename one tag so that neither is a prefix of the other, or always end the \
                             condition with the delimiter: `begins_with({attr}, \"{short}{}\")`",
                            table.delimiter
                        )),
                    );
                }
            }
        }
    }
}

/// W302: a template literal that contains a delimiter-like character other
/// than its table's delimiter. One diagnostic per literal segment.
pub fn mixed_delimiters(model: &Model, diagnostics: &mut Vec<Diagnostic>) {
    let mut seen = HashSet::new();
    for entity in &model.entities {
        let Some(table) = entity.table.map(|t| &model.tables[t]) else {
            continue;
        };
        let delimiter = table.delimiter.as_str();
        for key in entity.items.iter().flat_map(|i| &i.keys).filter(|k| !k.implicit) {
            for part in &key.template.parts {
                let Part::Literal { text, span } = part else { continue };
                let mut foreign: Vec<char> = Vec::new();
                for c in text.chars() {
                    if DELIMITER_LIKE.contains(&c) && !delimiter.contains(c) && !foreign.contains(&c) {
                        foreign.push(c);
                    }
                }
                // Keys written beside `item { }` blocks are shared by items.
                if foreign.is_empty() || !seen.insert(*span) {
                    continue;
                }
                let listed = foreign.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", ");
                let fixed: String = text
                    .chars()
                    .map(|c| {
                        if foreign.contains(&c) {
                            delimiter.to_string()
                        } else {
                            c.to_string()
                        }
                    })
                    .collect();
                diagnostics.push(
                    Diagnostic::new(
                        Code::MixedDelimiter,
                        *span,
                        format!(
                            "{listed} in `{}` is not the delimiter of table `{}` (`{delimiter}`): keys spelled \
                             with two delimiters are missed by a `begins_with` written with the other",
                            shorten(text),
                            table.name.text
                        ),
                    )
                    .with_label(format!("the table's delimiter is `{delimiter}`"))
                    .with_help(format!(
                        "write `{}`, or declare `delimiter \"{}\"` on the table if every key uses it",
                        shorten(&fixed),
                        foreign[0]
                    )),
                );
            }
        }
    }
}
