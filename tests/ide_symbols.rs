//! Document and workspace symbol fixtures: the snapshot is the symbol tree,
//! one symbol a line, indented under its parent, with its kind, detail,
//! where its name is and the first line of its whole declaration.

mod common;

use common::cursor;
use dyno::ide::File;
use dyno::ide::symbols::{DocumentSymbol, document_symbols, matching};
use expect_test::{Expect, expect};

fn render(text: &str, symbols: &[DocumentSymbol], depth: usize, out: &mut String) {
    for symbol in symbols {
        let whole = cursor::excerpt(text, symbol.span);
        let first_line = whole.split('⏎').next().unwrap_or_default();
        out.push_str(&format!(
            "{}{:?} {} ({}) at {} [{}]: {}\n",
            "  ".repeat(depth),
            symbol.kind,
            symbol.name,
            symbol.detail.as_deref().unwrap_or("-"),
            cursor::position(text, symbol.selection),
            cursor::excerpt(text, symbol.selection),
            first_line,
        ));
        render(text, &symbol.children, depth + 1, out);
    }
}

fn check(fixture: &str, expected: Expect) {
    let file = File::new(cursor::plain(fixture));
    let mut out = String::new();
    render(&file.text, &document_symbols(&file), 0, &mut out);
    if out.is_empty() {
        out.push_str("(none)\n");
    }
    expected.assert_eq(&out);
}

fn check_matching(fixture: &str, query: &str, expected: Expect) {
    let file = File::new(cursor::plain(fixture));
    let mut out = String::new();
    render(&file.text, &matching(&file, query), 0, &mut out);
    if out.is_empty() {
        out.push_str("(none)\n");
    }
    expected.assert_eq(&out);
}

const SCHEMA: &str = r##"
    table App {
      key pk, sk
      index gsi1 (gsi1pk, gsi1sk)
      local index lsi1 (pk, lsi1sk)
    }

    /// A person.
    entity User {
      userId: id
      email: string?
      role: enum(admin, member)
      pk = "USER#{userId}"
      sk = "PROFILE"
    }

    entity Membership {
      userId: id
      groupId: id
      item { pk = "USER#{userId}"  sk = "GROUP#{groupId}" }
      item { pk = "GROUP#{groupId}"  sk = "USER#{userId}" }
    }

    pattern getUser(userId) -> User
    pattern groupsOfUser(userId) -> Membership[]
    pattern everything(userId) -> User, Membership[]
    "##;

