//! Semantic token fixtures: the snapshot lists each token as `line:col
//! kind text`, with `+decl` on declarations and `+doc` on doc comments.

mod common;

use common::cursor;
use dyno::ide::File;
use dyno::ide::semantic_tokens::tokens;
use expect_test::{Expect, expect};

fn check(fixture: &str, expected: Expect) {
    let file = File::new(cursor::plain(fixture));
    let tokens = tokens(&file);
    let mut out = String::new();
    for pair in tokens.windows(2) {
        assert!(
            pair[0].span.end() <= pair[1].span.start(),
            "overlapping tokens: {pair:?}"
        );
    }
    for token in &tokens {
        assert!(!token.span.is_empty(), "empty token: {token:?}");
        out.push_str(&format!(
            "{} {:?}{}{} {}\n",
            cursor::position(&file.text, token.span),
            token.kind,
            if token.declaration { "+decl" } else { "" },
            if token.documentation { "+doc" } else { "" },
            cursor::excerpt(&file.text, token.span),
        ));
    }
    if out.is_empty() {
        out.push_str("(none)\n");
    }
    expected.assert_eq(&out);
}

#[test]
fn table() {
    check(
        r##"
        table App {
          key pk, sk: number
          index gsi1 (gsi1pk, gsi1sk) keys_only
          delimiter "#"
        }
        "##,
        expect![[r#"
            1:1 Keyword table
            1:7 Table+decl App
            2:3 Keyword key
            2:7 Key+decl pk
            2:11 Key+decl sk
            2:15 Type number
            3:3 Keyword index
            3:9 Index+decl gsi1
            3:15 Key+decl gsi1pk
            3:23 Key+decl gsi1sk
            3:31 Keyword keys_only
            4:3 Keyword delimiter
            4:13 String "
            4:14 Delimiter #
            4:15 String "
        "#]],
    );
}

#[test]
fn entity_templates_split_into_tags_delimiters_and_holes() {
    check(
        r##"
        /// A person.
        entity User {
          userId: id
          age: int(pad 3)?
          pk = "USER#{userId}"
          sk = "AGE#{age}#x"
        }
        "##,
        expect![[r#"
            1:1 Comment+doc /// A person.
            2:1 Keyword entity
            2:8 Entity+decl User
            3:3 Attribute+decl userId
            3:11 Type id
            4:3 Attribute+decl age
            4:8 Type int
            4:12 Keyword pad
            4:16 Number 3
            5:8 String "USER
            5:13 Delimiter #
            5:14 Delimiter {
            5:15 Attribute userId
            5:21 Delimiter }
            5:22 String "
            6:8 String "AGE
            6:12 Delimiter #
            6:13 Delimiter {
            6:14 Attribute age
            6:17 Delimiter }
            6:18 Delimiter #
            6:19 String x"
        "#]],
    );
}

#[test]
fn patterns_and_pinned_queries() {
    check(
        r##"
        table App {
          key pk, sk
        }
        entity Event {
          userId: id
          at: datetime
          pk = "USER#{userId}"
          sk = "EVENT#{at}"
        }
        pattern since(userId, at >= from) -> Event[] ~20 by at desc limit 5 =
          query App where pk = "USER#{userId}" and sk between from and "EVENT#~"
        "##,
        expect![[r#"
            1:1 Keyword table
            1:7 Table+decl App
            2:3 Keyword key
            2:7 Key+decl pk
            2:11 Key+decl sk
            4:1 Keyword entity
            4:8 Entity+decl Event
            5:3 Attribute+decl userId
            5:11 Type id
            6:3 Attribute+decl at
            6:7 Type datetime
            7:3 Key pk
            7:8 String "
            7:9 TypeTag USER
            7:13 Delimiter #
            7:14 Delimiter {
            7:15 Attribute userId
            7:21 Delimiter }
            7:22 String "
            8:3 Key sk
            8:8 String "
            8:9 TypeTag EVENT
            8:14 Delimiter #
            8:15 Delimiter {
            8:16 Attribute at
            8:18 Delimiter }
            8:19 String "
            10:1 Keyword pattern
            10:9 Pattern+decl since
            10:15 Attribute userId
            10:23 Attribute at
            10:29 Parameter+decl from
            10:38 Entity Event
            10:47 Number 20
            10:50 Keyword by
            10:53 Attribute at
            10:56 Keyword desc
            10:61 Keyword limit
            10:67 Number 5
            11:3 Keyword query
            11:9 Table App
            11:13 Keyword where
            11:19 Key pk
            11:24 String "
            11:25 TypeTag USER
            11:29 Delimiter #
            11:30 Delimiter {
            11:31 Attribute userId
            11:37 Delimiter }
            11:38 String "
            11:40 Keyword and
            11:44 Key sk
            11:47 Keyword between
            11:55 Parameter from
            11:60 Keyword and
            11:64 String "
            11:65 TypeTag EVENT
            11:70 Delimiter #
            11:71 TypeTag ~
            11:72 String "
        "#]],
    );
}

#[test]
fn a_name_binding_several_attributes_is_one_token() {
    check(
        r##"
        table App { key pk, sk }
        entity User { userId: id  pk = "USER#{userId}"  sk = "PROFILE" }
        entity Order { userId: id  orderId: ulid  pk = "USER#{userId}"  sk = "ORDER#{orderId}" }
        pattern userWithOrders(userId) -> User, Order[] = query App where pk = "USER#{userId}"
        "##,
        expect![[r#"
            1:1 Keyword table
            1:7 Table+decl App
            1:13 Keyword key
            1:17 Key+decl pk
            1:21 Key+decl sk
            2:1 Keyword entity
            2:8 Entity+decl User
            2:15 Attribute+decl userId
            2:23 Type id
            2:27 Key pk
            2:32 String "
            2:33 TypeTag USER
            2:37 Delimiter #
            2:38 Delimiter {
            2:39 Attribute userId
            2:45 Delimiter }
            2:46 String "
            2:49 Key sk
            2:54 String "
            2:55 TypeTag PROFILE
            2:62 String "
            3:1 Keyword entity
            3:8 Entity+decl Order
            3:16 Attribute+decl userId
            3:24 Type id
            3:28 Attribute+decl orderId
            3:37 Type ulid
            3:43 Key pk
            3:48 String "
            3:49 TypeTag USER
            3:53 Delimiter #
            3:54 Delimiter {
            3:55 Attribute userId
            3:61 Delimiter }
            3:62 String "
            3:65 Key sk
            3:70 String "
            3:71 TypeTag ORDER
            3:76 Delimiter #
            3:77 Delimiter {
            3:78 Attribute orderId
            3:85 Delimiter }
            3:86 String "
            4:1 Keyword pattern
            4:9 Pattern+decl userWithOrders
            4:24 Attribute userId
            4:35 Entity User
            4:41 Entity Order
            4:51 Keyword query
            4:57 Table App
            4:61 Keyword where
            4:67 Key pk
            4:72 String "
            4:73 TypeTag USER
            4:77 Delimiter #
            4:78 Delimiter {
            4:79 Attribute userId
            4:85 Delimiter }
            4:86 String "
        "#]],
    );
}

#[test]
fn custom_delimiter() {
    check(
        r##"
        table App {
          key pk, sk
          delimiter "::"
        }
        entity User {
          userId: id
          pk = "USER::{userId}"
          sk = "PROFILE::MAIN"
        }
        "##,
        expect![[r#"
            1:1 Keyword table
            1:7 Table+decl App
            2:3 Keyword key
            2:7 Key+decl pk
            2:11 Key+decl sk
            3:3 Keyword delimiter
            3:13 String "
            3:14 Delimiter ::
            3:16 String "
            5:1 Keyword entity
            5:8 Entity+decl User
            6:3 Attribute+decl userId
            6:11 Type id
            7:3 Key pk
            7:8 String "
            7:9 TypeTag USER
            7:13 Delimiter ::
            7:15 Delimiter {
            7:16 Attribute userId
            7:22 Delimiter }
            7:23 String "
            8:3 Key sk
            8:8 String "
            8:9 TypeTag PROFILE
            8:16 Delimiter ::
            8:18 TypeTag MAIN
            8:22 String "
        "#]],
    );
}

#[test]
fn unknown_names_get_no_meaning() {
    // `Group` and `groupId` resolve to nothing: no entity/attribute token.
    check(
        r##"
        table App {
          key pk, sk
        }
        pattern getGroup(groupId) -> Group
        "##,
        expect![[r#"
            1:1 Keyword table
            1:7 Table+decl App
            2:3 Keyword key
            2:7 Key+decl pk
            2:11 Key+decl sk
            4:1 Keyword pattern
            4:9 Pattern+decl getGroup
        "#]],
    );
}

#[test]
fn empty_and_comment_only_files() {
    check(
        "",
        expect![[r#"
        (none)
    "#]],
    );
    check(
        r##"
        // just a comment
        "##,
        expect![[r#"
            1:1 Comment // just a comment
        "#]],
    );
}

#[test]
fn broken_file_still_colours_what_parses() {
    check(
        r##"
        table App {
          key pk, sk
        }
        entity User {
          userId: id
          name: : string
          pk = "USER#{userId}"
          sk = "PROF
        "##,
        expect![[r#"
            1:1 Keyword table
            1:7 Table+decl App
            2:3 Keyword key
            2:7 Key+decl pk
            2:11 Key+decl sk
            4:1 Keyword entity
            4:8 Entity+decl User
            5:3 Attribute+decl userId
            5:11 Type id
            7:3 Key pk
            7:8 String "
            7:9 TypeTag USER
            7:13 Delimiter #
            7:14 Delimiter {
            7:15 Attribute userId
            7:21 Delimiter }
            7:22 String "
            8:3 Key sk
            8:8 String "
            8:9 TypeTag PROF
        "#]],
    );
}

#[test]
fn quoted_names_are_names_not_strings() {
    check(
        r##"
        table "orders-prod.v2" {
          key "PK", "State#Date"
        }
        entity OrderState in "orders-prod.v2" {
          orderId: id
          "State#Date": date
          "PK" = "ORDER#{orderId}"
        }
        pattern history(orderId) -> OrderState[] by "State#Date"
        pattern typo(orderId) -> OrderState[] by "State#Dat"
        "##,
        expect![[r#"
            1:1 Keyword table
            1:7 Table+decl "orders-prod.v2"
            2:3 Keyword key
            2:7 Key+decl "PK"
            2:13 Key+decl "State#Date"
            4:1 Keyword entity
            4:8 Entity+decl OrderState
            4:19 Keyword in
            4:22 Table "orders-prod.v2"
            5:3 Attribute+decl orderId
            5:12 Type id
            6:3 Attribute+decl "State#Date"
            6:17 Type date
            7:3 Key "PK"
            7:10 String "
            7:11 TypeTag ORDER
            7:16 Delimiter #
            7:17 Delimiter {
            7:18 Attribute orderId
            7:25 Delimiter }
            7:26 String "
            9:1 Keyword pattern
            9:9 Pattern+decl history
            9:17 Attribute orderId
            9:29 Entity OrderState
            9:42 Keyword by
            9:45 Attribute "State#Date"
            10:1 Keyword pattern
            10:9 Pattern+decl typo
            10:14 Attribute orderId
            10:26 Entity OrderState
            10:39 Keyword by
        "#]],
    );
}

#[test]
fn shards_and_rate_hints() {
    check(
        r##"
        table Games { key pk }
        entity Score ~2500/s {
          userId: id
          bucket: shard(4, of userId)
          kind: enum(of)
          pk = "{bucket}"
        }
        pattern top(bucket) -> Score limit 1 ~ 20.5/s
        pattern spread(bucket) -> Score ~7
          /s
        "##,
        expect![[r#"
            1:1 Keyword table
            1:7 Table+decl Games
            1:15 Keyword key
            1:19 Key+decl pk
            2:1 Keyword entity
            2:8 Entity+decl Score
            2:15 Number 2500/s
            3:3 Attribute+decl userId
            3:11 Type id
            4:3 Attribute+decl bucket
            4:11 Type shard
            4:17 Number 4
            4:20 Keyword of
            4:23 Attribute userId
            5:3 Attribute+decl kind
            5:9 Type enum
            6:3 Key pk
            6:8 String "
            6:9 Delimiter {
            6:10 Attribute bucket
            6:16 Delimiter }
            6:17 String "
            8:1 Keyword pattern
            8:9 Pattern+decl top
            8:13 Attribute bucket
            8:24 Entity Score
            8:30 Keyword limit
            8:36 Number 1
            8:40 Number 20.5/s
            9:1 Keyword pattern
            9:9 Pattern+decl spread
            9:16 Attribute bucket
            9:27 Entity Score
            9:34 Number 7
        "#]],
    );
}

/// `tokens_in` for a range is what `tokens` has on the lines the range
/// touches: checked on every line, and on runs of lines starting and ending
/// mid-line, of the examples, the quoted-name schema and a broken text.
#[test]
fn range_tokens_are_the_full_tokens_of_the_lines_touched() {
    use dyno::ide::semantic_tokens::tokens_in;
    use dyno::syntax::Span;
    let broken = include_str!("../examples/billing.dyno")
        .replacen("}\n", "\n", 2)
        .replace("sk = \"META\"", "sk = \"META\r\n  \"{")
        .replace("-> Invoice[] by dueDate", "-> Invoice[ by {{ dueDate \r ->");
    let texts = [
        include_str!("../examples/billing.dyno").to_string(),
        cursor::QUOTED_NAMES.to_string(),
        broken,
    ];
    for text in texts {
        let file = File::new(text.clone());
        let all = tokens(&file);
        let mut starts: Vec<usize> = vec![0];
        let bytes = text.as_bytes();
        for (i, &b) in bytes.iter().enumerate() {
            if b == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
                continue;
            }
            if b == b'\n' || b == b'\r' {
                starts.push(i + 1);
            }
        }
        let line_end = |line: usize| {
            let end = starts.get(line + 1).map_or(text.len(), |&s| s);
            text[..end].trim_end_matches(['\n', '\r']).len().max(starts[line])
        };
        for first in 0..starts.len() {
            for lines in [0, 2] {
                let last = (first + lines).min(starts.len() - 1);
                let (from, to) = (starts[first], line_end(last));
                let expected: Vec<_> = all
                    .iter()
                    .filter(|t| t.span.start() >= from && t.span.end() <= to)
                    .copied()
                    .collect();
                // The whole lines, and a range from mid-line to mid-line.
                let mid = |a: usize, b: usize| a + (b - a) / 2;
                for range in [
                    Span::new(from, to),
                    Span::new(mid(from, line_end(first)), mid(starts[last], to)),
                ] {
                    assert_eq!(
                        tokens_in(&file, range),
                        expected,
                        "lines {first}..={last}, range {range:?}:\n{}",
                        &text[from..to]
                    );
                }
            }
        }
    }
}
