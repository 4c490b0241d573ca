//! Completion fixtures: `$0` marks the cursor; the snapshot lists each
//! completion as `Kind label — detail`, then `=> insert text` when it differs
//! from the label and `@ «replaced text»` when it replaces a range.
//! `UPDATE_EXPECT=1` rewrites the snapshots.

mod common;

use common::cursor;
use common::cursor::completion_labels as labels;
use dyno::ide::{File, completion::completions};
use expect_test::{Expect, expect};

fn render(fixture: &str) -> String {
    let (text, offset) = cursor::cursor(fixture);
    let file = File::new(text);
    let items = completions(&file, offset);
    if items.is_empty() {
        return "(none)\n".into();
    }
    let mut out = String::new();
    for c in items {
        out.push_str(&format!("{:?} {}", c.kind, c.label));
        if let Some(detail) = &c.detail {
            out.push_str(&format!(" — {detail}"));
        }
        if let Some(insert) = &c.insert_text {
            let insert = insert.replace('\n', "⏎").replace('\t', "⇥");
            out.push_str(&format!(" => {insert}"));
            if c.snippet {
                out.push_str(" (snippet)");
            }
        }
        if let Some(span) = c.replace {
            out.push_str(&format!(" @ «{}»", cursor::excerpt(&file.text, span)));
        }
        out.push('\n');
    }
    out
}

fn check(fixture: &str, expected: Expect) {
    expected.assert_eq(&render(fixture));
}

const BILLING: &str = include_str!("../examples/billing.dyno");

/// The billing example with `$0` right after `cursor_after`, a prefix of
/// the first occurrence of `at`.
fn billing_at(at: &str, cursor_after: &str) -> String {
    assert!(
        at.starts_with(cursor_after),
        "`{cursor_after}` is not a prefix of `{at}`"
    );
    let index = BILLING.find(at).unwrap_or_else(|| panic!("`{at}` not in billing.dyno"));
    let cut = index + cursor_after.len();
    format!("{}$0{}", &BILLING[..cut], &BILLING[cut..])
}

// ---------- top level ----------

