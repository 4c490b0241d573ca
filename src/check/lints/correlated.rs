//! E301 with correlated holes: an attribute used in several holes of one item
//! (`pk = "FOLDER#{folderId}"`, `sk = "FOLDER#{folderId}"`) is one value, not
//! one per hole. Intersecting each key's templates independently ignores that
//! and can report a key no item can write.
//!
//! The question is a small system of string equations: with item `a`'s
//! attributes and item `b`'s attributes as variables (each with its shape),
//! is there an assignment with `pk_a = pk_b` and `sk_a = sk_b`? It is decided
//! exactly in these steps:
//!
//! 1. **Partition keys with one skeleton.** When both partition-key templates
//!    are the same literals and hole shapes in the same order, and a value
//!    parses into that skeleton in only one way (see [`unambiguous`]), equal
//!    values force equal holes: the variables are unified, and the partition
//!    key equation holds for every assignment. Otherwise it stays an equation.
//! 2. **Cancellation.** In each equation, identical leading parts (the same
//!    literal characters, or the same unified variable) are cancelled from
//!    both sides, and so are identical trailing parts: `X·R = X·S` exactly
//!    when `R = S`. Two different literal characters facing each other mean
//!    the equation has no solution.
//! 3. **Independent remainders.** When no variable occurs twice among what
//!    is left, the equations share nothing: the system has a solution exactly
//!    when each remainder's two sides intersect (template automata). A
//!    witness assignment is read back from the automaton's witness and
//!    checked by rendering both items' keys.
//!
//! When a variable still occurs twice after cancellation, the answer is
//! [`Verdict::Unknown`]: the caller keeps the independent intersection, which
//! can only over-report. The property test in this module checks, against
//! brute-force enumeration of attribute assignments, that `Collide` and
//! `Disjoint` are always right.

use std::collections::HashMap;

use crate::check::lang::{self, Automaton, Shape};

/// One part of a key template with its holes as variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sym {
    Lit(String),
    /// An index into the shapes of the system.
    Var(usize),
}

/// The primary key one item writes.
#[derive(Clone, Debug)]
pub struct Keys {
    pub pk: Vec<Sym>,
    pub sk: Option<Vec<Sym>>,
}

#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Both items can write this primary key (checked by rendering it).
    Collide { pk: String, sk: Option<String> },
    /// No assignment gives both items the same primary key.
    Disjoint,
    /// A variable still occurs twice after cancellation: not decided here.
    Unknown,
}

/// Decides whether `a` and `b` can write the same primary key. Every variable
/// of `a` and of `b` indexes `shapes`; `a` and `b` share no variable (two
/// items are two writes, even of one entity).
pub fn decide(a: &Keys, b: &Keys, shapes: &[Shape]) -> Verdict {
    let mut roots = Roots::new(shapes.len());
    let mut equations: Vec<(Vec<Sym>, Vec<Sym>)> = Vec::new();
    if same_skeleton(&a.pk, &b.pk, shapes) && unambiguous(&a.pk, shapes) {
        for (x, y) in a.pk.iter().zip(&b.pk) {
            if let (Sym::Var(x), Sym::Var(y)) = (x, y) {
                roots.union(*x, *y);
            }
        }
    } else {
        equations.push((a.pk.clone(), b.pk.clone()));
    }
    match (&a.sk, &b.sk) {
        (Some(x), Some(y)) => equations.push((x.clone(), y.clone())),
        (None, None) => {}
        // Items of one table write the same keys; anything else is no key.
        _ => return Verdict::Unknown,
    }
    let mut remainders = Vec::new();
    for (left, right) in &equations {
        let (left, right) = (roots.resolve(left), roots.resolve(right));
        match cancel(left, right) {
            Some(rest) => remainders.push(rest),
            None => return Verdict::Disjoint,
        }
    }
    let mut seen = vec![0usize; shapes.len()];
    for (left, right) in &remainders {
        for sym in left.iter().chain(right) {
            if let Sym::Var(v) = sym {
                seen[*v] += 1;
                if seen[*v] > 1 {
                    return Verdict::Unknown;
                }
            }
        }
    }
    let mut values: HashMap<usize, String> = HashMap::new();
    let mut automata: HashMap<usize, Automaton> = HashMap::new();
    for (left, right) in &remainders {
        let (x, y) = (template(left, shapes).compile(), template(right, shapes).compile());
        let Some(bytes) = lang::intersect(&[&x, &y]) else {
            return Verdict::Disjoint;
        };
        let Ok(witness) = String::from_utf8(bytes) else {
            return Verdict::Unknown;
        };
        if !parse(left, &witness, shapes, &mut automata, &mut values)
            || !parse(right, &witness, shapes, &mut automata, &mut values)
        {
            return Verdict::Unknown;
        }
    }
    // Variables left free take their shortest value.
    let render = |syms: &[Sym], values: &mut HashMap<usize, String>| -> Option<String> {
        let mut out = String::new();
        for sym in roots.resolve(syms) {
            match sym {
                Sym::Lit(text) => out.push_str(&text),
                Sym::Var(v) => {
                    if let std::collections::hash_map::Entry::Vacant(slot) = values.entry(v) {
                        let shortest = lang::Template::new(vec![lang::Part::Hole(shapes[v].clone())]).compile();
                        let bytes = lang::intersect(&[&shortest])?;
                        slot.insert(String::from_utf8(bytes).ok()?);
                    }
                    out.push_str(&values[&v]);
                }
            }
        }
        Some(out)
    };
    let rendered = (|| {
        let pk = render(&a.pk, &mut values)?;
        let sk = match &a.sk {
            Some(sk) => Some(render(sk, &mut values)?),
            None => None,
        };
        let same = render(&b.pk, &mut values)? == pk
            && match (&b.sk, &sk) {
                (Some(other), Some(sk)) => render(other, &mut values)? == *sk,
                _ => true,
            };
        same.then_some((pk, sk))
    })();
    match rendered {
        Some((pk, sk)) => Verdict::Collide { pk, sk },
        None => Verdict::Unknown,
    }
}

