//! Checker fixtures: each `.dyno` file beside the diagnostics `dyno check`
//! renders for it. The hazard fixtures each plant one mistake into a clean
//! schema, so each expected file shows exactly one diagnostic.

mod common;

use dyno::check::{analyze, describe};
use dyno::diagnostic::render;

#[test]
fn check_fixtures() {
    common::check_fixtures("tests/fixtures/check", |source| {
        let analysis = analyze(&source.text);
        let mut out = String::new();
        for diagnostic in analysis.diagnostics() {
            out.push_str(&render::text(source, diagnostic));
        }
        let proved = describe::proved(&analysis.schema).to_string();
        out.push_str(&render::summary(source, &proved, analysis.diagnostics()));
        out
    });
}
