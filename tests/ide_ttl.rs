//! Editor features on a table's `ttl`: completion offers the keyword and,
//! after it, the attributes of the table's entities; the attribute named
//! there hovers and goes to an entity's attribute of that name, and is a
//! reference of each;
//! semantic tokens colour it as an attribute. `$0` marks the cursor;
//! `UPDATE_EXPECT=1` rewrites the snapshots.

mod common;

use common::cursor;
use common::cursor::completion_labels as labels;
use dyno::ide::semantic_tokens::{Kind, tokens};
use dyno::ide::{File, goto::definition, hover::hover, references::references, rename::rename};
use expect_test::{Expect, expect};

const SCHEMA: &str = r#"
table App {
  key pk, sk
  ttl expiresAt$0
}

entity Session {
  sessionId: id
  expiresAt: int
  pk = "SESSION#{sessionId}"
  sk = "META"
}

entity Token {
  tokenId: id
  expiresAt: int
  label: string
  pk = "TOKEN#{tokenId}"
  sk = "META"
}

pattern session(sessionId) -> Session
pattern token(tokenId) -> Token
"#;

/// `SCHEMA` with the `ttl` line replaced by `line` (which holds the `$0`).
fn with_ttl_line(line: &str) -> String {
    SCHEMA.replace("  ttl expiresAt$0", line)
}

fn check_hover(fixture: &str, expected: Expect) {
    let (text, offset) = cursor::cursor(fixture);
    let file = File::new(text);
    let result = hover(&file, offset).expect("a hover");
    expected.assert_eq(&format!(
        "{}\n---\n{}\n",
        cursor::excerpt(&file.text, result.span),
        result.markdown
    ));
}

#[test]
fn ttl_is_offered_as_a_table_member() {
    let labels = labels(&with_ttl_line("  $0"));
    assert!(labels.iter().any(|l| l == "ttl"), "{labels:?}");
    assert!(labels.iter().any(|l| l == "delimiter"), "{labels:?}");
}

#[test]
fn after_ttl_the_attributes_of_the_tables_entities_are_offered() {
    let labels = labels(&with_ttl_line("  ttl $0"));
    assert_eq!(labels, ["sessionId", "expiresAt", "tokenId", "label"]);
}

#[test]
fn hover_on_the_ttl_attribute_says_what_time_to_live_does() {
    check_hover(
        SCHEMA,
        expect![[r#"
            expiresAt
            ---
            **attribute** `Session.expiresAt`: `int`

            Not part of any key.

            The Time to Live attribute of `App`: a Number of epoch seconds, after which DynamoDB deletes the item in the background (typically within a few days; reads return it until then).
        "#]],
    );
}

#[test]
fn the_ttl_attribute_goes_to_an_entitys_attribute_and_is_a_reference_of_each() {
    let (text, offset) = cursor::cursor(SCHEMA);
    let file = File::new(text);
    let targets: Vec<_> = definition(&file, offset).into_iter().map(|at| at.span).collect();
    expect![[r#"
        table App {
          key pk, sk
          ttl expiresAt
        }

        entity Session {
          sessionId: id
          «expiresAt»: int
          pk = "SESSION#{sessionId}"
          sk = "META"
        }

        entity Token {
          tokenId: id
          expiresAt: int
          label: string
          pk = "TOKEN#{tokenId}"
          sk = "META"
        }

        pattern session(sessionId) -> Session
        pattern token(tokenId) -> Token
    "#]]
    .assert_eq(&cursor::mark(&file.text, &targets));
    // From each entity's attribute, the `ttl` line is a reference to it.
    let ttl = file.text.find("expiresAt").unwrap();
    for (at, _) in file.text.match_indices("expiresAt: int") {
        let found: Vec<_> = references(&file, at + 1, false).into_iter().map(|r| r.span).collect();
        assert!(found.iter().any(|s| s.start() == ttl), "{found:?}");
    }
}

#[test]
fn ttl_is_coloured_as_a_keyword_and_its_attribute_as_an_attribute() {
    let (text, _) = cursor::cursor(SCHEMA);
    let file = File::new(text);
    let ttl = file.text.find("expiresAt").unwrap();
    let token = tokens(&file).into_iter().find(|t| t.span.start() == ttl);
    assert_eq!(token.map(|t| t.kind), Some(Kind::Attribute), "{:?}", file.text);
    let keyword = file.text.find("ttl").unwrap();
    let token = tokens(&file).into_iter().find(|t| t.span.start() == keyword);
    assert_eq!(token.map(|t| t.kind), Some(Kind::Keyword));
}

#[test]
fn renaming_an_entitys_ttl_attribute_renames_the_ttl_line_and_every_entitys() {
    let (text, _) = cursor::cursor(SCHEMA);
    let file = File::new(text);
    let at = file.text.find("expiresAt: int").unwrap() + 1;
    // Quoted: the ttl line takes a DynamoDB name, as the attributes do.
    let edits = rename(&file, at, "expires-at").unwrap();
    let spans: Vec<_> = edits.iter().map(|(at, _)| at.span).collect();
    assert!(edits.iter().all(|(_, text)| text == "\"expires-at\""), "{edits:?}");
    expect![[r#"
        table App {
          key pk, sk
          ttl «expiresAt»
        }

        entity Session {
          sessionId: id
          «expiresAt»: int
          pk = "SESSION#{sessionId}"
          sk = "META"
        }

        entity Token {
          tokenId: id
          «expiresAt»: int
          label: string
          pk = "TOKEN#{tokenId}"
          sk = "META"
        }

        pattern session(sessionId) -> Session
        pattern token(tokenId) -> Token
    "#]]
    .assert_eq(&cursor::mark(&file.text, &spans));
}

#[test]
fn hover_on_the_ttl_keyword_explains_time_to_live() {
    check_hover(
        &with_ttl_line("  t$0tl expiresAt"),
        expect![[r#"
        ttl
        ---
        **ttl** `expiresAt`: DynamoDB's Time to Live. An item whose `expiresAt` holds a Number of epoch seconds in the past has expired and is deleted in the background, typically within a few days; until then reads still return it. Items without a Number there never expire.
    "#]],
    );
}
