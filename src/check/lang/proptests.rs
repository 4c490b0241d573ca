//! Property tests against an independent oracle: a backtracking matcher over the template parts
//! with a plain predicate per shape, and brute-force enumeration of every string over a tiny
//! alphabet up to a small length. The automata answers must agree exactly, and every witness
//! must really satisfy both sides.

use std::sync::OnceLock;

use proptest::prelude::*;

use super::*;

const SIGMA: &[u8] = b"ab#01.";
const MAX_LEN: usize = 5;

/// Every string over [`SIGMA`] of at most [`MAX_LEN`] bytes, shortest first.
fn universe() -> &'static [Vec<u8>] {
    static U: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    U.get_or_init(|| {
        let mut all = vec![Vec::new()];
        let mut layer = vec![Vec::new()];
        for _ in 0..MAX_LEN {
            layer = layer
                .iter()
                .flat_map(|s: &Vec<u8>| SIGMA.iter().map(move |&c| [&s[..], &[c]].concat()))
                .collect();
            all.extend(layer.iter().cloned());
        }
        all
    })
}

fn digits(s: &[u8]) -> bool {
    s.iter().all(u8::is_ascii_digit)
}

fn canonical_int(s: &[u8]) -> bool {
    s == b"0" || (!s.is_empty() && s[0] != b'0' && digits(s))
}

/// Two digits forming a number in `lo..=hi`.
fn two_digit(s: &[u8], lo: u8, hi: u8) -> bool {
    s.len() == 2 && digits(s) && (lo..=hi).contains(&((s[0] - b'0') * 10 + s[1] - b'0'))
}

fn is_date(s: &[u8]) -> bool {
    s.len() == 10
        && digits(&s[..4])
        && s[4] == b'-'
        && two_digit(&s[5..7], 1, 12)
        && s[7] == b'-'
        && two_digit(&s[8..10], 1, 31)
}

fn is_datetime(s: &[u8]) -> bool {
    let Some((&b'Z', s)) = s.split_last() else { return false };
    is_local_datetime(s)
}

/// A local datetime, then `Z` or `+HH:MM` / `-HH:MM` with an hour `00`–`23`.
fn is_offset_datetime(s: &[u8]) -> bool {
    if is_datetime(s) {
        return true;
    }
    let Some(split) = s.len().checked_sub(6) else {
        return false;
    };
    let (local, offset) = s.split_at(split);
    matches!(offset[0], b'+' | b'-')
        && two_digit(&offset[1..3], 0, 23)
        && offset[3] == b':'
        && two_digit(&offset[4..6], 0, 59)
        && is_local_datetime(local)
}

