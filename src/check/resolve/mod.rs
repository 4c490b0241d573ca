//! Pattern resolution: each access pattern becomes one Query — found by
//! search for a declarative pattern, verified for a pinned one — and what
//! that Query really matches is decided exactly from the template
//! languages.

mod condition;
mod declarative;
mod exact;
mod filtered;
mod knowns;
mod multi;
mod operation;
mod pinned;
mod proposal;
pub(super) use proposal::{new_analysis, tries_fixes};
mod range;
pub mod registry;
mod rejection;
pub mod request;
mod sharded;

pub use condition::SortOp;
use knowns::Knowns;
pub use knowns::literal_text;
pub use operation::{BATCH_GET_KEYS, Read};
use registry::{ItemRef, Registry};

use super::Source;
use super::lang;
use super::model::{AccessId, AccessKind, AttrType, EntityId, KeySchema, Model, Pattern, Return, TableId};
use super::reads::{self, ReadsTable};
use super::suggest::{closest, escape};
use super::value::{self, Value};
use crate::diagnostic::{Code, Diagnostic, Fix};
use crate::syntax::ast::{Filter, KnownKind, Literal, Operation};
use crate::syntax::template::is_identifier;
use crate::syntax::{FileId, FileSpan};

/// One pattern's Query.
#[derive(Clone, Debug)]
pub struct Resolution {
    pub table: TableId,
    /// The table itself or the index the Query reads.
    pub access: AccessId,
    /// The partition key value (of the first attribute of a multi-attribute
    /// key).
    pub partition: Value,
    /// A multi-attribute key: the values of the further partition
    /// attributes, then equalities on the leading sort attributes; `sort`
    /// is then the condition on the sort attribute after those. Empty for a
    /// key of one attribute per side.
    pub partition_rest: Vec<Value>,
    pub sort_equal: Vec<Value>,
    pub sort: Option<SortOp>,
    pub descending: bool,
    pub consistent: bool,
    pub limit: Option<u64>,
    pub returns: Vec<EntityId>,
    /// Undeclared entities whose items the key condition reads and the
    /// filter removes: read and paid for, never returned.
    pub filtered_out: Vec<EntityId>,
    /// The pattern's filter: the FilterExpression sent with the Query
    /// (boxed: a keystroke moves every kept Query).
    pub filter: Option<Box<Filter>>,
    /// The key template lines and the index declaration the Query uses.
    pub relies_on: Vec<FileSpan>,
    pub pinned: bool,
    /// The request: a Query unless the pattern says `get`, `batch get` or
    /// `scan` (then `partition` is empty and `sort` is none).
    pub read: Read,
    /// A partition key with a write shard the pattern does not know: the
    /// shard is a parameter of the request, and the read is one request per
    /// shard (or one, computed from a known value).
    pub shards: Option<Shards>,
}

/// The write shard in a resolution's partition key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shards {
    /// The shard attribute: a parameter of the request.
    pub attr: String,
    pub count: u32,
    /// `shard(N, of userId)` with `userId` known: the caller computes the
    /// shard (`check::shard::of`), and the read is one request.
    pub from: Option<String>,
}

impl Shards {
    /// How many requests the read is.
    pub fn requests(&self) -> u32 {
        if self.from.is_some() { 1 } else { self.count }
    }
}

impl Resolution {
    /// The key schema the Query reads: the table's or the index's.
    pub fn key_schema<'m>(&self, model: &'m Model) -> &'m KeySchema {
        model.access(self.table, self.access)
    }
}

/// What resolving one pattern needs to know.
pub struct Context<'m> {
    /// The schema's files, for fixes that add lines indented like their
    /// neighbours and for trying fixes out.
    pub sources: &'m [Source<'m>],
    /// The file of the pattern being resolved.
    pub file: FileId,
    pub model: &'m Model,
    pub registry: &'m Registry,
    pub table: TableId,
    pub returns: Vec<EntityId>,
    pub knowns: Knowns,
}

