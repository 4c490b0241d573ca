//! Selection-range fixtures: `$0` marks the cursor; the snapshot lists the
//! ranges innermost first, one per line as `line:col text`.

mod common;

use common::cursor;
use dyno::ide::File;
use dyno::ide::selection::ranges;
use expect_test::{Expect, expect};

fn check(fixture: &str, expected: Expect) {
    let (text, offset) = cursor::cursor(fixture);
    let file = File::new(text);
    let found = ranges(&file, offset);
    for pair in found.windows(2) {
        let (inner, outer) = (pair[0], pair[1]);
        assert!(
            outer.start() <= inner.start() && inner.end() <= outer.end() && outer.len() > inner.len(),
            "{outer:?} does not strictly contain {inner:?}"
        );
    }
    expected.assert_eq(&cursor::spans(&file.text, &found));
}

const SCHEMA: &str = r##"
        table App {
          key pk, sk
        }
        /// A user.
        entity User {
          userId: id
          at: datetime
          pk = "USER#{userId}"
          sk = "EVENT#{at}"
          item {
            pk = "EMAIL#{userId}"
          }
        }
        pattern since(userId, at >= from) -> User[] =
          query App where pk = "USER#{userId}" and sk >= from
        "##;

fn at(before: &str) -> String {
    let cut = SCHEMA
        .find(before)
        .unwrap_or_else(|| panic!("`{before}` not in the schema"))
        + before.len();
    format!("{}$0{}", &SCHEMA[..cut], &SCHEMA[cut..])
}

#[test]
fn from_a_hole_to_the_file() {
    check(
        &at("USER#{us"),
        expect![[r#"
            8:15 userId
            8:14 {userId}
            8:9 USER#{userId}
            8:8 "USER#{userId}"
            8:3 pk = "USER#{userId}"
            5:13 {⏎  userId: id⏎  at: datetim …  pk = "EMAIL#{userId}"⏎  }⏎}
            5:1 entity User {⏎  userId: id⏎  …  pk = "EMAIL#{userId}"⏎  }⏎}
            4:1 /// A user.⏎entity User {⏎   …  pk = "EMAIL#{userId}"⏎  }⏎}
            1:1 table App {⏎  key pk, sk⏎}⏎/ … ER#{userId}" and sk >= from⏎
        "#]],
    );
}

#[test]
fn from_a_literal_in_an_item_shape() {
    check(
        &at("EMA"),
        expect![[r#"
            11:11 EMAIL
            11:11 EMAIL#
            11:11 EMAIL#{userId}
            11:10 "EMAIL#{userId}"
            11:5 pk = "EMAIL#{userId}"
            10:8 {⏎    pk = "EMAIL#{userId}"⏎  }
            10:3 item {⏎    pk = "EMAIL#{userId}"⏎  }
            5:13 {⏎  userId: id⏎  at: datetim …  pk = "EMAIL#{userId}"⏎  }⏎}
            5:1 entity User {⏎  userId: id⏎  …  pk = "EMAIL#{userId}"⏎  }⏎}
            4:1 /// A user.⏎entity User {⏎   …  pk = "EMAIL#{userId}"⏎  }⏎}
            1:1 table App {⏎  key pk, sk⏎}⏎/ … ER#{userId}" and sk >= from⏎
        "#]],
    );
}

#[test]
fn from_a_known_value_to_the_pattern() {
    check(
        &at("at >= fr"),
        expect![[r#"
            14:29 from
            14:23 at >= from
            14:14 (userId, at >= from)
            14:1 pattern since(userId, at >=  … SER#{userId}" and sk >= from
            1:1 table App {⏎  key pk, sk⏎}⏎/ … ER#{userId}" and sk >= from⏎
        "#]],
    );
}

#[test]
fn from_a_keyword_and_from_a_query_condition() {
    check(
        &at("ent"),
        expect![[r#"
            5:1 entity
            5:1 entity User {⏎  userId: id⏎  …  pk = "EMAIL#{userId}"⏎  }⏎}
            4:1 /// A user.⏎entity User {⏎   …  pk = "EMAIL#{userId}"⏎  }⏎}
            1:1 table App {⏎  key pk, sk⏎}⏎/ … ER#{userId}" and sk >= from⏎
        "#]],
    );
    check(
        &at("sk >= f"),
        expect![[r#"
            15:50 from
            15:44 sk >= from
            15:3 query App where pk = "USER#{userId}" and sk >= from
            14:1 pattern since(userId, at >=  … SER#{userId}" and sk >= from
            1:1 table App {⏎  key pk, sk⏎}⏎/ … ER#{userId}" and sk >= from⏎
        "#]],
    );
}

#[test]
fn outside_every_item_the_file() {
    check(
        "table App {\n  key pk\n}\n\n$0\n",
        expect![[r#"
            1:1 table App {⏎  key pk⏎}⏎⏎⏎
        "#]],
    );
}
