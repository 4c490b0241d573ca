//! Exact languages of key templates.
//!
//! A key template (`"TENANT#{tenantId}#INVOICE#{number}"`) is literal text and typed holes; the
//! set of strings it can produce is a regular language over bytes. Every question the checker
//! asks about keys — can two templates write the same value, can a key condition match what a
//! template writes — is answered exactly by intersecting small automata ([`intersect`]), never
//! by string heuristics. Strings compare as DynamoDB compares them: UTF-8 bytes, lexicographic.
//!
//! # Shapes
//!
//! | type          | strings                                                                 |
//! |---------------|-------------------------------------------------------------------------|
//! | `id`          | non-empty UTF-8, no byte of the table delimiter                          |
//! | `int(pad N)`  | exactly `N` ASCII digits                                                 |
//! | `int`         | `0\|[1-9][0-9]*`                                                         |
//! | `decimal`     | `(0\|[1-9][0-9]*)(\.[0-9]+)?`                                            |
//! | `date`        | `[0-9]{4}-MM-DD`, month `01`–`12`, day `01`–`31`                         |
//! | `datetime`    | date `T` `HH:MM:SS` (`00`–`23`, `00`–`59`, `00`–`59`), `.` 1–9 digits optional, `Z` |
//! | `uuid`        | `8-4-4-4-12` lowercase hex                                               |
//! | `ulid`        | `[0-7][0-9A-HJKMNP-TV-Z]{25}`                                            |
//! | `enum(a, …)`  | exactly the listed words                                                 |
//! | `bool`        | `true\|false`                                                            |
//! | `string`      | non-empty UTF-8                                                          |
//!
//! Why these choices:
//! - `id` and `string` admit every Unicode scalar value (control characters included) because
//!   DynamoDB does; being narrower would make "no overlap" answers unsound. Witnesses still
//!   prefer readable characters.
//! - Numbers are non-negative and canonical (no sign, no leading zeros unless padded): a sign
//!   breaks string order anyway, and `int` is what integer formatting prints, so `"7"` and
//!   `"07"` are different values. `int(pad N)` zero-pads, so leading zeros are expected there.
//! - Days are not checked per month (`2024-02-31` is accepted): the difference never changes an
//!   answer a key design depends on, and it keeps the automaton tiny.
//! - `datetime` is the form `toISOString`-style formatters print in UTC; the fraction is bounded
//!   (nanoseconds) so the length is bounded. Seconds stop at `59` (no leap second).
//! - `uuid` is lowercase only, as common generators print it; an uppercase UUID is not produced.
//!
//! # Cost
//!
//! Template automata are chains plus a few states per hole; products visit only reachable
//! state tuples. For hot paths, [`Template::compile`] once and call [`intersect`] with the
//! condition automata ([`Automaton::exactly`], [`Automaton::prefix`], [`Automaton::range`]).

mod automaton;
mod condition;
mod pinning;
mod product;
mod shape;
mod tagged;

#[cfg(test)]
mod pinning_tests;
#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;

use smol_str::SmolStr;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

pub use automaton::Automaton;
pub use pinning::{Binding, Role, Unpinned, can_match, unpinned};
pub use product::{MAX_AUTOMATA, intersect};
pub use shape::Shape;
pub use tagged::{ByteSet, Tagged};

/// One piece of a template.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Part {
    /// Text written as is.
    Literal(SmolStr),
    /// A typed attribute value.
    Hole(Shape),
}

/// A key template: the concatenation of its parts.
///
/// The automaton is compiled on the first question and kept: the checker asks
/// many questions of each template of the schema. `parts` must therefore not
/// be changed after a question was asked (build a new template instead).
/// Both compiled forms are boxed: most templates of a large schema are
/// never asked, and their empty slots would be 248 bytes of every key.
#[derive(Clone, Default)]
pub struct Template {
    pub parts: Vec<Part>,
    compiled: OnceLock<Box<Automaton>>,
    /// [`tagged`](Self::tagged), compiled on first use.
    tagged: OnceLock<Box<Tagged>>,
}

impl PartialEq for Template {
    fn eq(&self, other: &Self) -> bool {
        self.parts == other.parts
    }
}

impl Eq for Template {}

impl Hash for Template {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.parts.hash(state);
    }
}

impl fmt::Debug for Template {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Template").field("parts", &self.parts).finish()
    }
}

/// One side of a byte-order range (`key > a`, `key between a and b`, …).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    Unbounded,
    Included(String),
    Excluded(String),
}

impl Template {
    pub fn new(parts: Vec<Part>) -> Self {
        Template {
            parts,
            compiled: OnceLock::new(),
            tagged: OnceLock::new(),
        }
    }

    /// The automaton of every string this template can produce, compiled
    /// once per template.
    pub fn automaton(&self) -> &Automaton {
        self.compiled.get_or_init(|| Box::new(self.compile()))
    }

    /// The automaton of every string this template can produce, freshly
    /// built (see [`automaton`](Self::automaton) for the cached one).
    pub fn compile(&self) -> Automaton {
        let mut b = automaton::Builder::new();
        let mut frontier = vec![b.start];
        for part in &self.parts {
            frontier = match part {
                Part::Literal(text) => b.literal(&frontier, text.as_bytes()),
                Part::Hole(shape) => shape.build(&mut b, &frontier),
            };
        }
        b.finish(&frontier)
    }

