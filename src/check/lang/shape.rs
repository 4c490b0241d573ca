//! The exact shape of each hole type, as a small automaton fragment.
//!
//! Every shape is a language of valid UTF-8 strings (DynamoDB `S` values must be UTF-8), so any
//! witness produced by a template decodes as a `String`.

use super::automaton::Builder;
use super::{Part, Template};

/// The set of strings a typed hole can render to. See the table in the module docs of
/// [`lang`](super) for the exact definitions and why they were chosen.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// Non-empty UTF-8 text containing no byte of `delimiter` (every byte is forbidden, so a
    /// multi-byte delimiter also forbids the characters sharing those bytes).
    Id { delimiter: String },
    /// `pad: Some(n)`: exactly `n` ASCII digits (leading zeros included). `pad: None`: a
    /// canonical non-negative integer, `0|[1-9][0-9]*`.
    Int { pad: Option<u32> },
    /// A canonical non-negative integer with an optional fraction: `(0|[1-9][0-9]*)(\.[0-9]+)?`.
    Decimal,
    /// `YYYY-MM-DD`: any four-digit year, month `01`–`12`, day `01`–`31` (not checked per month).
    Date,
    /// `YYYY-MM-DDTHH:MM:SS[.f]Z` (UTC): date as [`Shape::Date`], hour `00`–`23`, minute and
    /// second `00`–`59`, an optional fraction of 1–9 digits, then a literal `Z`.
    DateTime,
    /// [`Shape::DateTime`] without the `Z`: a local time, zone unsaid.
    LocalDateTime,
    /// [`Shape::DateTime`] ending in `Z` or an offset `+HH:MM` / `-HH:MM` (hour `00`–`23`).
    OffsetDateTime,
    /// `8-4-4-4-12` lowercase hex digits, any version.
    Uuid,
    /// 26 Crockford base32 characters, uppercase: `[0-7][0-9A-HJKMNP-TV-Z]{25}`.
    Ulid,
    /// Exactly one of the listed words.
    Enum(Vec<String>),
    /// `true` or `false`.
    Bool,
    /// Any non-empty UTF-8 text.
    String,
}

impl Shape {
    /// Shortest and longest rendering in bytes (`None` = unbounded).
    ///
    /// Read off the definitions for every shape whose language is fixed (it is
    /// asked per hole on hot paths); the automaton decides the rest. The
    /// tests check both ways agree.
    pub fn len_bounds(&self) -> (usize, Option<usize>) {
        match self {
            Shape::Int { pad: Some(n) } => (*n as usize, Some(*n as usize)),
            Shape::Int { pad: None } | Shape::Decimal | Shape::String => (1, None),
            Shape::Date => (10, Some(10)),
            // Date, `T`, `HH:MM:SS`, an optional `.` and 1 to 9 digits, `Z`.
            Shape::DateTime => (20, Some(30)),
            Shape::LocalDateTime => (19, Some(29)),
            Shape::OffsetDateTime => (20, Some(35)),
            Shape::Uuid => (36, Some(36)),
            Shape::Ulid => (26, Some(26)),
            Shape::Bool => (4, Some(5)),
            Shape::Enum(words) => match (words.iter().map(String::len).min(), words.iter().map(String::len).max()) {
                (Some(min), Some(max)) => (min, Some(max)),
                _ => (0, Some(0)),
            },
            // Any ASCII character the delimiter leaves is a one-byte value,
            // and repeating it gives values of every length.
            Shape::Id { delimiter } if (0..0x80u8).any(|b| !delimiter.as_bytes().contains(&b)) => (1, None),
            Shape::Id { .. } => self.compiled_len_bounds(),
        }
    }

    /// Whether no value has this shape: an `enum` of no words, or an `id` whose delimiter
    /// forbids every character.
    pub fn is_empty(&self) -> bool {
        match self {
            Shape::Enum(words) => words.is_empty(),
            Shape::Id { delimiter } if (0..0x80u8).all(|b| delimiter.as_bytes().contains(&b)) => {
                Template::new(vec![Part::Hole(self.clone())]).compile().is_empty()
            }
            _ => false,
        }
    }

    /// [`len_bounds`](Self::len_bounds) from the automaton.
    pub(super) fn compiled_len_bounds(&self) -> (usize, Option<usize>) {
        let a = Template::new(vec![Part::Hole(self.clone())]).compile();
        (
            a.min_len().unwrap_or(0),
            if a.is_empty() { Some(0) } else { a.max_len() },
        )
    }

