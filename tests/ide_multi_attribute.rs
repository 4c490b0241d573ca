//! Editor features on a global index keyed on several attributes: hover on
//! the index, on a pattern it serves and on one of its key attributes;
//! completion inside its key lists. `$0` marks the cursor;
//! `UPDATE_EXPECT=1` rewrites the snapshots.

mod common;

use common::cursor;
use dyno::ide::completion::completions;
use dyno::ide::{File, hover::hover};
use expect_test::{Expect, expect};

const SCHEMA: &str = r#"
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

/// `SCHEMA` with the cursor at marker `$X`, the other markers removed.
fn at(marker: &str) -> String {
    let mut text = SCHEMA.replace(marker, "$0");
    for other in ["$I", "$K", "$P"] {
        text = text.replace(other, "");
    }
    text
}

fn check_hover(fixture: &str, expected: Expect) {
    let (text, offset) = cursor::cursor(fixture);
    let file = File::new(text);
    let actual = match hover(&file, offset) {
        Some(result) => format!(
            "{}\n---\n{}\n",
            cursor::excerpt(&file.text, result.span),
            result.markdown
        ),
        None => "(none)\n".into(),
    };
    expected.assert_eq(&actual);
}

#[test]
fn index_hover_shows_its_attributes_and_key_condition() {
    check_hover(
        &at("$I"),
        expect![[r#"
        byRegion
        ---
        **global index** `byRegion` ([tenantId, region], [status, createdAt])

        Key condition, in full: `#tenantId = :tenantId AND #region = :region AND #status = :status AND #createdAt = :createdAt`. Every partition attribute is compared by equality; the sort attributes (status, createdAt) are used left to right, equality on the leading ones and at most one range (`<`, `<=`, `>`, `>=`, `BETWEEN`, `begins_with`) on the last one used. Each attribute compares by its own type: numbers numerically.

        Projection: all attributes. Eventually consistent reads only.

        Written by `Order` (sparse: entities that do not write its keys are not in it).
    "#]],
    );
}

#[test]
fn pattern_hover_shows_the_key_condition_over_every_attribute() {
    check_hover(
        &at("$P"),
        expect![[r##"
        recentOrders
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
fn key_attribute_hover_names_its_role() {
    check_hover(
        &at("$K"),
        expect![[r#"
        createdAt
        ---
        **key** `createdAt`: number sort key of index `byRegion`
    "#]],
    );
}

fn check_completion(fixture: &str, expected: Expect) {
    let (text, offset) = cursor::cursor(fixture);
    let file = File::new(text);
    let labels: Vec<String> = completions(&file, offset)
        .into_iter()
        .map(|c| format!("{:?} {}", c.kind, c.label))
        .collect();
    expected.assert_eq(&(labels.join("\n") + "\n"));
}

const ENTITY: &str = r#"
entity Order {
  tenantId: id
  region: string
  createdAt: int
  pk = "ORDER"
  sk = "ORDER"
}
"#;

#[test]
fn completion_in_a_key_list_offers_the_entities_attributes() {
    let fixture = format!("table Orders {{\n  key pk, sk\n  index byRegion ([tenantId, $0\n}}\n{ENTITY}");
    check_completion(
        &fixture,
        expect![[r#"
        Attribute tenantId
        Attribute region
        Attribute createdAt
    "#]],
    );
}

#[test]
fn completion_opening_a_sort_key_list_offers_the_entities_attributes() {
    let fixture = format!("table Orders {{\n  key pk, sk\n  index byRegion ([tenantId, region], [$0\n}}\n{ENTITY}");
    check_completion(
        &fixture,
        expect![[r#"
        Attribute tenantId
        Attribute region
        Attribute createdAt
    "#]],
    );
}

/// The file after renaming what the cursor is on, and whether its
/// diagnostics stayed the same.
fn renamed(fixture: &str, new_name: &str) -> String {
    let (text, offset) = cursor::cursor(fixture);
    let file = File::new(text);
    match dyno::ide::rename::rename(&file, offset, new_name) {
        Ok(edits) => {
            let renamed = cursor::apply_fix(&file.text, &edits);
            let codes = |a: &dyno::check::Analysis| a.diagnostics().iter().map(|d| d.code).collect::<Vec<_>>();
            assert_eq!(
                codes(&file.analysis),
                codes(&File::new(renamed.clone()).analysis),
                "the rename changed the diagnostics:\n{renamed}"
            );
            renamed
        }
        Err(message) => format!("error: {message}\n"),
    }
}

#[test]
fn renaming_a_key_attribute_in_the_list_renames_the_entities_attribute_and_the_patterns() {
    expect![[r#"
        table Orders {
          key pk, sk
          index byRegion ([tenantId, region], [status, placedAt: number])
        }
        entity Order {
          tenantId: id
          orderId: id
          region: string
          status: enum(open, shipped)
          placedAt: int
          pk = "ORDER#{orderId}"
          sk = "ORDER"
        }
        /// Open orders of a tenant in a region since a moment.
        pattern recentOrders(tenantId, region, status = open, placedAt >= since) -> Order[] by placedAt
    "#]]
    .assert_eq(&renamed(&at("$K"), "placedAt"));
}
