//! proptest strategies for syntax trees, with every span empty: trees
//! the parser could build (see `syntax/print.rs` for what that excludes),
//! for the printer's round-trip property.

use dyno::syntax::Span;
use dyno::syntax::ast::*;
use proptest::prelude::*;

fn name(pool: &'static [&'static str]) -> impl Strategy<Value = Name> {
    prop::sample::select(pool).prop_map(|text| Name::new(text, Span::default()))
}

/// Identifiers, contextual keywords among them; never `true`, `false`,
/// `and` or a hard keyword, which the grammar reads otherwise.
const NAMES: &[&str] = &[
    "a", "pk", "sk", "userId", "gsi1pk", "x_1", "é", "名前", "_t", "item", "key", "status",
];
const ENTITIES: &[&str] = &["User", "Order", "T", "Ñame", "E2"];

fn attr_name() -> impl Strategy<Value = Name> {
    name(NAMES)
}

/// Names DynamoDB allows that are not identifiers: written quoted.
const QUOTED_NAMES: &[&str] = &[
    "GSI1-PK",
    "State#Date",
    "orders-prod.v2",
    "a b",
    "table",
    "q\"{}\\",
    "-",
];

/// The name of a table, index, key or attribute: an identifier or a quoted
/// name.
fn dynamo_name() -> impl Strategy<Value = Name> {
    prop_oneof![3 => name(NAMES), 1 => name(QUOTED_NAMES)]
}

fn table_name() -> impl Strategy<Value = Name> {
    prop_oneof![3 => name(ENTITIES), 1 => name(QUOTED_NAMES)]
}

fn docs() -> impl Strategy<Value = Option<Box<Docs>>> {
    prop::option::of(
        prop::sample::select(&["doc", "two\nlines", "", "  indented", "/slash", "ünï 🎉"][..]).prop_map(|text| {
            Box::new(Docs {
                text: text.into(),
                span: Span::default(),
            })
        }),
    )
}

/// Literal text and holes; adjacent literal pieces are one segment, as the
/// parser reads them.
fn string_lit() -> impl Strategy<Value = StringLit> {
    let piece = prop_oneof![
        prop::sample::select(&["USER#", "A", "#", "x\"y", "{lit}", "ü🎉#", "a b  c", "\\"][..]).prop_map(|text| {
            Segment::Literal {
                text: text.into(),
                span: Span::default(),
            }
        }),
        attr_name().prop_map(|name| Segment::Hole {
            name,
            span: Span::default()
        }),
    ];
    prop::collection::vec(piece, 0..4).prop_map(|pieces| {
        let mut segments: Vec<Segment> = Vec::new();
        for piece in pieces {
            match (segments.last_mut(), piece) {
                (Some(Segment::Literal { text, .. }), Segment::Literal { text: more, .. }) => {
                    *text = [text.as_str(), more.as_str()].into_iter().collect()
                }
                (_, piece) => segments.push(piece),
            }
        }
        StringLit {
            span: Span::default(),
            segments,
        }
    })
}

fn rate_hint() -> impl Strategy<Value = RateHint> {
    prop::sample::select(&["1", "2500", "0.5"][..]).prop_map(|text| RateHint {
        span: Span::default(),
        per_second: text.parse().unwrap(),
        text: text.to_string(),
    })
}

fn size_hint() -> impl Strategy<Value = SizeHint> {
    let amount = prop::sample::select(&[0.0, 1.5, 20.0, 300.0, 1500.0, 0.25][..]);
    let unit = prop::sample::select(
        &[
            SizeUnit::None,
            SizeUnit::Bytes,
            SizeUnit::KiloBytes,
            SizeUnit::MegaBytes,
        ][..],
    );
    (amount, unit).prop_map(|(amount, unit)| SizeHint {
        span: Span::default(),
        amount,
        unit,
    })
}

fn key_attr() -> impl Strategy<Value = KeyAttr> {
    let ty = prop::sample::select(&[KeyType::String, KeyType::Number, KeyType::Binary][..]);
    (dynamo_name(), prop::option::of(ty)).prop_map(|(name, ty)| KeyAttr {
        name,
        ty: ty.map(|ty| (ty, Span::default())),
    })
}

/// One attribute, or a list of one to five (the printer writes what the
/// checker would reject too: lists on table keys, five attributes).
fn key_part() -> impl Strategy<Value = KeyPart> {
    prop_oneof![
        3 => key_attr().prop_map(KeyPart::single),
        1 => prop::collection::vec(key_attr(), 1..6).prop_map(|attrs| KeyPart {
            attrs,
            list: Some(Span::default()),
        }),
    ]
}

