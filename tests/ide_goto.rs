//! Go-to-definition fixtures: `$0` marks the cursor; the snapshot lists
//! each target as `line:col` and the text it covers.

mod common;

use common::cursor;
use dyno::ide::{File, goto::definition};
use expect_test::{Expect, expect};

fn check(fixture: &str, expected: Expect) {
    let (text, offset) = cursor::cursor(fixture);
    let file = File::new(text);
    let targets: Vec<_> = definition(&file, offset).into_iter().map(|at| at.span).collect();
    expected.assert_eq(&cursor::spans(&file.text, &targets));
}

/// One table with a global index; users, their orders and groups.
const SCHEMA: &str = r##"
table App {
  key pk, sk
  index gsi1 (gsi1pk, gsi1sk)
  delimiter "#"
}

entity User {
  userId: id
  groupId: id
  email: string

  pk     = "USER#{userId}"
  sk     = "PROFILE"
  gsi1pk = "GROUP#{groupId}"
  gsi1sk = "USER#{userId}"
}

entity Order {
  userId: id
  orderId: ulid

  pk = "USER#{userId}"
  sk = "ORDER#{orderId}"
}
"##;

/// The schema above followed by the fixture's patterns.
fn with_schema(patterns: &str) -> String {
    format!("{SCHEMA}\n{}", cursor::trim_indent(patterns))
}

