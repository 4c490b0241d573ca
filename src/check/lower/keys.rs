//! Keys of several attributes: since November 2025 a global secondary
//! index may compose its partition key and its sort key of up to four
//! top-level attributes each, typed S, N or B, without concatenation
//! ("Multi-attribute keys pattern",
//! https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.DesignPattern.MultiAttributeKeys.html).
//! A table's own key and a local index's key stay one attribute per side.

use std::collections::HashMap;

use super::key_attr;
use crate::check::model::{AttrType, Entity, ItemShape, KeyAttr, KeySchema, Table};
use crate::diagnostic::{Code, Diagnostic};
use crate::syntax::FileId;
use crate::syntax::ast::{self, KeyType};

/// Attributes per side of a multi-attribute GSI key.
pub const MAX_KEY_ATTRIBUTES: usize = 4;

/// What declares a key, for what it allows.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum KeyOwner {
    Table,
    LocalIndex,
    GlobalIndex,
}

/// One side of a key (`partition` or `sort`): its first attribute and the
/// further ones of a multi-attribute GSI key. A list where DynamoDB allows
/// none, or of more than four, is E118 and keeps what DynamoDB would.
pub(super) fn lower_side(
    file: FileId,
    owner: KeyOwner,
    side: &str,
    part: &ast::KeyPart,
    diagnostics: &mut Vec<Diagnostic>,
) -> (KeyAttr, Vec<KeyAttr>) {
    let first = key_attr(part.first());
    let rest: Vec<KeyAttr> = part.attrs[1..].iter().map(key_attr).collect();
    if rest.is_empty() {
        return (first, rest);
    }
    let at = file.at(part.list.unwrap_or(part.first().name.span));
    let owner_name = match owner {
        KeyOwner::Table => "a table's",
        KeyOwner::LocalIndex => "a local index's",
        KeyOwner::GlobalIndex => {
            if part.attrs.len() <= MAX_KEY_ATTRIBUTES {
                return (first, rest);
            }
            diagnostics.push(
                Diagnostic::new(
                    Code::MultiAttributeKey,
                    at,
                    format!(
                        "this {side} key has {} attributes; DynamoDB composes a GSI key of at most \
                         {MAX_KEY_ATTRIBUTES} per side",
                        part.attrs.len()
                    ),
                )
                .with_help("drop attributes, or keep the finer ones in the sort key and filter the rest"),
            );
            return (first, rest.into_iter().take(MAX_KEY_ATTRIBUTES - 1).collect());
        }
    };
    diagnostics.push(
        Diagnostic::new(
            Code::MultiAttributeKey,
            at,
            format!(
                "{owner_name} {side} key is one attribute: only a global secondary index may compose a key \
                 of several attributes"
            ),
        )
        .with_help(match owner {
            KeyOwner::LocalIndex => "drop `local` to make it a global index, or name one attribute",
            _ => "name one attribute here, and declare a global index `index name ([a, b], [c, d])` for the Query",
        }),
    );
    (first, Vec::new())
}

/// E118 for an attribute named twice in one multi-attribute key schema:
/// each KeySchemaElement names a different attribute.
pub(super) fn check_distinct(file: FileId, index: &ast::IndexDecl, diagnostics: &mut Vec<Diagnostic>) {
    let attrs: Vec<&ast::KeyAttr> = index.attrs().collect();
    if attrs.len() <= 2 {
        return;
    }
    for (i, attr) in attrs.iter().enumerate() {
        if let Some(first) = attrs[..i].iter().find(|a| a.name.text == attr.name.text) {
            diagnostics.push(
                Diagnostic::new(
                    Code::MultiAttributeKey,
                    file.at(attr.name.span),
                    format!(
                        "`{}` is named twice in index `{}`'s key: each key attribute is a different attribute",
                        attr.name.text, index.name.text
                    ),
                )
                .with_related(file.at(first.name.span), "first named here"),
            );
        }
    }
}

/// E113 for a key attribute declared with two types in one table: a table
/// has one AttributeDefinition per attribute, so its key schemas (the
/// table's and every index's) agree on each attribute's type.
pub(super) fn check_key_types_agree(file: FileId, access: &[KeySchema], diagnostics: &mut Vec<Diagnostic>) {
    // Each name's first declaration, and whether a conflict was reported.
    let mut first: HashMap<&str, (&KeyAttr, bool)> = HashMap::new();
    for key in access.iter().flat_map(KeySchema::key_attributes) {
        let (first, reported) = first.entry(&key.name).or_insert((key, false));
        if first.ty == key.ty || *reported {
            continue;
        }
        *reported = true;
        diagnostics.push(
            Diagnostic::new(
                Code::InvalidTable,
                file.at(key.span),
                format!(
                    "`{}` is a {} key here but a {} key elsewhere: a table defines each attribute's type once \
                     (AttributeDefinitions)",
                    key.name,
                    key_type_name(key.ty),
                    key_type_name(first.ty)
                ),
            )
            .with_related(file.at(first.span), "declared here with the other type"),
        );
    }
}

/// How DynamoDB stores an attribute of this type: `None` for a type no key
/// attribute can have (a bool is BOOL; a list or map is not scalar).
pub fn stored_key_type(ty: &AttrType) -> Option<KeyType> {
    // As the attribute is written (an `epoch` or a `shard` is a Number).
    match ty.stored_kind() {
        "N" => Some(KeyType::Number),
        "B" => Some(KeyType::Binary),
        "S" => Some(KeyType::String),
        _ => None,
    }
}

fn key_type_name(ty: KeyType) -> &'static str {
    match ty {
        KeyType::String => "string",
        KeyType::Number => "number",
        KeyType::Binary => "binary",
    }
}

/// E119: an attribute that is itself an index's key attribute (no template)
/// is stored with its own type, and DynamoDB rejects a write whose key
/// attribute has another type than the key schema's AttributeDefinitions.
pub(super) fn check_plain_key_types(
    entity: &Entity,
    table: &Table,
    item: &ItemShape,
    diagnostics: &mut Vec<Diagnostic>,
) {
    for kv in item.keys.iter().filter(|k| k.implicit) {
        let Some(key) = table.key_attributes().find(|k| k.name == kv.attr) else {
            continue;
        };
        let Some(attribute) = entity.attribute(&kv.attr) else {
            continue;
        };
        let stored = stored_key_type(&attribute.ty);
        if stored == Some(key.ty) {
            continue;
        }
        let stored_as = match stored {
            Some(ty) => format!("stored as a {}", key_type_name(ty)),
            None => "which no key attribute can hold (keys are string, number or binary)".to_string(),
        };
        let help = match key.ty {
            KeyType::Number => "declare the attribute `int` or `decimal`, or the key `: string`",
            KeyType::Binary => "declare the attribute `binary`, or the key `: string`",
            KeyType::String => "declare the key with the attribute's type (`: number` for an `int`)",
        };
        diagnostics.push(
            Diagnostic::new(
                Code::KeyAttributeType,
                entity.at(attribute.ty_span),
                format!(
                    "`{}` is a {} key attribute of table `{}`, but `{}` declares it `{}`, {stored_as}: \
                     DynamoDB rejects the write",
                    kv.attr,
                    key_type_name(key.ty),
                    table.name.text,
                    entity.name.text,
                    attribute.ty.name()
                ),
            )
            .with_related(table.at(key.span), "the key attribute is declared here")
            .with_help(help),
        );
    }
}
