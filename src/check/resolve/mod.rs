//! Pattern resolution: each access pattern becomes one Query — found by
//! search for a declarative pattern, verified for a pinned one — and what
//! that Query really matches is decided exactly from the template
//! languages.

mod condition;
mod declarative;
mod knowns;
mod pinned;
pub mod registry;
pub mod request;

use std::collections::BTreeSet;

pub use condition::SortOp;
use knowns::Knowns;
pub use knowns::literal_text;
use registry::{ItemRef, Registry};

use super::lang;
use super::model::{AccessKind, AttrType, EntityId, Model, Pattern, TableId};
use super::suggest::did_you_mean;
use super::value::{self, Value, ValuePart};
use crate::diagnostic::{Code, Diagnostic};
use crate::syntax::Span;
use crate::syntax::ast::KnownKind;

/// One pattern's Query.
#[derive(Clone, Debug)]
pub struct Resolution {
    pub table: TableId,
    /// Into the table's `access`: 0 is the table itself.
    pub access: usize,
    /// The partition key value.
    pub partition: Value,
    pub sort: Option<SortOp>,
    pub descending: bool,
    pub consistent: bool,
    pub limit: Option<u64>,
    pub returns: Vec<EntityId>,
    /// The key template lines and the index declaration the Query uses.
    pub relies_on: Vec<Span>,
    pub pinned: bool,
}

/// What resolving one pattern needs to know.
pub struct Context<'m> {
    pub model: &'m Model,
    pub registry: &'m Registry,
    pub table: TableId,
    pub returns: Vec<EntityId>,
    pub knowns: Knowns,
}

impl Context<'_> {
    /// The shape of an attribute of the returned entities.
    pub fn shape_of(&self, attr: &str) -> lang::Shape {
        let delimiter = &self.model.tables[self.table].delimiter;
        self.returns
            .iter()
            .find_map(|&e| self.model.entities[e].attribute(attr))
            .and_then(|a| a.ty.shape(delimiter))
            .unwrap_or(lang::Shape::String)
    }
}

/// Resolves every pattern; `None` where no Query could be found (reported).
pub fn resolve_all(model: &Model, registry: &Registry, diagnostics: &mut Vec<Diagnostic>) -> Vec<Option<Resolution>> {
    model
        .patterns
        .iter()
        .map(|pattern| resolve(model, registry, pattern, diagnostics))
        .collect()
}

