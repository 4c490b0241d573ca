//! E301: two item shapes whose primary keys can be equal. DynamoDB stores
//! one item per primary key, so whichever is written last replaces the other.
//!
//! Two templates can only produce a common value when one's leading literal
//! is a prefix of the other's, in the partition key and in the sort key. The
//! items of a table come from the registry sorted by partition-key leading
//! literal; items with the same one form a group, sorted by sort-key leading
//! literal. Candidate pairs are then (a) within a group, a forward scan over
//! the sort-key literals, and (b) between a group and each later group whose
//! literal extends its own, a binary-search lookup of the compatible
//! sort-key literals. Candidates whose trailing literals disagree (neither a
//! suffix of the other: `ORG#{id}#BILLING` vs `ORG#{id}#PLAN`) are dropped
//! by a string test; only the rest are intersected (exactly, with the
//! template automata, each compiled at most once).
//!
//! Each key's templates are intersected on their own first. When a pair
//! still collides and an item fills two holes with one attribute
//! (`pk = "FOLDER#{folderId}"`, `sk = "FOLDER#{folderId}#NOTE#{noteId}"`),
//! the holes are tied together and the pair is decided again, exactly where
//! `correlated` can decide it (equal partition-key skeletons unify holes,
//! common parts cancel, independent remainders intersect). Where it cannot
//! (an attribute still repeated after cancellation) the independent answer
//! stands, which can only over-report.

use std::cell::OnceCell;

use super::correlated::{self, Sym, Verdict};
use super::{describe_item, key_of};
use crate::check::lang::Shape as LangShape;
use crate::check::lang::{self, Automaton, Shape};
use crate::check::model::{KeyValue, Model, Part, TableId};
use crate::check::resolve::registry::{ItemRef, Registry};
use crate::diagnostic::{Code, Diagnostic};

struct Entry<'m> {
    item: ItemRef,
    pk: &'m KeyValue,
    sk: Option<&'m KeyValue>,
    sk_lead: String,
    /// The literal text after the last hole of each key: two values can
    /// only be equal when one tail is a suffix of the other.
    pk_tail: String,
    sk_tail: String,
    /// The bytes a value can start with (a superset), for a cheap test.
    pk_first: ByteSet,
    sk_first: ByteSet,
    pk_automaton: OnceCell<Automaton>,
    sk_automaton: OnceCell<Automaton>,
    /// Whether an attribute fills more than one hole of the item's keys.
    correlated: bool,
}

impl Entry<'_> {
    fn pk_automaton(&self) -> &Automaton {
        self.pk_automaton.get_or_init(|| self.pk.template.lang.compile())
    }

    fn sk_automaton(&self) -> Option<&Automaton> {
        let sk = self.sk?;
        Some(self.sk_automaton.get_or_init(|| sk.template.lang.compile()))
    }

    /// The line the diagnostic points at: the sort key, where item types
    /// usually differ, else the partition key.
    fn key_line(&self) -> &KeyValue {
        self.sk.unwrap_or(self.pk)
    }

    fn hole_names(&self) -> Vec<&str> {
        std::iter::once(self.pk)
            .chain(self.sk)
            .flat_map(|k| k.template.holes().map(|(n, _)| n.text.as_str()))
            .collect()
    }
}

/// Items with the same partition-key leading literal, sorted by sort-key
/// leading literal.
struct Group<'a> {
    lead: &'a str,
    members: Vec<usize>,
}

