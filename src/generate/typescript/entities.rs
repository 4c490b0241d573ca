//! Per entity: the record type, the descriptor that decoding and
//! identification read, the shard completion, the key builder, the put and
//! the decoder.

use super::{EntityNames, Locals, Module, WIDTH, access, prop, quote, regex_literal, ts_type, wrap};
use crate::check::model::AttrType;
use crate::generate::api::{EntityApi, KeyBuild, Segment};
use crate::generate::names;

impl Module<'_> {
    pub(super) fn entity(&mut self, entity: &EntityApi, names: &EntityNames) {
        self.helpers.insert("entity");
        self.line("");
        if let Some(docs) = &entity.docs {
            self.doc("", docs);
        }
        self.line(&format!("export interface {} {{", names.record));
        for field in &entity.fields {
            let optional = field.optional || matches!(field.ty, AttrType::Shard { .. });
            match &field.ty {
                AttrType::Shard { count, of: None } => {
                    self.line(&format!(
                        "  /** A write shard, 0 to {}: drawn at random when absent. */",
                        count.saturating_sub(1)
                    ));
                }
                AttrType::Shard { of: Some(source), .. } => {
                    self.line(&format!("  /** Always computed from `{source}`. */"));
                }
                _ => {}
            }
            self.line(&format!(
                "  {}{}: {};",
                prop(&field.name),
                if optional { "?" } else { "" },
                ts_type(&field.ty)
            ));
        }
        self.line("}");

        // The descriptor decoding and identification read.
        self.line("");
        self.line(&format!("const {}: _Entity = {{", names.descriptor));
        self.line(&format!("  name: {},", quote(&entity.name)));
        self.line("  fields: [");
        for field in &entity.fields {
            self.line(&wrap(&format!(
                "    [{}, {}, {}],",
                quote(&field.name),
                field_type(&field.ty),
                field.optional
            )));
        }
        self.line("  ],");
        self.line("  shapes: [");
        for shape in &entity.shapes {
            self.line("    [");
            for key in &shape.keys {
                self.line(&wrap(&format!(
                    "      [{}, {}, {}],",
                    quote(&key.attr),
                    regex_literal(&key.matcher),
                    key.base
                )));
            }
            self.line("    ],");
        }
        self.line("  ],");
        self.line("};");

        let record = &names.record;
        let source = if let Some(complete) = &names.complete {
            self.complete(entity, record, complete);
            "full"
        } else {
            "record"
        };

        // keys
        let several = entity.shapes.len() > 1;
        self.line("");
        self.line(&format!(
            "/** Every key attribute of {} item{}, from its templates; a value not in its type's language is refused. */",
            article(&entity.name),
            if several { "s (one per item it writes)" } else { "" }
        ));
        self.line(&format!(
            "export function {}(record: {record}): {} {{",
            names.keys,
            if several { "Item[]" } else { "Item" }
        ));
        if let Some(complete) = &names.complete {
            self.line(&format!("  const full = {complete}(record);"));
        }
        let mut locals = Locals::default();
        let mut used: Vec<&str> = Vec::new();
        for shape in &entity.shapes {
            for key in &shape.keys {
                for part in &key.parts {
                    if let Segment::Value(name) = part
                        && !used.contains(&name.as_str())
                    {
                        used.push(name);
                    }
                }
            }
        }
        for name in &used {
            let Some(field) = entity.fields.iter().find(|f| &f.name == name) else {
                continue;
            };
            let var = locals.text_var(name);
            let value = format!("{source}{}", access(name));
            let text = self.checked_text(field, &value);
            if field.optional {
                let one = format!("  const {var} = {value} === undefined ? undefined : {text};");
                if one.len() <= WIDTH {
                    self.line(&one);
                } else {
                    // As prettier breaks it: the condition, then each branch.
                    self.line(&format!("  const {var} ="));
                    self.line(&format!("    {value} === undefined"));
                    self.line("      ? undefined");
                    let branch = wrap(&format!("        {text};"));
                    self.line(&format!("      : {}", &branch[8..]));
                }
            } else {
                self.line(&wrap(&format!("  const {var} = {text};")));
            }
        }
        let mut results = Vec::new();
        for (i, shape) in entity.shapes.iter().enumerate() {
            let var = if several {
                format!("keys{i}")
            } else {
                "keys".to_string()
            };
            let (always, sparse): (Vec<&KeyBuild>, Vec<&KeyBuild>) =
                shape.keys.iter().partition(|k| optional_parts(entity, k).is_empty());
            self.line(&format!("  const {var}: Item = {{"));
            for key in always {
                let value = self.key_value(key, &locals);
                self.line(&format!("    {}: {value},", prop(&key.attr)));
            }
            self.line("  };");
            for key in sparse {
                let condition = optional_parts(entity, key)
                    .iter()
                    .map(|n| format!("{} !== undefined", locals.get(n)))
                    .collect::<Vec<_>>()
                    .join(" && ");
                let value = self.key_value(key, &locals);
                self.line(&format!("  if ({condition}) {{"));
                self.line(&format!("    {var}{} = {value};", access(&key.attr)));
                self.line("  }");
            }
            results.push(var);
        }
        if several {
            self.line(&format!("  return [{}];", results.join(", ")));
        } else {
            self.line("  return keys;");
        }
        self.line("}");

        // put
        self.imports.insert("PutItemCommand");
        self.helpers.insert("attributes");
        self.line("");
        self.line(&format!(
            "/** PutItem of {}: its keys, then each attribute under its own name. */",
            article(&entity.name)
        ));
        self.line(&wrap(&format!(
            "export async function {}(table: Table, record: {record}): Promise<void> {{",
            names.put
        )));
        let full = match &names.complete {
            Some(complete) => {
                self.line(&format!("  const full = {complete}(record);"));
                "full"
            }
            None => "record",
        };
        let keys = if several {
            format!("{}({full})", names.keys)
        } else {
            format!("[{}({full})]", names.keys)
        };
        self.line(&format!("  for (const keys of {keys}) {{"));
        self.line("    await table.client.send(");
        self.line("      new PutItemCommand({");
        self.line("        TableName: table.name ?? TABLE_NAME,");
        self.line(&format!(
            "        Item: _attributes({full}, {}.fields, keys),",
            names.descriptor
        ));
        self.line("      }),");
        self.line("    );");
        self.line("  }");
        self.line("}");

        // decode
        self.helpers.insert("decode");
        self.line("");
        self.line(&format!(
            "/** {} item as its record; a required attribute missing is an error. */",
            names::capitalized(&article(&entity.name))
        ));
        self.line(&format!("export function {}(item: Item): {record} {{", names.decode));
        self.line(&format!(
            "  return _decode(item, {}, true) as unknown as {record};",
            names.descriptor
        ));
        self.line("}");
    }

    /// The record with its shard attributes set: a random one drawn when
    /// absent, a calculated one computed from its source.
    fn complete(&mut self, entity: &EntityApi, record: &str, name: &str) {
        self.line("");
        self.line("/** The record with its write shards: drawn at random when absent, computed from their source. */");
        self.line(&format!("function {name}(record: {record}): {record} {{"));
        self.line("  return {");
        self.line("    ...record,");
        for field in &entity.fields {
            let AttrType::Shard { count, of } = &field.ty else {
                continue;
            };
            let value = format!("record{}", access(&field.name));
            let computed = match of {
                None => {
                    self.helpers.insert("random");
                    format!("{value} ?? _random({count})")
                }
                Some(source) => {
                    self.helpers.insert("shard");
                    self.helpers.insert("calculated");
                    let source_field = entity.fields.iter().find(|f| &f.name == source);
                    let source_value = format!("record{}", access(source));
                    let text = match source_field {
                        Some(f) => self.checked_text(f, &source_value),
                        None => format!("String({source_value})"),
                    };
                    let calculated = format!(
                        "_calculated({}, {value}, _shardOf({text}, {count}))",
                        quote(&field.name)
                    );
                    if source_field.is_some_and(|f| f.optional) {
                        format!("{source_value} === undefined ? undefined : {calculated}")
                    } else {
                        calculated
                    }
                }
            };
            self.line(&wrap(&format!("    {}: {computed},", prop(&field.name))));
        }
        self.line("  };");
        self.line("}");
    }
}

