//! Properties of the formatter, on every schema the repository holds (the
//! bundled examples, the syntax, check and format fixtures, the grammar's
//! highlighting tests, the docs' ```dyno blocks) and on generated schemas:
//!
//! - formatting is idempotent: `format(format(x)) == format(x)`;
//! - it changes whitespace only: the token sequence, comment text included
//!   (less trailing whitespace), is the same;
//! - the formatted text parses to the same tree (the outline, less offsets);
//! - the output is tidy: no trailing whitespace, no two blank lines in a
//!   row, one kind of line ending, exactly one newline at the end;
//! - it is canonical: respacing a file (keeping which comments trail code
//!   and where blank lines are) does not change its formatted text;
//! - the bundled examples are already formatted.

mod common;

use std::path::Path;

use dyno::diagnostic::Severity;
use dyno::ide::format::{FormatError, format};
use dyno::syntax::lexer::{Token, lex};
use dyno::syntax::{outline::outline, parse};
use proptest::prelude::*;

/// Every schema in the repository, by name.
fn corpus() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for dir in [
        "examples",
        "tests/fixtures/syntax",
        "tests/fixtures/check",
        "tests/fixtures/format",
        "grammar/tests",
    ] {
        if !root.join(dir).is_dir() {
            continue;
        }
        for path in common::fixtures(dir) {
            let text = std::fs::read_to_string(&path).unwrap();
            out.push((path.strip_prefix(root).unwrap().display().to_string(), text));
        }
    }
    for doc in ["docs/language.md", "docs/cli.md", "README.md"] {
        let Ok(markdown) = std::fs::read_to_string(root.join(doc)) else {
            continue;
        };
        for block in common::markdown::blocks(&markdown) {
            if block.info.starts_with("dyno") {
                out.push((format!("{doc}:{}", block.line), block.code));
            }
        }
    }
    out
}

/// The schemas of the corpus without syntax errors, read once.
fn clean_corpus() -> &'static [(String, String)] {
    static CLEAN: std::sync::OnceLock<Vec<(String, String)>> = std::sync::OnceLock::new();
    CLEAN.get_or_init(|| corpus().into_iter().filter(|(_, t)| !has_syntax_errors(t)).collect())
}

fn has_syntax_errors(text: &str) -> bool {
    parse(text).diagnostics.iter().any(|d| d.severity == Severity::Error)
}

/// The tokens as the formatter must keep them.
fn tokens(text: &str) -> Vec<Token<'_>> {
    lex(text)
        .0
        .into_iter()
        .map(|(token, _)| match token {
            Token::Comment(c) => Token::Comment(c.trim_end()),
            Token::DocComment(c) => Token::DocComment(c.trim_end()),
            other => other,
        })
        .collect()
}

