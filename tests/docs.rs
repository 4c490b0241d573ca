//! The documentation cannot drift from the implementation: every bundled
//! schema and every ```dyno block in the docs is checked, and every
//! diagnostic code has a documented failing example and fix.

mod common;

use std::path::{Path, PathBuf};

use common::markdown;
use dyno::check::analyze;
use dyno::diagnostic::{Code, Severity};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn files_with_extension(dir: &Path, extension: &str, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files_with_extension(&path, extension, out);
        } else if path.extension().is_some_and(|e| e == extension) {
            out.push(path);
        }
    }
}

fn describe(text: &str) -> String {
    analyze(text)
        .diagnostics()
        .iter()
        .map(|d| {
            format!(
                "  {} {} at {}..{}: {}",
                d.severity.as_str(),
                d.code.as_str(),
                d.span.start(),
                d.span.end(),
                d.message
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn bundled_examples_have_no_diagnostics() {
    let mut files = Vec::new();
    files_with_extension(&root().join("examples"), "dyno", &mut files);
    files_with_extension(&root().join("docs"), "dyno", &mut files);
    // The ported designs in examples/real keep the hazards their sources have
    // and list them; tests/real_designs.rs checks those.
    files.retain(|path| !path.starts_with(root().join("examples/real")));
    assert!(files.len() >= 3, "expected the bundled examples, found {files:?}");
    let mut failures = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        if !analyze(&text).diagnostics().is_empty() {
            failures.push(format!("{}:\n{}", path.display(), describe(&text)));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every ```dyno block in the docs and README is a complete schema without
/// errors or warnings. Blocks that show a mistake on purpose are fenced ```dyno fails.
#[test]
fn documentation_examples_have_no_errors() {
    let mut files = vec![root().join("README.md")];
    files_with_extension(&root().join("docs"), "md", &mut files);
    let mut checked = 0;
    let mut failures = Vec::new();
    for path in files {
        let markdown = std::fs::read_to_string(&path).unwrap();
        for block in markdown::blocks(&markdown).into_iter().filter(|b| b.info == "dyno") {
            checked += 1;
            // Hints (an entity no pattern of the example returns) are fine
            // in a fragment; a warning is not: the docs call these clean.
            let errors = analyze(&block.code)
                .diagnostics()
                .iter()
                .filter(|d| d.severity <= Severity::Warning)
                .count();
            if errors > 0 {
                failures.push(format!("{}:{}:\n{}", path.display(), block.line, describe(&block.code)));
            }
        }
    }
    assert!(checked > 0, "no ```dyno blocks found in the docs");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Each code's section in docs/diagnostics.md: the heading starts with the
/// code, a ```dyno fails block that must report it, and a ```dyno block with
/// the fix that must not report it and must have no errors at all.
fn check_documented_code(code: Code) {
    let markdown = std::fs::read_to_string(root().join("docs/diagnostics.md")).unwrap();
    let blocks: Vec<_> = markdown::blocks(&markdown)
        .into_iter()
        .filter(|b| b.heading.split_whitespace().next() == Some(code.as_str()))
        .collect();
    let failing = blocks.iter().find(|b| b.info == "dyno fails");
    let fixed = blocks.iter().find(|b| b.info == "dyno");
    let (Some(failing), Some(fixed)) = (failing, fixed) else {
        panic!(
            "docs/diagnostics.md needs a `## {}` section with a ```dyno fails and a ```dyno block",
            code.as_str()
        );
    };
    let reported = analyze(&failing.code).diagnostics().to_vec();
    assert!(
        reported.iter().any(|d| d.code == code),
        "the failing example of {} (line {}) does not report it:\n{}",
        code.as_str(),
        failing.line,
        describe(&failing.code)
    );
    let after_fix = analyze(&fixed.code).diagnostics().to_vec();
    assert!(
        !after_fix
            .iter()
            .any(|d| d.code == code || d.severity == Severity::Error),
        "the fixed example of {} (line {}) still reports problems:\n{}",
        code.as_str(),
        fixed.line,
        describe(&fixed.code)
    );
}

/// One test per diagnostic code; `every_code_has_a_test` keeps this list
/// complete.
macro_rules! code_tests {
    ($($test:ident => $code:ident,)*) => {
        $(#[test] fn $test() { check_documented_code(Code::$code); })*
        const TESTED: &[Code] = &[$(Code::$code,)*];
    };
}

code_tests! {
    e001_unknown_character => UnknownCharacter,
    e002_unterminated_string => UnterminatedString,
    e003_unclosed_hole => UnclosedHole,
    e004_unmatched_brace => UnmatchedBrace,
    e005_invalid_hole => InvalidHole,
    e006_invalid_escape => InvalidEscape,
    e010_unexpected_token => UnexpectedToken,
    e011_unclosed_delimiter => UnclosedDelimiter,
    e012_invalid_number => InvalidNumber,
    e013_unknown_key_type => UnknownKeyType,
    e014_invalid_quoted_name => InvalidQuotedName,
    e101_unknown_hole_attribute => UnknownHoleAttribute,
    e102_not_a_key_attribute => NotAKeyAttribute,
    e103_duplicate_name => DuplicateName,
    e104_missing_partition_key => MissingPartitionKey,
    e105_partial_index_key => PartialIndexKey,
    e106_unknown_entity => UnknownEntity,
    e107_unknown_value => UnknownValue,
    e108_unknown_table_or_index => UnknownTableOrIndex,
    e109_unknown_type => UnknownType,
    e110_no_table => NoTable,
    e111_invalid_type_arguments => InvalidTypeArguments,
    e112_unknown_pattern_attribute => UnknownPatternAttribute,
    e113_invalid_table => InvalidTable,
    e114_unkeyable_hole => UnkeyableHole,
    e115_number_key_template => NumberKeyTemplate,
    e116_invalid_name => InvalidName,
    e117_ttl_not_a_number => TtlNotANumber,
    e118_multi_attribute_key => MultiAttributeKey,
    e119_key_attribute_type => KeyAttributeType,
    w101_too_many_global_indexes => TooManyGlobalIndexes,
    e201_no_single_query => NoSingleQuery,
    e202_extra_entities => ExtraEntities,
    e203_unmatched_value => UnmatchedValue,
    e204_key_condition_rule => KeyConditionRule,
    e205_consistent_gsi => ConsistentGsi,
    e206_missing_entities => MissingEntities,
    e207_mixed_tables => MixedTables,
    e208_too_many_ranges => TooManyRanges,
    e209_invalid_fixed_value => InvalidFixedValue,
    e301_overwrite => Overwrite,
    e302_key_too_long => KeyTooLong,
    e210_unpinned_value => UnpinnedValue,
    e221_read_operation_rule => ReadOperationRule,
    e222_get_without_key => GetWithoutKey,
    e223_batch_too_large => BatchTooLarge,
    e231_filter_type_mismatch => FilterTypeMismatch,
    e232_filter_on_key => FilterOnKey,
    e233_filter_removes_declared => FilterRemovesDeclared,
    e234_filter_not_projected => FilterNotProjected,
    w231_filtered_entities => FilteredEntities,
    w232_limit_before_filter => LimitBeforeFilter,
    w202_index_not_unique => IndexNotUnique,
    w203_coarse_bound => CoarseBound,
    w301_type_tag_prefix => TypeTagPrefix,
    w302_mixed_delimiter => MixedDelimiter,
    w303_unsorted_sort_value => UnsortedSortValue,
    w304_hot_partition => HotPartition,
    h201_expired_items_read => ExpiredItemsRead,
    h221_scan_reads_all => ScanReadsAll,
    h301_unused_entity => UnusedEntity,
    h302_unused_index => UnusedIndex,
}

#[test]
fn every_code_has_a_test() {
    let missing: Vec<&str> = Code::ALL
        .iter()
        .filter(|c| !TESTED.contains(c))
        .map(|c| c.as_str())
        .collect();
    assert!(missing.is_empty(), "add these codes to code_tests!: {missing:?}");
}