pub fn overwrites(model: &Model, registry: &Registry, table_id: TableId, diagnostics: &mut Vec<Diagnostic>) {
    let table = model.table(table_id);
    let Some(base) = table.base() else { return };
    let sk_name = base.sk.as_ref().map(|k| k.name.as_str());
    let mut entries: Vec<Entry> = Vec::new();
    let mut leads: Vec<&str> = Vec::new();
    for (lead, item) in registry.entries(table_id, &base.pk.name) {
        let Some(pk) = key_of(model, *item, &base.pk.name) else {
            continue;
        };
        let sk = match sk_name {
            // An item without the table's sort key is already an error.
            Some(name) => match key_of(model, *item, name) {
                Some(sk) => Some(sk),
                None => continue,
            },
            None => None,
        };
        entries.push(Entry {
            item: *item,
            pk,
            sk,
            sk_lead: sk.map_or_else(String::new, |k| k.template.literal_prefix()),
            pk_tail: literal_suffix(pk),
            sk_tail: sk.map_or_else(String::new, literal_suffix),
            pk_first: first_bytes(&pk.template.lang),
            sk_first: sk.map_or(ByteSet::ALL, |k| first_bytes(&k.template.lang)),
            pk_automaton: OnceCell::new(),
            sk_automaton: OnceCell::new(),
            correlated: repeats_attribute(pk, sk),
        });
        leads.push(lead);
    }
    let groups = group(&entries, &leads);
    let mut candidates = Vec::new();
    for (i, g) in groups.iter().enumerate() {
        within(&entries, &g.members, &mut candidates);
        for h in groups[i + 1..].iter().take_while(|h| h.lead.starts_with(g.lead)) {
            let (small, big) = if g.members.len() <= h.members.len() {
                (g, h)
            } else {
                (h, g)
            };
            let mut found = Vec::new();
            for &a in &small.members {
                found.clear();
                compatible(&entries, &big.members, &entries[a].sk_lead, &mut found);
                candidates.extend(found.iter().map(|&b| (a, b)));
            }
        }
    }
    for (a, b) in candidates {
        if let Some(d) = check_pair(model, &base.pk.name, sk_name, &entries[a], &entries[b]) {
            diagnostics.push(d);
        }
    }
}

/// Runs of equal partition-key leading literal (the registry sorts by it).
fn group<'a>(entries: &[Entry], leads: &[&'a str]) -> Vec<Group<'a>> {
    let mut groups: Vec<Group> = Vec::new();
    for (i, &lead) in leads.iter().enumerate() {
        match groups.last_mut() {
            Some(g) if g.lead == lead => g.members.push(i),
            _ => groups.push(Group { lead, members: vec![i] }),
        }
    }
    for g in &mut groups {
        g.members.sort_by(|&a, &b| entries[a].sk_lead.cmp(&entries[b].sk_lead));
    }
    groups
}

/// Pairs within one sorted group whose sort-key literals are compatible:
/// every literal extending `x` follows `x` directly in sorted order.
fn within(entries: &[Entry], members: &[usize], out: &mut Vec<(usize, usize)>) {
    for (i, &a) in members.iter().enumerate() {
        let head = entries[a].sk_lead.as_str();
        out.extend(
            members[i + 1..]
                .iter()
                .take_while(|&&b| entries[b].sk_lead.starts_with(head))
                .map(|&b| (a, b)),
        );
    }
}

/// Members of a sorted group whose sort-key literal extends `head` or is a
/// prefix of it.
fn compatible(entries: &[Entry], members: &[usize], head: &str, out: &mut Vec<usize>) {
    let lead = |m: &usize| entries[*m].sk_lead.as_str();
    let start = members.partition_point(|m| lead(m) < head);
    out.extend(members[start..].iter().take_while(|m| lead(m).starts_with(head)));
    for end in (0..head.len()).filter(|&i| head.is_char_boundary(i)) {
        let prefix = &head[..end];
        let from = members.partition_point(|m| lead(m) < prefix);
        out.extend(members[from..].iter().take_while(|m| lead(m) == prefix));
    }
}

/// The literal text after the last hole (the whole text without holes).
fn literal_suffix(key: &KeyValue) -> String {
    let parts = &key.template.parts;
    let after = parts
        .iter()
        .rposition(|p| matches!(p, Part::Hole { .. }))
        .map_or(0, |i| i + 1);
    parts[after..]
        .iter()
        .map(|p| match p {
            Part::Literal { text, .. } => text.as_str(),
            Part::Hole { .. } => "",
        })
        .collect()
}

