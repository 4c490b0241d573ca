//! `--format github`: GitHub Actions workflow commands, one line per
//! diagnostic, which a workflow run shows as annotations on the lines
//! (documented in docs/cli.md).

use super::render::{Sources, Unreadable};
use super::{Diagnostic, Severity};

/// `::error file=a.dyno,line=3,col=10,endLine=3,endColumn=12,title=E010::message`
/// (a warning is `::warning`, a hint `::notice`); nothing for a diagnostic
/// in a file that is not loaded.
pub fn annotation(sources: &(impl Sources + ?Sized), diagnostic: &Diagnostic) -> Option<String> {
    let source = sources.source(diagnostic.file)?;
    let (line, col) = source.line_column(diagnostic.span.start());
    let (end_line, end_col) = source.line_column(diagnostic.span.end());
    let command = match diagnostic.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Hint => "notice",
    };
    Some(format!(
        "::{command} file={},line={line},col={col},endLine={end_line},endColumn={end_col},title={}::{}\n",
        property(&source.display_path()),
        property(diagnostic.code.as_str()),
        data(&diagnostic.message)
    ))
}

/// `::error file=x.dyno::`x.dyno` does not exist`
pub fn unreadable(unreadable: &Unreadable) -> String {
    format!(
        "::error file={}::{}\n",
        property(&unreadable.path),
        data(&unreadable.message)
    )
}

/// A command's message: `%`, CR and LF escaped, as GitHub's toolkit does.
pub fn data(text: &str) -> String {
    text.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// A property value: also `:` and `,`, which end it.
pub fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_and_properties_are_escaped_as_github_does() {
        assert_eq!(data("100% sure\r\nnext: a,b"), "100%25 sure%0D%0Anext: a,b");
        assert_eq!(property("C:\\a,b%.dyno\n"), "C%3A\\a%2Cb%25.dyno%0A");
    }
}