fn resolve(
    model: &Model,
    registry: &Registry,
    pattern: &Pattern,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Resolution> {
    // Unknown entities were reported when lowering; nothing to resolve.
    let returns: Vec<EntityId> = pattern.returns.iter().map(|r| r.entity).collect::<Option<_>>()?;
    let first = *returns.first()?;
    let table = model.entities[first].table?;
    if let Some(other) = returns.iter().find(|&&e| model.entities[e].table != Some(table)) {
        let other = &model.entities[*other];
        diagnostics.push(
            Diagnostic::new(
                Code::MixedTables,
                pattern.name.span,
                format!(
                    "`{}` returns `{}` and `{}`, which live in different tables: one Query reads one table",
                    pattern.name.text, model.entities[first].name.text, other.name.text
                ),
            )
            .with_related(other.name.span, format!("`{}` is declared here", other.name.text)),
        );
        return None;
    }
    model.tables[table].base()?;
    let ranges: Vec<_> = pattern
        .known
        .iter()
        .filter(|k| !matches!(k.kind, KnownKind::Equal | KnownKind::Fixed(_)))
        .collect();
    if let [first_range, extra, ..] = ranges.as_slice() {
        diagnostics.push(
            Diagnostic::new(
                Code::TooManyRanges,
                extra.span,
                "a pattern has at most one range: a Query has one sort-key condition",
            )
            .with_related(first_range.span, "the first range")
            .with_help("make the other value an equality, or filter the results in the application"),
        );
        return None;
    }
    let mut cx = Context {
        model,
        registry,
        table,
        returns,
        knowns: Knowns::default(),
    };
    if !check_fixed_values(&cx, pattern, diagnostics) {
        return None;
    }
    cx.knowns = Knowns::new(&pattern.known, |attr| cx.shape_of(attr));
    match &pattern.query {
        Some(query) => pinned::verify(&cx, pattern, query, diagnostics),
        None => search(&cx, pattern, diagnostics),
    }
}

/// `status = "opn"` when `status` is `enum(open, paid)` can match nothing.
fn check_fixed_values(cx: &Context, pattern: &Pattern, diagnostics: &mut Vec<Diagnostic>) -> bool {
    let mut ok = true;
    for known in &pattern.known {
        let KnownKind::Fixed(literal) = &known.kind else {
            continue;
        };
        let Some(text) = literal_text(literal) else { continue };
        let attribute = cx
            .returns
            .iter()
            .find_map(|&e| cx.model.entities[e].attribute(&known.attr.text));
        let Some(attribute) = attribute else { continue };
        let shape = attribute.ty.shape(&cx.model.tables[cx.table].delimiter);
        let text = match &shape {
            Some(shape) => knowns::key_text(text, shape),
            None => text,
        };
        let fits = shape.is_none_or(|s| lang::Template::new(vec![lang::Part::Hole(s)]).can_equal(&text));
        if !fits {
            let hint = match &attribute.ty {
                AttrType::Enum(values) => did_you_mean(&text, values.iter().map(String::as_str)),
                other => format!(" (a `{}`)", other.name()),
            };
            diagnostics.push(
                Diagnostic::new(
                    Code::InvalidFixedValue,
                    literal.span(),
                    format!("`{}` can never be `{text}`{hint}", known.attr.text),
                )
                .with_related(attribute.span, "declared here"),
            );
            ok = false;
        }
    }
    ok
}

fn search(cx: &Context, pattern: &Pattern, diagnostics: &mut Vec<Diagnostic>) -> Option<Resolution> {
    let table = &cx.model.tables[cx.table];
    let kinds: Vec<AccessKind> = table.access.iter().map(|a| a.kind).collect();
    let mut reasons = Vec::new();
    for access in declarative::search_order(&kinds) {
        match declarative::try_access(cx, pattern, access) {
            Ok(resolution) => {
                warn_prefix_in_hole(cx, pattern, &resolution, pattern.name.span, diagnostics);
                return Some(resolution);
            }
            Err(reason) => reasons.push((access, reason)),
        }
    }
    if let Some(span) = pattern.consistent
        && let Some(served) = served_without_consistent(cx, pattern, &kinds)
    {
        let index = &table.access[served];
        diagnostics.push(
            Diagnostic::new(
                Code::ConsistentGsi,
                span,
                format!(
                    "only index `{}` serves `{}`, and a global index cannot be read strongly consistent",
                    index.name.text, pattern.name.text
                ),
            )
            .with_related(index.name.span, "a global index: eventually consistent only")
            .with_help("drop `consistent`, or add a local index (or base-table keys) that serves the pattern"),
        );
        return None;
    }
    let mut diagnostic = Diagnostic::new(
        Code::NoSingleQuery,
        pattern.name.span,
        format!(
            "no single Query serves `{}`: it would need a Scan or several Queries",
            pattern.name.text
        ),
    );
    for (access, reason) in reasons {
        let access = &table.access[access];
        let via = if access.is_index() {
            format!("index `{}`", access.name.text)
        } else {
            "the table".to_string()
        };
        diagnostic = diagnostic.with_related(access.name.span, format!("via {via}: {reason}"));
    }
    diagnostics.push(diagnostic.with_help(propose_index(cx, pattern)));
    None
}

/// The global index that would serve the pattern if it did not ask for a
/// strongly consistent read.
fn served_without_consistent(cx: &Context, pattern: &Pattern, kinds: &[AccessKind]) -> Option<usize> {
    let relaxed = Pattern {
        consistent: None,
        ..pattern.clone()
    };
    declarative::search_order(kinds)
        .into_iter()
        .filter(|&i| kinds[i] == AccessKind::Gsi)
        .find(|&access| declarative::try_access(cx, &relaxed, access).is_ok())
}

/// A global index that would serve the pattern, spelled out.
fn propose_index(cx: &Context, pattern: &Pattern) -> String {
    let table = &cx.model.tables[cx.table];
    let n = (1..)
        .find(|n| !table.key_attributes().any(|k| k.name.starts_with(&format!("gsi{n}"))))
        .unwrap_or(1);
    let entity = &cx.model.entities[cx.returns[0]];
    let mut pk = entity.name.text.to_uppercase();
    for known in pattern
        .known
        .iter()
        .filter(|k| matches!(k.kind, KnownKind::Equal | KnownKind::Fixed(_)))
    {
        pk.push_str(&format!("{}{{{}}}", table.delimiter, known.attr.text));
    }
    let sorted = cx
        .knowns
        .range
        .as_ref()
        .map(|(attr, _)| attr.clone())
        .or(pattern.order.as_ref().map(|o| o.attr.text.clone()));
    let sk = match sorted {
        Some(attr) => format!("{{{attr}}}"),
        None => table
            .base()
            .and_then(|b| b.sk.as_ref())
            .and_then(|sk| entity.items.first()?.key(&sk.name))
            .map_or_else(|| entity.name.text.to_uppercase(), |kv| kv.template.lang_display()),
    };
    format!(
        "add `index gsi{n} (gsi{n}pk, gsi{n}sk)` to `{}`, and to `{}`: `gsi{n}pk = \"{pk}\"` and `gsi{n}sk = \"{sk}\"`",
        table.name.text, entity.name.text
    )
}

/// Every item the Query reads: in the access path, in the partition, and
/// matching the sort condition.
pub fn matching_items(model: &Model, registry: &Registry, resolution: &Resolution) -> Vec<ItemRef> {
    let table = &model.tables[resolution.table];
    let access = &table.access[resolution.access];
    let sort_attr = access.sk.as_ref();
    let mut found: Vec<ItemRef> = Vec::new();
    for item_ref in registry.compatible(resolution.table, &access.pk.name, resolution.partition.literal_head()) {
        let item = &model.entities[item_ref.entity].items[item_ref.item];
        let Some(pk) = item.key(&access.pk.name) else { continue };
        let sk = match sort_attr {
            Some(attr) => match item.key(&attr.name) {
                Some(kv) => Some(kv),
                None => continue, // sparse: not in this index
            },
            None => None,
        };
        if value::can_equal(&pk.template.lang, &resolution.partition).is_none() {
            continue;
        }
        let number_key = sort_attr.is_some_and(|a| a.ty != crate::syntax::ast::KeyType::String);
        let sort_ok = match (&resolution.sort, sk) {
            (Some(op), Some(kv)) if !number_key => op.can_match(&kv.template.lang).is_some(),
            _ => true,
        };
        if sort_ok && !found.contains(&item_ref) {
            found.push(item_ref);
        }
    }
    found
}

/// The Query returns the declared entities and nothing else.
fn matches_exactly(cx: &Context, resolution: &Resolution) -> Result<Vec<EntityId>, String> {
    let matched: BTreeSet<EntityId> = matching_items(cx.model, cx.registry, resolution)
        .iter()
        .map(|i| i.entity)
        .collect();
    let extra: Vec<&str> = matched
        .iter()
        .filter(|e| !cx.returns.contains(e))
        .map(|&e| cx.model.entities[e].name.text.as_str())
        .collect();
    if !extra.is_empty() {
        return Err(format!(
            "it would also return {}",
            extra.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
        ));
    }
    Ok(matched.into_iter().collect())
}

/// `begins_with(sk, "ORDER#{orderId}")` with `orderId: id` also matches
/// `ORDER#420...` for `42`: warn unless a literal follows the value.
fn warn_prefix_in_hole(
    cx: &Context,
    pattern: &Pattern,
    resolution: &Resolution,
    at: Span,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let Some(SortOp::BeginsWith(value)) = &resolution.sort else {
        return;
    };
    let Some(ValuePart::Param { name, shape }) = value.parts.last() else {
        return;
    };
    if shape.fixed_len().is_some() {
        return;
    }
    diagnostics.push(
        Diagnostic::new(
            Code::PrefixEndsInHole,
            at,
            format!(
                "`begins_with` on `{value}` also matches longer values of `{name}` (`42` matches `420`) in `{}`",
                pattern.name.text
            ),
        )
        .with_help(format!(
            "put a literal after `{{{name}}}` in the sort key (`{{{name}}}#`), or make `{name}` fixed-length"
        )),
    );
    let _ = cx;
}
