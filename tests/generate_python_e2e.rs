//! The Python modules of every example, end to end against a DynamoDB
//! endpoint (docs/generate.md, "How it is tested"): the scenario of
//! tests/common/scenario.rs is run by tests/generate/python/driver.py —
//! tables created, every record written with the generated put, every
//! generated read called — and each read must return exactly the records
//! `dyno verify` expects. Needs `DYNO_TEST_ENDPOINT` and `DYNO_PYTHON` (a
//! Python with tests/generate/python/requirements.txt); ignored unless
//! asked for, then failing without them.
#![cfg(feature = "verify")]

mod common;

use std::path::Path;
use std::process::Command;

use common::scenario::{compare, scenario};
use common::scratch::Scratch;
use dyno::generate::{self, Target, api, names, python};
use serde_json::{Map, Value as Json, json};

#[test]
#[ignore = "needs DYNO_TEST_ENDPOINT and DYNO_PYTHON (README: Tests)"]
fn every_example_round_trips_through_the_generated_python() {
    let endpoint = std::env::var("DYNO_TEST_ENDPOINT").unwrap_or_default();
    assert!(!endpoint.is_empty(), "DYNO_TEST_ENDPOINT is not set (README: Tests)");
    let python = std::env::var("DYNO_PYTHON").unwrap_or_default();
    assert!(
        !python.is_empty(),
        "DYNO_PYTHON is not set: a Python with tests/generate/python/requirements.txt (README: Tests)"
    );
    let driver = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/generate/python/driver.py");
    let mut files = common::fixtures("examples");
    files.extend(common::fixtures("examples/real"));
    let mut failures = Vec::new();
    let mut compared = 0;
    for (n, path) in files.iter().enumerate() {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(path).unwrap();
        let analysis = dyno::check::analyze(&text);
        let prefix = format!("py{}_{n}_", std::process::id());
        let mut scenario = scenario(&analysis, &name, &prefix);
        let api = api::api(&name, &analysis.schema);
        annotate(&mut scenario, &api);
        let scratch = Scratch::new("generate-python-e2e");
        for file in generate::generate(Target::Python, &name, &analysis.schema) {
            scratch.file(&format!("modules/{}", file.name), &file.text);
        }
        let scenario_path = scratch.file("scenario.json", serde_json::to_vec(&scenario).unwrap());
        let output = Command::new(&python)
            .arg(&driver)
            .arg(&scenario_path)
            .arg(scratch.path().join("modules"))
            .env("DYNO_TEST_ENDPOINT", &endpoint)
            .output()
            .unwrap_or_else(|e| panic!("{python}: {e}"));
        assert!(
            output.status.success(),
            "{name}: the driver failed:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let result: Json = serde_json::from_slice(&output.stdout)
            .unwrap_or_else(|e| panic!("{name}: {e}: {}", String::from_utf8_lossy(&output.stdout)));
        let results = result["reads"].as_array().unwrap();
        let reads = scenario["reads"].as_array().unwrap();
        assert_eq!(results.len(), reads.len(), "{name}: every read ran");
        for (read, got) in reads.iter().zip(results) {
            assert_eq!(read["pattern"], got["pattern"]);
            if let Some(error) = got.get("error") {
                failures.push(format!("{name}: {}: {}", read["pattern"], error.as_str().unwrap_or("")));
                continue;
            }
            let returned = got["returned"].as_array().cloned().unwrap_or_default();
            if let Err(e) = compare(&analysis.schema.model, read, &returned) {
                failures.push(format!("{name}: {e}"));
            }
            compared += 1;
        }
    }
    println!("{compared} reads of {} examples compared", files.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(compared > 50, "{compared} reads compared");
}

/// What the driver needs beside the scenario: each put's and read's
/// module and function, the kind of each value, how each parameter is
/// spelt in Python.
fn annotate(scenario: &mut Json, api: &api::Api) {
    let module = |table: &str| names::snake(table);
    let entity_kinds = |table: &str, entity: &str| -> Json {
        let fields = api
            .tables
            .iter()
            .filter(|t| t.name == table)
            .flat_map(|t| &t.entities)
            .filter(|e| e.name == entity)
            .flat_map(|e| &e.fields);
        Json::Object(
            fields
                .map(|f| (f.name.clone(), json!(python::value_kind(&f.ty))))
                .collect(),
        )
    };
    for put in scenario["puts"].as_array_mut().unwrap() {
        let (table, entity) = (
            put["table"].as_str().unwrap().to_string(),
            put["entity"].as_str().unwrap().to_string(),
        );
        put["module"] = json!(module(&table));
        put["function"] = json!(python::put_function(&entity));
        put["kinds"] = entity_kinds(&table, &entity);
    }
    for read in scenario["reads"].as_array_mut().unwrap() {
        let table = read["table"].as_str().unwrap().to_string();
        let pattern = read["pattern"].as_str().unwrap().to_string();
        let found = api
            .tables
            .iter()
            .filter(|t| t.name == table)
            .flat_map(|t| &t.reads)
            .find(|r| r.name == pattern)
            .expect("the read is in the API");
        let mut kinds = Map::new();
        let mut arguments = Map::new();
        for param in &found.params {
            kinds.insert(param.name.clone(), json!(python::value_kind(&param.ty)));
            arguments.insert(param.name.clone(), json!(python::identifier(&param.name)));
        }
        read["module"] = json!(module(&table));
        read["function"] = json!(python::read_function(&pattern));
        read["batch"] = json!(found.operation == api::Operation::BatchGetItem);
        read["kinds"] = Json::Object(kinds);
        read["arguments"] = Json::Object(arguments);
        read["returns"] = json!(found.returns.iter().map(|r| r.entity.clone()).collect::<Vec<_>>());
    }
}
