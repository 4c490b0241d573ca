//! E201's help and fix: what would make a pattern one Query. In order: return
//! a list, when only the single return fails; write the keys of an index the
//! table already has; add an index. Each is offered only when the schema it
//! makes still checks — the pattern resolves and no other error appears — so
//! a fix never trades one hazard for another.

use std::cell::Cell;

use super::Context;
use crate::check::Source;
use crate::check::model::{AccessKind, AttrType, KeySchema, Part, Pattern, Template};
use crate::check::suggest::escape;
use crate::diagnostic::{Fix, Severity};
use crate::syntax::ast::KnownKind;
use crate::syntax::{self, FileSpan, Span, names};

/// Above this size a fix is not tried out (each try is a whole analysis);
/// below it, at most `TRIES` fixes per analysed text. Files this small have
/// too few declarations to be resolved on several threads, so which patterns
/// get their tries is the same on every run.
const TRY_LIMIT: usize = 32 * 1024;
const TRIES: usize = 12;

thread_local! {
    /// Set while a fix is being tried out: the analysis of the fixed text
    /// proposes nothing itself.
    static TRYING: Cell<bool> = const { Cell::new(false) };
    /// The last source a fix was tried against: (length, hash, its errors,
    /// the fixes tried on it so far).
    static BEFORE: Cell<Option<(usize, u64, usize, usize)>> = const { Cell::new(None) };
}

/// A new analysis begins on this thread: its fixes get their own tries (an
/// analysis of a fix being tried out is part of the one that tries it).
pub fn new_analysis() {
    if !TRYING.get()
        && let Some((len, hash, count, _)) = BEFORE.get()
    {
        BEFORE.set(Some((len, hash, count, 0)));
    }
}

pub fn propose(cx: &Context, pattern: &Pattern) -> (String, Option<Fix>) {
    const NOTHING: &str =
        "key the returned entities on what the pattern knows, or add an index whose keys are built from it";
    if TRYING.get() || cx.sources.iter().map(|s| s.text.len()).sum::<usize>() > TRY_LIMIT {
        return (NOTHING.into(), None);
    }
    if let Some(fix) = pad_the_number(cx, pattern)
        && works(cx, pattern, &fix)
    {
        let help = "zero-pad the number, so that its text sorts like its value".into();
        return (help, Some(fix));
    }
    if let Some(fix) = return_a_list(pattern)
        && works(cx, pattern, &fix)
    {
        let help = "return a list: the key cannot guarantee one item, and `limit` is a page size, not a count".into();
        return (help, Some(fix));
    }
    let table = cx.model.table(cx.table);
    let reusable = table.access.iter().filter(|a| a.kind == AccessKind::Gsi);
    for access in reusable {
        if let Some(proposal) = Proposal::reuse(cx, pattern, access)
            && let Some(fix) = proposal.fix(cx)
            && works(cx, pattern, &fix)
        {
            return (proposal.help(cx), Some(fix));
        }
    }
    let proposal = Proposal::new_index(cx, pattern);
    match proposal.fix(cx) {
        Some(fix) if works(cx, pattern, &fix) => (proposal.help(cx), Some(fix)),
        _ => (NOTHING.into(), None),
    }
}

/// `number: int` becomes `int(pad 10)` when the pattern orders by it or
/// reads a range of it (a size hint in the type is left to the user).
fn pad_the_number(cx: &Context, pattern: &Pattern) -> Option<Fix> {
    let sorted = cx
        .knowns
        .range
        .as_ref()
        .map(|(attr, _)| attr.as_str())
        .or(pattern.order.as_ref().map(|o| o.attr.text.as_str()))?;
    let (entity, attribute) = cx
        .returns
        .iter()
        .map(|&e| cx.model.entity(e))
        .filter_map(|e| Some((e, e.attribute(sorted)?)))
        .find(|(_, a)| a.ty == AttrType::Int { pad: None } && a.size_hint.is_none())?;
    Some(Fix::replace(
        format!("declare `{}: int(pad 10)`", names::written(sorted)),
        entity.at(attribute.ty_span),
        "int(pad 10)",
    ))
}

