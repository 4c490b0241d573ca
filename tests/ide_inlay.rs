//! Inlay hint fixtures: the snapshot is the file with each hint inserted
//! where it is shown, as `«label»`, followed by the tooltips.

mod common;

use common::cursor;
use dyno::ide::File;
use dyno::ide::inlay::hints;
use expect_test::{Expect, expect};

fn check(fixture: &str, expected: Expect) {
    let file = File::new(cursor::plain(fixture));
    let hints = hints(&file);
    let edits: Vec<_> = hints
        .iter()
        .map(|h| (dyno::syntax::Span::empty(h.offset), format!(" «{}»", h.label)))
        .collect();
    let mut out = cursor::apply(&file.text, &edits);
    out.push_str("---\n");
    if hints.is_empty() {
        out.push_str("(none)\n");
    }
    for hint in &hints {
        out.push_str(&format!(
            "{}: {}\n",
            cursor::line_col(&file.text, hint.offset).0,
            hint.tooltip
        ));
    }
    expected.assert_eq(&out);
}

#[test]
fn index_and_rcu_per_pattern() {
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
        entity Order {
          userId: id
          orderId: ulid
          pk = "USER#{userId}"
          sk = "ORDER#{orderId}"
        }
        pattern getUser(userId) -> User
        pattern getUserNow(userId) -> User consistent
        pattern usersInGroup(groupId) -> User[] ~500
        pattern orders(userId) -> Order[] ~20 by orderId desc   // newest first
        pattern pinned(userId) -> Order[] =
          query App where pk = "USER#{userId}" and begins_with(sk, "ORDER#")
        "##,
        expect![[r#"
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
            entity Order {
              userId: id
              orderId: ulid
              pk = "USER#{userId}"
              sk = "ORDER#{orderId}"
            }
            pattern getUser(userId) -> User «table · 0.5 RCU»
            pattern getUserNow(userId) -> User consistent «table · 1 RCU»
            pattern usersInGroup(groupId) -> User[] ~500 «gsi1 · 8.5 RCU»
            pattern orders(userId) -> Order[] ~20 by orderId desc «table · 0.5 RCU»   // newest first
            pattern pinned(userId) -> Order[] = «table · 0.5 RCU»
              query App where pk = "USER#{userId}" and begins_with(sk, "ORDER#")
            ---
            19: ~1 item × 132 B = 132 B, read as 4 KB → 0.5 RCU (eventually consistent; sizes estimated from type defaults)
            20: ~1 item × 132 B = 132 B, read as 4 KB → 1 RCU (strongly consistent; sizes estimated from type defaults)
            21: ~500 items × 132 B = 64.5 KB, read as 68 KB → 8.5 RCU (eventually consistent; sizes estimated from type defaults)
            22: ~20 items × 112 B = 2.2 KB, read as 4 KB → 0.5 RCU (eventually consistent; sizes estimated from type defaults)
            23: ~10 items × 112 B = 1.1 KB, read as 4 KB → 0.5 RCU (eventually consistent; sizes estimated from type defaults; 10 items per `E[]` without `~N`)
        "#]],
    );
}

#[test]
fn hint_goes_before_a_trailing_comment_on_a_multi_line_pattern() {
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
        pattern pinned(userId) -> Order[]   // pinned: the author knows best
          = query App where pk = "USER#{userId}" and begins_with(sk, "ORDER#")
        "##,
        expect![[r#"
            table App {
              key pk, sk
            }
            entity Order {
              userId: id
              orderId: ulid
              pk = "USER#{userId}"
              sk = "ORDER#{orderId}"
            }
            pattern pinned(userId) -> Order[] «table · 0.5 RCU»   // pinned: the author knows best
              = query App where pk = "USER#{userId}" and begins_with(sk, "ORDER#")
            ---
            10: ~10 items × 112 B = 1.1 KB, read as 4 KB → 0.5 RCU (eventually consistent; sizes estimated from type defaults; 10 items per `E[]` without `~N`)
        "#]],
    );
}

#[test]
fn every_pattern_of_the_billing_example() {
    let file = File::new(include_str!("../examples/billing.dyno").to_string());
    let rendered: String = hints(&file)
        .iter()
        .map(|h| {
            let line = cursor::line_col(&file.text, h.offset).0;
            let text = file.text.lines().nth(line - 1).unwrap_or_default();
            format!("{text} «{}»\n", h.label)
        })
        .collect();
    expect![[r#"
        pattern tenantEverything(tenantId) -> Tenant, User[], Invoice[], AuditEvent[] «table · 1 RCU»
        pattern listUsers(tenantId) -> User[] «table · 0.5 RCU»
        pattern openInvoices(status = "open") -> Invoice[] by dueDate «gsi1 · 0.5 RCU»
        pattern auditSince(tenantId, at >= since) -> AuditEvent[] by at desc «table · 0.5 RCU»
        pattern usersPinned(tenantId) -> User[] = «table · 0.5 RCU»
        pattern getTenant(tenantId) -> Tenant consistent «table · 1 RCU»
        pattern getInvoice(tenantId, number) -> Invoice «table · 0.5 RCU»
        pattern listInvoices(tenantId) -> Invoice[] ~120 by number desc limit 25 «table · 0.5 RCU»
        pattern recentAudit(tenantId) -> AuditEvent[] by at desc limit 50 «table · 0.5 RCU»
        pattern openInvoicesDue(status = "open", dueDate between from and to) -> Invoice[] ~400 by dueDate «gsi1 · 7.5 RCU»
        pattern allAdmins(role = "admin") -> User[] ~300 «gsi1 · 8 RCU»
    "#]].assert_eq(&rendered);
}

#[test]
fn unresolved_patterns_get_no_hint() {
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
        pattern byEmail(email) -> User
        pattern getGroup(groupId) -> Group
        pattern getUser(userId) -> User
        "##,
        expect![[r#"
            table App {
              key pk, sk
            }
            entity User {
              userId: id
              email: string
              pk = "USER#{userId}"
              sk = "PROFILE"
            }
            pattern byEmail(email) -> User
            pattern getGroup(groupId) -> Group
            pattern getUser(userId) -> User «table · 0.5 RCU»
            ---
            12: ~1 item × 123 B = 123 B, read as 4 KB → 0.5 RCU (eventually consistent; sizes estimated from type defaults)
        "#]],
    );
}

#[test]
fn no_patterns_no_hints() {
    check(
        r##"
        table App {
          key pk, sk
        }
        // pattern getUser(userId) -> User
        "##,
        expect![[r#"
            table App {
              key pk, sk
            }
            // pattern getUser(userId) -> User
            ---
            (none)
        "#]],
    );
}

#[test]
fn broken_file_still_hints_what_parses() {
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
        pattern getUser(userId) -> User
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
            entity Broken {
              name: : string
              pk = "BROKEN#{
            }
            pattern getUser(userId) -> User «table · 0.5 RCU»
            ---
            13: ~1 item × 54 B = 54 B, read as 4 KB → 0.5 RCU (eventually consistent; sizes estimated from type defaults)
        "#]],
    );
}

/// A read over every write shard is that many Queries, each rounded up on
/// its own; a calculated shard from a known player is one.
#[test]
fn a_sharded_read_shows_its_queries() {
    check(
        r##"
        table Games {
          key pk, sk
          index gsi1 (gsi1pk, gsi1sk)
        }
        entity Score ~300B {
          day: date
          userId: id
          points: int(pad 9)
          shard: shard(10)
          bucket: shard(4, of userId)
          pk = "SCORE#{day}.{shard}"
          sk = "{points}#{userId}"
          gsi1pk = "PLAYER#{day}.{bucket}"
          gsi1sk = "USER#{userId}#{points}"
        }
        pattern leaderboard(day) -> Score[] by points desc limit 10
        pattern playerScores(day, userId) -> Score[]
        "##,
        expect![[r#"
            table Games {
              key pk, sk
              index gsi1 (gsi1pk, gsi1sk)
            }
            entity Score ~300B {
              day: date
              userId: id
              points: int(pad 9)
              shard: shard(10)
              bucket: shard(4, of userId)
              pk = "SCORE#{day}.{shard}"
              sk = "{points}#{userId}"
              gsi1pk = "PLAYER#{day}.{bucket}"
              gsi1sk = "USER#{userId}#{points}"
            }
            pattern leaderboard(day) -> Score[] by points desc limit 10 «table ×10 · 5 RCU»
            pattern playerScores(day, userId) -> Score[] «gsi1 · 0.5 RCU»
            ---
            16: ~10 items × 300 B = 2.9 KB, read as 40 KB → 5 RCU (eventually consistent; 10 Queries, one per shard, each rounded up to 4 KB on its own; 10 items per `E[]` without `~N`)
            17: ~10 items × 300 B = 2.9 KB, read as 4 KB → 0.5 RCU (eventually consistent; 10 items per `E[]` without `~N`)
        "#]],
    );
}
