use std::collections::BTreeSet;

use super::*;
use crate::check::analyze;
use crate::check::sample::{self, Options};
use crate::size::parse_items;
use crate::verify::plans;

const EXAMPLES: [&str; 3] = [
    include_str!("../../examples/billing.dyno"),
    include_str!("../../examples/shop.dyno"),
    include_str!("../../examples/teams.dyno"),
];

/// The items (into the table's items) of the rows listed.
fn items_of(page: &Page, grid: &str, rows: &[String]) -> BTreeSet<usize> {
    let grid = page.grids.iter().find(|g| g.id == grid).unwrap();
    grid.partitions
        .iter()
        .flat_map(|p| &p.rows)
        .filter(|r| rows.contains(&r.id))
        .map(|r| r.item)
        .collect()
}

/// The page highlights what verify expects: for every bundled pattern, the
/// rows it returns are the plan's `expected` items and the rows it means
/// its `matching` ones, planned here again from the same samples.
#[test]
fn highlighted_rows_are_the_plans_expected_items() {
    for source in EXAMPLES {
        let analysis = analyze(source);
        let options = Options::default();
        let page = page_model(&[source], &analysis, Source::Samples(options));
        let samples = sample::generate(&analysis.schema.model, &options);
        for (view, plan) in page.patterns.iter().zip(plans(&[source], &analysis, &samples)) {
            let plan = plan.unwrap();
            let grid = view.grid.as_deref().unwrap();
            let expected: BTreeSet<usize> = plan.expected.iter().copied().collect();
            assert!(!expected.is_empty(), "{}: nothing to highlight", view.name);
            assert_eq!(items_of(&page, grid, &view.returns), expected, "{}", view.name);
            let matching: BTreeSet<usize> = plan.matching.iter().copied().collect();
            assert_eq!(items_of(&page, grid, &view.means), matching, "{}", view.name);
            // What the read returns it has read.
            assert!(view.returns.iter().all(|r| view.reads.contains(r)), "{}", view.name);
            assert_eq!(view.params, plan.params, "{}", view.name);
        }
    }
}

#[test]
fn a_filter_reads_more_than_it_returns() {
    let source = r#"
table T { key pk, sk }
entity Order {
  customerId: id
  orderId: id
  total: decimal
  pk = "CUSTOMER#{customerId}"
  sk = "ORDER#{orderId}"
}
pattern bigOrders(customerId) -> Order[] where total > minTotal
"#;
    let analysis = analyze(source);
    let page = page_model(&[source], &analysis, Source::Samples(Options::default()));
    let view = &page.patterns[0];
    assert!(view.note.is_none(), "{:?}", view.note);
    assert!(
        view.reads.len() > view.returns.len() && !view.returns.is_empty(),
        "reads {:?}, returns {:?}",
        view.reads,
        view.returns
    );
}

#[test]
fn keys_decode_to_their_entity_and_hole_values() {
    let source = EXAMPLES[0];
    let analysis = analyze(source);
    let model = &analysis.schema.model;
    let items = parse_items(
        r#"[{"pk": "TENANT#acme", "sk": "USER#u1", "gsi1pk": "ROLE#admin", "gsi1sk": "USER#u1",
             "tenantId": "acme", "userId": "u1", "email": "a@example.com", "role": "admin"},
            {"pk": "SOMETHING#else", "sk": "x"}]"#,
    )
    .unwrap();
    let page = page_model(&[source], &analysis, Source::Given(items));
    let base = &page.grids[0];
    let user = model.entity_named("User").unwrap();
    let rows: Vec<&Row> = base.partitions.iter().flat_map(|p| &p.rows).collect();
    let row = rows.iter().find(|r| r.entity == Some(user)).expect("the user row");
    assert_eq!(
        row.sort[0].decoded,
        Some(vec![
            Segment::Literal("USER#".into()),
            Segment::Hole {
                attr: "userId".into(),
                value: "u1".into()
            }
        ])
    );
    let partition = base.partitions.iter().find(|p| p.key[0].text == "TENANT#acme").unwrap();
    assert_eq!(
        partition.key[0].decoded.as_deref().unwrap()[1],
        Segment::Hole {
            attr: "tenantId".into(),
            value: "acme".into()
        }
    );
    // An item no entity writes is shown, undecoded.
    let unknown = rows.iter().find(|r| r.entity.is_none()).expect("the unknown row");
    assert_eq!(unknown.sort[0].decoded, None);
    // On the index, the user is in the ROLE#admin collection.
    let gsi = &page.grids[1];
    assert_eq!(gsi.partitions.len(), 1, "the unknown item has no gsi1 keys");
    assert_eq!(gsi.partitions[0].key[0].text, "ROLE#admin");
}

