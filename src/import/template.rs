//! Key templates as the importers build them: literal text and holes,
//! read from a model's key alias (`USER#{userId}`), matched against sample
//! key values, and written as a string literal.

use crate::syntax::names::push_escaped;
use crate::syntax::template::is_identifier;

/// A key template: literal text and holes naming attributes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template(pub Vec<Part>);

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part {
    Literal(String),
    Hole(String),
}

impl Template {
    /// `USER#{userId}` as a template, when it is one: at least one hole, every
    /// hole an identifier, braces balanced, no escapes.
    pub fn parse(text: &str) -> Option<Template> {
        if !text.contains('{') || text.contains('\\') || !super::entity::usable(text) {
            return None;
        }
        let mut parts = Vec::new();
        let mut rest = text;
        while let Some(open) = rest.find('{') {
            let (literal, after) = rest.split_at(open);
            if literal.contains('}') {
                return None;
            }
            if !literal.is_empty() {
                parts.push(Part::Literal(literal.to_string()));
            }
            let close = after.find('}')?;
            let name = &after[1..close];
            if !is_identifier(name) {
                return None;
            }
            parts.push(Part::Hole(name.to_string()));
            rest = &after[close + 1..];
        }
        if rest.contains('}') {
            return None;
        }
        if !rest.is_empty() {
            parts.push(Part::Literal(rest.to_string()));
        }
        Some(Template(parts))
    }

    /// The hole values of `value` under `template`, when it matches: each hole
    /// runs to the first occurrence of the literal after it (or to the end).
    pub fn captures(&self, value: &str) -> Option<Vec<String>> {
        let parts: Vec<Option<&str>> = self
            .0
            .iter()
            .map(|p| match p {
                Part::Literal(text) => Some(text.as_str()),
                Part::Hole(_) => None,
            })
            .collect();
        let values = crate::check::model::capture_holes(&parts, value)?;
        Some(values.into_iter().map(str::to_string).collect())
    }

    /// The template as a string literal, its literal text escaped.
    pub(super) fn written(&self) -> String {
        let mut out = String::from("\"");
        for part in &self.0 {
            match part {
                Part::Literal(text) => push_escaped(&mut out, text),
                Part::Hole(name) => {
                    out.push('{');
                    out.push_str(name);
                    out.push('}');
                }
            }
        }
        out.push('"');
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_parse_and_match() {
        let t = Template::parse("USER#{userId}#{at}").unwrap();
        assert_eq!(t.captures("USER#u1#2024"), Some(vec!["u1".into(), "2024".into()]));
        assert_eq!(t.captures("ORDER#u1#2024"), None);
        assert_eq!(Template::parse("USER#userId"), None);
        assert_eq!(Template::parse("{a b}"), None);
        let constant = Template::parse("{x}").unwrap();
        assert_eq!(constant.captures(""), None);
    }
}
