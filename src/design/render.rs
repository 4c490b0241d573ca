//! The layout as text: key templates, index declarations and the types an
//! order needs, as edits to the schema the user wrote (which keep every
//! comment and line of it).
//!
//! Partition keys are built from the attributes' names (`TENANT#{tenantId}`),
//! so entities keyed on the same attributes share a partition — the item
//! collection a read of several entities needs. An entity that would land in
//! the partition of such a read without being one of its returns gets its
//! own prefix (`USER#TENANT#{tenantId}`), else the read would return it too.
//! Sort keys start with the entity's tag (`INVOICE#{number}`); the tags are
//! chosen so that none is a prefix of another.

use std::collections::HashMap;

use super::layout::{Existing, Layout, Place, identities};
use super::needs::Need;
use crate::check::lints::hot;
use crate::check::model::{AccessKind, AttrType, EntityId, Model, TableId, Zone};
use crate::check::shard::MAX_SHARDS;
use crate::generate::names::words;
use crate::syntax::Span;
use crate::syntax::names;
use crate::syntax::print::escape;

/// One key attribute's template for one slot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyLine {
    pub attr: String,
    pub template: String,
}

/// An index the design declares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexDecl {
    pub table: TableId,
    pub place: Place,
    pub name: String,
    pub pk: String,
    pub sk: String,
}

#[derive(Clone, Debug, Default)]
pub struct Rendered {
    /// Edits to the input text, in no particular order.
    pub edits: Vec<(Span, String)>,
    pub new_indexes: Vec<IndexDecl>,
    /// Per slot: its key lines (empty when not written).
    pub keys: Vec<Vec<KeyLine>>,
    /// Attributes whose type changed: (entity, attribute, new type).
    pub retyped: Vec<(EntityId, String, String)>,
    /// Write shards declared: (entity, the attribute's line).
    pub sharded: Vec<(EntityId, String)>,
    /// Total characters of the templates written: the tie-breaker.
    pub key_chars: usize,
}

/// The key lines of one entity: its table item, its index keys (written in
/// the table item), its second table items.
#[derive(Default)]
struct EntityLines {
    main: Vec<KeyLine>,
    indexes: Vec<KeyLine>,
    twice: Vec<Vec<KeyLine>>,
}

/// `AuditEvent` → `AUDIT_EVENT`; `tenantId` → `TENANT`.
fn tag_of(name: &str, drop_id: bool) -> String {
    let mut words = words(name);
    if drop_id && words.len() > 1 && words.last().is_some_and(|w| w.eq_ignore_ascii_case("id")) {
        words.pop();
    }
    let tag = words.join("_").to_uppercase();
    if tag.is_empty() { "ITEM".into() } else { tag }
}

/// Each entity's sort-key tag, none a prefix of another: the shorter names
/// first keep their own (`ORDER`), a longer one that starts like a taken
/// tag gets its last word (`ITEM` for `OrderItem`), or its initials, or a
/// numbered tag.
fn tags(model: &Model) -> HashMap<EntityId, String> {
    let mut entities: Vec<(EntityId, &str)> = model.entity_ids().map(|(id, e)| (id, e.name.text.as_str())).collect();
    entities.sort_by_key(|(id, name)| (name.len(), *id));
    let mut out: HashMap<EntityId, String> = HashMap::new();
    let mut taken: Vec<String> = Vec::new();
    for (id, name) in entities {
        let base = tag_of(name, false);
        let words = words(name);
        let last = words.last().map(|w| w.to_uppercase());
        let initials: String = words
            .iter()
            .filter_map(|w| w.chars().next())
            .collect::<String>()
            .to_uppercase();
        let clashes = |t: &str| taken.iter().any(|o| o.starts_with(t) || t.starts_with(o.as_str()));
        let tag = std::iter::once(base.clone())
            .chain(last)
            .chain(std::iter::once(initials))
            .chain((1..=model.entities.len() + 1).map(|n| format!("T{n}_{base}")))
            .find(|t| !t.is_empty() && !clashes(t))
            .unwrap_or_else(|| format!("{base}_{}", id.index()));
        taken.push(tag.clone());
        out.insert(id, tag);
    }
    out
}