#[test]
fn top_level_in_an_empty_file() {
    check(
        "$0",
        expect![[r##"
            Keyword table — a DynamoDB table: keys, indexes, delimiter
            Keyword entity — an item type with typed attributes and key templates
            Keyword pattern — an access pattern: one Query
            Snippet table { key … } — a table with a partition and a sort key => table ${1:Name} {⏎⇥key ${2:pk}, ${3:sk}⏎} (snippet)
            Snippet entity { … } — an entity with its key templates => entity ${1:Name} {⏎⇥${2:id}: ${3:id}⏎⏎⇥pk = "$4"⏎⇥sk = "$5"⏎} (snippet)
            Snippet pattern (…) -> … — an access pattern => pattern ${1:name}(${2:known}) -> ${3:Entity} (snippet)
        "##]],
    );
}

#[test]
fn top_level_after_a_table_uses_its_keys_in_the_entity_snippet() {
    check(
        r##"
        table Legacy {
          key PK, SK
        }
        ent$0
        "##,
        expect![[r##"
            Keyword table — a DynamoDB table: keys, indexes, delimiter
            Keyword entity — an item type with typed attributes and key templates
            Keyword pattern — an access pattern: one Query
            Snippet table { key … } — a table with a partition and a sort key => table ${1:Name} {⏎⇥key ${2:pk}, ${3:sk}⏎} (snippet)
            Snippet entity { … } — an entity with its key templates => entity ${1:Name} {⏎⇥${2:id}: ${3:id}⏎⏎⇥PK = "$4"⏎⇥SK = "$5"⏎} (snippet)
            Snippet pattern (…) -> … — an access pattern => pattern ${1:name}(${2:known}) -> ${3:Entity} (snippet)
        "##]],
    );
}

#[test]
fn top_level_after_an_entity_body() {
    let got = labels(
        r##"
        table T { key pk, sk }
        entity A { id: id  pk = "A#{id}"  sk = "A" }
        $0
        "##,
    );
    assert_eq!(got[..3], ["table", "entity", "pattern"]);
}

// ---------- tables ----------

#[test]
fn table_body_member_keywords() {
    check(
        r##"
        table Billing {
          key pk, sk
          $0
        }
        "##,
        expect![[r##"
            Keyword key — the partition key [, sort key]
            Keyword index — a global secondary index (GSI)
            Keyword local index — a local secondary index (LSI) => local index 
            Keyword delimiter — the key separator (default "#")
            Keyword ttl — the Time to Live attribute (epoch seconds)
        "##]],
    );
}

#[test]
fn table_body_while_typing_an_unclosed_table() {
    check(
        r##"
        table Billing {
          in$0
        "##,
        expect![[r##"
            Keyword key — the partition key [, sort key]
            Keyword index — a global secondary index (GSI)
            Keyword local index — a local secondary index (LSI) => local index 
            Keyword delimiter — the key separator (default "#")
            Keyword ttl — the Time to Live attribute (epoch seconds)
        "##]],
    );
}

#[test]
fn projections_after_an_index_key_list() {
    check(
        r##"
        table Billing {
          key pk, sk
          index gsi1 (gsi1pk, gsi1sk) $0
        }
        "##,
        expect![[r##"
            Keyword all — project every attribute (the default)
            Keyword keys_only — project the table and index keys only
            Keyword include — the keys plus the named attributes => include(${1:attribute}) (snippet)
            Keyword key — the partition key [, sort key]
            Keyword index — a global secondary index (GSI)
            Keyword local index — a local secondary index (LSI) => local index 
            Keyword delimiter — the key separator (default "#")
            Keyword ttl — the Time to Live attribute (epoch seconds)
        "##]],
    );
}

#[test]
fn after_local_comes_index() {
    check(
        r##"
        table Teams {
          key pk, sk
          local $0
        }
        "##,
        expect![[r##"
            Keyword index
        "##]],
    );
}

#[test]
fn a_local_index_restates_the_partition_key() {
    check(
        r##"
        table Teams {
          key pk, sk
          local index lsi1 ($0
        }
        "##,
        expect![[r##"
            Key pk — the table's partition key
        "##]],
    );
}

#[test]
fn key_types_after_a_key_colon() {
    check(
        r##"
        table Metrics {
          key pk: string, ts: $0
        }
        "##,
        expect![[r##"
            Type string — S (the default)
            Type number — N: numeric order
            Type binary — B
        "##]],
    );
}

#[test]
fn include_offers_the_table_entities_attributes() {
    check(
        r##"
        table Catalog {
          key pk, sk
          index inverted (sk, pk) include(title, $0)
        }
        entity Book {
          bookId: id
          title: string
          price: decimal
          pk = "BOOK#{bookId}"
          sk = "BOOK"
        }
        "##,
        expect![[r##"
            Attribute bookId — id
            Attribute title — string
            Attribute price — decimal
        "##]],
    );
}

#[test]
fn a_new_name_gets_nothing() {
    check("table $0", expect!["(none)\n"]);
    check("table T { key pk, sk  index $0 }", expect!["(none)\n"]);
    check("entity $0", expect!["(none)\n"]);
    check("pattern $0", expect!["(none)\n"]);
}

// ---------- entities ----------

#[test]
fn attribute_types_after_a_colon() {
    check(
        r##"
        table T { key pk, sk }
        entity User {
          email: $0
        }
        "##,
        expect![[r#"
            Type string — any text
            Type id — non-empty text without the delimiter
            Type int — decimal digits
            Type int(pad N) — exactly N digits, zero-padded: string order = numeric order => int(pad ${1:6}) (snippet)
            Type decimal — a decimal number
            Type bool — true or false
            Type date — YYYY-MM-DD
            Type datetime — ISO-8601 UTC, YYYY-MM-DDThh:mm:ssZ
            Type datetime(local) — ISO-8601 without a zone, YYYY-MM-DDThh:mm:ss
            Type datetime(offset) — ISO-8601 with +hh:mm: text order is not time order
            Type epoch — a Number of seconds since 1970 (a TTL attribute)
            Type epoch(ms) — a Number of milliseconds since 1970
            Type uuid — 36 characters, random
            Type ulid — 26 characters, sorts by creation time
            Type enum(...) — one of the listed words => enum(${1:a}, ${2:b}) (snippet)
            Type shard(N) — a write shard: 0 to N-1, picked at random on each write => shard(${1:10}) (snippet)
            Type shard(N, of attribute) — a calculated shard: FNV-1a of the attribute's key text, modulo N => shard(${1:10}, of ${2:attribute}) (snippet)
            Type binary — bytes (cannot fill a hole)
            Type list — a DynamoDB list (cannot fill a hole)
            Type map — a DynamoDB map (cannot fill a hole)
        "#]],
    );
}

#[test]
fn attribute_types_while_typing_one() {
    let got = labels(
        r##"
        table T { key pk, sk }
        entity User {
          at: date$0
        }
        "##,
    );
    assert!(got.contains(&"datetime".to_string()), "{got:?}");
}

#[test]
fn pad_inside_int_arguments() {
    check(
        r##"
        table T { key pk, sk }
        entity Invoice {
          number: int($0)
        }
        "##,
        expect![[r##"
            Keyword pad — zero-padded to N digits
        "##]],
    );
}

#[test]
fn member_start_offers_the_unassigned_keys_and_item() {
    check(
        r##"
        table Billing {
          key pk, sk
          index gsi1 (gsi1pk, gsi1sk)
          local index lsi1 (pk, lsi1sk)
          index byEmail (email)
        }
        entity User {
          userId: id
          email: string
          pk = "USER#{userId}"
          $0
        }
        "##,
        expect![[r##"
            Key sk — sort key of Billing
            Key gsi1pk — partition key of index gsi1
            Key gsi1sk — sort key of index gsi1
            Key lsi1sk — sort key of index lsi1
        "##]],
    );
}

#[test]
fn member_start_in_an_empty_entity_offers_item_too() {
    check(
        r##"
        table Teams { key pk, sk }
        entity Membership {
          $0
        }
        "##,
        expect![[r##"
            Key pk — partition key of Teams
            Key sk — sort key of Teams
            Keyword item — one item of several (an adjacency list) => item {⏎⇥$0⏎} (snippet)
        "##]],
    );
}

#[test]
fn member_start_inside_an_item_shape() {
    check(
        r##"
        table Teams { key pk, sk }
        entity Membership {
          userId: id
          teamId: id
          item { pk = "USER#{userId}"  sk = "TEAM#{teamId}" }
          item { pk = "TEAM#{teamId}"  $0 }
        }
        "##,
        expect![[r##"
            Key sk — sort key of Teams
        "##]],
    );
}

#[test]
fn member_start_uses_the_entity_table_among_several() {
    check(
        r##"
        table Shop { key pk, sk }
        table Docs { key docKey, rev: number }
        entity Revision in Docs {
          docId: id
          $0
        }
        "##,
        expect![[r##"
            Key docKey — partition key of Docs
            Key rev — sort key of Docs
            Keyword item — one item of several (an adjacency list) => item {⏎⇥$0⏎} (snippet)
        "##]],
    );
}

#[test]
fn after_a_member_name_nothing() {
    check(
        r##"
        table T { key pk, sk }
        entity User {
          email $0
        }
        "##,
        expect!["(none)\n"],
    );
}

#[test]
fn entity_header_in_and_tables() {
    check(
        "table Shop { key pk, sk }\nentity Order $0",
        expect![[r##"
            Keyword in — the table this entity is stored in
        "##]],
    );
    check(
        "table Shop { key pk, sk }\ntable Docs { key pk, rev: number }\nentity Order in $0",
        expect![[r##"
            Table Shop — table (pk, sk)
            Table Docs — table (pk, rev)
        "##]],
    );
}

#[test]
fn template_hole_offers_the_entity_attributes() {
    check(
        r##"
        table T { key pk, sk }
        entity User {
          tenantId: id
          userId: id
          avatar: binary
          bio: string?
          pk = "TENANT#{$0"
        }
        "##,
        expect![[r##"
            Attribute tenantId — id => tenantId} @ «»
            Attribute userId — id => userId} @ «»
            Attribute bio — string? => bio} @ «»
        "##]],
    );
}

#[test]
fn template_hole_replaces_up_to_the_closing_brace() {
    check(
        r##"
        table T { key pk, sk }
        entity User {
          tenantId: id
          userId: id
          pk = "TENANT#{ten$0ant}"
        }
        "##,
        expect![[r##"
            Attribute tenantId — id => tenantId} @ «tenant}»
        "##]],
    );
}

#[test]
fn template_hole_in_an_item_shape() {
    check(
        r##"
        table T { key pk, sk }
        entity Membership {
          userId: id
          teamId: id
          item { pk = "USER#{u$0}" }
        }
        "##,
        expect![[r##"
            Attribute userId — id => userId} @ «u}»
        "##]],
    );
}

#[test]
fn template_literal_start_offers_the_key_prefixes_of_other_entities() {
    check(
        r##"
        table T { key pk, sk }
        entity Tenant { tenantId: id  pk = "TENANT#{tenantId}"  sk = "META" }
        entity User {
          tenantId: id
          userId: id
          pk = "T$0"
        }
        "##,
        expect![[r##"
            Prefix TENANT# — pk prefix of Tenant @ «T»
        "##]],
    );
}

#[test]
fn template_literal_after_a_hole_gets_nothing() {
    check(
        r##"
        table T { key pk, sk }
        entity Event {
          at: datetime
          eventId: ulid
          sk = "EVENT#{at}#$0"
        }
        "##,
        expect!["(none)\n"],
    );
}

#[test]
fn other_strings_in_an_entity_get_nothing() {
    check(
        r##"
        table T { key pk, sk }
        entity Thing {
          state: enum("in-$0")
        }
        "##,
        expect!["(none)\n"],
    );
    check(r##"table T { key pk, sk  delimiter "$0" }"##, expect!["(none)\n"]);
}

// ---------- patterns ----------

#[test]
fn pattern_known_values_are_the_returned_entities_attributes() {
    check(
        r##"
        table T { key pk, sk }
        entity User { tenantId: id  userId: id  pk = "TENANT#{tenantId}"  sk = "USER#{userId}" }
        entity Invoice { tenantId: id  number: int(pad 6)  pk = "TENANT#{tenantId}"  sk = "INVOICE#{number}" }
        pattern listUsers($0) -> User[]
        "##,
        expect![[r##"
            Attribute tenantId — id
            Attribute userId — id
        "##]],
    );
}

#[test]
fn pattern_known_values_of_every_entity_before_the_arrow() {
    check(
        r##"
        table T { key pk, sk }
        entity User { tenantId: id  userId: id  pk = "TENANT#{tenantId}"  sk = "USER#{userId}" }
        entity Invoice { tenantId: id  number: int(pad 6)  pk = "TENANT#{tenantId}"  sk = "INVOICE#{number}" }
        pattern p(tenantId, $0
        "##,
        expect![[r##"
            Attribute tenantId — id (User, Invoice)
            Attribute userId — id (User)
            Attribute number — int (Invoice)
        "##]],
    );
}

#[test]
fn pattern_known_operators_and_enum_values() {
    check(
        r##"
        table T { key pk, sk }
        entity Invoice { tenantId: id  status: enum(open, paid)  pk = "TENANT#{tenantId}"  sk = "INVOICE" }
        pattern p(status $0) -> Invoice[]
        "##,
        expect![[r##"
            Keyword between — a range: `at between from and to`
            Keyword begins_with — a prefix: `name begins_with p`
        "##]],
    );
    check(
        r##"
        table T { key pk, sk }
        entity Invoice { tenantId: id  status: enum(open, paid)  pk = "TENANT#{tenantId}"  sk = "INVOICE" }
        pattern p(status = $0) -> Invoice[]
        "##,
        expect![[r##"
            EnumMember open — status value
            EnumMember paid — status value
        "##]],
    );
}

#[test]
fn entity_names_after_the_arrow_and_after_a_comma() {
    let schema = r##"
        table Billing { key pk, sk }
        table Other { key pk }
        entity Tenant in Billing { tenantId: id  pk = "TENANT#{tenantId}"  sk = "META" }
        entity User in Billing { tenantId: id  userId: id  pk = "TENANT#{tenantId}"  sk = "USER#{userId}" }
        "##;
    check(
        &format!("{schema}pattern p(tenantId) -> $0"),
        expect![[r##"
            Entity Tenant — entity in Billing
            Entity User — entity in Billing
        "##]],
    );
    check(
        &format!("{schema}pattern p(tenantId) -> Tenant, U$0"),
        expect![[r##"
            Entity Tenant — entity in Billing
            Entity User — entity in Billing
        "##]],
    );
}

#[test]
fn modifiers_after_the_returns() {
    check(
        r##"
        table T { key pk, sk }
        entity User { tenantId: id  userId: id  pk = "TENANT#{tenantId}"  sk = "USER#{userId}" }
        pattern p(tenantId) -> User[] $0
        "##,
        expect![[r#"
            Keyword by — order by an attribute
            Keyword consistent — a strongly consistent read
            Keyword limit — at most N items per page
            Keyword get — read with GetItem: the whole primary key
            Keyword batch get — read with BatchGetItem: up to 100 keys
            Keyword scan — read every item of the table or an index
            Keyword segments — a parallel Scan in N segments
            Keyword where — filter the items read (FilterExpression)
            Snippet = query … — pin the Query => = query ${1:Table} where ${2} (snippet)
            Keyword table — a DynamoDB table: keys, indexes, delimiter
            Keyword entity — an item type with typed attributes and key templates
            Keyword pattern — an access pattern: one Query
        "#]],
    );
}

#[test]
fn attributes_after_by_and_directions_after_its_attribute() {
    let schema = r##"
        table T { key pk, sk }
        entity Tenant { tenantId: id  pk = "TENANT#{tenantId}"  sk = "META" }
        entity Event { tenantId: id  at: datetime  pk = "TENANT#{tenantId}"  sk = "EVENT#{at}" }
        "##;
    check(
        &format!("{schema}pattern p(tenantId) -> Event[] by $0"),
        expect![[r##"
            Attribute tenantId — id
            Attribute at — datetime
        "##]],
    );
    check(
        &format!("{schema}pattern p(tenantId) -> Event[] by at $0"),
        expect![[r#"
            Keyword asc — ascending (the default)
            Keyword desc — descending
            Keyword by — order by an attribute
            Keyword consistent — a strongly consistent read
            Keyword limit — at most N items per page
            Keyword get — read with GetItem: the whole primary key
            Keyword batch get — read with BatchGetItem: up to 100 keys
            Keyword scan — read every item of the table or an index
            Keyword segments — a parallel Scan in N segments
            Keyword where — filter the items read (FilterExpression)
            Snippet = query … — pin the Query => = query ${1:Table} where ${2} (snippet)
        "#]],
    );
}

#[test]
fn after_limit_nothing() {
    check(
        r##"
        table T { key pk, sk }
        entity User { tenantId: id  pk = "TENANT#{tenantId}"  sk = "USER" }
        pattern p(tenantId) -> User[] limit $0
        "##,
        expect!["(none)\n"],
    );
}

// ---------- pinned queries ----------

#[test]
fn query_keyword_after_the_equals() {
    check(
        "table T { key pk, sk }\nentity U { id: id  pk = \"U#{id}\"  sk = \"U\" }\npattern p(id) -> U = $0",
        expect![[r##"
            Keyword query — pin the Query: `query Table where ...`
        "##]],
    );
}

#[test]
fn table_names_after_query() {
    check(
        &billing_at("query Billing", "query "),
        expect![[r##"
            Table Billing — table (pk, sk)
        "##]],
    );
}

#[test]
fn index_names_after_the_table_dot() {
    check(
        r##"
        table Billing {
          key pk, sk
          index gsi1 (gsi1pk, gsi1sk)
          local index lsi1 (pk, lsi1sk)
        }
        entity User { role: enum(admin, member)  userId: id  pk = "USER#{userId}"  sk = "USER"  gsi1pk = "ROLE#{role}"  gsi1sk = "USER#{userId}" }
        pattern admins(role = "admin") -> User[] = query Billing.$0
        "##,
        expect![[r##"
            Index gsi1 — global index (gsi1pk, gsi1sk)
            Index lsi1 — local index (pk, lsi1sk)
        "##]],
    );
}

#[test]
fn where_after_the_table() {
    check(
        "table T { key pk, sk }\nentity U { id: id  pk = \"U#{id}\"  sk = \"U\" }\npattern p(id) -> U = query T $0",
        expect![[r##"
            Keyword where
        "##]],
    );
}

#[test]
fn condition_keys_of_the_queried_index() {
    check(
        r##"
        table Billing {
          key pk, sk
          index gsi1 (gsi1pk, gsi1sk)
        }
        entity User { role: enum(admin, member)  userId: id  pk = "USER#{userId}"  sk = "USER"  gsi1pk = "ROLE#{role}"  gsi1sk = "USER#{userId}" }
        pattern admins(role = "admin") -> User[] = query Billing.gsi1 where gsi1pk = "ROLE#admin" and $0
        "##,
        expect![[r##"
            Key gsi1pk — partition key
            Key gsi1sk — sort key
            Keyword begins_with — a sort-key prefix: `begins_with(sk, "USER#")`
        "##]],
    );
}

#[test]
fn condition_keys_of_the_base_table() {
    check(
        &billing_at("query Billing where pk", "query Billing where "),
        expect![[r##"
            Key pk — partition key
            Key sk — sort key
            Keyword begins_with — a sort-key prefix: `begins_with(sk, "USER#")`
        "##]],
    );
}

#[test]
fn begins_with_offers_the_sort_key() {
    check(
        &billing_at("begins_with(sk", "begins_with("),
        expect![[r##"
            Key sk — sort key
        "##]],
    );
}

#[test]
fn bare_operands_are_the_known_values() {
    check(
        r##"
        table Billing { key pk, sk }
        entity Event { tenantId: id  at: datetime  pk = "TENANT#{tenantId}"  sk = "{at}" }
        pattern since(tenantId, at >= from) -> Event[] =
          query Billing where pk = "TENANT#{tenantId}" and sk >= $0
        "##,
        expect![[r##"
            Value tenantId — known attribute
            Value from — caller value (range bound)
        "##]],
    );
}

#[test]
fn condition_string_hole_offers_the_known_values() {
    check(
        r##"
        table Billing { key pk, sk }
        entity Event { tenantId: id  at: datetime  pk = "TENANT#{tenantId}"  sk = "EVENT#{at}" }
        pattern since(tenantId, at between lo and hi) -> Event[] =
          query Billing where pk = "TENANT#{tenantId}" and sk between "EVENT#{$0}" and "EVENT#{hi}"
        "##,
        expect![[r#"
            Value tenantId — known attribute => tenantId} @ «}»
            Value lo — caller value (range bound) => lo} @ «}»
            Value hi — caller value (range bound) => hi} @ «}»
        "#]],
    );
}

#[test]
fn begins_with_string_offers_the_registered_sort_key_prefixes() {
    // What the editor test types into the billing example.
    check(
        &billing_at("begins_with(sk, \"USER#\")", "begins_with(sk, \""),
        expect![[r##"
            Prefix EVENT# — sk prefix of AuditEvent @ «»
            Prefix INVOICE# — sk prefix of Invoice @ «»
            Prefix META — sk prefix of Tenant @ «»
            Prefix USER# — sk prefix of User @ «»
        "##]],
    );
}

#[test]
fn begins_with_string_is_filtered_by_what_is_typed() {
    check(
        &billing_at("begins_with(sk, \"USER#\")", "begins_with(sk, \"U"),
        expect![[r##"
            Prefix USER# — sk prefix of User @ «U»
        "##]],
    );
}

#[test]
fn begins_with_string_while_typing_a_new_unterminated_query() {
    let text = format!(
        "{BILLING}\npattern mine(tenantId) -> User[] =\n  query Billing where pk = \"TENANT#{{tenantId}}\" and begins_with(sk, \"$0"
    );
    check(
        &text,
        expect![[r##"
            Prefix EVENT# — sk prefix of AuditEvent @ «»
            Prefix INVOICE# — sk prefix of Invoice @ «»
            Prefix META — sk prefix of Tenant @ «»
            Prefix USER# — sk prefix of User @ «»
        "##]],
    );
}

#[test]
fn partition_key_string_offers_its_prefixes() {
    check(
        &billing_at("pk = \"TENANT#{tenantId}\" and", "pk = \"TEN"),
        expect![[r##"
            Prefix TENANT# — pk prefix of Tenant, User, Invoice, AuditEvent @ «TEN»
        "##]],
    );
}

#[test]
fn index_key_string_offers_the_index_key_prefixes() {
    check(
        r##"
        table Billing {
          key pk, sk
          index gsi1 (gsi1pk, gsi1sk)
        }
        entity User { role: enum(admin, member)  userId: id  pk = "USER#{userId}"  sk = "USER"  gsi1pk = "ROLE#{role}"  gsi1sk = "USER#{userId}" }
        entity Invoice { status: enum(open, paid)  number: int(pad 6)  pk = "INVOICE#{number}"  sk = "INVOICE"  gsi1pk = "STATUS#{status}"  gsi1sk = "INVOICE#{number}" }
        pattern admins(role = "admin") -> User[] = query Billing.gsi1 where gsi1pk = "$0"
        "##,
        expect![[r##"
            Prefix ROLE# — gsi1pk prefix of User @ «»
            Prefix STATUS# — gsi1pk prefix of Invoice @ «»
        "##]],
    );
}

#[test]
fn condition_string_after_a_hole_gets_nothing() {
    check(
        &billing_at("pk = \"TENANT#{tenantId}\" and", "pk = \"TENANT#{tenantId}"),
        expect!["(none)\n"],
    );
}

#[test]
fn a_typed_prefix_that_matches_nothing_gets_nothing() {
    let text = BILLING.replace("begins_with(sk, \"USER#\")", "begins_with(sk, \"USERS$0\")");
    check(&text, expect!["(none)\n"]);
}

#[test]
fn prefixes_with_special_characters_are_escaped() {
    check(
        r##"
        table T { key pk, sk }
        entity Legacy { id: id  pk = "V\{1\}#{id}"  sk = "X" }
        pattern p(id) -> Legacy = query T where pk = "V$0"
        "##,
        expect![[r##"
            Prefix V{1}# — pk prefix of Legacy => V\{1\}# @ «V»
        "##]],
    );
}

// ---------- negative cases ----------

#[test]
fn inside_a_comment_nothing() {
    check(
        r##"
        table Billing {
          key pk, sk   // the keys $0
        }
        "##,
        expect!["(none)\n"],
    );
    check("/// docs for $0\ntable T { key pk }", expect!["(none)\n"]);
}

#[test]
fn fixed_value_strings_get_nothing() {
    check(
        r##"
        table T { key pk, sk }
        entity U { role: enum(admin, member)  id: id  pk = "U#{id}"  sk = "U" }
        pattern p(role = "ad$0") -> U[]
        "##,
        expect!["(none)\n"],
    );
}

#[test]
fn unknown_contexts_do_not_panic() {
    // Every offset of a few broken files: completion never panics.
    let texts = [
        BILLING.to_string(),
        "pattern p(a b c) -> = query . where begins_with(,\"".into(),
        "}}}) table {( entity ] pattern -> , \"{".into(),
        "entity E in { a: int(pad pad) \"x\" = \"{}{\" item { item {".into(),
        "table T { key pk, sk } pattern p(x) -> E = query T where sk between \"a\" and \"é{".into(),
        "é \"ü{ä".into(),
    ];
    for text in texts {
        let file = File::new(text.clone());
        for offset in 0..=text.len() + 2 {
            let _ = completions(&file, offset);
        }
    }
}

// ---------- quoted names ----------

fn quoted_at(at: &str, cursor_after: &str) -> String {
    cursor::in_quoted_names(at, cursor_after)
}

#[test]
fn quoted_names_are_offered_quoted() {
    // After `by`: the attributes, quoted where they must be.
    check(
        &quoted_at("by \"State#Date\" desc", "by ").replace("$0\"State#Date\" desc", "$0"),
        expect![[r#"
            Attribute orderId — id
            Attribute customerId — id
            Attribute State#Date — date => "State#Date"
            Attribute Order.Total — decimal => "Order.Total"
        "#]],
    );
    // Inside a quoted name: the names, each replacing the whole string.
    check(
        &quoted_at("by \"State#Date\" desc", "by \"St"),
        expect![[r#"
        Attribute State#Date — date => "State#Date" @ «"State#Date"»
    "#]],
    );
    // A quoted table and index name, and the keys of a quoted index.
    check(
        &quoted_at("in \"orders-prod.v2\" {\n  orderId", "in \"ord"),
        expect![[r#"
        Table orders-prod.v2 — table (PK, SK) => "orders-prod.v2" @ «"orders-prod.v2"»
    "#]],
    );
    check(
        &quoted_at("query \"orders-prod.v2\".\"GSI-1\"", "query \"orders-prod.v2\"."),
        expect![[r#"
        Index GSI-1 — global index (GSI1-PK, GSI1-SK) => "GSI-1"
        Index by-state — global index (GSI1-PK, State#Date) => "by-state"
    "#]],
    );
    check(
        &quoted_at("where \"GSI1-PK\" =", "where "),
        expect![[r#"
        Key GSI1-PK — partition key => "GSI1-PK"
        Key GSI1-SK — sort key => "GSI1-SK"
        Keyword begins_with — a sort-key prefix: `begins_with(sk, "USER#")`
    "#]],
    );
    // A condition key after a quoted one: its operands are read for the
    // right key.
    check(
        &quoted_at("begins_with(\"GSI1-SK\", \"ORDER#\")", "begins_with(\"GSI1-SK\", \"O"),
        expect![[r#"
            Prefix ORDER# — GSI1-SK prefix of Order @ «O»
        "#]],
    );
}

#[test]
fn after_scan_the_indexes_of_the_returned_table() {
    let labels = labels(
        r#"
        table App {
          key pk, sk
          index byEmail (gsi1pk)
          local index byJoined (pk, joined)
        }
        entity User {
          userId: id
          email: string
          pk = "USER#{userId}"
          sk = "PROFILE"
          gsi1pk = "EMAIL#{email}"
        }
        pattern everyone() -> User[] scan $0
        "#,
    );
    assert!(labels.contains(&"byEmail".to_string()), "{labels:?}");
    assert!(labels.contains(&"byJoined".to_string()), "{labels:?}");
    assert!(labels.contains(&"segments".to_string()), "{labels:?}");
}

#[test]
fn after_batch_only_get() {
    check(
        r#"
        table App {
          key pk
        }
        entity User {
          userId: id
          pk = "USER#{userId}"
        }
        pattern users(userId) -> User[] batch $0
        "#,
        expect![[r#"
            Keyword get — BatchGetItem
        "#]],
    );
}

#[test]
fn a_multi_attribute_key_list_offers_the_entities_attributes() {
    let entity =
        "entity Order {\n  tenantId: id\n  region: string\n  createdAt: int\n  pk = \"ORDER\"\n  sk = \"ORDER\"\n}\n";
    for list in ["([tenantId, $0", "([tenantId, region], [$0"] {
        let fixture = format!("table Orders {{\n  key pk, sk\n  index byRegion {list}\n}}\n{entity}");
        check(
            &fixture,
            expect![[r#"
                Attribute tenantId — id
                Attribute region — string
                Attribute createdAt — int
            "#]],
        );
    }
}

#[test]
fn after_a_bounds_colon_the_day_type() {
    check(
        r#"
        table App {
          key pk, sk
        }
        entity Event {
          tenantId: id
          at: datetime
          pk = "T#{tenantId}"
          sk = "E#{at}"
        }
        pattern until(tenantId, at <= day: $0) -> Event[]
        "#,
        expect![[r#"
            Type date — the caller passes a day for a datetime: see W203
        "#]],
    );
}

// ---------- write shards ----------

const SHARDED: &str = r##"
table Games {
  key pk, sk
}
entity Score {
  gameId: id
  userId: id
  points: int
  payload: map
  shard: shard(10)
  bucket: shard(4, of userId)
  pk = "SCORE#{gameId}.{shard}"
  sk = "{points}#{userId}"
}
"##;

#[test]
fn attribute_types_offer_both_shards_as_snippets() {
    let got = render("table T { key pk }\nentity E {\n  s: $0\n}");
    let shards: Vec<&str> = got.lines().filter(|l| l.contains("shard")).collect();
    expect![[r#"
        [
            "Type shard(N) — a write shard: 0 to N-1, picked at random on each write => shard(${1:10}) (snippet)",
            "Type shard(N, of attribute) — a calculated shard: FNV-1a of the attribute's key text, modulo N => shard(${1:10}, of ${2:attribute}) (snippet)",
        ]
    "#]]
    .assert_debug_eq(&shards);
}

#[test]
fn shard_after_the_count_offers_of() {
    check(
        &SHARDED.replace("shard(4, of userId)", "shard(4, $0)"),
        expect![[r#"
            Keyword of — calculated from an attribute: FNV-1a of its key text, modulo the count => of 
        "#]],
    );
}

#[test]
fn shard_after_of_offers_the_attributes_a_shard_can_be_computed_from() {
    // Not the map (no key text), not another shard, not the shard itself.
    check(
        &SHARDED.replace("of userId)", "of us$0)"),
        expect![[r#"
            Attribute gameId — id
            Attribute userId — id
            Attribute points — int
        "#]],
    );
}

#[test]
fn shard_after_of_while_the_entity_does_not_lower() {
    // The body is cut short: the attribute names come from the tokens.
    check(
        "table Games { key pk }\nentity Score {\n  userId: id\n  blob: binary\n  shard: shard(10)\n  bucket: shard(4, of $0",
        expect![[r#"
            Attribute userId — id
        "#]],
    );
}

#[test]
fn rate_hint_after_the_slash_offers_per_second() {
    check(
        "table T { key pk }\nentity E { id: id pk = \"E#{id}\" }\npattern p(id) -> E ~200/$0",
        expect![[r#"
            Keyword s — per second: `~2500/s`
        "#]],
    );
    check(
        "table T { key pk }\nentity E ~2500/$0",
        expect![[r#"
            Keyword s — per second: `~2500/s`
        "#]],
    );
}
