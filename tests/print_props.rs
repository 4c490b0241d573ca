//! Properties of the printer (`dyno::syntax::print`), on every schema the
//! repository holds without syntax errors (the fixtures, the examples, the
//! docs' ```dyno blocks), on schemas from `dyno::synth` and on syntax trees
//! built by proptest:
//!
//! - the printed text parses, without errors, to the same tree up to spans;
//! - printing is idempotent: `print(parse(print(t))) == print(t)`;
//! - the printed text is what `dyno fmt` makes of it: formatting it changes
//!   nothing;
//! - on a formatted file without `//` comments, whose members and blank
//!   lines follow the printer's choices (see `syntax/print.rs`), the printer
//!   gives the formatter's text.

mod common;

use std::path::{Path, PathBuf};

use dyno::diagnostic::Severity;
use dyno::ide::format::format;
use dyno::syntax::ast::*;
use dyno::syntax::lexer::{Token, lex};
use dyno::syntax::print::print;
use dyno::syntax::{Span, parse};
use dyno::synth;
use proptest::prelude::*;

/// The tree as text with every span blanked: two trees are equal up to spans
/// when these are equal. `Debug` shows every field, so a field added to the
/// tree is compared without this function changing.
fn without_spans(file: &SourceFile) -> String {
    let debug = format!("{file:?}");
    let mut out = String::with_capacity(debug.len());
    let mut rest = debug.as_str();
    while let Some(at) = rest.find("Span { start: ") {
        out.push_str(&rest[..at]);
        let end = rest[at..].find('}').map_or(rest.len(), |k| at + k + 1);
        out.push_str("Span");
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

fn syntax_errors(text: &str) -> Vec<String> {
    parse(text)
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| format!("{d:?}"))
        .collect()
}

/// Checks the first three properties on one tree; returns the printed text.
fn check_tree(name: &str, tree: &SourceFile) -> String {
    let printed = print(tree);
    let errors = syntax_errors(&printed);
    assert!(
        errors.is_empty(),
        "{name}: printed text has errors {errors:?}:\n{printed}"
    );
    let reparsed = parse(&printed).file;
    assert_eq!(
        without_spans(&reparsed),
        without_spans(tree),
        "{name}: the tree changed; printed:\n{printed}"
    );
    assert_eq!(print(&reparsed), printed, "{name}: not idempotent");
    let formatted = format(&printed).unwrap_or_else(|e| panic!("{name}: {e}\n{printed}"));
    assert_eq!(formatted, printed, "{name}: `dyno fmt` would change the printed text");
    printed
}

fn dyno_files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            dyno_files_under(&path, out);
        } else if path.extension().is_some_and(|e| e == "dyno") {
            out.push(path);
        }
    }
}

/// Every schema in the repository without syntax errors, by name.
fn clean_corpus() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    dyno_files_under(&root.join("tests/fixtures"), &mut paths);
    paths.extend(common::fixtures("examples"));
    paths.sort();
    let mut out: Vec<(String, String)> = paths
        .iter()
        .map(|path| {
            let text = std::fs::read_to_string(path).unwrap();
            (path.strip_prefix(root).unwrap().display().to_string(), text)
        })
        .collect();
    for doc in ["docs/language.md", "README.md"] {
        let markdown = std::fs::read_to_string(root.join(doc)).unwrap();
        for block in common::markdown::blocks(&markdown) {
            if block.info.starts_with("dyno") {
                out.push((format!("{doc}:{}", block.line), block.code));
            }
        }
    }
    out.retain(|(_, text)| syntax_errors(text).is_empty());
    out
}

#[test]
fn every_clean_schema_in_the_repository_prints_back_to_its_tree() {
    let corpus = clean_corpus();
    let fixtures = corpus.iter().filter(|(n, _)| n.starts_with("tests/fixtures")).count();
    let examples = corpus.iter().filter(|(n, _)| n.starts_with("examples")).count();
    assert!(
        fixtures >= 50 && examples >= 3,
        "{fixtures} fixtures, {examples} examples"
    );
    for (name, text) in &corpus {
        check_tree(name, &parse(text).file);
    }
}

#[test]
fn synthetic_schemas_print_back_to_their_trees() {
    for (lines, seed) in [(100, 1), (400, 7), (1_000, 42), (3_000, 2024)] {
        let generated = synth::generate(&synth::Config::for_lines(lines, seed));
        check_tree(&format!("synth {lines}/{seed}"), &parse(&generated.dyno).file);
    }
}