/// The outline without byte offsets (`@12..40`, `"USER#"@57`), which
/// formatting moves.
fn outline_without_offsets(text: &str) -> String {
    let outline = outline(&parse(text).file);
    let mut out = String::with_capacity(outline.len());
    let mut chars = outline.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '@' && chars.peek().is_some_and(char::is_ascii_digit) {
            while chars.peek().is_some_and(|&c| c.is_ascii_digit() || c == '.') {
                chars.next();
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Checks every property on one input; returns the formatted text, or
/// `None` for a file with syntax errors (which must be refused).
fn check(name: &str, text: &str) -> Option<String> {
    if has_syntax_errors(text) {
        assert!(
            matches!(format(text), Err(FormatError::SyntaxErrors(_))),
            "{name}: a file with syntax errors was formatted"
        );
        return None;
    }
    let formatted = format(text).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
    let again = format(&formatted).unwrap_or_else(|e| panic!("{name}: formatted text: {e}\n{formatted}"));
    assert_eq!(again, formatted, "{name}: not idempotent; input:\n{text}");
    assert_eq!(
        tokens(&formatted),
        tokens(text),
        "{name}: tokens changed; formatted:\n{formatted}"
    );
    assert_eq!(
        outline_without_offsets(&formatted),
        outline_without_offsets(text),
        "{name}: the tree changed; formatted:\n{formatted}"
    );

    if formatted.is_empty() {
        assert!(text.trim().is_empty(), "{name}: text vanished");
        return Some(formatted);
    }
    let crlf = formatted.contains("\r\n");
    let body = if crlf {
        assert!(
            !formatted.replace("\r\n", "").contains(['\r', '\n']),
            "{name}: mixed line endings"
        );
        formatted.replace("\r\n", "\n")
    } else {
        assert!(!formatted.contains('\r'), "{name}: stray \\r");
        formatted.clone()
    };
    assert!(
        body.ends_with('\n') && !body.ends_with("\n\n"),
        "{name}: must end with exactly one newline"
    );
    assert!(!body.starts_with('\n'), "{name}: leading blank line");
    assert!(!body.contains("\n\n\n"), "{name}: two blank lines in a row");
    for line in body.lines() {
        assert_eq!(line.trim_end(), line, "{name}: trailing whitespace in {line:?}");
        assert!(!line.starts_with('\t'), "{name}: tab indentation in {line:?}");
    }
    Some(formatted)
}

#[test]
fn every_schema_in_the_repository_formats_soundly() {
    let mut formatted = 0;
    for (name, text) in corpus() {
        formatted += usize::from(check(&name, &text).is_some());
    }
    assert!(formatted >= 20, "only {formatted} schemas were formatted");
}

#[test]
fn bundled_examples_are_formatted() {
    for path in common::fixtures("examples") {
        let text = std::fs::read_to_string(&path).unwrap();
        let formatted = format(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            formatted == text,
            "{} is not formatted; run `dyno fmt {}`",
            path.display(),
            path.display()
        );
    }
}

// ---------- respacing: the output depends on the tokens, not the spacing ----------

/// A pseudo-random choice stream: proptest shrinks it towards zeros, that is
/// towards the first alternative of every choice.
struct Choices<'a> {
    stream: &'a [u32],
    at: usize,
}

impl Choices<'_> {
    fn pick(&mut self, n: usize) -> usize {
        let c = self.stream.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        c as usize % n
    }

    fn one<'s>(&mut self, options: &[&'s str]) -> &'s str {
        options[self.pick(options.len())]
    }

    /// Zeros (an exhausted or shrunk stream) say no.
    fn chance(&mut self, percent: usize) -> bool {
        self.pick(100) >= 100 - percent
    }
}

