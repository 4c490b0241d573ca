//! `dyno import`: each NoSQL Workbench model under
//! `tests/fixtures/import/workbench` (hand-written, see the README there)
//! and each template under `tests/fixtures/import/cloudformation` beside
//! the schema it imports to (`UPDATE_EXPECT=1` rewrites them); every
//! imported schema parses, is formatted, checks without errors and keeps
//! the input's tables, indexes and entities. Round trips: the bundled
//! examples exported and imported again keep their tables, keys, indexes
//! and (Workbench) facets.

use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use dyno::check::analyze;
use dyno::check::model::AccessKind;
use dyno::check::sample::Options;
use dyno::diagnostic::Severity;
use dyno::export;
use dyno::ide::format::format;
use dyno::import::{cloudformation, workbench};
use expect_test::expect_file;
use serde_json::{Value as Json, json};

fn inputs(dir: &str, extensions: &[&str]) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| extensions.iter().any(|x| e == *x)))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no inputs in {}", dir.display());
    files
}

fn name(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

/// The schema parses, is what `dyno fmt` makes of it, and checks without
/// errors (hints that no pattern reads an entity are expected).
fn assert_sound(input: &str, schema: &str) {
    if let Err(why) = soundness(schema) {
        panic!("{input}: {why}\n{schema}");
    }
}

/// Why the schema is not sound, if it is not (see `assert_sound`).
fn soundness(schema: &str) -> Result<(), String> {
    let analysis = analyze(schema);
    if !analysis.parse.diagnostics.is_empty() {
        return Err(format!(
            "the imported schema has syntax errors: {:?}",
            analysis.parse.diagnostics
        ));
    }
    let errors: Vec<_> = analysis
        .diagnostics()
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.message.clone())
        .collect();
    if !errors.is_empty() {
        return Err(format!("the imported schema has errors {errors:?}"));
    }
    if format(schema).ok().as_deref() != Some(schema) {
        return Err("the imported schema is not formatted".into());
    }
    Ok(())
}

/// Table names with their index names, of the input and of the schema.
fn tables_of_schema(schema: &str) -> Vec<(String, Vec<String>)> {
    let analysis = analyze(schema);
    analysis
        .schema
        .model
        .tables
        .iter()
        .map(|t| {
            let indexes = t.access.iter().filter(|a| a.kind != AccessKind::Base);
            (
                t.name.text.to_string(),
                indexes.map(|a| a.name.text.to_string()).collect(),
            )
        })
        .collect()
}

#[test]
fn every_workbench_model_imports_to_its_schema() {
    for path in inputs("tests/fixtures/import/workbench", &["json"]) {
        let input = name(&path);
        let text = std::fs::read_to_string(&path).unwrap();
        let schema = workbench::import(&text, &input).unwrap_or_else(|e| panic!("{input}: {e}"));
        assert_sound(&input, &schema);
        let model: Json = serde_json::from_str(&text).unwrap();
        // The tables with a key; a table without one is a TODO.
        let tables: Vec<&Json> = model["DataModel"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| t["KeyAttributes"]["PartitionKey"].is_object())
            .collect();
        let expected: Vec<(String, Vec<String>)> = tables
            .iter()
            .map(|t| {
                let indexes = t["GlobalSecondaryIndexes"].as_array().into_iter().flatten();
                (
                    t["TableName"].as_str().unwrap().to_string(),
                    indexes.map(|i| i["IndexName"].as_str().unwrap().to_string()).collect(),
                )
            })
            .collect();
        assert_eq!(tables_of_schema(&schema), expected, "{input}: tables and indexes");
        // One entity per facet, or a TODO saying why not; a table without
        // facets but with items, one.
        let entities: usize = tables
            .iter()
            .map(|t| match t["TableFacets"].as_array() {
                Some(facets) if !facets.is_empty() => facets.len(),
                _ => usize::from(t["TableData"].as_array().is_some_and(|d| !d.is_empty())),
            })
            .sum();
        let refused = schema
            .lines()
            .filter(|l| l.starts_with("// TODO: entity `") && l.contains("is not imported"))
            .count();
        assert_eq!(
            analyze(&schema).schema.model.entities.len() + refused,
            entities,
            "{input}: entities"
        );
        expect_file![path.with_extension("dyno")].assert_eq(&schema);
    }
}

/// The `*.json` files under `dir` and its subdirectories (hidden ones, such
/// as `.git`, left out), sorted.
fn json_files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.unwrap().path();
        if path.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.')) {
            continue;
        }
        if path.is_dir() {
            json_files_under(&path, out);
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
    out.sort();
}

