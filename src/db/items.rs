//! `items(file)`: what one file declares, read from its tree alone — the
//! names a schema merges, and what a workspace-wide symbol search lists.

use crate::syntax::Span;
use crate::syntax::ast::{Item, SourceFile};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeclaredKind {
    Table,
    Index,
    Entity,
    Pattern,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declared {
    pub kind: DeclaredKind,
    pub name: String,
    /// The name as written.
    pub span: Span,
}

/// The declarations of one file, in source order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Items {
    pub declared: Vec<Declared>,
}

impl Items {
    pub fn of(tree: &SourceFile) -> Items {
        let mut declared = Vec::with_capacity(tree.items.len());
        let mut add = |kind, name: &crate::syntax::ast::Name| {
            if !name.text.is_empty() {
                declared.push(Declared {
                    kind,
                    name: name.text.to_string(),
                    span: name.span,
                });
            }
        };
        for item in &tree.items {
            match item {
                Item::Table(table) => {
                    add(DeclaredKind::Table, &table.name);
                    for index in &table.indexes {
                        add(DeclaredKind::Index, &index.name);
                    }
                }
                Item::Entity(entity) => add(DeclaredKind::Entity, &entity.name),
                Item::Pattern(pattern) => add(DeclaredKind::Pattern, &pattern.name),
            }
        }
        Items { declared }
    }

    pub fn named(&self, name: &str) -> impl Iterator<Item = &Declared> {
        self.declared.iter().filter(move |d| d.name == name)
    }
}
