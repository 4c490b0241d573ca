//! Which old entity is which new one, and which old attribute is which new
//! one: by name, then by recognising renames. A rename is an unmatched old
//! declaration and an unmatched new one that are otherwise equal, as
//! `prisma migrate` tells a renamed column from a dropped and an added one.

use crate::check::model::{Attribute, Entity, EntityId, Model, Part};

/// The entities and attributes of two models, paired.
#[derive(Clone, Debug, Default)]
pub struct Pairing {
    /// `(old, new)`: the same entity, under the same or another name.
    pub entities: Vec<(EntityId, EntityId)>,
    /// Old entities with no counterpart.
    pub removed: Vec<EntityId>,
    /// New entities with no counterpart.
    pub added: Vec<EntityId>,
    /// `(old name, new name)` of every attribute renamed in a paired
    /// entity: a pattern's parameter is renamed with its attribute.
    pub attribute_renames: Vec<(String, String)>,
}

impl Pairing {
    pub fn new(old: &Model, new: &Model) -> Pairing {
        let mut pairing = Pairing::default();
        let mut unmatched_new: Vec<EntityId> = Vec::new();
        for (id, entity) in new.entity_ids() {
            match old.entity_named(&entity.name.text) {
                Some(old_id) => pairing.entities.push((old_id, id)),
                None => unmatched_new.push(id),
            }
        }
        let mut unmatched_old: Vec<EntityId> = old
            .entity_ids()
            .map(|(id, _)| id)
            .filter(|id| !pairing.entities.iter().any(|(o, _)| o == id))
            .collect();
        // Most alike first: the same attributes and the same key templates
        // is surely a rename; the same attributes only is a rename whose
        // keys also changed (and then a migration).
        for same_keys in [true, false] {
            unmatched_new.retain(|&new_id| {
                let found = unmatched_old
                    .iter()
                    .position(|&old_id| renamed(old, old.entity(old_id), new, new.entity(new_id), same_keys));
                match found {
                    Some(at) => {
                        pairing.entities.push((unmatched_old.remove(at), new_id));
                        false
                    }
                    None => true,
                }
            });
        }
        pairing.entities.sort_by_key(|&(_, new_id)| new_id);
        pairing.removed = unmatched_old;
        pairing.added = unmatched_new;
        for &(o, n) in &pairing.entities {
            let (a, b) = (old.entity(o), new.entity(n));
            for (i, j) in Attributes::new(a, b).renamed {
                let rename = (
                    a.attributes[i].name.text.to_string(),
                    b.attributes[j].name.text.to_string(),
                );
                if !pairing.attribute_renames.contains(&rename) {
                    pairing.attribute_renames.push(rename);
                }
            }
        }
        pairing
    }

    /// The new entity paired with `old`.
    pub fn new_of(&self, old: EntityId) -> Option<EntityId> {
        self.entities.iter().find(|(o, _)| *o == old).map(|&(_, n)| n)
    }

    /// The old entity paired with `new`.
    pub fn old_of(&self, new: EntityId) -> Option<EntityId> {
        self.entities.iter().find(|(_, n)| *n == new).map(|&(o, _)| o)
    }
}

/// Whether two differently named entities are one renamed: in the same
/// table, with equal attributes and, if `same_keys`, equal key templates.
fn renamed(old: &Model, a: &Entity, new: &Model, b: &Entity, same_keys: bool) -> bool {
    let table = |m: &Model, e: &Entity| e.table.map(|t| m.table(t).name.text.to_string());
    if table(old, a) != table(new, b) || a.attributes.len() != b.attributes.len() || a.attributes.is_empty() {
        return false;
    }
    let same_attributes = a
        .attributes
        .iter()
        .zip(&b.attributes)
        .all(|(x, y)| alike(x, y) && x.name.text == y.name.text);
    if !same_attributes {
        return false;
    }
    !same_keys || key_texts(a) == key_texts(b)
}

/// Two attributes that differ at most in their name.
pub fn alike(a: &Attribute, b: &Attribute) -> bool {
    a.ty == b.ty && a.optional == b.optional
}

fn key_texts(entity: &Entity) -> Vec<Vec<(String, String)>> {
    entity
        .items
        .iter()
        .map(|item| {
            item.keys
                .iter()
                .map(|k| (k.attr.to_string(), k.template.text()))
                .collect()
        })
        .collect()
}

/// Old attribute name → new attribute name for one pair of entities: the
/// same name, or a rename (an old attribute gone and a new one alike in
/// type and optionality, taken in declaration order).
#[derive(Clone, Debug, Default)]
pub struct Attributes {
    /// `(old position, new position)`.
    pub pairs: Vec<(usize, usize)>,
    /// Of the pairs, those whose names differ.
    pub renamed: Vec<(usize, usize)>,
    pub removed: Vec<usize>,
    pub added: Vec<usize>,
}

impl Attributes {
    pub fn new(old: &Entity, new: &Entity) -> Attributes {
        let mut out = Attributes::default();
        let mut unmatched_old = Vec::new();
        for (i, a) in old.attributes.iter().enumerate() {
            match new.attribute_id(&a.name.text) {
                Some(j) => out.pairs.push((i, j)),
                None => unmatched_old.push(i),
            }
        }
        let mut unmatched_new: Vec<usize> = (0..new.attributes.len())
            .filter(|j| !out.pairs.iter().any(|(_, n)| n == j))
            .collect();
        // A rename keeps the attribute's place in the templates: an old
        // hole and a new hole at the same position of the same key are the
        // strongest evidence, so those pair first; then alike declarations.
        for (i, j) in same_hole_positions(old, new) {
            if unmatched_old.contains(&i) && unmatched_new.contains(&j) && alike(&old.attributes[i], &new.attributes[j])
            {
                unmatched_old.retain(|&x| x != i);
                unmatched_new.retain(|&x| x != j);
                out.pairs.push((i, j));
                out.renamed.push((i, j));
            }
        }
        unmatched_old.retain(|&i| {
            let found = unmatched_new
                .iter()
                .position(|&j| alike(&old.attributes[i], &new.attributes[j]));
            match found {
                Some(at) => {
                    let j = unmatched_new.remove(at);
                    out.pairs.push((i, j));
                    out.renamed.push((i, j));
                    false
                }
                None => true,
            }
        });
        out.pairs.sort_by_key(|&(_, j)| j);
        out.removed = unmatched_old;
        out.added = unmatched_new;
        out
    }

    /// The new name of old attribute `old`, if it is still there.
    pub fn new_of(&self, old: usize) -> Option<usize> {
        self.pairs.iter().find(|(o, _)| *o == old).map(|&(_, n)| n)
    }
}

/// `(old attribute, new attribute)` in the same hole of the same key of
/// the same item shape.
fn same_hole_positions(old: &Entity, new: &Entity) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (a, b) in old.items.iter().zip(&new.items) {
        for key in &a.keys {
            let Some(other) = b.key(&key.attr) else { continue };
            let holes = |parts: &[Part]| -> Vec<Option<usize>> {
                parts
                    .iter()
                    .filter_map(|p| match p {
                        Part::Hole { attr, .. } => Some(*attr),
                        Part::Literal { .. } => None,
                    })
                    .collect()
            };
            let (x, y) = (holes(&key.template.parts), holes(&other.template.parts));
            if x.len() == y.len() {
                out.extend(x.into_iter().zip(y).filter_map(|(i, j)| Some((i?, j?))));
            }
        }
    }
    out
}