/// Opt-in, over models the repository does not hold: every `*.json` under
/// the directory `DYNO_IMPORT_MODELS` names (and its subdirectories) is a
/// NoSQL Workbench model that imports to a schema that parses, is formatted
/// and checks without errors. README.md (Tests) says where to get models.
#[test]
#[ignore = "needs NoSQL Workbench models in DYNO_IMPORT_MODELS (README: Tests)"]
fn every_model_in_dyno_import_models_imports_soundly() {
    let dir = std::env::var_os("DYNO_IMPORT_MODELS")
        .expect("DYNO_IMPORT_MODELS names no directory: set it to one holding NoSQL Workbench models");
    let mut models = Vec::new();
    json_files_under(Path::new(&dir), &mut models);
    assert!(!models.is_empty(), "no *.json under {}", Path::new(&dir).display());
    let mut failures = Vec::new();
    let (mut tables, mut entities) = (0, 0);
    for path in &models {
        let input = path.display().to_string();
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) => {
                failures.push(format!("{input}: cannot read: {e}"));
                continue;
            }
        };
        match workbench::import(&text, &input) {
            Err(e) => failures.push(e.0),
            Ok(schema) => match soundness(&schema) {
                Err(why) => failures.push(format!("{input}: {why}")),
                Ok(()) => {
                    let analysis = analyze(&schema);
                    tables += analysis.schema.model.tables.len();
                    entities += analysis.schema.model.entities.len();
                }
            },
        }
    }
    eprintln!(
        "{} models: {} imported soundly ({tables} tables, {entities} entities), {} failed",
        models.len(),
        models.len() - failures.len(),
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_cloudformation_template_imports_to_its_schema() {
    for path in inputs("tests/fixtures/import/cloudformation", &["yaml", "yml", "json"]) {
        let input = name(&path);
        let text = std::fs::read_to_string(&path).unwrap();
        let json = path.extension().is_some_and(|e| e == "json");
        let schema = cloudformation::import(&text, &input, json).unwrap_or_else(|e| panic!("{input}: {e}"));
        assert_sound(&input, &schema);
        expect_file![path.with_extension("dyno")].assert_eq(&schema);
    }
}

const EXAMPLES: [&str; 3] = ["examples/billing.dyno", "examples/shop.dyno", "examples/teams.dyno"];

fn example(file: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).unwrap()
}

fn workbench_model(schema: &str, file: &str) -> Json {
    export::workbench::data_model(&analyze(schema), Path::new(file), &Options::default(), UNIX_EPOCH)
}

/// What a Workbench model says of the tables, without the sample items and
/// the dates: keys, indexes, each facet's key aliases and attributes.
fn structure(model: &Json) -> Json {
    let tables = model["DataModel"].as_array().unwrap().iter().map(|t| {
        let facets: Vec<Json> = t["TableFacets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                let mut attributes: Vec<&str> = f["NonKeyAttributes"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|a| a.as_str().unwrap())
                    .collect();
                attributes.sort_unstable();
                json!({ "facet": f["FacetName"], "aliases": f["KeyAttributeAlias"], "attributes": attributes })
            })
            .collect();
        json!({
            "table": t["TableName"],
            "keys": t["KeyAttributes"],
            "indexes": t["GlobalSecondaryIndexes"],
            "facets": facets,
        })
    });
    Json::Array(tables.collect())
}

#[test]
fn an_example_exported_to_workbench_and_imported_exports_the_same_model() {
    for file in EXAMPLES {
        let model = workbench_model(&example(file), file);
        let schema = workbench::import(&model.to_string(), file).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_sound(file, &schema);
        let again = workbench_model(&schema, file);
        assert_eq!(structure(&again), structure(&model), "{file}: imported\n{schema}");
    }
}

/// A template's tables: name, key schema, indexes and Time to Live.
fn table_resources(template: &Json) -> Vec<Json> {
    let resources = template["Resources"].as_object().unwrap();
    resources
        .values()
        .map(|r| {
            let p = &r["Properties"];
            json!([
                p["TableName"],
                p["KeySchema"],
                p["GlobalSecondaryIndexes"],
                p["LocalSecondaryIndexes"],
                p["TimeToLiveSpecification"]
            ])
        })
        .collect()
}

