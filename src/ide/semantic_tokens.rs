//! Semantic tokens: what each piece of text is, beyond what a TextMate
//! grammar can see — which words are contextual keywords, which names are
//! entities, attributes, keys, patterns; in templates, literal text vs
//! holes vs the delimiter.

use super::File;
use super::locate::Symbol;
use crate::syntax::ast::{self, Item, Segment};
use crate::syntax::lexer::{Token, lex};
use crate::syntax::template;
use crate::syntax::{Span, names};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Keyword,
    Type,
    Table,
    Index,
    Key,
    Entity,
    Attribute,
    Pattern,
    Parameter,
    TypeTag,
    Delimiter,
    String,
    Number,
    Comment,
}

impl Kind {
    pub const ALL: &'static [Kind] = &[
        Kind::Keyword,
        Kind::Type,
        Kind::Table,
        Kind::Index,
        Kind::Key,
        Kind::Entity,
        Kind::Attribute,
        Kind::Pattern,
        Kind::Parameter,
        Kind::TypeTag,
        Kind::Delimiter,
        Kind::String,
        Kind::Number,
        Kind::Comment,
    ];
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SemanticToken {
    pub span: Span,
    pub kind: Kind,
    pub declaration: bool,
    pub documentation: bool,
}

const CONTEXTUAL_KEYWORDS: &[&str] = &[
    "key",
    "index",
    "local",
    "delimiter",
    "ttl",
    "item",
    "in",
    "by",
    "asc",
    "desc",
    "consistent",
    "limit",
    "get",
    "batch",
    "scan",
    "segments",
    "query",
    "where",
    "and",
    "or",
    "not",
    "between",
    "begins_with",
    "attribute_exists",
    "attribute_not_exists",
    "all",
    "keys_only",
    "include",
    "pad",
    "true",
    "false",
];

/// Every token, in order, none overlapping.
pub fn tokens(file: &File) -> Vec<SemanticToken> {
    tokens_in(file, Span::new(0, file.text.len()))
}

/// The tokens of the lines `range` touches, exactly as [`tokens`] has them
/// there. The work is bounded by those lines (plus a binary search over
/// the file's occurrences and items): no token spans lines, so lexing can
/// start at a line start.
pub fn tokens_in(file: &File, range: Span) -> Vec<SemanticToken> {
    let text = &*file.text;
    let window = lines_around(text, range);
    let token = |span, kind| SemanticToken {
        span,
        kind,
        declaration: false,
        documentation: false,
    };
    let overlaps = |span: Span| span.start() < window.end() && span.end() > window.start() || span == window;
    let occurrences = file.occurrences();
    // Sorted by start, and no name spans lines.
    let first = occurrences.partition_point(|o| o.span.start() < window.start());
    let last = occurrences
        .partition_point(|o| o.span.start() < window.end())
        .max(first);
    let all_items = &file.analysis.parse.file.items;
    let items: Vec<&Item> = {
        let from = all_items.partition_point(|i| i.span().end() < window.start());
        all_items[from..]
            .iter()
            .take_while(|i| i.span().start() <= window.end())
            .filter(|i| overlaps(i.span()))
            .collect()
    };
    // What the analysis knows takes precedence over what the lexer sees.
    let mut specific: Vec<SemanticToken> = occurrences[first..last]
        .iter()
        .filter(|o| overlaps(o.span))
        .map(|o| SemanticToken {
            span: o.span,
            kind: match o.symbol {
                Symbol::Table(_) => Kind::Table,
                Symbol::Index { .. } => Kind::Index,
                Symbol::Key { .. } => Kind::Key,
                Symbol::Entity(_) => Kind::Entity,
                Symbol::Attribute { .. } => Kind::Attribute,
                Symbol::Pattern(_) => Kind::Pattern,
                Symbol::Value { .. } => Kind::Parameter,
                Symbol::Tag { .. } => Kind::TypeTag,
            },
            declaration: o.declaration,
            documentation: false,
        })
        .collect();
    for &item in &items {
        if let Item::Entity(entity) = item {
            specific.extend(entity.attributes.iter().map(|a| token(a.ty.name.span, Kind::Type)));
            // `shard(4, of userId)`: `of` is a keyword only there.
            let sources = entity
                .attributes
                .iter()
                .flat_map(|a| &a.ty.args)
                .filter_map(|arg| match arg {
                    ast::TypeArg::Of(source) => Some(source.span),
                    _ => None,
                });
            specific.extend(
                sources
                    .filter_map(|source| of_keyword(&file.text, source))
                    .map(|s| token(s, Kind::Keyword)),
            );
            specific.extend(
                entity
                    .rate
                    .iter()
                    .filter_map(|r| rate_number(&file.text, r))
                    .map(|s| token(s, Kind::Number)),
            );
        }
        if let Item::Pattern(pattern) = item {
            let rates = pattern.modifiers.iter().filter_map(|m| match m {
                ast::Modifier::Rate(rate) => rate_number(&file.text, rate),
                _ => None,
            });
            specific.extend(rates.map(|s| token(s, Kind::Number)));
        }
        if let Item::Table(table) = item {
            for attr in table.keys.iter().flat_map(|k| k.attrs()) {
                specific.extend(attr.ty.map(|(_, span)| token(span, Kind::Type)));
            }
        }
    }
    specific.sort_by_key(|t| t.span.start());

    let mut quoted_names = names::quotable_spans(&ast::SourceFile {
        items: items.iter().map(|&i| i.clone()).collect(),
    });
    quoted_names.sort_by_key(|s| s.start());
    let mut out = Vec::new();
    let (lexed, _) = lex(&text[window.range()]);
    let delimiters = delimiters(&file.analysis.parse.file);
    let mut next_specific = 0;
    for (lexed_token, span) in lexed {
        let span = Span::new(span.start() + window.start(), span.end() + window.start());
        // Emit the specific tokens that start before this one ends.
        let covered: Vec<SemanticToken> = {
            let start = next_specific;
            while next_specific < specific.len() && specific[next_specific].span.start() < span.end() {
                next_specific += 1;
            }
            specific[start..next_specific]
                .iter()
                .copied()
                .filter(|t| t.span.end() > span.start())
                .collect()
        };
        match lexed_token {
            // A quoted name is the name's token, not a string; one the
            // analysis does not know gets no meaning, like a bare name.
            Token::Str(_) | Token::UnterminatedStr(_) if covered.iter().any(|t| t.span == span) => out.extend(covered),
            Token::Str(_) | Token::UnterminatedStr(_)
                if quoted_names.binary_search_by_key(&span.start(), |s| s.start()).is_ok() => {}
            Token::Str(raw) | Token::UnterminatedStr(raw) => {
                string_pieces(raw, span, &covered, &delimiters, &mut out);
                out.extend(covered);
            }
            _ if !covered.is_empty() => out.extend(covered),
            Token::Table | Token::Entity | Token::Pattern => out.push(token(span, Kind::Keyword)),
            Token::Ident(word) if CONTEXTUAL_KEYWORDS.contains(&word) => out.push(token(span, Kind::Keyword)),
            Token::Number(_) => out.push(token(span, Kind::Number)),
            Token::Comment(_) => out.push(token(span, Kind::Comment)),
            Token::DocComment(_) => out.push(SemanticToken {
                documentation: true,
                ..token(span, Kind::Comment)
            }),
            _ => {}
        }
    }
    out.sort_by_key(|t| t.span.start());
    out.dedup_by(|b, a| b.span.start() < a.span.end());
    out.retain(|t| t.span.start() >= window.start() && t.span.end() <= window.end());
    out
}

