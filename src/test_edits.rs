//! Random edits of the example schemas, for the tests that compare what is
//! kept across an edit (a re-parse, an incremental check) with what is
//! computed afresh.

pub fn texts() -> Vec<String> {
    let mut texts: Vec<String> = ["billing", "games", "shop", "teams"]
        .iter()
        .filter_map(|name| std::fs::read_to_string(format!("examples/{name}.dyno")).ok())
        .collect();
    texts.push(crate::synth::generate(&crate::synth::Config::for_lines(150, 5)).dyno);
    texts
}

/// Pieces that break or make items: keywords, braces, parentheses, quotes,
/// doc comments, line breaks.
pub const PIECES: &[&str] = &[
    "",
    "x",
    "\r",
    "/// a\r/// b\n",
    "entity ",
    "pattern ",
    "table ",
    "{",
    "}",
    "(",
    ")",
    "\"",
    "///",
    "/// doc\n",
    "//",
    "\n",
    "\r\n",
    ":",
    ",",
    "->",
    "=",
    "é",
    "entity E {\n",
    "pattern p(a) -> E\n",
    "pattern s() -> E[] scan gsi1\n",
    "§",
];

/// Applies one edit (a place as a fraction of the text, characters to
/// delete, a piece to type) and returns the new text.
pub fn edited(text: &str, at: f64, delete: usize, piece: &str) -> String {
    let mut start = ((text.len() as f64) * at) as usize;
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let end = text[start..]
        .char_indices()
        .nth(delete)
        .map_or(text.len(), |(i, _)| start + i);
    let mut new = text.to_string();
    new.replace_range(start..end, piece);
    new
}