/// With given items, the pattern's parameters come from them, and the rows
/// are the items its key condition selects.
#[test]
fn given_items_are_highlighted_by_the_same_plan() {
    let source = EXAMPLES[0];
    let analysis = analyze(source);
    let items = parse_items(
        r#"[{"pk": {"S": "TENANT#acme"}, "sk": {"S": "USER#u1"}, "tenantId": {"S": "acme"}, "userId": {"S": "u1"}},
            {"pk": {"S": "TENANT#acme"}, "sk": {"S": "USER#u2"}, "tenantId": {"S": "acme"}, "userId": {"S": "u2"}},
            {"pk": {"S": "TENANT#acme"}, "sk": {"S": "META"}, "tenantId": {"S": "acme"}, "name": {"S": "Acme"}},
            {"pk": {"S": "TENANT#other"}, "sk": {"S": "USER#u3"}, "tenantId": {"S": "other"}, "userId": {"S": "u3"}}]"#,
    )
    .unwrap();
    let page = page_model(&[source], &analysis, Source::Given(items));
    let view = page.patterns.iter().find(|p| p.name == "listUsers").unwrap();
    assert_eq!(view.params, vec![("tenantId".to_string(), "acme".to_string())]);
    let keys: Vec<&str> = page.grids[0]
        .partitions
        .iter()
        .flat_map(|p| &p.rows)
        .filter(|r| view.returns.contains(&r.id))
        .map(|r| r.primary[1].as_str())
        .collect();
    assert_eq!(keys, ["USER#u1", "USER#u2"]);
}

