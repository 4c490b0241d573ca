//! Exports: the analysed schema as another tool's input. Pure functions
//! from the analysis to values and text, shared by `dyno export` and
//! anything else that wants them (the language server, generators).

pub mod cloudformation;
pub mod workbench;

use serde_json::{Value as Json, json};

use crate::check::model::Projection;
use crate::syntax::ast::KeyType;

/// The DynamoDB scalar type letter of a key attribute.
fn scalar_type(ty: KeyType) -> &'static str {
    match ty {
        KeyType::String => "S",
        KeyType::Number => "N",
        KeyType::Binary => "B",
    }
}

/// An index's projection, as both CloudFormation and Workbench spell it.
fn projection(projection: &Projection) -> Json {
    match projection {
        Projection::All => json!({ "ProjectionType": "ALL" }),
        Projection::KeysOnly => json!({ "ProjectionType": "KEYS_ONLY" }),
        Projection::Include(names) => json!({ "ProjectionType": "INCLUDE", "NonKeyAttributes": names }),
    }
}
