//! Hover fixtures: `$0` marks the cursor; the snapshot shows the hovered
//! range and the Markdown. `UPDATE_EXPECT=1` rewrites the snapshots.

mod common;

use common::cursor;
use dyno::ide::{File, hover::hover};
use expect_test::{Expect, expect};

fn check(fixture: &str, expected: Expect) {
    let (text, offset) = cursor::cursor(fixture);
    let file = File::new(text);
    let actual = match hover(&file, offset) {
        Some(result) => format!(
            "{} {}\n---\n{}\n",
            cursor::position(&file.text, result.span),
            cursor::excerpt(&file.text, result.span),
            result.markdown
        ),
        None => "(none)\n".into(),
    };
    expected.assert_eq(&actual);
}

#[test]
fn pattern_shows_query_and_cost() {
    check(
        r##"
        table App {
          key pk, sk
          delimiter "#"
        }
        entity User {
          userId: id
          email: string
          pk = "USER#{userId}"
          sk = "PROFILE"
        }
        /// One user by id.
        pattern get$0User(userId) -> User
        "##,
        expect![[r##"
            12:9 getUser
            ---
            **pattern** `getUser`

            One user by id.

            One Query on the table:

            ```json
            {
              "TableName": "App",
              "KeyConditionExpression": "#pk = :pk AND #sk = :sk",
              "ExpressionAttributeNames": {
                "#pk": "pk",
                "#sk": "sk"
              },
              "ExpressionAttributeValues": {
                ":pk": {
                  "S": "USER#{userId}"
                },
                ":sk": {
                  "S": "PROFILE"
                }
              },
              "ScanIndexForward": true,
              "ConsistentRead": false
            }
            ```

            Cost: ~1 item × 123 B = 123 B, read as 4 KB → 0.5 RCU (eventually consistent; sizes estimated from type defaults)
        "##]],
    );
}

#[test]
fn pattern_on_an_index_shows_index_name() {
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
          gsi1sk = "USER#{userId}"
        }
        pattern $0usersInGroup(groupId) -> User[] ~50
        "##,
        expect![[r##"
            13:9 usersInGroup
            ---
            **pattern** `usersInGroup`

            One Query on index `gsi1`:

            ```json
            {
              "TableName": "App",
              "IndexName": "gsi1",
              "KeyConditionExpression": "#pk = :pk AND begins_with(#sk, :sk)",
              "ExpressionAttributeNames": {
                "#pk": "gsi1pk",
                "#sk": "gsi1sk"
              },
              "ExpressionAttributeValues": {
                ":pk": {
                  "S": "GROUP#{groupId}"
                },
                ":sk": {
                  "S": "USER#"
                }
              },
              "ScanIndexForward": true,
              "ConsistentRead": false
            }
            ```

            Cost: ~50 items × 132 B = 6.4 KB, read as 8 KB → 1 RCU (eventually consistent; sizes estimated from type defaults)
        "##]],
    );
}

#[test]
fn pinned_pattern_says_verified() {
    check(
        r##"
        table App {
          key pk, sk
        }
        entity Order {
          userId: id
          orderId: ulid
          pk = "USER#{userId}"
          sk = "ORDER#{orderId}"
        }
        pattern orders$0(userId) -> Order[] =
          query App where pk = "USER#{userId}" and begins_with(sk, "ORDER#")
        "##,
        expect![[r##"
            10:9 orders
            ---
            **pattern** `orders`

            Pinned Query, verified on the table:

            ```json
            {
              "TableName": "App",
              "KeyConditionExpression": "#pk = :pk AND begins_with(#sk, :sk)",
              "ExpressionAttributeNames": {
                "#pk": "pk",
                "#sk": "sk"
              },
              "ExpressionAttributeValues": {
                ":pk": {
                  "S": "USER#{userId}"
                },
                ":sk": {
                  "S": "ORDER#"
                }
              },
              "ScanIndexForward": true,
              "ConsistentRead": false
            }
            ```

            Cost: ~10 items × 112 B = 1.1 KB, read as 4 KB → 0.5 RCU (eventually consistent; sizes estimated from type defaults; 10 items per `E[]` without `~N`)
        "##]],
    );
}

#[test]
fn unresolved_pattern_points_to_diagnostics() {
    check(
        r##"
        table App {
          key pk, sk
        }
        entity User {
          userId: id
          email: string
          pk = "USER#{userId}"
          sk = "PROFILE"
        }
        pattern by$0Email(email) -> User
        "##,
        expect![[r#"
            10:9 byEmail
            ---
            **pattern** `byEmail`

            No single Query serves this pattern yet: see its diagnostics.
        "#]],
    );
}

#[test]
fn entity_shows_keys_example_and_size() {
    check(
        r##"
        table App {
          key pk, sk
        }
        /// A person.
        entity Us$0er {
          userId: id
          email: string
          age: int?
          pk = "USER#{userId}"
          sk = "PROFILE"
        }
        "##,
        expect![[r#"
            5:8 User
            ---
            **entity** `User` in `App`

            A person.

            Keys:

            ```dyno
            pk = "USER#{userId}"
            sk = "PROFILE"
            ```

            Example item (130 B, estimated from type defaults):

            ```json
            {
              "pk": {
                "S": "USER#a1b2c3"
              },
              "sk": {
                "S": "PROFILE"
              },
              "userId": {
                "S": "a1b2c3"
              },
              "email": {
                "S": "email text"
              },
              "age": {
                "N": "42"
              }
            }
            ```
        "#]],
    );
}

#[test]
fn entity_writing_several_items() {
    check(
        r##"
        table App {
          key pk, sk
        }
        entity Member$0ship {
          userId: id
          teamId: id
          item { pk = "USER#{userId}"  sk = "TEAM#{teamId}" }
          item { pk = "TEAM#{teamId}"  sk = "USER#{userId}" }
        }
        "##,
        expect![[r#"
            4:8 Membership
            ---
            **entity** `Membership` in `App`

            Item 1:

            ```dyno
            pk = "USER#{userId}"
            sk = "TEAM#{teamId}"
            ```

            Example item (90 B, estimated from type defaults):

            ```json
            {
              "pk": {
                "S": "USER#a1b2c3"
              },
              "sk": {
                "S": "TEAM#a1b2c3"
              },
              "userId": {
                "S": "a1b2c3"
              },
              "teamId": {
                "S": "a1b2c3"
              }
            }
            ```

            Item 2:

            ```dyno
            pk = "TEAM#{teamId}"
            sk = "USER#{userId}"
            ```

            Example item (90 B, estimated from type defaults):

            ```json
            {
              "pk": {
                "S": "TEAM#a1b2c3"
              },
              "sk": {
                "S": "USER#a1b2c3"
              },
              "userId": {
                "S": "a1b2c3"
              },
              "teamId": {
                "S": "a1b2c3"
              }
            }
            ```
        "#]],
    );
}

#[test]
fn entity_reference_in_pattern_hovers_like_its_declaration() {
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
        pattern getUser(userId) -> $0User
        "##,
        expect![[r#"
            9:28 User
            ---
            **entity** `User` in `App`

            Keys:

            ```dyno
            pk = "USER#{userId}"
            sk = "PROFILE"
            ```

            Example item (54 B, estimated from type defaults):

            ```json
            {
              "pk": {
                "S": "USER#a1b2c3"
              },
              "sk": {
                "S": "PROFILE"
              },
              "userId": {
                "S": "a1b2c3"
              }
            }
            ```
        "#]],
    );
}

#[test]
fn type_tag_in_template_lists_entities_using_it() {
    check(
        r##"
        table App {
          key pk, sk
        }
        entity User {
          userId: id
          pk = "US$0ER#{userId}"
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
          pk = "USERGROUP#{groupId}"
          sk = "META"
        }
        "##,
        expect![[r#"
            6:9 USER
            ---
            **type tag** `USER`

            Written by:
            - `User`: `pk = "USER#{userId}"`
            - `Order`: `pk = "USER#{userId}"`
        "#]],
    );
}

#[test]
fn type_tag_in_pinned_query_condition() {
    check(
        r##"
        table App {
          key pk, sk
        }
        entity Order {
          userId: id
          orderId: ulid
          pk = "USER#{userId}"
          sk = "ORDER#{orderId}"
        }
        pattern orders(userId) -> Order[] =
          query App where pk = "USER#{userId}" and begins_with(sk, "ORD$0ER#")
        "##,
        expect![[r#"
            11:61 ORDER
            ---
            **type tag** `ORDER`

            Written by:
            - `Order`: `sk = "ORDER#{orderId}"`
        "#]],
    );
}

#[test]
fn type_tag_only_in_a_condition_is_written_by_nobody() {
    check(
        r##"
        table App {
          key pk, sk
        }
        entity Order {
          userId: id
          orderId: ulid
          pk = "USER#{userId}"
          sk = "ORDER#{orderId}"
        }
        pattern orders(userId) -> Order[] =
          query App where pk = "USER#{userId}" and begins_with(sk, "INV$0OICE#")
        "##,
        expect![[r#"
            11:61 INVOICE
            ---
            **type tag** `INVOICE`

            No key template writes this tag.
        "#]],
    );
}

#[test]
fn index_shows_writers_and_projection() {
    check(
        r##"
        table App {
          key pk, sk
          index gs$0i1 (gsi1pk, gsi1sk) include(email)
        }
        entity User {
          userId: id
          email: string
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
        "##,
        expect![[r#"
            3:9 gsi1
            ---
            **global index** `gsi1` (gsi1pk, gsi1sk)

            Projection: keys and email. Eventually consistent reads only.

            Written by `User` (sparse: entities that do not write its keys are not in it).
        "#]],
    );
}

#[test]
fn index_keyed_on_a_plain_attribute() {
    check(
        r##"
        table App {
          key pk, sk
          index by$0Email (email)
        }
        entity User {
          userId: id
          email: string
          pk = "USER#{userId}"
          sk = "PROFILE"
        }
        entity Guest {
          guestId: id
          email: string?
          pk = "GUEST#{guestId}"
          sk = "PROFILE"
        }
        entity Order {
          orderId: id
          pk = "ORDER#{orderId}"
          sk = "META"
        }
        "##,
        expect![[r#"
            3:9 byEmail
            ---
            **global index** `byEmail` (email)

            Projection: all attributes. Eventually consistent reads only.

            Written by `User`, `Guest` (sparse: entities that do not write its keys are not in it).
        "#]],
    );
}

#[test]
fn index_nobody_writes() {
    check(
        r##"
        table App {
          key pk, sk
          index byStatus$0 (gsi1pk, gsi1sk) keys_only
        }
        entity User {
          userId: id
          pk = "USER#{userId}"
          sk = "PROFILE"
        }
        "##,
        expect![[r#"
            3:9 byStatus
            ---
            **global index** `byStatus` (gsi1pk, gsi1sk)

            Projection: keys only. Eventually consistent reads only.

            No entity writes this index's keys yet.
        "#]],
    );
}

#[test]
fn attribute_shows_type_and_keys() {
    check(
        r##"
        table App {
          key pk, sk
          index gsi1 (gsi1pk, gsi1sk)
        }
        entity User {
          user$0Id: id
          role: enum(admin, member)
          pk = "USER#{userId}"
          sk = "PROFILE"
          gsi1pk = "ROLE#{role}"
          gsi1sk = "USER#{userId}"
        }
        "##,
        expect![[r#"
            6:3 userId
            ---
            **attribute** `User.userId`: `id`

            In keys: `pk = "USER#{userId}"`, `gsi1sk = "USER#{userId}"`
        "#]],
    );
}

#[test]
fn enum_attribute_in_a_hole() {
    check(
        r##"
        table App {
          key pk, sk
          index gsi1 (gsi1pk, gsi1sk)
        }
        entity User {
          userId: id
          role: enum(admin, member)
          pk = "USER#{userId}"
          sk = "PROFILE"
          gsi1pk = "ROLE#{ro$0le}"
          gsi1sk = "USER#{userId}"
        }
        "##,
        expect![[r#"
            10:19 role
            ---
            **attribute** `User.role`: `enum` (admin | member)

            In keys: `gsi1pk = "ROLE#{role}"`
        "#]],
    );
}

#[test]
fn attribute_not_in_any_key() {
    check(
        r##"
        table App {
          key pk, sk
        }
        entity User {
          userId: id
          email$0: string?
          pk = "USER#{userId}"
          sk = "PROFILE"
        }
        "##,
        expect![[r#"
            6:3 email
            ---
            **attribute** `User.email`: `string?`

            Not part of any key.
        "#]],
    );
}

#[test]
fn key_name_in_an_entity() {
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
          gsi1$0pk = "ALL"
          gsi1sk = "USER#{userId}"
        }
        "##,
        expect![[r#"
            9:3 gsi1pk
            ---
            **key** `gsi1pk`: string partition key of index `gsi1`
        "#]],
    );
}

#[test]
fn key_the_table_does_not_declare() {
    check(
        r##"
        table App {
          key pk, sk
        }
        entity User {
          userId: id
          pk = "USER#{userId}"
          sk = "PROFILE"
          gsi9$0pk = "ALL"
        }
        "##,
        expect![[r#"
            8:3 gsi9pk
            ---
            **key** `gsi9pk`: not a key of this table
        "#]],
    );
}

#[test]
fn key_name_in_a_table() {
    check(
        r##"
        table App {
          key pk, s$0k
        }
        "##,
        expect![[r#"
            2:11 sk
            ---
            **key** `sk`: string sort key of table `App`
        "#]],
    );
}

#[test]
fn table_name() {
    check(
        r##"
        table A$0pp {
          key pk, sk
          index gsi1 (gsi1pk, gsi1sk)
          local index lsi1 (pk, lsi1sk)
        }
        "##,
        expect![[r#"
            1:7 App
            ---
            **table** `App`

            - key (pk, sk)
            - global index `gsi1` (gsi1pk, gsi1sk)
            - local index `lsi1` (pk, lsi1sk)

            Delimiter `#`; 0 entities.
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
        pattern eventsSince(userId, at >= sin$0ce) -> Event[]
        "##,
        expect![[r#"
            10:35 since
            ---
            **value** `since`: passed by the caller of `eventsSince`
        "#]],
    );
}

#[test]
fn whitespace_and_comments_show_nothing() {
    check(
        r##"
        // a comment about $0App
        table App {
          key pk, sk
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
        $0
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
          pk $0= "USER#{userId}"
          sk = "PROFILE"
        }
        "##,
        expect![[r#"
            (none)
        "#]],
    );
}

#[test]
fn unknown_entity_shows_nothing() {
    check(
        r##"
        table App {
          key pk, sk
        }
        pattern getUser(userId) -> Us$0er
        "##,
        expect![[r#"
            (none)
        "#]],
    );
}

#[test]
fn broken_file_still_hovers_what_parses() {
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
        pattern get$0User(userId) -> User
        "##,
        expect![[r##"
            13:9 getUser
            ---
            **pattern** `getUser`

            One Query on the table:

            ```json
            {
              "TableName": "App",
              "KeyConditionExpression": "#pk = :pk AND #sk = :sk",
              "ExpressionAttributeNames": {
                "#pk": "pk",
                "#sk": "sk"
              },
              "ExpressionAttributeValues": {
                ":pk": {
                  "S": "USER#{userId}"
                },
                ":sk": {
                  "S": "PROFILE"
                }
              },
              "ScanIndexForward": true,
              "ConsistentRead": false
            }
            ```

            Cost: ~1 item × 54 B = 54 B, read as 4 KB → 0.5 RCU (eventually consistent; sizes estimated from type defaults)
        "##]],
    );
}

// ---------- quoted names ----------

fn quoted_at(at: &str, cursor_after: &str) -> String {
    cursor::in_quoted_names(at, cursor_after)
}

#[test]
fn quoted_attribute_and_key() {
    check(
        &quoted_at("\"State#Date\": date", "\"Sta"),
        expect![[r#"
        20:3 "State#Date"
        ---
        **attribute** `Order."State#Date"`: `date`

        In keys: `"State#Date" = "{State#Date}"`
    "#]],
    );
    check(
        &quoted_at("\"GSI1-PK\" = \"CUSTOMER", "\"GSI"),
        expect![[r#"
        24:3 "GSI1-PK"
        ---
        **key** `GSI1-PK`: string partition key of index `GSI-1`
    "#]],
    );
}

#[test]
fn a_get_pattern_shows_its_getitem_request() {
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
        pattern user$0(userId) -> User get consistent
        "##,
        expect![[r#"
            9:9 user
            ---
            **pattern** `user`

            One GetItem on the table:

            ```json
            {
              "TableName": "App",
              "Key": {
                "pk": {
                  "S": "USER#{userId}"
                },
                "sk": {
                  "S": "PROFILE"
                }
              },
              "ConsistentRead": true
            }
            ```

            Cost: ~1 item × 54 B = 54 B, read as 4 KB → 1 RCU (strongly consistent; sizes estimated from type defaults)
        "#]],
    );
}

#[test]
fn a_scanned_index_is_the_index() {
    check(
        r##"
        table App {
          key pk, sk
          index byEmail (gsi1pk)
        }
        entity User {
          userId: id
          email: string
          pk = "USER#{userId}"
          sk = "PROFILE"
          gsi1pk = "EMAIL#{email}"
        }
        pattern everyone() -> User[] scan by$0Email segments 2
        "##,
        expect![[r#"
            12:35 byEmail
            ---
            **global index** `byEmail` (gsi1pk)

            Projection: all attributes. Eventually consistent reads only.

            Written by `User` (sparse: entities that do not write its keys are not in it).
        "#]],
    );
}

/// A global index keyed on several attributes; `$I`, `$K` and `$P` mark the
/// index, a key attribute and a pattern.
const MULTI_ATTRIBUTE: &str = r#"
table Orders {
  key pk, sk
  index by$IRegion ([tenantId, region], [status, created$KAt: number])
}
entity Order {
  tenantId: id
  orderId: id
  region: string
  status: enum(open, shipped)
  createdAt: int
  pk = "ORDER#{orderId}"
  sk = "ORDER"
}
/// Open orders of a tenant in a region since a moment.
pattern recent$POrders(tenantId, region, status = open, createdAt >= since) -> Order[] by createdAt
"#;

/// `MULTI_ATTRIBUTE` with the cursor at `marker`, the other markers removed.
fn multi_attribute_at(marker: &str) -> String {
    ["$I", "$K", "$P"]
        .into_iter()
        .fold(MULTI_ATTRIBUTE.replace(marker, "$0"), |text, other| {
            text.replace(other, "")
        })
}

#[test]
fn multi_attribute_index_shows_its_attributes_and_key_condition() {
    check(
        &multi_attribute_at("$I"),
        expect![[r#"
        3:9 byRegion
        ---
        **global index** `byRegion` ([tenantId, region], [status, createdAt])

        Key condition, in full: `#tenantId = :tenantId AND #region = :region AND #status = :status AND #createdAt = :createdAt`. Every partition attribute is compared by equality; the sort attributes (status, createdAt) are used left to right, equality on the leading ones and at most one range (`<`, `<=`, `>`, `>=`, `BETWEEN`, `begins_with`) on the last one used. Each attribute compares by its own type: numbers numerically.

        Projection: all attributes. Eventually consistent reads only.

        Written by `Order` (sparse: entities that do not write its keys are not in it).
    "#]],
    );
}

#[test]
fn pattern_on_a_multi_attribute_index_shows_the_key_condition_over_every_attribute() {
    check(
        &multi_attribute_at("$P"),
        expect![[r##"
        15:9 recentOrders
        ---
        **pattern** `recentOrders`

        Open orders of a tenant in a region since a moment.

        One Query on index `byRegion`:

        ```json
        {
          "TableName": "Orders",
          "IndexName": "byRegion",
          "KeyConditionExpression": "#tenantId = :tenantId AND #region = :region AND #status = :status AND #createdAt >= :since",
          "ExpressionAttributeNames": {
            "#tenantId": "tenantId",
            "#region": "region",
            "#status": "status",
            "#createdAt": "createdAt"
          },
          "ExpressionAttributeValues": {
            ":tenantId": {
              "S": "{tenantId}"
            },
            ":region": {
              "S": "{region}"
            },
            ":status": {
              "S": "open"
            },
            ":since": {
              "N": "{since}"
            }
          },
          "ScanIndexForward": true,
          "ConsistentRead": false
        }
        ```

        Cost: ~10 items × 174 B = 1.7 KB, read as 4 KB → 0.5 RCU (eventually consistent; sizes estimated from type defaults; 10 items per `E[]` without `~N`)
    "##]],
    );
}

#[test]
fn attribute_of_a_multi_attribute_key_names_its_role() {
    check(
        &multi_attribute_at("$K"),
        expect![[r#"
        3:48 createdAt
        ---
        **key** `createdAt`: number sort key of index `byRegion`
    "#]],
    );
}

const SHARDED: &str = r##"
table Games {
  key pk, sk
}
entity Score ~2500/s {
  gameId: id
  userId: id
  shard: shard(10)
  bucket: shard(4, of userId)
  pk = "SCORE#{gameId}.{shard}"
  sk = "USER#{userId}.{bucket}"
}
"##;

#[test]
fn random_shard_attribute_says_which_values_and_that_a_read_is_one_query_each() {
    check(
        &SHARDED.replace("  shard: shard(10)", "  sha$0rd: shard(10)"),
        expect![[r#"
            7:3 shard
            ---
            **attribute** `Score.shard`: `shard`

            A write shard: a Number from `0` to `9`, picked at random on each write, so the items written under one key value spread over 10 partitions instead of one hot partition. Nobody can know it before reading: a read of them all is 10 Queries, one per shard, merged by the caller.

            In keys: `pk = "SCORE#{gameId}.{shard}"`
        "#]],
    );
}

#[test]
fn calculated_shard_type_names_its_source_and_the_hash() {
    check(
        &SHARDED.replace("bucket: shard(4", "bucket: sh$0ard(4"),
        expect![[r#"
            8:11 shard
            ---
            **type** `shard(4, of userId)`

            A calculated shard: a Number from `0` to `3`, computed from `userId` as FNV-1a (32 bit) of its UTF-8 key text, modulo 4. The same `userId` always has the same shard, so a caller who knows `userId` computes it and reads one partition; a read without `userId` is 4 Queries, one per shard.
        "#]],
    );
}

#[test]
fn shard_source_hovers_as_its_attribute() {
    check(
        &SHARDED.replace("of userId", "of user$0Id"),
        expect![[r#"
        8:23 userId
        ---
        **attribute** `Score.userId`: `id`

        In keys: `sk = "USER#{userId}.{bucket}"`
    "#]],
    );
}

/// A read over every write shard says how many Queries it is and how they
/// merge; the request carries the shard as the caller's value.
#[test]
fn sharded_pattern_shows_one_query_per_shard() {
    check(
        r##"
        table Games {
          key pk, sk
        }
        entity Score ~300B {
          day: date
          userId: id
          points: int(pad 9)
          shard: shard(4)
          pk = "SCORE#{day}.{shard}"
          sk = "{points}#{userId}"
        }
        /// The day's best.
        pattern leader$0board(day) -> Score[] by points desc limit 10
        "##,
        expect![[r##"
            13:9 leaderboard
            ---
            **pattern** `leaderboard`

            The day's best.

            4 Queries on the table, one per `shard` (0 to 3), merged by the sort key:

            ```json
            {
              "TableName": "Games",
              "KeyConditionExpression": "#pk = :pk",
              "ExpressionAttributeNames": {
                "#pk": "pk"
              },
              "ExpressionAttributeValues": {
                ":pk": {
                  "S": "SCORE#{day}.{shard}"
                }
              },
              "ScanIndexForward": false,
              "ConsistentRead": false,
              "Limit": 10
            }
            ```

            Cost: ~10 items × 300 B = 2.9 KB, read as 16 KB → 2 RCU (eventually consistent; 4 Queries, one per shard, each rounded up to 4 KB on its own; 10 items per `E[]` without `~N`)
        "##]],
    );
}
