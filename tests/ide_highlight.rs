//! Document-highlight fixtures: `$0` marks the cursor; the snapshot is the
//! file with each highlight marked, writes (declarations, and key
//! templates writing a type tag) as `«…»`, reads as `‹…›`.

mod common;

use common::cursor;
use dyno::ide::File;
use dyno::ide::highlight::{Access, highlights};
use expect_test::{Expect, expect};

fn check(fixture: &str, expected: Expect) {
    let (text, offset) = cursor::cursor(fixture);
    let file = File::new(text);
    let found = highlights(&file, offset);
    let actual = if found.is_empty() {
        "(none)\n".to_string()
    } else {
        let edits: Vec<_> = found
            .iter()
            .map(|h| {
                let name = &file.text[h.span.range()];
                let marked = match h.access {
                    Access::Write => format!("«{name}»"),
                    Access::Read => format!("‹{name}›"),
                };
                (h.span, marked)
            })
            .collect();
        cursor::apply(&file.text, &edits)
    };
    expected.assert_eq(&actual);
}

const EVENTS: &str = r##"
        table App {
          key pk, sk
          index gsi1 (gsi1pk, gsi1sk)
        }
        entity User {
          userId: id
          pk = "USER#{userId}"
          sk = "PROFILE"
        }
        entity Event {
          userId: id
          at: datetime
          kind: string
          pk = "USER#{userId}"
          sk = "EVENT#{at}"
          gsi1pk = "KIND#{kind}"
          gsi1sk = "EVENT#{at}"
        }
        pattern userWithEvents(userId) -> User, Event[] =
          query App where pk = "USER#{userId}"
        pattern eventsSince(userId, at >= since) -> Event[] by at desc
        pattern byKind(kind) -> Event[] =
          query App.gsi1 where gsi1pk = "KIND#{kind}" and begins_with(gsi1sk, "EVENT#")
        "##;

/// `EVENTS` with the cursor after the `nth` (0-based) occurrence of
/// `before`.
fn events_at(before: &str, nth: usize) -> String {
    let (at, _) = EVENTS
        .match_indices(before)
        .nth(nth)
        .unwrap_or_else(|| panic!("`{before}` #{nth} not in the fixture"));
    let cut = at + before.len();
    format!("{}$0{}", &EVENTS[..cut], &EVENTS[cut..])
}