/// `text` without its `//` comments (doc comments stay).
fn without_plain_comments(text: &str) -> String {
    let (tokens, _) = lex(text);
    let mut out = String::with_capacity(text.len());
    let mut copied_to = 0;
    for (token, span) in tokens {
        if matches!(token, Token::Comment(_)) {
            out.push_str(&text[copied_to..span.start]);
            copied_to = span.end;
        }
    }
    out.push_str(&text[copied_to..]);
    out
}

fn without_blank_lines(text: &str) -> String {
    text.lines()
        .filter(|line| !line.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The repository's formatted files whose printed text differs from the
/// formatter's by more than blank lines: each file, a text in it, and the
/// spelling the tree does not keep.
const NOT_KEPT_BY_THE_TREE: &[(&str, &str, &str)] = &[
    (
        "tests/fixtures/format/doc_comments.dyno",
        "///A",
        "`///A` is printed `/// A`",
    ),
    (
        "tests/fixtures/format/only_comments.dyno",
        "/// A dangling",
        "a `///` above nothing",
    ),
    ("tests/fixtures/format/trailing_commas.dyno", ",)", "a trailing comma"),
    (
        "tests/fixtures/format/item_shapes.dyno",
        "sk = \"B#{teamId}\"\n\n",
        "a blank line between key templates, which aligns each run on its own",
    ),
    (
        "docs/language.md",
        "  /// Base keys:",
        "a `///` above a table's `key` line",
    ),
    (
        "docs/language.md",
        "by number asc",
        "`by number asc` is printed `by number`",
    ),
];

/// `dyno fmt` output without `//` comments, printed from its tree: the same
/// text up to blank lines, except where the tree does not keep a spelling;
/// the bundled examples (whose blank lines follow the printer's choices)
/// are the same text exactly.
#[test]
fn on_formatted_files_the_printer_gives_the_formatters_text() {
    let mut exact = Vec::new();
    let mut unexplained = Vec::new();
    let mut explained = Vec::new();
    for (name, text) in clean_corpus() {
        let formatted = format(&without_plain_comments(&text)).unwrap().replace("\r\n", "\n");
        let printed = print(&parse(&formatted).file);
        if printed == formatted {
            exact.push(name);
        } else if without_blank_lines(&printed) != without_blank_lines(&formatted) {
            let reason = NOT_KEPT_BY_THE_TREE
                .iter()
                .position(|(file, snippet, _)| name.starts_with(file) && formatted.contains(snippet));
            match reason {
                Some(reason) => explained.push(reason),
                None => unexplained.push(format!("{name}:\n--- formatted\n{formatted}--- printed\n{printed}")),
            }
        }
    }
    assert!(unexplained.is_empty(), "{}", unexplained.join("\n"));
    explained.sort();
    let all: Vec<usize> = (0..NOT_KEPT_BY_THE_TREE.len()).collect();
    assert_eq!(explained, all, "every listed difference occurs once");
    for example in ["examples/billing.dyno", "examples/shop.dyno"] {
        assert!(
            exact.iter().any(|n| n == example),
            "{example} differs; exact: {exact:?}"
        );
    }
    assert!(
        exact.len() >= 25,
        "only {} files are the same exactly: {exact:?}",
        exact.len()
    );
}

// ---------- syntax trees built by proptest ----------

fn name(pool: &'static [&'static str]) -> impl Strategy<Value = Name> {
    prop::sample::select(pool).prop_map(|text| Name::new(text, Span::default()))
}

/// Identifiers, contextual keywords among them; never `true`, `false`,
/// `and` or a hard keyword, which the grammar reads otherwise.
const NAMES: &[&str] = &[
    "a", "pk", "sk", "userId", "gsi1pk", "x_1", "é", "名前", "_t", "item", "key", "status",
];
const ENTITIES: &[&str] = &["User", "Order", "T", "Ñame", "E2"];

fn attr_name() -> impl Strategy<Value = Name> {
    name(NAMES)
}

fn docs() -> impl Strategy<Value = Option<Docs>> {
    prop::option::of(
        prop::sample::select(&["doc", "two\nlines", "", "  indented", "/slash", "ünï 🎉"][..]).prop_map(|text| Docs {
            text: text.to_string(),
            span: Span::default(),
        }),
    )
}

/// Literal text and holes; adjacent literal pieces are one segment, as the
/// parser reads them.
fn string_lit() -> impl Strategy<Value = StringLit> {
    let piece = prop_oneof![
        prop::sample::select(&["USER#", "A", "#", "x\"y", "{lit}", "ü🎉#", "a b  c", "\\"][..]).prop_map(|text| {
            Segment::Literal {
                text: text.to_string(),
                span: Span::default(),
            }
        }),
        attr_name().prop_map(|name| Segment::Hole {
            name,
            span: Span::default()
        }),
    ];
    prop::collection::vec(piece, 0..4).prop_map(|pieces| {
        let mut segments: Vec<Segment> = Vec::new();
        for piece in pieces {
            match (segments.last_mut(), piece) {
                (Some(Segment::Literal { text, .. }), Segment::Literal { text: more, .. }) => text.push_str(&more),
                (_, piece) => segments.push(piece),
            }
        }
        StringLit {
            span: Span::default(),
            segments,
        }
    })
}

fn size_hint() -> impl Strategy<Value = SizeHint> {
    let amount = prop::sample::select(&[0.0, 1.5, 20.0, 300.0, 1500.0, 0.25][..]);
    let unit = prop::sample::select(
        &[
            SizeUnit::None,
            SizeUnit::Bytes,
            SizeUnit::KiloBytes,
            SizeUnit::MegaBytes,
        ][..],
    );
    (amount, unit).prop_map(|(amount, unit)| SizeHint {
        span: Span::default(),
        amount,
        unit,
    })
}

fn key_attr() -> impl Strategy<Value = KeyAttr> {
    let ty = prop::sample::select(&[KeyType::String, KeyType::Number, KeyType::Binary][..]);
    (attr_name(), prop::option::of(ty)).prop_map(|(name, ty)| KeyAttr {
        name,
        ty: ty.map(|ty| (ty, Span::default())),
    })
}

fn table() -> impl Strategy<Value = Item> {
    let key = (key_attr(), prop::option::of(key_attr())).prop_map(|(partition, sort)| KeyDecl {
        span: Span::default(),
        partition,
        sort,
    });
    let projection = prop_oneof![
        Just(Projection::Default),
        Just(Projection::All(Span::default())),
        Just(Projection::KeysOnly(Span::default())),
        prop::collection::vec(attr_name(), 0..3).prop_map(|names| Projection::Include(Span::default(), names)),
    ];
    let index = (
        docs(),
        any::<bool>(),
        attr_name(),
        key_attr(),
        prop::option::of(key_attr()),
        projection,
    )
        .prop_map(|(docs, local, name, partition, sort, projection)| IndexDecl {
            span: Span::default(),
            docs,
            local,
            name,
            partition,
            sort,
            projection,
        });
    let delimiter = string_lit().prop_map(|value| DelimiterDecl {
        span: Span::default(),
        value,
    });
    (
        docs(),
        name(ENTITIES),
        prop::collection::vec(key, 0..3),
        prop::collection::vec(index, 0..3),
        prop::collection::vec(delimiter, 0..2),
    )
        .prop_map(|(docs, name, keys, indexes, delimiters)| {
            Item::Table(Table {
                span: Span::default(),
                docs,
                name,
                keys,
                indexes,
                delimiters,
            })
        })
}

fn key_template() -> impl Strategy<Value = KeyTemplate> {
    (docs(), attr_name(), string_lit()).prop_map(|(docs, key, template)| KeyTemplate {
        span: Span::default(),
        docs,
        key,
        template,
    })
}

fn entity() -> impl Strategy<Value = Item> {
    let arg = prop_oneof![
        (0..1_000u32).prop_map(|width| TypeArg::Pad {
            span: Span::default(),
            width
        }),
        size_hint().prop_map(TypeArg::Size),
        name(&["open", "pad", "item", "a"]).prop_map(TypeArg::Word),
        string_lit().prop_map(TypeArg::Str),
    ];
    let ty = (
        name(&["string", "id", "int", "enum", "map", "x"]),
        prop::collection::vec(arg, 0..3),
    )
        .prop_map(|(name, args)| TypeRef {
            span: Span::default(),
            name,
            args,
        });
    let attribute = (docs(), attr_name(), ty, any::<bool>()).prop_map(|(docs, name, ty, optional)| Attribute {
        span: Span::default(),
        docs,
        name,
        ty,
        optional,
    });
    let shape = prop::collection::vec(key_template(), 0..4).prop_map(|keys| ItemShape {
        span: Span::default(),
        keys,
    });
    (
        docs(),
        name(ENTITIES),
        prop::option::of(name(ENTITIES)),
        prop::option::of(size_hint()),
        prop::collection::vec(attribute, 0..4),
        prop::collection::vec(key_template(), 0..4),
        prop::collection::vec(shape, 0..3),
    )
        .prop_map(|(docs, name, table, size, attributes, keys, items)| {
            Item::Entity(Entity {
                span: Span::default(),
                docs,
                name,
                table,
                size,
                attributes,
                keys,
                items,
            })
        })
}

fn number() -> impl Strategy<Value = String> {
    prop::sample::select(&["0", "6", "1.5", "200"][..]).prop_map(str::to_string)
}

fn pattern() -> impl Strategy<Value = Item> {
    let range_op = prop::sample::select(&[CompareOp::Lt, CompareOp::Le, CompareOp::Gt, CompareOp::Ge][..]);
    let literal = prop_oneof![
        string_lit().prop_map(Literal::Str),
        number().prop_map(|text| Literal::Number(text, Span::default())),
        any::<bool>().prop_map(|b| Literal::Bool(b, Span::default())),
        attr_name().prop_map(Literal::Word),
    ];
    let kind = prop_oneof![
        Just(KnownKind::Equal),
        literal.prop_map(KnownKind::Fixed),
        (range_op.clone(), attr_name()).prop_map(|(op, bound)| KnownKind::Compare(op, bound)),
        (attr_name(), attr_name()).prop_map(|(low, high)| KnownKind::Between(low, high)),
        attr_name().prop_map(KnownKind::BeginsWith),
    ];
    let known = (attr_name(), kind).prop_map(|(attr, kind)| Known {
        span: Span::default(),
        attr,
        kind,
    });
    let returned =
        (name(ENTITIES), any::<bool>(), prop::option::of(size_hint())).prop_map(|(entity, many, count)| Returned {
            span: Span::default(),
            entity,
            many,
            count,
        });
    let modifier = prop_oneof![
        (attr_name(), any::<bool>()).prop_map(|(attr, descending)| Modifier::OrderBy {
            span: Span::default(),
            attr,
            descending
        }),
        Just(Modifier::Consistent(Span::default())),
        prop_oneof![0..1_000u64, Just(u64::MAX)].prop_map(|count| Modifier::Limit {
            span: Span::default(),
            count
        }),
    ];
    let operand = prop_oneof![
        string_lit().prop_map(Operand::Str),
        number().prop_map(|text| Operand::Number(text, Span::default())),
        attr_name().prop_map(Operand::Param),
    ];
    let any_op = prop::sample::select(
        &[
            CompareOp::Eq,
            CompareOp::Lt,
            CompareOp::Le,
            CompareOp::Gt,
            CompareOp::Ge,
        ][..],
    );
    let condition_kind = prop_oneof![
        (any_op, operand.clone()).prop_map(|(op, value)| ConditionKind::Compare(op, value)),
        (operand.clone(), operand.clone()).prop_map(|(low, high)| ConditionKind::Between(low, high)),
        operand.prop_map(ConditionKind::BeginsWith),
    ];
    let condition = (attr_name(), condition_kind).prop_map(|(key, kind)| Condition {
        span: Span::default(),
        key,
        kind,
    });
    let query = (
        name(ENTITIES),
        prop::option::of(attr_name()),
        prop::collection::vec(condition, 1..4),
    )
        .prop_map(|(table, index, conditions)| Query {
            span: Span::default(),
            table,
            index,
            conditions,
        });
    (
        docs(),
        attr_name(),
        prop::collection::vec(known, 0..4),
        prop::collection::vec(returned, 1..4),
        prop::collection::vec(modifier, 0..4),
        prop::option::of(query),
    )
        .prop_map(|(docs, name, known, returns, modifiers, query)| {
            Item::Pattern(Pattern {
                span: Span::default(),
                docs,
                name,
                known,
                returns,
                modifiers,
                query,
            })
        })
}

fn source_file() -> impl Strategy<Value = SourceFile> {
    prop::collection::vec(prop_oneof![table(), entity(), pattern()], 0..5).prop_map(|items| SourceFile { items })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn generated_trees_print_back_to_themselves(tree in source_file()) {
        check_tree("generated tree", &tree);
    }
}

#[test]
fn the_span_free_comparison_sees_every_difference_but_spans() {
    let text = "table T {\n  key pk\n}\n";
    let moved = format!("\n\n{text}");
    assert_eq!(without_spans(&parse(text).file), without_spans(&parse(&moved).file));
    assert_ne!(parse(text).file, parse(&moved).file);
    for changed in [
        "table T {\n  key pk: string\n}\n",
        "table U {\n  key pk\n}\n",
        "table T {\n  key pk, sk\n}\n",
    ] {
        assert_ne!(
            without_spans(&parse(text).file),
            without_spans(&parse(changed).file),
            "{changed}"
        );
    }
}