/// Union-find over variables.
struct Roots(Vec<usize>);

impl Roots {
    fn new(n: usize) -> Roots {
        Roots((0..n).collect())
    }

    fn find(&self, mut v: usize) -> usize {
        while self.0[v] != v {
            v = self.0[v];
        }
        v
    }

    fn union(&mut self, x: usize, y: usize) {
        let (x, y) = (self.find(x), self.find(y));
        self.0[y] = x;
    }

    fn resolve(&self, syms: &[Sym]) -> Vec<Sym> {
        syms.iter()
            .map(|s| match s {
                Sym::Var(v) => Sym::Var(self.find(*v)),
                Sym::Lit(t) => Sym::Lit(t.clone()),
            })
            .filter(|s| !matches!(s, Sym::Lit(t) if t.is_empty()))
            .collect()
    }
}

/// The same literals and hole shapes in the same order.
fn same_skeleton(a: &[Sym], b: &[Sym], shapes: &[Shape]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|pair| match pair {
            (Sym::Lit(x), Sym::Lit(y)) => x == y,
            (Sym::Var(x), Sym::Var(y)) => shapes[*x] == shapes[*y],
            _ => false,
        })
}

/// Whether every value of the template splits into its parts in one way
/// only, read left to right: each hole but the last either is prefix-free
/// (no value is a proper prefix of another, so it ends where its value does)
/// or is followed by a literal whose first byte no value of the hole
/// contains (so it ends before that byte's first occurrence). The last hole
/// is what remains before the fixed trailing literal.
pub fn unambiguous(parts: &[Sym], shapes: &[Shape]) -> bool {
    let last_hole = parts.iter().rposition(|p| matches!(p, Sym::Var(_)));
    parts.iter().enumerate().all(|(i, part)| {
        let Sym::Var(v) = part else { return true };
        if Some(i) == last_hole {
            return true;
        }
        let shape = &shapes[*v];
        prefix_free(shape)
            || matches!(parts.get(i + 1), Some(Sym::Lit(next))
                if next.as_bytes().first().is_some_and(|&b| excludes(shape, b)))
    })
}

/// No value of the shape is a proper prefix of another.
fn prefix_free(shape: &Shape) -> bool {
    match shape {
        // Fixed length, or (datetime) ending with the only `Z` or an offset
        // that follows the seconds or the fraction.
        Shape::Int { pad: Some(_) }
        | Shape::Date
        | Shape::DateTime
        | Shape::OffsetDateTime
        | Shape::Uuid
        | Shape::Ulid
        | Shape::Bool => true,
        // `...:00` is a prefix of `...:00.5`.
        Shape::LocalDateTime => false,
        Shape::Enum(words) => words.iter().enumerate().all(|(i, w)| {
            words
                .iter()
                .enumerate()
                .all(|(j, x)| i == j || !x.starts_with(w.as_str()))
        }),
        Shape::Int { pad: None } | Shape::Decimal | Shape::Id { .. } | Shape::String => false,
    }
}

