//! The key-template regular expressions generated code tells entities by
//! (`dyno::generate::matcher`) accept exactly the strings the checker's
//! template languages accept: property-tested on strings built from each
//! example template's own literals and the characters its holes take.

use dyno::check::lang::{Part, Shape, Template};
use dyno::generate::matcher;
use proptest::prelude::*;

fn shapes() -> Vec<Shape> {
    vec![
        Shape::Id { delimiter: "#".into() },
        Shape::String,
        Shape::Int { pad: Some(3) },
        Shape::Int { pad: None },
        Shape::Decimal,
        Shape::Date,
        Shape::DateTime,
        Shape::LocalDateTime,
        Shape::OffsetDateTime,
        Shape::Uuid,
        Shape::Ulid,
        Shape::Bool,
        Shape::Enum(vec!["open".into(), "in-use".into(), "a.b".into()]),
    ]
}

/// Characters that make and break every shape's values.
const ALPHABET: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "9",
    "-",
    ":",
    ".",
    "T",
    "Z",
    "+",
    "#",
    "a",
    "f",
    "g",
    "A",
    "U",
    "I",
    "e",
    "o",
    "n",
    "p",
    "t",
    "r",
    "u",
    "s",
    "in-use",
    "open",
    "true",
    "2026-03-14",
    "T09:26:54",
    "ü",
    "USER#",
    "a/b",
    "(x)",
];

fn template_and_text() -> impl Strategy<Value = (Vec<Part>, String)> {
    let part = prop_oneof![
        prop::sample::select(vec!["USER#", "#", "A.B", "X", "-", "a/b", "(x)"]).prop_map(|l| Part::Literal(l.into())),
        prop::sample::select(shapes()).prop_map(Part::Hole),
    ];
    let parts = prop::collection::vec(part, 1..4);
    let text = prop::collection::vec(prop::sample::select(ALPHABET), 0..12).prop_map(|p| p.concat());
    (parts, text)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]
    #[test]
    fn regex_accepts_what_the_template_language_accepts((parts, text) in template_and_text()) {
        let regex = regex::Regex::new(&matcher::whole(&parts)).unwrap();
        let template = Template::new(parts);
        prop_assert_eq!(regex.is_match(&text), template.can_equal(&text), "{}", text);
    }
}

#[test]
fn sample_values_match_their_shapes() {
    let cases: [(Shape, &str, bool); 8] = [
        (Shape::Id { delimiter: "#".into() }, "u_3001", true),
        (Shape::Id { delimiter: "#".into() }, "u#3001", false),
        (Shape::Int { pad: Some(6) }, "000042", true),
        (Shape::Int { pad: None }, "042", false),
        (Shape::DateTime, "2026-03-14T09:26:54.123Z", true),
        (Shape::OffsetDateTime, "2026-03-14T14:30:00+05:30", true),
        (Shape::Ulid, "01ARZ3NDEKTSV4RRFFQ69G5FAV", true),
        (Shape::Uuid, "123e4567-e89b-12d3-a456-426614174000", true),
    ];
    for (shape, text, expected) in cases {
        let parts = vec![Part::Hole(shape)];
        let regex = regex::Regex::new(&matcher::whole(&parts)).unwrap();
        assert_eq!(regex.is_match(text), expected, "{text}");
        assert_eq!(Template::new(parts).can_equal(text), expected, "{text}");
    }
}