#[test]
fn pattern_name_leads_to_key_templates() {
    check(
        &with_schema("pattern get$0User(userId) -> User"),
        expect![[r#"
            12:3 pk     = "USER#{userId}"
            13:3 sk     = "PROFILE"
            2:3 key pk, sk
        "#]],
    );
}

#[test]
fn pattern_on_an_index_leads_to_templates_and_index() {
    check(
        &with_schema("pattern usersIn$0Group(groupId) -> User[]"),
        expect![[r#"
            14:3 gsi1pk = "GROUP#{groupId}"
            15:3 gsi1sk = "USER#{userId}"
            3:3 index gsi1 (gsi1pk, gsi1sk)
        "#]],
    );
}

#[test]
fn pattern_returning_several_entities_leads_to_each() {
    check(
        &with_schema("pattern userWith$0Orders(userId) -> User, Order[]"),
        expect![[r#"
            12:3 pk     = "USER#{userId}"
            13:3 sk     = "PROFILE"
            22:3 pk = "USER#{userId}"
            23:3 sk = "ORDER#{orderId}"
            2:3 key pk, sk
        "#]],
    );
}

#[test]
fn returned_entity_leads_to_its_templates() {
    check(
        &with_schema("pattern userWithOrders(userId) -> User, Or$0der[]"),
        expect![[r#"
            22:3 pk = "USER#{userId}"
            23:3 sk = "ORDER#{orderId}"
        "#]],
    );
}

#[test]
fn parameter_leads_to_templates_built_from_it() {
    check(
        &with_schema("pattern userWithOrders(user$0Id) -> User, Order[]"),
        expect![[r#"
            12:3 pk     = "USER#{userId}"
            22:3 pk = "USER#{userId}"
        "#]],
    );
}

#[test]
fn pinned_query_key_name() {
    check(
        &with_schema(
            r##"
            pattern orders(userId) -> Order[] =
              query App where p$0k = "USER#{userId}" and begins_with(sk, "ORDER#")
            "##,
        ),
        expect![[r#"
            2:3 key pk, sk
            22:3 pk = "USER#{userId}"
        "#]],
    );
}

#[test]
fn pinned_query_literal() {
    check(
        &with_schema(
            r##"
            pattern orders(userId) -> Order[] =
              query App where pk = "USER#{userId}" and begins_with(sk, "OR$0DER#")
            "##,
        ),
        expect![[r#"
            23:3 sk = "ORDER#{orderId}"
        "#]],
    );
}

#[test]
fn pinned_query_hole() {
    check(
        &with_schema(
            r##"
            pattern orders(userId) -> Order[] =
              query App where pk = "USER#{user$0Id}" and begins_with(sk, "ORDER#")
            "##,
        ),
        expect![[r#"
            22:3 pk = "USER#{userId}"
        "#]],
    );
}

#[test]
fn pinned_query_table() {
    check(
        &with_schema(
            r##"
            pattern orders(userId) -> Order[] =
              query A$0pp where pk = "USER#{userId}" and begins_with(sk, "ORDER#")
            "##,
        ),
        expect![[r#"
            2:3 key pk, sk
        "#]],
    );
}

#[test]
fn hole_leads_to_its_attribute() {
    check(
        r##"
        table App {
          key pk, sk
        }
        entity Order {
          userId: id
          orderId: ulid
          pk = "USER#{userId}"
          sk = "ORDER#{order$0Id}"
        }
        "##,
        expect![[r#"
            6:3 orderId
        "#]],
    );
}

#[test]
fn entity_table_reference_leads_to_the_table() {
    check(
        r##"
        table Users {
          key pk, sk
        }
        table Orders {
          key pk, sk
        }
        entity Order in Ord$0ers {
          orderId: ulid
          pk = "ORDER#{orderId}"
          sk = "META"
        }
        "##,
        expect![[r#"
            4:7 Orders
        "#]],
    );
}

#[test]
fn entity_reference_in_unresolved_pattern_leads_to_declaration() {
    // No Query serves this pattern, so there is nothing it relies on: the
    // reference leads to the entity itself.
    check(
        &with_schema("pattern byEmail(email) -> Us$0er"),
        expect![[r#"
        7:8 User
    "#]],
    );
}

#[test]
fn known_attribute_in_unresolved_pattern_leads_to_attribute() {
    check(
        &with_schema("pattern byEmail(em$0ail) -> User"),
        expect![[r#"
        10:3 email
    "#]],
    );
}

#[test]
fn key_in_entity_leads_to_table_declaration() {
    check(
        r##"
        table App {
          key pk, sk
          index gsi1 (gsi1pk, gsi1sk)
        }
        entity User {
          userId: id
          pk = "USER#{userId}"
          sk = "PROFILE"
          gsi1$0sk = "USER#{userId}"
        }
        "##,
        expect![[r#"
            3:23 gsi1sk
        "#]],
    );
}

#[test]
fn declaration_leads_to_itself() {
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
        "##,
        expect![[r#"
            4:8 User
        "#]],
    );
}

#[test]
fn nothing_on_whitespace_or_comments() {
    check(
        r##"
        table App {
          key pk, sk
        }
        // see $0User
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
        &with_schema("pattern getUser(userId) ->$0  User"),
        expect![[r#"
        (none)
    "#]],
    );
}

#[test]
fn unknown_names_lead_nowhere() {
    check(
        &with_schema("pattern getGroup(groupId) -> Gr$0oup"),
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
          pk = "USER#{user$0Idd}"
          sk = "PROFILE"
        }
        "##,
        expect![[r#"
            (none)
        "#]],
    );
}

#[test]
fn broken_file_still_resolves_what_parses() {
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
        entity Broken {
          name: : string
          pk = "BROKEN#{
        }
        pattern getUser(userId) -> Us$0er
        "##,
        expect![[r#"
            6:3 pk = "USER#{userId}"
            7:3 sk = "PROFILE"
        "#]],
    );
}

#[test]
fn range_bound_leads_to_the_templates_of_its_attribute() {
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
        pattern eventsSince(userId, at >= sin$0ce) -> Event[]
        "##,
        expect![[r#"
            8:3 sk = "EVENT#{at}"
        "#]],
    );
}

#[test]
fn billing_tenant_everything_leads_to_every_entity() {
    let text = include_str!("../examples/billing.dyno").replace("tenantEverything(", "tenant$0Everything(");
    check(
        &text,
        expect![[r#"
            27:3 pk = "TENANT#{tenantId}"
            28:3 sk = "META"
            38:3 pk     = "TENANT#{tenantId}"
            39:3 sk     = "USER#{userId}"
            52:3 pk     = "TENANT#{tenantId}"
            53:3 sk     = "INVOICE#{number}"
            64:3 pk = "TENANT#{tenantId}"
            65:3 sk = "EVENT#{at}#{eventId}"
            16:3 key pk, sk
        "#]],
    );
}

#[test]
fn between_bounds_lead_to_the_templates_of_their_attribute() {
    let text = include_str!("../examples/billing.dyno").replace("between from and to", "between from and t$0o");
    check(
        &text,
        expect![[r#"
        55:3 gsi1sk = "{dueDate}"
    "#]],
    );
}

// ---------- quoted names ----------

fn quoted_at(at: &str, cursor_after: &str) -> String {
    cursor::in_quoted_names(at, cursor_after)
}

#[test]
fn quoted_names_lead_to_their_declarations() {
    // `by "State#Date"` to the attribute; a pinned query's quoted table,
    // index and key to the table's lines.
    check(
        &quoted_at("by \"State#Date\"", "by \"St"),
        expect![[r#"
        20:3 "State#Date": date
    "#]],
    );
    check(
        &quoted_at("query \"orders-prod.v2\".\"GSI-1\"", "query \"orders-prod.v2\".\"G"),
        expect![[r#"
        6:3 index "GSI-1" ("GSI1-PK", "GSI1-SK")
    "#]],
    );
    check(
        &quoted_at("where \"GSI1-PK\"", "where \"GSI1"),
        expect![[r#"
        6:3 index "GSI-1" ("GSI1-PK", "GSI1-SK")
        24:3 "GSI1-PK" = "CUSTOMER#{customerId}"
    "#]],
    );
}

#[test]
fn shard_source_goes_to_its_attribute() {
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
        expect![[r#"
            5:3 userId
        "#]],
    );
}