fn table() -> impl Strategy<Value = Item> {
    let key = (key_part(), prop::option::of(key_part())).prop_map(|(partition, sort)| KeyDecl {
        span: Span::default(),
        partition,
        sort,
    });
    let projection = prop_oneof![
        Just(Projection::Default),
        Just(Projection::All(Span::default())),
        Just(Projection::KeysOnly(Span::default())),
        prop::collection::vec(dynamo_name(), 0..3).prop_map(|names| Projection::Include(Span::default(), names)),
    ];
    let index = (
        docs(),
        any::<bool>(),
        dynamo_name(),
        key_part(),
        prop::option::of(key_part()),
        projection,
    )
        .prop_map(|(docs, local, name, partition, sort, projection)| IndexDecl {
            span: Span::default(),
            docs,
            local,
            name,
            partition,
            sort,
            projection,
        });
    let delimiter = string_lit().prop_map(|value| DelimiterDecl {
        span: Span::default(),
        value,
    });
    let ttl = dynamo_name().prop_map(|attribute| TtlDecl {
        span: Span::default(),
        attribute,
    });
    (
        docs(),
        table_name(),
        prop::collection::vec(key, 0..3),
        prop::collection::vec(index, 0..3),
        prop::collection::vec(delimiter, 0..2),
        prop::collection::vec(ttl, 0..2),
    )
        .prop_map(|(docs, name, keys, indexes, delimiters, ttls)| {
            Item::Table(Table {
                span: Span::default(),
                docs,
                name,
                keys,
                indexes,
                delimiters,
                ttls,
            })
        })
}

fn key_template() -> impl Strategy<Value = KeyTemplate> {
    (docs(), dynamo_name(), string_lit()).prop_map(|(docs, key, template)| KeyTemplate {
        span: Span::default(),
        docs,
        key,
        template,
    })
}

fn entity() -> impl Strategy<Value = Item> {
    let arg = prop_oneof![
        (0..1_000u32).prop_map(|width| TypeArg::Pad {
            span: Span::default(),
            width
        }),
        size_hint().prop_map(TypeArg::Size),
        name(&["open", "pad", "item", "a"]).prop_map(TypeArg::Word),
        string_lit().prop_map(TypeArg::Str),
        (0..2_000u64).prop_map(|value| TypeArg::Count {
            span: Span::default(),
            value
        }),
        dynamo_name().prop_map(TypeArg::Of),
    ];
    let ty = (
        name(&["string", "id", "int", "enum", "map", "shard", "x"]),
        prop::collection::vec(arg, 0..3),
    )
        .prop_map(|(name, args)| TypeRef {
            span: Span::default(),
            name,
            args,
        });
    let attribute = (docs(), dynamo_name(), ty, any::<bool>()).prop_map(|(docs, name, ty, optional)| Attribute {
        span: Span::default(),
        docs,
        name,
        ty,
        optional,
    });
    let shape = prop::collection::vec(key_template(), 0..4).prop_map(|keys| ItemShape {
        span: Span::default(),
        keys,
    });
    (
        docs(),
        name(ENTITIES),
        prop::option::of(table_name()),
        (prop::option::of(size_hint()), prop::option::of(rate_hint())),
        prop::collection::vec(attribute, 0..4),
        prop::collection::vec(key_template(), 0..4),
        prop::collection::vec(shape, 0..3),
    )
        .prop_map(|(docs, name, table, (size, rate), attributes, keys, items)| {
            Item::Entity(Entity {
                span: Span::default(),
                docs,
                name,
                table,
                size,
                rate,
                attributes,
                keys,
                items,
            })
        })
}

fn number() -> impl Strategy<Value = String> {
    prop::sample::select(&["0", "6", "1.5", "200"][..]).prop_map(str::to_string)
}

fn filter_value() -> impl Strategy<Value = FilterValue> {
    prop_oneof![
        string_lit().prop_map(|s| FilterValue::Literal(Literal::Str(s))),
        number().prop_map(|text| FilterValue::Literal(Literal::Number(text, Span::default()))),
        any::<bool>().prop_map(|b| FilterValue::Literal(Literal::Bool(b, Span::default()))),
        attr_name().prop_map(FilterValue::Word),
    ]
}

fn filter_atom() -> impl Strategy<Value = FilterExpr> {
    let op = prop::sample::select(
        &[
            FilterOp::Eq,
            FilterOp::Ne,
            FilterOp::Lt,
            FilterOp::Le,
            FilterOp::Gt,
            FilterOp::Ge,
        ][..],
    );
    let span = Span::default();
    prop_oneof![
        (dynamo_name(), op, filter_value()).prop_map(move |(attr, op, value)| FilterExpr::Compare {
            span,
            attr,
            op,
            value
        }),
        (dynamo_name(), prop::collection::vec(filter_value(), 1..3)).prop_map(move |(attr, values)| FilterExpr::In {
            span,
            attr,
            values
        }),
        (dynamo_name(), filter_value()).prop_map(move |(attr, value)| FilterExpr::BeginsWith { span, attr, value }),
        (dynamo_name(), any::<bool>()).prop_map(move |(attr, exists)| FilterExpr::Exists { span, attr, exists }),
    ]
}