/// From the start of the line `range` starts on to the end of the line it
/// ends on (line breaks `\n`, `\r\n` or `\r`).
fn lines_around(text: &str, range: Span) -> Span {
    let start = range.start().min(text.len());
    let end = range.end().clamp(start, text.len());
    let line_start = text.as_bytes()[..start]
        .iter()
        .rposition(|&b| b == b'\n' || b == b'\r')
        .map_or(0, |i| i + 1);
    let line_end = text.as_bytes()[end..]
        .iter()
        .position(|&b| b == b'\n' || b == b'\r')
        .map_or(text.len(), |i| end + i);
    Span::new(line_start, line_end)
}

/// The `of` written before the source of a calculated shard.
fn of_keyword(text: &str, source: Span) -> Option<Span> {
    let before = text.get(..source.start())?.trim_end();
    let start = before.strip_suffix("of")?.len();
    let bounded = !before[..start].ends_with(|c: char| c.is_alphanumeric() || c == '_');
    bounded.then(|| Span::new(start, start + 2))
}

/// `~2500/s` without its `~`: the number with its unit, one token like a
/// size hint's `2KB` (only the number when the hint spans lines: a token
/// is on one line).
fn rate_number(text: &str, rate: &ast::RateHint) -> Option<Span> {
    let after_tilde = text.get(rate.span.start() + 1..rate.span.end())?;
    let number = after_tilde.trim_start();
    let start = rate.span.end() - number.len();
    let end = if number.contains('\n') {
        start
            + number
                .find(|c: char| !(c.is_ascii_digit() || c == '.'))
                .unwrap_or(number.len())
    } else {
        rate.span.end()
    };
    (start < end).then(|| Span::new(start, end))
}

fn delimiters(file: &ast::SourceFile) -> Vec<String> {
    let mut out: Vec<String> = file
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Table(t) => t.delimiters.first().and_then(|d| d.value.constant()),
            _ => None,
        })
        .collect();
    if out.is_empty() {
        out.push("#".into());
    }
    out
}

/// A string: holes' braces and delimiters inside literal text get their
/// own tokens; the rest not already covered is string text.
fn string_pieces(
    raw: &str,
    span: Span,
    covered: &[SemanticToken],
    delimiters: &[String],
    out: &mut Vec<SemanticToken>,
) {
    let token = |span, kind| SemanticToken {
        span,
        kind,
        declaration: false,
        documentation: false,
    };
    let mut marks: Vec<SemanticToken> = covered.to_vec();
    for segment in template::split(raw, span.start(), &mut Vec::new()) {
        match segment {
            Segment::Hole { span: hole, name } => {
                marks.push(token(Span::new(hole.start(), hole.start() + 1), Kind::Delimiter));
                if !covered.iter().any(|c| c.span == name.span) && !name.span.is_empty() {
                    marks.push(token(name.span, Kind::Attribute));
                }
                marks.push(token(Span::new(hole.end() - 1, hole.end()), Kind::Delimiter));
            }
            Segment::Literal { span: literal, .. } => {
                let source = &raw[literal.start() - span.start()..literal.end() - span.start()];
                for delimiter in delimiters {
                    for (at, _) in source.match_indices(delimiter.as_str()) {
                        let start = literal.start() + at;
                        marks.push(token(Span::new(start, start + delimiter.len()), Kind::Delimiter));
                    }
                }
            }
        }
    }
    marks.sort_by_key(|t| t.span.start());
    let mut at = span.start();
    for mark in &marks {
        if mark.span.start() > at {
            out.push(token(Span::new(at, mark.span.start()), Kind::String));
        }
        at = at.max(mark.span.end());
    }
    if at < span.end() {
        out.push(token(Span::new(at, span.end()), Kind::String));
    }
    out.extend(marks.into_iter().filter(|m| !covered.contains(m)));
}