#[test]
fn tables_entities_and_patterns() {
    check(
        SCHEMA,
        expect![[r#"
        Table App (table) at 1:7 [App]: table App {
          Index gsi1 (global index) at 3:9 [gsi1]: index gsi1 (gsi1pk, gsi1sk)
          Index lsi1 (local index) at 4:15 [lsi1]: local index lsi1 (pk, lsi1sk)
        Entity User (entity) at 8:8 [User]: entity User {
          Attribute userId (id) at 9:3 [userId]: userId: id
          Attribute email (string?) at 10:3 [email]: email: string?
          Attribute role (enum(admin, member)) at 11:3 [role]: role: enum(admin, member)
        Entity Membership (entity) at 16:8 [Membership]: entity Membership {
          Attribute userId (id) at 17:3 [userId]: userId: id
          Attribute groupId (id) at 18:3 [groupId]: groupId: id
        Pattern getUser (-> User) at 23:9 [getUser]: pattern getUser(userId) -> User
        Pattern groupsOfUser (-> Membership[]) at 24:9 [groupsOfUser]: pattern groupsOfUser(userId) -> Membership[]
        Pattern everything (-> User, Membership[]) at 25:9 [everything]: pattern everything(userId) -> User, Membership[]
    "#]],
    );
}

#[test]
fn workspace_search_is_flat_and_case_insensitive() {
    check_matching(
        SCHEMA,
        "user",
        expect![[r#"
        Entity User (entity) at 8:8 [User]: entity User {
        Attribute userId (id) at 9:3 [userId]: userId: id
        Attribute userId (id) at 17:3 [userId]: userId: id
        Pattern getUser (-> User) at 23:9 [getUser]: pattern getUser(userId) -> User
        Pattern groupsOfUser (-> Membership[]) at 24:9 [groupsOfUser]: pattern groupsOfUser(userId) -> Membership[]
    "#]],
    );
    check_matching(
        SCHEMA,
        "GSI",
        expect![[r#"
        Index gsi1 (global index) at 3:9 [gsi1]: index gsi1 (gsi1pk, gsi1sk)
    "#]],
    );
}

#[test]
fn workspace_search_without_match() {
    check_matching(
        SCHEMA,
        "invoice",
        expect![[r#"
        (none)
    "#]],
    );
}

#[test]
fn empty_and_comment_only_files_have_no_symbols() {
    check(
        "",
        expect![[r#"
        (none)
    "#]],
    );
    check(
        r##"
        // nothing declared yet
        /// not even a doc comment's target
        "##,
        expect![[r#"
            (none)
        "#]],
    );
}

#[test]
fn broken_file_keeps_what_parses() {
    check(
        r##"
        table App {
          key pk, sk
        }
        entity User {
          userId: id
          name: : string
          pk = "USER#{userId}"
          sk = "PROFILE"
        }
        entity {
        pattern getUser(userId) -> User
        "##,
        expect![[r#"
            Table App (table) at 1:7 [App]: table App {
            Entity User (entity) at 4:8 [User]: entity User {
              Attribute userId (id) at 5:3 [userId]: userId: id
            Pattern getUser (-> User) at 11:9 [getUser]: pattern getUser(userId) -> User
        "#]],
    );
}

#[test]
fn shards_and_rate_hints_keep_their_written_types_and_spans() {
    check(
        r##"
        table Games { key pk, sk }
        entity Score ~300B ~2500/s {
          userId: id
          shard: shard(10)
          bucket: shard( 4 ,of  userId )
          pk = "SCORE#{shard}"
          sk = "{userId}.{bucket}"
        }
        pattern top(userId) -> Score[]
          limit 10
          ~200/s
        "##,
        expect![[r#"
            Table Games (table) at 1:7 [Games]: table Games { key pk, sk }
            Entity Score (entity) at 2:8 [Score]: entity Score ~300B ~2500/s { …   sk = "{userId}.{bucket}"
              Attribute userId (id) at 3:3 [userId]: userId: id
              Attribute shard (shard(10)) at 4:3 [shard]: shard: shard(10)
              Attribute bucket (shard( 4 ,of userId )) at 5:3 [bucket]: bucket: shard( 4 ,of  userId )
            Pattern top (-> Score[]) at 9:9 [top]: pattern top(userId) -> Score[]
        "#]],
    );
}

/// The outline of an open document is cut to `max` symbols at a top-level
/// item, leaving room for the note of what was left out; within `max` it
/// is the whole outline.
#[test]
fn a_bounded_outline_keeps_whole_items_and_says_what_it_left_out() {
    use dyno::ide::symbols::bounded_outline;
    let file = File::new(cursor::plain(SCHEMA));
    let whole = document_symbols(&file);
    let count = |symbols: &[DocumentSymbol]| symbols.iter().map(|s| 1 + s.children.len()).sum::<usize>();
    assert_eq!(count(&whole), 13);
    for max in [13, 14, 10_000] {
        let outline = bounded_outline(&file, max);
        assert_eq!(outline.symbols, whole, "max {max}");
        assert_eq!(outline.omitted, None, "max {max}");
    }
    // (max, top-level items kept, symbols left out, first name left out)
    for (max, kept, left_out, first) in [
        (12, 4, 2, "groupsOfUser"),
        (11, 3, 3, "getUser"),
        (7, 1, 10, "User"),
        (1, 0, 13, "App"),
        (0, 0, 13, "App"),
    ] {
        let outline = bounded_outline(&file, max);
        assert_eq!(outline.symbols, whole[..kept], "max {max}");
        assert!(count(&outline.symbols) < max.max(1), "max {max}: room for the note");
        let omitted = outline.omitted.unwrap_or_else(|| panic!("max {max}: nothing left out"));
        assert_eq!(omitted.items, whole.len() - kept, "max {max}");
        assert_eq!(omitted.symbols, left_out, "max {max}");
        assert_eq!(&file.text[omitted.selection.range()], first, "max {max}");
        assert_eq!(omitted.span.start(), whole[kept].span.start(), "max {max}");
        assert_eq!(omitted.span.end(), whole.last().unwrap().span.end(), "max {max}");
    }
}
