//! Lints on the literal text of key templates: type tags whose listing Query
//! also reads another tag's items (W301) and delimiters other than the
//! table's (W302).

use crate::check::fxhash::FxHashSet as HashSet;

use super::{key_of, shorten};
use crate::check::lang;
use crate::check::model::{EntityId, KeyValue, Model, Part, Table, TableId};
use crate::check::resolve::registry::Registry;
use crate::diagnostic::{Code, Diagnostic};
use crate::syntax::ast::KeyType;

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

/// One template on a sort key, with the partition key its item writes for
/// the same table or index.
struct Tagged<'m> {
    tag: &'m str,
    sk: &'m KeyValue,
    pk: &'m KeyValue,
    entity: EntityId,
}

impl Tagged<'_> {
    /// The `begins_with` prefix of the Query that lists this template's
    /// items: its literal text before the first hole. A template without a
    /// hole is read with `=`, which can return nothing else.
    fn query_prefix(&self) -> Option<String> {
        let has_hole = self.sk.template.parts.iter().any(|p| matches!(p, Part::Hole { .. }));
        has_hole.then(|| self.sk.template.literal_prefix())
    }

    /// Whether listing `self`'s items with `begins_with` also returns one of
    /// `other`'s: some key of `other` begins with the prefix, and the two can
    /// share a partition (exact, with the template languages).
    fn leaks_into(&self, other: &Tagged) -> Option<String> {
        let prefix = self.query_prefix()?;
        (other.sk.template.lang.may_begin_with(&prefix) && self.pk.template.lang.overlaps(&other.pk.template.lang))
            .then_some(prefix)
    }
}

/// W301: on one string sort key of the table or an index, the Query that
/// lists one type tag's items (`begins_with(sk, "USER")`, the template's
/// literal text before its first hole) also returns items of another tag
/// (`USERGROUP#…`) in the same partition. One diagnostic per pair of distinct
/// tags and sort key. Candidates are found by sorting the tags and scanning
/// forward only while the next tag extends the current one (two tags that
/// are not prefixes of one another cannot leak: both would be prefixes of
/// one key); each candidate is then decided exactly.
pub fn type_tag_prefixes(model: &Model, registry: &Registry, table_id: TableId, diagnostics: &mut Vec<Diagnostic>) {
    let table = model.table(table_id);
    let mut reported: HashSet<(&str, &str, &str)> = HashSet::default();
    // A multi-attribute key has no templates to read a type tag from.
    for access in table.access.iter().filter(|a| !a.is_multi_attribute()) {
        let Some(sk) = access.sk.as_ref().filter(|k| k.ty == KeyType::String) else {
            continue;
        };
        let attr = sk.name.as_str();
        // Parts, not templates: a template caches its automaton.
        let mut seen: HashSet<(&[lang::Part], &[lang::Part])> = HashSet::default();
        let mut tagged: Vec<Tagged> = registry
            .entries(table_id, attr)
            .iter()
            .filter_map(|(leading, item)| {
                let tag = type_tag(leading, &table.delimiter);
                let key = key_of(model, *item, attr)?;
                // Not in this index without its partition key.
                let pk = key_of(model, *item, &access.pk.name)?;
                (!tag.is_empty() && !key.implicit).then_some(Tagged {
                    tag,
                    sk: key,
                    pk,
                    entity: item.entity,
                })
            })
            .collect();
        // In source order within a tag; the same pair of templates once.
        tagged.sort_by(|a, b| {
            a.tag
                .cmp(b.tag)
                .then(a.sk.template.span.start().cmp(&b.sk.template.span.start()))
        });
        tagged.retain(|t| seen.insert((&t.sk.template.lang.parts, &t.pk.template.lang.parts)));
        let groups: Vec<&[Tagged]> = tagged.chunk_by(|a, b| a.tag == b.tag).collect();
        for (i, group) in groups.iter().enumerate() {
            let short = group[0].tag;
            for other in groups[i + 1..].iter().take_while(|g| g[0].tag.starts_with(short)) {
                let leak = group.iter().find_map(|a| {
                    other.iter().find_map(|b| {
                        a.leaks_into(b)
                            .map(|p| (a, b, p))
                            .or_else(|| b.leaks_into(a).map(|p| (b, a, p)))
                    })
                });
                let Some((from, into, prefix)) = leak else { continue };
                if !reported.insert((attr, short, other[0].tag)) {
                    continue;
                }
                diagnostics.push(leak_diagnostic(model, table, attr, from, into, &prefix));
            }
        }
    }
}

fn leak_diagnostic(model: &Model, table: &Table, attr: &str, from: &Tagged, into: &Tagged, prefix: &str) -> Diagnostic {
    let (from_name, into_name) = (
        &model.entity(from.entity).name.text,
        &model.entity(into.entity).name.text,
    );
    let prefix = shorten(prefix);
    Diagnostic::new(
        Code::TypeTagPrefix,
        model.entity(from.entity).at(from.sk.template.span),
        format!(
            "type tag `{}` is a prefix of `{}` on `{attr}`: `begins_with({attr}, \"{prefix}\")`, the Query that \
             lists `{from_name}` items, also returns `{into_name}` items",
            from.tag, into.tag
        ),
    )
    .with_label(format!(
        "every `{from_name}` key starts `{prefix}`, and so can a `{into_name}` key"
    ))
    .with_related(
        model.entity(into.entity).at(into.sk.template.span),
        format!("`{into_name}` writes `{}` here", into.sk.template.lang_display()),
    )
    .with_help(format!(
        "end the tag with the delimiter (`{}{}`), or rename one tag so that neither is a prefix of the other",
        from.tag, table.delimiter
    ))
}

/// W302: a template literal that contains a delimiter-like character other
/// than its table's delimiter. One diagnostic per literal segment.
pub fn mixed_delimiters(model: &Model, entities: &[EntityId], diagnostics: &mut Vec<Diagnostic>) {
    let mut seen = HashSet::default();
    for entity in entities.iter().map(|&e| model.entity(e)) {
        let Some(table) = entity.table.map(|t| model.table(t)) else {
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
                if foreign.is_empty() || !seen.insert(entity.at(*span)) {
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
                        entity.at(*span),
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