    /// `Some(n)` when every rendering is exactly `n` bytes: a `begins_with` prefix that ends
    /// right after such a hole cannot also match longer values.
    pub fn fixed_len(&self) -> Option<usize> {
        match self.len_bounds() {
            (min, Some(max)) if min == max => Some(min),
            _ => None,
        }
    }

    /// Add this shape's fragment after `from`; returns the new accepting frontier.
    pub(super) fn build(&self, b: &mut Builder, from: &[u32]) -> Vec<u32> {
        match self {
            Shape::Id { delimiter } => utf8_plus(b, from, delimiter.as_bytes()),
            Shape::String => utf8_plus(b, from, &[]),
            Shape::Int { pad: Some(n) } => {
                let classes = vec![DIGIT; *n as usize];
                b.classes(from, &classes)
            }
            Shape::Int { pad: None } => canonical_int(b, from),
            Shape::Decimal => {
                let int = canonical_int(b, from);
                let frac = b.literal(&int, b".");
                let digits = b.classes(&frac, &[DIGIT]);
                b.edge(digits[0], b'0', b'9', digits[0]);
                [int, digits].concat()
            }
            Shape::Date => date(b, from),
            Shape::DateTime => {
                let local = local_datetime(b, from);
                b.literal(&local, b"Z")
            }
            Shape::LocalDateTime => local_datetime(b, from),
            Shape::OffsetDateTime => {
                let local = local_datetime(b, from);
                let utc = b.literal(&local, b"Z");
                let sign = choice(b, &local, &[&[&[(b'+', b'+')]], &[&[(b'-', b'-')]]]);
                let h = hour(b, &sign);
                let h = b.literal(&h, b":");
                let m = b.classes(&h, &[&[(b'0', b'5')], DIGIT]);
                [utc, m].concat()
            }
            Shape::Uuid => {
                let mut f = from.to_vec();
                for (i, n) in [8, 4, 4, 4, 12].into_iter().enumerate() {
                    if i > 0 {
                        f = b.literal(&f, b"-");
                    }
                    f = b.classes(&f, &vec![HEX_LOWER; n]);
                }
                f
            }
            Shape::Ulid => {
                let mut classes: Vec<&[(u8, u8)]> = vec![&[(b'0', b'7')]];
                classes.extend(std::iter::repeat_n(CROCKFORD, 25));
                b.classes(from, &classes)
            }
            Shape::Enum(words) => one_of(b, from, words.iter().map(|w| w.as_bytes())),
            Shape::Bool => one_of(b, from, [&b"true"[..], b"false"].into_iter()),
        }
    }
}

/// `YYYY-MM-DDTHH:MM:SS[.f]`: a date and time with no zone.
fn local_datetime(b: &mut Builder, from: &[u32]) -> Vec<u32> {
    let d = date(b, from);
    let t = b.literal(&d, b"T");
    let h = hour(b, &t);
    let h = b.literal(&h, b":");
    let m = b.classes(&h, &[&[(b'0', b'5')], DIGIT]);
    let m = b.literal(&m, b":");
    let s = b.classes(&m, &[&[(b'0', b'5')], DIGIT]);
    let mut end = s.clone();
    let mut f = b.literal(&s, b".");
    for _ in 0..9 {
        f = b.classes(&f, &[DIGIT]);
        end.extend_from_slice(&f);
    }
    end
}

/// `00` to `23`.
fn hour(b: &mut Builder, from: &[u32]) -> Vec<u32> {
    choice(
        b,
        from,
        &[&[&[(b'0', b'1')], DIGIT], &[&[(b'2', b'2')], &[(b'0', b'3')]]],
    )
}

const DIGIT: &[(u8, u8)] = &[(b'0', b'9')];
const HEX_LOWER: &[(u8, u8)] = &[(b'0', b'9'), (b'a', b'f')];
const CROCKFORD: &[(u8, u8)] = &[
    (b'0', b'9'),
    (b'A', b'H'),
    (b'J', b'K'),
    (b'M', b'N'),
    (b'P', b'T'),
    (b'V', b'Z'),
];

/// `0|[1-9][0-9]*`: what integer formatting produces for a non-negative number.
fn canonical_int(b: &mut Builder, from: &[u32]) -> Vec<u32> {
    let zero = b.literal(from, b"0");
    let many = b.classes(from, &[&[(b'1', b'9')]]);
    b.edge(many[0], b'0', b'9', many[0]);
    [zero, many].concat()
}

