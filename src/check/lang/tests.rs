//! Hand-written cases: each shape, each question, the hazards from the product brief.

use super::*;

/// `"USER#{id}"` with holes named by shape: `id` (delimiter `#`), `int`, `int6`, `dec`, `str`,
/// `date`, `datetime`, `uuid`, `ulid`, `bool`, `status` (`enum(open, paid, void)`).
fn t(text: &str) -> Template {
    let mut parts = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let close = rest.find('}').expect("closing brace");
        if open > 0 {
            parts.push(Part::Literal(rest[..open].into()));
        }
        parts.push(Part::Hole(shape(&rest[open + 1..close])));
        rest = &rest[close + 1..];
    }
    if !rest.is_empty() {
        parts.push(Part::Literal(rest.into()));
    }
    Template::new(parts)
}

fn shape(name: &str) -> Shape {
    match name {
        "id" => Shape::Id { delimiter: "#".into() },
        "int" => Shape::Int { pad: None },
        "int6" => Shape::Int { pad: Some(6) },
        "dec" => Shape::Decimal,
        "str" => Shape::String,
        "date" => Shape::Date,
        "datetime" => Shape::DateTime,
        "local" => Shape::LocalDateTime,
        "offset" => Shape::OffsetDateTime,
        "uuid" => Shape::Uuid,
        "ulid" => Shape::Ulid,
        "bool" => Shape::Bool,
        "status" => Shape::Enum(vec!["open".into(), "paid".into(), "void".into()]),
        other => panic!("unknown test shape {other}"),
    }
}

fn accepts(name: &str, yes: &[&str], no: &[&str]) {
    let a = t(&format!("{{{name}}}")).compile();
    for s in yes {
        assert!(a.accepts(s.as_bytes()), "{name} should accept {s:?}");
    }
    for s in no {
        assert!(!a.accepts(s.as_bytes()), "{name} should reject {s:?}");
    }
}

#[test]
fn shape_id() {
    accepts(
        "id",
        &["a", "acme corp", "é", "u_3001", "\u{10FFFF}"],
        &["", "a#b", "#"],
    );
    let colon = Template::new(vec![Part::Hole(Shape::Id { delimiter: "::".into() })]);
    assert!(colon.can_equal("a#b"));
    assert!(!colon.can_equal("a:b"));
}

#[test]
fn shape_string_is_exact_utf8() {
    accepts(
        "str",
        &["a", "#", "a#b", "\u{0}", "\u{D7FF}", "\u{E000}", "\u{10FFFF}"],
        &[""],
    );
    let a = t("{str}").compile();
    for bad in [
        &[0xC0, 0x80][..],
        &[0xED, 0xA0, 0x80],
        &[0xF4, 0x90, 0x80, 0x80],
        &[0x80],
        &[0xE2, 0x82],
    ] {
        assert!(!a.accepts(bad), "{bad:x?}");
    }
}

#[test]
fn shape_numbers() {
    accepts("int6", &["000042", "999999"], &["42", "0000420", "00004a", ""]);
    accepts(
        "int",
        &["0", "7", "42", "1000000000000"],
        &["", "007", "-1", "1.5", "+1"],
    );
    accepts(
        "dec",
        &["0", "12", "1.5", "10.50", "0.000"],
        &["", "1.", ".5", "01.5", "1.2.3", "-1"],
    );
}

#[test]
fn shape_local_and_offset_datetimes() {
    accepts(
        "local",
        &["2024-01-31T23:59:59", "2024-01-31T00:00:00.5"],
        &[
            "2024-01-31T23:59:59Z",
            "2024-01-31T23:59:59+02:00",
            "2024-01-31T24:00:00",
        ],
    );
    accepts(
        "offset",
        &[
            "2024-01-31T23:59:59Z",
            "2024-01-31T23:59:59+02:00",
            "2024-01-31T23:59:59.125-05:30",
        ],
        &[
            "2024-01-31T23:59:59",
            "2024-01-31T23:59:59+24:00",
            "2024-01-31T23:59:59+2:00",
        ],
    );
}

#[test]
fn shape_dates() {
    accepts(
        "date",
        &["2024-01-31", "0000-12-01", "2024-02-31"],
        &["2024-13-01", "2024-00-10", "2024-01-32", "2024-1-01", "2024-01-00"],
    );
    accepts(
        "datetime",
        &[
            "2024-01-31T23:59:59Z",
            "2024-01-31T00:00:00.5Z",
            "2024-01-31T12:30:45.123456789Z",
        ],
        &[
            "2024-01-31T24:00:00Z",
            "2024-01-31T12:60:00Z",
            "2024-01-31T12:00:60Z",
            "2024-01-31T12:00:00",
            "2024-01-31T12:00:00.Z",
            "2024-01-31T12:00:00.1234567890Z",
            "2024-01-31 12:00:00Z",
        ],
    );
}

