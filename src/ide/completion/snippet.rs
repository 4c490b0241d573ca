//! Snippets for editors that do not take them: the LSP snippet syntax
//! (`${1:name}`, `$0`, `\$`) turned into the plain text a user would type,
//! each placeholder's default kept.

/// `snippet` with its tab stops removed and its placeholders' defaults kept.
pub fn plain_text(snippet: &str) -> String {
    let mut out = String::with_capacity(snippet.len());
    let mut chars = snippet.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(escaped @ ('$' | '}' | '\\')) => out.push(escaped),
                Some(other) => {
                    out.push('\\');
                    out.push(other);
                }
                None => out.push('\\'),
            },
            '$' if chars.peek().is_some_and(char::is_ascii_digit) => {
                while chars.next_if(char::is_ascii_digit).is_some() {}
            }
            '$' if chars.peek() == Some(&'{') => {
                chars.next();
                while chars.next_if(char::is_ascii_digit).is_some() {}
                // `${1:default}` keeps the default; `${1}` is a bare stop.
                if chars.next_if_eq(&':').is_some() {
                    let mut depth = 0;
                    for c in chars.by_ref() {
                        match c {
                            '{' => depth += 1,
                            '}' if depth == 0 => break,
                            '}' => depth -= 1,
                            _ => {}
                        }
                        out.push(c);
                    }
                } else {
                    chars.next_if_eq(&'}');
                }
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::plain_text;

    #[test]
    fn placeholders_keep_their_defaults_and_stops_vanish() {
        assert_eq!(
            plain_text("table ${1:Name} {\n\tkey ${2:pk}, ${3:sk}\n}"),
            "table Name {\n\tkey pk, sk\n}"
        );
        assert_eq!(plain_text("item {\n\t$0\n}"), "item {\n\t\n}");
        assert_eq!(plain_text("= query ${1:Table} where ${2}"), "= query Table where ");
        assert_eq!(plain_text("cost \\$5 $10"), "cost $5 ");
        assert_eq!(plain_text("no snippet here"), "no snippet here");
        assert_eq!(plain_text("${1:a{b}c}!"), "a{b}c!");
    }
}