impl Context<'_> {
    /// The shape of an attribute of the returned entities.
    pub fn shape_of(&self, attr: &str) -> lang::Shape {
        let delimiter = &self.model.table(self.table).delimiter;
        self.model
            .attribute_among(&self.returns, attr)
            .and_then(|a| a.ty.shape(delimiter))
            .unwrap_or(lang::Shape::String)
    }
}

/// Resolves every pattern, on up to `threads` threads; `None` where no
/// Query could be found (reported). `sources` are the files the model was
/// lowered from.
///
/// `reused` holds the Queries kept from an earlier check, with the earlier
/// pattern whose reads in `earlier_reads` each keeps; only the patterns it
/// leaves to resolve are resolved, spread over the threads, into their
/// places in its list. Also returns, per pattern that reported nothing,
/// what its resolving read.
pub fn resolve_all(
    sources: &[Source<'_>],
    model: &Model,
    registry: &Registry,
    reused: Reused,
    earlier_reads: ReadsTable,
    threads: usize,
    diagnostics: &mut Vec<Diagnostic>,
) -> (Vec<Option<Resolution>>, ReadsTable) {
    let Reused { mut resolutions, was } = reused;
    let todo: Vec<&Pattern> = (model.patterns.iter().zip(&was))
        .filter(|(_, kept)| kept.is_none())
        .map(|(pattern, _)| pattern)
        .collect();
    let mut resolved = crate::parallel::map(threads, &todo, diagnostics, |pattern, diagnostics| {
        let before = diagnostics.len();
        let (resolution, reads) = reads::recording(|| resolve(sources, model, registry, pattern, diagnostics));
        (resolution, (diagnostics.len() == before).then_some(reads))
    })
    .into_iter();
    let mut reads = earlier_reads.renew(was.len());
    if todo.len() == was.len() {
        // Nothing kept (a first check): the results become the list where
        // they lie, rather than beside a second list as large (a megabyte
        // at 4,000 patterns, at the check's peak).
        let resolutions = resolved
            .map(|(resolution, read)| {
                reads.push(read);
                resolution
            })
            .collect();
        return (resolutions, reads.finish());
    }
    for (slot, was) in resolutions.iter_mut().zip(was) {
        match was {
            Some(was) => reads.keep(was),
            None => {
                let (resolution, read) = resolved.next().expect("one result per pattern resolved");
                *slot = resolution;
                reads.push(read);
            }
        }
    }
    (resolutions, reads.finish())
}

/// The Queries an earlier check leaves to the next one: per pattern, the
/// earlier pattern it is (`None`: to resolve) and its Query (`None` also
/// where it had none; anything where it is to resolve, until it is). With
/// nothing kept there are no Queries yet, and the list is empty.
pub struct Reused {
    pub resolutions: Vec<Option<Resolution>>,
    pub was: Vec<Option<usize>>,
}

impl Reused {
    /// Nothing kept: every one of `patterns` patterns is resolved (into a
    /// list `resolve_all` makes then).
    pub fn none(patterns: usize) -> Reused {
        Reused {
            resolutions: Vec::new(),
            was: vec![None; patterns],
        }
    }
}

fn resolve(
    sources: &[Source<'_>],
    model: &Model,
    registry: &Registry,
    pattern: &Pattern,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Resolution> {
    // Unknown entities were reported when lowering; nothing to resolve.
    let returns: Vec<EntityId> = pattern.returns.iter().map(|r| r.entity).collect::<Option<_>>()?;
    let first = *returns.first()?;
    let table = model.entity(first).table?;
    if let Some(other) = returns.iter().find(|&&e| model.entity(e).table != Some(table)) {
        let other = model.entity(*other);
        diagnostics.push(
            Diagnostic::new(
                Code::MixedTables,
                pattern.at(pattern.name.span),
                format!(
                    "`{}` returns `{}` and `{}`, which live in different tables: one Query reads one table",
                    pattern.name.text,
                    model.entity(first).name.text,
                    other.name.text
                ),
            )
            .with_related(
                other.at(other.name.span),
                format!("`{}` is declared here", other.name.text),
            ),
        );
        return None;
    }
    model.table(table).base()?;
    if !operation::check_modifiers(pattern, diagnostics) {
        return None;
    }
    let ranges: Vec<_> = pattern
        .known
        .iter()
        .filter(|k| !matches!(k.kind, KnownKind::Equal | KnownKind::Fixed(_)))
        .collect();
    if let [first_range, extra, ..] = ranges.as_slice() {
        diagnostics.push(
            Diagnostic::new(
                Code::TooManyRanges,
                pattern.at(extra.span),
                "a pattern has at most one range: a Query has one sort-key condition",
            )
            .with_related(pattern.at(first_range.span), "the first range")
            .with_help("make the other value an equality, or filter the results in the application"),
        );
        return None;
    }
    let mut cx = Context {
        sources,
        file: pattern.file,
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
    let resolution = match (&pattern.operation, &pattern.query) {
        (Some((_, Operation::Scan(index))), _) => operation::scan(&cx, pattern, index.as_ref(), diagnostics),
        (Some((_, operation @ (Operation::Get | Operation::BatchGet))), _) => {
            let batch = *operation == Operation::BatchGet;
            // Each key of a batch names one item, as a get's does.
            let one_key = Pattern {
                returns: pattern
                    .returns
                    .iter()
                    .map(|r| Return {
                        many: false,
                        ..r.clone()
                    })
                    .collect(),
                ..pattern.clone()
            };
            operation::get(&cx, pattern, &one_key, batch, diagnostics)
        }
        (None, Some(query)) => pinned::verify(&cx, pattern, query, diagnostics),
        (None, None) => search(&cx, pattern, diagnostics),
    }?;
    filtered::check(&cx, pattern, &resolution, diagnostics).then_some(resolution)
}

/// Whether the pattern's filter removes every item of `entity`.
pub(super) fn removed_by_filter(cx: &Context, pattern: &Pattern, entity: EntityId) -> bool {
    let Some(filter) = &pattern.filter else { return false };
    let table = cx.model.table(cx.table);
    let keys: Vec<&str> = table.key_attributes().map(|k| k.name.as_str()).collect();
    crate::check::filter::keeps(cx.model, &cx.returns, cx.model.entity(entity), &keys, &filter.expr)
        == crate::check::filter::Keeps::Never
}

/// A pinned pattern's Query as written, even when the checker rejects what
/// it matches (for `dyno verify`, which runs it to show the leak). `None`
/// for a pattern without a pinned query, or one DynamoDB would reject.
pub fn pinned_as_written(
    sources: &[Source<'_>],
    model: &Model,
    registry: &Registry,
    pattern: &Pattern,
) -> Option<Resolution> {
    let query = pattern.query.as_ref()?;
    let returns: Vec<EntityId> = pattern.returns.iter().map(|r| r.entity).collect::<Option<_>>()?;
    let table = model.entity(*returns.first()?).table?;
    let mut cx = Context {
        sources,
        file: pattern.file,
        model,
        registry,
        table,
        returns,
        knowns: Knowns::default(),
    };
    cx.knowns = Knowns::new(&pattern.known, |attr| cx.shape_of(attr));
    pinned::as_written(&cx, pattern, query)
}

/// `status = "opn"` when `status` is `enum(open, paid)` can match nothing.
fn check_fixed_values(cx: &Context, pattern: &Pattern, diagnostics: &mut Vec<Diagnostic>) -> bool {
    let mut ok = true;
    for known in &pattern.known {
        let KnownKind::Fixed(literal) = &known.kind else {
            continue;
        };
        let Some(text) = literal_text(literal) else { continue };
        let owner = cx
            .returns
            .iter()
            .map(|&e| cx.model.entity(e))
            .find_map(|e| Some((e, e.attribute(&known.attr.text)?)));
        let Some((entity, attribute)) = owner else { continue };
        let shape = attribute.ty.shape(&cx.model.table(cx.table).delimiter);
        let text = match &shape {
            Some(shape) => knowns::key_text(text, shape),
            None => text,
        };
        let fits = shape.is_none_or(|s| lang::Template::new(vec![lang::Part::Hole(s)]).can_equal(&text));
        if !fits {
            let suggestion = match &attribute.ty {
                AttrType::Enum(values) => closest(&text, values.iter().map(String::as_str)),
                _ => None,
            };
            let hint = match (&attribute.ty, suggestion) {
                (_, Some(value)) => format!("; did you mean `{value}`?"),
                (AttrType::Enum(_), None) => String::new(),
                (other, None) => format!(" (a `{}`)", other.name()),
            };
            let fix = suggestion.map(|value| {
                // Written the way the mistake was: a bare word stays bare.
                let source = match literal {
                    Literal::Word(_) if is_identifier(value) && !matches!(value, "true" | "false") => value.to_string(),
                    _ => format!("\"{}\"", escape(value)),
                };
                Fix::replace(format!("change to `{value}`"), pattern.at(literal.span()), source)
            });
            diagnostics.push(
                Diagnostic::new(
                    Code::InvalidFixedValue,
                    pattern.at(literal.span()),
                    format!("`{}` can never be `{text}`{hint}", known.attr.text),
                )
                .with_related(entity.at(attribute.span), "declared here")
                .with_fixes(fix),
            );
            ok = false;
        }
    }
    ok
}

fn search(cx: &Context, pattern: &Pattern, diagnostics: &mut Vec<Diagnostic>) -> Option<Resolution> {
    let table = cx.model.table(cx.table);
    let mut reasons = Vec::new();
    for access in declarative::search_order(table) {
        match sharded::try_access(cx, pattern, access) {
            Ok((resolution, caveats)) => {
                warn_not_unique(cx, pattern, &resolution, &caveats.not_unique, diagnostics);
                if let Some(why) = caveats.order {
                    let order = pattern.order.as_ref().map_or(pattern.name.span, |o| o.span);
                    diagnostics.push(
                        Diagnostic::new(Code::UnsortedSortValue, pattern.at(order), why.caveat(cx.model))
                            .with_help("end the value in the key with a delimiter that sorts below every byte it can contain, or make it fixed-length"),
                    );
                }
                return Some(resolution);
            }
            Err(reason) => reasons.push((access, reason)),
        }
    }
    if let Some(span) = pattern.consistent
        && let Some(served) = served_without_consistent(cx, pattern)
    {
        let index = table.access(served);
        diagnostics.push(
            Diagnostic::new(
                Code::ConsistentGsi,
                pattern.at(span),
                format!(
                    "only index `{}` serves `{}`, and a global index cannot be read strongly consistent",
                    index.name.text, pattern.name.text
                ),
            )
            .with_related(table.at(index.name.span), "a global index: eventually consistent only")
            .with_help("drop `consistent`, or add a local index (or base-table keys) that serves the pattern"),
        );
        return None;
    }
    let not_in_keys = reasons.iter().find_map(|(_, reason)| match reason {
        rejection::Rejection::NotInKeys { attr, .. } => Some(attr.clone()),
        _ => None,
    });
    let mut diagnostic = Diagnostic::new(
        Code::NoSingleQuery,
        pattern.at(pattern.name.span),
        format!(
            "no single Query serves `{}`: it would need a Scan or several Queries",
            pattern.name.text
        ),
    );
    for (access, reason) in reasons {
        let access = table.access(access);
        let via = if access.is_index() {
            format!("index `{}`", access.name.text)
        } else {
            "the table".to_string()
        };
        diagnostic = diagnostic.with_related(
            table.at(access.name.span),
            format!("via {via}: {}", reason.render(cx.model)),
        );
    }
    let (mut help, fix) = proposal::propose(cx, pattern);
    let mut fixes: Vec<Fix> = fix.into_iter().collect();
    if let Some((as_filter, filter_fix)) = not_in_keys.and_then(|attr| filtered::known_as_filter(cx, pattern, &attr)) {
        help = format!("{help}; {as_filter}");
        fixes.extend(filter_fix);
    }
    diagnostics.push(diagnostic.with_help(help).with_fixes(fixes));
    None
}

/// The global index that would serve the pattern if it did not ask for a
/// strongly consistent read.
fn served_without_consistent(cx: &Context, pattern: &Pattern) -> Option<AccessId> {
    let relaxed = Pattern {
        consistent: None,
        ..pattern.clone()
    };
    let table = cx.model.table(cx.table);
    declarative::search_order(table)
        .into_iter()
        .filter(|&id| table.access(id).kind == AccessKind::Gsi)
        .find(|&access| sharded::try_access(cx, &relaxed, access).is_ok())
}

/// Every item the Query reads: in the access path, in the partition, and
/// matching the sort condition.
pub fn matching_items(model: &Model, registry: &Registry, resolution: &Resolution) -> Vec<ItemRef> {
    if let Read::Scan { .. } = resolution.read {
        let table = model.table(resolution.table);
        return operation::stored_in(model, registry, resolution.table, table, resolution.access);
    }
    let access = resolution.key_schema(model);
    if access.is_multi_attribute() {
        return multi::matching_items(model, resolution);
    }
    let sort_attr = access.sk.as_ref();
    let mut found: Vec<ItemRef> = Vec::new();
    // Compiled once for every candidate item.
    let partition = value::Prepared::new(&resolution.partition);
    let sort = resolution.sort.as_ref().map(SortOp::prepare);
    for item_ref in registry.compatible(resolution.table, &access.pk.name, resolution.partition.literal_head()) {
        let item = &model.entity(item_ref.entity).items[item_ref.item];
        let Some(pk) = item.key(&access.pk.name) else { continue };
        let sk = match sort_attr {
            Some(attr) => match item.key(&attr.name) {
                Some(kv) => Some(kv),
                None => continue, // sparse: not in this index
            },
            None => None,
        };
        if !partition.can_equal(&pk.template.lang) {
            continue;
        }
        let number_key = sort_attr.is_some_and(|a| a.ty != crate::syntax::ast::KeyType::String);
        let sort_ok = match (&sort, sk) {
            (Some(op), Some(kv)) if !number_key => op.can_match(&kv.template.lang),
            _ => true,
        };
        if sort_ok && !found.contains(&item_ref) {
            found.push(item_ref);
        }
    }
    found
}

/// `-> Customer` served by `index byEmail (email)`: the index key is given
/// in full, but nothing stops two customers from sharing an e-mail address.
pub(super) fn warn_not_unique(
    cx: &Context,
    pattern: &Pattern,
    resolution: &Resolution,
    not_unique: &[exact::NotUnique],
    diagnostics: &mut Vec<Diagnostic>,
) {
    let access = resolution.key_schema(cx.model);
    for n in not_unique {
        let entity = &cx.model.entity(n.entity).name.text;
        diagnostics.push(
            Diagnostic::new(
                Code::IndexNotUnique,
                pattern.at(pattern.name.span),
                format!(
                    "`{}` returns one `{entity}`, but index `{}` does not keep its keys unique: two `{entity}` items can share them, and the Query then returns both",
                    pattern.name.text, n.index
                ),
            )
            .with_related(cx.model.table(resolution.table).at(access.span), "an index key, not a primary key")
            .with_help(format!(
                "return `{entity}[]`, or make the pattern know the attributes of `{entity}`'s primary key"
            )),
        );
    }
}
