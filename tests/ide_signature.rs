//! Signature-help fixtures: `$0` marks the cursor; the snapshot is the
//! label with the active value marked `«…»` (or `(no active value)`), then
//! the documentation. `(none)` where no signature is offered.

mod common;

use common::cursor;
use dyno::ide::File;
use dyno::ide::signature::signature;
use expect_test::{Expect, expect};

fn check(fixture: &str, expected: Expect) {
    let (text, offset) = cursor::cursor(fixture);
    let file = File::new(text);
    let actual = match signature(&file, offset) {
        None => "(none)\n".to_string(),
        Some(s) => {
            let label = match s.parameters.get(s.active) {
                Some(&span) => cursor::mark(&s.label, &[span]),
                None => format!("{} (no active value)", s.label),
            };
            format!("{label}\n{}", s.documentation)
        }
    };
    expected.assert_eq(&actual);
}

const HEAD: &str = r##"
table App {
  key pk, sk
}
entity Tenant {
  tenantId: id
  name: string
  pk = "TENANT#{tenantId}"
  sk = "TENANT"
}
entity Event {
  tenantId: id
  at: datetime
  kind: enum(login, logout)
  note: string?
  pk = "TENANT#{tenantId}"
  sk = "EVENT#{at}"
}
"##;

fn with(pattern: &str) -> String {
    format!("{HEAD}{pattern}\n")
}

#[test]
fn values_with_their_types_and_the_active_one() {
    check(
        &with("pattern events(tenantId, at >= si$0nce) -> Event[]"),
        expect![[r#"
            pattern events(tenantId: id, «at >= since: datetime»)
            A known value names an attribute of the returned entities:

            `Event`: `tenantId: id` `at: datetime` `kind: enum` `note: string?`
        "#]],
    );
    check(
        &with("pattern events(ten$0antId, at >= since) -> Event[]"),
        expect![[r#"
            pattern events(«tenantId: id», at >= since: datetime)
            A known value names an attribute of the returned entities:

            `Event`: `tenantId: id` `at: datetime` `kind: enum` `note: string?`
        "#]],
    );
}

#[test]
fn several_returned_entities_and_a_fixed_value() {
    check(
        &with(r#"pattern both(tenantId, kind = "login"$0) -> Tenant, Event[] by at"#),
        expect![[r#"
            pattern both(tenantId: id, «kind = "login"»)
            A known value names an attribute of the returned entities:

            `Tenant`: `tenantId: id` `name: string`
            `Event`: `tenantId: id` `at: datetime` `kind: enum` `note: string?`
        "#]],
    );
}

#[test]
fn while_typing_before_the_list_is_closed() {
    check(
        &with("pattern events(tenantId, $0"),
        expect![[r#"
        pattern events(tenantId) (no active value)
        A known value names an attribute of the returned entities (`-> Entity[]`), written after the `)`."#]],
    );
    check(
        &with("pattern events($0"),
        expect![[r#"
        pattern events() (no active value)
        A known value names an attribute of the returned entities (`-> Entity[]`), written after the `)`."#]],
    );
}

#[test]
fn a_trailing_comma_with_the_returns_written() {
    check(
        &with("pattern events(tenantId,$0) -> Event[]"),
        expect![[r#"
        pattern events(tenantId: id) (no active value)
        A known value names an attribute of the returned entities:

        `Event`: `tenantId: id` `at: datetime` `kind: enum` `note: string?`
    "#]],
    );
}

#[test]
fn none_outside_the_parentheses_or_in_other_parentheses() {
    check(&with("pattern events(tenantId) -> Event[]$0"), expect!["(none)\n"]);
    check(&with("pattern events(tenantId)$0 -> Event[]"), expect!["(none)\n"]);
    check(&with("pattern events$0(tenantId) -> Event[]"), expect!["(none)\n"]);
    check(
        "table App {\n  key pk\n}\nentity E {\n  kind: enum(a,$0 b)\n  pk = \"E#{kind}\"\n}\n",
        expect!["(none)\n"],
    );
    check(
        &with(r#"pattern events(tenantId) -> Event[] where begins_with(note,$0 "x")"#),
        expect!["(none)\n"],
    );
}
