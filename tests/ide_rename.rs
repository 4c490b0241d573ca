//! Rename fixtures: `$0` marks the cursor. `prepare` snapshots show the
//! range that would be renamed; `rename` snapshots show the whole file
//! after the edits (or the error), so what did *not* change is checked too.

mod common;

use common::cursor;
use dyno::ide::File;
use dyno::ide::rename::{prepare, rename};
use expect_test::{Expect, expect};

fn check_prepare(fixture: &str, expected: Expect) {
    let (text, offset) = cursor::cursor(fixture);
    let file = File::new(text);
    let actual = match prepare(&file, offset) {
        Some(span) => cursor::spans(&file.text, &[span]),
        None => "(none)\n".into(),
    };
    expected.assert_eq(&actual);
}

fn check(fixture: &str, new_name: &str, expected: Expect) {
    let (text, offset) = cursor::cursor(fixture);
    let file = File::new(text);
    let actual = match rename(&file, offset, new_name) {
        Ok(edits) => {
            let renamed = cursor::apply_fix(&file.text, &edits);
            // A rename leaves a file that checks the same way.
            let codes = |a: &dyno::check::Analysis| a.diagnostics().iter().map(|d| d.code).collect::<Vec<_>>();
            assert_eq!(
                codes(&file.analysis),
                codes(&File::new(renamed.clone()).analysis),
                "the rename changed the diagnostics:\n{renamed}"
            );
            format!("{} edits\n{renamed}", edits.len())
        }
        Err(message) => format!("error: {message}\n"),
    };
    expected.assert_eq(&actual);
}

