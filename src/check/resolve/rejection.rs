//! Why a key schema cannot serve a pattern, or why what a Query matches is
//! not exactly what the pattern declares. Found as data where the resolver
//! looks; turned into text only where a diagnostic is built, so that what
//! reads a rejection (a fix, a help) never has to parse a message.

use super::range::show;
use crate::check::model::{EntityId, Model};
use crate::check::value::Value;

/// One reason, with what it is about.
#[derive(Clone, Debug, PartialEq)]
pub enum Rejection {
    /// A global index, and the pattern asks for `consistent`.
    ConsistentOnGlobalIndex,
    /// The partition key `pk` of `entity` has a hole, `attr`, that the
    /// pattern does not know.
    PartitionNeeds {
        pk: String,
        entity: EntityId,
        attr: String,
    },
    /// No item of `entity` writes the keys of the access path.
    NotInIndex {
        entity: EntityId,
    },
    /// Two returned entities with different partition key values.
    DifferentPartitions {
        first: (EntityId, Value),
        other: (EntityId, Value),
    },
    ReturnsNothing,
    /// No sort key, and the pattern has a range on `attr`.
    NoSortKeyForRange {
        attr: String,
    },
    /// No sort key, and the pattern orders by `attr`.
    NoSortKeyForOrder {
        attr: String,
    },
    /// `by order` needs `{order}` right after `prefix` in the sort key `sk`
    /// of `entity`, where `first` is.
    OrderNotNext {
        order: String,
        prefix: Value,
        sk: String,
        entity: EntityId,
        first: String,
    },
    /// The pattern orders, but the sort key `sk` of `entity` is fully known.
    NothingToOrder {
        sk: String,
        entity: EntityId,
    },
    /// A range needs every returned entity's sort key to be the same up to
    /// the ranged hole.
    RangePrefixesDiffer {
        ranged: String,
        first: (EntityId, Value),
        other: (EntityId, Value),
    },
    /// The ranged attribute is not in the sort key `sk` of `entity`.
    RangeNotOnSortKey {
        ranged: String,
        sk: String,
        entity: EntityId,
    },
    /// The range needs `{ranged}` right after `prefix` in the sort key `sk`
    /// of `entity`, where `first` is.
    RangeNotNext {
        ranged: String,
        prefix: Value,
        sk: String,
        entity: EntityId,
        first: String,
    },
    /// `by attr`, and `attr` is an unpadded number in `entity`'s sort key.
    UnpaddedOrder {
        attr: String,
        entity: EntityId,
    },
    /// `limit N` cuts the first page where key order is not `by` order.
    LimitOutOfOrder {
        limit: u64,
        order: OrderBreak,
    },
    /// A range of `attr`, an unpadded number in `entity`'s sort key.
    UnpaddedRange {
        attr: String,
        entity: EntityId,
    },
    /// A prefix of `attr` can go on with `byte`, which can also start what
    /// follows it in `entity`'s sort key.
    PrefixContinues {
        attr: String,
        entity: EntityId,
        byte: u8,
    },
    /// A value of `attr` can go on with `byte`, which sorts at or below
    /// `after`, the first byte after it in `entity`'s sort key.
    RangeContinues {
        attr: String,
        entity: EntityId,
        byte: u8,
        after: Option<u8>,
    },
    /// The known prefix ends with a value: no bound keeps the range inside it.
    PrefixEndsInValue {
        prefix: Value,
        attr: String,
    },
    /// `attr op …` cannot stay inside `prefix` with one condition.
    OneSided {
        attr: String,
        prefix: Value,
        op: &'static str,
        instead: &'static str,
    },
    /// The Query also returns these undeclared entities.
    AlsoReturns {
        entities: Vec<EntityId>,
    },
    /// A known `attr` that is in none of `entity`'s keys.
    NotInKeys {
        attr: String,
        entity: EntityId,
    },
    /// The condition matches an item whose known attribute differs.
    Unpinned(Box<Unpinned>),
    /// The pattern returns one `entity`, the Query several.
    SeveralItems {
        entity: EntityId,
    },
    /// A single `entity` read over every shard of `attr`: each of the
    /// `count` Queries can return one.
    OnePerShard {
        entity: EntityId,
        attr: String,
        count: u32,
    },
    /// A rule of multi-attribute keys the pattern breaks, said in full.
    MultiAttribute(String),
}

