//! Small random `.dyno` designs, deterministic from a seed: one table
//! `key pk, sk`, 0–2 GSIs and 0–1 LSI, 2–6 entities whose key templates
//! overlap on purpose, and patterns mostly derived from the templates (so
//! many should resolve) plus adversarial ones. About one design in four is
//! write-sharded: `shard(N)` and `shard(N, of attr)` holes at the end of
//! partition templates.

use std::fmt::Write;

/// xorshift64*: tiny, deterministic, good enough to pick among a few options.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x2545_F491_4F6C_DD1D | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Ty {
    Id,
    Str,
    Int,
    Pad(usize),
    Decimal,
    Date,
    Datetime,
    Ulid,
    Enum(&'static [&'static str]),
    /// `shard(N)`: a write shard, `0`..`N-1` at random on each write.
    Shard(u32),
    /// `shard(N, of source)`: calculated from the source's key text.
    ShardOf(u32, String),
}

impl Ty {
    pub fn source(&self) -> String {
        match self {
            Ty::Id => "id".into(),
            Ty::Str => "string".into(),
            Ty::Int => "int".into(),
            Ty::Pad(n) => format!("int(pad {n})"),
            Ty::Decimal => "decimal".into(),
            Ty::Date => "date".into(),
            Ty::Datetime => "datetime".into(),
            Ty::Ulid => "ulid".into(),
            Ty::Enum(words) => {
                let words: Vec<String> = words.iter().map(|w| quote_word(w)).collect();
                format!("enum({})", words.join(", "))
            }
            Ty::Shard(n) => format!("shard({n})"),
            Ty::ShardOf(n, source) => format!("shard({n}, of {source})"),
        }
    }

    /// Stored as a Number (a shard too: in a key, its decimal digits).
    pub fn numeric(&self) -> bool {
        matches!(
            self,
            Ty::Int | Ty::Pad(_) | Ty::Decimal | Ty::Shard(_) | Ty::ShardOf(..)
        )
    }

    pub fn is_shard(&self) -> bool {
        matches!(self, Ty::Shard(_) | Ty::ShardOf(..))
    }

    /// The values items draw from: small, so that equalities and prefixes
    /// collide (`12`/`123`, `ab`/`ab1`, enum words prefixing each other).
    pub fn pool(&self) -> Vec<String> {
        let v = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect();
        match self {
            Ty::Id => v(&["ab", "ab1", "a b", "x!", "12", "123"]),
            Ty::Str => v(&["ab", "ab#1", "a b", "ab1", "x!", "12"]),
            Ty::Int => v(&["1", "2", "9", "10", "12", "123"]),
            Ty::Pad(n) => ["0", "1", "7", "9", "10", "12", "123"]
                .iter()
                .filter(|x| x.len() <= *n)
                .map(|s| s.to_string())
                .collect(),
            Ty::Decimal => v(&["1.5", "12", "-3", "2.25", "10"]),
            Ty::Date => v(&["2023-12-31", "2024-01-05", "2024-01-15", "2024-02-01"]),
            Ty::Datetime => v(&[
                "2024-01-05T10:00:00Z",
                "2024-01-05T10:00:01Z",
                "2024-01-06T00:00:00Z",
                "2023-12-31T23:59:59Z",
            ]),
            Ty::Ulid => v(&[
                "01HQ3Z0000000000000000000A",
                "01HQ3Z0000000000000000000B",
                "01HQ3Z000000000000000000A0",
                "01HQ400000000000000000000A",
            ]),
            Ty::Enum(words) => words.iter().map(|s| s.to_string()).collect(),
            // A calculated shard's value comes from its source (`oracle::items`).
            Ty::Shard(n) | Ty::ShardOf(n, _) => dyno::check::shard::values(*n),
        }
    }

    /// The value as it appears in a key: `int(pad 4)` zero-pads.
    pub fn key_text(&self, value: &str) -> String {
        match self {
            Ty::Pad(n) => format!("{value:0>n$}"),
            _ => value.to_string(),
        }
    }

    /// A fixed value in a pattern, as source text.
    pub fn literal(&self, value: &str) -> String {
        match self {
            Ty::Int | Ty::Pad(_) | Ty::Decimal | Ty::Shard(_) | Ty::ShardOf(..) => value.to_string(),
            Ty::Enum(_) => quote_word(value),
            _ => format!("{value:?}"),
        }
    }
}

fn quote_word(w: &str) -> String {
    if w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        w.to_string()
    } else {
        format!("{w:?}")
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Part {
    Lit(String),
    Hole(String),
}

pub type Template = Vec<Part>;

/// `"ORDER#{orderId}#LINE#{lineNo}"` → parts.
pub fn template(text: &str) -> Template {
    let mut parts = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        if open > 0 {
            parts.push(Part::Lit(rest[..open].to_string()));
        }
        let close = rest[open..].find('}').unwrap() + open;
        parts.push(Part::Hole(rest[open + 1..close].to_string()));
        rest = &rest[close + 1..];
    }
    if !rest.is_empty() {
        parts.push(Part::Lit(rest.to_string()));
    }
    parts
}

