//! A text parsed item by item. Each top-level item's stretch of text (a
//! chunk: its keyword up to the next item's keyword) is parsed on its own,
//! which gives the same tree as the whole text (item keywords are hard and
//! every recovery stops at one) and lets an edit re-parse only the chunks
//! on the lines it touched: tokens never span lines, so a chunk whose text
//! and ending keyword lie on other lines cannot read differently.

use std::sync::Arc;

use chumsky::prelude::*;

use super::{
    Parse, at_line_end_if_next_line, attach_docs, chunk_parser, direct, docs_at, docs_span_before, file_parser,
    to_diagnostic,
};
use crate::diagnostic::{Code, Diagnostic};
use crate::syntax::ast::{Docs, Item, SourceFile};
use crate::syntax::lexer::{self, Token};
use crate::syntax::shift::{Shift, shift_diagnostic};
use crate::syntax::{FileId, Span};

#[derive(Clone, Debug, PartialEq)]
pub(super) struct Chunk {
    /// From its item's keyword (the region's start for the first chunk) to
    /// the next item's keyword (the text's end for the last).
    span: Span,
    /// The keyword that ends it; `None` for the last chunk of the text.
    next: Option<Token<'static>>,
    /// How many of the file's items and diagnostics are its own.
    items: usize,
    diagnostics: usize,
    /// Where the `///` lines at its end are: the docs of the next item.
    trailing_docs: Option<Span>,
}

/// The item keywords, as the token that starts each item.
fn item_keyword(token: Token<'_>) -> Option<Token<'static>> {
    match token {
        Token::Table => Some(Token::Table),
        Token::Entity => Some(Token::Entity),
        Token::Pattern => Some(Token::Pattern),
        _ => None,
    }
}

fn keyword_len(keyword: Token<'static>) -> usize {
    match keyword {
        Token::Table => "table".len(),
        Token::Entity => "entity".len(),
        _ => "pattern".len(),
    }
}

/// Where a chunk's tokens and text are.
pub(super) struct Plan {
    /// Its first token, and the next chunk's (its ending keyword).
    first: usize,
    end_token: usize,
    /// The last chunk of the text: no keyword ends it.
    pub(super) ends_text: bool,
    span: Span,
    next: Option<Token<'static>>,
}

/// The items, diagnostics and chunks of one stretch of a text.
struct Region {
    items: Vec<Item>,
    diagnostics: Vec<Diagnostic>,
    chunks: Vec<Chunk>,
}

pub(super) fn parse_all(file: FileId, text: &str) -> Parse {
    parse_all_on(file, text, crate::parallel::worth_it)
}

/// [`parse_all`] on as many threads as `threads` says for so many chunks.
fn parse_all_on(file: FileId, text: &str, threads: impl FnOnce(usize) -> usize) -> Parse {
    let region = parse_region(file, text, Span::new(0, text.len()), None, None, threads);
    Parse {
        file: SourceFile { items: region.items },
        diagnostics: region.diagnostics,
        chunks: region.chunks,
    }
}

/// One stretch of a text lexed and cut into chunks.
pub(super) struct Lexed<'src> {
    /// The lexer's diagnostics, in token order.
    lexical: Vec<Diagnostic>,
    /// The tokens the parser reads, then the keyword that ends the region
    /// (when one does).
    ///
    /// With a span of ours, two `u32`: a token is some four bytes of a
    /// schema, and chumsky's span (two `usize`) made an entry 40 bytes,
    /// not 32 (the list had 100 MB of room at 10 MB).
    pub(super) significant: Vec<(Token<'src>, Span)>,
    /// Comments and unknown bytes (for the docs).
    others: Vec<(Token<'src>, Span)>,
    /// How many of `significant` are the region's own.
    pub(super) lexed: usize,
    /// Where the parser's input ends.
    pub(super) eoi: usize,
    pub(super) plans: Vec<Plan>,
}

impl Plan {
    /// Its tokens, with the keyword that ends it.
    pub(super) fn tokens<'a, 'src>(&self, significant: &'a [(Token<'src>, Span)]) -> &'a [(Token<'src>, Span)] {
        if self.ends_text {
            &significant[self.first..self.end_token]
        } else {
            &significant[self.first..=self.end_token]
        }
    }
}