#[test]
fn prepare_on_names() {
    check_prepare(
        r##"
        table App {
          key pk, sk
        }
        entity User {
          userId: id
          pk = "USER#{user$0Id}"
          sk = "PROFILE"
        }
        "##,
        expect![[r#"
            6:15 userId
        "#]],
    );
    check_prepare(
        r##"
        table App {
          key pk, sk
        }
        entity User {
          userId: id
          pk = "US$0ER#{userId}"
          sk = "PROFILE"
        }
        "##,
        expect![[r#"
            6:9 USER
        "#]],
    );
}

#[test]
fn prepare_refuses_whitespace_comments_and_keywords() {
    check_prepare(
        r##"
        // rename $0User
        table App {
          key pk, sk
        }
        "##,
        expect![[r#"
            (none)
        "#]],
    );
    check_prepare(
        r##"
        tab$0le App {
          key pk, sk
        }
        "##,
        expect![[r#"
            (none)
        "#]],
    );
    check_prepare(
        r##"
        table App {
          key pk, sk
        }
        entity User {
          userId: $0id
          pk = "USER#{userId}"
          sk = "PROFILE"
        }
        "##,
        expect![[r#"
            (none)
        "#]],
    );
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
        pattern getUser(userId) -> User
        pattern all(userId) -> User[]
        "##,
        "Person",
        expect![[r#"
            3 edits
            table App {
              key pk, sk
            }
            entity Person {
              userId: id
              pk = "USER#{userId}"
              sk = "PROFILE"
            }
            pattern getUser(userId) -> Person
            pattern all(userId) -> Person[]
        "#]],
    );
}

#[test]
fn attribute_and_its_holes() {
    check(
        r##"
        table App {
          key pk, sk
          index gsi1 (gsi1pk, gsi1sk)
        }
        entity User {
          userId: id
          groupId: id
          pk = "USER#{userId}"
          sk = "PROFILE"
          gsi1pk = "GROUP#{groupId}"
          gsi1sk = "USER#{user$0Id}"
        }
        entity Order {
          userId: id
          orderId: ulid
          pk = "USER#{userId}"
          sk = "ORDER#{orderId}"
        }
        pattern getUser(userId) -> User
        pattern pinned(userId) -> User =
          query App where pk = "USER#{userId}" and sk = "PROFILE"
        "##,
        "uid",
        expect![[r#"
            6 edits
            table App {
              key pk, sk
              index gsi1 (gsi1pk, gsi1sk)
            }
            entity User {
              uid: id
              groupId: id
              pk = "USER#{uid}"
              sk = "PROFILE"
              gsi1pk = "GROUP#{groupId}"
              gsi1sk = "USER#{uid}"
            }
            entity Order {
              userId: id
              orderId: ulid
              pk = "USER#{userId}"
              sk = "ORDER#{orderId}"
            }
            pattern getUser(uid) -> User
            pattern pinned(uid) -> User =
              query App where pk = "USER#{uid}" and sk = "PROFILE"
        "#]],
    );
}

#[test]
fn attribute_bound_by_a_pattern_returning_several_entities() {
    // `userWithOrders(userId)` binds `userId` in both entities: renaming one
    // renames the other too, or the pattern would lose its key.
    check(
        r##"
        table App {
          key pk, sk
        }
        entity User {
          user$0Id: id
          pk = "USER#{userId}"
          sk = "PROFILE"
        }
        entity Order {
          userId: id
          orderId: ulid
          pk = "USER#{userId}"
          sk = "ORDER#{orderId}"
        }
        entity Group {
          groupId: id
          userId: id
          pk = "GROUP#{groupId}"
          sk = "MEMBER#{userId}"
        }
        pattern userWithOrders(userId) -> User, Order[]
        pattern members(groupId) -> Group[]
        "##,
        "uid",
        expect![[r#"
            5 edits
            table App {
              key pk, sk
            }
            entity User {
              uid: id
              pk = "USER#{uid}"
              sk = "PROFILE"
            }
            entity Order {
              uid: id
              orderId: ulid
              pk = "USER#{uid}"
              sk = "ORDER#{orderId}"
            }
            entity Group {
              groupId: id
              userId: id
              pk = "GROUP#{groupId}"
              sk = "MEMBER#{userId}"
            }
            pattern userWithOrders(uid) -> User, Order[]
            pattern members(groupId) -> Group[]
        "#]],
    );
}

#[test]
fn names_already_taken_are_refused() {
    let schema = r##"
        table App {
          key pk, sk
          index gsi1 (gsi1pk, gsi1sk)
          index gsi2 (gsi2pk, gsi2sk)
        }
        entity User {
          userId: id
          email: string
          pk = "USER#{userId}"
          sk = "PROFILE"
        }
        entity Event {
          userId: id
          at: datetime
          pk = "USER#{userId}"
          sk = "EVENT#{at}"
        }
        pattern getUser(userId) -> User
        pattern eventsSince(userId, at >= from) -> Event[]
        "##;
    // The schema with the cursor where `$0` stands in `needle`.
    let at = |needle: &str| {
        let plain = needle.replace("$0", "");
        assert_eq!(schema.matches(&plain).count(), 1, "`{plain}` is not unique");
        schema.replacen(&plain, needle, 1)
    };
    check(
        &at("entity Us$0er"),
        "Event",
        expect![[r#"
        error: `Event` is already an entity
    "#]],
    );
    check(
        &at("em$0ail"),
        "userId",
        expect![[r#"
        error: `userId` is already an attribute of this entity
    "#]],
    );
    check(
        &at("gs$0i2 ("),
        "gsi1",
        expect![[r#"
        error: `gsi1` is already an index of this table
    "#]],
    );
    check(
        &at("key pk, s$0k"),
        "pk",
        expect![[r#"
        error: `pk` is already a key of this table
    "#]],
    );
    check(
        &at("get$0User("),
        "since",
        expect![[r#"
        1 edits
        table App {
          key pk, sk
          index gsi1 (gsi1pk, gsi1sk)
          index gsi2 (gsi2pk, gsi2sk)
        }
        entity User {
          userId: id
          email: string
          pk = "USER#{userId}"
          sk = "PROFILE"
        }
        entity Event {
          userId: id
          at: datetime
          pk = "USER#{userId}"
          sk = "EVENT#{at}"
        }
        pattern since(userId) -> User
        pattern eventsSince(userId, at >= from) -> Event[]
    "#]],
    );
    check(
        &at("fr$0om"),
        "at",
        expect![[r#"
        error: `at` is already an attribute this pattern returns
    "#]],
    );
    check(
        &at("a$0t: datetime"),
        "from",
        expect![[r#"
        error: `from` is already a value of a pattern returning this entity
    "#]],
    );
    check(
        &at("PRO$0FILE"),
        "EVENT",
        expect![[r#"
        error: `EVENT` is already a type tag of this table
    "#]],
    );
    check(
        &at("entity Us$0er"),
        "table",
        expect![[r#"
            error: `table` is a keyword, and an entity name must be an identifier (only the names of tables, indexes, keys and attributes can be quoted)
        "#]],
    );
    // A table may be called `table`: quoted, it is an ordinary name.
    check(
        &at("A$0pp"),
        "table",
        expect![[r#"
            1 edits
            table "table" {
              key pk, sk
              index gsi1 (gsi1pk, gsi1sk)
              index gsi2 (gsi2pk, gsi2sk)
            }
            entity User {
              userId: id
              email: string
              pk = "USER#{userId}"
              sk = "PROFILE"
            }
            entity Event {
              userId: id
              at: datetime
              pk = "USER#{userId}"
              sk = "EVENT#{at}"
            }
            pattern getUser(userId) -> User
            pattern eventsSince(userId, at >= from) -> Event[]
        "#]],
    );
    // The same name in another scope is fine: `Event` has no `email`.
    check(
        &at("a$0t: datetime"),
        "email",
        expect![[r#"
        3 edits
        table App {
          key pk, sk
          index gsi1 (gsi1pk, gsi1sk)
          index gsi2 (gsi2pk, gsi2sk)
        }
        entity User {
          userId: id
          email: string
          pk = "USER#{userId}"
          sk = "PROFILE"
        }
        entity Event {
          userId: id
          email: datetime
          pk = "USER#{userId}"
          sk = "EVENT#{email}"
        }
        pattern getUser(userId) -> User
        pattern eventsSince(userId, email >= from) -> Event[]
    "#]],
    );
}

#[test]
fn index() {
    check(
        r##"
        table App {
          key pk, sk
          index gsi1 (gsi1pk, gsi1sk)
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
          query App.gs$0i1 where gsi1pk = "STATUS#open"
        "##,
        "byStatus",
        expect![[r#"
            2 edits
            table App {
              key pk, sk
              index byStatus (gsi1pk, gsi1sk)
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
              query App.byStatus where gsi1pk = "STATUS#open"
        "#]],
    );
}

#[test]
fn type_tag_everywhere_it_is_used_and_nowhere_else() {
    check(
        r##"
        table App {
          key pk, sk
          index gsi1 (gsi1pk, gsi1sk)
        }
        entity User {
          userId: id
          pk = "US$0ER#{userId}"
          sk = "USER"
          gsi1pk = "ALL#USER"
          gsi1sk = "USER#{userId}"
        }
        entity Group {
          groupId: id
          userId: id
          pk = "USERGROUP#{groupId}"
          sk = "MEMBER#USER#{userId}"
        }
        // USER in a comment stays
        pattern user(userId) -> User =
          query App where pk = "USER#{userId}" and sk = "USER"
        pattern groupUsers(groupId) -> Group[] =
          query App where pk = "USERGROUP#{groupId}" and begins_with(sk, "MEMBER#USER#")
        "##,
        "USR",
        expect![[r#"
            8 edits
            table App {
              key pk, sk
              index gsi1 (gsi1pk, gsi1sk)
            }
            entity User {
              userId: id
              pk = "USR#{userId}"
              sk = "USR"
              gsi1pk = "ALL#USR"
              gsi1sk = "USR#{userId}"
            }
            entity Group {
              groupId: id
              userId: id
              pk = "USERGROUP#{groupId}"
              sk = "MEMBER#USR#{userId}"
            }
            // USER in a comment stays
            pattern user(userId) -> User =
              query App where pk = "USR#{userId}" and sk = "USR"
            pattern groupUsers(groupId) -> Group[] =
              query App where pk = "USERGROUP#{groupId}" and begins_with(sk, "MEMBER#USR#")
        "#]],
    );
}

#[test]
fn type_tag_is_per_table() {
    check(
        r##"
        table A {
          key pk, sk
        }
        table B {
          key pk, sk
        }
        entity UserA in A {
          userId: id
          pk = "USER#{userId}"
          sk = "US$0ER"
        }
        entity UserB in B {
          userId: id
          pk = "USER#{userId}"
          sk = "USER"
        }
        "##,
        "USR",
        expect![[r#"
            2 edits
            table A {
              key pk, sk
            }
            table B {
              key pk, sk
            }
            entity UserA in A {
              userId: id
              pk = "USR#{userId}"
              sk = "USR"
            }
            entity UserB in B {
              userId: id
              pk = "USER#{userId}"
              sk = "USER"
            }
        "#]],
    );
}

#[test]
fn pattern_and_value() {
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
        "from",
        expect![[r#"
            2 edits
            table App {
              key pk, sk
            }
            entity Event {
              userId: id
              at: datetime
              pk = "USER#{userId}"
              sk = "EVENT#{at}"
            }
            pattern eventsSince(userId, at >= from) -> Event[] =
              query App where pk = "USER#{userId}" and sk >= from
        "#]],
    );
}

#[test]
fn invalid_names_are_refused() {
    let user = r##"
        table App {
          key pk, sk
        }
        entity Us$0er {
          userId: id
          pk = "USER#{userId}"
          sk = "PROFILE"
        }
        "##;
    check(
        user,
        "",
        expect![[r#"
            error: a name cannot be empty
        "#]],
    );
    check(
        user,
        "two words",
        expect![[r#"
            error: `two words` is not an identifier, and an entity name must be an identifier (only the names of tables, indexes, keys and attributes can be quoted)
        "#]],
    );
    check(
        user,
        "9lives",
        expect![[r#"
            error: `9lives` is not an identifier, and an entity name must be an identifier (only the names of tables, indexes, keys and attributes can be quoted)
        "#]],
    );
    check(
        user,
        "a-b",
        expect![[r#"
            error: `a-b` is not an identifier, and an entity name must be an identifier (only the names of tables, indexes, keys and attributes can be quoted)
        "#]],
    );
    let tag = r##"
        table App {
          key pk, sk
        }
        entity User {
          userId: id
          pk = "US$0ER#{userId}"
          sk = "PROFILE"
        }
        "##;
    check(
        tag,
        "",
        expect![[r#"
            error: a type tag is one word of literal text: not empty, and no `#`, quotes, braces or backslashes
        "#]],
    );
    check(
        tag,
        "US#ER",
        expect![[r#"
            error: a type tag is one word of literal text: not empty, and no `#`, quotes, braces or backslashes
        "#]],
    );
    check(
        tag,
        "US\"R",
        expect![[r#"
            error: a type tag is one word of literal text: not empty, and no `#`, quotes, braces or backslashes
        "#]],
    );
    check(
        tag,
        "U\\R",
        expect![[r#"
            error: a type tag is one word of literal text: not empty, and no `#`, quotes, braces or backslashes
        "#]],
    );
    check(
        tag,
        "U{R",
        expect![[r#"
            error: a type tag is one word of literal text: not empty, and no `#`, quotes, braces or backslashes
        "#]],
    );
}

#[test]
fn tag_must_stay_one_word_with_a_long_delimiter() {
    let tag = r##"
        table App {
          key pk, sk
          delimiter "::"
        }
        entity User {
          userId: id
          pk = "US$0ER::{userId}"
          sk = "PROFILE"
        }
        "##;
    check(
        tag,
        "A:",
        expect![[r#"
            error: a type tag is one word of literal text: not empty, and no `::`, quotes, braces or backslashes
        "#]],
    );
    check(
        tag,
        ":A",
        expect![[r#"
        1 edits
        table App {
          key pk, sk
          delimiter "::"
        }
        entity User {
          userId: id
          pk = ":A::{userId}"
          sk = "PROFILE"
        }
    "#]],
    );
    check(
        tag,
        "A:B",
        expect![[r#"
        1 edits
        table App {
          key pk, sk
          delimiter "::"
        }
        entity User {
          userId: id
          pk = "A:B::{userId}"
          sk = "PROFILE"
        }
    "#]],
    );
}

#[test]
fn nothing_to_rename() {
    check(
        r##"
        table App {
          key pk, sk
        }
        $0
        "##,
        "x",
        expect![[r#"
            error: there is nothing to rename here
        "#]],
    );
    check(
        r##"
        table App {
          key pk, sk
        }
        pattern getGroup(groupId) -> Gr$0oup
        "##,
        "Team",
        expect![[r#"
            error: there is nothing to rename here
        "#]],
    );
}

#[test]
fn broken_file_still_renames_what_parses() {
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
        "Person",
        expect![[r#"
            2 edits
            table App {
              key pk, sk
            }
            entity Person {
              userId: id
              pk = "USER#{userId}"
              sk = "PROFILE"
            }
            entity Broken {
              name: : string
              pk = "BROKEN#{
            }
            pattern getUser(userId) -> Person
        "#]],
    );
}

// ---------- quoted names ----------

fn quoted_at(at: &str, cursor_after: &str) -> String {
    cursor::in_quoted_names(at, cursor_after)
}

#[test]
fn quoted_names() {
    // The whole quoted token is the name.
    check_prepare(
        &quoted_at("\"GSI1-SK\" = \"ORDER", "\"GS"),
        expect![[r#"
        25:3 "GSI1-SK"
    "#]],
    );
    // Any new name that is not an identifier is written quoted...
    check(
        &quoted_at("\"GSI1-SK\" = \"ORDER", "\"GS"),
        "GSI1-SK.v2",
        expect![[r#"
        3 edits
        // A design as real tables name things: a table called `orders-prod.v2`,
        // index keys `GSI1-PK`/`GSI1-SK`, an attribute `State#Date`. Quoted names
        // check like identifiers; `"PK"` here is the same key as `PK`.
        table "orders-prod.v2" {
          key PK, "SK"
          index "GSI-1" ("GSI1-PK", "GSI1-SK.v2")
          index "by-state" ("GSI1-PK", "State#Date")
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
          "GSI1-PK" = "CUSTOMER#{customerId}"
          "GSI1-SK.v2" = "ORDER#{orderId}"
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
          query "orders-prod.v2"."GSI-1" where "GSI1-PK" = "CUSTOMER#{customerId}" and begins_with("GSI1-SK.v2", "ORDER#")
    "#]],
    );
    // ...and one that is, bare.
    check(
        &quoted_at("\"Order.Total\": decimal", "\"Or"),
        "total",
        expect![[r#"
        1 edits
        // A design as real tables name things: a table called `orders-prod.v2`,
        // index keys `GSI1-PK`/`GSI1-SK`, an attribute `State#Date`. Quoted names
        // check like identifiers; `"PK"` here is the same key as `PK`.
        table "orders-prod.v2" {
          key PK, "SK"
          index "GSI-1" ("GSI1-PK", "GSI1-SK")
          index "by-state" ("GSI1-PK", "State#Date")
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
          total: decimal
          "PK"      = "ORDER#{orderId}"
          "SK"      = "ORDER"
          "GSI1-PK" = "CUSTOMER#{customerId}"
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
          query "orders-prod.v2"."GSI-1" where "GSI1-PK" = "CUSTOMER#{customerId}" and begins_with("GSI1-SK", "ORDER#")
    "#]],
    );
    // The new name as the editor offers it, quotes kept: the name it spells.
    check(
        &quoted_at("\"Order.Total\": decimal", "\"Or"),
        "\"Order-Total\"",
        expect![[r#"
        1 edits
        // A design as real tables name things: a table called `orders-prod.v2`,
        // index keys `GSI1-PK`/`GSI1-SK`, an attribute `State#Date`. Quoted names
        // check like identifiers; `"PK"` here is the same key as `PK`.
        table "orders-prod.v2" {
          key PK, "SK"
          index "GSI-1" ("GSI1-PK", "GSI1-SK")
          index "by-state" ("GSI1-PK", "State#Date")
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
          "Order-Total": decimal
          "PK"      = "ORDER#{orderId}"
          "SK"      = "ORDER"
          "GSI1-PK" = "CUSTOMER#{customerId}"
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
          query "orders-prod.v2"."GSI-1" where "GSI1-PK" = "CUSTOMER#{customerId}" and begins_with("GSI1-SK", "ORDER#")
    "#]],
    );
    // A table: its declaration, each entity's `in` and the pinned query.
    check(
        &quoted_at("table \"orders-prod.v2\"", "table \"ord"),
        "orders-prod.v3",
        expect![[r#"
        4 edits
        // A design as real tables name things: a table called `orders-prod.v2`,
        // index keys `GSI1-PK`/`GSI1-SK`, an attribute `State#Date`. Quoted names
        // check like identifiers; `"PK"` here is the same key as `PK`.
        table "orders-prod.v3" {
          key PK, "SK"
          index "GSI-1" ("GSI1-PK", "GSI1-SK")
          index "by-state" ("GSI1-PK", "State#Date")
        }

        entity Customer in "orders-prod.v3" {
          customerId: id
          name: string
          "PK" = "CUSTOMER#{customerId}"
          SK   = "PROFILE"
        }

        entity Order in "orders-prod.v3" {
          orderId: id
          customerId: id
          "State#Date": date
          "Order.Total": decimal
          "PK"      = "ORDER#{orderId}"
          "SK"      = "ORDER"
          "GSI1-PK" = "CUSTOMER#{customerId}"
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
          query "orders-prod.v3"."GSI-1" where "GSI1-PK" = "CUSTOMER#{customerId}" and begins_with("GSI1-SK", "ORDER#")
    "#]],
    );
    // A hole names identifiers only.
    check(
        &quoted_at("orderId: id", "or"),
        "order-id",
        expect![[r#"
        error: `order-id` is not an identifier, and a name in a template hole must be an identifier (only the names of tables, indexes, keys and attributes can be quoted)
    "#]],
    );
}

/// After `scan`, a name that is a modifier word is quoted, or it would read
/// as the modifier; in the table it stays bare.
#[test]
fn a_scanned_index_renamed_to_a_modifier_word_is_quoted_after_scan() {
    check(
        r##"
        table App {
          key pk, sk
          index by$0Email (gsi1pk)
        }
        entity User {
          userId: id
          email: string
          pk = "USER#{userId}"
          sk = "PROFILE"
          gsi1pk = "EMAIL#{email}"
        }
        pattern everyone() -> User[] scan byEmail limit 10
        "##,
        "limit",
        expect![[r#"
            2 edits
            table App {
              key pk, sk
              index limit (gsi1pk)
            }
            entity User {
              userId: id
              email: string
              pk = "USER#{userId}"
              sk = "PROFILE"
              gsi1pk = "EMAIL#{email}"
            }
            pattern everyone() -> User[] scan "limit" limit 10
        "#]],
    );
}

#[test]
fn a_name_in_a_multi_attribute_key_list_renames_the_entities_attribute_and_the_patterns() {
    check(
        r#"
        table Orders {
          key pk, sk
          index byRegion ([tenantId, region], [status, created$0At: number])
        }
        entity Order {
          tenantId: id
          orderId: id
          region: string
          status: string
          createdAt: int
          pk = "ORDER#{orderId}"
          sk = "ORDER"
        }
        pattern recentOrders(tenantId, region, status, createdAt >= since) -> Order[] by createdAt
        "#,
        "placedAt",
        expect![[r#"
            4 edits
            table Orders {
              key pk, sk
              index byRegion ([tenantId, region], [status, placedAt: number])
            }
            entity Order {
              tenantId: id
              orderId: id
              region: string
              status: string
              placedAt: int
              pk = "ORDER#{orderId}"
              sk = "ORDER"
            }
            pattern recentOrders(tenantId, region, status, placedAt >= since) -> Order[] by placedAt
        "#]],
    );
}

#[test]
fn renaming_a_shard_source_renames_its_of() {
    let fixture = r##"
        table Games {
          key pk, sk
        }
        entity Score {
          user$0Id: id
          bucket: shard(4, of userId)
          pk = "SCORE#{bucket}"
          sk = "USER#{userId}"
        }
    "##;
    check(
        fixture,
        "playerId",
        expect![[r#"
        3 edits
        table Games {
          key pk, sk
        }
        entity Score {
          playerId: id
          bucket: shard(4, of playerId)
          pk = "SCORE#{bucket}"
          sk = "USER#{playerId}"
        }
    "#]],
    );
    // From the `of` side too.
    check(
        &fixture
            .replace("user$0Id: id", "userId: id")
            .replace("of userId", "of us$0erId"),
        "playerId",
        expect![[r#"
            3 edits
            table Games {
              key pk, sk
            }
            entity Score {
              playerId: id
              bucket: shard(4, of playerId)
              pk = "SCORE#{bucket}"
              sk = "USER#{playerId}"
            }
        "#]],
    );
    // `of` takes a quoted name (a hole does not).
    check(
        r##"
        table Games {
          key pk
        }
        entity Score {
          userId: id
          bucket: shard(4, of user$0Id)
          pk = "SCORE#{bucket}"
        }
        "##,
        "player-id",
        expect![[r#"
            2 edits
            table Games {
              key pk
            }
            entity Score {
              "player-id": id
              bucket: shard(4, of "player-id")
              pk = "SCORE#{bucket}"
            }
        "#]],
    );
}