/// A set of bytes.
#[derive(Clone, Copy)]
struct ByteSet([u64; 4]);

impl ByteSet {
    const ALL: ByteSet = ByteSet([u64::MAX; 4]);

    fn of(ranges: &[(u8, u8)]) -> ByteSet {
        let mut set = [0u64; 4];
        for &(lo, hi) in ranges {
            for b in lo..=hi {
                set[b as usize / 64] |= 1 << (b % 64);
            }
        }
        ByteSet(set)
    }

    fn meets(&self, other: &ByteSet) -> bool {
        self.0.iter().zip(&other.0).any(|(a, b)| a & b != 0)
    }
}

/// A superset of the bytes a value of the template can start with: most
/// candidates that start with a hole (`{n}#EVENT`) are told apart from
/// literal-led ones (`EVENT#{id}`) here, before any automaton is built.
fn first_bytes(template: &lang::Template) -> ByteSet {
    const DIGITS: &[(u8, u8)] = &[(b'0', b'9')];
    match template.parts.first() {
        Some(lang::Part::Literal(text)) => match text.as_bytes().first() {
            Some(&b) => ByteSet::of(&[(b, b)]),
            None => ByteSet::ALL,
        },
        Some(lang::Part::Hole(shape)) => match shape {
            Shape::Int { .. }
            | Shape::Decimal
            | Shape::Date
            | Shape::DateTime
            | Shape::LocalDateTime
            | Shape::OffsetDateTime => ByteSet::of(DIGITS),
            Shape::Uuid => ByteSet::of(&[(b'0', b'9'), (b'a', b'f')]),
            Shape::Ulid => ByteSet::of(&[(b'0', b'7')]),
            Shape::Bool => ByteSet::of(&[(b'f', b'f'), (b't', b't')]),
            Shape::Enum(words) if words.iter().all(|w| !w.is_empty()) => {
                let firsts: Vec<(u8, u8)> = words.iter().map(|w| (w.as_bytes()[0], w.as_bytes()[0])).collect();
                ByteSet::of(&firsts)
            }
            Shape::Enum(_) | Shape::Id { .. } | Shape::String => ByteSet::ALL,
        },
        None => ByteSet::ALL,
    }
}

fn witness(a: &Automaton, b: &Automaton) -> Option<String> {
    lang::intersect(&[a, b]).map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
}

fn check_pair(model: &Model, pk_name: &str, sk_name: Option<&str>, a: &Entry, b: &Entry) -> Option<Diagnostic> {
    let tails_agree = |x: &str, y: &str| x.ends_with(y) || y.ends_with(x);
    if !tails_agree(&a.pk_tail, &b.pk_tail)
        || !tails_agree(&a.sk_tail, &b.sk_tail)
        || !a.pk_first.meets(&b.pk_first)
        || !a.sk_first.meets(&b.sk_first)
    {
        return None;
    }
    let same_entity = a.item.entity == b.item.entity;
    if same_entity && symmetric(a, b) {
        return None;
    }
    let mut sk_witness = match (a.sk_automaton(), b.sk_automaton()) {
        (Some(x), Some(y)) => Some(witness(x, y)?),
        _ => None,
    };
    let mut pk_witness = witness(a.pk_automaton(), b.pk_automaton())?;
    // Each key on its own can be equal; when an item repeats an attribute
    // (`FOLDER#{folderId}` in pk and sk), decide with the holes tied.
    if a.correlated || b.correlated {
        let mut system = System::default();
        let keys_a = system.keys(a, 0);
        let keys_b = system.keys(b, 1);
        match correlated::decide(&keys_a, &keys_b, &system.shapes) {
            Verdict::Disjoint => return None,
            Verdict::Collide { pk, sk } => {
                pk_witness = pk;
                sk_witness = sk;
            }
            // Not decided: the independent answer, which can over-report.
            Verdict::Unknown => {}
        }
    }
    // The diagnostic goes on the item written later in the file.
    let (later, earlier) = if a.key_line().span.start() >= b.key_line().span.start() {
        (a, b)
    } else {
        (b, a)
    };
    let (later_entity, earlier_entity) = (&model.entity(later.item.entity), &model.entity(earlier.item.entity));
    let key = match (sk_name, sk_witness) {
        (Some(sk), Some(w)) => format!("{pk_name}=`{pk_witness}`, {sk}=`{w}`"),
        _ => format!("{pk_name}=`{pk_witness}`"),
    };
    let message = if same_entity {
        format!(
            "two items of `{}` can have the same primary key: both can write {key}, so one overwrites the other",
            later_entity.name.text
        )
    } else {
        format!(
            "{} and {} can have the same primary key: both can write {key}, so one overwrites the other",
            describe_item(later_entity, later.item.item),
            describe_item(earlier_entity, earlier.item.item)
        )
    };
    Some(
        Diagnostic::new(Code::Overwrite, later_entity.at(later.key_line().span), message)
            .with_label(format!(
                "overwrites {}",
                describe_item(earlier_entity, earlier.item.item)
            ))
            .with_related(
                earlier_entity.at(earlier.key_line().span),
                format!(
                    "{} writes the same key here",
                    describe_item(earlier_entity, earlier.item.item)
                ),
            )
            .with_help(
                "give each item type its own tag in the sort key (or the partition key), so that no value of one \
                 can equal a value of the other",
            ),
    )
}

