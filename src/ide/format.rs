//! The formatter behind `dyno fmt` and the editor's "Format Document".
//!
//! It never adds, drops or reorders a token: the output is the file's tokens,
//! comments included, in their order, and only the whitespace between them
//! is rewritten. The lexer's token stream (with comments) says what is
//! printed; the syntax tree says where lines start. As a last guard the
//! output is lexed again and compared with the input, token for token, and
//! a mismatch is an error rather than a rewrite. A file with syntax errors
//! is not formatted at all ("fix the syntax errors first"): its tree does
//! not say reliably where members begin.
//!
//! # The canonical style
//!
//! The output depends only on the tokens, on which comments are trailing
//! (written after code on the same line) and on where the author left blank
//! lines, never on the rest of the spacing, so formatting is idempotent.
//!
//! - Two spaces of indentation per `{}` level; one member per line; `}` on
//!   its own line, at the indentation of the line that opened it. An empty
//!   body is written `{}`.
//! - Top-level items (`table`, `entity`, `pattern`) are separated by exactly
//!   one blank line (a comment on the line after an item is set off by one
//!   too: it belongs to what follows). Elsewhere a blank line the author left between members
//!   or comments is kept (several become one); none is kept right after `{`,
//!   right before `}`, inside a member or a pattern, or at the start of the
//!   file.
//! - Inside a line: one space between tokens, except none before `,` `:` `?`
//!   `.` `)` `]` `[` `(` `%` and none after `(` `[` `.` `~`. So `key pk, sk`,
//!   `name: type`, `enum(a, b)`, `string(~500)?`, `User[] ~20`, `Shop.gsi1`,
//!   `begins_with(sk, "A#")`, `pk = "..."`, `at >= since`, `-> A, B[]`,
//!   `~20%`. Exceptions: the key list of an index is set off by a space,
//!   `index gsi1 (gsi1pk, gsi1sk) keys_only` (but `include(a, b)`), and so
//!   is a parenthesis after `in`, `not`, `where`, `and` or `or` in a filter:
//!   `status in ("A", "B")`, `not (a = 1)`.
//! - Key templates on consecutive lines (no blank line or other member in
//!   between) are aligned on `=`: `pk     = "..."` above `gsi1pk = "..."`.
//! - An `item { ... }` shape with at most two key templates and no comment
//!   inside is written on one line when that fits in 100 columns, the
//!   templates separated by two spaces: `item { pk = "A#{a}"  sk = "B" }`.
//!   Otherwise it is expanded, one aligned key template per line.
//! - A pattern is written on one line when it fits in 100 columns. When it
//!   does not and it has a pinned query, the query goes on the next line,
//!   indented two spaces, after the `=` that ends the first line; when the
//!   query line is still too long, each `and` joining two key conditions
//!   starts a line indented four spaces. Nothing else is ever broken: a
//!   longer line stays long.
//! - Comments stay where they were relative to the tokens. A comment written
//!   after code stays trailing: trailing comments on consecutive lines of
//!   the same indentation are aligned one space after the longest code, and
//!   on an indented line never before column 36 (the examples' comment
//!   column, so `key pk, sk` and `number: int(pad 6)` comments line up). A
//!   comment on its own line stays on its own line, indented like the line
//!   that follows it (like the members when it precedes a `}`). Trailing
//!   whitespace is removed from comments; their text is otherwise kept.
//! - Code that a comment interrupts (a comment in the middle of a member or
//!   a pattern) continues on the next line, indented one level deeper.
//! - Strings, numbers and names are copied byte for byte, never re-escaped.
//! - Widths count characters (Unicode scalar values).
//! - Line endings: `\r\n` when most line breaks of the input are `\r\n`,
//!   `\n` otherwise; every line ends with one, including the last. A file
//!   with no tokens at all formats to the empty text.

use std::fmt;

use crate::diagnostic::{Diagnostic, Severity};
use crate::syntax::ast::{Entity, Item, ItemShape, KeyTemplate, Pattern, SourceFile, Table};
use crate::syntax::lexer::{Token, lex};
use crate::syntax::{Span, parse};

/// The widest line the formatter aims for, in characters.
pub const MAX_WIDTH: usize = 100;
/// Trailing comments on indented lines start at this (zero-based) column at
/// the earliest.
pub const COMMENT_COLUMN: usize = 35;
/// Spaces per indentation level.
const INDENT: usize = 2;

