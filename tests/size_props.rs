//! `dyno size` against a reference written here from the rules alone
//! (shared/design/dynamodb-rules.md 2.1–2.3), on random nested items: the
//! sizes agree, an item is never smaller than its names, adding an
//! attribute never shrinks it, and any JSON at all is read without a panic.

use dyno::size::{item_size, read_item};
use proptest::prelude::*;
use serde_json::{Map, Value as Json, json};

/// Base64 written out by hand for the test (the reference must not share
/// code with the decoder it checks).
fn encode(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Rule 2.2, counted by hand: the digits of the mantissa without the
/// leading and trailing zeros (at least one), two to a byte, plus one.
fn reference_number(text: &str) -> u64 {
    let mut digits = Vec::new();
    for c in text.chars() {
        if c == 'e' || c == 'E' {
            break;
        }
        if c.is_ascii_digit() {
            digits.push(c);
        }
    }
    while digits.first() == Some(&'0') {
        digits.remove(0);
    }
    while digits.last() == Some(&'0') {
        digits.pop();
    }
    let n = digits.len().max(1) as u64;
    n.div_ceil(2) + 1
}

/// The size of a DynamoDB JSON value (`{"S": "x"}`), binary values decoded
/// by their length: three bytes per four characters, less the padding.
fn reference_value(value: &Json) -> u64 {
    let (ty, inner) = value.as_object().unwrap().iter().next().unwrap();
    let binary = |b64: &Json| {
        let text = b64.as_str().unwrap();
        let padding = text.chars().rev().take_while(|&c| c == '=').count() as u64;
        text.len() as u64 / 4 * 3 - padding
    };
    let strings = |v: &Json| {
        v.as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().len() as u64)
            .sum::<u64>()
    };
    match ty.as_str() {
        "S" => inner.as_str().unwrap().len() as u64,
        "N" => reference_number(inner.as_str().unwrap()),
        "B" => binary(inner),
        "BOOL" | "NULL" => 1,
        "SS" => strings(inner),
        "NS" => inner
            .as_array()
            .unwrap()
            .iter()
            .map(|n| reference_number(n.as_str().unwrap()))
            .sum(),
        "BS" => inner.as_array().unwrap().iter().map(binary).sum(),
        "L" => {
            let items = inner.as_array().unwrap();
            3 + items.iter().map(reference_value).sum::<u64>() + items.len() as u64
        }
        "M" => {
            let fields = inner.as_object().unwrap();
            3 + fields
                .iter()
                .map(|(k, v)| k.len() as u64 + reference_value(v))
                .sum::<u64>()
                + fields.len() as u64
        }
        other => panic!("generated an unknown type {other}"),
    }
}

fn reference_item(item: &Map<String, Json>) -> u64 {
    item.iter().map(|(k, v)| k.len() as u64 + reference_value(v)).sum()
}

fn number() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec!["", "-", "+"]),
        "[0-9]{1,12}",
        prop::option::of("[0-9]{0,12}"),
        prop::option::of(-100i32..100), // in range with the 24 digits at most
    )
        .prop_map(|(sign, whole, fraction, exponent)| {
            let mut text = format!("{sign}{whole}");
            if let Some(fraction) = fraction {
                text.push('.');
                text.push_str(&fraction);
            }
            if let Some(exponent) = exponent {
                text.push_str(&format!("E{exponent}"));
            }
            text
        })
}

fn name() -> impl Strategy<Value = String> {
    prop_oneof!["[a-z][a-zA-Z0-9_]{0,7}", "\\PC{1,4}"]
}

fn typed() -> impl Strategy<Value = Json> {
    let leaf = prop_oneof![
        "\\PC{0,12}".prop_map(|s| json!({ "S": s })),
        number().prop_map(|n| json!({ "N": n })),
        prop::collection::vec(any::<u8>(), 0..12).prop_map(|b| json!({ "B": encode(&b) })),
        any::<bool>().prop_map(|b| json!({ "BOOL": b })),
        Just(json!({ "NULL": true })),
        prop::collection::vec("\\PC{0,6}", 1..4).prop_map(|s| json!({ "SS": s })),
        prop::collection::vec(number(), 1..4).prop_map(|n| json!({ "NS": n })),
        prop::collection::vec(prop::collection::vec(any::<u8>(), 0..6), 1..3)
            .prop_map(|b| json!({ "BS": b.iter().map(|b| encode(b)).collect::<Vec<_>>() })),
    ];
    leaf.prop_recursive(4, 32, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(|l| json!({ "L": l })),
            prop::collection::btree_map(name(), inner, 0..4).prop_map(|m| json!({ "M": m })),
        ]
    })
}

fn item() -> impl Strategy<Value = Map<String, Json>> {
    prop::collection::btree_map(name(), typed(), 0..6).prop_map(|m| m.into_iter().collect())
}

/// Any JSON at all, for the no-panic property.
fn any_json() -> impl Strategy<Value = Json> {
    let leaf = prop_oneof![
        Just(Json::Null),
        any::<bool>().prop_map(Json::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| json!(f)),
        prop::sample::select(vec![
            "S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS", "x", "1", "=", "AA=="
        ])
        .prop_map(|s| json!(s)),
        "\\PC{0,6}".prop_map(Json::String),
    ];
    leaf.prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Json::Array),
            prop::collection::btree_map(
                prop::sample::select(vec!["S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS", "a"])
                    .prop_map(String::from),
                inner,
                0..3
            )
            .prop_map(|m| Json::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn sizes_agree_with_the_reference(item in item()) {
        let value = Json::Object(item.clone());
        let read = read_item(&value, "$").unwrap();
        prop_assert_eq!(item_size(&read), reference_item(&item));
    }

    #[test]
    fn an_item_is_at_least_its_names(item in item()) {
        let names: u64 = item.keys().map(|k| k.len() as u64).sum();
        let read = read_item(&Json::Object(item), "$").unwrap();
        prop_assert!(item_size(&read) >= names);
    }

    #[test]
    fn adding_an_attribute_never_shrinks_the_item(item in item(), name in name(), value in typed()) {
        prop_assume!(!item.contains_key(&name));
        let before = item_size(&read_item(&Json::Object(item.clone()), "$").unwrap());
        let mut grown = item;
        grown.insert(name, value);
        let after = item_size(&read_item(&Json::Object(grown), "$").unwrap());
        prop_assert!(after >= before, "{after} < {before}");
    }

    #[test]
    fn any_json_is_read_or_refused_without_a_panic(value in any_json()) {
        if let Ok(item) = read_item(&value, "$") {
            let _ = item_size(&item);
        }
    }
}
