use std::fmt::Write;
use std::time::Instant;

use super::order::date_like;
use super::tags::type_tag;
use crate::check::analyze;
use crate::diagnostic::{Code, Diagnostic};

/// The diagnostics of `text` with a registry-lint code.
fn lints(text: &str) -> Vec<Diagnostic> {
    analyze(text)
        .diagnostics()
        .iter()
        .filter(|d| d.code.as_str().as_bytes()[1] == b'3')
        .cloned()
        .collect()
}

fn at<'t>(text: &'t str, d: &Diagnostic) -> &'t str {
    &text[d.span.start()..d.span.end()]
}

const HEAD: &str = "table App {\n  key pk, sk\n}\n";

#[test]
fn type_tags() {
    assert_eq!(type_tag("USER#", "#"), "USER");
    assert_eq!(type_tag("USER", "#"), "USER");
    assert_eq!(type_tag("TENANT#A#B", "#"), "TENANT");
    assert_eq!(type_tag("#X", "#"), "");
    assert_eq!(type_tag("A::B", "::"), "A");
    assert_eq!(type_tag("A#B", ""), "A#B");
}

#[test]
fn type_tag_prefix_is_one_warning_per_pair() {
    let text = format!(
        "{HEAD}entity User {{ t: id  u: id  pk = \"T#{{t}}\"  sk = \"USER{{u}}\" }}
entity Group {{ t: id  g: id  pk = \"T#{{t}}\"  sk = \"USERGROUP#{{g}}\" }}
entity Group2 {{ t: id  g: id  pk = \"T#{{t}}\"  sk = \"USERGROUP#{{g}}#2\" }}
entity Admin {{ t: id  u: id  pk = \"A#{{t}}\"  sk = \"USERADMIN#{{u}}\" }}
"
    );
    let found: Vec<Diagnostic> = lints(&text)
        .into_iter()
        .filter(|d| d.code == Code::TypeTagPrefix)
        .collect();
    // User/USERGROUP once (two templates of that tag); Admin never shares a
    // partition with User (`A#` vs `T#`).
    assert_eq!(found.len(), 1, "{found:#?}");
    let d = &found[0];
    assert_eq!(at(&text, d), "\"USER{u}\"");
    assert_eq!(
        at(
            &text,
            &Diagnostic {
                span: d.related[0].at.span,
                ..d.clone()
            }
        ),
        "\"USERGROUP#{g}\""
    );
    assert!(d.message.contains("begins_with(sk, \"USER\")"), "{}", d.message);
}

#[test]
fn delimiter_terminated_tags_do_not_collide() {
    // `sh#` and `shp#`: no `shp#` key begins with `sh#`, nor the reverse.
    let text = format!(
        "{HEAD}entity Ship {{ o: id  s: id  pk = \"O#{{o}}\"  sk = \"sh#{{s}}\" }}
entity ShipPart {{ o: id  s: id  pk = \"O#{{o}}\"  sk = \"shp#{{s}}\" }}
entity User {{ o: id  u: id  pk = \"O#{{o}}\"  sk = \"USER#{{u}}\" }}
entity UserGroup {{ o: id  g: id  pk = \"O#{{o}}\"  sk = \"USERGROUP#{{g}}\" }}
entity Profile {{ o: id  pk = \"O#{{o}}\"  sk = \"USER\" }}
"
    );
    let found: Vec<Diagnostic> = lints(&text)
        .into_iter()
        .filter(|d| d.code == Code::TypeTagPrefix)
        .collect();
    // `USER` without a hole is read with `=`: it returns nothing else.
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn a_hole_that_can_spell_the_other_tag_leaks_too() {
    // A `string` hole can hold `#`, so `sh{x}` begins with `sh#` for x = `#…`:
    // same tag, not W301; but `USER{name}` with a string reaches `USERGROUP`.
    let text = format!(
        "{HEAD}entity Ship {{ o: id  s: id  pk = \"O#{{o}}\"  sk = \"sh#{{s}}\" }}
entity ShipPart {{ o: id  s: string  pk = \"O#{{o}}\"  sk = \"shp{{s}}\" }}
"
    );
    let found: Vec<Diagnostic> = lints(&text)
        .into_iter()
        .filter(|d| d.code == Code::TypeTagPrefix)
        .collect();
    // `sh#` lists Ship; no ShipPart key begins with `sh#` (it begins `shp`).
    // `shp` lists ShipPart; no Ship key begins with `shp`.
    assert!(found.is_empty(), "{found:#?}");
    let text = format!(
        "{HEAD}entity Ship {{ o: id  s: string  pk = \"O#{{o}}\"  sk = \"sh{{s}}\" }}
entity ShipPart {{ o: id  s: id  pk = \"O#{{o}}\"  sk = \"shp#{{s}}\" }}
"
    );
    let found: Vec<Diagnostic> = lints(&text)
        .into_iter()
        .filter(|d| d.code == Code::TypeTagPrefix)
        .collect();
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].message.contains("begins_with(sk, \"sh\")"),
        "{}",
        found[0].message
    );
}

#[test]
fn type_tag_chains_report_each_pair_and_skip_partition_keys() {
    let text = format!(
        "{HEAD}entity A {{ x: id  pk = \"P#{{x}}\"  sk = \"A{{x}}\" }}
entity Ab {{ x: id  pk = \"P#{{x}}\"  sk = \"AB{{x}}\" }}
entity Abc {{ x: id  pk = \"P#{{x}}\"  sk = \"ABC#{{x}}\" }}
entity B {{ x: id  pk = \"B{{x}}\"  sk = \"B\" }}
entity Bc {{ x: id  pk = \"BC{{x}}\"  sk = \"C\" }}
"
    );
    let found: Vec<Diagnostic> = lints(&text)
        .into_iter()
        .filter(|d| d.code == Code::TypeTagPrefix)
        .collect();
    // A/AB, A/ABC, AB/ABC on `sk` only: `pk` is only ever compared with `=`.
    assert_eq!(found.len(), 3, "{found:#?}");
}

#[test]
fn overwrite_reports_the_later_item_with_a_witness() {
    let text = format!(
        "{HEAD}entity Tenant {{ tenantId: id  pk = \"TENANT#{{tenantId}}\"  sk = \"META\" }}
entity Settings {{ tenantId: id  pk = \"TENANT#{{tenantId}}\"  sk = \"META\" }}
pattern tenant(tenantId) -> Tenant, Settings
"
    );
    let found: Vec<_> = lints(&text).into_iter().filter(|d| d.code == Code::Overwrite).collect();
    assert_eq!(found.len(), 1, "{found:#?}");
    let d = &found[0];
    assert_eq!(at(&text, d), "sk = \"META\"");
    assert!(d.span.start() > text.find("Settings").unwrap());
    assert!(d.related[0].at.span.start() < text.find("Settings").unwrap());
    assert!(d.message.contains("pk=`TENANT#a`, sk=`META`"), "{}", d.message);
}

#[test]
fn overwrite_is_exact_not_a_prefix_test() {
    // `id` never holds the delimiter, so `O#{id}` and `O#{id}#LINE` differ;
    // a `string` can, so `N#{s}` overlaps `N#{id}#X`.
    let text = format!(
        "{HEAD}entity A {{ p: id  o: id  pk = \"P#{{p}}\"  sk = \"O#{{o}}\" }}
entity B {{ p: id  o: id  pk = \"P#{{p}}\"  sk = \"O#{{o}}#LINE\" }}
entity C {{ p: id  s: string  pk = \"Q#{{p}}\"  sk = \"N#{{s}}\" }}
entity D {{ p: id  o: id  pk = \"Q#{{p}}\"  sk = \"N#{{o}}#X\" }}
pattern a(p) -> A[], B[]
pattern c(p) -> C[], D[]
"
    );
    let found: Vec<_> = lints(&text).into_iter().filter(|d| d.code == Code::Overwrite).collect();
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(found[0].message.contains("`D` and `C`"), "{}", found[0].message);
    assert!(found[0].message.contains("sk=`N#a#X`"), "{}", found[0].message);
}

#[test]
fn overwrite_across_groups_and_hole_leading_keys() {
    // `{p}` starts with a hole: compatible with every partition literal.
    let text = format!(
        "{HEAD}entity A {{ p: string  pk = \"{{p}}\"  sk = \"X\" }}
entity B {{ p: id  pk = \"USER#{{p}}\"  sk = \"X\" }}
entity C {{ p: id  pk = \"USER#{{p}}\"  sk = \"Y\" }}
pattern a(p) -> A
pattern b(p) -> B
pattern c(p) -> C
"
    );
    let found: Vec<_> = lints(&text).into_iter().filter(|d| d.code == Code::Overwrite).collect();
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(found[0].message.contains("`B` and `A`"), "{}", found[0].message);
}

#[test]
fn symmetric_edges_are_not_overwrites_but_duplicate_items_are() {
    let text = format!(
        "{HEAD}entity Friendship {{
  a: id
  b: id
  item {{ pk = \"USER#{{a}}\"  sk = \"FRIEND#{{b}}\" }}
  item {{ pk = \"USER#{{b}}\"  sk = \"FRIEND#{{a}}\" }}
}}
entity Twice {{
  a: id
  item {{ pk = \"T#{{a}}\"  sk = \"X\" }}
  item {{ pk = \"T#{{a}}\"  sk = \"X\" }}
}}
pattern friends(a) -> Friendship[]
pattern twice(a) -> Twice[]
"
    );
    let found: Vec<_> = lints(&text).into_iter().filter(|d| d.code == Code::Overwrite).collect();
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].message.contains("two items of `Twice`"),
        "{}",
        found[0].message
    );
}

#[test]
fn mixed_delimiter_once_per_literal() {
    let text = format!(
        "{HEAD}entity User {{ t: id  u: id  pk = \"TENANT#{{t}}\"  sk = \"USER:{{u}}|X\" }}
pattern users(t) -> User[]
"
    );
    let found = lints(&text);
    let spans: Vec<&str> = found.iter().map(|d| at(&text, d)).collect();
    assert_eq!(spans, ["USER:", "|X"], "{found:#?}");
    assert!(found.iter().all(|d| d.code == Code::MixedDelimiter));
    assert!(found[0].help.as_deref().unwrap().contains("`USER#`"));
    // A delimiter of the table is fine, whatever it is.
    let colon = "table App {\n  key pk, sk\n  delimiter \":\"\n}\n\
                 entity User { t: id  u: id  pk = \"TENANT:{t}\"  sk = \"USER:{u}\" }\n\
                 pattern users(t) -> User[]\n";
    assert!(lints(colon).is_empty(), "{:#?}", lints(colon));
}

#[test]
fn unpadded_int_and_string_dates_in_ordered_sort_keys() {
    let text = format!(
        "{HEAD}entity Invoice {{ t: id  number: int  pk = \"T#{{t}}\"  sk = \"INVOICE#{{number}}\" }}
entity Event {{ t: id  createdAt: string  pk = \"T#{{t}}\"  sk = \"EVENT#{{createdAt}}\" }}
entity Line {{ t: id  n: int  pk = \"T#{{t}}\"  sk = \"LINE#{{n}}\" }}
pattern invoices(t) -> Invoice[] by number desc = query App where pk = \"T#{{t}}\" and begins_with(sk, \"INVOICE#\")
pattern oldest(t) -> Invoice[] by number = query App where pk = \"T#{{t}}\" and begins_with(sk, \"INVOICE#\")
pattern events(t, createdAt >= since) -> Event[]
pattern lines(t) -> Line[]
"
    );
    let found = lints(&text);
    assert_eq!(found.len(), 2, "{found:#?}");
    assert_eq!(found[0].code, Code::UnsortedSortValue);
    assert_eq!(at(&text, &found[0]), "{number}");
    // Both patterns that depend on it, then the declaration.
    assert_eq!(found[0].related.len(), 3);
    assert!(found[0].help.as_deref().unwrap().contains("int(pad N)"));
    assert_eq!(at(&text, &found[1]), "{createdAt}");
    assert!(found[1].help.as_deref().unwrap().contains("createdAt: datetime"));
}

#[test]
fn date_like_names() {
    assert_eq!(date_like("dueDate"), Some("date"));
    assert_eq!(date_like("createdAt"), Some("datetime"));
    assert_eq!(date_like("updated_time"), Some("datetime"));
    assert_eq!(date_like("day"), Some("date"));
    assert_eq!(date_like("name"), None);
    assert_eq!(date_like("category"), None);
    assert_eq!(date_like("status"), None);
}

#[test]
fn key_length_limits() {
    // Long literals around an `int(pad 8)`: 1016 + 1 + 8 = 1025 bytes for
    // Big's sort key, 1024 for Fine's, 2040 + 1 + 8 = 2049 for Wide's
    // partition key.
    let (c1016, c1015, w2040) = ("C".repeat(1016), "C".repeat(1015), "W".repeat(2040));
    let text = format!(
        "{HEAD}entity Big {{ t: id  code: int(pad 8)  pk = \"T#{{t}}\"  sk = \"{c1016}#{{code}}\" }}
entity Fine {{ t: id  code: int(pad 8)  pk = \"F#{{t}}\"  sk = \"{c1015}#{{code}}\" }}
entity Wide {{ code: int(pad 8)  pk = \"{w2040}#{{code}}\"  sk = \"X\" }}
entity Open {{ t: id  s: string  pk = \"O#{{t}}\"  sk = \"{{s}}\" }}
pattern big(t) -> Big[]
pattern fine(t) -> Fine[]
pattern wide(code) -> Wide
pattern open(t) -> Open[]
"
    );
    let found = lints(&text);
    let spans: Vec<&str> = found.iter().map(|d| at(&text, d)).collect();
    let (big, wide) = (format!("\"{c1016}#{{code}}\""), format!("\"{w2040}#{{code}}\""));
    assert_eq!(spans, [big.as_str(), wide.as_str()], "{found:#?}");
    assert!(found.iter().all(|d| d.code == Code::KeyTooLong));
    assert!(found[0].message.contains("1025 bytes"), "{}", found[0].message);
    assert!(found[1].message.contains("2049 bytes"), "{}", found[1].message);
}

#[test]
fn key_length_limits_in_two_files_at_the_same_offsets() {
    // Two entities whose sort keys lie at the same offsets of two files:
    // each is reported (keys shared by items are deduplicated per file).
    let c1016 = "C".repeat(1016);
    let entity = |name: &str| {
        format!("entity {name} {{ t: id  code: int(pad 8)  pk = \"{name}#{{t}}\"  sk = \"{c1016}#{{code}}\" }}\n")
    };
    let first = format!("{HEAD}{}", entity("Big"));
    let second = format!("{}{}", "\n".repeat(HEAD.len()), entity("Bog"));
    let (a, b) = (crate::syntax::FileId(0), crate::syntax::FileId(1));
    let parses = [crate::syntax::parse_in(a, &first), crate::syntax::parse_in(b, &second)];
    let schema = crate::check::check(&[
        crate::check::Source {
            file: a,
            text: &first,
            parse: &parses[0],
        },
        crate::check::Source {
            file: b,
            text: &second,
            parse: &parses[1],
        },
    ]);
    let too_long: Vec<_> = (schema.diagnostics.iter())
        .filter(|d| d.code == Code::KeyTooLong)
        .map(|d| (d.file, d.span))
        .collect();
    assert_eq!(too_long.len(), 2, "{:#?}", schema.diagnostics);
    assert_eq!(too_long[0].1, too_long[1].1);
}

#[test]
fn unused_entities_and_indexes_are_hints() {
    let text = "table App {\n  key pk, sk\n  index gsi1 (gsi1pk, gsi1sk)\n  index gsi2 (gsi2pk, gsi2sk)\n}\n\
                entity User { u: id  r: enum(a, b)  pk = \"USER#{u}\"  sk = \"USER\"  gsi1pk = \"ROLE#{r}\"  gsi1sk = \"USER#{u}\" }\n\
                entity Team { u: id  pk = \"TEAM#{u}\"  sk = \"TEAM\" }\n\
                pattern byRole(r) -> User[]\n";
    let found = lints(text);
    let got: Vec<(Code, &str)> = found.iter().map(|d| (d.code, at(text, d))).collect();
    assert_eq!(
        got,
        [(Code::UnusedIndex, "gsi2"), (Code::UnusedEntity, "Team")],
        "{found:#?}"
    );
    assert!(found.iter().all(|d| d.severity == crate::diagnostic::Severity::Hint));
}

/// A generated schema of 2,000 entities over four tables: the lints must
/// scale with the compatible pairs, not with all pairs. Prints the time
/// (run with `--release -- --nocapture` to measure); no assertion on it.
#[test]
fn two_thousand_entities() {
    let text = generated_schema(4, 500);
    let started = Instant::now();
    let analysis = analyze(&text);
    let analyzed = started.elapsed();
    assert_eq!(analysis.schema.model.entities.len(), 4 * 500 + 4 * 3);
    let (model, registry, resolutions) = (
        &analysis.schema.model,
        &analysis.schema.registry,
        &analysis.schema.resolutions,
    );
    let mut found = Vec::new();
    let mut runs = Vec::new();
    for _ in 0..3 {
        found.clear();
        let started = Instant::now();
        super::lint(model, registry, resolutions, &mut found);
        runs.push(started.elapsed());
    }
    eprintln!(
        "2,000-entity schema: analyze {analyzed:?} (lints included); lints alone, 3 runs: {runs:?}; {} lint diagnostics",
        found.len()
    );
    let mut scratch = Vec::new();
    let mut time = |name: &str, run: &mut dyn FnMut(&mut Vec<Diagnostic>)| {
        let started = Instant::now();
        run(&mut scratch);
        eprintln!("  {name}: {:?}", started.elapsed());
    };
    let tables = || model.table_ids().map(|(t, _)| t);
    let entities: Vec<_> = model.entity_ids().map(|(e, _)| e).collect();
    time("type tags", &mut |d| {
        tables().for_each(|t| super::tags::type_tag_prefixes(model, registry, t, d))
    });
    time("delimiters", &mut |d| {
        super::tags::mixed_delimiters(model, &entities, d)
    });
    time("overwrites", &mut |d| {
        tables().for_each(|t| super::overwrite::overwrites(model, registry, t, d))
    });
    time("sort values", &mut |d| {
        super::order::unsorted_values(model, &super::orders(model, resolutions, Vec::new()), d)
    });
    time("key lengths", &mut |d| super::limits::key_lengths(model, &entities, d));
    time("unused", &mut |d| {
        super::unused::unused_entities(model, d);
        super::unused::unused_indexes(model, resolutions, d);
    });
    let count = |code: Code| found.iter().filter(|d| d.code == code).count();
    // Planted per table: one USER/USERGROUP pair, one overwrite, one unpadded
    // `by` (pinned: a declarative one is E201, not a lint).
    assert_eq!(
        count(Code::TypeTagPrefix),
        4,
        "{:#?}",
        found.iter().find(|d| d.code == Code::TypeTagPrefix)
    );
    assert_eq!(
        count(Code::Overwrite),
        4,
        "{:#?}",
        found.iter().find(|d| d.code == Code::Overwrite)
    );
    assert_eq!(count(Code::UnsortedSortValue), 4);
    assert_eq!(count(Code::MixedDelimiter), 0);
    assert_eq!(count(Code::KeyTooLong), 0);
    // Every fifth generated entity has no pattern; the index is used.
    assert_eq!(count(Code::UnusedEntity), 4 * 100);
    assert_eq!(count(Code::UnusedIndex), 0);
}

fn generated_schema(tables: usize, per_table: usize) -> String {
    let mut s = String::new();
    for t in 0..tables {
        writeln!(s, "table Table{t} {{\n  key pk, sk\n  index gsi1 (gsi1pk, gsi1sk)\n}}").unwrap();
        for i in 0..per_table {
            let name = format!("E{t}x{i:04}");
            let tag = format!("E{i:04}");
            // Several partition layouts: a shared tenant partition, one
            // partition literal per type, and types keyed by their own id.
            let (pk, sk) = match i % 10 {
                0..=4 => ("TENANT#{tenantId}".to_string(), format!("{tag}#{{itemId}}")),
                5..=6 => (format!("ORG#{{tenantId}}#{tag}"), "META".to_string()),
                7..=8 => (format!("{tag}#{{itemId}}"), format!("{tag}#{{n}}")),
                _ => ("TENANT#{tenantId}".to_string(), format!("{{n}}#{tag}")),
            };
            writeln!(
                s,
                "entity {name} in Table{t} {{\n  tenantId: id\n  itemId: id\n  n: int(pad 6)\n  pk = \"{pk}\"\n  sk = \"{sk}\"\n  gsi1pk = \"TYPE#{tag}\"\n  gsi1sk = \"{{n}}\"\n}}"
            )
            .unwrap();
            if i % 5 != 4 {
                let (known, rest) = match i % 10 {
                    7..=8 => ("itemId", ""),
                    _ => ("tenantId", ""),
                };
                writeln!(s, "pattern p{name}({known}) -> {name}[]{rest}").unwrap();
            }
        }
        // The planted hazards of this table.
        writeln!(
            s,
            "entity User{t} in Table{t} {{ tenantId: id  userId: id  pk = \"TENANT#{{tenantId}}\"  sk = \"USER{{userId}}\" }}
entity Group{t} in Table{t} {{ tenantId: id  groupId: id  pk = \"TENANT#{{tenantId}}\"  sk = \"USERGROUP#{{groupId}}\" }}
entity Dup{t} in Table{t} {{ tenantId: id  itemId: id  n: int  pk = \"TENANT#{{tenantId}}\"  sk = \"E0000#{{itemId}}\"  gsi1pk = \"DUP\"  gsi1sk = \"{{n}}\" }}
pattern users{t}(tenantId) -> User{t}[]
pattern groups{t}(tenantId) -> Group{t}[]
pattern dups{t}() -> Dup{t}[] by n = query Table{t}.gsi1 where gsi1pk = \"DUP\""
        )
        .unwrap();
    }
    s
}

/// The W304 diagnostics of `text`.
fn hot(text: &str) -> Vec<Diagnostic> {
    lints(text)
        .into_iter()
        .filter(|d| d.code == Code::HotPartition)
        .collect()
}

const SCORES: &str = "table Games {\n  key pk, sk\n  index gsi1 (gsi1pk, gsi1sk)\n}\n";

#[test]
fn hot_writes_on_a_date_partition() {
    // 2,500 items of 300 B a second: 2,500 WCU on today's partition.
    let text = format!(
        "{SCORES}entity Score ~300B ~2500/s {{
  day: date
  userId: id
  points: int(pad 9)
  pk = \"SCORE#{{day}}\"
  sk = \"{{points}}#{{userId}}\"
}}
"
    );
    let found = hot(&text);
    let [d] = found.as_slice() else { panic!("{found:#?}") };
    assert_eq!(at(&text, d), "pk = \"SCORE#{day}\"");
    assert!(d.message.contains("~2,500 WCU/s"), "{}", d.message);
    assert!(d.message.contains("`day` is a `date`"), "{}", d.message);
    let help = d.help.as_deref().unwrap();
    assert!(help.contains("add `shard: shard(3)`"), "{help}");
    assert!(help.contains("end `pk` with `.{shard}`"), "{help}");
}

#[test]
fn hot_writes_divide_by_the_shards_and_size() {
    let sharded = |count: u32, size: &str| {
        format!(
            "{SCORES}entity Score ~{size} ~2500/s {{
  day: date
  userId: id
  points: int(pad 9)
  shard: shard({count})
  pk = \"SCORE#{{day}}.{{shard}}\"
  sk = \"{{points}}#{{userId}}\"
}}
"
        )
    };
    assert!(hot(&sharded(3, "300B")).is_empty());
    // 2 KB items: 2 WCU each, 5,000 WCU over 3 shards.
    let found = hot(&sharded(3, "2KB"));
    let [d] = found.as_slice() else { panic!("{found:#?}") };
    assert!(d.message.contains("~1,667 WCU/s"), "{}", d.message);
    assert!(d.message.contains("/ 3 shards"), "{}", d.message);
    assert!(
        d.help.as_deref().unwrap().starts_with("make `shard` `shard(5)`"),
        "{:?}",
        d.help
    );
    assert!(hot(&sharded(5, "2KB")).is_empty());
}

#[test]
fn keys_that_spread_writes_are_not_hot() {
    for hole in ["id", "uuid", "ulid", "string", "int", "decimal"] {
        let text =
            format!("{HEAD}entity Event ~9000/s {{ k: {hole}  at: datetime  pk = \"E#{{at}}#{{k}}\"  sk = \"E\" }}\n");
        assert!(hot(&text).is_empty(), "{hole}");
    }
    // Without a rate there is nothing to estimate.
    assert!(hot(&format!("{HEAD}entity Event {{ pk = \"E\"  sk = \"E\" }}\n")).is_empty());
    // Concentrated: constants, times, enums and bools.
    for (attr, hole) in [("at", "datetime"), ("at", "epoch"), ("s", "enum(a, b)"), ("b", "bool")] {
        let text = format!("{HEAD}entity Event ~1200/s {{ {attr}: {hole}  pk = \"E#{{{attr}}}\"  sk = \"E\" }}\n");
        let found = hot(&text);
        assert_eq!(found.len(), 1, "{hole}: {found:#?}");
    }
    let found = hot(&format!(
        "{HEAD}entity Event ~1200/s {{ pk = \"EVENTS\"  sk = \"E\" }}\n"
    ));
    assert!(
        found[0].message.contains("`pk` is always `EVENTS`"),
        "{}",
        found[0].message
    );
}

#[test]
fn hot_writes_on_an_index_count_its_entries_and_local_ones_add_up() {
    // The status index: a keys-only entry is one WCU however big the item.
    let text = "table Orders {
  key pk, sk
  index byStatus (gsi1pk, gsi1sk) keys_only
  local index byTotal (pk, lsk)
}
entity Order ~1500B ~900/s {
  orderId: ulid
  status: enum(open, paid)
  day: date
  pk = \"DAY#{day}\"
  sk = \"ORDER#{orderId}\"
  lsk = \"{orderId}\"
  gsi1pk = \"STATUS#{status}\"
  gsi1sk = \"{orderId}\"
}
";
    let found = hot(text);
    assert_eq!(found.len(), 1, "{found:#?}");
    // 900 × (2 WCU for the item + 2 for its local index entry).
    assert!(found[0].message.contains("~3,600 WCU/s"), "{}", found[0].message);
    assert!(
        found[0].message.contains("local index `byTotal`"),
        "{}",
        found[0].message
    );
    let all = text.replace(" keys_only", "");
    let found = hot(&all);
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(found[1].message.contains("of index `byStatus`"), "{}", found[1].message);
    assert!(
        found[1].message.contains("`status` is an `enum`"),
        "{}",
        found[1].message
    );
}

#[test]
fn hot_reads_of_a_concentrated_partition() {
    let text = format!(
        "{SCORES}entity Score ~1KB {{
  day: date
  userId: id
  points: int(pad 9)
  shard: shard(4)
  pk = \"SCORE#{{day}}.{{shard}}\"
  sk = \"{{points}}#{{userId}}\"
}}
pattern leaderboard(day) -> Score[] ~400 by points desc ~200/s
"
    );
    // 400 items of 1 KB over 4 shards: 100 KB a Query, 12.5 RCU, 2,500 RCU/s.
    assert!(hot(&text).is_empty(), "{:#?}", hot(&text));
    let busy = text.replace("~200/s", "~300/s");
    let found = hot(&busy);
    let [d] = found.as_slice() else { panic!("{found:#?}") };
    assert_eq!(at(&busy, d), "leaderboard");
    assert!(d.message.contains("~3,750 RCU/s"), "{}", d.message);
    assert!(d.message.contains("one of its 4 Queries"), "{}", d.message);
    assert!(
        d.help.as_deref().unwrap().starts_with("make `shard` `shard(5)`"),
        "{:?}",
        d.help
    );
}

#[test]
fn one_hot_item_cannot_be_sharded() {
    let text = format!(
        "{HEAD}entity Config ~5KB {{ pk = \"CONFIG\"  sk = \"CONFIG\" }}\npattern config() -> Config ~8000/s consistent\n"
    );
    let found = hot(&text);
    let [d] = found.as_slice() else { panic!("{found:#?}") };
    assert!(d.message.contains("~16,000 RCU/s"), "{}", d.message);
    assert!(
        d.help.as_deref().unwrap().starts_with("no number of shards helps"),
        "{:?}",
        d.help
    );
}

#[test]
fn calculated_shards_spread_writes_and_reads_as_one_query() {
    let text = format!(
        "{SCORES}entity Score ~300B ~3000/s {{
  day: date
  userId: id
  points: int(pad 9)
  shard: shard(10)
  bucket: shard(2, of userId)
  pk = \"SCORE#{{day}}.{{shard}}\"
  sk = \"{{points}}#{{userId}}\"
  gsi1pk = \"PLAYER#{{day}}.{{bucket}}\"
  gsi1sk = \"USER#{{userId}}\"
}}
pattern playerScore(day, userId) -> Score[] ~1 ~20000/s
"
    );
    let found = hot(&text);
    let [write, read] = found.as_slice() else {
        panic!("{found:#?}")
    };
    assert_eq!(at(&text, write), "gsi1pk = \"PLAYER#{day}.{bucket}\"");
    assert!(write.message.contains("~1,500 WCU/s"), "{}", write.message);
    let help = write.help.as_deref().unwrap();
    assert!(help.starts_with("make `bucket` `shard(3, of userId)`"), "{help}");
    assert!(help.contains("still one Query"), "{help}");
    // 20,000 reads of 0.5 RCU over 2 buckets.
    assert!(read.message.contains("~5,000 RCU/s"), "{}", read.message);
    let help = read.help.as_deref().unwrap();
    assert!(help.starts_with("make `bucket` `shard(4, of userId)`"), "{help}");
}

#[test]
fn each_shard_of_a_limited_read_reads_up_to_the_limit() {
    // The day's top 100 over 10 shards: each shard's Query reads its own
    // first 100 items (100 KB, 12.5 RCU), not a tenth of 100.
    let text = format!(
        "{SCORES}entity Score ~1KB {{
  day: date
  userId: id
  points: int(pad 9)
  shard: shard(10)
  pk = \"SCORE#{{day}}.{{shard}}\"
  sk = \"{{points}}#{{userId}}\"
}}
pattern leaderboard(day) -> Score[] ~5000 by points desc limit 100 ~300/s
"
    );
    let found = hot(&text);
    let [d] = found.as_slice() else { panic!("{found:#?}") };
    assert!(d.message.contains("~3,750 RCU/s"), "{}", d.message);
    assert!(d.message.contains("× 12.5 RCU"), "{}", d.message);
    // Under 10 RCU a Query: at most 80 items of each shard, 5,000 / 63.
    let help = d.help.as_deref().unwrap();
    assert!(help.starts_with("make `shard` `shard(63)`"), "{help}");
}