/// The write shard of an entity whose rate hint is more than one
/// partition takes: its own `shard(N)` attribute when it has one with
/// enough shards, else one declared by the design.
struct Shard {
    attr: String,
    /// `shard: shard(3)`, when declared by the design.
    declare: Option<String>,
}

/// Whether `slot`'s partition key takes more writes than one partition
/// serves (W304) and a shard can spread them: not for a slot an exact read
/// uses (it could not know a random shard), nor one already sharded.
fn needs_shard(model: &Model, needs: &[Need], slot: &super::slots::Slot) -> bool {
    shards_needed(model, needs, slot).is_some()
}

/// How many shards `slot`'s partition key needs, when it needs them.
fn shards_needed(model: &Model, needs: &[Need], slot: &super::slots::Slot) -> Option<u32> {
    if slot.serves.iter().any(|&n| needs[n].exact) {
        return None;
    }
    let holes: Vec<&str> = slot.partition.iter().map(String::as_str).collect();
    let (n, _) = hot::shards_needed_on_new_index(model, slot.entity, &holes)?;
    (n <= MAX_SHARDS).then_some(n)
}

fn shards(model: &Model, needs: &[Need], layout: &Layout) -> HashMap<EntityId, Shard> {
    let mut most: HashMap<EntityId, u32> = HashMap::new();
    for (s, slot) in layout.slots.iter().enumerate() {
        if layout.place[s].is_some()
            && let Some(n) = shards_needed(model, needs, slot)
        {
            let m = most.entry(slot.entity).or_default();
            *m = (*m).max(n);
        }
    }
    most.into_iter()
        .map(|(id, n)| {
            let entity = model.entity(id);
            let own = entity
                .attributes
                .iter()
                .find(|a| matches!(a.ty, AttrType::Shard { count, of: None } if count >= n));
            let shard = match own {
                Some(a) => Shard {
                    attr: a.name.text.to_string(),
                    declare: None,
                },
                None => {
                    let name = hot::free_name(entity, "shard");
                    Shard {
                        declare: Some(format!("{name}: shard({n})")),
                        attr: name,
                    }
                }
            };
            (id, shard)
        })
        .collect()
}

/// The names of a place's key attributes in `table`, and its name.
pub(super) fn place_names(model: &Model, table: TableId, place: Place) -> Option<(String, String, String, bool)> {
    let t = model.table(table);
    let base = t.base()?;
    let upper =
        base.pk.name.chars().any(|c| c.is_ascii_uppercase()) && !base.pk.name.chars().any(|c| c.is_ascii_lowercase());
    let (kind, n) = match place {
        Place::Table => {
            return Some((
                t.name.text.to_string(),
                base.pk.name.clone(),
                base.sk.as_ref().map_or(String::new(), |k| k.name.clone()),
                false,
            ));
        }
        Place::Local(n) => (AccessKind::Lsi, n),
        Place::Global(n) => (AccessKind::Gsi, n),
    };
    let existing: Vec<_> = t
        .access
        .iter()
        .filter(|a| a.kind == kind && !a.is_multi_attribute())
        .collect();
    if let Some(access) = existing.get(n - 1) {
        return Some((
            access.name.text.to_string(),
            access.pk.name.clone(),
            access.sk.as_ref()?.name.clone(),
            false,
        ));
    }
    let stem = match (kind, upper) {
        (AccessKind::Lsi, false) => "lsi",
        (AccessKind::Lsi, true) => "LSI",
        (_, false) => "gsi",
        (_, true) => "GSI",
    };
    let (p, s) = if upper { ("PK", "SK") } else { ("pk", "sk") };
    let name = format!("{stem}{n}");
    let pk = if kind == AccessKind::Lsi {
        base.pk.name.clone()
    } else {
        format!("{name}{p}")
    };
    Some((name.clone(), pk, format!("{name}{s}"), true))
}