#[test]
fn shape_identifiers() {
    accepts(
        "uuid",
        &["123e4567-e89b-12d3-a456-426614174000"],
        &[
            "123E4567-E89B-12D3-A456-426614174000",
            "123e4567e89b12d3a456426614174000",
        ],
    );
    accepts(
        "ulid",
        &["01ARZ3NDEKTSV4RRFFQ69G5FAV", "7ZZZZZZZZZZZZZZZZZZZZZZZZZ"],
        &[
            "81ARZ3NDEKTSV4RRFFQ69G5FAV",
            "01ARZ3NDEKTSV4RRFFQ69G5FAI",
            "01arz3ndektsv4rrffq69g5fav",
            "01ARZ3NDEKTSV4RRFFQ69G5FA",
        ],
    );
}

#[test]
fn shape_words() {
    accepts("status", &["open", "paid", "void"], &["opn", "", "openx", "Open"]);
    accepts("bool", &["true", "false"], &["True", "1", ""]);
    let prefixes = Template::new(vec![Part::Hole(Shape::Enum(vec!["a".into(), "ab".into(), "".into()]))]);
    assert!(prefixes.can_equal("") && prefixes.can_equal("a") && prefixes.can_equal("ab"));
    assert!(!prefixes.can_equal("b"));
    assert!(
        Template::new(vec![Part::Hole(Shape::Enum(vec![]))])
            .compile()
            .is_empty()
    );
}

#[test]
fn shape_lengths() {
    let cases = [
        ("id", (1, None)),
        ("int", (1, None)),
        ("int6", (6, Some(6))),
        ("dec", (1, None)),
        ("date", (10, Some(10))),
        ("datetime", (20, Some(30))),
        ("local", (19, Some(29))),
        ("offset", (20, Some(35))),
        ("uuid", (36, Some(36))),
        ("ulid", (26, Some(26))),
        ("bool", (4, Some(5))),
        ("status", (4, Some(4))),
        ("str", (1, None)),
    ];
    for (name, bounds) in cases {
        assert_eq!(shape(name).len_bounds(), bounds, "{name}");
    }
    assert_eq!(shape("uuid").fixed_len(), Some(36));
    assert_eq!(shape("id").fixed_len(), None);
}

/// The lengths read off the definitions are the automaton's.
#[test]
fn shape_lengths_match_the_automaton() {
    let all_ascii: String = (0u8..0x80).map(char::from).collect();
    let mut shapes: Vec<Shape> = [
        "id", "int", "int6", "dec", "date", "datetime", "local", "offset", "uuid", "ulid", "bool", "status", "str",
    ]
    .into_iter()
    .map(shape)
    .collect();
    shapes.extend([
        Shape::Int { pad: Some(0) },
        Shape::Int { pad: Some(1) },
        Shape::Enum(Vec::new()),
        Shape::Enum(vec!["".into(), "ab".into()]),
        Shape::Enum(vec!["é".into(), "a".into(), "abc".into()]),
        Shape::Id {
            delimiter: String::new(),
        },
        Shape::Id { delimiter: "::".into() },
        Shape::Id { delimiter: "é".into() },
        Shape::Id {
            delimiter: all_ascii.clone(),
        },
        Shape::Id {
            delimiter: format!("{all_ascii}é"),
        },
    ]);
    for shape in shapes {
        assert_eq!(shape.len_bounds(), shape.compiled_len_bounds(), "{shape:?}");
        let compiled = Template::new(vec![Part::Hole(shape.clone())]).compile();
        assert_eq!(shape.is_empty(), compiled.is_empty(), "{shape:?}");
    }
}

#[test]
fn type_tags_that_prefix_each_other() {
    let user = t("USER#{id}");
    let group = t("USERGROUP#{id}");
    assert_eq!(user.overlap(&group), None);
    assert_eq!(user.can_begin_with("USER").as_deref(), Some("USER#a"));
    assert_eq!(group.can_begin_with("USER").as_deref(), Some("USERGROUP#a"));
    assert!(group.can_begin_with("USER#").is_none());
    // A `string` hole right after the tag swallows the other tag.
    assert_eq!(t("USER{str}").overlap(&group).as_deref(), Some("USERGROUP#a"));
}

