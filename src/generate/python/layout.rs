//! Python expressions laid out as ruff (black) formats them: on one line
//! when it fits in 88 columns, else each element on its own line with a
//! trailing comma (which ruff keeps: the "magic trailing comma"), nested
//! elements laid out alike. Enough for the literals and calls the Python
//! target writes; text that cannot be split (a long string) stays whole.

use serde_json::Value as Json;

pub const WIDTH: usize = 88;

/// An expression to lay out.
#[derive(Clone, Debug, PartialEq)]
pub enum Py {
    /// Text that is never split.
    Atom(String),
    /// `callee(args)`, also a subscript when `open` is `[`.
    Call {
        callee: String,
        open: char,
        args: Vec<Py>,
    },
    Tuple(Vec<Py>),
    List(Vec<Py>),
    Dict(Vec<(Py, Py)>),
}

pub fn atom(text: impl Into<String>) -> Py {
    Py::Atom(text.into())
}

pub fn string(text: &str) -> Py {
    Py::Atom(str_literal(text))
}

pub fn call(callee: &str, args: Vec<Py>) -> Py {
    Py::Call {
        callee: callee.to_string(),
        open: '(',
        args,
    }
}

/// A JSON value as the Python literal that equals it (`true` → `True`).
pub fn json(value: &Json) -> Py {
    match value {
        Json::Null => atom("None"),
        Json::Bool(true) => atom("True"),
        Json::Bool(false) => atom("False"),
        Json::Number(n) => atom(n.to_string()),
        Json::String(s) => string(s),
        Json::Array(items) => Py::List(items.iter().map(json).collect()),
        Json::Object(map) => Py::Dict(map.iter().map(|(k, v)| (string(k), json(v))).collect()),
    }
}

/// A Python string literal: double quotes unless the text holds more
/// double than single quotes (ruff's choice), escapes for the rest.
pub fn str_literal(text: &str) -> String {
    let doubles = text.matches('"').count();
    let singles = text.matches('\'').count();
    let quote = if doubles > singles { '\'' } else { '"' };
    let mut out = String::with_capacity(text.len() + 2);
    out.push(quote);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

impl Py {
    /// On one line.
    pub fn flat(&self) -> String {
        match self {
            Py::Atom(text) => text.clone(),
            Py::Call { callee, open, args } => {
                let close = if *open == '(' { ')' } else { ']' };
                let args: Vec<String> = args.iter().map(Py::flat).collect();
                format!("{callee}{open}{}{close}", args.join(", "))
            }
            Py::Tuple(items) if items.len() == 1 => format!("({},)", items[0].flat()),
            Py::Tuple(items) => format!("({})", join(items)),
            Py::List(items) => format!("[{}]", join(items)),
            Py::Dict(entries) => {
                let entries: Vec<String> = entries
                    .iter()
                    .map(|(k, v)| format!("{}: {}", k.flat(), v.flat()))
                    .collect();
                format!("{{{}}}", entries.join(", "))
            }
        }
    }

    /// Laid out starting at column `column` of a line indented by
    /// `indent`, with `after` more characters following it on its last line.
    pub fn render(&self, indent: usize, column: usize, after: usize) -> String {
        let flat = self.flat();
        if column + flat.chars().count() + after <= WIDTH {
            return flat;
        }
        let (open, close, items): (String, &str, Vec<(String, &Py)>) = match self {
            Py::Atom(_) => return flat,
            Py::Call { args, .. } if args.is_empty() => return flat,
            Py::Call { callee, open, args } => (
                format!("{callee}{open}"),
                if *open == '(' { ")" } else { "]" },
                args.iter().map(|a| (String::new(), a)).collect(),
            ),
            Py::Tuple(items) if !items.is_empty() => {
                ("(".into(), ")", items.iter().map(|a| (String::new(), a)).collect())
            }
            Py::List(items) if !items.is_empty() => {
                ("[".into(), "]", items.iter().map(|a| (String::new(), a)).collect())
            }
            Py::Dict(entries) if !entries.is_empty() => (
                "{".into(),
                "}",
                entries.iter().map(|(k, v)| (format!("{}: ", k.flat()), v)).collect(),
            ),
            _ => return flat,
        };
        let inner = indent + 4;
        let pad = " ".repeat(inner);
        let mut out = open;
        out.push('\n');
        for (prefix, item) in items {
            out.push_str(&pad);
            out.push_str(&prefix);
            out.push_str(&item.render(inner, inner + prefix.chars().count(), 1));
            out.push_str(",\n");
        }
        out.push_str(&" ".repeat(indent));
        out.push_str(close);
        out
    }
}

fn join(items: &[Py]) -> String {
    items.iter().map(Py::flat).collect::<Vec<_>>().join(", ")
}

/// `target = value` as a statement at `indent`; a value that is one long
/// atom goes in parentheses on its own line when that makes it fit (ruff).
pub fn assign(indent: usize, target: &str, value: &Py) -> String {
    let pad = " ".repeat(indent);
    let head = format!("{pad}{target} = ");
    let width = head.chars().count();
    if let Py::Atom(text) = value
        && width + text.chars().count() > WIDTH
        && indent + 4 + text.chars().count() <= WIDTH
    {
        return format!("{head}(\n{pad}    {text}\n{pad})\n");
    }
    format!("{head}{}\n", value.render(indent, width, 0))
}

/// An expression statement (a call) at `indent`, `prefix` (`return `,
/// `yield `) before it.
pub fn statement(indent: usize, prefix: &str, value: &Py) -> String {
    let pad = " ".repeat(indent);
    let column = indent + prefix.chars().count();
    format!("{pad}{prefix}{}\n", value.render(indent, column, 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fits_on_a_line_or_splits_with_trailing_commas() {
        let short = call("f", vec![atom("a"), string("b")]);
        assert_eq!(short.render(0, 0, 0), "f(a, \"b\")");
        let long = Py::Dict(vec![(string("key"), string(&"x".repeat(90)))]);
        assert_eq!(
            long.render(0, 4, 0),
            format!("{{\n    \"key\": \"{}\",\n}}", "x".repeat(90))
        );
        assert_eq!(Py::Tuple(vec![atom("a")]).flat(), "(a,)");
    }

    #[test]
    fn strings_pick_quotes_and_escape() {
        assert_eq!(str_literal("a\\b"), "\"a\\\\b\"");
        assert_eq!(str_literal("say \"hi\""), "'say \"hi\"'");
        assert_eq!(str_literal("it's"), "\"it's\"");
        assert_eq!(str_literal("\u{1}"), "\"\\x01\"");
    }

    #[test]
    fn json_becomes_python_literals() {
        let value = serde_json::json!({"a": [true, null, 1]});
        assert_eq!(json(&value).flat(), "{\"a\": [True, None, 1]}");
    }
}