pub fn render(model: &Model, text: &str, needs: &[Need], layout: &Layout) -> Rendered {
    let tags = tags(model);
    let mut out = Rendered {
        keys: vec![Vec::new(); layout.slots.len()],
        ..Default::default()
    };
    // The read of several entities that owns each (table, place, partition):
    // the first such group; every other slot there gets its own prefix.
    let mut owner: HashMap<(Option<TableId>, Place, Vec<String>), usize> = HashMap::new();
    let shared = |g: usize| layout.group.iter().filter(|&&x| x == g).count() > 1;
    for (s, slot) in layout.slots.iter().enumerate() {
        let Some(place) = layout.place[s] else { continue };
        if shared(layout.group[s]) {
            let table = model.entity(slot.entity).table;
            owner
                .entry((table, place, slot.partition.clone()))
                .or_insert(layout.group[s]);
        }
    }
    let mut lines_of: HashMap<EntityId, EntityLines> = HashMap::new();
    let shards = shards(model, needs, layout);
    // The partition key template written for each group that has one.
    let written_pk: HashMap<usize, String> = layout
        .slots
        .iter()
        .enumerate()
        .filter_map(|(s, slot)| Some((layout.group[s], slot.written.as_ref()?.1.clone())))
        .collect();
    for (s, slot) in layout.slots.iter().enumerate() {
        let Some(place) = layout.place[s] else { continue };
        if slot.written.is_some() {
            continue;
        }
        let entity = model.entity(slot.entity);
        let Some(table_id) = entity.table else { continue };
        let table = model.table(table_id);
        let delimiter = escape(&table.delimiter);
        let Some((index, pk_attr, sk_attr, new)) = place_names(model, table_id, place) else {
            continue;
        };
        if new && !out.new_indexes.iter().any(|d| d.table == table_id && d.place == place) {
            out.new_indexes.push(IndexDecl {
                table: table_id,
                place,
                name: index,
                pk: pk_attr.clone(),
                sk: sk_attr.clone(),
            });
        }
        let group_entity = layout.slots[layout.group[s]].entity;
        let mut pk: Vec<String> = Vec::new();
        let owned = owner.get(&(Some(table_id), place, slot.partition.clone()));
        if owned.is_some_and(|&g| g != layout.group[s]) {
            pk.push(tags[&group_entity].clone());
        }
        if slot.partition.is_empty() {
            pk.push(tags[&group_entity].clone());
        }
        for attr in &slot.partition {
            pk.push(format!("{}{delimiter}{{{attr}}}", tag_of(attr, true)));
        }
        if let Some(shard) = shards.get(&slot.entity)
            && needs_shard(model, needs, slot)
        {
            pk.push(format!("{{{}}}", shard.attr));
            if let Some(line) = &shard.declare {
                out.sharded.push((slot.entity, line.clone()));
            }
        }
        if let Some(written) = written_pk.get(&layout.group[s]) {
            pk = vec![written.clone()];
        }
        let mut sk = vec![tags[&slot.entity].clone()];
        sk.extend(slot.sort.iter().map(|a| format!("{{{a}}}")));
        // A table of one key attribute: the whole identity is the
        // partition key, after the entity's tag (which keeps two entities
        // keyed on the same attributes apart).
        if sk_attr.is_empty() {
            pk = std::iter::once(tags[&slot.entity].clone())
                .chain(slot.partition.iter().chain(&slot.sort).map(|a| format!("{{{a}}}")))
                .collect();
        }
        let mut keys = vec![
            KeyLine {
                attr: pk_attr,
                template: pk.join(&delimiter),
            },
            KeyLine {
                attr: sk_attr,
                template: sk.join(&delimiter),
            },
        ];
        // A local index reads the table's partition key: only its sort key
        // is written.
        if matches!(place, Place::Local(_)) {
            keys.remove(0);
        }
        keys.retain(|k| !k.attr.is_empty());
        out.key_chars += keys.iter().map(|k| k.template.len()).sum::<usize>();
        out.keys[s] = keys.clone();
        let lines = lines_of.entry(slot.entity).or_default();
        match place {
            Place::Table if layout.twice[s] => lines.twice.push(keys),
            Place::Table => lines.main = keys,
            _ => lines.indexes.extend(keys),
        }
        // A range or an order over a number needs its text to sort.
        for attr in &slot.sort {
            let orders = slot.serves.iter().any(|&n| needs[n].sorted.as_deref() == Some(attr));
            // An offset datetime's text does not sort like its instant (W303):
            // ordered, it is stored in UTC.
            let sortable = |ty: &AttrType| match ty {
                AttrType::Int { pad: None } => Some("int(pad 10)"),
                AttrType::DateTime(Zone::Offset) => Some("datetime"),
                _ => None,
            };
            if let Some(a) = entity.attribute(attr)
                && orders
                && let Some(ty) = sortable(&a.ty)
                && !out.retyped.iter().any(|(e, n, _)| *e == slot.entity && n == attr)
            {
                out.retyped.push((slot.entity, attr.clone(), ty.into()));
                out.edits.push((a.ty_span, ty.into()));
            }
        }
    }
    out.sharded.sort();
    out.sharded.dedup();
    for (entity_id, line) in &out.sharded {
        let entity = model.entity(*entity_id);
        if let Some(last) = entity.attributes.iter().map(|a| a.span).max_by_key(|s| s.end())
            && let Some(edit) = lines_after(text, last, std::slice::from_ref(line))
        {
            out.edits.push(edit);
        }
    }
    let mut entities: Vec<(EntityId, EntityLines)> = lines_of.into_iter().collect();
    entities.sort_by_key(|(id, _)| *id);
    for (entity_id, lines) in entities {
        let entity = model.entity(entity_id);
        let mut shapes = vec![lines.main];
        shapes[0].extend(lines.indexes);
        shapes.extend(lines.twice);
        let keyed = entity.items.iter().any(|i| i.keys.iter().any(|k| !k.implicit));
        if let Some(edit) = entity_edit(text, entity.span, &shapes, keyed) {
            out.edits.push(edit);
        }
    }
    for table_id in out
        .new_indexes
        .iter()
        .map(|d| d.table)
        .collect::<std::collections::BTreeSet<_>>()
    {
        let mut decls: Vec<&IndexDecl> = out.new_indexes.iter().filter(|d| d.table == table_id).collect();
        decls.sort_by_key(|d| d.place);
        let lines: Vec<String> = decls
            .iter()
            .map(|d| {
                let local = if matches!(d.place, Place::Local(_)) {
                    "local "
                } else {
                    ""
                };
                format!(
                    "{local}index {} ({}, {})",
                    names::written(&d.name),
                    names::written(&d.pk),
                    names::written(&d.sk)
                )
            })
            .collect();
        let table = model.table(table_id);
        if let Some(last) = table.access.iter().map(|a| a.span).max_by_key(|s| s.end())
            && let Some(edit) = member_lines(text, table.span, last, &lines)
        {
            out.edits.push(edit);
        }
    }
    out
}