fn date(b: &mut Builder, from: &[u32]) -> Vec<u32> {
    let y = b.classes(from, &[DIGIT, DIGIT, DIGIT, DIGIT]);
    let y = b.literal(&y, b"-");
    let m = choice(
        b,
        &y,
        &[&[&[(b'0', b'0')], &[(b'1', b'9')]], &[&[(b'1', b'1')], &[(b'0', b'2')]]],
    );
    let m = b.literal(&m, b"-");
    choice(
        b,
        &m,
        &[
            &[&[(b'0', b'0')], &[(b'1', b'9')]],
            &[&[(b'1', b'2')], DIGIT],
            &[&[(b'3', b'3')], &[(b'0', b'1')]],
        ],
    )
}

/// Alternatives, each a chain of byte classes, all ending in one shared state.
fn choice(b: &mut Builder, from: &[u32], alternatives: &[&[&[(u8, u8)]]]) -> Vec<u32> {
    let end = b.state();
    for alt in alternatives {
        let (last, init) = alt.split_last().expect("non-empty alternative");
        let f = b.classes(from, init);
        for &(lo, hi) in *last {
            b.edges_from(&f, lo, hi, end);
        }
    }
    vec![end]
}

/// A trie of the words hung off `from`, so shared prefixes share states.
fn one_of<'a>(b: &mut Builder, from: &[u32], words: impl Iterator<Item = &'a [u8]>) -> Vec<u32> {
    const ROOT: u32 = u32::MAX;
    let mut children: Vec<(u32, u8, u32)> = Vec::new();
    let mut ends = Vec::new();
    for word in words {
        let mut node = ROOT;
        for &c in word {
            node = match children.iter().find(|&&(p, x, _)| p == node && x == c) {
                Some(&(_, _, child)) => child,
                None => {
                    let child = b.state();
                    if node == ROOT {
                        b.edges_from(from, c, c, child);
                    } else {
                        b.edge(node, c, c, child);
                    }
                    children.push((node, c, child));
                    child
                }
            };
        }
        if node == ROOT {
            ends.extend_from_slice(from);
        } else {
            ends.push(node);
        }
    }
    ends.sort_unstable();
    ends.dedup();
    ends
}

/// One or more UTF-8 encoded scalar values, with every byte in `forbidden` removed.
///
/// Exact UTF-8 (no overlongs, no surrogates, nothing above U+10FFFF) so that witnesses decode
/// and byte-order questions near the top of the range are not answered for impossible strings.
fn utf8_plus(b: &mut Builder, from: &[u32], forbidden: &[u8]) -> Vec<u32> {
    let mut banned: Vec<u8> = forbidden.to_vec();
    banned.sort_unstable();
    banned.dedup();
    let [acc, c1, c2, c3, e0, ed, f0, f4] = std::array::from_fn(|_| b.state());
    let leads = [
        (0x00, 0x7F, acc),
        (0xC2, 0xDF, c1),
        (0xE0, 0xE0, e0),
        (0xE1, 0xEC, c2),
        (0xED, 0xED, ed),
        (0xEE, 0xEF, c2),
        (0xF0, 0xF0, f0),
        (0xF1, 0xF3, c3),
        (0xF4, 0xF4, f4),
    ];
    let continuations = [
        (c1, 0x80, 0xBF, acc),
        (c2, 0x80, 0xBF, c1),
        (c3, 0x80, 0xBF, c2),
        (e0, 0xA0, 0xBF, c1),
        (ed, 0x80, 0x9F, c1),
    ];
    let continuations = continuations
        .into_iter()
        .chain([(f0, 0x90, 0xBF, c2), (f4, 0x80, 0x8F, c2)]);
    let add = |b: &mut Builder, s: u32, lo: u8, hi: u8, to: u32| {
        // Split lo..=hi around banned bytes (sorted, distinct).
        let mut start = u16::from(lo);
        for &x in banned.iter().filter(|&&x| lo <= x && x <= hi) {
            if u16::from(x) > start {
                b.edge(s, start as u8, x - 1, to);
            }
            start = u16::from(x) + 1;
        }
        if start <= u16::from(hi) {
            b.edge(s, start as u8, hi, to);
        }
    };
    for &s in from.iter().chain([&acc]) {
        for (lo, hi, to) in leads {
            add(b, s, lo, hi, to);
        }
    }
    for (s, lo, hi, to) in continuations {
        add(b, s, lo, hi, to);
    }
    vec![acc]
}