#[test]
fn attribute_declaration_writes_and_its_uses_read() {
    check(
        &events_at("  a", 0),
        expect![[r#"
            table App {
              key pk, sk
              index gsi1 (gsi1pk, gsi1sk)
            }
            entity User {
              userId: id
              pk = "USER#{userId}"
              sk = "PROFILE"
            }
            entity Event {
              userId: id
              «at»: datetime
              kind: string
              pk = "USER#{userId}"
              sk = "EVENT#{‹at›}"
              gsi1pk = "KIND#{kind}"
              gsi1sk = "EVENT#{‹at›}"
            }
            pattern userWithEvents(userId) -> User, Event[] =
              query App where pk = "USER#{userId}"
            pattern eventsSince(userId, ‹at› >= since) -> Event[] by ‹at› desc
            pattern byKind(kind) -> Event[] =
              query App.gsi1 where gsi1pk = "KIND#{kind}" and begins_with(gsi1sk, "EVENT#")
        "#]],
    );
}

#[test]
fn a_hole_highlights_the_same_attribute() {
    check(
        &events_at("KIND#{k", 0),
        expect![[r#"
            table App {
              key pk, sk
              index gsi1 (gsi1pk, gsi1sk)
            }
            entity User {
              userId: id
              pk = "USER#{userId}"
              sk = "PROFILE"
            }
            entity Event {
              userId: id
              at: datetime
              «kind»: string
              pk = "USER#{userId}"
              sk = "EVENT#{at}"
              gsi1pk = "KIND#{‹kind›}"
              gsi1sk = "EVENT#{at}"
            }
            pattern userWithEvents(userId) -> User, Event[] =
              query App where pk = "USER#{userId}"
            pattern eventsSince(userId, at >= since) -> Event[] by at desc
            pattern byKind(‹kind›) -> Event[] =
              query App.gsi1 where gsi1pk = "KIND#{‹kind›}" and begins_with(gsi1sk, "EVENT#")
        "#]],
    );
}

#[test]
fn a_known_value_binding_several_entities_highlights_each_entitys_attribute() {
    check(
        &events_at("userWithEvents(u", 0),
        expect![[r#"
            table App {
              key pk, sk
              index gsi1 (gsi1pk, gsi1sk)
            }
            entity User {
              «userId»: id
              pk = "USER#{‹userId›}"
              sk = "PROFILE"
            }
            entity Event {
              «userId»: id
              at: datetime
              kind: string
              pk = "USER#{‹userId›}"
              sk = "EVENT#{at}"
              gsi1pk = "KIND#{kind}"
              gsi1sk = "EVENT#{at}"
            }
            pattern userWithEvents(‹userId›) -> User, Event[] =
              query App where pk = "USER#{‹userId›}"
            pattern eventsSince(‹userId›, at >= since) -> Event[] by at desc
            pattern byKind(kind) -> Event[] =
              query App.gsi1 where gsi1pk = "KIND#{kind}" and begins_with(gsi1sk, "EVENT#")
        "#]],
    );
}

#[test]
fn by_attr_highlights_the_attribute() {
    check(
        &events_at("by a", 0),
        expect![[r#"
            table App {
              key pk, sk
              index gsi1 (gsi1pk, gsi1sk)
            }
            entity User {
              userId: id
              pk = "USER#{userId}"
              sk = "PROFILE"
            }
            entity Event {
              userId: id
              «at»: datetime
              kind: string
              pk = "USER#{userId}"
              sk = "EVENT#{‹at›}"
              gsi1pk = "KIND#{kind}"
              gsi1sk = "EVENT#{‹at›}"
            }
            pattern userWithEvents(userId) -> User, Event[] =
              query App where pk = "USER#{userId}"
            pattern eventsSince(userId, ‹at› >= since) -> Event[] by ‹at› desc
            pattern byKind(kind) -> Event[] =
              query App.gsi1 where gsi1pk = "KIND#{kind}" and begins_with(gsi1sk, "EVENT#")
        "#]],
    );
}

#[test]
fn a_key_prefix_highlights_its_templates_as_writes_and_pinned_queries_as_reads() {
    check(
        &events_at("\"EV", 0),
        expect![[r#"
            table App {
              key pk, sk
              index gsi1 (gsi1pk, gsi1sk)
            }
            entity User {
              userId: id
              pk = "USER#{userId}"
              sk = "PROFILE"
            }
            entity Event {
              userId: id
              at: datetime
              kind: string
              pk = "USER#{userId}"
              sk = "«EVENT»#{at}"
              gsi1pk = "KIND#{kind}"
              gsi1sk = "«EVENT»#{at}"
            }
            pattern userWithEvents(userId) -> User, Event[] =
              query App where pk = "USER#{userId}"
            pattern eventsSince(userId, at >= since) -> Event[] by at desc
            pattern byKind(kind) -> Event[] =
              query App.gsi1 where gsi1pk = "KIND#{kind}" and begins_with(gsi1sk, "‹EVENT›#")
        "#]],
    );
}

#[test]
fn entity_table_and_index_names() {
    check(
        &events_at("entity Ev", 0),
        expect![[r#"
            table App {
              key pk, sk
              index gsi1 (gsi1pk, gsi1sk)
            }
            entity User {
              userId: id
              pk = "USER#{userId}"
              sk = "PROFILE"
            }
            entity «Event» {
              userId: id
              at: datetime
              kind: string
              pk = "USER#{userId}"
              sk = "EVENT#{at}"
              gsi1pk = "KIND#{kind}"
              gsi1sk = "EVENT#{at}"
            }
            pattern userWithEvents(userId) -> User, ‹Event›[] =
              query App where pk = "USER#{userId}"
            pattern eventsSince(userId, at >= since) -> ‹Event›[] by at desc
            pattern byKind(kind) -> ‹Event›[] =
              query App.gsi1 where gsi1pk = "KIND#{kind}" and begins_with(gsi1sk, "EVENT#")
        "#]],
    );
    check(
        &events_at("query Ap", 0),
        expect![[r#"
            table «App» {
              key pk, sk
              index gsi1 (gsi1pk, gsi1sk)
            }
            entity User {
              userId: id
              pk = "USER#{userId}"
              sk = "PROFILE"
            }
            entity Event {
              userId: id
              at: datetime
              kind: string
              pk = "USER#{userId}"
              sk = "EVENT#{at}"
              gsi1pk = "KIND#{kind}"
              gsi1sk = "EVENT#{at}"
            }
            pattern userWithEvents(userId) -> User, Event[] =
              query ‹App› where pk = "USER#{userId}"
            pattern eventsSince(userId, at >= since) -> Event[] by at desc
            pattern byKind(kind) -> Event[] =
              query ‹App›.gsi1 where gsi1pk = "KIND#{kind}" and begins_with(gsi1sk, "EVENT#")
        "#]],
    );
    check(
        &events_at("App.gs", 0),
        expect![[r#"
            table App {
              key pk, sk
              index «gsi1» (gsi1pk, gsi1sk)
            }
            entity User {
              userId: id
              pk = "USER#{userId}"
              sk = "PROFILE"
            }
            entity Event {
              userId: id
              at: datetime
              kind: string
              pk = "USER#{userId}"
              sk = "EVENT#{at}"
              gsi1pk = "KIND#{kind}"
              gsi1sk = "EVENT#{at}"
            }
            pattern userWithEvents(userId) -> User, Event[] =
              query App where pk = "USER#{userId}"
            pattern eventsSince(userId, at >= since) -> Event[] by at desc
            pattern byKind(kind) -> Event[] =
              query App.‹gsi1› where gsi1pk = "KIND#{kind}" and begins_with(gsi1sk, "EVENT#")
        "#]],
    );
}

#[test]
fn nothing_on_keywords_punctuation_or_comments() {
    check(&events_at("entit", 0), expect!["(none)\n"]);
    check(&events_at("table App ", 0), expect!["(none)\n"]);
    check(&events_at("key pk, sk\n", 0), expect!["(none)\n"]);
}