impl Rendered {
    /// The table sort key of each entity that writes only the partition
    /// key: its tag and what identifies its items beyond the partition key.
    pub fn add_sort_keys(&mut self, model: &Model, text: &str, needs: &[Need], existing: &Existing) {
        let tags = tags(model);
        for &entity_id in &existing.unsorted {
            let entity = model.entity(entity_id);
            let Some(table) = entity.table.map(|t| model.table(t)) else {
                continue;
            };
            let Some(sk) = table.base().and_then(|b| b.sk.as_ref()) else {
                continue;
            };
            let partition: Vec<String> = existing
                .base_partition
                .iter()
                .find(|(e, _)| *e == entity_id)
                .map(|(_, p)| p.clone())
                .unwrap_or_default();
            let identity = identities(model, needs, entity_id)
                .into_iter()
                .last()
                .unwrap_or_default();
            let delimiter = escape(&table.delimiter);
            let mut template = vec![tags[&entity_id].clone()];
            template.extend(
                identity
                    .iter()
                    .filter(|a| !partition.contains(a))
                    .map(|a| format!("{{{a}}}")),
            );
            let line = KeyLine {
                attr: sk.name.clone(),
                template: template.join(&delimiter),
            };
            self.key_chars += line.template.len();
            if let Some(edit) = entity_edit(text, entity.span, &[vec![line]], true) {
                self.edits.push(edit);
            }
        }
    }
}

