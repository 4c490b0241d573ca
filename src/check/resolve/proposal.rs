//! E201's help and fix: what would make a pattern one Query. In order: return
//! a list, when only the single return fails; write the keys of an index the
//! table already has; add an index. Each is offered only when the schema it
//! makes still checks — the pattern resolves and no other error appears — so
//! a fix never trades one hazard for another.

use std::cell::Cell;

use super::Context;
use crate::check::Source;
use crate::check::lints::hot;
use crate::check::model::{AccessKind, AttrType, KeySchema, Part, Pattern, Template};
use crate::check::shard::MAX_SHARDS;
use crate::check::suggest::escape;
use crate::diagnostic::{Fix, Severity};
use crate::syntax::ast::KnownKind;
use crate::syntax::{self, FileSpan, Span, names};

/// Above this size a fix is not tried out (each try is a whole analysis);
/// below it, at most `TRIES` fixes per analysed text, counted per thread:
/// such a schema is resolved on one thread ([`tries_fixes`]), so which
/// patterns get their tries is the same on every run, and the same when an
/// incremental check resolves only some patterns again (a pattern that
/// tries a fix reports something, and those are always resolved again).
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

/// Whether fixes are tried out on a schema of these files: small enough.
pub fn tries_fixes(sources: &[Source<'_>]) -> bool {
    sources.iter().map(|s| s.text.len()).sum::<usize>() <= TRY_LIMIT
}

pub fn propose(cx: &Context, pattern: &Pattern) -> (String, Option<Fix>) {
    const NOTHING: &str =
        "key the returned entities on what the pattern knows, or add an index whose keys are built from it";
    if TRYING.get() || !tries_fixes(cx.sources) {
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
            && !matches!(proposal.shard, Shard::Cannot(_))
            && let Some(fix) = proposal.fix(cx)
            && works(cx, pattern, &fix)
        {
            return (proposal.help(cx), Some(fix));
        }
    }
    let proposal = Proposal::new_index(cx, pattern);
    // An index that would throttle the entity's writes is no fix.
    if matches!(proposal.shard, Shard::Cannot(_)) {
        return (proposal.help(cx), None);
    }
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
        .map(|r| (pattern.at(Span::empty(r.name.span.end())), "[]".to_string()))
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
    let defaults = &cx.model.defaults;
    let Some(before) = errors_before(cx.sources, defaults) else {
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
    let after = crate::check::check_single_threaded(&sources, defaults);
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
fn errors_before(sources: &[Source<'_>], defaults: &crate::check::Defaults) -> Option<usize> {
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
        _ => (errors(&crate::check::check_single_threaded(sources, defaults)), 0),
    };
    BEFORE.set(Some((key.0, key.1, count, tried + 1)));
    (tried < TRIES).then_some(count)
}

/// The texts of `sources` with `fix` applied, in the same order.
fn apply(sources: &[Source<'_>], fix: &Fix) -> Option<Vec<String>> {
    let mut edits = fix.edits.clone();
    edits.sort_by_key(|(at, _)| std::cmp::Reverse(at.span.start()));
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
    /// The write shard the partition key ends with (the help says why).
    shard: Shard,
}

/// What the proposed partition key does about the entity's writes: the
/// known values of a pattern are often few (a day, a status), and an index
/// keyed on them alone would take every write of that value in one
/// partition (W304).
#[derive(Clone, Debug, PartialEq)]
enum Shard {
    /// The writes spread, or there is no rate to worry about.
    None,
    /// The entity's own write shard, carried into the index key.
    Carried(String),
    /// A new attribute declared by the fix: its line (`shard: shard(3)`).
    Added(String, String),
    /// No shard count fits: the help says so.
    Cannot(String),
}

impl Proposal {
    /// The templates, for an index called `index` with these key attributes.
    fn templates(cx: &Context, pattern: &Pattern) -> (String, String, Vec<String>, Shard) {
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
            holes.push(known.attr.text.to_string());
        }
        let shard = shard_for(cx, &holes);
        match &shard {
            Shard::Carried(attr) | Shard::Added(attr, _) => {
                pk.push_str(&format!("{}{{{attr}}}", shard_separator(cx)));
                holes.push(attr.clone());
            }
            Shard::None | Shard::Cannot(_) => {}
        }
        let sorted = cx
            .knowns
            .range
            .as_ref()
            .map(|(attr, _)| attr.clone())
            .or(pattern.order.as_ref().map(|o| o.attr.text.to_string()));
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
        (pk, sk, holes, shard)
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
        let (pk, sk_template, holes, shard) = Proposal::templates(cx, pattern);
        Some(Proposal {
            index: access.name.text.to_string(),
            pk_attr: access.pk.name.clone(),
            sk_attr: Some(sk.name.clone()),
            declare: false,
            pk,
            sk: sk_template,
            holes,
            shard,
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
        let (pk, sk, holes, shard) = Proposal::templates(cx, pattern);
        Proposal {
            pk_attr: format!("{index}{pk_suffix}"),
            sk_attr: Some(format!("{index}{sk_suffix}")),
            index,
            declare: true,
            pk,
            sk,
            holes,
            shard,
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
        let mut lines = self.key_lines();
        if let Shard::Added(_, line) = &self.shard {
            lines.insert(0, line.clone());
        }
        let lines = lines.join("` and `");
        let help = match self.declare {
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
        };
        match &self.shard {
            Shard::None => help,
            Shard::Carried(attr) => format!(
                "{help} (the key carries `{}`'s write shard `{attr}`, so that the index's writes spread over its partitions as the table's do; the pattern then reads one Query per shard)",
                entity.name.text
            ),
            Shard::Added(attr, _) => format!(
                "{help} (the write shard `{attr}` keeps `{}`'s writes under what one partition serves; the pattern then reads one Query per shard)",
                entity.name.text
            ),
            Shard::Cannot(why) => format!("{help}; but {why}"),
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
        let added = match &self.shard {
            Shard::Added(attr, line) => Some((attr, line)),
            _ => None,
        };
        if self
            .holes
            .iter()
            .any(|h| entity.attribute(h).is_none() && added.is_none_or(|(attr, _)| attr != h))
        {
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
            .max_by_key(|s| s.end())
            .or_else(|| entity.attributes.iter().map(|a| a.span).max_by_key(|s| s.end()))?;
        let mut edits = vec![lines_after(cx.sources, entity.at(entity_anchor), &self.key_lines())?];
        if let Some((_, line)) = added {
            let attribute_anchor = entity.attributes.iter().map(|a| a.span).max_by_key(|s| s.end())?;
            if attribute_anchor.end() >= entity_anchor.end() {
                return None;
            }
            edits.insert(
                0,
                lines_after(cx.sources, entity.at(attribute_anchor), std::slice::from_ref(line))?,
            );
        }
        if self.declare {
            let table_anchor = table.access.iter().map(|a| a.span).max_by_key(|s| s.end())?;
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

/// The write shard a proposed index key over the known values `holes` needs.
fn shard_for(cx: &Context, holes: &[String]) -> Shard {
    let id = cx.returns[0];
    let entity = cx.model.entity(id);
    let names: Vec<&str> = holes.iter().map(String::as_str).collect();
    let concentrated = hot::write_concentration(entity, names.iter().map(|&h| (h, entity.attribute_id(h)))).is_some();
    if let Some(base) = base_shard(cx)
        && !holes.contains(&base.attr)
    {
        // The table key's shard says its values take too many writes: a key
        // whose values spread the writes no further would too (a date or an
        // enum does not spread the writes of one moment). A key over a value
        // that spreads them (an id the table key lacks) needs no shard.
        let spreads = |h: &String| {
            let ty = entity.attribute(h).map(|a| &a.ty);
            ty.is_none_or(|ty| matches!(hot::hole(h, ty, "writes"), hot::Hole::Spread))
        };
        let no_more_spread = holes.iter().filter(|h| spreads(h)).all(|h| base.others.contains(h));
        return if no_more_spread {
            Shard::Carried(base.attr)
        } else {
            Shard::None
        };
    }
    if !concentrated {
        return Shard::None;
    }
    match hot::shards_needed_on_new_index(cx.model, id, &names) {
        None => Shard::None,
        Some((n, _)) if n <= MAX_SHARDS => {
            let name = hot::free_name(entity, "shard");
            let line = format!("{name}: shard({n})");
            Shard::Added(name, line)
        }
        Some((_, total)) => Shard::Cannot(format!(
            "an index keyed this way would take every write of `{}` (~{} WCU/s) in one partition, more than {MAX_SHARDS} shards spread: key it on an attribute with many values",
            entity.name.text,
            hot::amount(total)
        )),
    }
}

/// The write shard in the returned entity's table partition key.
struct BaseShard {
    attr: String,
    /// The literal before it when that ends in a separator (`.`).
    separator: Option<String>,
    /// The key's other holes.
    others: Vec<String>,
}

fn base_shard(cx: &Context) -> Option<BaseShard> {
    let entity = cx.model.entity(cx.returns[0]);
    let base = cx.model.table(cx.table).base()?;
    let key = entity.items.first()?.key(&base.pk.name)?;
    let mut before = None;
    let mut shard = None;
    let mut others = Vec::new();
    for part in &key.template.parts {
        match part {
            Part::Literal { text, .. } => before = Some(text.as_str()),
            Part::Hole { name, attr, .. } => {
                let ty = attr.and_then(|i| entity.attributes.get(i)).map(|a| &a.ty);
                if shard.is_none() && matches!(ty, Some(AttrType::Shard { .. })) {
                    let separator = before
                        .and_then(|t| t.chars().last())
                        .filter(|c| !c.is_alphanumeric())
                        .map(|c| escape(&c.to_string()));
                    shard = Some((name.text.to_string(), separator));
                } else {
                    others.push(name.text.to_string());
                }
                before = None;
            }
        }
    }
    let (attr, separator) = shard?;
    Some(BaseShard {
        attr,
        separator,
        others,
    })
}

/// What goes between the known values and the shard in a proposed key: the
/// table key's own separator, else `.`.
fn shard_separator(cx: &Context) -> String {
    base_shard(cx)
        .and_then(|base| base.separator)
        .unwrap_or_else(|| ".".into())
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
    let line_start = source.get(..after.start())?.rfind('\n').map_or(0, |i| i + 1);
    let indent = source.get(line_start..after.start())?;
    let tail = source.get(after.end()..)?;
    let mut line_end = after.end() + tail.find('\n').unwrap_or(tail.len());
    let mut newline = "\n";
    if line_end > after.end() && source.as_bytes()[line_end - 1] == b'\r' {
        line_end -= 1;
        newline = "\r\n";
    }
    let rest = source.get(after.end()..line_end)?.trim();
    if indent.trim().is_empty() && (rest.is_empty() || rest.starts_with("//")) {
        let text = lines.iter().map(|l| format!("{newline}{indent}{l}")).collect();
        Some((file.at(Span::empty(line_end)), text))
    } else {
        let text = lines.iter().map(|l| format!(" {l}")).collect();
        Some((file.at(Span::empty(after.end())), text))
    }
}

#[cfg(test)]
mod tests {
    use crate::check::analyze;
    use crate::diagnostic::{Code, Diagnostic};

    fn e201(text: &str) -> Diagnostic {
        let analysis = analyze(text);
        let found = analysis.diagnostics().iter().find(|d| d.code == Code::NoSingleQuery);
        found.expect("E201").clone()
    }

    const SCORES: &str = r#"
table Games {
  key pk, sk
}
entity Score ~300B ~2500/s {
  gameId: id
  day: date
  userId: id
  points: int(pad 9)
  shard: shard(10)
  pk = "SCORE#{gameId}.{shard}"
  sk = "{points}#{userId}"
}
pattern leaderboard(day) -> Score[] by points desc
pattern byUser(userId) -> Score[]
pattern gameDay(gameId, day) -> Score[] by userId
"#;

    #[test]
    fn a_sharded_entity_keeps_its_shard_in_the_proposed_key() {
        let analysis = analyze(SCORES);
        let help: Vec<&str> = analysis
            .diagnostics()
            .iter()
            .filter(|d| d.code == Code::NoSingleQuery)
            .filter_map(|d| d.help.as_deref())
            .collect();
        let [leaderboard, by_user, game_day] = help.as_slice() else {
            panic!("{help:?}")
        };
        // The table key's own values (the game) were sharded by the
        // designer: a key over them is as busy.
        assert!(
            game_day.contains(r#"`gsi1pk = "SCORE#{gameId}#{day}.{shard}"`"#),
            "{game_day}"
        );
        assert!(
            leaderboard.contains(r#"`gsi1pk = "SCORE#{day}.{shard}"`"#),
            "{leaderboard}"
        );
        assert!(leaderboard.contains("one Query per shard"), "{leaderboard}");
        // A user's scores spread over the users: no shard needed.
        assert!(by_user.contains(r#"`gsi1pk = "SCORE#{userId}"`"#), "{by_user}");
    }

    #[test]
    fn no_fix_when_no_shard_count_fits() {
        // 5,000 writes a second of 400 KB: 2,000,000 WCU, over 1,000 shards.
        let text = SCORES
            .replace("~300B ~2500/s", "~400KB ~5000/s")
            .replace("  shard: shard(10)\n", "")
            .replace(".{shard}", "");
        let d = e201(&text);
        let help = d.help.as_deref().unwrap();
        assert!(help.contains("would take every write of `Score`"), "{help}");
        assert!(d.fixes.is_empty(), "{:?}", d.fixes);
    }
}
