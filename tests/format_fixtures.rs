//! The formatter on data: each `tests/fixtures/format/NAME.dyno` beside
//! `NAME.expected`, its formatted text (or why it was not formatted).
//! `UPDATE_EXPECT=1` rewrites the expected files; review the diff.

mod common;

use dyno::ide::format::format;

#[test]
fn format_fixtures() {
    common::check_fixtures("tests/fixtures/format", |source| match format(&source.text) {
        Ok(formatted) => {
            // Every expected output is itself formatted.
            let again = format(&formatted).expect("formatted text formats");
            assert_eq!(
                again,
                formatted,
                "{}: formatting is not idempotent",
                source.display_path()
            );
            formatted
        }
        Err(error) => format!("<not formatted: {error}>\n"),
    });
}