/// A key condition that matches an item of `entity` whose `attr` is not
/// the caller's value: `witness` is such a key, `instance` the condition
/// with the caller's values filled in.
#[derive(Clone, Debug, PartialEq)]
pub struct Unpinned {
    pub entity: EntityId,
    /// The key attribute the condition tests.
    pub key: String,
    pub condition: Value,
    /// Whether the condition is a `begins_with` (else an equality).
    pub prefix: bool,
    pub instance: String,
    pub attr: String,
    pub witness: String,
}

/// Why key order is not `attr` order: a value of `attr` can go on with
/// `byte`, which sorts at or below what follows it in `entity`'s sort key.
#[derive(Clone, Debug, PartialEq)]
pub struct OrderBreak {
    pub attr: String,
    pub entity: EntityId,
    pub byte: u8,
}

impl OrderBreak {
    fn why(&self, model: &Model) -> String {
        let (attr, entity, byte) = (&self.attr, name(model, self.entity), self.byte);
        format!(
            "a `{attr}` can go on with {} (`ab`, `ab{}…`), which sorts at or below what follows `{{{attr}}}` in the sort key of `{entity}`, so `ab{}…` comes before `ab`",
            show(byte),
            byte as char,
            byte as char
        )
    }

    /// The warning when no `limit` makes it an error.
    pub fn caveat(&self, model: &Model) -> String {
        let attr = &self.attr;
        format!(
            "`by {attr}` returns items in key order, which is not always `{attr}` order: {}",
            self.why(model)
        )
    }
}

fn name(model: &Model, entity: EntityId) -> &str {
    &model.entity(entity).name.text
}