/// No value of the shape contains byte `b`.
fn excludes(shape: &Shape, b: u8) -> bool {
    let outside = |allowed: &[u8]| !allowed.contains(&b);
    match shape {
        Shape::Int { .. } => !b.is_ascii_digit(),
        Shape::Decimal => !b.is_ascii_digit() && b != b'.',
        Shape::Date => !b.is_ascii_digit() && b != b'-',
        Shape::DateTime => !b.is_ascii_digit() && outside(b"-T:.Z"),
        Shape::LocalDateTime => !b.is_ascii_digit() && outside(b"-T:."),
        Shape::OffsetDateTime => !b.is_ascii_digit() && outside(b"-T:.Z+"),
        Shape::Uuid => !b.is_ascii_digit() && outside(b"abcdef-"),
        Shape::Ulid => !b.is_ascii_digit() && !b.is_ascii_uppercase(),
        Shape::Bool => outside(b"truefals"),
        Shape::Enum(words) => words.iter().all(|w| !w.as_bytes().contains(&b)),
        Shape::Id { delimiter } => delimiter.as_bytes().contains(&b),
        Shape::String => false,
    }
}

/// One character of literal text, or a variable.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Token {
    Char(char),
    Var(usize),
}

fn tokens(syms: &[Sym]) -> Vec<Token> {
    syms.iter()
        .flat_map(|s| match s {
            Sym::Lit(t) => t.chars().map(Token::Char).collect::<Vec<_>>(),
            Sym::Var(v) => vec![Token::Var(*v)],
        })
        .collect()
}

fn syms(tokens: &[Token]) -> Vec<Sym> {
    let mut out: Vec<Sym> = Vec::new();
    for token in tokens {
        match (token, out.last_mut()) {
            (Token::Char(c), Some(Sym::Lit(text))) => text.push(*c),
            (Token::Char(c), _) => out.push(Sym::Lit(c.to_string())),
            (Token::Var(v), _) => out.push(Sym::Var(*v)),
        }
    }
    out
}

/// Cancels identical leading and trailing parts; `None` when two different
/// literal characters face each other (no solution).
fn cancel(left: Vec<Sym>, right: Vec<Sym>) -> Option<(Vec<Sym>, Vec<Sym>)> {
    let (mut l, mut r) = (tokens(&left), tokens(&right));
    for _ in 0..2 {
        let common = l.iter().zip(&r).take_while(|(x, y)| x == y).count();
        if let (Some(Token::Char(_)), Some(Token::Char(_))) = (l.get(common), r.get(common)) {
            return None;
        }
        l.drain(..common);
        r.drain(..common);
        l.reverse();
        r.reverse();
    }
    Some((syms(&l), syms(&r)))
}

fn template(syms: &[Sym], shapes: &[Shape]) -> lang::Template {
    lang::Template::new(
        syms.iter()
            .map(|s| match s {
                Sym::Lit(t) => lang::Part::Literal(t.into()),
                Sym::Var(v) => lang::Part::Hole(shapes[*v].clone()),
            })
            .collect(),
    )
}

/// Splits `s` into the parts, assigning each unassigned variable a value of
/// its shape (backtracking; witnesses are short).
fn parse(
    parts: &[Sym],
    s: &str,
    shapes: &[Shape],
    automata: &mut HashMap<usize, Automaton>,
    values: &mut HashMap<usize, String>,
) -> bool {
    let Some((first, rest)) = parts.split_first() else {
        return s.is_empty();
    };
    match first {
        Sym::Lit(text) => s
            .strip_prefix(text.as_str())
            .is_some_and(|tail| parse(rest, tail, shapes, automata, values)),
        Sym::Var(v) => {
            if let Some(value) = values.get(v).cloned() {
                return s
                    .strip_prefix(value.as_str())
                    .is_some_and(|tail| parse(rest, tail, shapes, automata, values));
            }
            let ends: Vec<usize> = s.char_indices().map(|(i, _)| i).skip(1).chain([s.len()]).collect();
            for end in ends {
                let accepted = automata
                    .entry(*v)
                    .or_insert_with(|| lang::Template::new(vec![lang::Part::Hole(shapes[*v].clone())]).compile())
                    .accepts(&s.as_bytes()[..end]);
                if accepted {
                    values.insert(*v, s[..end].to_string());
                    if parse(rest, &s[end..], shapes, automata, values) {
                        return true;
                    }
                    values.remove(v);
                }
            }
            false
        }
    }
}

#[cfg(test)]
mod tests;
