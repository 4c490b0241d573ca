//! Folding fixtures: the snapshot is the file with every fold marked
//! `«…»`, followed by each fold's kind and lines.

mod common;

use common::cursor;
use dyno::ide::File;
use dyno::ide::folding::folds;
use expect_test::{Expect, expect};

fn check(fixture: &str, expected: Expect) {
    let file = File::new(cursor::plain(fixture));
    let folds = folds(&file);
    let spans: Vec<_> = folds.iter().map(|f| f.span).collect();
    let mut out = cursor::mark(&file.text, &spans);
    out.push_str("---\n");
    if folds.is_empty() {
        out.push_str("(none)\n");
    }
    for fold in &folds {
        let (start, _) = cursor::line_col(&file.text, fold.span.start());
        let (end, _) = cursor::line_col(&file.text, fold.span.end());
        out.push_str(&format!("{:?} lines {start}-{end}\n", fold.kind));
    }
    expected.assert_eq(&out);
}

#[test]
fn items_blocks_and_comment_runs() {
    check(
        r##"
        // A schema.
        // Two lines of header.

        table App {
          key pk, sk
        }

        /// A person.
        /// Who signs in.
        entity User {
          userId: id
          pk = "USER#{userId}"
          sk = "PROFILE"
        }

        entity Membership {
          userId: id
          groupId: id
          item { pk = "USER#{userId}"  sk = "GROUP#{groupId}" }
          item {
            pk = "GROUP#{groupId}"
            sk = "USER#{userId}"
          }
        }

        pattern getUser(userId) -> User
        pattern pinned(userId) -> User =
          query App where pk = "USER#{userId}" and sk = "PROFILE"
        "##,
        expect![[r#"
            «// A schema.
            // Two lines of header.»

            «table App {
              key pk, sk
            }»

            «/// A person.
            /// Who signs in.»
            «entity User {
              userId: id
              pk = "USER#{userId}"
              sk = "PROFILE"
            }»

            «entity Membership {
              userId: id
              groupId: id
              item { pk = "USER#{userId}"  sk = "GROUP#{groupId}" }
              «item {
                pk = "GROUP#{groupId}"
                sk = "USER#{userId}"
              }»
            }»

            pattern getUser(userId) -> User
            «pattern pinned(userId) -> User =
              query App where pk = "USER#{userId}" and sk = "PROFILE"»
            ---
            Comment lines 1-2
            Region lines 4-6
            Comment lines 8-9
            Region lines 10-14
            Region lines 16-24
            Region lines 20-23
            Region lines 27-28
        "#]],
    );
}

#[test]
fn one_line_things_do_not_fold() {
    check(
        r##"
        // one comment line
        table App { key pk, sk }
        entity User { userId: id  pk = "USER#{userId}"  sk = "PROFILE" }
        pattern getUser(userId) -> User // trailing
        "##,
        expect![[r#"
            // one comment line
            table App { key pk, sk }
            entity User { userId: id  pk = "USER#{userId}"  sk = "PROFILE" }
            pattern getUser(userId) -> User // trailing
            ---
            (none)
        "#]],
    );
}

#[test]
fn trailing_comments_on_consecutive_lines_do_not_fold() {
    check(
        r##"
        table App {
          key pk, sk                    // names
          index gsi1 (gsi1pk, gsi1sk)   // projection all
        }
        "##,
        expect![[r#"
            «table App {
              key pk, sk                    // names
              index gsi1 (gsi1pk, gsi1sk)   // projection all
            }»
            ---
            Region lines 1-4
        "#]],
    );
}

#[test]
fn comments_separated_by_a_blank_line_fold_apart() {
    check(
        r##"
        // first
        // run

        // second
        // run
        table App { key pk, sk }
        "##,
        expect![[r#"
            «// first
            // run»

            «// second
            // run»
            table App { key pk, sk }
            ---
            Comment lines 1-2
            Comment lines 4-5
        "#]],
    );
}

#[test]
fn broken_file_still_folds_what_parses() {
    check(
        r##"
        table App {
          key pk, sk
        }
        entity User {
          userId: id
          name: : string
          pk = "USER#{userId}"
          sk = "PROFILE"
        }
        entity Broken {
          pk = "BROKEN#{
        "##,
        expect![[r#"
            «table App {
              key pk, sk
            }»
            «entity User {
              userId: id
              name: : string
              pk = "USER#{userId}"
              sk = "PROFILE"
            }»
            «entity Broken {
              pk = "BROKEN#{»
            ---
            Region lines 1-3
            Region lines 4-9
            Region lines 10-11
        "#]],
    );
}

#[test]
fn a_pattern_ending_in_a_rate_hint_folds_to_it() {
    check(
        r##"
        table Games { key pk }
        entity Score ~2500/s {
          userId: id
          pk = "{userId}"
        }
        pattern top(userId) -> Score
          ~200/s
        "##,
        expect![[r#"
            table Games { key pk }
            «entity Score ~2500/s {
              userId: id
              pk = "{userId}"
            }»
            «pattern top(userId) -> Score
              ~200/s»
            ---
            Region lines 2-5
            Region lines 6-7
        "#]],
    );
}