/// `-> Order` becomes `-> Order[]`.
fn return_a_list(pattern: &Pattern) -> Option<Fix> {
    let edits: Vec<(FileSpan, String)> = pattern
        .returns
        .iter()
        .filter(|r| !r.many)
        .map(|r| (pattern.at(Span::empty(r.name.span.end)), "[]".to_string()))
        .collect();
    let names: Vec<String> = pattern
        .returns
        .iter()
        .filter(|r| !r.many)
        .map(|r| format!("`{}[]`", r.name.text))
        .collect();
    (!edits.is_empty()).then(|| Fix::new(format!("return {}", names.join(", ")), edits))
}

/// Whether the schema with `fix` applied resolves the pattern and has fewer
/// errors than now (this pattern's own error gone, no other one new).
fn works(cx: &Context, pattern: &Pattern, fix: &Fix) -> bool {
    let Some(fixed) = apply(cx.sources, fix) else {
        return false;
    };
    TRYING.set(true);
    let Some(before) = errors_before(cx.sources) else {
        TRYING.set(false);
        return false;
    };
    let parses: Vec<_> = cx
        .sources
        .iter()
        .zip(&fixed)
        .map(|(s, text)| syntax::parse_in(s.file, text))
        .collect();
    let sources: Vec<_> = cx
        .sources
        .iter()
        .zip(&fixed)
        .zip(&parses)
        .map(|((s, text), parse)| Source {
            file: s.file,
            text,
            parse,
        })
        .collect();
    let after = crate::check::check_single_threaded(&sources);
    TRYING.set(false);
    let resolved = after
        .model
        .pattern_named(&pattern.name.text)
        .is_some_and(|i| after.resolution(i).is_some());
    resolved && errors(&after) < before
}

fn errors(schema: &crate::check::Schema) -> usize {
    schema
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count()
}