#[test]
fn user_text_is_escaped_and_the_page_is_deterministic() {
    let source = EXAMPLES[0];
    let analysis = analyze(source);
    let given = || {
        Source::Given(
            parse_items(r#"{"pk": "TENANT#<script>x", "sk": "META", "tenantId": "<script>x", "name": "</script><b>"}"#)
                .unwrap(),
        )
    };
    let html = page("a<b>.dyno", &[source], &analysis, given(), Some("listUsers"));
    assert_eq!(
        html,
        page("a<b>.dyno", &[source], &analysis, given(), Some("listUsers"))
    );
    assert!(
        !html.contains("<script>x") && !html.contains("</script><b>"),
        "unescaped user text"
    );
    assert!(html.contains("TENANT#&lt;script&gt;x"));
    assert!(html.contains("&lt;/script&gt;&lt;b&gt;"));
    // One script element of data, one of code: user text closes neither.
    assert_eq!(html.matches("</script>").count(), 2);
    assert!(html.contains("<option value=\"1\" selected>listUsers</option>"));
}

/// A read over every write shard: one request per shard, and the rows
/// highlighted are those of every shard's Query — more partitions than one.
#[test]
fn a_sharded_read_highlights_every_shards_items() {
    let source = r#"
table Games {
  key pk, sk
}
entity Score {
  gameId: id
  day: date
  userId: id
  points: int(pad 9)
  shard: shard(10)
  pk = "SCORE#{gameId}#{day}.{shard}"
  sk = "{points}#{userId}"
}
pattern leaderboard(gameId, day) -> Score[] by points desc limit 10
"#;
    let analysis = analyze(source);
    let options = Options {
        per_entity: 40,
        ..Options::default()
    };
    let page = page_model(&[source], &analysis, Source::Samples(options));
    let view = &page.patterns[0];
    assert_eq!(view.sent.len(), 10, "{:?}", view.how);
    assert!(view.how.starts_with("10 Queries"), "{}", view.how);
    let partitions: BTreeSet<&str> = page.grids[0]
        .partitions
        .iter()
        .filter(|p| p.rows.iter().any(|r| view.returns.contains(&r.id)))
        .map(|p| p.key[0].text.as_str())
        .collect();
    assert!(partitions.len() > 1, "{partitions:?}");
    let samples = sample::generate(&analysis.schema.model, &options);
    let plan = plans(&[source], &analysis, &samples).remove(0).unwrap();
    let expected: BTreeSet<usize> = plan.expected.iter().copied().collect();
    assert_eq!(items_of(&page, "g0", &view.returns), expected);
}

/// The rendered grids of a small page, as HTML: partitions, decoded keys,
/// projection and the rows' primary keys (`UPDATE_EXPECT=1` rewrites it).
#[test]
fn grid_html_snapshot() {
    let source = r#"
table Org {
  key pk, sk
  index byEmail (email) keys_only
}
entity User {
  orgId: id
  userId: id
  email: string
  pk = "ORG#{orgId}"
  sk = "USER#{userId}"
}
pattern members(orgId) -> User[]
pattern userByEmail(email) -> User[]
"#;
    let analysis = analyze(source);
    let items = parse_items(
        r#"[{"pk": "ORG#o1", "sk": "USER#b", "orgId": "o1", "userId": "b", "email": "b@x"},
            {"pk": "ORG#o1", "sk": "USER#a", "orgId": "o1", "userId": "a", "email": "a<@x"},
            {"pk": "ORG#o2", "sk": "USER#c", "orgId": "o2", "userId": "c"}]"#,
    )
    .unwrap();
    assert!(analysis.diagnostics().is_empty(), "{:?}", analysis.diagnostics());
    let html = page("t.dyno", &[source], &analysis, Source::Given(items), None);
    let main = &html[html.find("<main>").unwrap()..html.find("</main>").unwrap()];
    expect_test::expect![[r#"
        <main>
        <section class="grid" id="g0" aria-label="table Org">
        <h2>table Org <small>3 items in 2 partitions</small>
        </h2>
        <table class="head">
        <colgroup>
        <col class="key">
        <col class="key">
        <col class="entity">
        <col>
        </colgroup>
        <thead>
        <tr>
        <th scope="col">pk</th>
        <th scope="col">sk</th>
        <th scope="col">Entity</th>
        <th scope="col">Attributes</th>
        </tr>
        </thead>
        </table>
        <table class="part" aria-label="ORG#o1" style="contain-intrinsic-size:auto 88px">
        <colgroup>
        <col class="key">
        <col class="key">
        <col class="entity">
        <col>
        </colgroup>
        <tbody>
        <tr id="g0r0" class="e0" data-key="[&quot;ORG#o1&quot;,&quot;USER#a&quot;]">
        <th scope="rowgroup" rowspan="2" class="pk">
        <code>
        <span class="lit">ORG#</span>
        <span class="hole" title="orgId">o1</span>
        </code>
        <span class="dec">orgId=o1</span>
        </th>
        <td class="sk">
        <code>
        <span class="lit">USER#</span>
        <span class="hole" title="userId">a</span>
        </code>
        <span class="dec">userId=a</span>
        </td>
        <td title="$[1]">
        <span class="ent e0">User</span>
        </td>
        <td class="attrs">
        <span>
        <i>orgId</i> o1</span> <span>
        <i>userId</i> a</span> <span>
        <i>email</i> a&lt;@x</span> </td>
        </tr>
        <tr id="g0r1" class="e0" data-key="[&quot;ORG#o1&quot;,&quot;USER#b&quot;]">
        <td class="sk">
        <code>
        <span class="lit">USER#</span>
        <span class="hole" title="userId">b</span>
        </code>
        <span class="dec">userId=b</span>
        </td>
        <td title="$[0]">
        <span class="ent e0">User</span>
        </td>
        <td class="attrs">
        <span>
        <i>orgId</i> o1</span> <span>
        <i>userId</i> b</span> <span>
        <i>email</i> b@x</span> </td>
        </tr>
        </tbody>
        </table>
        <table class="part" aria-label="ORG#o2" style="contain-intrinsic-size:auto 44px">
        <colgroup>
        <col class="key">
        <col class="key">
        <col class="entity">
        <col>
        </colgroup>
        <tbody>
        <tr id="g0r2" class="e0" data-key="[&quot;ORG#o2&quot;,&quot;USER#c&quot;]">
        <th scope="rowgroup" rowspan="1" class="pk">
        <code>
        <span class="lit">ORG#</span>
        <span class="hole" title="orgId">o2</span>
        </code>
        <span class="dec">orgId=o2</span>
        </th>
        <td class="sk">
        <code>
        <span class="lit">USER#</span>
        <span class="hole" title="userId">c</span>
        </code>
        <span class="dec">userId=c</span>
        </td>
        <td title="$[2]">
        <span class="ent e0">User</span>
        </td>
        <td class="attrs">
        <span>
        <i>orgId</i> o2</span> <span>
        <i>userId</i> c</span> </td>
        </tr>
        </tbody>
        </table>
        </section>
        <section class="grid" id="g1" aria-label="index byEmail of Org">
        <h2>index byEmail of Org <small>2 items in 2 partitions</small>
        </h2>
        <table class="head">
        <colgroup>
        <col class="key">
        <col class="entity">
        <col>
        </colgroup>
        <thead>
        <tr>
        <th scope="col">email</th>
        <th scope="col">Entity</th>
        <th scope="col">Attributes</th>
        </tr>
        </thead>
        </table>
        <table class="part" aria-label="a&lt;@x" style="contain-intrinsic-size:auto 44px">
        <colgroup>
        <col class="key">
        <col class="entity">
        <col>
        </colgroup>
        <tbody>
        <tr id="g1r0" class="e0" data-key="[&quot;ORG#o1&quot;,&quot;USER#a&quot;]">
        <th scope="rowgroup" rowspan="1" class="pk">
        <code>
        <span class="hole" title="email">a&lt;@x</span>
        </code>
        <span class="dec">email=a&lt;@x</span>
        </th>
        <td title="$[1]">
        <span class="ent e0">User</span>
        </td>
        <td class="attrs">
        <span>
        <i>pk</i> ORG#o1</span> <span>
        <i>sk</i> USER#a</span> </td>
        </tr>
        </tbody>
        </table>
        <table class="part" aria-label="b@x" style="contain-intrinsic-size:auto 44px">
        <colgroup>
        <col class="key">
        <col class="entity">
        <col>
        </colgroup>
        <tbody>
        <tr id="g1r1" class="e0" data-key="[&quot;ORG#o1&quot;,&quot;USER#b&quot;]">
        <th scope="rowgroup" rowspan="1" class="pk">
        <code>
        <span class="hole" title="email">b@x</span>
        </code>
        <span class="dec">email=b@x</span>
        </th>
        <td title="$[0]">
        <span class="ent e0">User</span>
        </td>
        <td class="attrs">
        <span>
        <i>pk</i> ORG#o1</span> <span>
        <i>sk</i> USER#b</span> </td>
        </tr>
        </tbody>
        </table>
        </section>
    "#]]
    .assert_eq(&main.replace("><", ">\n<"));
}