impl Rejection {
    pub fn render(&self, model: &Model) -> String {
        let name = |entity: &EntityId| name(model, *entity);
        match self {
            Rejection::ConsistentOnGlobalIndex => {
                "a global index is only eventually consistent, and the pattern asks for `consistent`".into()
            }
            Rejection::PartitionNeeds { pk, entity, attr } => format!(
                "the partition key `{pk}` of `{}` needs `{attr}`, which the pattern does not know",
                name(entity)
            ),
            Rejection::MultiAttribute(why) => why.clone(),
            Rejection::NotInIndex { entity } => format!("`{}` is not in it: no item writes its keys", name(entity)),
            Rejection::DifferentPartitions {
                first: (first_entity, first),
                other: (entity, value),
            } => format!(
                "the entities are in different partitions: `{}` has `{first}`, `{}` has `{value}`",
                name(first_entity),
                name(entity)
            ),
            Rejection::ReturnsNothing => "the pattern returns nothing".into(),
            Rejection::NoSortKeyForRange { attr } => format!("it has no sort key for the range on `{attr}`"),
            Rejection::NoSortKeyForOrder { attr } => format!("it has no sort key to order by `{attr}`"),
            Rejection::OrderNotNext {
                order,
                prefix,
                sk,
                entity,
                first,
            } => format!(
                "`by {order}` needs `{order}` right after `{prefix}` in the sort key `{sk}` of `{}`, but `{first}` comes first",
                name(entity)
            ),
            Rejection::NothingToOrder { sk, entity } => format!(
                "the sort key `{sk}` of `{}` is fully known, so there is nothing to order by",
                name(entity)
            ),
            Rejection::RangePrefixesDiffer {
                ranged,
                first: (first_entity, first_prefix),
                other: (entity, prefix),
            } => format!(
                "a range on `{ranged}` needs every returned entity's sort key to be the same up to `{{{ranged}}}`: `{}` has `{first_prefix}`, `{}` has `{prefix}`",
                name(first_entity),
                name(entity)
            ),
            Rejection::RangeNotOnSortKey { ranged, sk, entity } => format!(
                "the range on `{ranged}` is not on the sort key `{sk}` of `{}`",
                name(entity)
            ),
            Rejection::RangeNotNext {
                ranged,
                prefix,
                sk,
                entity,
                first,
            } => format!(
                "the range on `{ranged}` needs `{{{ranged}}}` right after `{prefix}` in the sort key `{sk}` of `{}`, but `{{{first}}}` comes first",
                name(entity)
            ),
            Rejection::UnpaddedOrder { attr, entity } => format!(
                "`by {attr}` returns items in key order, and `{attr}` is an unpadded number in the sort key of `{}`: `10` sorts before `9`; use `int(pad N)`",
                name(entity)
            ),
            Rejection::LimitOutOfOrder { limit, order } => format!(
                "`limit {limit}` returns the first {limit} items in key order, and key order is not `{attr}` order: {}",
                order.why(model),
                attr = order.attr
            ),
            Rejection::UnpaddedRange { attr, entity } => format!(
                "`{attr}` is an unpadded number in the sort key of `{}`, which compares as text: `10` sorts before `9`, so a range of keys is not a range of `{attr}` (and a BETWEEN can come out inverted, which DynamoDB rejects); use `int(pad N)`",
                name(entity)
            ),
            Rejection::PrefixContinues { attr, entity, byte } => format!(
                "in the sort key of `{}`, a `{attr}` can go on with {}, which can also start what follows `{{{attr}}}`: a prefix can then match the key of a shorter `{attr}`; {}",
                name(entity),
                show(*byte),
                continuation_fix(attr)
            ),
            Rejection::RangeContinues {
                attr,
                entity,
                byte,
                after,
            } => format!(
                "in the sort key of `{}`, a `{attr}` can go on with {} (`ab`, `ab{}…`), which sorts at or below {}, the first byte after `{{{attr}}}`: keys do not sort by `{attr}`, so no key condition selects a range of `{attr}` exactly; {}",
                name(entity),
                show(*byte),
                *byte as char,
                show(after.unwrap_or(0)),
                continuation_fix(attr)
            ),
            Rejection::PrefixEndsInValue { prefix, attr } => format!(
                "the known prefix `{prefix}` ends with a value, so no bound can keep the range on `{attr}` inside it"
            ),
            Rejection::OneSided {
                attr,
                prefix,
                op,
                instead,
            } => format!(
                "`{attr} {op} …` cannot be one key condition that stays inside `{prefix}`: DynamoDB's BETWEEN includes both ends; write `{attr} {instead} …`"
            ),
            Rejection::AlsoReturns { entities } => {
                // Each name once, in name order.
                let names: std::collections::BTreeSet<&str> = entities.iter().map(name).collect();
                let names: Vec<String> = names.into_iter().map(|n| format!("`{n}`")).collect();
                format!("it would also return {}", names.join(", "))
            }
            Rejection::NotInKeys { attr, entity } => format!(
                "`{attr}` is in none of its keys, so the Query cannot select on it: it would return `{}` items whatever their `{attr}`",
                name(entity)
            ),
            Rejection::Unpinned(unpinned) => unpinned.render(model),
            Rejection::OnePerShard { entity, attr, count } => {
                let name = name(entity);
                format!(
                    "the pattern returns one `{name}`, but it is read with one Query per `{attr}` ({count} of them), and a `{name}` with the known values can be written to each shard: return `{name}[]`, or compute the shard from a known value (`shard({count}, of ...)`)"
                )
            }
            Rejection::SeveralItems { entity } => {
                let name = name(entity);
                format!(
                    "it can return several `{name}` items, but the pattern returns one `{name}` (write `{name}[]`; `limit` sets a page size, it does not make a Query return one item)"
                )
            }
        }
    }
}

fn continuation_fix(attr: &str) -> String {
    format!(
        "make `{attr}` fixed-length, or follow it in the key with a literal that sorts below every byte it can contain"
    )
}

impl Unpinned {
    fn render(&self, model: &Model) -> String {
        let Unpinned {
            entity,
            key,
            condition,
            prefix,
            instance,
            attr,
            witness,
        } = self;
        let entity = name(model, *entity);
        let (written, instance) = match (condition.is_empty(), prefix) {
            (true, _) => (format!("any `{key}`"), String::new()),
            (false, true) => (
                format!("`begins_with({key}, \"{condition}\")`"),
                format!(" (`{instance}`)"),
            ),
            (false, false) => (format!("`{key} = \"{condition}\"`"), format!(" (`{instance}`)")),
        };
        format!(
            "{written}{instance} also matches the `{entity}` item with `{key}` = `{witness}`, whose `{attr}` is not the value the pattern gives: the Query does not pin `{attr}`"
        )
    }
}
