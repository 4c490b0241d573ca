//! Every syntax error path and its recovery: the expected file holds the
//! rendered diagnostics and the outline of the tree that survived, so a
//! fixture shows both the error and the items kept after it.

mod common;

use dyno::diagnostic::render;
use dyno::syntax::{outline::outline, parse};

#[test]
fn syntax_fixtures() {
    common::check_fixtures("tests/fixtures/syntax", |source| {
        let parse = parse(&source.text);
        let mut out = String::from("--- diagnostics\n");
        for diagnostic in &parse.diagnostics {
            out.push_str(&render::text(source, diagnostic));
        }
        out.push_str("--- outline\n");
        out.push_str(&outline(&parse.file));
        out
    });
}
