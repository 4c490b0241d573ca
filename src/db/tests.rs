use std::sync::Arc;

use ropey::Rope;

use super::*;
use crate::check::model::TableId;
use crate::diagnostic::Code;

const TABLES: &str = "table App {\n  key pk, sk\n  index gsi1 (gsi1pk, gsi1sk)\n}\n";
const ENTITIES: &str = "\
entity Order in App {
  orderId: id
  status: string
  pk = \"ORDER#{orderId}\"
  sk = \"ORDER\"
}

entity Invoice in App {
  invoiceId: id
  pk = \"ORDER#{invoiceId}\"
  sk = \"ORDER\"
}

pattern getOrder(orderId) -> Order
";

fn workspace() -> (Workspace, FileId, FileId) {
    let mut db = Workspace::new();
    let (tables, _) = db.set_text("tables.dyno", Rope::from_str(TABLES));
    let (entities, _) = db.set_text("entities.dyno", Rope::from_str(ENTITIES));
    (db, tables, entities)
}

#[test]
fn a_schema_of_two_files_resolves_across_them() {
    let (db, tables, entities) = workspace();
    let schema = db.schema(&[tables, entities]);
    // The entities find their table in the other file: no E110.
    assert!(
        schema.diagnostics.iter().all(|d| d.code != Code::NoTable),
        "{:#?}",
        schema.diagnostics
    );
    let order = schema.model.entity_named("Order").unwrap();
    assert_eq!(schema.model.entity(order).file, entities);
    assert_eq!(schema.model.table(TableId::new(0)).file, tables);
    // Each file alone: the entities have no table.
    let alone = db.schema(&[entities]);
    assert!(alone.diagnostics.iter().any(|d| d.code == Code::NoTable));
}

#[test]
fn a_related_location_can_be_in_the_other_file() {
    let (db, tables, entities) = workspace();
    let schema = db.schema(&[tables, entities]);
    // Order and Invoice both write pk=ORDER#x, sk=ORDER: E301 in the
    // entities' file, pointing at the other entity — same file. The table's
    // index is unused: H302 in the tables' file.
    let overwrite = schema.diagnostics.iter().find(|d| d.code == Code::Overwrite).unwrap();
    assert_eq!(overwrite.file, entities);
    let unused = schema.diagnostics.iter().find(|d| d.code == Code::UnusedIndex).unwrap();
    assert_eq!(unused.file, tables);
    assert_eq!(&TABLES[unused.span.range()], "gsi1");
    // A consistent read through the index: the related location is the
    // index declaration, in the tables' file.
    let mut db = db;
    let consistent = format!(
        "{ENTITIES}\nentity Shipment in App {{\n  shipmentId: id\n  carrier: string\n  pk = \"SHIP#{{shipmentId}}\"\n  sk = \"SHIP\"\n  gsi1pk = \"CARRIER#{{carrier}}\"\n  gsi1sk = \"SHIP#{{shipmentId}}\"\n}}\n\npattern byCarrier(carrier) -> Shipment[] consistent\n"
    );
    let (entities, _) = db.set_text("entities.dyno", Rope::from_str(&consistent));
    let schema = db.schema(&[tables, entities]);
    let e205 = schema
        .diagnostics
        .iter()
        .find(|d| d.code == Code::ConsistentGsi)
        .expect("E205");
    assert_eq!(e205.file, entities);
    let related = &e205.related[0];
    assert_eq!(related.at.file, tables, "{e205:#?}");
    assert_eq!(&TABLES[related.at.span.range()], "gsi1");
    // Diagnostics by file: each file's own, in source order.
    let analysis = db.analysis(tables, &[tables, entities]);
    assert!(analysis.diagnostics().iter().all(|d| d.file == tables));
    assert!(
        db.analysis(entities, &[tables, entities])
            .diagnostics()
            .iter()
            .any(|d| d.code == Code::ConsistentGsi)
    );
}

#[test]
fn queries_are_cached_per_revision_and_an_edit_invalidates_what_reads_it() {
    let (mut db, tables, entities) = workspace();
    let parse = db.parse(tables);
    let schema = db.schema(&[tables, entities]);
    assert!(Arc::ptr_eq(&parse, &db.parse(tables)));
    assert!(Arc::ptr_eq(&schema, &db.schema(&[tables, entities])));
    // A snapshot shares what was computed, and keeps its texts.
    let snapshot = db.clone();
    let stale = db.edit(entities, |rope| {
        rope.insert(rope.len_chars(), "\npattern listOrders() -> Order[]\n")
    });
    assert!(stale.is_heavy(), "the schema that read the edited file is stale");
    assert!(Arc::ptr_eq(&parse, &db.parse(tables)), "the other file's parse stays");
    let after = db.schema(&[tables, entities]);
    assert!(!Arc::ptr_eq(&schema, &after));
    assert_eq!(after.model.patterns.len(), schema.model.patterns.len() + 1);
    assert_eq!(snapshot.schema(&[tables, entities]).model.patterns.len(), 1);
    assert!(db.revision(entities) > snapshot.revision(entities));
}

