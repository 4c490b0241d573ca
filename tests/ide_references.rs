//! Find-references fixtures: `$0` marks the cursor; the snapshot is the file
//! with every reference marked `«…»` (declarations included unless a test
//! says otherwise).

mod common;

use common::cursor;
use dyno::ide::{File, references::references};
use expect_test::{Expect, expect};

fn check(fixture: &str, expected: Expect) {
    check_with(fixture, true, expected);
}

fn check_with(fixture: &str, include_declaration: bool, expected: Expect) {
    let (text, offset) = cursor::cursor(fixture);
    let file = File::new(text);
    let found: Vec<_> = references(&file, offset, include_declaration)
        .into_iter()
        .map(|at| at.span)
        .collect();
    let actual = if found.is_empty() {
        "(none)\n".to_string()
    } else {
        cursor::mark(&file.text, &found)
    };
    expected.assert_eq(&actual);
}

#[test]
fn entity() {
    check(
        r##"
        table App {
          key pk, sk
        }
        entity Us$0er {
          userId: id
          pk = "USER#{userId}"
          sk = "PROFILE"
        }
        entity Order {
          userId: id
          orderId: ulid
          pk = "USER#{userId}"
          sk = "ORDER#{orderId}"
        }
        pattern getUser(userId) -> User
        pattern userWithOrders(userId) -> User, Order[]
        "##,
        expect![[r#"
            table App {
              key pk, sk
            }
            entity «User» {
              userId: id
              pk = "USER#{userId}"
              sk = "PROFILE"
            }
            entity Order {
              userId: id
              orderId: ulid
              pk = "USER#{userId}"
              sk = "ORDER#{orderId}"
            }
            pattern getUser(userId) -> «User»
            pattern userWithOrders(userId) -> «User», Order[]
        "#]],
    );
}

#[test]
fn entity_without_declaration() {
    check_with(
        r##"
        table App {
          key pk, sk
        }
        entity User {
          userId: id
          pk = "USER#{userId}"
          sk = "PROFILE"
        }
        pattern getUser(userId) -> Us$0er
        pattern everyone(userId) -> User[]
        "##,
        false,
        expect![[r#"
            table App {
              key pk, sk
            }
            entity User {
              userId: id
              pk = "USER#{userId}"
              sk = "PROFILE"
            }
            pattern getUser(userId) -> «User»
            pattern everyone(userId) -> «User»[]
        "#]],
    );
}

#[test]
fn attribute_with_its_holes() {
    check(
        r##"
        table App {
          key pk, sk
          index gsi1 (gsi1pk, gsi1sk)
        }
        entity User {
          user$0Id: id
          groupId: id
          pk = "USER#{userId}"
          sk = "PROFILE"
          gsi1pk = "GROUP#{groupId}"
          gsi1sk = "USER#{userId}"
        }
        entity Order {
          userId: id
          orderId: ulid
          pk = "USER#{userId}"
          sk = "ORDER#{orderId}"
        }
        pattern getUser(userId) -> User
        pattern orders(userId) -> Order[]
        "##,
        expect![[r#"
            table App {
              key pk, sk
              index gsi1 (gsi1pk, gsi1sk)
            }
            entity User {
              «userId»: id
              groupId: id
              pk = "USER#{«userId»}"
              sk = "PROFILE"
              gsi1pk = "GROUP#{groupId}"
              gsi1sk = "USER#{«userId»}"
            }
            entity Order {
              userId: id
              orderId: ulid
              pk = "USER#{userId}"
              sk = "ORDER#{orderId}"
            }
            pattern getUser(«userId») -> User
            pattern orders(userId) -> Order[]
        "#]],
    );
}

#[test]
fn attribute_bound_by_a_pattern_returning_several_entities() {
    // `userId` in the pattern binds `userId` of both entities, so it is a
    // reference to `Order.userId` as much as to `User.userId`.
    check(
        r##"
        table App {
          key pk, sk
        }
        entity User {
          userId: id
          pk = "USER#{userId}"
          sk = "PROFILE"
        }
        entity Order {
          user$0Id: id
          orderId: ulid
          pk = "USER#{userId}"
          sk = "ORDER#{orderId}"
        }
        pattern userWithOrders(userId) -> User, Order[] =
          query App where pk = "USER#{userId}"
        "##,
        expect![[r#"
            table App {
              key pk, sk
            }
            entity User {
              userId: id
              pk = "USER#{userId}"
              sk = "PROFILE"
            }
            entity Order {
              «userId»: id
              orderId: ulid
              pk = "USER#{«userId»}"
              sk = "ORDER#{orderId}"
            }
            pattern userWithOrders(«userId») -> User, Order[] =
              query App where pk = "USER#{«userId»}"
        "#]],
    );
}

#[test]
fn attribute_from_a_hole() {
    check(
        r##"
        table App {
          key pk, sk
        }
        entity Event {
          userId: id
          at: datetime
          pk = "USER#{userId}"
          sk = "EVENT#{a$0t}"
        }
        pattern eventsSince(userId, at >= since) -> Event[] by at desc
        "##,
        expect![[r#"
            table App {
              key pk, sk
            }
            entity Event {
              userId: id
              «at»: datetime
              pk = "USER#{userId}"
              sk = "EVENT#{«at»}"
            }
            pattern eventsSince(userId, «at» >= since) -> Event[] by «at» desc
        "#]],
    );
}

#[test]
fn index() {
    check(
        r##"
        table App {
          key pk, sk
          index gs$0i1 (gsi1pk, gsi1sk)
        }
        entity Order {
          userId: id
          orderId: ulid
          status: enum(open, paid)
          pk = "USER#{userId}"
          sk = "ORDER#{orderId}"
          gsi1pk = "STATUS#{status}"
          gsi1sk = "ORDER#{orderId}"
        }
        pattern open(status = "open") -> Order[] =
          query App.gsi1 where gsi1pk = "STATUS#open"
        "##,
        expect![[r#"
            table App {
              key pk, sk
              index «gsi1» (gsi1pk, gsi1sk)
            }
            entity Order {
              userId: id
              orderId: ulid
              status: enum(open, paid)
              pk = "USER#{userId}"
              sk = "ORDER#{orderId}"
              gsi1pk = "STATUS#{status}"
              gsi1sk = "ORDER#{orderId}"
            }
            pattern open(status = "open") -> Order[] =
              query App.«gsi1» where gsi1pk = "STATUS#open"
        "#]],
    );
}

#[test]
fn key() {
    check(
        r##"
        table App {
          key pk, sk
        }
        entity User {
          userId: id
          pk = "USER#{userId}"
          s$0k = "PROFILE"
        }
        entity Order {
          userId: id
          orderId: ulid
          pk = "USER#{userId}"
          sk = "ORDER#{orderId}"
        }
        pattern orders(userId) -> Order[] =
          query App where pk = "USER#{userId}" and begins_with(sk, "ORDER#")
        "##,
        expect![[r#"
            table App {
              key pk, «sk»
            }
            entity User {
              userId: id
              pk = "USER#{userId}"
              «sk» = "PROFILE"
            }
            entity Order {
              userId: id
              orderId: ulid
              pk = "USER#{userId}"
              «sk» = "ORDER#{orderId}"
            }
            pattern orders(userId) -> Order[] =
              query App where pk = "USER#{userId}" and begins_with(«sk», "ORDER#")
        "#]],
    );
}

#[test]
fn type_tag() {
    check(
        r##"
        table App {
          key pk, sk
        }
        entity User {
          userId: id
          pk = "US$0ER#{userId}"
          sk = "USER"
        }
        entity Group {
          groupId: id
          userId: id
          pk = "USERGROUP#{groupId}"
          sk = "MEMBER#USER#{userId}"
        }
        pattern user(userId) -> User =
          query App where pk = "USER#{userId}" and sk = "USER"
        "##,
        expect![[r#"
            table App {
              key pk, sk
            }
            entity User {
              userId: id
              pk = "«USER»#{userId}"
              sk = "«USER»"
            }
            entity Group {
              groupId: id
              userId: id
              pk = "USERGROUP#{groupId}"
              sk = "MEMBER#«USER»#{userId}"
            }
            pattern user(userId) -> User =
              query App where pk = "«USER»#{userId}" and sk = "«USER»"
        "#]],
    );
}

#[test]
fn pattern() {
    check(
        r##"
        table App {
          key pk, sk
        }
        entity User {
          userId: id
          pk = "USER#{userId}"
          sk = "PROFILE"
        }
        pattern get$0User(userId) -> User
        "##,
        expect![[r#"
            table App {
              key pk, sk
            }
            entity User {
              userId: id
              pk = "USER#{userId}"
              sk = "PROFILE"
            }
            pattern «getUser»(userId) -> User
        "#]],
    );
}

#[test]
fn range_bound_value() {
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
        pattern eventsSince(userId, at >= sin$0ce) -> Event[] =
          query App where pk = "USER#{userId}" and sk >= since
        "##,
        expect![[r#"
            table App {
              key pk, sk
            }
            entity Event {
              userId: id
              at: datetime
              pk = "USER#{userId}"
              sk = "EVENT#{at}"
            }
            pattern eventsSince(userId, at >= «since») -> Event[] =
              query App where pk = "USER#{userId}" and sk >= «since»
        "#]],
    );
}

#[test]
fn nothing_on_whitespace_comments_or_unknown_names() {
    check(
        r##"
        table App {
          key pk, sk
        }
        // User$0 is declared below
        entity User {
          userId: id
          pk = "USER#{userId}"
          sk = "PROFILE"
        }
        "##,
        expect![[r#"
            (none)
        "#]],
    );
    check(
        r##"
        table App {
          key pk, sk
        }
        entity User {
          userId: id
          pk = "USER#{userId}"
          sk = "PROFILE"
        }
        $0
        pattern getGroup(groupId) -> Group
        "##,
        expect![[r#"
            (none)
        "#]],
    );
    check(
        r##"
        table App {
          key pk, sk
        }
        pattern getGroup(groupId) -> Gro$0up
        "##,
        expect![[r#"
            (none)
        "#]],
    );
}

#[test]
fn broken_file_still_finds_what_parses() {
    check(
        r##"
        table App {
          key pk, sk
        }
        entity Us$0er {
          userId: id
          pk = "USER#{userId}"
          sk = "PROFILE"
        }
        entity Broken {
          name: : string
          pk = "BROKEN#{
        }
        pattern getUser(userId) -> User
        "##,
        expect![[r#"
            table App {
              key pk, sk
            }
            entity «User» {
              userId: id
              pk = "USER#{userId}"
              sk = "PROFILE"
            }
            entity Broken {
              name: : string
              pk = "BROKEN#{
            }
            pattern getUser(userId) -> «User»
        "#]],
    );
}

// ---------- quoted names ----------

fn quoted_at(at: &str, cursor_after: &str) -> String {
    cursor::in_quoted_names(at, cursor_after)
}

#[test]
fn quoted_key_everywhere_it_is_written() {
    check(
        &quoted_at("\"GSI1-PK\", \"GSI1-SK\")", "\"G"),
        expect![[r#"
        // A design as real tables name things: a table called `orders-prod.v2`,
        // index keys `GSI1-PK`/`GSI1-SK`, an attribute `State#Date`. Quoted names
        // check like identifiers; `"PK"` here is the same key as `PK`.
        table "orders-prod.v2" {
          key PK, "SK"
          index "GSI-1" («"GSI1-PK"», "GSI1-SK")
          index "by-state" («"GSI1-PK"», "State#Date")
        }

        entity Customer in "orders-prod.v2" {
          customerId: id
          name: string
          "PK" = "CUSTOMER#{customerId}"
          SK   = "PROFILE"
        }

        entity Order in "orders-prod.v2" {
          orderId: id
          customerId: id
          "State#Date": date
          "Order.Total": decimal
          "PK"      = "ORDER#{orderId}"
          "SK"      = "ORDER"
          «"GSI1-PK"» = "CUSTOMER#{customerId}"
          "GSI1-SK" = "ORDER#{orderId}"
        }

        /// A customer's profile.
        pattern getCustomer(customerId) -> Customer

        /// One order.
        pattern getOrder(orderId) -> Order

        /// A customer's orders, the latest state first.
        pattern ordersByState(customerId) -> Order[] by "State#Date" desc

        /// A customer's orders in one state range.
        pattern ordersSince(customerId, "State#Date" >= since) -> Order[]

        /// The same orders, with the Query written out.
        pattern ordersPinned(customerId) -> Order[] =
          query "orders-prod.v2"."GSI-1" where «"GSI1-PK"» = "CUSTOMER#{customerId}" and begins_with("GSI1-SK", "ORDER#")
    "#]],
    );
}

#[test]
fn attribute_references_include_a_shard_source() {
    check(
        r##"
        table Games {
          key pk, sk
        }
        entity Score {
          user$0Id: id
          bucket: shard(4, of userId)
          pk = "SCORE#{bucket}"
          sk = "USER#{userId}"
        }
        "##,
        expect![[r#"
            table Games {
              key pk, sk
            }
            entity Score {
              «userId»: id
              bucket: shard(4, of «userId»)
              pk = "SCORE#{bucket}"
              sk = "USER#{«userId»}"
            }
        "#]],
    );
}
