//! The tokens completion looks at: those of the item around the cursor, not
//! the whole file. No token spans a line break (strings and comments end at
//! the line), so lexing from any line start yields exactly the tokens the
//! whole file has from there on; the window runs from the last line before
//! the cursor with an item keyword to the next line after it with one.

use super::is_item_keyword;
use crate::syntax::Span;
use crate::syntax::lexer::{Token, lex};

/// Where item keywords start on `line` (which begins at `start`).
fn item_keywords(line: &str, start: usize) -> impl Iterator<Item = usize> + '_ {
    use logos::Logos;
    Token::lexer(line)
        .spanned()
        .filter(|(token, _)| token.is_ok_and(is_item_keyword))
        .map(move |(_, range)| start + range.start)
}

/// The byte range of the lines that hold the item around `offset`.
pub fn bounds(text: &str, offset: usize) -> Span {
    let line_start = |at: usize| text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_end = |at: usize| text[at..].find('\n').map_or(text.len(), |i| at + i + 1);
    let cursor_line = line_start(offset);
    let mut start = cursor_line;
    loop {
        let end = line_end(start);
        if item_keywords(&text[start..end], start).any(|at| at < offset) || start == 0 {
            break;
        }
        start = line_start(start - 1);
    }
    let mut end = line_end(cursor_line);
    if !item_keywords(&text[cursor_line..end], cursor_line).any(|at| at >= offset) {
        while end < text.len() {
            let next = line_end(end);
            let found = item_keywords(&text[end..next], end).next().is_some();
            end = next;
            if found {
                break;
            }
        }
    }
    Span::new(start, end)
}

/// The tokens of the window around `offset`, with spans into `text`.
pub fn tokens(text: &str, offset: usize) -> Vec<(Token<'_>, Span)> {
    let window = bounds(text, offset);
    let (mut tokens, _) = lex(&text[window.range()]);
    for (_, span) in &mut tokens {
        *span = Span::new(span.start() + window.start(), span.end() + window.start());
    }
    tokens
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The window around `$0` (which is not part of the text), as text.
    fn window(marked: &str) -> String {
        let offset = marked.find("$0").unwrap();
        let text = marked.replacen("$0", "", 1);
        let span = bounds(&text, offset);
        text[span.range()].to_string()
    }

    #[test]
    fn the_window_is_the_item_around_the_cursor() {
        let text =
            "table T { key pk }\n\nentity A in T {\n  id: id\n  pk = \"A#{$0id}\"\n}\n\nentity B in T {\n  x: id\n}\n";
        assert_eq!(
            window(text),
            "entity A in T {\n  id: id\n  pk = \"A#{id}\"\n}\n\nentity B in T {\n"
        );
        // Before the first item and after the last one.
        assert_eq!(window("$0\ntable T { key pk }\n"), "\ntable T { key pk }\n");
        assert_eq!(window("table T { key pk }\nent$0"), "table T { key pk }\nent");
        // On the keyword line: the cursor before the keyword belongs to the
        // item before it.
        assert_eq!(
            window("table T {}\n$0entity A {}\nentity B {}\n"),
            "table T {}\nentity A {}\n"
        );
        // Keywords inside comments and strings do not count.
        let text = "entity A {\n  // pattern\n  pk = \"entity\"\n  $0\n}\n";
        assert_eq!(window(text), text.replace("$0", ""));
    }

    #[test]
    fn window_tokens_are_the_whole_files_tokens_there() {
        let text = "table T { key pk, sk }\n/// doc\nentity A in T {\n  id: id // entity\n  pk = \"A#{id}\"\n  sk = \"A\n}\npattern p(id) -> A\n";
        let (all, _) = lex(text);
        for offset in (0..=text.len()).filter(|&o| text.is_char_boundary(o)) {
            crate::fuzz::completion_window(text, &all, offset);
        }
    }
}