#[test]
fn an_example_exported_to_cloudformation_and_imported_exports_the_same_tables() {
    for file in EXAMPLES {
        let analysis = analyze(&example(file));
        let template = export::cloudformation::template(&analysis, file);
        for (text, json) in [
            (export::cloudformation::yaml(&template), false),
            (serde_json::to_string_pretty(&template).unwrap(), true),
        ] {
            let schema = cloudformation::import(&text, file, json).unwrap_or_else(|e| panic!("{file}: {e}"));
            assert_sound(file, &schema);
            let again = export::cloudformation::template(&analyze(&schema), file);
            assert_eq!(
                table_resources(&again),
                table_resources(&template),
                "{file}: imported\n{schema}"
            );
        }
    }
}

#[test]
fn what_is_not_a_model_or_template_is_a_clear_error() {
    let cases = [
        (
            workbench::import("{", "m.json").unwrap_err().0,
            "m.json: not valid JSON",
        ),
        (
            workbench::import("{}", "m.json").unwrap_err().0,
            "m.json: no `DataModel` list",
        ),
        (
            workbench::import(r#"{"DataModel": [{"TableName": "T"}]}"#, "m.json")
                .unwrap_err()
                .0,
            "m.json: the model has no table that can be imported",
        ),
        (
            cloudformation::import("a: [", "t.yaml", false).unwrap_err().0,
            "t.yaml: not valid YAML",
        ),
        (
            cloudformation::import("{}", "t.json", true).unwrap_err().0,
            "t.json: no `Resources` mapping",
        ),
        (
            cloudformation::import("Resources: {B: {Type: AWS::S3::Bucket}}", "t.yaml", false)
                .unwrap_err()
                .0,
            "t.yaml: no AWS::DynamoDB::Table or AWS::DynamoDB::GlobalTable that can be imported",
        ),
    ];
    for (error, start) in cases {
        assert!(error.starts_with(start), "{error:?} should start with {start:?}");
    }
}

#[test]
fn the_command_prints_the_schema_and_exits_by_what_went_wrong() {
    let dyno = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_dyno"))
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("run dyno")
    };
    let path = "tests/fixtures/import/workbench/sensor-log.json";
    let output = dyno(&["import", "workbench", path]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap();
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        workbench::import(&text, path).unwrap()
    );
    let not_a_model = dyno(&[
        "import",
        "workbench",
        "tests/fixtures/import/cloudformation/events.json",
    ]);
    assert_eq!(not_a_model.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&not_a_model.stderr).contains("no `DataModel` list"));
    assert!(not_a_model.stdout.is_empty());
    let missing = dyno(&["import", "cloudformation", "no/such/template.yaml"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("does not exist"));
}

/// JSON pointers to every value of `json`, the root included.
fn pointers(json: &Json, at: String, out: &mut Vec<String>) {
    match json {
        Json::Object(map) => {
            for (key, value) in map {
                pointers(
                    value,
                    format!("{at}/{}", key.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        Json::Array(items) => {
            for (n, value) in items.iter().enumerate() {
                pointers(value, format!("{at}/{n}"), out);
            }
        }
        _ => {}
    }
    out.push(at);
}

/// Each value of `input` replaced, one at a time, by each of the values a
/// model or template might hold by mistake, run through `import` (a fuzz
/// target body: it panics on a finding).
fn mutate_each_value(input: &Json, import: impl Fn(&[u8])) {
    let odd = [
        json!(null),
        json!(""),
        json!(7),
        json!(-1.5),
        json!(true),
        json!([]),
        json!({}),
        json!("line\nbreak \"{quoted}\" \\"),
        json!("#"),
        json!({ "S": "x#1" }),
        json!({ "N": "01" }),
        json!({ "SS": ["a"] }),
        json!({ "Ref": "Stage" }),
        json!("2024-0é-31T1é:00:00Z"),
    ];
    let mut all = Vec::new();
    pointers(input, String::new(), &mut all);
    for pointer in all {
        for value in &odd {
            let mut mutated = input.clone();
            *mutated.pointer_mut(&pointer).unwrap() = value.clone();
            let text = mutated.to_string();
            if let Err(panic) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| import(text.as_bytes()))) {
                panic!("{pointer} = {value}: {panic:?}");
            }
        }
    }
}

#[test]
fn a_model_or_template_with_any_one_value_replaced_imports_soundly_or_is_refused() {
    for file in ["edge-cases.json", "community.json"] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/import/workbench")
            .join(file);
        let model: Json = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        mutate_each_value(&model, dyno::fuzz::import_workbench);
    }
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/import/cloudformation/events.json");
    let template: Json = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    // The fuzz body reads JSON after an even first byte.
    mutate_each_value(&template, |text| {
        dyno::fuzz::import_cloudformation(&[b"\0", text].concat())
    });
}
