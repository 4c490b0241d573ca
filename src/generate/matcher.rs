//! A key template's language as a regular expression, for generated code:
//! the same language [`crate::check::lang::Shape`] defines (its doc comments
//! are the definitions), written in the subset of regex syntax JavaScript,
//! Python's `re` and Rust's `regex` read alike (no lookaround, no
//! backreferences, only `\` escapes of metacharacters).

use crate::check::lang::{Part, Shape};

/// `^…$` over the whole value.
pub fn whole(parts: &[Part]) -> String {
    let mut out = String::from("^");
    for part in parts {
        match part {
            Part::Literal(text) => out.push_str(&escape(text)),
            Part::Hole(shape) => out.push_str(&shape_regex(shape)),
        }
    }
    out.push('$');
    out
}

const DATE: &str = "[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])";
const TIME: &str = "T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]{1,9})?";
const INT: &str = "(?:0|[1-9][0-9]*)";

fn shape_regex(shape: &Shape) -> String {
    match shape {
        Shape::Id { delimiter } => {
            let forbidden: String = delimiter
                .chars()
                .fold(String::new(), |mut s, c| {
                    if !s.contains(c) {
                        s.push(c);
                    }
                    s
                })
                .chars()
                .map(class_char)
                .collect();
            if forbidden.is_empty() {
                "[\\s\\S]+".to_string()
            } else {
                format!("[^{forbidden}]+")
            }
        }
        Shape::String => "[\\s\\S]+".to_string(),
        Shape::Int { pad: Some(n) } => format!("[0-9]{{{n}}}"),
        Shape::Int { pad: None } => INT.to_string(),
        Shape::Decimal => format!("{INT}(?:\\.[0-9]+)?"),
        Shape::Date => DATE.to_string(),
        Shape::DateTime => format!("{DATE}{TIME}Z"),
        Shape::LocalDateTime => format!("{DATE}{TIME}"),
        Shape::OffsetDateTime => format!("{DATE}{TIME}(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])"),
        Shape::Uuid => "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}".to_string(),
        Shape::Ulid => "[0-7][0-9A-HJKMNP-TV-Z]{25}".to_string(),
        Shape::Bool => "(?:true|false)".to_string(),
        Shape::Enum(words) if words.is_empty() => "(?:[^\\s\\S])".to_string(),
        Shape::Enum(words) => {
            let alternatives: Vec<String> = words.iter().map(|w| escape(w)).collect();
            format!("(?:{})", alternatives.join("|"))
        }
    }
}

/// Literal text, its metacharacters escaped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if "\\.^$|?*+()[]{}/".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A character inside `[^…]`.
fn class_char(c: char) -> String {
    if "\\]^-[".contains(c) {
        format!("\\{c}")
    } else {
        c.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id() -> Shape {
        Shape::Id { delimiter: "#".into() }
    }

    #[test]
    fn literals_and_holes() {
        let parts = [Part::Literal("USER#".into()), Part::Hole(id())];
        assert_eq!(whole(&parts), "^USER#[^#]+$");
        let parts = [Part::Literal("A.B".into()), Part::Hole(Shape::Int { pad: Some(6) })];
        assert_eq!(whole(&parts), "^A\\.B[0-9]{6}$");
        assert_eq!(
            whole(&[Part::Hole(Shape::Enum(vec!["open".into(), "in-use".into()]))]),
            "^(?:open|in-use)$"
        );
        assert_eq!(
            whole(&[Part::Hole(Shape::Id { delimiter: "]-".into() })]),
            "^[^\\]\\-]+$"
        );
    }
}