/// `a and b or c`: `or` over `and` over units, folded to the left as the
/// parser folds them.
fn filter_chain(unit: impl Strategy<Value = FilterExpr> + Clone) -> impl Strategy<Value = FilterExpr> + Clone {
    prop::collection::vec(prop::collection::vec(unit, 1..3), 1..3).prop_map(|ors| {
        let and = |units: Vec<FilterExpr>| {
            units
                .into_iter()
                .reduce(|a, b| FilterExpr::And(Box::new(a), Box::new(b)))
                .expect("at least one unit")
        };
        ors.into_iter()
            .map(and)
            .reduce(|a, b| FilterExpr::Or(Box::new(a), Box::new(b)))
            .expect("at least one conjunction")
    })
}

fn filter() -> impl Strategy<Value = Filter> {
    let span = Span::default();
    let not = move |inner: FilterExpr| FilterExpr::Not {
        span,
        inner: Box::new(inner),
    };
    let group = move |inner: FilterExpr| FilterExpr::Group {
        span,
        inner: Box::new(inner),
    };
    let unit = prop_oneof![filter_atom(), filter_atom().prop_map(not)];
    let inner = filter_chain(unit.clone());
    let unit = prop_oneof![
        2 => unit,
        1 => inner.clone().prop_map(group),
        1 => inner.prop_map(move |e| not(group(e))),
    ];
    let share = prop::sample::select(&["20", "2.5", "100"][..]).prop_map(move |text| Share {
        span,
        fraction: text.parse::<f64>().unwrap() / 100.0,
        text: text.to_string(),
    });
    (filter_chain(unit), prop::option::of(share)).prop_map(move |(expr, keeps)| Filter { span, expr, keeps })
}

fn pattern() -> impl Strategy<Value = Item> {
    let range_op = prop::sample::select(&[CompareOp::Lt, CompareOp::Le, CompareOp::Gt, CompareOp::Ge][..]);
    let literal = prop_oneof![
        string_lit().prop_map(Literal::Str),
        number().prop_map(|text| Literal::Number(text, Span::default())),
        any::<bool>().prop_map(|b| Literal::Bool(b, Span::default())),
        attr_name().prop_map(Literal::Word),
    ];
    let kind = prop_oneof![
        Just(KnownKind::Equal),
        literal.prop_map(KnownKind::Fixed),
        (range_op.clone(), attr_name()).prop_map(|(op, bound)| KnownKind::Compare(op, bound)),
        (attr_name(), attr_name()).prop_map(|(low, high)| KnownKind::Between(low, high)),
        attr_name().prop_map(KnownKind::BeginsWith),
    ];
    let known = (dynamo_name(), kind).prop_map(|(attr, kind)| Known {
        bound_type: None,
        span: Span::default(),
        attr,
        kind,
    });
    let returned =
        (name(ENTITIES), any::<bool>(), prop::option::of(size_hint())).prop_map(|(entity, many, count)| Returned {
            span: Span::default(),
            entity,
            many,
            count,
        });
    let modifier = prop_oneof![
        (dynamo_name(), any::<bool>()).prop_map(|(attr, descending)| Modifier::OrderBy {
            span: Span::default(),
            attr,
            descending
        }),
        Just(Modifier::Consistent(Span::default())),
        prop_oneof![0..1_000u64, Just(u64::MAX)].prop_map(|count| Modifier::Limit {
            span: Span::default(),
            count
        }),
        filter().prop_map(Modifier::Where),
        rate_hint().prop_map(Modifier::Rate),
    ];
    let operand = prop_oneof![
        string_lit().prop_map(Operand::Str),
        number().prop_map(|text| Operand::Number(text, Span::default())),
        attr_name().prop_map(Operand::Param),
    ];
    let any_op = prop::sample::select(
        &[
            CompareOp::Eq,
            CompareOp::Lt,
            CompareOp::Le,
            CompareOp::Gt,
            CompareOp::Ge,
        ][..],
    );
    let condition_kind = prop_oneof![
        (any_op, operand.clone()).prop_map(|(op, value)| ConditionKind::Compare(op, value)),
        (operand.clone(), operand.clone()).prop_map(|(low, high)| ConditionKind::Between(low, high)),
        operand.prop_map(ConditionKind::BeginsWith),
    ];
    let condition = (dynamo_name(), condition_kind).prop_map(|(key, kind)| Condition {
        span: Span::default(),
        key,
        kind,
    });
    let query = (
        table_name(),
        prop::option::of(dynamo_name()),
        prop::collection::vec(condition, 1..4),
    )
        .prop_map(|(table, index, conditions)| Query {
            span: Span::default(),
            table,
            index,
            conditions,
        });
    (
        docs(),
        attr_name(),
        prop::collection::vec(known, 0..4),
        prop::collection::vec(returned, 1..4),
        prop::collection::vec(modifier, 0..4),
        prop::option::of(query),
    )
        .prop_map(|(docs, name, known, returns, modifiers, query)| {
            Item::Pattern(Pattern {
                span: Span::default(),
                docs,
                name,
                known,
                returns,
                modifiers,
                query,
            })
        })
}

pub fn source_file() -> impl Strategy<Value = SourceFile> {
    prop::collection::vec(prop_oneof![table(), entity(), pattern()], 0..5).prop_map(|items| SourceFile { items })
}