/// The error count of the schema itself, checked once per schema and
/// thread; `None` once `TRIES` fixes were tried on it.
fn errors_before(sources: &[Source<'_>]) -> Option<usize> {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    let mut len = 0;
    for source in sources {
        (source.file, source.text).hash(&mut hasher);
        len += source.text.len();
    }
    let key = (len, hasher.finish());
    let (count, tried) = match BEFORE.get() {
        Some((len, hash, count, tried)) if (len, hash) == key => (count, tried),
        _ => (errors(&crate::check::check_single_threaded(sources)), 0),
    };
    BEFORE.set(Some((key.0, key.1, count, tried + 1)));
    (tried < TRIES).then_some(count)
}

/// The texts of `sources` with `fix` applied, in the same order.
fn apply(sources: &[Source<'_>], fix: &Fix) -> Option<Vec<String>> {
    let mut edits = fix.edits.clone();
    edits.sort_by_key(|(at, _)| std::cmp::Reverse(at.span.start));
    let mut texts: Vec<String> = sources.iter().map(|s| s.text.to_string()).collect();
    for (at, insert) in edits {
        let index = sources.iter().position(|s| s.file == at.file)?;
        let text = &mut texts[index];
        text.get(at.span.range())?;
        text.replace_range(at.span.range(), &insert);
    }
    Some(texts)
}

/// A global index that would serve the pattern, with the key templates the
/// returned entity writes for it: spelled out in E201's help, and written by
/// its fix.
struct Proposal {
    index: String,
    pk_attr: String,
    sk_attr: Option<String>,
    /// Whether the index is new (declared by the fix) or the table's own.
    declare: bool,
    /// The template sources (escaped, without quotes).
    pk: String,
    sk: String,
    /// The attributes the templates' holes name.
    holes: Vec<String>,
}

impl Proposal {
    /// The templates, for an index called `index` with these key attributes.
    fn templates(cx: &Context, pattern: &Pattern) -> (String, String, Vec<String>) {
        let table = cx.model.table(cx.table);
        let entity = &cx.model.entity(cx.returns[0]);
        let tag = entity.name.text.to_uppercase();
        let mut pk = escape(&tag);
        let mut holes = Vec::new();
        for known in pattern
            .known
            .iter()
            .filter(|k| matches!(k.kind, KnownKind::Equal | KnownKind::Fixed(_)))
        {
            pk.push_str(&format!("{}{{{}}}", escape(&table.delimiter), known.attr.text));
            holes.push(known.attr.text.clone());
        }
        let sorted = cx
            .knowns
            .range
            .as_ref()
            .map(|(attr, _)| attr.clone())
            .or(pattern.order.as_ref().map(|o| o.attr.text.clone()));
        let sk = match sorted {
            Some(attr) => {
                let hole = format!("{{{attr}}}");
                holes.push(attr);
                hole
            }
            None => table
                .base()
                .and_then(|b| b.sk.as_ref())
                .and_then(|sk| entity.items.first()?.key(&sk.name))
                .map_or_else(|| escape(&tag), |kv| template_source(&kv.template)),
        };
        (pk, sk, holes)
    }

    /// The table's global index `access`, when the entity writes none of its
    /// keys and they are generic key names (not attributes of the entity).
    fn reuse(cx: &Context, pattern: &Pattern, access: &KeySchema) -> Option<Proposal> {
        let entity = &cx.model.entity(cx.returns[0]);
        // Its keys are attributes the entity would have to declare, not templates.
        if access.is_multi_attribute() {
            return None;
        }
        let sk = access.sk.as_ref()?;
        let keys = [&access.pk.name, &sk.name];
        let writes = entity.items.iter().any(|i| keys.iter().any(|k| i.key(k).is_some()));
        if writes || keys.iter().any(|k| entity.attribute(k).is_some()) {
            return None;
        }
        let (pk, sk_template, holes) = Proposal::templates(cx, pattern);
        Some(Proposal {
            index: access.name.text.clone(),
            pk_attr: access.pk.name.clone(),
            sk_attr: Some(sk.name.clone()),
            declare: false,
            pk,
            sk: sk_template,
            holes,
        })
    }

    /// A new global index, named like the table's others (`GSI2` after `GSI1`).
    fn new_index(cx: &Context, pattern: &Pattern) -> Proposal {
        let table = cx.model.table(cx.table);
        let entity = &cx.model.entity(cx.returns[0]);
        let upper = table
            .access
            .iter()
            .any(|a| a.kind == AccessKind::Gsi && a.name.text.starts_with("GSI"));
        let base = if upper { "GSI" } else { "gsi" };
        let taken = |name: &str| {
            let name = name.to_lowercase();
            let starts = |other: &str| other.to_lowercase().starts_with(&name);
            table.key_attributes().any(|k| starts(&k.name))
                || table.access.iter().any(|a| starts(&a.name.text))
                || entity.attributes.iter().any(|a| starts(&a.name.text))
        };
        let n = (1..).find(|n| !taken(&format!("{base}{n}"))).unwrap_or(1);
        let index = format!("{base}{n}");
        let (pk_suffix, sk_suffix) = if upper { ("PK", "SK") } else { ("pk", "sk") };
        let (pk, sk, holes) = Proposal::templates(cx, pattern);
        Proposal {
            pk_attr: format!("{index}{pk_suffix}"),
            sk_attr: Some(format!("{index}{sk_suffix}")),
            index,
            declare: true,
            pk,
            sk,
            holes,
        }
    }

    // Names are written quoted when they are not identifiers (a reused
    // `"GSI-1"` with keys `"GSI1-PK"`, `"GSI1-SK"`).
    fn declaration(&self) -> String {
        let (index, pk) = (names::written(&self.index), names::written(&self.pk_attr));
        match &self.sk_attr {
            Some(sk) => format!("index {index} ({pk}, {})", names::written(sk)),
            None => format!("index {index} ({pk})"),
        }
    }

    fn key_lines(&self) -> Vec<String> {
        let mut lines = vec![format!("{} = \"{}\"", names::written(&self.pk_attr), self.pk)];
        if let Some(sk) = &self.sk_attr {
            lines.push(format!("{} = \"{}\"", names::written(sk), self.sk));
        }
        lines
    }

    fn help(&self, cx: &Context) -> String {
        let table = cx.model.table(cx.table);
        let entity = &cx.model.entity(cx.returns[0]);
        let lines = self.key_lines().join("` and `");
        match self.declare {
            true => format!(
                "add `{}` to `{}`, and to `{}`: `{lines}`",
                self.declaration(),
                table.name.text,
                entity.name.text
            ),
            false => format!(
                "write the keys of index `{}` in `{}`: `{lines}`",
                self.index, entity.name.text
            ),
        }
    }

    /// The edits that declare the index in the table (when new) and write
    /// its keys in the entity, each on a new line below the last of its
    /// kind. Only for a pattern over one entity of one item shape, where the
    /// lines are the whole fix (and every hole names one of its attributes).
    fn fix(&self, cx: &Context) -> Option<Fix> {
        let table = cx.model.table(cx.table);
        let entity_id = cx.returns[0];
        if cx.returns.iter().any(|&e| e != entity_id) {
            return None;
        }
        let entity = cx.model.entity(entity_id);
        if self.holes.iter().any(|h| entity.attribute(h).is_none()) {
            return None;
        }
        let [item] = entity.items.as_slice() else {
            return None;
        };
        let entity_anchor = item
            .keys
            .iter()
            .filter(|k| !k.implicit)
            .map(|k| k.span)
            .max_by_key(|s| s.end)
            .or_else(|| entity.attributes.iter().map(|a| a.span).max_by_key(|s| s.end))?;
        let mut edits = vec![lines_after(cx.sources, entity.at(entity_anchor), &self.key_lines())?];
        if self.declare {
            let table_anchor = table.access.iter().map(|a| a.span).max_by_key(|s| s.end)?;
            edits.insert(
                0,
                lines_after(cx.sources, table.at(table_anchor), &[self.declaration()])?,
            );
        }
        let title = match self.declare {
            true => format!(
                "add index `{}` to `{}` and its keys to `{}`",
                self.index, table.name.text, entity.name.text
            ),
            false => format!("write the keys of index `{}` in `{}`", self.index, entity.name.text),
        };
        Some(Fix::new(title, edits))
    }
}

/// A template as it is written between the quotes.
fn template_source(template: &Template) -> String {
    template
        .parts
        .iter()
        .map(|p| match p {
            Part::Literal { text, .. } => escape(text),
            Part::Hole { name, .. } => format!("{{{}}}", name.text),
        })
        .collect()
}

/// The edit that adds `lines` after the member at `after`: each on a line of
/// its own, indented like that member's line, when the member starts its
/// line and ends it (a comment may follow); otherwise on the same line.
fn lines_after(sources: &[Source<'_>], after: FileSpan, lines: &[String]) -> Option<(FileSpan, String)> {
    let (file, after) = (after.file, after.span);
    let source = crate::check::text_of(sources, file);
    let line_start = source.get(..after.start)?.rfind('\n').map_or(0, |i| i + 1);
    let indent = source.get(line_start..after.start)?;
    let tail = source.get(after.end..)?;
    let mut line_end = after.end + tail.find('\n').unwrap_or(tail.len());
    let mut newline = "\n";
    if line_end > after.end && source.as_bytes()[line_end - 1] == b'\r' {
        line_end -= 1;
        newline = "\r\n";
    }
    let rest = source.get(after.end..line_end)?.trim();
    if indent.trim().is_empty() && (rest.is_empty() || rest.starts_with("//")) {
        let text = lines.iter().map(|l| format!("{newline}{indent}{l}")).collect();
        Some((file.at(Span::empty(line_end)), text))
    } else {
        let text = lines.iter().map(|l| format!(" {l}")).collect();
        Some((file.at(Span::empty(after.end)), text))
    }
}