/// Lexes `text[region]` (see [`parse_region`]) and cuts it into chunks.
pub(super) fn lex_region<'src>(text: &'src str, region: Span, next: Option<Token<'static>>) -> Lexed<'src> {
    let base = region.start();
    let mut lexical = Vec::new();
    // Comments are trivia and unknown bytes were reported by the lexer:
    // neither reaches the parser. They are kept apart (for the docs).
    let mut significant: Vec<(Token<'_>, Span)> = Vec::with_capacity(region.len() / 8);
    let mut others: Vec<(Token<'_>, Span)> = Vec::new();
    lexer::lex_into(&text[region.range()], &mut lexical, |token, span| {
        let span = Span::new(base + span.start(), base + span.end());
        if token.is_trivia() || matches!(token, Token::Error(_)) {
            others.push((token, span));
        } else {
            significant.push((token, span));
        }
    });
    if base != 0 {
        for diagnostic in &mut lexical {
            shift_diagnostic(diagnostic, FileId::default(), base as isize);
        }
    }
    let lexed = significant.len();
    // "Found end of file" points just after the last token, not at a blank
    // last line; before the next item, the parse reads its keyword to stop.
    let eoi = match next {
        Some(keyword) => {
            let at = region.end()..region.end() + keyword_len(keyword);
            significant.push((keyword, Span::new(at.start, at.end)));
            at.end
        }
        None => significant.last().map_or(base, |(_, s)| s.end()),
    };
    let mut starts: Vec<usize> = (0..lexed)
        .filter(|&i| item_keyword(significant[i].0).is_some())
        .collect();
    if starts.first() != Some(&0) {
        // What comes before the first item (nothing, or stray tokens) is a
        // chunk of its own.
        starts.insert(0, 0);
    }

    let plans: Vec<Plan> = starts
        .iter()
        .enumerate()
        .map(|(c, &first)| Plan {
            first,
            end_token: starts.get(c + 1).copied().unwrap_or(lexed),
            ends_text: c + 1 == starts.len() && next.is_none(),
            span: Span::new(
                if c == 0 { base } else { significant[first].1.start() },
                starts.get(c + 1).map_or(region.end(), |&k| significant[k].1.start()),
            ),
            next: starts.get(c + 1).map_or(next, |&k| item_keyword(significant[k].0)),
        })
        .collect();
    Lexed {
        lexical,
        significant,
        others,
        lexed,
        eoi,
        plans,
    }
}

/// A chunk read by the grammar written with chumsky: its items, and the
/// errors it reported as diagnostics.
pub(super) fn grammar_chunk(tokens: &[(Token<'_>, Span)], ends_text: bool, eoi: usize) -> (Vec<Item>, Vec<Diagnostic>) {
    // The grammar reads chumsky's spans: made for the chunk it reads, one
    // with a syntax error.
    let tokens: Vec<(Token<'_>, SimpleSpan)> = tokens.iter().map(|&(t, s)| (t, SimpleSpan::from(s.range()))).collect();
    let input = tokens.as_slice().split_token_span(SimpleSpan::from(eoi..eoi));
    let (output, errors) = if ends_text {
        file_parser::<_, Rich<'_, Token<'_>>>()
            .parse(input)
            .into_output_errors()
    } else {
        chunk_parser::<_, Rich<'_, Token<'_>>>()
            .parse(input)
            .into_output_errors()
    };
    let diagnostics = errors.iter().map(to_diagnostic).collect();
    (output.unwrap_or_default().into_iter().flatten().collect(), diagnostics)
}

/// Parses the chunks of `text[region]`. The region starts at the text's
/// start or at an item keyword, and ends at the text's end or just before
/// the item keyword `next`; `docs_above` are the docs of an item at its
/// start (they lie before it).
fn parse_region(
    file: FileId,
    text: &str,
    region: Span,
    next: Option<Token<'static>>,
    docs_above: Option<Span>,
    threads: impl FnOnce(usize) -> usize,
) -> Region {
    let Lexed {
        lexical,
        significant,
        others,
        lexed,
        eoi,
        plans,
    } = lex_region(text, region, next);
    // The chunks of a large text are parsed on several threads at once.
    let threads = threads(plans.len());
    let parsed = crate::parallel::runs(threads, &plans, |run| {
        let mut items: Vec<Item> = Vec::new();
        let mut parse = |plan: &Plan| {
            let tokens = plan.tokens(&significant);
            // Most chunks have no syntax error, and the hand-written parser
            // reads them; where it finds one, the grammar reads the chunk
            // again to say what was expected and to recover.
            let (output, errors) = match direct::chunk(tokens, plan.ends_text) {
                Some(output) => (output, Vec::new()),
                None => grammar_chunk(tokens, plan.ends_text, eoi),
            };
            let errors: Vec<Diagnostic> = errors
                .into_iter()
                .map(|mut diagnostic| {
                    if diagnostic.code == Code::UnexpectedToken {
                        diagnostic.span = at_line_end_if_next_line(text, &significant[..lexed], diagnostic.span);
                    }
                    diagnostic
                })
                .collect();
            let before = items.len();
            items.extend(output);
            (items.len() - before, errors)
        };
        let counts: Vec<_> = run.iter().map(&mut parse).collect();
        (items, counts)
    });

    let mut out = Region {
        items: Vec::new(),
        diagnostics: Vec::new(),
        chunks: Vec::with_capacity(plans.len()),
    };
    let mut counts = Vec::with_capacity(plans.len());
    for (items, run) in parsed {
        if out.items.is_empty() {
            out.items = items;
        } else {
            out.items.extend(items);
        }
        counts.extend(run);
    }
    let mut lexical = lexical.into_iter().peekable();
    for (c, (plan, (items, errors))) in plans.iter().zip(counts).enumerate() {
        let mut diagnostics: Vec<Diagnostic> = Vec::new();
        while let Some(d) = lexical.next_if(|d| d.span.start() < plan.span.end() || c + 1 == plans.len()) {
            diagnostics.push(d);
        }
        diagnostics.extend(errors);
        diagnostics.sort_by_key(|d| (d.span.start(), d.span.end()));
        // The lexer and parser work on one text and know no file.
        for diagnostic in &mut diagnostics {
            diagnostic.file = file;
        }
        out.chunks.push(Chunk {
            span: plan.span,
            next: plan.next,
            items,
            diagnostics: diagnostics.len(),
            trailing_docs: None,
        });
        out.diagnostics.extend(diagnostics);
    }

    let (significant, others) = (&significant[..lexed], &others[..]);
    attach_docs(text, &mut out.items, significant, others);
    if region.start() != 0
        && let Some(first) = out.items.first_mut()
        && first.span().start() == region.start()
    {
        set_docs(first, docs_above.map(|span| docs_at(text, span)));
    }
    for chunk in &mut out.chunks {
        if chunk.next.is_some() {
            chunk.trailing_docs = docs_span_before(chunk.span.end(), significant, others);
        }
    }
    out
}

fn set_docs(item: &mut Item, docs: Option<Box<Docs>>) {
    match item {
        Item::Table(t) => t.docs = docs,
        Item::Entity(e) => e.docs = docs,
        Item::Pattern(p) => p.docs = docs,
    }
}

/// See [`super::reparse_in`].
pub(super) fn reparse(file: FileId, text: &str, old: Arc<Parse>, old_text: &str) -> Parse {
    let (before, after) = (old_text.as_bytes(), text.as_bytes());
    let (prefix, suffix) = crate::slices::common_ends(before, after);
    if prefix == before.len() && prefix == after.len() {
        return Arc::try_unwrap(old).unwrap_or_else(|shared| (*shared).clone());
    }
    let chunks = &old.chunks;
    if chunks.is_empty() {
        return parse_all(file, text);
    }
    // The lines the change touched, in the old text.
    let line_start = before[..prefix].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let changed_end = before.len() - suffix;
    let line_end = before[changed_end..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(before.len(), |i| changed_end + i);
    // Kept at the front: chunks that, with the keyword ending them, lie
    // before those lines; at the back: chunks whose keyword lies after.
    let front = chunks
        .partition_point(|c| c.span.start() < line_start)
        .saturating_sub(1);
    let back = chunks.partition_point(|c| c.span.start() <= line_end).max(front + 1);
    let delta = after.len() as isize - before.len() as isize;
    let region = Span::new(
        chunks[front].span.start(),
        chunks
            .get(back)
            .map_or(after.len(), |c| c.span.start().wrapping_add_signed(delta)),
    );
    let next = if back < chunks.len() {
        chunks[back - 1].next
    } else {
        None
    };
    let docs_above = front.checked_sub(1).and_then(|c| chunks[c].trailing_docs);
    let middle = parse_region(file, text, region, next, docs_above, crate::parallel::worth_it);

    let count = |range: std::ops::Range<usize>, of: fn(&Chunk) -> usize| chunks[range].iter().map(of).sum::<usize>();
    let (items_front, items_back) = (count(0..front, |c| c.items), count(0..back, |c| c.items));
    let (diagnostics_front, diagnostics_back) = (count(0..front, |c| c.diagnostics), count(0..back, |c| c.diagnostics));
    // Moved when no one else holds the old parse (the usual case in the
    // editor, which has released it), else copied.
    let old = Arc::try_unwrap(old).unwrap_or_else(|shared| (*shared).clone());

    // Spliced in place: the items after the edit move only when the edit
    // changed how many there are, and are shifted where they lie.
    let mut items = old.file.items;
    let first_back_item = items_front + middle.items.len();
    items.splice(items_front..items_back, middle.items);
    for item in &mut items[first_back_item..] {
        item.shift(delta);
    }

    let mut diagnostics = old.diagnostics;
    let first_back_diagnostic = diagnostics_front + middle.diagnostics.len();
    diagnostics.splice(diagnostics_front..diagnostics_back, middle.diagnostics);
    for diagnostic in &mut diagnostics[first_back_diagnostic..] {
        shift_diagnostic(diagnostic, file, delta);
    }

    let mut chunks = old.chunks;
    let middle_docs = middle.chunks.last().and_then(|c| c.trailing_docs);
    let first_back_chunk = front + middle.chunks.len();
    chunks.splice(front..back, middle.chunks);
    if let Some(first) = chunks.get(first_back_chunk)
        && first.items > 0
        && let Some(item) = items.get_mut(first_back_item)
        && item.span().start() == first.span.start().wrapping_add_signed(delta)
    {
        // Its docs lie in the chunk before it, which was parsed again.
        set_docs(item, middle_docs.map(|span| docs_at(text, span)));
    }
    for chunk in &mut chunks[first_back_chunk..] {
        chunk.span.shift(delta);
        chunk.trailing_docs.shift(delta);
    }
    Parse {
        file: SourceFile { items },
        diagnostics,
        chunks,
    }
}

#[cfg(test)]
mod tests;
