//! Quick-fix fixtures: `$0` marks the cursor (or two `$0` a selected
//! range). Each action's edits are applied, the fixed text is compared with
//! the snapshot, and the fixed text is analysed again: the diagnostic the
//! action fixes must be gone. `UPDATE_EXPECT=1` rewrites the snapshots.
//! The "Design keys" fixtures at the end work the same way: its edits give
//! the designer's schema, which checks without errors when the title says
//! every pattern is one Query.

mod common;

use common::{cursor, markdown};
use dyno::check::analyze;
use dyno::diagnostic::{Code, Diagnostic, Severity};
use dyno::ide::File;
use dyno::ide::code_actions::{Action, actions};
use dyno::ide::design::{MAX_BYTES, design_keys};
use dyno::syntax::Span;
use expect_test::{Expect, expect};

/// The fixture's text and the range it marks: a cursor is an empty range.
fn marked(fixture: &str) -> (String, Span) {
    if fixture.matches(cursor::CURSOR).count() == 2 {
        cursor::range(fixture)
    } else {
        let (text, offset) = cursor::cursor(fixture);
        (text, Span::empty(offset))
    }
}

fn describe(diagnostics: &[Diagnostic]) -> String {
    if diagnostics.is_empty() {
        return "no diagnostics".into();
    }
    diagnostics
        .iter()
        .map(|d| format!("{} {}", d.code.as_str(), d.message))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The diagnostic an action fixes is gone once it is applied: the fixed
/// text has fewer diagnostics with that code.
fn assert_fixed(text: &str, action: &Action, fixed: &str) {
    let count = |text: &str| {
        analyze(text)
            .diagnostics()
            .iter()
            .filter(|d| d.code == action.code)
            .count()
    };
    assert!(
        count(fixed) < count(text),
        "`{}` leaves its {} in place:\n{fixed}\n{}",
        action.title,
        action.code.as_str(),
        describe(analyze(fixed).diagnostics())
    );
}

fn check(fixture: &str, expected: Expect) {
    let (text, range) = marked(fixture);
    let file = File::new(text);
    let found = actions(&file, range);
    let mut out = String::new();
    if found.is_empty() {
        out.push_str("(no actions)\n");
    }
    for action in &found {
        let fixed = cursor::apply_fix(&file.text, &action.edits);
        assert_fixed(&file.text, action, &fixed);
        let preferred = if action.preferred { " (preferred)" } else { "" };
        out.push_str(&format!("{} {}{preferred}\n", action.code.as_str(), action.title));
        out.push_str(&format!("--- fixed\n{fixed}"));
        out.push_str(&format!("--- then: {}\n", describe(analyze(&fixed).diagnostics())));
    }
    expected.assert_eq(&out);
}

// ---------- did you mean ----------

#[test]
fn prefix_typo_in_a_sort_condition() {
    check(
        r#"
        table App {
          key pk, sk
        }
        entity User {
          tenantId: id
          userId: id
          pk = "TENANT#{tenantId}"
          sk = "USER#{userId}"
        }
        pattern listUsers(tenantId) -> User[] =
          query App where pk = "TENANT#{tenantId}" and begins_with(sk, "US$0ERS#")
        "#,
        expect![[r#"
            E203 change `USERS#` to `USER#` (preferred)
            --- fixed
            table App {
              key pk, sk
            }
            entity User {
              tenantId: id
              userId: id
              pk = "TENANT#{tenantId}"
              sk = "USER#{userId}"
            }
            pattern listUsers(tenantId) -> User[] =
              query App where pk = "TENANT#{tenantId}" and begins_with(sk, "USER#")
            --- then: no diagnostics
        "#]],
    );
}

#[test]
fn prefix_typo_before_a_hole_in_the_partition_key() {
    check(
        r#"
        table App {
          key pk, sk
        }
        entity User {
          tenantId: id
          userId: id
          pk = "TENANT#{tenantId}"
          sk = "USER#{userId}"
        }
        pattern listUsers(tenantId) -> User[] =
          query App where pk = $0"TENNANT#{tenantId}" and begins_with(sk, "USER#")
        "#,
        expect![[r#"
            E203 change `TENNANT#` to `TENANT#` (preferred)
            --- fixed
            table App {
              key pk, sk
            }
            entity User {
              tenantId: id
              userId: id
              pk = "TENANT#{tenantId}"
              sk = "USER#{userId}"
            }
            pattern listUsers(tenantId) -> User[] =
              query App where pk = "TENANT#{tenantId}" and begins_with(sk, "USER#")
            --- then: no diagnostics
        "#]],
    );
}

#[test]
fn prefix_typo_with_escapes_is_replaced_exactly() {
    check(
        r#"
        table App {
          key pk, sk
        }
        entity Doc {
          docId: id
          pk = "DOC\{#{docId}"
          sk = "V\"1"
        }
        pattern doc(docId) -> Doc =
          query App where pk = "DOCS\{#$0{docId}" and sk = "V\"1"
        "#,
        expect![[r#"
            E203 change `DOCS{#` to `DOC{#` (preferred)
            --- fixed
            table App {
              key pk, sk
            }
            entity Doc {
              docId: id
              pk = "DOC\{#{docId}"
              sk = "V\"1"
            }
            pattern doc(docId) -> Doc =
              query App where pk = "DOC\{#{docId}" and sk = "V\"1"
            --- then: no diagnostics
        "#]],
    );
}

#[test]
fn misspelt_hole_attribute() {
    check(
        r#"
        table App {
          key pk
        }
        entity User {
          userId: id
          pk = "USER#{user$0ID}"
        }
        pattern getUser(userId) -> User
        "#,
        expect![[r#"
            E101 change to `userId` (preferred)
            --- fixed
            table App {
              key pk
            }
            entity User {
              userId: id
              pk = "USER#{userId}"
            }
            pattern getUser(userId) -> User
            --- then: no diagnostics
        "#]],
    );
}

#[test]
fn misspelt_key_table_and_type() {
    check(
        r#"
        table App {
          key pk, sk
          index gsi1 (gsi1pk, gsi1sk)
        }
        entity User {
          userId: id
          email: string
          pk = "USER#{userId}"
          sk = "PROFILE"
          gsi1pk = "EMAIL#{email}"
          gsi1Sk$0 = "USER"
        }
        pattern userByEmail(email) -> User
        "#,
        expect![[r#"
            E102 change to `gsi1sk` (preferred)
            --- fixed
            table App {
              key pk, sk
              index gsi1 (gsi1pk, gsi1sk)
            }
            entity User {
              userId: id
              email: string
              pk = "USER#{userId}"
              sk = "PROFILE"
              gsi1pk = "EMAIL#{email}"
              gsi1sk = "USER"
            }
            pattern userByEmail(email) -> User
            --- then: W202 `userByEmail` returns one `User`, but index `gsi1` does not keep its keys unique: two `User` items can share them, and the Query then returns both
        "#]],
    );
    check(
        r#"
        table App {
          key pk
        }
        table Audit {
          key pk
        }
        entity User in Ap$0 {
          userId: id
          pk = "USER#{userId}"
        }
        pattern getUser(userId) -> User
        "#,
        expect![[r#"
            E110 change to `App` (preferred)
            --- fixed
            table App {
              key pk
            }
            table Audit {
              key pk
            }
            entity User in App {
              userId: id
              pk = "USER#{userId}"
            }
            pattern getUser(userId) -> User
            --- then: no diagnostics
        "#]],
    );
    check(
        r#"
        table App {
          key pk
        }
        entity User {
          userId: id
          age: st$0rng
          pk = "USER#{userId}"
        }
        pattern getUser(userId) -> User
        "#,
        expect![[r#"
            E109 change to `string` (preferred)
            --- fixed
            table App {
              key pk
            }
            entity User {
              userId: id
              age: string
              pk = "USER#{userId}"
            }
            pattern getUser(userId) -> User
            --- then: no diagnostics
        "#]],
    );
}

#[test]
fn misspelt_entity() {
    check(
        r#"
        table App {
          key pk
        }
        entity User {
          userId: id
          pk = "USER#{userId}"
        }
        pattern getUser(userId) -> U$0sr
        "#,
        expect![[r#"
            E106 change to `User` (preferred)
            --- fixed
            table App {
              key pk
            }
            entity User {
              userId: id
              pk = "USER#{userId}"
            }
            pattern getUser(userId) -> User
            --- then: no diagnostics
        "#]],
    );
}

#[test]
fn misspelt_known_value() {
    check(
        r#"
        table App {
          key pk
        }
        entity User {
          userId: id
          pk = "USER#{userId}"
        }
        pattern getUser(userID$0) -> User
        "#,
        expect![[r#"
            E112 change to `userId` (preferred)
            --- fixed
            table App {
              key pk
            }
            entity User {
              userId: id
              pk = "USER#{userId}"
            }
            pattern getUser(userId) -> User
            --- then: no diagnostics
        "#]],
    );
}

#[test]
fn misspelt_value_in_a_pinned_query() {
    check(
        r#"
        table App {
          key pk
        }
        entity User {
          userId: id
          pk = "USER#{userId}"
        }
        pattern getUser(userId) -> User = query App where pk = "USER#{$0userI}"
        "#,
        expect![[r#"
            E107 change to `userId` (preferred)
            --- fixed
            table App {
              key pk
            }
            entity User {
              userId: id
              pk = "USER#{userId}"
            }
            pattern getUser(userId) -> User = query App where pk = "USER#{userId}"
            --- then: no diagnostics
        "#]],
    );
}

#[test]
fn misspelt_index_in_a_pinned_query() {
    check(
        r#"
        table App {
          key pk
          index byEmail (email)
        }
        entity User {
          userId: id
          email: string
          pk = "USER#{userId}"
        }
        pattern userByEmail(email) -> User = query App.by$0Mail where email = email
        "#,
        expect![[r#"
            E108 change to `byEmail` (preferred)
            --- fixed
            table App {
              key pk
              index byEmail (email)
            }
            entity User {
              userId: id
              email: string
              pk = "USER#{userId}"
            }
            pattern userByEmail(email) -> User = query App.byEmail where email = email
            --- then: W202 `userByEmail` returns one `User`, but index `byEmail` does not keep its keys unique: two `User` items can share them, and the Query then returns both
        "#]],
    );
}

#[test]
fn fixed_value_outside_an_enum_keeps_its_quoting() {
    let schema = r#"
        table App {
          key pk, sk
          index gsi1 (gsi1pk, gsi1sk)
        }
        entity Invoice {
          invoiceId: id
          status: enum(open, paid)
          pk = "INVOICE#{invoiceId}"
          sk = "META"
          gsi1pk = "STATUS#{status}"
          gsi1sk = "INVOICE#{invoiceId}"
        }
    "#;
    check(
        &format!("{schema}    pattern openInvoices(status = \"opn\"$0) -> Invoice[]\n"),
        expect![[r#"
            E209 change to `open` (preferred)
            --- fixed
            table App {
              key pk, sk
              index gsi1 (gsi1pk, gsi1sk)
            }
            entity Invoice {
              invoiceId: id
              status: enum(open, paid)
              pk = "INVOICE#{invoiceId}"
              sk = "META"
              gsi1pk = "STATUS#{status}"
              gsi1sk = "INVOICE#{invoiceId}"
            }
            pattern openInvoices(status = "open") -> Invoice[]
            --- then: no diagnostics
        "#]],
    );
    check(
        &format!("{schema}    pattern paidInvoices(status = $0payd) -> Invoice[]\n"),
        expect![[r#"
            E209 change to `paid` (preferred)
            --- fixed
            table App {
              key pk, sk
              index gsi1 (gsi1pk, gsi1sk)
            }
            entity Invoice {
              invoiceId: id
              status: enum(open, paid)
              pk = "INVOICE#{invoiceId}"
              sk = "META"
              gsi1pk = "STATUS#{status}"
              gsi1sk = "INVOICE#{invoiceId}"
            }
            pattern paidInvoices(status = paid) -> Invoice[]
            --- then: no diagnostics
        "#]],
    );
}

// ---------- the proposed index ----------

#[test]
fn unserved_pattern_reuses_an_index_the_entity_does_not_write_yet() {
    // `GSI1` is there, named in capitals, and `Invoice` writes none of its
    // keys: the fix writes them rather than declaring a second index.
    check(
        r#"
        table App {
          key PK, SK
          index GSI1 (GSI1PK, GSI1SK)
        }
        entity Tenant {
          tenantId: id
          plan: enum(free, paid)
          PK = "TENANT#{tenantId}"
          SK = "META"
          GSI1PK = "PLAN#{plan}"
          GSI1SK = "TENANT#{tenantId}"
        }
        entity Invoice {
          tenantId: id
          number: int(pad 6)
          status: enum(open, paid)
          PK = "TENANT#{tenantId}"
          SK = "INVOICE#{number}"
        }
        pattern tenantsOnPlan(plan) -> Tenant[]
        pattern invoices$0ByStatus(status) -> Invoice[] by number
        "#,
        expect![[r#"
            E201 write the keys of index `GSI1` in `Invoice`
            --- fixed
            table App {
              key PK, SK
              index GSI1 (GSI1PK, GSI1SK)
            }
            entity Tenant {
              tenantId: id
              plan: enum(free, paid)
              PK = "TENANT#{tenantId}"
              SK = "META"
              GSI1PK = "PLAN#{plan}"
              GSI1SK = "TENANT#{tenantId}"
            }
            entity Invoice {
              tenantId: id
              number: int(pad 6)
              status: enum(open, paid)
              PK = "TENANT#{tenantId}"
              SK = "INVOICE#{number}"
              GSI1PK = "INVOICE#{status}"
              GSI1SK = "{number}"
            }
            pattern tenantsOnPlan(plan) -> Tenant[]
            pattern invoicesByStatus(status) -> Invoice[] by number
            --- then: no diagnostics
        "#]],
    );
}

#[test]
fn a_single_return_the_key_cannot_guarantee_gets_a_list() {
    check(
        r#"
        table App {
          key pk, sk
        }
        entity Order {
          customerId: id
          orderId: ulid
          pk = "CUSTOMER#{customerId}"
          sk = "ORDER#{orderId}"
        }
        pattern first$0Order(customerId) -> Order limit 1
        "#,
        expect![[r#"
            E201 return `Order[]`
            --- fixed
            table App {
              key pk, sk
            }
            entity Order {
              customerId: id
              orderId: ulid
              pk = "CUSTOMER#{customerId}"
              sk = "ORDER#{orderId}"
            }
            pattern firstOrder(customerId) -> Order[] limit 1
            --- then: no diagnostics
        "#]],
    );
}

#[test]
fn unserved_pattern_gets_the_proposed_index() {
    check(
        r#"
        table App {
          key pk, sk
        }

        entity User {
          userId: id
          email: string
          pk = "USER#{userId}"
          sk = "PROFILE"
        }

        pattern user$0ByEmail(email) -> User
        "#,
        expect![[r#"
            E201 add index `gsi1` to `App` and its keys to `User`
            --- fixed
            table App {
              key pk, sk
              index gsi1 (gsi1pk, gsi1sk)
            }

            entity User {
              userId: id
              email: string
              pk = "USER#{userId}"
              sk = "PROFILE"
              gsi1pk = "USER#{email}"
              gsi1sk = "PROFILE"
            }

            pattern userByEmail(email) -> User
            --- then: W202 `userByEmail` returns one `User`, but index `gsi1` does not keep its keys unique: two `User` items can share them, and the Query then returns both
        "#]],
    );
}

#[test]
fn proposed_index_carries_the_write_shard_of_a_sharded_entity() {
    // An index keyed on the day alone would take every write of the day in
    // one partition: the proposal ends its key with the entity's shard, and
    // the pattern is read as one Query per shard.
    check(
        r#"
        table Games {
          key pk, sk
        }

        entity Score ~300B ~2500/s {
          gameId: id
          day: date
          userId: id
          points: int(pad 9)
          shard: shard(10)
          pk = "SCORE#{gameId}.{shard}"
          sk = "{points}#{userId}"
        }

        pattern $0leaderboard(day) -> Score[] by points desc
        "#,
        expect![[r#"
            E201 add index `gsi1` to `Games` and its keys to `Score`
            --- fixed
            table Games {
              key pk, sk
              index gsi1 (gsi1pk, gsi1sk)
            }

            entity Score ~300B ~2500/s {
              gameId: id
              day: date
              userId: id
              points: int(pad 9)
              shard: shard(10)
              pk = "SCORE#{gameId}.{shard}"
              sk = "{points}#{userId}"
              gsi1pk = "SCORE#{day}.{shard}"
              gsi1sk = "{points}"
            }

            pattern leaderboard(day) -> Score[] by points desc
            --- then: no diagnostics
        "#]],
    );
}

#[test]
fn proposed_index_adds_a_write_shard_for_a_busy_entity() {
    check(
        r#"
        table Games {
          key pk, sk
        }

        entity Score ~300B ~2500/s {
          gameId: id
          day: date
          userId: id
          points: int(pad 9)
          pk = "SCORE#{gameId}"
          sk = "{points}#{userId}"
        }

        pattern $0leaderboard(day) -> Score[] by points desc
        "#,
        expect![[r#"
            E201 add index `gsi1` to `Games` and its keys to `Score`
            --- fixed
            table Games {
              key pk, sk
              index gsi1 (gsi1pk, gsi1sk)
            }

            entity Score ~300B ~2500/s {
              gameId: id
              day: date
              userId: id
              points: int(pad 9)
              shard: shard(3)
              pk = "SCORE#{gameId}"
              sk = "{points}#{userId}"
              gsi1pk = "SCORE#{day}.{shard}"
              gsi1sk = "{points}"
            }

            pattern leaderboard(day) -> Score[] by points desc
            --- then: no diagnostics
        "#]],
    );
}

#[test]
fn proposed_index_lines_follow_the_indentation_and_comments() {
    check(
        "
        table Billing {
        \tkey pk, sk
        \tindex gsi1 (gsi1pk, gsi1sk) // by status
        }

        entity Invoice {
        \ttenantId: id
        \tnumber: int(pad 6)
        \tstatus: enum(open, paid)
        \tdueDate: date
        \tpk     = \"TENANT#{tenantId}\"
        \tsk     = \"INVOICE#{number}\"
        \tgsi1pk = \"STATUS#{status}\"
        \tgsi1sk = \"{dueDate}\"
        }

        pattern openInvoices(status = open) -> Invoice[] by dueDate
        pattern invoicesByDueDate$0(dueDate) -> Invoice[]
        ",
        expect![[r#"
            E201 add index `gsi2` to `Billing` and its keys to `Invoice`
            --- fixed
            table Billing {
            	key pk, sk
            	index gsi1 (gsi1pk, gsi1sk) // by status
            	index gsi2 (gsi2pk, gsi2sk)
            }

            entity Invoice {
            	tenantId: id
            	number: int(pad 6)
            	status: enum(open, paid)
            	dueDate: date
            	pk     = "TENANT#{tenantId}"
            	sk     = "INVOICE#{number}"
            	gsi1pk = "STATUS#{status}"
            	gsi1sk = "{dueDate}"
            	gsi2pk = "INVOICE#{dueDate}"
            	gsi2sk = "INVOICE#{number}"
            }

            pattern openInvoices(status = open) -> Invoice[] by dueDate
            pattern invoicesByDueDate(dueDate) -> Invoice[]
            --- then: no diagnostics
        "#]],
    );
}

#[test]
fn proposed_index_on_one_line_tables_and_entities() {
    check(
        r#"
        table App { key pk, sk }
        entity User { userId: id  email: string  pk = "USER#{userId}"  sk = "PROFILE" }
        pattern $0userByEmail(email) -> User
        "#,
        expect![[r#"
            E201 add index `gsi1` to `App` and its keys to `User`
            --- fixed
            table App { key pk, sk index gsi1 (gsi1pk, gsi1sk) }
            entity User { userId: id  email: string  pk = "USER#{userId}"  sk = "PROFILE" gsi1pk = "USER#{email}" gsi1sk = "PROFILE" }
            pattern userByEmail(email) -> User
            --- then: W202 `userByEmail` returns one `User`, but index `gsi1` does not keep its keys unique: two `User` items can share them, and the Query then returns both
        "#]],
    );
}

#[test]
fn proposed_index_keeps_crlf_line_ends() {
    let text = "table App {\r\n  key pk, sk\r\n}\r\n\r\nentity User {\r\n  userId: id\r\n  email: string\r\n  \
                pk = \"USER#{userId}\"\r\n  sk = \"PROFILE\"\r\n}\r\n\r\npattern userByEmail(email) -> User[]\r\n";
    let file = File::new(text.to_string());
    let at = text.find("userByEmail").unwrap();
    let found = actions(&file, Span::empty(at));
    let [action] = found.as_slice() else {
        panic!("one action expected: {found:#?}")
    };
    let fixed = cursor::apply_fix(text, &action.edits);
    assert_fixed(text, action, &fixed);
    assert!(
        !fixed.replace("\r\n", "").contains('\n'),
        "a bare line feed was added:\n{fixed:?}"
    );
    assert!(
        fixed.contains("  key pk, sk\r\n  index gsi1 (gsi1pk, gsi1sk)\r\n}"),
        "{fixed:?}"
    );
    assert!(
        analyze(&fixed).diagnostics().is_empty(),
        "{}",
        describe(analyze(&fixed).diagnostics())
    );
}

#[test]
fn no_index_fix_for_a_pattern_over_several_entities() {
    // The help still proposes an index for the first entity, but adding it
    // would not serve the pattern: no fix is offered.
    check(
        r#"
        table App {
          key pk, sk
        }
        entity User {
          userId: id
          email: string
          pk = "USER#{userId}"
          sk = "PROFILE"
        }
        entity Login {
          userId: id
          email: string
          at: datetime
          pk = "USER#{userId}"
          sk = "LOGIN#{at}"
        }
        pattern byEmail$0(email) -> User, Login[]
        "#,
        expect![[r#"
            (no actions)
        "#]],
    );
}

#[test]
fn no_index_fix_when_the_pattern_knows_what_the_entity_lacks() {
    // `emial` is no attribute of `User` (E112, too far from `email` to
    // suggest): keys built from it would not compile.
    check(
        r#"
        table App {
          key pk, sk
        }
        entity User {
          userId: id
          email: string
          pk = "USER#{userId}"
          sk = "PROFILE"
        }
        pattern userBy$0Email(emial) -> User
        "#,
        expect![[r#"
            (no actions)
        "#]],
    );
}

// ---------- narrowing a leaking condition ----------

#[test]
fn leaking_prefix_is_narrowed() {
    check(
        r#"
        table App {
          key pk, sk
        }
        entity User {
          tenantId: id
          userId: id
          pk = "TENANT#{tenantId}"
          sk = "USER#{userId}"
        }
        entity UserGroup {
          tenantId: id
          groupId: id
          pk = "TENANT#{tenantId}"
          sk = "USERGROUP#{groupId}"
        }
        pattern listUsers(tenantId) -> User[] =
          query App where pk = "TENANT#{tenantId}" and begins_with(sk, $0"USER")
        "#,
        expect![[r#"
            E202 narrow to `begins_with(sk, "USER#")`
            --- fixed
            table App {
              key pk, sk
            }
            entity User {
              tenantId: id
              userId: id
              pk = "TENANT#{tenantId}"
              sk = "USER#{userId}"
            }
            entity UserGroup {
              tenantId: id
              groupId: id
              pk = "TENANT#{tenantId}"
              sk = "USERGROUP#{groupId}"
            }
            pattern listUsers(tenantId) -> User[] =
              query App where pk = "TENANT#{tenantId}" and begins_with(sk, "USER#")
            --- then: H301 no pattern returns `UserGroup`
        "#]],
    );
}

#[test]
fn whole_partition_query_gets_a_begins_with() {
    check(
        r#"
        table App {
          key pk, sk
        }
        entity Tenant {
          tenantId: id
          pk = "TENANT#{tenantId}"
          sk = "META"
        }
        entity User {
          tenantId: id
          userId: id
          pk = "TENANT#{tenantId}"
          sk = "USER#{userId}"
        }
        pattern listUsers(tenantId) -> User[] =
          query App where pk = $0"TENANT#{tenantId}"
        "#,
        expect![[r#"
            E202 narrow to `begins_with(sk, "USER#")`
            --- fixed
            table App {
              key pk, sk
            }
            entity Tenant {
              tenantId: id
              pk = "TENANT#{tenantId}"
              sk = "META"
            }
            entity User {
              tenantId: id
              userId: id
              pk = "TENANT#{tenantId}"
              sk = "USER#{userId}"
            }
            pattern listUsers(tenantId) -> User[] =
              query App where pk = "TENANT#{tenantId}" and begins_with(sk, "USER#")
            --- then: H301 no pattern returns `Tenant`
        "#]],
    );
}

// ---------- sort order ----------

#[test]
fn unpadded_int_in_a_sort_key_gets_a_pad() {
    check(
        r#"
        table App {
          key pk, sk
        }
        entity Invoice {
          tenantId: id
          number: int
          pk = "TENANT#{tenantId}"
          sk = "INVOICE#{number}"
        }
        pattern invo$0ices(tenantId) -> Invoice[] by number desc
        "#,
        expect![[r#"
            E201 declare `number: int(pad 10)`
            --- fixed
            table App {
              key pk, sk
            }
            entity Invoice {
              tenantId: id
              number: int(pad 10)
              pk = "TENANT#{tenantId}"
              sk = "INVOICE#{number}"
            }
            pattern invoices(tenantId) -> Invoice[] by number desc
            --- then: no diagnostics
        "#]],
    );
}

#[test]
fn date_typed_string_in_a_sort_key_gets_a_date_type() {
    check(
        r#"
        table App {
          key pk, sk
        }
        entity Event {
          deviceId: id
          createdAt: string
          pk = "DEVICE#{deviceId}"
          sk = "EVENT#{createdAt}$0"
        }
        pattern recent(deviceId, createdAt >= since) -> Event[]
        "#,
        expect![[r#"
            W303 declare `createdAt: datetime`
            --- fixed
            table App {
              key pk, sk
            }
            entity Event {
              deviceId: id
              createdAt: datetime
              pk = "DEVICE#{deviceId}"
              sk = "EVENT#{createdAt}"
            }
            pattern recent(deviceId, createdAt >= since) -> Event[]
            --- then: no diagnostics
        "#]],
    );
}

// ---------- where there is nothing to fix ----------

#[test]
fn no_actions_away_from_diagnostics() {
    check(
        r#"
        table App {
          key pk
        }
        entity User {
          user$0Id: id
          pk = "USER#{userID}"
        }
        "#,
        expect![[r#"
            (no actions)
        "#]],
    );
}

#[test]
fn no_actions_for_a_diagnostic_without_a_known_fix() {
    check(
        r#"
        table App {
          key pk, sk
          index gsi1 (gsi1pk, gsi1sk)
        }
        entity Order {
          orderId: id
          status: enum(open, shipped)
          pk = "ORDER#{orderId}"
          sk = "META"
          gsi1pk = "STATUS#{status}"
          gsi1sk = "ORDER#{orderId}"
        }
        pattern openOrders(status = open) -> Order[] consis$0tent
        "#,
        expect![[r#"
            (no actions)
        "#]],
    );
}

#[test]
fn a_selection_gets_every_fix_inside_it() {
    let (text, range) = marked(
        r#"
        table App {
          key pk
        }
        $0entity User {
          userId: id
          age: strng
          pk = "USER#{userID}"
        }
        pattern getUser(userId) -> Usr$0
        "#,
    );
    let file = File::new(text);
    let titles: Vec<String> = actions(&file, range)
        .iter()
        .map(|a| format!("{} {}", a.code.as_str(), a.title))
        .collect();
    expect![[r#"
        [
            "E109 change to `string`",
            "E101 change to `userId`",
            "E106 change to `User`",
        ]
    "#]]
    .assert_debug_eq(&titles);
}

// ---------- every fix, everywhere ----------

/// Every fix offered on the documented failing examples and the checker
/// fixtures removes what it fixes and adds no syntax error.
#[test]
fn every_fix_in_the_docs_and_fixtures_fixes() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut texts: Vec<(String, String)> = Vec::new();
    let markdown_text = std::fs::read_to_string(root.join("docs/diagnostics.md")).unwrap();
    for block in markdown::blocks(&markdown_text) {
        if block.info == "dyno fails" {
            texts.push((format!("docs/diagnostics.md:{}", block.line), block.code));
        }
    }
    for path in common::fixtures("tests/fixtures/check") {
        texts.push((path.display().to_string(), std::fs::read_to_string(&path).unwrap()));
    }
    let mut fixes = 0;
    let mut codes: Vec<Code> = Vec::new();
    for (name, text) in texts {
        let analysis = analyze(&text);
        for diagnostic in analysis.diagnostics() {
            for fix in &diagnostic.fixes {
                fixes += 1;
                if !codes.contains(&diagnostic.code) {
                    codes.push(diagnostic.code);
                }
                let fixed = cursor::apply_fix(&text, &fix.edits);
                let after = analyze(&fixed).diagnostics().to_vec();
                let count = |ds: &[Diagnostic]| ds.iter().filter(|d| d.code == diagnostic.code).count();
                assert!(
                    count(&after) < count(analysis.diagnostics()),
                    "{name}: `{}` leaves its {}:\n{fixed}\n{}",
                    fix.title,
                    diagnostic.code.as_str(),
                    describe(&after)
                );
                let syntax = |ds: &[Diagnostic]| {
                    ds.iter()
                        .filter(|d| d.severity == Severity::Error && d.code.as_str() < "E100")
                        .count()
                };
                assert!(
                    syntax(&after) <= syntax(analysis.diagnostics()),
                    "{name}: `{}` breaks the syntax:\n{fixed}\n{}",
                    fix.title,
                    describe(&after)
                );
            }
        }
    }
    codes.sort();
    let codes: Vec<&str> = codes.iter().map(|c| c.as_str()).collect();
    assert!(fixes >= codes.len());
    expect![[r#"
        [
            "E101",
            "E106",
            "E108",
            "E117",
            "E201",
            "E202",
            "E203",
            "E209",
            "W303",
            "H201",
        ]
    "#]]
    .assert_debug_eq(&codes);
}

#[test]
fn a_typo_in_a_quoted_name_is_fixed_with_a_quoted_name() {
    check(
        r#"
        table "orders-prod.v2" {
          key PK, "State#Date"
        }
        entity OrderState in "orders-prod.v$03" {
          orderId: id
          "State#Date": date
          PK = "ORDER#{orderId}"
        }
        pattern history(orderId) -> OrderState[] by "State#Dat"
        "#,
        expect![[r#"
            E110 change to `orders-prod.v2` (preferred)
            --- fixed
            table "orders-prod.v2" {
              key PK, "State#Date"
            }
            entity OrderState in "orders-prod.v2" {
              orderId: id
              "State#Date": date
              PK = "ORDER#{orderId}"
            }
            pattern history(orderId) -> OrderState[] by "State#Dat"
            --- then: E201 no single Query serves `history`: it would need a Scan or several Queries
            E112 order `State#Dat` is not an attribute of the returned entities; did you mean `State#Date`?
        "#]],
    );
    check(
        r#"
        table "orders-prod.v2" {
          key PK, "State#Date"
        }
        entity OrderState in "orders-prod.v2" {
          orderId: id
          "State#Date": date
          PK = "ORDER#{orderId}"
        }
        pattern history(orderId) -> OrderState[] by "State#Da$0t"
        "#,
        expect![[r#"
            E112 change to `State#Date` (preferred)
            --- fixed
            table "orders-prod.v2" {
              key PK, "State#Date"
            }
            entity OrderState in "orders-prod.v2" {
              orderId: id
              "State#Date": date
              PK = "ORDER#{orderId}"
            }
            pattern history(orderId) -> OrderState[] by "State#Date"
            --- then: no diagnostics
        "#]],
    );
}

// ---------- design keys ----------

/// The "Design keys" action at the marked range: its title, the schema its
/// edits give — the designer's own, and without errors when the title
/// promises every pattern one Query — and what the checker says of it.
fn check_design(fixture: &str, expected: Expect) {
    let (text, range) = marked(fixture);
    let file = File::new(text);
    let out = match design_keys(&file, range) {
        None => "(no action)\n".to_string(),
        Some(action) => {
            let designed = cursor::apply(&file.text, &action.edits);
            let design = dyno::design::design(&file.text, &dyno::design::Options::default());
            assert_eq!(designed, design.text, "the edits give another text than the designer's");
            let errors = analyze(&designed)
                .diagnostics()
                .iter()
                .filter(|d| d.severity == Severity::Error)
                .count();
            assert_eq!(
                errors == 0,
                action.title.ends_with("every pattern one Query"),
                "`{}` but {errors} error(s)",
                action.title
            );
            format!(
                "{}\n--- designed\n{designed}--- then: {}\n",
                action.title,
                describe(analyze(&designed).diagnostics())
            )
        }
    };
    expected.assert_eq(&out);
}

#[test]
fn design_keys_for_an_entity_without_keys() {
    check_design(
        r#"
        table App {
          key pk, sk
        }
        entity $0User {
          tenantId: id
          userId: id
          email: string
        }
        pattern getUser(tenantId, userId) -> User
        pattern listUsers(tenantId) -> User[]
        "#,
        expect![[r#"
            Design keys: no index, every pattern one Query
            --- designed
            table App {
              key pk, sk
            }
            entity User {
              tenantId: id
              userId: id
              email: string

              pk = "TENANT#{tenantId}"
              sk = "USER#{userId}"
            }
            pattern getUser(tenantId, userId) -> User
            pattern listUsers(tenantId) -> User[]
            --- then: no diagnostics
        "#]],
    );
}

#[test]
fn design_keys_from_a_pattern_no_query_serves() {
    check_design(
        r#"
        table App {
          key pk, sk
        }
        entity User {
          tenantId: id
          userId: id
          email: string
          pk = "TENANT#{tenantId}"
          sk = "USER#{userId}"
        }
        pattern getUser(tenantId, userId) -> User
        pattern $0userByEmail(email) -> User
        "#,
        expect![[r#"
            Design keys: 1 index, every pattern one Query
            --- designed
            table App {
              key pk, sk
              index gsi1 (gsi1pk, gsi1sk)
            }
            entity User {
              tenantId: id
              userId: id
              email: string
              pk = "TENANT#{tenantId}"
              sk = "USER#{userId}"
              gsi1pk = "EMAIL#{email}"
              gsi1sk = "USER"
            }
            pattern getUser(tenantId, userId) -> User
            pattern userByEmail(email) -> User
            --- then: W202 `userByEmail` returns one `User`, but index `gsi1` does not keep its keys unique: two `User` items can share them, and the Query then returns both
        "#]],
    );
}

#[test]
fn design_keys_on_a_table_with_a_selection() {
    check_design(
        r#"
        $0table App {
          key pk, sk
        }$0
        entity User {
          tenantId: id
          userId: id
        }
        entity Order {
          tenantId: id
          orderId: id
          placedAt: datetime
        }
        pattern listUsers(tenantId) -> User[]
        pattern ordersByDate(tenantId) -> Order[] by placedAt
        "#,
        expect![[r#"
            Design keys: no index, every pattern one Query
            --- designed
            table App {
              key pk, sk
            }
            entity User {
              tenantId: id
              userId: id

              pk = "TENANT#{tenantId}"
              sk = "USER#{userId}"
            }
            entity Order {
              tenantId: id
              orderId: id
              placedAt: datetime

              pk = "TENANT#{tenantId}"
              sk = "ORDER#{placedAt}#{orderId}"
            }
            pattern listUsers(tenantId) -> User[]
            pattern ordersByDate(tenantId) -> Order[] by placedAt
            --- then: no diagnostics
        "#]],
    );
}

#[test]
fn design_keys_says_what_stays_unserved() {
    // A range on one attribute ordered by another is no single Query: the
    // designer serves the rest and the title says one pattern stays unserved.
    check_design(
        r#"
        table App {
          key pk, sk
        }
        entity User {
          tenantId: id
          userId: id
          createdAt: datetime
        }
        pattern getUser(userId) -> User
        pattern $0listUsers(tenantId) -> User[] by createdAt
        pattern newest(tenantId, createdAt >= since) -> User[] by userId
        "#,
        expect![[r#"
            Design keys: 1 index, 1 pattern stays unserved
            --- designed
            table App {
              key pk, sk
              index gsi1 (gsi1pk, gsi1sk)
            }
            entity User {
              tenantId: id
              userId: id
              createdAt: datetime

              pk = "USER#{userId}"
              sk = "USER"
              gsi1pk = "TENANT#{tenantId}"
              gsi1sk = "USER#{createdAt}"
            }
            pattern getUser(userId) -> User
            pattern listUsers(tenantId) -> User[] by createdAt
            pattern newest(tenantId, createdAt >= since) -> User[] by userId
            --- then: E201 no single Query serves `newest`: it would need a Scan or several Queries
        "#]],
    );
}

#[test]
fn design_keys_writes_into_one_line_declarations() {
    // The index and the keys go on lines of their own before the braces.
    check_design(
        r#"
        table App { key pk, sk }
        entity $0User in App { tenantId: id  userId: id  email: string }
        pattern getUser(tenantId, userId) -> User
        pattern byEmail(email) -> User[]
        "#,
        expect![[r#"
            Design keys: 1 index, every pattern one Query
            --- designed
            table App { key pk, sk
              index gsi1 (gsi1pk, gsi1sk)
            }
            entity User in App { tenantId: id  userId: id  email: string
              pk = "USER#{userId}"
              sk = "USER#{tenantId}"
              gsi1pk = "EMAIL#{email}"
              gsi1sk = "USER"
            }
            pattern getUser(tenantId, userId) -> User
            pattern byEmail(email) -> User[]
            --- then: no diagnostics
        "#]],
    );
}

#[test]
fn no_design_keys_when_every_pattern_is_served() {
    check_design(
        r#"
        table App {
          key pk, sk
        }
        entity $0User {
          tenantId: id
          userId: id
          pk = "TENANT#{tenantId}"
          sk = "USER#{userId}"
        }
        pattern getUser(tenantId, userId) -> User
        "#,
        expect![[r#"
            (no action)
        "#]],
    );
}

#[test]
fn no_design_keys_away_from_declarations() {
    check_design(
        r#"
        table App {
          key pk, sk
        }

        // between $0declarations

        entity User {
          tenantId: id
          userId: id
        }
        pattern getUser(tenantId, userId) -> User
        "#,
        expect![[r#"
            (no action)
        "#]],
    );
}

#[test]
fn no_design_keys_over_syntax_errors() {
    check_design(
        r#"
        table App {
          key pk, sk
        }
        entity $0User {
          tenantId: id
          userId: id
        }
        pattern getUser(tenantId, userId) -> User =
        "#,
        expect![[r#"
            (no action)
        "#]],
    );
}

#[test]
fn no_design_keys_in_a_file_above_the_bound() {
    let schema = "table App {\n  key pk, sk\n}\nentity User {\n  tenantId: id\n  userId: id\n}\n\
                  pattern getUser(tenantId, userId) -> User\n";
    let cursor = Span::empty(schema.find("User").unwrap());
    assert!(design_keys(&File::new(schema.into()), cursor).is_some());
    let padded = format!("{schema}{}", "// padding\n".repeat(MAX_BYTES / 11 + 1));
    assert!(padded.len() > MAX_BYTES);
    assert_eq!(design_keys(&File::new(padded), cursor), None);
}
