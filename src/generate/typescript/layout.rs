//! TypeScript text: string literals, property names, regular expression
//! and object literals, and lines broken where prettier (default options)
//! breaks them, so generated modules pass `prettier --check`.

/// JSON as a TypeScript object literal in prettier's style: one property
/// a line, bare names where they are identifiers, trailing commas.
pub(crate) fn object_literal(value: &serde_json::Value, indent: &str) -> String {
    use serde_json::Value as Json;
    let inner = format!("{indent}  ");
    match value {
        Json::Object(map) if !map.is_empty() => {
            let mut out = String::from("{\n");
            for (key, value) in map {
                out.push_str(&format!("{inner}{}: {},\n", prop(key), object_literal(value, &inner)));
            }
            out.push_str(indent);
            out.push('}');
            out
        }
        Json::Array(items) if !items.is_empty() => {
            let mut out = String::from("[\n");
            for item in items {
                out.push_str(&format!("{inner}{},\n", object_literal(item, &inner)));
            }
            out.push_str(indent);
            out.push(']');
            out
        }
        scalar => serde_json::to_string(scalar).unwrap_or_default(),
    }
}

/// The widest line before a call's arguments go one per line (prettier's
/// default print width).
pub(crate) const WIDTH: usize = 80;

/// A line with a call (or signature) that is too wide, its first argument
/// list one argument a line, as prettier breaks it.
pub(crate) fn wrap(line: &str) -> String {
    if line.chars().count() <= WIDTH {
        return line.to_string();
    }
    // A line that is an array (`["pk", /^…$/, true],`) breaks its
    // elements; any other its first argument list.
    let bracket = line.trim_start().starts_with('[');
    let (opener, closer) = if bracket { ('[', ']') } else { ('(', ')') };
    let Some(open) = line.find(opener) else {
        return line.to_string();
    };
    let indent: String = line.chars().take_while(|c| *c == ' ').collect();
    let bytes: Vec<char> = line[open + 1..].chars().collect();
    let mut args = Vec::new();
    let mut current = String::new();
    let (mut depth, mut string, mut regex, mut class, mut escaped) = (0usize, false, false, false, false);
    let mut close = None;
    let mut previous = opener;
    for (i, &c) in bytes.iter().enumerate() {
        if escaped {
            escaped = false;
            current.push(c);
            continue;
        }
        match c {
            '\\' if string || regex => escaped = true,
            '"' if !regex => string = !string,
            '/' if !string && !regex && matches!(previous, '(' | '[' | ',') && current.trim().is_empty() => {
                regex = true
            }
            '[' if regex => class = true,
            ']' if regex => class = false,
            '/' if regex && !class => regex = false,
            '(' | '[' | '{' if !string && !regex => depth += 1,
            ')' | ']' | '}' if !string && !regex && depth > 0 => depth -= 1,
            c if c == closer && !string && !regex => {
                close = Some(i);
                break;
            }
            ',' if !string && !regex && depth == 0 => {
                args.push(std::mem::take(&mut current).trim().to_string());
                previous = c;
                continue;
            }
            _ => {}
        }
        if !c.is_whitespace() {
            previous = c;
        }
        current.push(c);
    }
    let Some(close) = close else {
        return line.to_string();
    };
    if !current.trim().is_empty() {
        args.push(current.trim().to_string());
    }
    let tail: String = bytes[close..].iter().collect();
    let mut out = format!("{}{opener}\n", &line[..open]);
    for arg in args {
        out.push_str(&format!("{indent}  {arg},\n"));
    }
    out.push_str(&format!("{indent}{tail}"));
    out
}

/// A TypeScript string literal: JSON's, which TypeScript reads alike.
pub(crate) fn quote(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_default()
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

/// A property name: bare when it is an identifier, quoted otherwise.
pub(crate) fn prop(name: &str) -> String {
    if is_identifier(name) {
        name.to_string()
    } else {
        quote(name)
    }
}

/// `.name` or `["Map#Name"]`.
pub(crate) fn access(name: &str) -> String {
    if is_identifier(name) {
        format!(".{name}")
    } else {
        format!("[{}]", quote(name))
    }
}

/// A regular expression literal of a matcher: `/` and line breaks escaped.
pub(crate) fn regex_literal(pattern: &str) -> String {
    let mut out = String::from("/");
    let mut escaped = false;
    for c in pattern.chars() {
        match c {
            '/' if !escaped => out.push_str("\\/"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            _ => out.push(c),
        }
        escaped = c == '\\' && !escaped;
    }
    out.push('/');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_quote_when_they_are_not_identifiers() {
        assert_eq!(prop("userId"), "userId");
        assert_eq!(prop("Map#Name"), "\"Map#Name\"");
        assert_eq!(access("GSI1-PK"), "[\"GSI1-PK\"]");
        assert_eq!(regex_literal("^a/b\\/c$"), "/^a\\/b\\/c$/");
        assert_eq!(regex_literal("^[^\\\\/]+$"), "/^[^\\\\\\/]+$/");
        let short = "  const a = _key(\"a\", b, /^x$/);";
        assert_eq!(wrap(short), short);
        let shape = r#"      ["pk", /^SCORE#[^#]+#[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])$/, true],"#;
        assert_eq!(
            wrap(shape),
            "      [\n        \"pk\",\n        /^SCORE#[^#]+#[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])$/,\n        true,\n      ],"
        );
        let long = r#"  const dayText = _key("day", params.day, /^[0-9]{4}-(?:0[1-9]|1[0-2])-[0-9]{2},(x)\/$/);"#;
        assert_eq!(
            wrap(long),
            "  const dayText = _key(\n    \"day\",\n    params.day,\n    /^[0-9]{4}-(?:0[1-9]|1[0-2])-[0-9]{2},(x)\\/$/,\n  );"
        );
    }
}