/// Why a file was not formatted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormatError {
    /// The file has syntax errors (these); formatting it could lose text.
    SyntaxErrors(Vec<Diagnostic>),
    /// The formatter would have changed a token. A bug; nothing is written.
    Internal(String),
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::SyntaxErrors(errors) => {
                let s = if errors.len() == 1 { "" } else { "s" };
                write!(f, "fix the syntax errors first ({} error{s})", errors.len())
            }
            FormatError::Internal(message) => write!(f, "internal formatter error, nothing changed: {message}"),
        }
    }
}

impl std::error::Error for FormatError {}

/// The canonical form of `text` (see the module documentation), or why it
/// cannot be formatted.
pub fn format(text: &str) -> Result<String, FormatError> {
    let parse = parse(text);
    let errors: Vec<Diagnostic> = parse
        .diagnostics
        .into_iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    if !errors.is_empty() {
        return Err(FormatError::SyntaxErrors(errors));
    }
    let (tokens, _) = lex(text);
    let significant: Vec<(Token<'_>, Span)> = tokens.iter().copied().filter(|(t, _)| !t.is_trivia()).collect();
    if significant
        .iter()
        .any(|(t, _)| matches!(t, Token::Error(_) | Token::UnterminatedStr(_)))
    {
        return Err(FormatError::Internal("a lexical error without a diagnostic".into()));
    }
    let plan = Plan::new(text, &tokens, &significant, &parse.file);
    let lines = layout(text, &tokens, &plan);
    let newline = if uses_crlf(text) { "\r\n" } else { "\n" };
    let out = render(&lines, newline);
    verify(&tokens, &out)?;
    Ok(out)
}

/// Where a significant token goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    /// Starts a line indented `depth` levels. `blank`: whether a blank line
    /// the author left above it is kept. Comments on their own lines just
    /// above it are indented `comment_depth` levels.
    Line {
        depth: usize,
        blank: bool,
        comment_depth: usize,
    },
    /// Continues the current line after `space` spaces.
    Inline { space: usize },
}

fn line(depth: usize) -> Place {
    Place::Line {
        depth,
        blank: true,
        comment_depth: depth,
    }
}

/// The spaces between two tokens on one line (see the module docs).
fn gap(before_previous: Option<Token<'_>>, previous: Token<'_>, token: Token<'_>) -> usize {
    let tight_before = matches!(
        token,
        Token::Comma
            | Token::Colon
            | Token::Question
            | Token::Dot
            | Token::RParen
            | Token::RBracket
            | Token::LBracket
            | Token::LParen
            | Token::Percent
            | Token::Slash
    );
    let tight_after = matches!(
        previous,
        Token::LParen | Token::LBracket | Token::Dot | Token::Tilde | Token::Slash
    );
    // A filter's `in (...)`, `not (...)` and a group after `where`, `and`
    // or `or` are words followed by a parenthesis, not calls (unless the
    // word names a pattern: `pattern in(x)`).
    let word_then_group = token == Token::LParen
        && matches!(previous, Token::Ident("in" | "not" | "where" | "and" | "or"))
        && before_previous != Some(Token::Pattern);
    if word_then_group {
        1
    } else if tight_before || tight_after {
        0
    } else {
        1
    }
}

/// The place of every significant token, decided from the syntax tree.
struct Plan<'a, 'src> {
    text: &'src str,
    tokens: &'a [(Token<'src>, Span)],
    significant: &'a [(Token<'src>, Span)],
    places: Vec<Place>,
    /// The last token of a top-level item.
    item_ends: Vec<bool>,
}