fn is_local_datetime(s: &[u8]) -> bool {
    let (main, frac) = match s.iter().position(|&c| c == b'.') {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    main.len() == 19
        && is_date(&main[..10])
        && main[10] == b'T'
        && two_digit(&main[11..13], 0, 23)
        && main[13] == b':'
        && two_digit(&main[14..16], 0, 59)
        && main[16] == b':'
        && two_digit(&main[17..19], 0, 59)
        && frac.is_none_or(|f| (1..=9).contains(&f.len()) && digits(f))
}

/// The oracle for one shape: written from the documented definitions, not from the automata.
fn shape_matches(shape: &Shape, s: &[u8]) -> bool {
    let utf8 = std::str::from_utf8(s).is_ok();
    match shape {
        Shape::Id { delimiter } => utf8 && !s.is_empty() && !s.iter().any(|c| delimiter.as_bytes().contains(c)),
        Shape::String => utf8 && !s.is_empty(),
        Shape::Int { pad: Some(n) } => s.len() == *n as usize && digits(s),
        Shape::Int { pad: None } => canonical_int(s),
        Shape::Decimal => match s.iter().position(|&c| c == b'.') {
            Some(i) => canonical_int(&s[..i]) && i + 1 < s.len() && digits(&s[i + 1..]),
            None => canonical_int(s),
        },
        Shape::Date => is_date(s),
        Shape::DateTime => is_datetime(s),
        Shape::LocalDateTime => is_local_datetime(s),
        Shape::OffsetDateTime => is_offset_datetime(s),
        Shape::Uuid => {
            s.len() == 36
                && s.iter().enumerate().all(|(i, &c)| match i {
                    8 | 13 | 18 | 23 => c == b'-',
                    _ => c.is_ascii_digit() || (b'a'..=b'f').contains(&c),
                })
        }
        Shape::Ulid => {
            s.len() == 26
                && (b'0'..=b'7').contains(&s[0])
                && s.iter()
                    .all(|&c| c.is_ascii_digit() || (c.is_ascii_uppercase() && !b"ILOU".contains(&c)))
        }
        Shape::Enum(words) => words.iter().any(|w| w.as_bytes() == s),
        Shape::Bool => s == b"true" || s == b"false",
    }
}

/// Backtracking match of a whole template against `s`.
fn naive(parts: &[Part], s: &[u8]) -> bool {
    let Some((first, rest)) = parts.split_first() else {
        return s.is_empty();
    };
    match first {
        Part::Literal(text) => s.starts_with(text.as_bytes()) && naive(rest, &s[text.len()..]),
        Part::Hole(shape) => (0..=s.len()).any(|i| shape_matches(shape, &s[..i]) && naive(rest, &s[i..])),
    }
}

fn in_bound(s: &[u8], lower: &Bound, upper: &Bound) -> bool {
    let lo = match lower {
        Bound::Unbounded => true,
        Bound::Included(b) => s >= b.as_bytes(),
        Bound::Excluded(b) => s > b.as_bytes(),
    };
    let hi = match upper {
        Bound::Unbounded => true,
        Bound::Included(b) => s <= b.as_bytes(),
        Bound::Excluded(b) => s < b.as_bytes(),
    };
    lo && hi
}

fn small_shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        Just(Shape::Id { delimiter: "#".into() }),
        (0u32..=2).prop_map(|n| Shape::Int { pad: Some(n) }),
        Just(Shape::Int { pad: None }),
        Just(Shape::Decimal),
        Just(Shape::String),
        prop::collection::vec("[ab#0]{0,2}", 0..4).prop_map(Shape::Enum),
    ]
}

fn small_template() -> impl Strategy<Value = Template> {
    let part = prop_oneof![
        2 => "[ab#01.]{0,2}".prop_map(|t| Part::Literal(t.into())),
        3 => small_shape().prop_map(Part::Hole),
    ];
    prop::collection::vec(part, 0..4).prop_map(Template::new)
}

fn bound() -> impl Strategy<Value = Bound> {
    prop_oneof![
        1 => Just(Bound::Unbounded),
        2 => "[ab#01.]{0,3}".prop_map(Bound::Included),
        2 => "[ab#01.]{0,3}".prop_map(Bound::Excluded),
    ]
}