    /// A shortest string both templates can produce (two items that would share this key), or
    /// `None` when no such string exists.
    pub fn overlap(&self, other: &Template) -> Option<String> {
        witness(&[self.automaton(), other.automaton()])
    }

    /// Whether the two templates can produce a common string: [`overlap`](Self::overlap) without
    /// the witness. Two templates with the same parts overlap unless they produce nothing.
    pub fn overlaps(&self, other: &Template) -> bool {
        if self.parts == other.parts {
            return !self.is_empty();
        }
        // Every value begins with the first part and ends with the last one when they are
        // literal: two templates whose literals disagree there share nothing.
        let (a, b) = (self.leading_literal().as_bytes(), other.leading_literal().as_bytes());
        let n = a.len().min(b.len());
        let (x, y) = (self.trailing_literal(), other.trailing_literal());
        if a[..n] != b[..n] || !(x.ends_with(y) || y.ends_with(x)) {
            return false;
        }
        intersect(&[self.automaton(), other.automaton()]).is_some()
    }

    /// Whether the template produces no string at all (a hole of an empty `enum()`), read off
    /// the parts: a concatenation is empty exactly when one of its parts is.
    pub fn is_empty(&self) -> bool {
        self.parts.iter().any(|p| match p {
            Part::Literal(_) => false,
            Part::Hole(shape) => shape.is_empty(),
        })
    }

    /// The text of the first part when it is literal: every value begins with it.
    fn leading_literal(&self) -> &str {
        match self.parts.first() {
            Some(Part::Literal(text)) => text,
            _ => "",
        }
    }

    /// The text of the last part when it is literal: every value ends with it.
    fn trailing_literal(&self) -> &str {
        match self.parts.last() {
            Some(Part::Literal(text)) => text,
            _ => "",
        }
    }

    /// Whether the template can produce a string `condition` accepts (a condition automaton
    /// built once and asked of many templates).
    pub fn meets(&self, condition: &Automaton) -> bool {
        intersect(&[self.automaton(), condition]).is_some()
    }

    /// Whether the template can produce a string beginning with `prefix`:
    /// [`can_begin_with`](Self::can_begin_with) without the witness.
    pub fn may_begin_with(&self, prefix: &str) -> bool {
        let (lead, prefix) = (self.leading_literal().as_bytes(), prefix.as_bytes());
        let n = lead.len().min(prefix.len());
        if lead[..n] != prefix[..n] {
            return false;
        }
        if lead.len() >= prefix.len() {
            return !self.is_empty();
        }
        self.automaton().accepts_prefix(prefix)
    }

    /// Whether the template can produce exactly `value` (`key = value`).
    pub fn can_equal(&self, value: &str) -> bool {
        value.starts_with(self.leading_literal())
            && value.ends_with(self.trailing_literal())
            && self.automaton().accepts(value.as_bytes())
    }

    /// A shortest produced string beginning with `prefix` (`begins_with(key, prefix)`).
    pub fn can_begin_with(&self, prefix: &str) -> Option<String> {
        witness(&[self.automaton(), &Automaton::prefix(prefix.as_bytes())])
    }

    /// A shortest produced string within the bounds, in byte order (`<`, `<=`, `>`, `>=`,
    /// `between`).
    pub fn can_be_in_range(&self, lower: &Bound, upper: &Bound) -> Option<String> {
        witness(&[self.automaton(), &Automaton::range(lower, upper)])
    }

    /// The leading literal text, up to the first hole: the part of the key a `begins_with`
    /// can pin without knowing any value.
    pub fn literal_prefix(&self) -> String {
        self.parts
            .iter()
            .map_while(|p| match p {
                Part::Literal(text) => Some(text.as_str()),
                Part::Hole(_) => None,
            })
            .collect()
    }

    /// Shortest value in bytes (0 if the template produces nothing, e.g. `enum()`).
    pub fn min_len(&self) -> usize {
        self.automaton().min_len().unwrap_or(0)
    }

    /// Longest value in bytes, `None` when unbounded: DynamoDB limits key values (2048 bytes
    /// partition, 1024 bytes sort), which can only be proven exceeded when this is bounded.
    pub fn max_len(&self) -> Option<usize> {
        let a = self.automaton();
        if a.is_empty() { Some(0) } else { a.max_len() }
    }

    /// Whether every value has the same length (all holes fixed-length).
    pub fn is_fixed_length(&self) -> bool {
        self.max_len() == Some(self.min_len())
    }
}

fn witness(automata: &[&Automaton]) -> Option<String> {
    // A template automaton is in every product and only spells valid UTF-8.
    intersect(automata).map(|bytes| String::from_utf8(bytes).expect("template languages are UTF-8"))
}

/// The smallest string greater than every string that begins with `prefix`, so that
/// `between prefix and upper` (upper excluded) selects exactly the strings with that prefix;
/// `None` when no such string exists (`prefix` empty or all `U+10FFFF`).
///
/// Why increment the last character rather than the last byte: the result must stay valid
/// UTF-8, and since UTF-8 preserves code point order in byte order, `c + 1` is the next string
/// after every continuation of `c` exactly as a byte increment would be.
pub fn prefix_upper_bound(prefix: &str) -> Option<String> {
    let mut chars: Vec<char> = prefix.chars().collect();
    while let Some(last) = chars.pop() {
        let next = match last as u32 {
            0xD7FF => Some('\u{E000}'),
            c => char::from_u32(c + 1),
        };
        if let Some(next) = next {
            chars.push(next);
            return Some(chars.into_iter().collect());
        }
    }
    None
}