impl<'a, 'src> Plan<'a, 'src> {
    fn new(
        text: &'src str,
        tokens: &'a [(Token<'src>, Span)],
        significant: &'a [(Token<'src>, Span)],
        file: &SourceFile,
    ) -> Self {
        let places = (0..significant.len())
            .map(|i| Place::Inline {
                space: i.checked_sub(1).map_or(0, |p| {
                    let before = p.checked_sub(1).map(|b| significant[b].0);
                    gap(before, significant[p].0, significant[i].0)
                }),
            })
            .collect();
        let mut plan = Plan {
            text,
            tokens,
            significant,
            places,
            item_ends: vec![false; significant.len()],
        };
        for item in &file.items {
            let span = item.span();
            let (first, last) = (plan.at(span.start()), plan.ending_at(span.end()));
            if first >= plan.places.len() || last >= plan.places.len() {
                continue;
            }
            plan.places[first] = line(0);
            plan.item_ends[last] = true;
            match item {
                Item::Table(table) => plan.table(table, first, last),
                Item::Entity(entity) => plan.entity(entity, first, last),
                Item::Pattern(pattern) => plan.pattern(pattern, first, last),
            }
        }
        plan
    }

    /// The significant token starting at `offset` (or the next one).
    fn at(&self, offset: usize) -> usize {
        self.significant.partition_point(|(_, s)| s.start() < offset)
    }

    /// The significant token ending at `offset` (or the next one).
    fn ending_at(&self, offset: usize) -> usize {
        self.significant.partition_point(|(_, s)| s.end() < offset)
    }

    fn set(&mut self, index: usize, place: Place) {
        if let Some(slot) = self.places.get_mut(index) {
            *slot = place;
        }
    }

    /// The first `{` in `from..=to`.
    fn open_brace(&self, from: usize, to: usize) -> Option<usize> {
        (from..=to).find(|&i| self.significant.get(i).is_some_and(|(t, _)| *t == Token::LBrace))
    }

    /// Whether a comment lies between the significant tokens `from` and `to`.
    fn has_comment_between(&self, from: usize, to: usize) -> bool {
        let (start, end) = (self.significant[from].1.end(), self.significant[to].1.start());
        let first = self.tokens.partition_point(|(_, s)| s.start() < start);
        self.tokens[first..]
            .iter()
            .take_while(|(_, s)| s.start() < end)
            .any(|(t, _)| t.is_trivia())
    }

    /// Whether the author left a blank line anywhere between two offsets.
    fn blank_between(&self, start: usize, end: usize) -> bool {
        let first = self.tokens.partition_point(|(_, s)| s.start() < start);
        let mut previous_end = start;
        for (_, span) in self.tokens[first..].iter().take_while(|(_, s)| s.start() <= end) {
            if line_breaks(&self.text[previous_end..span.start()]) >= 2 {
                return true;
            }
            previous_end = span.end();
        }
        false
    }

    /// The `}` closing the body opened at `open`: on its own line at
    /// `depth`, or right after the `{` when the body is empty.
    fn close_body(&mut self, open: usize, close: usize, depth: usize) {
        let empty = close == open + 1 && !self.has_comment_between(open, close);
        let place = if empty {
            Place::Inline { space: 0 }
        } else {
            Place::Line {
                depth,
                blank: false,
                comment_depth: depth + 1,
            }
        };
        self.set(close, place);
    }

    /// The width of significant tokens `from..=to` laid out on one line.
    fn flat_width(&self, from: usize, to: usize) -> usize {
        (from..=to)
            .map(|i| {
                let space = match self.places[i] {
                    Place::Inline { space } if i > from => space,
                    _ => usize::from(i > from),
                };
                space + width(&self.text[self.significant[i].1.range()])
            })
            .sum()
    }

    fn table(&mut self, table: &Table, first: usize, last: usize) {
        let Some(open) = self.open_brace(first, last) else {
            return;
        };
        let starts = table
            .keys
            .iter()
            .map(|k| k.span.start())
            .chain(table.indexes.iter().map(|i| i.span.start()))
            .chain(table.delimiters.iter().map(|d| d.span.start()))
            .chain(table.ttls.iter().map(|t| t.span.start()));
        for start in starts {
            let index = self.at(start);
            self.set(index, line(1));
        }
        for index in &table.indexes {
            // `index gsi1 (gsi1pk, gsi1sk)`: the key list is set off.
            let paren = self.at(index.name.span.start()) + 1;
            if self.significant.get(paren).is_some_and(|(t, _)| *t == Token::LParen) {
                self.set(paren, Place::Inline { space: 1 });
            }
        }
        // A key list `[tenantId, region]` is set off like a name, except
        // right after the index's `(`.
        let key_parts = table
            .keys
            .iter()
            .flat_map(|k| std::iter::once(&k.partition).chain(&k.sort));
        let index_parts = table
            .indexes
            .iter()
            .flat_map(|i| std::iter::once(&i.partition).chain(&i.sort));
        for list in key_parts.chain(index_parts).filter_map(|part| part.list) {
            let bracket = self.at(list.start());
            let after_paren = bracket
                .checked_sub(1)
                .and_then(|i| self.significant.get(i))
                .is_some_and(|(t, _)| *t == Token::LParen);
            if !after_paren {
                self.set(bracket, Place::Inline { space: 1 });
            }
        }
        self.close_body(open, last, 0);
    }

    fn entity(&mut self, entity: &Entity, first: usize, last: usize) {
        let Some(open) = self.open_brace(first, last) else {
            return;
        };
        enum Member<'e> {
            Other(Span),
            Key(&'e KeyTemplate),
            Shape(&'e ItemShape),
        }
        let mut members: Vec<Member<'_>> = entity.attributes.iter().map(|a| Member::Other(a.span)).collect();
        members.extend(entity.keys.iter().map(Member::Key));
        members.extend(entity.items.iter().map(Member::Shape));
        let span = |m: &Member<'_>| match m {
            Member::Other(span) => *span,
            Member::Key(k) => k.span,
            Member::Shape(s) => s.span,
        };
        members.sort_by_key(|m| span(m).start());
        for member in &members {
            let index = self.at(span(member).start());
            self.set(index, line(1));
        }
        // Runs of key templates on consecutive lines are aligned together.
        let mut run: Vec<&KeyTemplate> = Vec::new();
        let mut previous_end = None;
        for member in &members {
            match member {
                Member::Key(key) => {
                    if previous_end.is_some_and(|end| self.blank_between(end, key.span.start())) {
                        self.align(&std::mem::take(&mut run));
                    }
                    run.push(key);
                }
                _ => self.align(&std::mem::take(&mut run)),
            }
            previous_end = Some(span(member).end());
        }
        self.align(&run);
        for shape in &entity.items {
            self.shape(shape);
        }
        self.close_body(open, last, 0);
    }

    /// `item { pk = "..."  sk = "..." }`, on one line or expanded.
    fn shape(&mut self, shape: &ItemShape) {
        let first = self.at(shape.span.start());
        let (open, close) = (first + 1, self.ending_at(shape.span.end()));
        if close >= self.places.len() || open >= close {
            return;
        }
        if shape.keys.len() <= 2 && !self.has_comment_between(first, close) {
            for (n, key) in shape.keys.iter().enumerate() {
                let index = self.at(key.span.start());
                self.set(
                    index,
                    Place::Inline {
                        space: if n == 0 { 1 } else { 2 },
                    },
                );
            }
            let space = usize::from(!shape.keys.is_empty());
            self.set(close, Place::Inline { space });
            if INDENT + self.flat_width(first, close) <= MAX_WIDTH {
                return;
            }
        }
        for key in &shape.keys {
            let index = self.at(key.span.start());
            self.set(index, line(2));
        }
        let mut run: Vec<&KeyTemplate> = Vec::new();
        for key in &shape.keys {
            if let Some(previous) = run.last()
                && self.blank_between(previous.span.end(), key.span.start())
            {
                self.align(&std::mem::take(&mut run));
            }
            run.push(key);
        }
        self.align(&run);
        self.close_body(open, close, 1);
    }

    /// Pads the key names of a run of key templates so their `=` line up.
    fn align(&mut self, run: &[&KeyTemplate]) {
        // The name as written: a quoted name is as wide as its token.
        let written = |key: &KeyTemplate| width(self.text.get(key.key.span.range()).unwrap_or(&key.key.text));
        let widest = run.iter().map(|k| written(k)).max().unwrap_or(0);
        for key in run {
            let eq = self.at(key.key.span.start()) + 1;
            if self.significant.get(eq).is_some_and(|(t, _)| *t == Token::Eq) {
                self.set(
                    eq,
                    Place::Inline {
                        space: 1 + widest - written(key),
                    },
                );
            }
        }
    }

    fn pattern(&mut self, pattern: &Pattern, first: usize, last: usize) {
        let Some(query) = &pattern.query else { return };
        if self.flat_width(first, last) <= MAX_WIDTH {
            return;
        }
        let start = self.at(query.span.start());
        self.set(
            start,
            Place::Line {
                depth: 1,
                blank: false,
                comment_depth: 1,
            },
        );
        if INDENT + self.flat_width(start, last) <= MAX_WIDTH {
            return;
        }
        for pair in query.conditions.windows(2) {
            let and = self.ending_at(pair[0].span.end()) + 1;
            if and < self.at(pair[1].span.start()) {
                self.set(
                    and,
                    Place::Line {
                        depth: 2,
                        blank: false,
                        comment_depth: 2,
                    },
                );
            }
        }
    }
}

