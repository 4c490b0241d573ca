//! What each pattern asks of the keys: the attributes it knows by equality
//! (the partition key and the front of the sort key), the one it reads a
//! range of or orders by (the next sort-key hole), whether it must find
//! exactly one item, and whether it must be read strongly consistent.

use crate::check::model::{AttrType, EntityId, Model, Pattern, PatternId};
use crate::syntax::ast::{CompareOp, KnownKind, Operation};

/// One pattern's demand on the keys of the entities it returns.
#[derive(Clone, Debug)]
pub struct Need {
    pub pattern: PatternId,
    pub entities: Vec<EntityId>,
    /// Known by equality (a parameter or a fixed value), in written order.
    pub equal: Vec<String>,
    /// The attribute read as a range or ordered by: the sort-key hole after
    /// the equalities.
    pub sorted: Option<String>,
    /// One item, or a read by whole primary key: the key is exactly the
    /// known values.
    pub exact: bool,
    /// Per returned entity: one item of it (`-> Tenant, User[]`: the
    /// tenant), which the known values identify.
    pub single: Vec<bool>,
    pub consistent: bool,
}

/// A pattern the designer does not design keys for, and why.
#[derive(Clone, Debug)]
pub struct Skipped {
    pub pattern: PatternId,
    pub why: String,
}

/// The needs of every pattern that reads by key, and the patterns no key
/// layout can serve as written.
pub fn needs(model: &Model) -> (Vec<Need>, Vec<Skipped>) {
    let mut needs = Vec::new();
    let mut skipped = Vec::new();
    for (id, pattern) in model.pattern_ids() {
        match need(model, id, pattern) {
            Ok(Some(need)) => needs.push(need),
            Ok(None) => {}
            Err(why) => skipped.push(Skipped { pattern: id, why }),
        }
    }
    (needs, skipped)
}

/// `Ok(None)` for a read that keys do not serve (a scan, a pinned Query,
/// which keeps its own).
fn need(model: &Model, id: PatternId, pattern: &Pattern) -> Result<Option<Need>, String> {
    if pattern.query.is_some() {
        return Ok(None);
    }
    let exact_read = match pattern.operation.as_ref().map(|(_, op)| op) {
        Some(Operation::Scan(_)) => return Ok(None),
        Some(Operation::Get | Operation::BatchGet) => true,
        None => false,
    };
    let Some(entities) = pattern.returns.iter().map(|r| r.entity).collect::<Option<Vec<_>>>() else {
        return Ok(None);
    };
    if entities.is_empty() {
        return Ok(None);
    }
    let mut equal = Vec::new();
    let mut ranged = Vec::new();
    for known in &pattern.known {
        let attr = known.attr.text.to_string();
        match known.kind {
            KnownKind::Equal | KnownKind::Fixed(_) | KnownKind::Compare(CompareOp::Eq, _) => {
                if !equal.contains(&attr) {
                    equal.push(attr)
                }
            }
            KnownKind::Compare(..) | KnownKind::Between(..) | KnownKind::BeginsWith(_) => {
                if !ranged.contains(&attr) {
                    ranged.push(attr)
                }
            }
        }
    }
    let order = pattern.order.as_ref().map(|o| o.attr.text.to_string());
    let sorted = match (ranged.as_slice(), order) {
        ([], order) => order,
        ([one], None) => Some(one.clone()),
        ([one], Some(order)) if *one == order => Some(order),
        ([one], Some(order)) => {
            return Err(format!(
                "it reads a range of `{one}` but orders by `{order}`: a Query orders by its sort key, where the range is read"
            ));
        }
        (several, _) => {
            return Err(format!(
                "it reads ranges of {}: a Query reads a range of one sort key",
                several
                    .iter()
                    .map(|a| format!("`{a}`"))
                    .collect::<Vec<_>>()
                    .join(" and ")
            ));
        }
    };
    for attr in equal.iter().chain(&sorted) {
        for &e in &entities {
            let entity = model.entity(e);
            let Some(attribute) = entity.attribute(attr) else {
                return Err(format!("`{}` has no attribute `{attr}` to key on", entity.name.text));
            };
            if attribute.ty.shape("#").is_none() {
                return Err(format!(
                    "`{attr}` of `{}` is a `{}`, which cannot be part of a key",
                    entity.name.text,
                    attribute.ty.name()
                ));
            }
            // A hole names an identifier (docs/language.md, Quoted names).
            if !crate::syntax::names::is_bare(attr) {
                return Err(format!(
                    "`{attr}` is not an identifier, and a key template's hole can only name one"
                ));
            }
        }
    }
    if let Some(attr) = &sorted
        && let Some(&e) = entities
            .iter()
            .find(|&&e| matches!(model.entity(e).attribute(attr).map(|a| &a.ty), Some(AttrType::Decimal)))
    {
        return Err(format!(
            "`{attr}` of `{}` is a `decimal`, whose text does not sort like its value: order by an `int(pad N)` (cents, say) instead",
            model.entity(e).name.text
        ));
    }
    // One item of one entity: the key must be exactly the known values. A
    // read of several entities (`-> Tenant, User[]`) is a collection.
    let exact = exact_read || matches!(pattern.returns.as_slice(), [one] if !one.many);
    Ok(Some(Need {
        pattern: id,
        entities,
        exact,
        single: pattern.returns.iter().map(|r| !r.many).collect(),
        sorted: if exact { None } else { sorted },
        equal,
        consistent: pattern.consistent.is_some(),
    }))
}
