//! A compact, stable text dump of a syntax tree: what the fixture tests
//! snapshot to prove that recovery kept the items around an error.

use std::fmt::Write;

use super::ast::*;
use super::names::written;

pub fn outline(file: &SourceFile) -> String {
    let mut out = String::new();
    for item in &file.items {
        match item {
            Item::Table(t) => table(&mut out, t),
            Item::Entity(e) => entity(&mut out, e),
            Item::Pattern(p) => pattern(&mut out, p),
        }
    }
    out
}

fn docs(out: &mut String, indent: &str, docs: &Option<Box<Docs>>) {
    if let Some(d) = docs {
        for line in d.text.lines() {
            let _ = writeln!(out, "{indent}/// {line}");
        }
    }
}

fn key_attr(k: &KeyAttr) -> String {
    match k.ty {
        Some((ty, _)) => format!("{}: {ty:?}", written(&k.name.text)),
        None => written(&k.name.text).into_owned(),
    }
}

fn key_part(part: &KeyPart) -> String {
    let attrs: Vec<String> = part.attrs.iter().map(key_attr).collect();
    match part.list {
        Some(_) => format!("[{}]", attrs.join(", ")),
        None => attrs.join(", "),
    }
}

fn keys(partition: &KeyPart, sort: &Option<KeyPart>) -> String {
    match sort {
        Some(s) => format!("{}, {}", key_part(partition), key_part(s)),
        None => key_part(partition),
    }
}

fn table(out: &mut String, t: &Table) {
    docs(out, "", &t.docs);
    let _ = writeln!(
        out,
        "table {} @{}..{}",
        written(&t.name.text),
        t.span.start(),
        t.span.end()
    );
    for k in &t.keys {
        let _ = writeln!(out, "  key {}", keys(&k.partition, &k.sort));
    }
    for i in &t.indexes {
        docs(out, "  ", &i.docs);
        let projection = match &i.projection {
            Projection::Default => String::new(),
            Projection::All(_) => " all".into(),
            Projection::KeysOnly(_) => " keys_only".into(),
            Projection::Include(_, names) => {
                format!(
                    " include({})",
                    names.iter().map(|n| written(&n.text)).collect::<Vec<_>>().join(", ")
                )
            }
        };
        let local = if i.local { "local " } else { "" };
        let _ = writeln!(
            out,
            "  {local}index {} ({}){projection}",
            written(&i.name.text),
            keys(&i.partition, &i.sort)
        );
    }
    for d in &t.delimiters {
        let _ = writeln!(out, "  delimiter {:?}", d.value.display());
    }
    for ttl in &t.ttls {
        let _ = writeln!(out, "  ttl {}", written(&ttl.attribute.text));
    }
}

fn size(hint: &Option<SizeHint>) -> String {
    let unit = |u: SizeUnit| match u {
        SizeUnit::None => "",
        SizeUnit::Bytes => "B",
        SizeUnit::KiloBytes => "KB",
        SizeUnit::MegaBytes => "MB",
    };
    hint.as_ref()
        .map(|h| format!(" ~{}{}", h.amount, unit(h.unit)))
        .unwrap_or_default()
}

fn type_ref(t: &TypeRef) -> String {
    if t.args.is_empty() {
        return t.name.text.to_string();
    }
    let args: Vec<String> = t
        .args
        .iter()
        .map(|a| match a {
            TypeArg::Pad { width, .. } => format!("pad {width}"),
            TypeArg::Size(h) => size(&Some(h.clone())).trim().to_string(),
            TypeArg::Word(w) => w.text.to_string(),
            TypeArg::Str(s) => format!("{:?}", s.display()),
            TypeArg::Count { value, .. } => value.to_string(),
            TypeArg::Of(attr) => format!("of {}", attr.text),
        })
        .collect();
    format!("{}({})", t.name.text, args.join(", "))
}

fn template(k: &KeyTemplate) -> String {
    let segments: Vec<String> = k
        .template
        .segments
        .iter()
        .map(|s| match s {
            Segment::Literal { text, span } => format!("{text:?}@{}", span.start()),
            Segment::Hole { name, span } => format!("{{{}}}@{}", name.text, span.start()),
        })
        .collect();
    format!("{} = {}", written(&k.key.text), segments.join(" "))
}

fn entity(out: &mut String, e: &Entity) {
    docs(out, "", &e.docs);
    let table = e
        .table
        .as_ref()
        .map(|t| format!(" in {}", written(&t.text)))
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "entity {}{table}{}{} @{}..{}",
        e.name.text,
        size(&e.size),
        e.rate.as_ref().map(|r| format!(" ~{}/s", r.text)).unwrap_or_default(),
        e.span.start(),
        e.span.end()
    );
    for a in &e.attributes {
        docs(out, "  ", &a.docs);
        let optional = if a.optional { "?" } else { "" };
        let _ = writeln!(out, "  {}: {}{optional}", written(&a.name.text), type_ref(&a.ty));
    }
    for k in &e.keys {
        let _ = writeln!(out, "  {}", template(k));
    }
    for i in &e.items {
        let _ = writeln!(out, "  item");
        for k in &i.keys {
            let _ = writeln!(out, "    {}", template(k));
        }
    }
}

fn operand(o: &Operand) -> String {
    match o {
        Operand::Str(s) => format!("{:?}", s.display()),
        Operand::Number(n, _) => n.clone(),
        Operand::Param(p) => p.text.to_string(),
    }
}

fn pattern(out: &mut String, p: &Pattern) {
    docs(out, "", &p.docs);
    let known: Vec<String> = p.known.iter().map(super::print::known).collect();
    let returns: Vec<String> = p
        .returns
        .iter()
        .map(|r| format!("{}{}{}", r.entity.text, if r.many { "[]" } else { "" }, size(&r.count)))
        .collect();
    let _ = write!(
        out,
        "pattern {}({}) -> {}",
        p.name.text,
        known.join(", "),
        returns.join(", ")
    );
    for m in &p.modifiers {
        let _ = write!(out, " {}", super::print::modifier_text(m));
    }
    let _ = writeln!(out, " @{}..{}", p.span.start(), p.span.end());
    if let Some(q) = &p.query {
        let index = q
            .index
            .as_ref()
            .map(|i| format!(".{}", written(&i.text)))
            .unwrap_or_default();
        let conditions: Vec<String> = q
            .conditions
            .iter()
            .map(|c| match &c.kind {
                ConditionKind::Compare(op, v) => {
                    format!("{} {} {}", written(&c.key.text), op.as_str(), operand(v))
                }
                ConditionKind::Between(a, b) => {
                    format!("{} between {} and {}", written(&c.key.text), operand(a), operand(b))
                }
                ConditionKind::BeginsWith(v) => {
                    format!("begins_with({}, {})", written(&c.key.text), operand(v))
                }
            })
            .collect();
        let _ = writeln!(
            out,
            "  = query {}{index} where {}",
            written(&q.table.text),
            conditions.join(" and ")
        );
    }
}