/// One output line. A blank line has no code and no comment.
struct Line {
    indent: usize,
    code: String,
    trailing: Option<String>,
}

/// Lays the tokens out in lines, following the plan.
fn layout(text: &str, tokens: &[(Token<'_>, Span)], plan: &Plan<'_, '_>) -> Vec<Line> {
    let mut out = Layout {
        lines: Vec::new(),
        current: None,
        after_open: false,
        after_item: false,
    };
    // The depth of the last token that started a line: code that a comment
    // interrupts continues one level deeper.
    let mut depth = 0;
    let mut next = 0; // the next significant token
    let mut previous_end = 0;

    for &(token, span) in tokens {
        let breaks = line_breaks(&text[previous_end..span.start()]);
        previous_end = span.end();
        let source = &text[span.range()];

        if token.is_trivia() {
            let comment = source.trim_end();
            match &mut out.current {
                Some(line) if breaks == 0 && line.trailing.is_none() => {
                    line.trailing = Some(comment.to_string());
                }
                _ => {
                    // Indented like the line that follows; a blank line
                    // above is kept between members and items (also before
                    // a `}`), not inside a member or a pattern.
                    let (indent, keep) = match plan.places.get(next) {
                        Some(&Place::Line {
                            depth: line_depth,
                            blank,
                            comment_depth,
                        }) => (comment_depth, blank || comment_depth > line_depth),
                        Some(Place::Inline { .. }) => (depth + 1, false),
                        None => (0, true),
                    };
                    let blanks = out.blank_lines(keep, breaks);
                    out.start_line(indent * INDENT, blanks, comment);
                    // Nothing follows a comment on its line.
                    out.lines.extend(out.current.take());
                }
            }
            continue;
        }

        match plan.places[next] {
            Place::Line {
                depth: line_depth,
                blank,
                ..
            } => {
                let blanks = out.blank_lines(blank, breaks);
                out.start_line(line_depth * INDENT, blanks, source);
                depth = line_depth;
            }
            Place::Inline { space } => match &mut out.current {
                Some(line) if line.trailing.is_none() => {
                    line.code.extend(std::iter::repeat_n(' ', space));
                    line.code.push_str(source);
                }
                _ => out.start_line((depth + 1) * INDENT, 0, source),
            },
        }
        out.after_open = token == Token::LBrace;
        out.after_item = plan.item_ends[next];
        next += 1;
    }
    out.lines.extend(out.current);
    out.lines
}

struct Layout {
    lines: Vec<Line>,
    /// The line being written.
    current: Option<Line>,
    /// Just after a `{`: no blank line.
    after_open: bool,
    /// Just after the last token of an item: exactly one blank line before
    /// whatever comes next.
    after_item: bool,
}

impl Layout {
    /// The blank lines above a line that starts after `breaks` line breaks
    /// in the input; `keep`: whether the author's blank line may be kept.
    fn blank_lines(&self, keep: bool, breaks: usize) -> usize {
        if self.lines.is_empty() && self.current.is_none() {
            0
        } else if self.after_item {
            1
        } else if self.after_open || !keep {
            0
        } else {
            usize::from(breaks >= 2)
        }
    }

    fn start_line(&mut self, indent: usize, blanks: usize, code: &str) {
        self.lines.extend(self.current.take());
        for _ in 0..blanks {
            self.lines.push(Line {
                indent: 0,
                code: String::new(),
                trailing: None,
            });
        }
        self.current = Some(Line {
            indent,
            code: code.to_string(),
            trailing: None,
        });
        self.after_open = false;
        self.after_item = false;
    }
}

/// The lines as text, with trailing comments aligned.
fn render(lines: &[Line], newline: &str) -> String {
    let mut columns = vec![0; lines.len()];
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trailing.is_none() {
            i += 1;
            continue;
        }
        let indent = lines[i].indent;
        let run = lines[i..]
            .iter()
            .take_while(|l| l.trailing.is_some() && l.indent == indent)
            .count();
        let widest = lines[i..i + run]
            .iter()
            .map(|l| indent + width(&l.code))
            .max()
            .unwrap_or(0);
        let floor = if indent > 0 { COMMENT_COLUMN } else { 0 };
        columns[i..i + run].fill((widest + 1).max(floor));
        i += run;
    }

    let mut out = String::new();
    for (line, column) in lines.iter().zip(columns) {
        if !line.code.is_empty() {
            out.extend(std::iter::repeat_n(' ', line.indent));
            out.push_str(&line.code);
        }
        if let Some(comment) = &line.trailing {
            let at = line.indent + width(&line.code);
            out.extend(std::iter::repeat_n(' ', column.saturating_sub(at).max(1)));
            out.push_str(comment);
        }
        out.push_str(newline);
    }
    out
}

fn width(text: &str) -> usize {
    text.chars().count()
}

/// `\r\n`, a lone `\n` and a lone `\r` each end a line.
fn line_breaks(whitespace: &str) -> usize {
    let bytes = whitespace.as_bytes();
    bytes
        .iter()
        .enumerate()
        .filter(|&(i, &b)| b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')))
        .count()
}

/// Whether most line breaks of `text` are `\r\n`.
fn uses_crlf(text: &str) -> bool {
    let crlf = text.matches("\r\n").count();
    let lf = text.matches('\n').count() - crlf;
    crlf > lf
}

/// The tokens of `text` as the formatter must keep them: comments without
/// trailing whitespace. `kept_tokens(format(x)) == kept_tokens(x)`.
pub fn kept_tokens(text: &str) -> Vec<Token<'_>> {
    lex(text).0.into_iter().map(|(token, _)| kept(token)).collect()
}

fn kept(token: Token<'_>) -> Token<'_> {
    match token {
        Token::Comment(c) => Token::Comment(c.trim_end()),
        Token::DocComment(c) => Token::DocComment(c.trim_end()),
        other => other,
    }
}

/// The guard: formatting changed whitespace only.
fn verify(input: &[(Token<'_>, Span)], output: &str) -> Result<(), FormatError> {
    let before: Vec<Token<'_>> = input.iter().map(|&(t, _)| kept(t)).collect();
    let after = kept_tokens(output);
    if before == after {
        return Ok(());
    }
    let at = before
        .iter()
        .zip(&after)
        .position(|(a, b)| a != b)
        .unwrap_or(before.len().min(after.len()));
    Err(FormatError::Internal(format!(
        "token {at} would change from {:?} to {:?}",
        before.get(at),
        after.get(at)
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(text: &str) -> String {
        format(text).unwrap()
    }

    #[test]
    fn empty_and_blank_files_format_to_nothing() {
        assert_eq!(fmt(""), "");
        assert_eq!(fmt(" \n\n\t\r\n"), "");
    }

    #[test]
    fn syntax_errors_are_refused() {
        let error = format("entity E {\n  a: \n").unwrap_err();
        assert!(matches!(error, FormatError::SyntaxErrors(_)));
        assert!(error.to_string().starts_with("fix the syntax errors first"));
    }

    #[test]
    fn line_breaks_count_every_convention() {
        assert_eq!(line_breaks(" \r\n \n \r "), 3);
        assert_eq!(line_breaks("  "), 0);
    }

    #[test]
    fn crlf_wins_only_by_majority() {
        assert!(uses_crlf("a\r\nb\r\nc\n"));
        assert!(!uses_crlf("a\r\nb\nc\n"));
        assert!(!uses_crlf("abc"));
    }

    #[test]
    fn the_guard_catches_merged_or_lost_tokens() {
        let (tokens, _) = lex("a b // c  ");
        assert!(verify(&tokens, "a b // c\n").is_ok());
        assert!(matches!(verify(&tokens, "ab // c\n"), Err(FormatError::Internal(_))));
        assert!(matches!(verify(&tokens, "a b\n"), Err(FormatError::Internal(_))));
    }

    #[test]
    fn a_comment_only_file_keeps_its_comments() {
        assert_eq!(fmt("  // a   \n\n\n/// b\n"), "// a\n\n/// b\n");
    }
}