#[test]
fn items_list_what_a_file_declares() {
    let (db, tables, entities) = workspace();
    let kinds = |file| {
        db.items(file)
            .declared
            .iter()
            .map(|d| (d.kind, d.name.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        kinds(tables),
        [
            (DeclaredKind::Table, "App".to_string()),
            (DeclaredKind::Index, "gsi1".to_string())
        ]
    );
    assert_eq!(db.items(entities).named("getOrder").count(), 1);
}

#[test]
fn files_on_disk_are_read_again_only_when_they_change_and_an_open_file_wins() {
    let dir = std::env::temp_dir().join(format!("dyno-db-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t.dyno");
    std::fs::write(&path, TABLES).unwrap();
    let mut db = Workspace::new();
    let (file, _) = db.sync_from_disk(&path, "t.dyno").unwrap();
    let first = db.revision(file);
    let _ = db.sync_from_disk(&path, "t.dyno").unwrap();
    assert_eq!(db.revision(file), first, "unchanged on disk: not read again");
    std::fs::write(&path, format!("{TABLES}\n")).unwrap();
    let _ = db.sync_from_disk(&path, "t.dyno").unwrap();
    assert!(db.revision(file) > first);
    let _ = db.set_text("t.dyno", Rope::from_str("table Open {\n  key pk\n}\n"));
    let _ = db.sync_from_disk(&path, "t.dyno").unwrap();
    assert!(db.text(file).contains("Open"), "the editor's text wins over the disk");
    let _ = db.close(file);
    let _ = db.sync_from_disk(&path, "t.dyno").unwrap();
    assert!(db.text(file).contains("App"), "closed: the disk's again");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_edit_reparses_from_the_previous_revision_and_a_close_lets_it_go() {
    let (mut ws, ids) = Workspace::of_files([("a.dyno".to_string(), "table T {\n  key pk\n}\n")]);
    let file = ids[0];
    let parse = ws.parse(file);
    let (first_parse, first_text) = (Arc::downgrade(&parse), Arc::downgrade(&ws.text(file)));
    drop(parse);
    let stale = ws.edit(file, |rope| {
        rope.insert(rope.len_chars(), "entity E in T {\n  id: id\n  pk = \"E#{id}\"\n}\n")
    });
    drop(stale);
    // The new revision holds the old text and parse until it is parsed.
    assert!(first_parse.upgrade().is_some() && first_text.upgrade().is_some());
    let parse = ws.parse(file);
    assert_eq!(parse.file.items.len(), 2);
    assert!(
        first_parse.upgrade().is_none(),
        "the re-parse used up the previous parse"
    );
    let (second_parse, second_text) = (Arc::downgrade(&parse), Arc::downgrade(&ws.text(file)));
    drop(parse);
    drop(ws.close(file));
    assert!(second_parse.upgrade().is_none(), "the closed file's parse is freed");
    assert!(second_text.upgrade().is_none(), "the closed file's text is freed");
}

/// The check of the workspace's current texts, from scratch: a new
/// workspace of the same files, in the same order.
fn fresh(db: &Workspace, files: &[FileId]) -> Arc<Schema> {
    let texts: Vec<Arc<str>> = files.iter().map(|&f| db.text(f)).collect();
    let (again, ids) = Workspace::of_files(files.iter().zip(&texts).map(|(&f, t)| (db.path(f).to_string(), &**t)));
    assert_eq!(ids, files);
    again.schema(&ids)
}

fn assert_same(a: &Schema, b: &Schema) {
    assert_eq!(a.diagnostics, b.diagnostics);
    assert_eq!(format!("{:?}", a.resolutions), format!("{:?}", b.resolutions));
}

#[test]
fn a_check_after_an_edit_starts_from_the_earlier_one_and_lets_it_go() {
    let (mut db, tables, entities) = workspace();
    let files = [tables, entities];
    db.schema(&files);
    let stale = db.edit(entities, |rope| {
        rope.insert(rope.len_chars(), "pattern byStatus(status) -> Order[]\n")
    });
    assert!(stale.schemas.is_empty(), "the computed check is kept, not dropped");
    assert_eq!(lock(&db.earlier).len(), 1);
    let schema = db.schema(&files);
    assert!(lock(&db.earlier).is_empty(), "used once, then let go");
    assert_same(&schema, &fresh(&db, &files));
    // Edits in both files, with no check in between: one earlier check.
    let at = TABLES.find("index").unwrap();
    drop(db.edit(tables, |rope| rope.insert(at, "delimiter \"#\"\n  ")));
    drop(db.edit(entities, |rope| rope.insert(0, "// orders\n")));
    assert_eq!(lock(&db.earlier).len(), 1);
    assert_same(&db.schema(&files), &fresh(&db, &files));
}

#[test]
fn a_close_after_a_check_lets_its_text_and_check_go() {
    let (mut db, ids) = Workspace::of_files([("a.dyno".to_string(), TABLES)]);
    let checked = db.schema(&ids);
    let (schema, text) = (Arc::downgrade(&checked), Arc::downgrade(&db.text(ids[0])));
    drop(checked);
    drop(db.close(ids[0]));
    assert!(text.upgrade().is_none(), "the closed file's text is freed");
    assert!(schema.upgrade().is_none(), "the closed file's check is freed");
}

#[test]
fn a_set_of_files_no_longer_checked_lets_its_check_go() {
    let (mut db, ids) = Workspace::of_files([("a.dyno".to_string(), TABLES)]);
    let alone = Arc::downgrade(&db.schema(&ids));
    // The folder gains a file: the schema is now both files.
    let (b, _) = db.set_text("b.dyno", Rope::from_str(ENTITIES));
    drop(db.edit(ids[0], |rope| rope.insert(0, "// x\n")));
    db.schema(&[ids[0], b]);
    drop(db.edit(ids[0], |rope| rope.insert(0, "// y\n")));
    assert!(alone.upgrade().is_none(), "the check of `a` alone is not kept");
    assert_eq!(lock(&db.earlier).len(), 1);
}

#[test]
fn a_check_an_edit_superseded_is_where_the_next_one_starts() {
    let (mut db, tables, entities) = workspace();
    let files = [tables, entities];
    db.schema(&files);
    drop(db.edit(entities, |rope| rope.insert(0, "// one\n")));
    // A request pinned to this revision checks it only after the next edit:
    // it starts from the check before it, and the next check starts from it
    // (not from scratch, and not from the older one).
    let pinned = db.clone();
    drop(db.edit(entities, |rope| rope.insert(0, "// two\n")));
    let superseded = pinned.schema(&files);
    let earlier = lock(&db.earlier);
    let [memo] = earlier.values().collect::<Vec<_>>()[..] else {
        panic!("one earlier check, not {}", earlier.len())
    };
    let checked = memo.get().expect("computed");
    assert!(Arc::ptr_eq(&checked.schema, &superseded));
    assert_eq!(&*checked.texts[1], &*pinned.text(entities));
    drop((earlier, superseded));
    let current = db.schema(&files);
    assert!(lock(&db.earlier).is_empty(), "used, then let go");
    assert_same(&current, &fresh(&db, &files));
}

/// `check_once` equals the check `schema` makes, above the size where
/// fixes are tried out (the trees are let go of once lowered) and below
/// it (they are kept for the fixes), and keeps no tree in the workspace.
#[test]
fn a_check_once_equals_the_check_and_keeps_no_tree() {
    let large = crate::synth::generate(&crate::synth::Config::for_lines(3_000, 3)).dyno;
    assert!(large.len() > 32 * 1024, "above the size where fixes are tried out");
    // A pattern with no Query, whose fix is tried out on the trees.
    let small = format!("{TABLES}{ENTITIES}pattern byStatus(status) -> Order[]\n");
    for text in [large.as_str(), small.as_str()] {
        let (db, files) = Workspace::of_files([("schema.dyno".to_string(), text)]);
        let once = db.check_once(&files, &Defaults::default());
        assert!(
            db.files[files[0].index()].input.parse.get().is_none(),
            "the tree was made for the check alone"
        );
        assert!(
            once.diagnostics
                .iter()
                .any(|d| d.severity == crate::diagnostic::Severity::Error)
        );
        assert_same(&once, &fresh(&db, &files));
        assert_eq!(
            once.diagnostics
                .iter()
                .any(|d| !d.fixes.is_empty() && d.code == Code::NoSingleQuery),
            text.len() <= 32 * 1024,
            "a fix is offered where one is tried out"
        );
    }
}
