//! Schema names as identifiers of the generated languages. A schema name
//! may be anything DynamoDB allows (`"GSI1-PK"`, `"State#Date"`), so names
//! are split into words and joined in each language's convention; the
//! DynamoDB name itself stays in the generated strings.

/// `userId` → `user`, `id`; `GSI1-PK` → `gsi1`, `pk`; `HTTPServer` →
/// `http`, `server`. Words are lowercase ASCII letters and digits.
pub fn words(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut words = Vec::new();
    let mut word = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_ascii_alphanumeric() {
            if !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            continue;
        }
        let prev = i.checked_sub(1).map(|p| chars[p]);
        let next = chars.get(i + 1).copied();
        let boundary = c.is_ascii_uppercase()
            && prev.is_some_and(|p| {
                p.is_ascii_lowercase()
                    || p.is_ascii_digit()
                    || (p.is_ascii_uppercase() && next.is_some_and(|n| n.is_ascii_lowercase()))
            });
        if boundary && !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
        word.push(c.to_ascii_lowercase());
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// `user_id`; a leading digit gets a `_`.
pub fn snake(name: &str) -> String {
    guard(words(name).join("_"))
}

/// `userId`.
pub fn camel(name: &str) -> String {
    let mut out = String::new();
    for (i, word) in words(name).iter().enumerate() {
        if i == 0 {
            out.push_str(word);
        } else {
            out.push_str(&capitalized(word));
        }
    }
    guard(out)
}

/// `UserId`.
pub fn pascal(name: &str) -> String {
    guard(words(name).iter().map(|w| capitalized(w)).collect())
}

/// `word` with its first letter upper case.
pub fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_ascii_uppercase().to_string() + chars.as_str(),
        None => String::new(),
    }
}

/// Never empty, never starting with a digit.
fn guard(ident: String) -> String {
    if ident.is_empty() || ident.starts_with(|c: char| c.is_ascii_digit()) {
        format!("_{ident}")
    } else {
        ident
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_split_into_words() {
        assert_eq!(words("userId"), ["user", "id"]);
        assert_eq!(words("GSI1-PK"), ["gsi1", "pk"]);
        assert_eq!(words("HTTPServer"), ["http", "server"]);
        assert_eq!(words("State#Date"), ["state", "date"]);
        assert_eq!(snake("tenantEverything"), "tenant_everything");
        assert_eq!(camel("GSI1-PK"), "gsi1Pk");
        assert_eq!(pascal("audit_event"), "AuditEvent");
        assert_eq!(snake("1st"), "_1st");
        assert_eq!(snake("#"), "_");
    }
}
