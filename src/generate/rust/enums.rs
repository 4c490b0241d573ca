//! The enum types of the attributes: one per distinct value list, with its
//! stored text (`as_str`), parsing and `Display`.

use super::Module;
use super::writer::Writer;
use crate::generate::names;

pub(super) fn enums(module: &Module, out: &mut Writer) {
    for (values, name) in module.enums.clone() {
        let variants = variants(&values);
        out.blank();
        let listed: Vec<String> = values.iter().map(|v| format!("`{v}`")).collect();
        out.line(&format!("/// One of {}.", listed.join(", ")));
        out.line("#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]");
        out.open(&format!("pub enum {name} {{"));
        for variant in &variants {
            out.line(&format!("{variant},"));
        }
        out.close("}");
        out.blank();
        out.open(&format!("impl {name} {{"));
        out.line("/// The value as stored.");
        out.open("pub fn as_str(self) -> &'static str {");
        out.open("match self {");
        for (variant, value) in variants.iter().zip(&values) {
            out.line(&format!("{name}::{variant} => {value:?},"));
        }
        out.close("}");
        out.close("}");
        out.close("}");
        out.blank();
        out.open(&format!("impl std::str::FromStr for {name} {{"));
        out.line("type Err = Error;");
        out.blank();
        out.open("fn from_str(text: &str) -> Result<Self, Error> {");
        out.open("match text {");
        for (variant, value) in variants.iter().zip(&values) {
            out.line(&format!("{value:?} => Ok({name}::{variant}),"));
        }
        out.open("_ => Err(Error::Decode {");
        out.line(&format!("attribute: {name:?}.to_string(),"));
        out.line("message: format!(\"{text:?} is none of its values\"),");
        out.close("}),");
        out.close("}");
        out.close("}");
        out.close("}");
        out.blank();
        out.open(&format!("impl std::fmt::Display for {name} {{"));
        out.open("fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {");
        out.line("f.write_str(self.as_str())");
        out.close("}");
        out.close("}");
    }
}

/// `co-op` → `CoOp`, unique within the enum.
fn variants(values: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for value in values {
        let mut name = names::pascal(value);
        if name == "Self" {
            name.push('_');
        }
        while out.contains(&name) {
            name.push('_');
        }
        out.push(name);
    }
    out
}
