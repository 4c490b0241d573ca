//! Editor features inside a pattern's filter (`where ...`): completion
//! offers the returned entities' attributes, the filter's functions, `in`,
//! enum words and `and`/`or`; a filter's attribute hovers, goes to and is a
//! reference of the entity's attribute, and renames with it; a caller's
//! value is one of the pattern's values; the pattern's hover shows the
//! items read and returned; semantic tokens colour the keywords. `$0` marks
//! the cursor; `UPDATE_EXPECT=1` rewrites the snapshots.

mod common;

use common::cursor;
use common::cursor::completion_labels as labels;
use dyno::ide::semantic_tokens::{Kind, tokens};
use dyno::ide::{File, hover::hover, references::references, rename::rename};
use expect_test::expect;

const SCHEMA: &str = r#"
table Shop {
  key pk, sk
}

entity Order {
  customerId: id
  orderId: ulid
  total: int
  status: enum(PAID, SHIPPED)
  pk = "CUSTOMER#{customerId}"
  sk = "ORDER#{orderId}"
}

pattern bigOrders(customerId) -> Order[] ~10 where total >= minTotal and status = PAID ~20%
"#;

/// `SCHEMA` with the pattern line replaced by `line` (which holds the `$0`).
fn with_pattern(line: &str) -> String {
    SCHEMA.replace(
        "pattern bigOrders(customerId) -> Order[] ~10 where total >= minTotal and status = PAID ~20%",
        line,
    )
}

#[test]
fn where_is_offered_among_the_modifiers() {
    let offered = labels(&with_pattern("pattern p(customerId) -> Order[] $0"));
    assert!(offered.iter().any(|l| l == "where"), "{offered:?}");
}

#[test]
fn after_where_the_attributes_and_functions_are_offered() {
    let offered = labels(&with_pattern("pattern p(customerId) -> Order[] where $0"));
    expect![[r#"["customerId", "orderId", "total", "status", "begins_with", "attribute_exists", "attribute_not_exists", "not"]"#]]
        .assert_eq(&format!("{offered:?}"));
    let after_and = labels(&with_pattern("pattern p(customerId) -> Order[] where total > 1 and $0"));
    assert!(after_and.iter().any(|l| l == "status"), "{after_and:?}");
}

#[test]
fn after_a_comparison_enum_words_and_then_and_or_are_offered() {
    let words = labels(&with_pattern("pattern p(customerId) -> Order[] where status = $0"));
    assert_eq!(words, ["PAID", "SHIPPED"]);
    let listed = labels(&with_pattern("pattern p(customerId) -> Order[] where status in ($0"));
    assert_eq!(listed, ["PAID", "SHIPPED"]);
    let next = labels(&with_pattern("pattern p(customerId) -> Order[] where status = PAID $0"));
    assert!(
        next.iter().any(|l| l == "and") && next.iter().any(|l| l == "limit"),
        "{next:?}"
    );
    let attr = labels(&with_pattern("pattern p(customerId) -> Order[] where status $0"));
    assert_eq!(attr, ["in"]);
}

#[test]
fn a_filter_attribute_hovers_as_the_attribute_and_renames_with_it() {
    let fixture = with_pattern("pattern bigOrders(customerId) -> Order[] where to$0tal >= minTotal");
    let (text, offset) = cursor::cursor(&fixture);
    let file = File::new(text);
    let shown = hover(&file, offset).expect("a hover").markdown;
    assert!(shown.contains("`Order.total`"), "{shown}");
    let declaration = file.text.find("total: int").unwrap();
    let found: Vec<_> = references(&file, declaration + 1, false)
        .into_iter()
        .map(|r| r.span.start())
        .collect();
    assert_eq!(found, [offset - 2], "{found:?}");
    let edits = rename(&file, declaration + 1, "amount").unwrap();
    let spans: Vec<_> = edits.iter().map(|(at, _)| at.span).collect();
    expect![[r#"
        table Shop {
          key pk, sk
        }

        entity Order {
          customerId: id
          orderId: ulid
          «total»: int
          status: enum(PAID, SHIPPED)
          pk = "CUSTOMER#{customerId}"
          sk = "ORDER#{orderId}"
        }

        pattern bigOrders(customerId) -> Order[] where «total» >= minTotal
    "#]]
    .assert_eq(&cursor::mark(&file.text, &spans));
}

#[test]
fn a_callers_value_in_a_filter_renames_as_a_value_and_an_enum_word_does_not() {
    let file = File::new(SCHEMA.to_string());
    let at = file.text.find("minTotal").unwrap();
    let edits = rename(&file, at + 1, "floor").unwrap();
    assert_eq!(edits.len(), 1, "{edits:?}");
    assert_eq!(edits[0].0.span.start(), at);
    let word = file.text.find("PAID ~").unwrap();
    assert!(rename(&file, word + 1, "X").is_err());
}

#[test]
fn the_patterns_hover_shows_items_read_and_returned() {
    let file = File::new(SCHEMA.to_string());
    let at = file.text.find("bigOrders").unwrap();
    let shown = hover(&file, at + 1).expect("a hover").markdown;
    assert!(shown.contains("FilterExpression"), "{shown}");
    assert!(shown.contains("~50 items"), "{shown}");
    assert!(shown.contains("the filter keeps ~20%: ~10 of them returned"), "{shown}");
}

#[test]
fn filter_keywords_are_keywords_and_its_attributes_attributes() {
    let file = File::new(SCHEMA.to_string());
    let kind_at = |needle: &str| {
        let at = file.text.find(needle).unwrap();
        tokens(&file).into_iter().find(|t| t.span.start() == at).map(|t| t.kind)
    };
    assert_eq!(kind_at("where"), Some(Kind::Keyword));
    assert_eq!(kind_at("total >="), Some(Kind::Attribute));
    assert_eq!(kind_at("and status"), Some(Kind::Keyword));
}

#[test]
fn hover_on_where_says_when_dynamodb_filters() {
    let fixture = with_pattern("pattern p(customerId) -> Order[] wh$0ere total > 1");
    let (text, offset) = cursor::cursor(&fixture);
    let shown = hover(&File::new(text), offset).expect("a hover").markdown;
    expect![[r#"**where**: a filter, DynamoDB's `FilterExpression`. It runs after the key condition has read the items and before they are returned: every item read is paid for and counts toward the 1 MB page, and `limit` counts items before the filter. Assumed to keep ~50% of the items read."#]]
        .assert_eq(&shown);
}