/// Compare one question answered three ways: the oracle over the finite universe, the automata
/// restricted to that universe (must agree exactly, with a shortest witness), and unrestricted
/// (a witness must exist when the oracle finds one, and must satisfy the oracle).
fn check(name: &str, auts: &[&Automaton], holds: impl Fn(&[u8]) -> bool) -> Result<(), TestCaseError> {
    let expected = universe().iter().find(|s| holds(s));
    let sigma = Automaton::strings_over(SIGMA, MAX_LEN);
    let bounded = intersect(&[auts, &[&sigma][..]].concat());
    prop_assert_eq!(
        bounded.is_some(),
        expected.is_some(),
        "{}: bounded answer {:?}, oracle {:?}",
        name,
        bounded,
        expected
    );
    if let (Some(w), Some(e)) = (&bounded, expected) {
        prop_assert!(holds(w), "{}: bounded witness {:?} fails the oracle", name, w);
        prop_assert_eq!(w.len(), e.len(), "{}: witness {:?} is not shortest ({:?})", name, w, e);
    }
    let free = intersect(auts);
    if let Some(w) = &free {
        prop_assert!(holds(w), "{}: witness {:?} fails the oracle", name, w);
        prop_assert!(
            expected.is_none_or(|e| w.len() <= e.len()),
            "{}: witness {:?} not shortest",
            name,
            w
        );
    } else {
        prop_assert!(expected.is_none(), "{}: missed {:?}", name, expected);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn template_questions_match_brute_force(
        a in small_template(),
        b in small_template(),
        prefix in "[ab#01.]{0,3}",
        lower in bound(),
        upper in bound(),
    ) {
        let (ca, cb) = (a.compile(), b.compile());
        for s in universe() {
            prop_assert_eq!(ca.accepts(s), naive(&a.parts, s), "accepts {:?} on {:?}", s, a);
        }
        check("overlap", &[&ca, &cb], |s| naive(&a.parts, s) && naive(&b.parts, s))?;
        let p = Automaton::prefix(prefix.as_bytes());
        check("begins_with", &[&ca, &p], |s| naive(&a.parts, s) && s.starts_with(prefix.as_bytes()))?;
        let r = Automaton::range(&lower, &upper);
        check("range", &[&ca, &r], |s| naive(&a.parts, s) && in_bound(s, &lower, &upper))?;

        // The Template conveniences are the same questions.
        prop_assert_eq!(a.overlap(&b).map(String::into_bytes), intersect(&[&ca, &cb]));
        prop_assert_eq!(a.can_begin_with(&prefix).map(String::into_bytes), intersect(&[&ca, &p]));
        prop_assert_eq!(a.can_be_in_range(&lower, &upper).map(String::into_bytes), intersect(&[&ca, &r]));
        prop_assert_eq!(a.can_equal(&prefix), naive(&a.parts, prefix.as_bytes()));
        // The witness-free questions agree with the searches.
        prop_assert_eq!(a.may_begin_with(&prefix), intersect(&[&ca, &p]).is_some());
        prop_assert_eq!(a.overlaps(&b), intersect(&[&ca, &cb]).is_some());
        prop_assert_eq!(a.overlaps(&a), intersect(&[&ca]).is_some());
        prop_assert_eq!(a.is_empty(), ca.is_empty());
        prop_assert_eq!(a.meets(&r), intersect(&[&ca, &r]).is_some());

        // Lengths: the oracle's shortest and longest strings, when they fit in the universe.
        let lengths: Vec<usize> = universe().iter().filter(|s| naive(&a.parts, s)).map(Vec::len).collect();
        match lengths.first() {
            Some(&shortest) => prop_assert_eq!(a.min_len(), shortest),
            None => prop_assert!(a.min_len() > MAX_LEN || ca.is_empty()),
        }
        if let Some(max) = a.max_len().filter(|&m| m <= MAX_LEN && !ca.is_empty()) {
            prop_assert_eq!(lengths.last().copied(), Some(max));
        }
        if a.max_len().is_none() && !lengths.is_empty() {
            prop_assert_eq!(lengths.last().copied(), Some(MAX_LEN));
        }
    }

    #[test]
    fn condition_automata_match_byte_order(lower in bound(), upper in bound(), prefix in "[ab#01.]{0,3}") {
        let r = Automaton::range(&lower, &upper);
        let p = Automaton::prefix(prefix.as_bytes());
        let e = Automaton::exactly(prefix.as_bytes());
        for s in universe() {
            prop_assert_eq!(r.accepts(s), in_bound(s, &lower, &upper), "{:?} in {:?}..{:?}", s, lower, upper);
            prop_assert_eq!(p.accepts(s), s.starts_with(prefix.as_bytes()));
            prop_assert_eq!(e.accepts(s), s == prefix.as_bytes());
        }
        if let Some(upper) = prefix_upper_bound(&prefix) {
            let between = Automaton::range(&Bound::Included(prefix.clone()), &Bound::Excluded(upper));
            for s in universe() {
                prop_assert_eq!(between.accepts(s), s.starts_with(prefix.as_bytes()));
            }
        }
    }

    #[test]
    fn big_shapes_match_their_definitions(
        date in "[0-9]{4}-[0-3][0-9]-[0-3][0-9]",
        time in "[0-2][0-9]:[0-6][0-9]:[0-6][0-9](\\.[0-9]{0,10})?(Z|[+-][0-2][0-9]:[0-6][0-9])?",
        uuid in "[0-9a-fA]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-g]{12}",
        ulid in "[0-8][0-9A-Z]{24,26}",
    ) {
        let datetime = format!("{date}T{time}");
        for (shape, s) in [
            (Shape::Date, &date),
            (Shape::DateTime, &datetime),
            (Shape::LocalDateTime, &datetime),
            (Shape::OffsetDateTime, &datetime),
            (Shape::Uuid, &uuid),
            (Shape::Ulid, &ulid),
        ] {
            let compiled = Template::new(vec![Part::Hole(shape.clone())]).compile();
            prop_assert_eq!(compiled.accepts(s.as_bytes()), shape_matches(&shape, s.as_bytes()), "{:?} {:?}", shape, s);
        }
    }
}