pub fn holes(t: &Template) -> Vec<&str> {
    t.iter()
        .filter_map(|p| match p {
            Part::Hole(h) => Some(h.as_str()),
            Part::Lit(_) => None,
        })
        .collect()
}

fn template_source(t: &Template) -> String {
    t.iter()
        .map(|p| match p {
            Part::Lit(s) => s.clone(),
            Part::Hole(h) => format!("{{{h}}}"),
        })
        .collect()
}

#[derive(Clone, Debug)]
pub struct Attr {
    pub name: String,
    pub ty: Ty,
    pub optional: bool,
}

#[derive(Clone, Debug)]
pub struct Entity {
    pub name: String,
    pub attrs: Vec<Attr>,
    /// Key attribute → template, for the keys the entity writes.
    pub keys: Vec<(String, Template)>,
}

impl Entity {
    pub fn attr(&self, name: &str) -> Option<&Attr> {
        self.attrs.iter().find(|a| a.name == name)
    }
    pub fn template(&self, key: &str) -> Option<&Template> {
        self.keys.iter().find(|(k, _)| k == key).map(|(_, t)| t)
    }
    /// How the entity fills a key attribute: its template, or (a key named
    /// like one of its attributes) that attribute as a one-hole template.
    pub fn key_source(&self, key: &str) -> Option<Template> {
        self.template(key)
            .cloned()
            .or_else(|| self.attr(key).map(|a| vec![Part::Hole(a.name.clone())]))
    }
}

#[derive(Clone, Debug)]
pub struct Index {
    pub name: String,
    pub local: bool,
    pub pk: String,
    pub sk: Option<String>,
    pub projection: String,
}

#[derive(Clone, Debug)]
pub enum Known {
    Eq(String),
    Fixed(String, String),
    /// attr, operator, bound name
    Cmp(String, &'static str, String),
    Between(String, String, String),
    Begins(String, String),
}

impl Known {
    pub fn attr(&self) -> &str {
        match self {
            Known::Eq(a) | Known::Fixed(a, _) | Known::Cmp(a, _, _) | Known::Between(a, _, _) | Known::Begins(a, _) => {
                a
            }
        }
    }
}

#[derive(Clone, Debug)]
pub struct Pattern {
    pub name: String,
    pub known: Vec<Known>,
    /// Entity name, many.
    pub returns: Vec<(String, bool)>,
    pub by: Option<(String, bool)>,
    pub limit: Option<u64>,
    pub consistent: bool,
}

#[derive(Clone, Debug)]
pub struct Design {
    pub indexes: Vec<Index>,
    pub entities: Vec<Entity>,
    pub patterns: Vec<Pattern>,
}

impl Design {
    pub fn entity(&self, name: &str) -> &Entity {
        self.entities.iter().find(|e| e.name == name).unwrap()
    }

    pub fn source(&self) -> String {
        let mut out = String::from("table Truth {\n  key pk, sk\n");
        for i in &self.indexes {
            let local = if i.local { "local " } else { "" };
            let sk = i.sk.as_ref().map(|s| format!(", {s}")).unwrap_or_default();
            writeln!(out, "  {local}index {} ({}{sk}){}", i.name, i.pk, i.projection).unwrap();
        }
        out.push_str("}\n");
        for e in &self.entities {
            writeln!(out, "\nentity {} {{", e.name).unwrap();
            for a in &e.attrs {
                let opt = if a.optional { "?" } else { "" };
                writeln!(out, "  {}: {}{opt}", a.name, a.ty.source()).unwrap();
            }
            for (k, t) in &e.keys {
                writeln!(out, "  {k} = {:?}", template_source(t)).unwrap();
            }
            out.push_str("}\n");
        }
        out.push('\n');
        for p in &self.patterns {
            out.push_str(&p.source(self));
            out.push('\n');
        }
        out
    }
}

impl Pattern {
    pub fn source(&self, design: &Design) -> String {
        let ty = |attr: &str| {
            self.returns
                .iter()
                .find_map(|(e, _)| design.entity(e).attr(attr))
                .map(|a| a.ty.clone())
                .unwrap_or(Ty::Str)
        };
        let known: Vec<String> = self
            .known
            .iter()
            .map(|k| match k {
                Known::Eq(a) => a.clone(),
                Known::Fixed(a, v) => format!("{a} = {}", ty(a).literal(v)),
                Known::Cmp(a, op, b) => format!("{a} {op} {b}"),
                Known::Between(a, lo, hi) => format!("{a} between {lo} and {hi}"),
                Known::Begins(a, p) => format!("{a} begins_with {p}"),
            })
            .collect();
        let returns: Vec<String> = self
            .returns
            .iter()
            .map(|(e, many)| if *many { format!("{e}[]") } else { e.clone() })
            .collect();
        let mut out = format!("pattern {}({}) -> {}", self.name, known.join(", "), returns.join(", "));
        if let Some((attr, desc)) = &self.by {
            write!(out, " by {attr}{}", if *desc { " desc" } else { "" }).unwrap();
        }
        if let Some(n) = self.limit {
            write!(out, " limit {n}").unwrap();
        }
        if self.consistent {
            out.push_str(" consistent");
        }
        out
    }
}
