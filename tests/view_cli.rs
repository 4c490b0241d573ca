//! `dyno view` as a user runs it: every bundled example becomes a page;
//! `--items` reads DynamoDB JSON and plain JSON as `dyno size` does; bad
//! input is an error, not a panic.

mod common;

use std::path::Path;

use common::cli::{dyno, path_str, stderr};
use common::scratch::Scratch;

fn examples() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<String> = ["examples", "examples/real"]
        .iter()
        .flat_map(|dir| std::fs::read_dir(root.join(dir)).unwrap())
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "dyno"))
        .map(|p| p.strip_prefix(root).unwrap().to_str().unwrap().to_string())
        .collect();
    files.sort();
    files
}

/// The ids of the rows the embedded data marks for pattern `name`, as
/// `(reads, returns)`.
fn marked(html: &str, name: &str) -> (usize, usize) {
    let start = html
        .find("<script type=\"application/json\" id=\"dyno-data\">")
        .unwrap();
    let rest = &html[start..];
    let json = &rest[rest.find('>').unwrap() + 1..rest.find("</script>").unwrap()];
    let data: serde_json::Value = serde_json::from_str(json).unwrap();
    let pattern = data["patterns"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .unwrap_or_else(|| panic!("no pattern {name}"));
    let count = |key: &str| pattern[key].as_array().unwrap().len();
    (count("reads"), count("returns"))
}

#[test]
fn every_example_becomes_a_page() {
    let scratch = Scratch::new("view-examples");
    let files = examples();
    assert!(files.len() >= 10, "{files:?}");
    for file in files {
        let out = scratch
            .path()
            .join(Path::new(&file).with_extension("html").file_name().unwrap());
        let output = dyno(&["view", &file, "--out", path_str(&out)]);
        assert_eq!(output.status.code(), Some(0), "{file}: {}", stderr(&output));
        let html = std::fs::read_to_string(&out).unwrap();
        assert!(html.starts_with("<!doctype html>"), "{file}");
        assert!(html.contains("<select id=\"pick\">"), "{file}");
        assert!(html.contains("<h2>Prefix registry</h2>"), "{file}");
        assert!(html.contains("class=\"grid\""), "{file}: no grid");
        // Self-contained: nothing fetched.
        assert!(!html.contains("src=\"http") && !html.contains("href=\"http"), "{file}");
    }
}

#[test]
fn items_in_dynamodb_json_and_plain_json_give_the_same_page() {
    let scratch = Scratch::new("view-items");
    let typed = scratch.file(
        "typed.json",
        r#"[{"pk": {"S": "TENANT#acme"}, "sk": {"S": "USER#u1"}, "gsi1pk": {"S": "ROLE#admin"}, "gsi1sk": {"S": "USER#u1"}, "tenantId": {"S": "acme"}, "userId": {"S": "u1"}},
            {"pk": {"S": "TENANT#acme"}, "sk": {"S": "META"}, "tenantId": {"S": "acme"}, "plan": {"S": "pro"}},
            {"pk": {"S": "TENANT#beta"}, "sk": {"S": "USER#u9"}, "tenantId": {"S": "beta"}, "userId": {"S": "u9"}}]"#,
    );
    let plain = scratch.file(
        "plain.json",
        r#"[{"pk": "TENANT#acme", "sk": "USER#u1", "gsi1pk": "ROLE#admin", "gsi1sk": "USER#u1", "tenantId": "acme", "userId": "u1"},
            {"pk": "TENANT#acme", "sk": "META", "tenantId": "acme", "plan": "pro"},
            {"pk": "TENANT#beta", "sk": "USER#u9", "tenantId": "beta", "userId": "u9"}]"#,
    );
    let mut pages = Vec::new();
    for items in [&typed, &plain] {
        let out = scratch.path().join("page.html");
        let output = dyno(&[
            "view",
            "examples/billing.dyno",
            "--items",
            path_str(items),
            "--out",
            path_str(&out),
        ]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let html = std::fs::read_to_string(&out).unwrap();
        assert!(html.contains("3 given items"), "the items are shown, not samples");
        assert!(
            html.contains("<span class=\"hole\" title=\"userId\">u9</span>"),
            "keys decoded"
        );
        // listUsers of one tenant: both collections hold a user, one is read.
        assert_eq!(marked(&html, "listUsers"), (1, 1));
        pages.push(html);
    }
    assert_eq!(pages[0], pages[1]);
}

#[test]
fn bad_input_is_a_clear_error() {
    let scratch = Scratch::new("view-bad");
    let out = scratch.path().join("page.html");
    let broken = scratch.file("broken.json", "[{\"pk\": ");
    let output = dyno(&[
        "view",
        "examples/billing.dyno",
        "--items",
        path_str(&broken),
        "--out",
        path_str(&out),
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("broken.json"), "{}", stderr(&output));
    let output = dyno(&[
        "view",
        "examples/billing.dyno",
        "--pattern",
        "nope",
        "--out",
        path_str(&out),
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("no pattern `nope`"), "{}", stderr(&output));
    let output = dyno(&["view", "missing.dyno", "--out", path_str(&out)]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("does not exist"), "{}", stderr(&output));
    let output = dyno(&["view", "examples/billing.dyno", "--out", path_str(scratch.path())]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("cannot be written"), "{}", stderr(&output));
    assert!(!out.exists());
}