/// The key lines added at the end of an entity's body: assignments for one
/// shape (below a blank line), `item { ... }` blocks for several. An entity
/// that already writes keys gets its new index keys the same way.
fn entity_edit(text: &str, span: Span, shapes: &[Vec<KeyLine>], keyed: bool) -> Option<(Span, String)> {
    let body = text.get(span.range())?;
    let close = span.start() + body.rfind('}')?;
    let line_start = text[..close].rfind('\n').map_or(0, |i| i + 1);
    if !text[line_start..close].trim().is_empty() {
        // `entity User { id: id }`: the lines go on lines of their own
        // before the brace.
        let line = |k: &KeyLine| format!("  {} = \"{}\"\n", names::written(&k.attr), k.template);
        let mut out = String::from("\n");
        for shape in shapes {
            if shapes.len() == 1 {
                out.extend(shape.iter().map(line));
            } else {
                out.push_str("  item {");
                out.extend(shape.iter().map(|k| format!(" {}", line(k).trim())));
                out.push_str(" }\n");
            }
        }
        let start = text[..close].trim_end_matches([' ', '\t']).len();
        return Some((Span::new(start, close), out));
    }
    let before = text[..line_start].trim_end_matches([' ', '\t']);
    let blank = if before.ends_with("\n\n") || before.ends_with('{') || keyed {
        ""
    } else {
        "\n"
    };
    let line = |k: &KeyLine| format!("{} = \"{}\"", names::written(&k.attr), k.template);
    let mut out = String::from(blank);
    if shapes.len() == 1 {
        for k in &shapes[0] {
            out.push_str(&format!("  {}\n", line(k)));
        }
    } else {
        for shape in shapes {
            out.push_str("  item {\n");
            for k in shape {
                out.push_str(&format!("    {}\n", line(k)));
            }
            out.push_str("  }\n");
        }
    }
    Some((Span::empty(line_start), out))
}

/// Lines added to a declaration at `span` below its member at `after`: on
/// the lines after it when it ends its line, else (`table T { key pk, sk }`)
/// on lines of their own before the closing brace.
fn member_lines(text: &str, span: Span, after: Span, lines: &[String]) -> Option<(Span, String)> {
    let tail = text.get(after.end()..)?;
    let rest = tail[..tail.find('\n').unwrap_or(tail.len())].trim();
    if rest.is_empty() || rest.starts_with("//") {
        return lines_after(text, after, lines);
    }
    let close = span.start() + text.get(span.range())?.rfind('}')?;
    let start = text[..close].trim_end_matches([' ', '\t']).len();
    let added: String = lines.iter().map(|l| format!("  {l}\n")).collect();
    Some((Span::new(start, close), format!("\n{added}")))
}

/// Lines added below the line of the member at `after`, indented like it.
fn lines_after(text: &str, after: Span, lines: &[String]) -> Option<(Span, String)> {
    let line_start = text.get(..after.start())?.rfind('\n').map_or(0, |i| i + 1);
    let indent: String = text[line_start..after.start()]
        .chars()
        .take_while(|c| c.is_whitespace())
        .collect();
    let tail = text.get(after.end()..)?;
    let line_end = after.end() + tail.find('\n').unwrap_or(tail.len());
    let added: String = lines.iter().map(|l| format!("\n{indent}{l}")).collect();
    Some((Span::empty(line_end), added))
}

/// `text` with `edits` applied (none may overlap).
pub fn apply(text: &str, edits: &[(Span, String)]) -> String {
    let mut edits = edits.to_vec();
    edits.sort_by_key(|(s, _)| (std::cmp::Reverse(s.start()), std::cmp::Reverse(s.end())));
    let mut out = text.to_string();
    for (span, insert) in edits {
        if out.get(span.range()).is_some() {
            out.replace_range(span.range(), &insert);
        }
    }
    out
}