/// Two items of one entity with the same templates up to a swap of
/// attributes (`USER#{a}`/`FRIEND#{b}` and `USER#{b}`/`FRIEND#{a}`): the two
/// sides of one symmetric edge, which are meant to coincide for the reversed
/// edge.
fn symmetric(a: &Entry, b: &Entry) -> bool {
    let same_lang =
        a.pk.template.lang == b.pk.template.lang && a.sk.map(|k| &k.template.lang) == b.sk.map(|k| &k.template.lang);
    same_lang && a.hole_names() != b.hole_names()
}

/// Whether one attribute fills two holes of the item's primary key.
fn repeats_attribute(pk: &KeyValue, sk: Option<&KeyValue>) -> bool {
    let mut seen = Vec::new();
    for (_, attr) in std::iter::once(pk).chain(sk).flat_map(|k| k.template.holes()) {
        if let Some(attr) = attr {
            if seen.contains(&attr) {
                return true;
            }
            seen.push(attr);
        }
    }
    false
}

/// The variables of two items' keys for [`correlated::decide`]: one per
/// attribute of each item (two items are two writes, even of one entity),
/// and a fresh one for a hole naming no attribute.
#[derive(Default)]
struct System {
    shapes: Vec<LangShape>,
    vars: std::collections::HashMap<(usize, usize), usize>,
}

impl System {
    fn keys(&mut self, entry: &Entry, side: usize) -> correlated::Keys {
        correlated::Keys {
            pk: self.syms(entry.pk, side),
            sk: entry.sk.map(|sk| self.syms(sk, side)),
        }
    }

    fn syms(&mut self, key: &KeyValue, side: usize) -> Vec<Sym> {
        let template = &key.template;
        template
            .parts
            .iter()
            .zip(&template.lang.parts)
            .map(|(part, lang)| match (part, lang) {
                (Part::Hole { attr, .. }, lang::Part::Hole(shape)) => {
                    let fresh = self.shapes.len();
                    let var = match attr {
                        Some(attr) => *self.vars.entry((side, *attr)).or_insert(fresh),
                        None => fresh,
                    };
                    if var == fresh {
                        self.shapes.push(shape.clone());
                    }
                    Sym::Var(var)
                }
                (Part::Literal { text, .. }, _) => Sym::Lit(text.to_string()),
                // Parts and their languages are built in step (lower.rs).
                (Part::Hole { .. }, lang::Part::Literal(text)) => Sym::Lit(text.to_string()),
            })
            .collect()
    }
}