#[test]
fn overlaps() {
    assert_eq!(
        t("INVOICE#{int6}").overlap(&t("INVOICE#{str}")).as_deref(),
        Some("INVOICE#000000")
    );
    assert_eq!(t("USER#{id}").overlap(&t("USER#{str}")).as_deref(), Some("USER#a"));
    assert_eq!(t("{id}#{id}").overlap(&t("{str}")).as_deref(), Some("a#a"));
    assert_eq!(t("{id}{id}").overlap(&t("a#b")), None);
    assert_eq!(t("TENANT#{id}").overlap(&t("TENANT#{id}#USER#{id}")), None);
    assert_eq!(
        t("TENANT#{str}").overlap(&t("TENANT#{id}#USER#{id}")).as_deref(),
        Some("TENANT#a#USER#a")
    );
    assert_eq!(t("STATUS#{status}").overlap(&t("STATUS#{bool}")), None);
    assert_eq!(
        t("{int}").overlap(&t("0{int}")),
        None,
        "canonical ints never have leading zeros"
    );
    assert_eq!(t("{int}").overlap(&t("{int6}")).as_deref(), Some("100000"));
    assert_eq!(t("{dec}").overlap(&t("{int6}")).as_deref(), Some("100000"));
    assert_eq!(t("EVENT#{datetime}#{ulid}").overlap(&t("EVENT#{date}")), None);
    assert!(t("{uuid}").overlap(&t("{id}")).is_some());
    assert_eq!(t("{uuid}").overlap(&t("{ulid}")), None);
    let nothing = Template::new(vec![Part::Hole(Shape::Enum(vec![]))]);
    assert_eq!(nothing.overlap(&t("{str}")), None);
    assert_eq!(nothing.min_len(), 0);
    assert_eq!(nothing.max_len(), Some(0));
}

#[test]
fn equality_conditions() {
    let tenant = t("TENANT#{id}");
    assert!(tenant.can_equal("TENANT#acme"));
    assert!(!tenant.can_equal("TENANT#"));
    assert!(!tenant.can_equal("TENANT#a#b"));
    assert!(!tenant.can_equal("TENANTS#acme"));
    assert!(!t("STATUS#{status}").can_equal("STATUS#opn"));
    assert!(t("STATUS#{status}").can_equal("STATUS#open"));
    assert!(t("META").can_equal("META") && !t("META").can_equal("MET"));
}

#[test]
fn prefix_conditions() {
    assert!(t("USER#{id}").can_begin_with("USERS#").is_none());
    assert_eq!(
        t("EVENT#{datetime}").can_begin_with("EVENT#2024-").as_deref(),
        Some("EVENT#2024-01-01T00:00:00Z")
    );
    assert!(t("EVENT#{datetime}").can_begin_with("EVENT#2024-13").is_none());
    assert_eq!(t("ORDER#{id}").can_begin_with("ORDER#42").as_deref(), Some("ORDER#42"));
    assert_eq!(t("ORDER#{id}").can_begin_with("").as_deref(), Some("ORDER#a"));
}

#[test]
fn range_conditions() {
    let upper = prefix_upper_bound("ORDER#").unwrap();
    assert_eq!(upper, "ORDER$");
    let (lo, hi) = (Bound::Included("ORDER#".into()), Bound::Excluded(upper));
    assert_eq!(t("ORDER#{id}").can_be_in_range(&lo, &hi).as_deref(), Some("ORDER#a"));
    assert!(t("ORDERLINE#{id}").can_be_in_range(&lo, &hi).is_none());
    assert!(t("ORDER").can_be_in_range(&lo, &hi).is_none());
    assert_eq!(t("ORDER{str}").can_be_in_range(&lo, &hi).as_deref(), Some("ORDER#"));
    // A bare `>=` leaks into every type tag sorting above the prefix.
    assert!(t("ORDERLINE#{id}").can_be_in_range(&lo, &Bound::Unbounded).is_some());
    assert!(t("ACCOUNT#{id}").can_be_in_range(&lo, &Bound::Unbounded).is_none());

    let since = Bound::Excluded("EVENT#2024-06-01T00:00:00Z".into());
    let event = t("EVENT#{datetime}");
    assert_eq!(
        event.can_be_in_range(&since, &Bound::Unbounded).as_deref(),
        Some("EVENT#2024-06-01T00:00:01Z")
    );
    let at_most = Bound::Included("EVENT#0000-01-01T00:00:00Z".into());
    assert_eq!(
        event.can_be_in_range(&Bound::Unbounded, &at_most).as_deref(),
        Some("EVENT#0000-01-01T00:00:00Z")
    );
    // The smallest datetime has the longest all-zero fraction ('0' sorts before 'Z').
    let smallest = "EVENT#0000-01-01T00:00:00.000000000Z";
    assert!(
        event
            .can_be_in_range(&Bound::Unbounded, &Bound::Excluded(smallest.into()))
            .is_none()
    );
    let only = event.can_be_in_range(&Bound::Unbounded, &Bound::Included(smallest.into()));
    assert_eq!(only.as_deref(), Some(smallest));
    // Unpadded ints sort as strings: 15 sorts before 2.
    let two = Bound::Included("INVOICE#2".into());
    assert_eq!(
        t("INVOICE#{int}").can_be_in_range(&Bound::Unbounded, &two).as_deref(),
        Some("INVOICE#0")
    );
    assert!(
        t("INVOICE#{int}")
            .can_be_in_range(&Bound::Excluded("INVOICE#1".into()), &two)
            .is_some()
    );
    // Empty interval.
    assert!(
        t("{str}")
            .can_be_in_range(&Bound::Included("b".into()), &Bound::Included("a".into()))
            .is_none()
    );
}