/// The optional fields a key's template needs: without them the key is
/// left out (a sparse index).
fn optional_parts<'e>(entity: &'e EntityApi, key: &KeyBuild) -> Vec<&'e str> {
    let mut out = Vec::new();
    for part in &key.parts {
        if let Segment::Value(name) = part
            && let Some(field) = entity.fields.iter().find(|f| &f.name == name && f.optional)
            && !out.contains(&field.name.as_str())
        {
            out.push(field.name.as_str());
        }
    }
    out
}

/// A field's `FieldType` in the runtime's terms.
fn field_type(ty: &AttrType) -> String {
    match ty {
        AttrType::Int { .. } | AttrType::Epoch(_) | AttrType::Shard { .. } => quote("int"),
        AttrType::Decimal => quote("decimal"),
        AttrType::Bool => quote("bool"),
        AttrType::Binary => quote("binary"),
        AttrType::List => quote("list"),
        AttrType::Map => quote("map"),
        AttrType::Enum(words) => format!("[{}]", words.iter().map(|w| quote(w)).collect::<Vec<_>>().join(", ")),
        _ => quote("string"),
    }
}

/// `a Score`, `an Invoice`.
fn article(name: &str) -> String {
    let vowel = name.chars().next().is_some_and(|c| "AEIOUaeiou".contains(c));
    format!("{} {name}", if vowel { "an" } else { "a" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entity_name_takes_its_article() {
        assert_eq!(article("Invoice"), "an Invoice");
        assert_eq!(article("Score"), "a Score");
    }
}
