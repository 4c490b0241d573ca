use super::print;
use crate::syntax::ast::{Item, Name, Pattern, Query, SourceFile};
use crate::syntax::{Span, parse};

/// Parses `text` (which must be free of syntax errors) and prints it again.
fn reprint(text: &str) -> String {
    let parsed = parse(text);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    print(&parsed.file)
}

/// Every construct the tree holds, in the printer's canonical layout: it
/// prints back byte for byte.
const EVERY_CONSTRUCT: &str = r##"/// The table.
///
/// Two paragraphs.
table Shop {
  key pk, sk: number
  key other: binary
  /// By e-mail.
  index byEmail (email: string) all
  index gsi1 (gsi1pk, gsi1sk) keys_only
  local index lsi1 (pk, lsi1sk) include(title, price)
  index plain (plainKey)
  delimiter "#"
}

table Empty {}

entity Order in Shop ~1.5KB {
  /// Sorts by creation time.
  orderId: ulid
  number: int(pad 6)
  status: enum(open, "in-use")
  bio: string(~1500)?
  blob: binary(~4KB)
  item: map(~2MB)

  /// One partition per order.
  pk     = "ORDER#{orderId}"
  gsi1sk = "A\"B\\C\{D\}#{number}"
  sk     = ""
}

entity Edge {
  a: id

  item { pk = "A#{a}"  sk = "B" }
  item { pk = "C" }
  item {}
  item {
    pk     = "X"
    sk     = "Y"
    gsi1pk = "Z"
  }
}

entity Bare {}

/// A pattern.
pattern everything(a, b = "open", c = 6, d = true, e = false, f = open, g < x, h <= x, i > x, j >= x, k between l and m) -> Order

pattern prefix(n begins_with p) -> Order[] ~200, Edge ~1, Bare[] by at desc limit 10 consistent by at

pattern pinned(a) -> Order[] = query Shop where pk = "ORDER#{a}" and begins_with(sk, "A")

pattern operands(a) -> Order[] = query Shop.gsi1 where gsi1pk = a and gsi1sk between 1 and "{b}"

pattern compares() -> Order = query Shop where pk = "P" and sk < 1 and sk <= 2 and sk >= 4
"##;

#[test]
fn a_canonical_file_prints_back_unchanged() {
    assert_eq!(reprint(EVERY_CONSTRUCT), EVERY_CONSTRUCT);
}

#[test]
fn what_the_tree_does_not_keep_is_printed_one_way() {
    let written = "// gone\ntable T { delimiter \"#\" index g (a) key pk }\n\
                   entity E { pk = \"E\" item {} a: int() }\npattern p() -> E by a asc";
    let expected = "table T {\n  key pk\n  index g (a)\n  delimiter \"#\"\n}\n\n\
                    entity E {\n  a: int\n\n  pk = \"E\"\n\n  item {}\n}\n\npattern p() -> E by a\n";
    assert_eq!(reprint(written), expected);
    assert_eq!(reprint("entity E ~1.50KB {}"), "entity E ~1.5KB {}\n");
}

#[test]
fn a_long_pattern_breaks_before_its_query_then_at_each_and() {
    let long_name = "a".repeat(60);
    let before_query = reprint(&format!(
        "pattern {long_name}(x) -> E[] = query T where pk = \"P#{{x}}\" and begins_with(sk, \"S\")"
    ));
    assert_eq!(
        before_query,
        format!("pattern {long_name}(x) -> E[] =\n  query T where pk = \"P#{{x}}\" and begins_with(sk, \"S\")\n")
    );
    let long_value = "V".repeat(80);
    let at_each_and = reprint(&format!(
        "pattern p(x) -> E[] = query T where pk = \"{long_value}\" and sk between \"A\" and \"B\" and sk = x"
    ));
    assert_eq!(
        at_each_and,
        format!(
            "pattern p(x) -> E[] =\n  query T where pk = \"{long_value}\"\n    and sk between \"A\" and \"B\"\n    and sk = x\n"
        )
    );
}

#[test]
fn an_item_shape_expands_when_long_or_documented() {
    let long_value = "V".repeat(80);
    let long = reprint(&format!("entity E {{ item {{ pk = \"{long_value}\" sk = \"S\" }} }}"));
    assert_eq!(
        long,
        format!("entity E {{\n  item {{\n    pk = \"{long_value}\"\n    sk = \"S\"\n  }}\n}}\n")
    );
    let documented = reprint("entity E { item { /// Why.\n pk = \"P\" } }");
    assert_eq!(
        documented,
        "entity E {\n  item {\n    /// Why.\n    pk = \"P\"\n  }\n}\n"
    );
}

#[test]
fn a_tree_with_syntax_errors_prints_what_was_read() {
    let broken = [
        ("pattern p(a)", "pattern p(a)\n"),
        ("pattern p(a) -> E = query", "pattern p(a) -> E\n"),
        ("entity E { a: \n b: int }", "entity E {\n  b: int\n}\n"),
        ("table T { key ( }", "table T {}\n"),
        ("entity E { pk = \"open", "entity E {\n  pk = \"open\"\n}\n"),
    ];
    for (text, expected) in broken {
        let parsed = parse(text);
        assert!(!parsed.diagnostics.is_empty(), "{text:?} should have errors");
        assert_eq!(print(&parsed.file), expected, "{text:?}");
    }
    for text in [
        "",
        "}{",
        "table",
        "entity E {",
        "pattern (",
        "\"",
        "table T { key pk: date }",
    ] {
        print(&parse(text).file);
    }
}

#[test]
fn a_hand_built_tree_the_parser_could_not_build_still_prints() {
    let name = |text: &str| Name::new(text, Span::default());
    let pattern = Pattern {
        span: Span::default(),
        docs: None,
        name: name("p"),
        known: Vec::new(),
        returns: Vec::new(),
        modifiers: Vec::new(),
        query: Some(Query {
            span: Span::default(),
            table: name("T"),
            index: None,
            conditions: Vec::new(),
        }),
    };
    let file = SourceFile {
        items: vec![Item::Pattern(pattern)],
    };
    assert_eq!(print(&file), "pattern p() = query T where\n");
}

/// A name that is not an identifier is printed quoted, one that is bare
/// (`"SK"` reads as `SK`), and the text reads back as the same tree.
#[test]
fn names_are_quoted_exactly_when_they_are_not_identifiers() {
    let text = r##"table "orders-prod.v2" {
  key "PK", "SK"
  index "GSI-1" ("GSI1-PK", "State#Date") include("a\"b")
}

entity Order in "orders-prod.v2" {
  "State#Date": date
  "table": string

  "PK" = "ORDER"
}

pattern recent("State#Date" >= since) -> Order[] by "State#Date" =
  query "orders-prod.v2"."GSI-1" where "GSI1-PK" = "ALL" and begins_with("State#Date", "2")
"##;
    let printed = reprint(text);
    let expected = text.replace("\"PK\"", "PK").replace("\"SK\"", "SK");
    assert_eq!(printed, expected);
    let again = parse(&printed);
    assert!(again.diagnostics.is_empty(), "{:?}", again.diagnostics);
    assert_eq!(print(&again.file), printed);
}