#[test]
fn prefixes_and_lengths() {
    assert_eq!(t("TENANT#{id}#INVOICE#{int6}").literal_prefix(), "TENANT#");
    assert_eq!(
        Template::new(vec![Part::Literal("A".into()), Part::Literal("B#".into())]).literal_prefix(),
        "AB#"
    );
    assert_eq!(t("{date}").literal_prefix(), "");
    assert_eq!(t("TENANT#{id}").min_len(), 8);
    assert_eq!(t("TENANT#{id}").max_len(), None);
    assert_eq!(t("INVOICE#{int6}").max_len(), Some(14));
    assert!(t("INVOICE#{int6}").is_fixed_length());
    assert!(!t("INVOICE#{int}").is_fixed_length());
    assert_eq!(t("EVENT#{datetime}#{ulid}").max_len(), Some(6 + 30 + 1 + 26));
    assert_eq!(t("{status}").compile().common_prefix(), b"");
    assert_eq!(
        Template::new(vec![Part::Hole(Shape::Enum(vec!["open".into()]))])
            .compile()
            .common_prefix(),
        b"open"
    );
    assert_eq!(t("USER#{id}").compile().common_prefix(), b"USER#");
    assert_eq!(t("ORDER#{int6}").compile().common_prefix(), b"ORDER#");
}

#[test]
fn upper_bounds_stay_utf8() {
    assert_eq!(prefix_upper_bound("a").as_deref(), Some("b"));
    assert_eq!(prefix_upper_bound("a\u{7F}").as_deref(), Some("a\u{80}"));
    assert_eq!(prefix_upper_bound("a\u{D7FF}").as_deref(), Some("a\u{E000}"));
    assert_eq!(prefix_upper_bound("a\u{10FFFF}").as_deref(), Some("b"));
    assert_eq!(prefix_upper_bound("\u{10FFFF}"), None);
    assert_eq!(prefix_upper_bound(""), None);
}

#[test]
fn general_intersection() {
    // Three-way: two templates and a condition — items of both that a begins_with would return.
    let a = t("TENANT#{id}").compile();
    let b = t("TENANT#{str}").compile();
    let cond = Automaton::prefix(b"TENANT#x");
    assert_eq!(intersect(&[&a, &b, &cond]).as_deref(), Some(&b"TENANT#x"[..]));
    assert_eq!(intersect(&[&a]).as_deref(), Some(&b"TENANT#a"[..]));
    assert_eq!(intersect(&[&Automaton::exactly(b"")]).as_deref(), Some(&b""[..]));
    let short = Automaton::strings_over(b"ab", 2);
    assert!(short.accepts(b"") && short.accepts(b"ba") && !short.accepts(b"aba") && !short.accepts(b"c"));
}

#[test]
fn many_templates_are_fast() {
    // 2,000 entity templates, each compared with a neighbour and a condition: the per-keystroke
    // workload of the registry lints, in debug builds well under a second.
    let templates: Vec<Automaton> = (0..2000)
        .map(|i| t(&format!("TYPE{i}#{{id}}#AT#{{datetime}}#{{ulid}}")).compile())
        .collect();
    let start = std::time::Instant::now();
    let cond = Automaton::range(&Bound::Included("TYPE1#".into()), &Bound::Excluded("TYPE1$".into()));
    for pair in templates.windows(2) {
        assert!(intersect(&[&pair[0], &pair[1]]).is_none());
        intersect(&[&pair[0], &cond]);
    }
    assert!(start.elapsed().as_secs_f64() < 5.0, "{:?}", start.elapsed());
}
