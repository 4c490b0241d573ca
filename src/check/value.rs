//! Key-condition values: literal text and the caller's parameters, e.g.
//! `TENANT#{tenantId}`. Each parameter has the shape of the attribute it
//! stands for, so a value has an exact language like a key template.

use std::cell::OnceCell;

use smol_str::SmolStr;

use super::lang;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ValuePart {
    Literal(SmolStr),
    /// A value the caller passes, by name, with the shape of its attribute.
    Param {
        name: SmolStr,
        shape: lang::Shape,
    },
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Value {
    pub parts: Vec<ValuePart>,
}

impl Value {
    pub fn literal(text: &str) -> Value {
        let mut value = Value::default();
        value.push_literal(text);
        value
    }

    /// Appends text, merging it with a literal before it, so that equal
    /// values compare equal.
    pub fn push_literal(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        if let Some(ValuePart::Literal(last)) = self.parts.last_mut() {
            *last = [last.as_str(), text].into_iter().collect();
        } else {
            self.push(ValuePart::Literal(SmolStr::new(text)));
        }
    }

    pub fn push_param(&mut self, name: &str, shape: lang::Shape) {
        self.push(ValuePart::Param {
            name: SmolStr::new(name),
            shape,
        });
    }

    /// A part more, in room for exactly that many: most values have one
    /// or two parts, and a list grown by pushing has room for four (224
    /// bytes), kept by every Query and every read.
    fn push(&mut self, part: ValuePart) {
        self.parts.reserve_exact(1);
        self.parts.push(part);
    }

    pub fn extend(&mut self, other: &Value) {
        for part in &other.parts {
            match part {
                ValuePart::Literal(text) => self.push_literal(text),
                ValuePart::Param { .. } => self.push(part.clone()),
            }
        }
    }

    pub fn is_empty(&self) -> bool {
        self.parts.is_empty()
    }

    /// The literal text before the first parameter.
    pub fn literal_head(&self) -> &str {
        match self.parts.first() {
            Some(ValuePart::Literal(text)) => text,
            _ => "",
        }
    }

    /// The whole value when it has no parameters.
    pub fn constant(&self) -> Option<&str> {
        match self.parts.as_slice() {
            [] => Some(""),
            [ValuePart::Literal(text)] => Some(text),
            _ => None,
        }
    }

    pub fn params(&self) -> impl Iterator<Item = &str> {
        self.parts.iter().filter_map(|p| match p {
            ValuePart::Param { name, .. } => Some(name.as_str()),
            ValuePart::Literal(_) => None,
        })
    }

    /// The exact set of strings this value can be.
    pub fn lang(&self) -> lang::Template {
        lang::Template::new(
            self.parts
                .iter()
                .map(|p| match p {
                    ValuePart::Literal(text) => lang::Part::Literal(text.clone()),
                    ValuePart::Param { shape, .. } => lang::Part::Hole(shape.clone()),
                })
                .collect(),
        )
    }

    /// The set of strings that begin with this value.
    pub fn prefix_lang(&self) -> lang::Template {
        let mut parts = self.lang().parts;
        parts.push(lang::Part::Hole(lang::Shape::String));
        lang::Template::new(parts)
    }
}

impl std::fmt::Display for Value {
    /// `TENANT#{tenantId}`: parameters in braces, as in templates.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for part in &self.parts {
            match part {
                ValuePart::Literal(text) => f.write_str(text)?,
                ValuePart::Param { name, .. } => write!(f, "{{{name}}}")?,
            }
        }
        Ok(())
    }
}

/// Can a key with this language begin with `value` (for some values of its
/// parameters)? A witness string when it can.
pub fn can_begin_with(template: &lang::Template, value: &Value) -> Option<String> {
    match value.constant() {
        Some(text) => template.can_begin_with(text),
        None => template
            .overlap(&value.lang())
            .or_else(|| template.overlap(&value.prefix_lang())),
    }
}

/// A value with its languages compiled once, to ask the questions of
/// [`can_equal`] and [`can_begin_with`] about many templates (without the
/// witness).
pub struct Prepared<'v> {
    /// The whole value when it has no parameters.
    constant: Option<String>,
    /// The value's language (empty for a constant).
    lang: lang::Template,
    /// Every string beginning with a value, built on first use.
    prefix_lang: OnceCell<lang::Template>,
    value: &'v Value,
}

impl<'v> Prepared<'v> {
    pub fn new(value: &'v Value) -> Prepared<'v> {
        let constant = value.constant().map(str::to_string);
        let lang = match &constant {
            Some(_) => lang::Template::default(),
            None => value.lang(),
        };
        Prepared {
            constant,
            lang,
            prefix_lang: OnceCell::new(),
            value,
        }
    }

    /// [`can_equal`]`(template, value).is_some()`.
    pub fn can_equal(&self, template: &lang::Template) -> bool {
        match &self.constant {
            Some(text) => template.can_equal(text),
            None => template.overlaps(&self.lang),
        }
    }

    /// [`can_begin_with`]`(template, value).is_some()`.
    pub fn can_begin_with(&self, template: &lang::Template) -> bool {
        match &self.constant {
            Some(text) => template.may_begin_with(text),
            None => {
                template.overlaps(&self.lang)
                    || template.overlaps(self.prefix_lang.get_or_init(|| self.value.prefix_lang()))
            }
        }
    }
}

pub fn can_equal(template: &lang::Template, value: &Value) -> Option<String> {
    match value.constant() {
        Some(text) => template.can_equal(text).then(|| text.to_string()),
        None => template.overlap(&value.lang()),
    }
}
