//! `dyno diff`: what a schema change does to the data already written.
//!
//! A room above `check`: both versions are checked schemas, and this module
//! only compares what the checker built (models, resolutions, template
//! languages); it never re-derives them. Each difference becomes a
//! [`Change`] of one [`Class`], located in the new file (or in the old one
//! for a removal), with the items it affects and the steps of the
//! migration. Rendering lives in `render`; counting items on a live table
//! in `count` (feature `verify`).

#[cfg(feature = "verify")]
pub mod count;
mod entities;
mod leaks;
mod pairing;
mod patterns;
pub mod render;
mod tables;

use crate::check::Schema;
use crate::check::model::EntityId;
use crate::syntax::FileSpan;

pub use pairing::Pairing;

/// One version of the schema: the checked schema and the text of each of
/// its files, by `FileId` (a change quotes the old line it replaces).
#[derive(Clone, Copy)]
pub struct Version<'a> {
    pub schema: &'a Schema,
    pub texts: &'a [&'a str],
}

/// What a change means for the data already in the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// Nothing existing is orphaned or misread.
    Safe,
    /// Only a name in the schema (and in generated code) changes.
    Rename,
    /// Existing items are orphaned or misread until they are rewritten.
    Migration,
    /// Only a new table can have the new key schema.
    NewTable,
    /// Code that reads with the old Query gets other items (or none).
    BreaksReaders,
}

impl Class {
    pub const ALL: [Class; 5] = [
        Class::Safe,
        Class::Rename,
        Class::Migration,
        Class::NewTable,
        Class::BreaksReaders,
    ];

    /// The stable name used in output and by `--allow`.
    pub fn name(self) -> &'static str {
        match self {
            Class::Safe => "safe",
            Class::Rename => "rename",
            Class::Migration => "migration",
            Class::NewTable => "new-table",
            Class::BreaksReaders => "breaks-readers",
        }
    }

    pub fn parse(name: &str) -> Option<Class> {
        Class::ALL.into_iter().find(|c| c.name() == name)
    }

    /// Whether the change fails `dyno diff` unless allowed.
    pub fn is_breaking(self) -> bool {
        matches!(self, Class::Migration | Class::NewTable | Class::BreaksReaders)
    }
}

/// Where a change is shown: a span of a file of the new schema, or of the
/// old one when the thing is gone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum At {
    New(FileSpan),
    Old(FileSpan),
}

/// The items a migration must rewrite: those an entity's item shape wrote
/// under the old schema, told apart by the old key templates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Affected {
    /// The entity in the old model.
    pub entity: EntityId,
    /// The item shape (position in the old entity's `items`).
    pub shape: usize,
    /// The entity's old name.
    pub name: String,
    /// The old table's name.
    pub table: String,
    /// `(key attribute, old template)` for each key the old item wrote.
    pub keys: Vec<(String, String)>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    pub class: Class,
    /// What changed: `entity User`, `table App`, `pattern byEmail`.
    pub subject: String,
    pub message: String,
    pub at: At,
    /// The old declaration this replaces (in the old schema), shown as a note.
    pub was: Option<FileSpan>,
    /// Which existing items this concerns.
    pub affected: Option<Affected>,
    /// What to do, in order.
    pub steps: Vec<String>,
}

impl Change {
    fn new(class: Class, subject: impl Into<String>, at: At, message: impl Into<String>) -> Change {
        Change {
            class,
            subject: subject.into(),
            message: message.into(),
            at,
            was: None,
            affected: None,
            steps: Vec::new(),
        }
    }

    fn was(mut self, span: FileSpan) -> Change {
        self.was = Some(span);
        self
    }

    fn steps(mut self, steps: impl IntoIterator<Item = String>) -> Change {
        self.steps.extend(steps);
        self
    }

    fn affecting(mut self, affected: Affected) -> Change {
        self.affected = Some(affected);
        self
    }
}

/// Every change from `old` to `new`, tables first, then entities, then
/// patterns, each in the new file's order.
pub fn diff(old: Version<'_>, new: Version<'_>) -> Vec<Change> {
    let pairing = Pairing::new(&old.schema.model, &new.schema.model);
    let mut changes = Vec::new();
    tables::compare(old, new, &mut changes);
    entities::compare(old, new, &pairing, &mut changes);
    patterns::compare(old, new, &pairing, &mut changes);
    changes
}

/// The text of a span of the version: `pk = "USER#{userId}"`.
fn quote<'a>(version: &Version<'a>, span: FileSpan) -> &'a str {
    let text = version.texts.get(span.file.index()).copied().unwrap_or("");
    text.get(span.span.start()..span.span.end()).unwrap_or("")
}