fn line_breaks(whitespace: &str) -> usize {
    let bytes = whitespace.as_bytes();
    (0..bytes.len())
        .filter(|&i| bytes[i] == b'\n' || (bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n')))
        .count()
}

fn horizontal(choices: &mut Choices<'_>) -> String {
    (0..1 + choices.pick(3))
        .map(|_| choices.one(&[" ", " ", "\t", "\x0c"]))
        .collect()
}

fn breaks(choices: &mut Choices<'_>, n: usize) -> String {
    let mut out = String::new();
    for _ in 0..n {
        if choices.chance(50) {
            out.push_str(&horizontal(choices));
        }
        out.push_str(choices.one(&["\n", "\r\n"]));
    }
    if choices.chance(50) {
        out.push_str(&horizontal(choices));
    }
    out
}

/// `text` with every run of whitespace replaced by another that keeps what
/// the formatter may look at: whether a comment follows code on its line,
/// and whether a blank line separates two tokens.
fn respace(text: &str, choices: &mut Choices<'_>) -> String {
    let (tokens, _) = lex(text);
    let mut out = String::new();
    let mut previous: Option<Token<'_>> = None;
    let mut previous_end = 0;
    for (token, span) in tokens {
        let gap = &text[previous_end..span.start()];
        let n = line_breaks(gap);
        let after_comment = previous.is_some_and(Token::is_trivia);
        let respaced = if previous.is_none() {
            // The start of the file.
            let k = choices.pick(3);
            breaks(choices, k)
        } else if n >= 2 {
            let k = 2 + choices.pick(3);
            breaks(choices, k)
        } else if gap.is_empty() && choices.chance(50) {
            String::new()
        } else if token.is_trivia() || after_comment {
            // Trailing stays trailing; own-line stays own-line.
            if n == 0 {
                horizontal(choices)
            } else {
                breaks(choices, 1)
            }
        } else if choices.chance(50) {
            horizontal(choices)
        } else {
            breaks(choices, 1)
        };
        out.push_str(&respaced);
        out.push_str(&text[span.range()]);
        previous = Some(token);
        previous_end = span.end();
    }
    if choices.chance(50) {
        let k = choices.pick(4);
        out.push_str(&breaks(choices, k));
    }
    out
}

fn unix(text: &str) -> String {
    text.replace("\r\n", "\n")
}

// ---------- generated schemas ----------

const NAMES: &[&str] = &[
    "a", "pk", "sk", "userId", "gsi1pk", "x_1", "é", "名前", "_t", "item", "key", "status",
];
const ENTITIES: &[&str] = &["User", "Order", "T", "Ñame", "E2"];
const STRINGS: &[&str] = &[
    r#""USER#{userId}""#,
    r#""A""#,
    r##""#""##,
    r#""x\"y""#,
    r#""\{lit\}""#,
    r#""ü🎉#{é}""#,
    r#""""#,
    r#""a b  c""#,
];
const SIZES: &[&str] = &["2KB", "300B", "1MB", "1500", "1.5KB", "20"];
const COMMENTS: &[&str] = &[
    "// c",
    "//",
    "/// doc",
    "// trailing   ",
    "////",
    "// ünï 🎉",
    "//x",
    "///",
];

struct Schema<'a> {
    choices: Choices<'a>,
    tokens: Vec<&'static str>,
}

impl Schema<'_> {
    fn t(&mut self, token: &'static str) {
        self.tokens.push(token);
    }

    fn from(&mut self, options: &[&'static str]) {
        let token = options[self.choices.pick(options.len())];
        self.tokens.push(token);
    }

    fn maybe(&mut self, percent: usize) -> bool {
        self.choices.chance(percent)
    }

    fn up_to(&mut self, n: usize) -> usize {
        self.choices.pick(n + 1)
    }

    fn key_attr(&mut self) {
        self.from(NAMES);
        if self.maybe(30) {
            self.t(":");
            self.from(&["string", "number", "binary"]);
        }
    }

    fn key_pair(&mut self) {
        self.key_attr();
        if self.maybe(60) {
            self.t(",");
            self.key_attr();
        }
    }

    fn list(&mut self, max: usize, element: impl Fn(&mut Self)) {
        let n = self.up_to(max);
        for i in 0..n {
            if i > 0 {
                self.t(",");
            }
            element(self);
        }
        if n > 0 && self.maybe(10) {
            self.t(",");
        }
    }

    fn table(&mut self) {
        self.t("table");
        self.from(ENTITIES);
        self.t("{");
        for _ in 0..self.up_to(4) {
            match self.choices.pick(3) {
                0 => {
                    self.t("key");
                    self.key_pair();
                }
                1 => {
                    if self.maybe(30) {
                        self.t("local");
                    }
                    self.t("index");
                    self.from(NAMES);
                    self.t("(");
                    self.key_pair();
                    self.t(")");
                    match self.choices.pick(4) {
                        0 => {}
                        1 => self.t("all"),
                        2 => self.t("keys_only"),
                        _ => {
                            self.t("include");
                            self.t("(");
                            self.list(3, |s| s.from(NAMES));
                            self.t(")");
                        }
                    }
                }
                _ => {
                    self.t("delimiter");
                    self.from(STRINGS);
                }
            }
        }
        self.t("}");
    }

    fn key_template(&mut self) {
        self.from(NAMES);
        self.t("=");
        self.from(STRINGS);
    }

    fn entity(&mut self) {
        self.t("entity");
        self.from(ENTITIES);
        if self.maybe(30) {
            self.t("in");
            self.from(ENTITIES);
        }
        if self.maybe(30) {
            self.t("~");
            self.from(SIZES);
        }
        self.t("{");
        for _ in 0..self.up_to(6) {
            match self.choices.pick(3) {
                0 => {
                    self.from(NAMES);
                    self.t(":");
                    self.from(&["id", "string", "int", "enum", "datetime"]);
                    if self.maybe(40) {
                        self.t("(");
                        self.list(3, |s| match s.choices.pick(4) {
                            0 => {
                                s.t("pad");
                                s.from(&["3", "6"]);
                            }
                            1 => {
                                s.t("~");
                                s.from(SIZES);
                            }
                            2 => s.from(NAMES),
                            _ => s.from(STRINGS),
                        });
                        self.t(")");
                    }
                    if self.maybe(30) {
                        self.t("?");
                    }
                }
                1 => self.key_template(),
                _ => {
                    self.t("item");
                    self.t("{");
                    for _ in 0..self.up_to(4) {
                        self.key_template();
                    }
                    self.t("}");
                }
            }
        }
        self.t("}");
    }

    fn operand(&mut self) {
        match self.choices.pick(3) {
            0 => self.from(STRINGS),
            1 => self.from(&["5", "2.5"]),
            _ => self.from(NAMES),
        }
    }

    fn pattern(&mut self) {
        self.t("pattern");
        self.from(NAMES);
        self.t("(");
        self.list(4, |s| {
            s.from(NAMES);
            match s.choices.pick(5) {
                0 => {}
                1 => {
                    s.t("=");
                    s.from(&[r#""open""#, "5", "true", "false", "open"]);
                }
                2 => {
                    s.from(&["<", "<=", ">", ">="]);
                    s.from(NAMES);
                }
                3 => {
                    s.t("between");
                    s.from(NAMES);
                    s.t("and");
                    s.from(NAMES);
                }
                _ => {
                    s.t("begins_with");
                    s.from(NAMES);
                }
            }
        });
        self.t(")");
        self.t("->");
        for i in 0..1 + self.up_to(2) {
            if i > 0 {
                self.t(",");
            }
            self.from(ENTITIES);
            if self.maybe(50) {
                self.t("[");
                self.t("]");
            }
            if self.maybe(30) {
                self.t("~");
                self.from(SIZES);
            }
        }
        for _ in 0..self.up_to(3) {
            match self.choices.pick(3) {
                0 => {
                    self.t("by");
                    self.from(NAMES);
                    match self.choices.pick(3) {
                        0 => {}
                        1 => self.t("asc"),
                        _ => self.t("desc"),
                    }
                }
                1 => self.t("consistent"),
                _ => {
                    self.t("limit");
                    self.from(&["5", "25"]);
                }
            }
        }
        if self.maybe(50) {
            self.t("=");
            self.t("query");
            self.from(ENTITIES);
            if self.maybe(50) {
                self.t(".");
                self.from(NAMES);
            }
            self.t("where");
            for i in 0..1 + self.up_to(2) {
                if i > 0 {
                    self.t("and");
                }
                match self.choices.pick(3) {
                    0 => {
                        self.from(NAMES);
                        self.from(&["=", "<", "<=", ">", ">="]);
                        self.operand();
                    }
                    1 => {
                        self.from(NAMES);
                        self.t("between");
                        self.operand();
                        self.t("and");
                        self.operand();
                    }
                    _ => {
                        self.t("begins_with");
                        self.t("(");
                        self.from(NAMES);
                        self.t(",");
                        self.operand();
                        self.t(")");
                    }
                }
            }
        }
    }

    /// The tokens joined by random whitespace, with comments here and there.
    fn text(mut self) -> String {
        for _ in 0..self.up_to(6) {
            match self.choices.pick(3) {
                0 => self.table(),
                1 => self.entity(),
                _ => self.pattern(),
            }
        }
        let mut out = String::new();
        for token in std::mem::take(&mut self.tokens) {
            let c = &mut self.choices;
            if c.chance(8) {
                out.push_str(c.one(&[" ", "\n", "\n\n"]));
                out.push_str(c.one(COMMENTS));
                out.push_str(c.one(&["\n", "\r\n", "\n\n"]));
            }
            out.push_str(c.one(&[
                " ",
                " ",
                " ",
                "  ",
                "\t",
                "\n",
                "\n  ",
                "\n\n",
                "\n\n\n",
                "\r\n",
                " \r\n\r\n ",
            ]));
            out.push_str(token);
        }
        out.push('\n');
        out
    }
}

fn generate(stream: &[u32]) -> String {
    Schema {
        choices: Choices { stream, at: 0 },
        tokens: Vec::new(),
    }
    .text()
}

/// 256 cases, or `PROPTEST_CASES` for a longer run.
fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok());
    ProptestConfig::with_cases(cases.unwrap_or(256))
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn generated_schemas_format_soundly(stream in prop::collection::vec(any::<u32>(), 0..600)) {
        let text = generate(&stream);
        prop_assert!(
            !has_syntax_errors(&text),
            "the generator wrote a syntax error: {:?}\n{text}",
            parse(&text).diagnostics.first().map(|d| &d.message)
        );
        check("generated", &text);
    }

    #[test]
    fn respacing_a_schema_does_not_change_its_formatted_text(
        which in any::<prop::sample::Index>(),
        stream in prop::collection::vec(any::<u32>(), 0..2000),
    ) {
        let corpus = clean_corpus();
        let (name, text) = &corpus[which.index(corpus.len())];
        let respaced = respace(text, &mut Choices { stream: &stream, at: 0 });
        let expected = unix(&format(text).unwrap());
        let got = check(name, &respaced).expect("respacing keeps the syntax valid");
        prop_assert_eq!(unix(&got), expected, "{}: respaced input:\n{}", name, respaced);
    }

    #[test]
    fn respacing_a_generated_schema_does_not_change_its_formatted_text(
        schema in prop::collection::vec(any::<u32>(), 0..600),
        stream in prop::collection::vec(any::<u32>(), 0..2000),
    ) {
        let text = generate(&schema);
        let respaced = respace(&text, &mut Choices { stream: &stream, at: 0 });
        prop_assert_eq!(unix(&format(&respaced).unwrap()), unix(&format(&text).unwrap()));
    }
}
