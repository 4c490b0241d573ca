//! Item sizes and capacity: what DynamoDB counts for items you already have
//! (`dyno size`), by the rules of `shared/design/dynamodb-rules.md` (cited
//! as "rule N.M"; `docs/cli.md`, "Item sizes", is the user's account).
//!
//! - Input: DynamoDB JSON (`{"pk": {"S": "A"}}`) or plain JSON (`{"pk":
//!   "A"}`), told apart per item ([`read_item`]).
//! - Size (rules 2.1–2.3): the sum over attributes of the name's UTF-8 bytes
//!   plus the value's size; numbers by [`cost::number_size`], the one
//!   number rule of the crate.
//! - Capacity (rules 3.1–3.7): one GetItem rounds up to 4 KB, one write to
//!   1 KB; BatchGetItem rounds each item, a Query sums then rounds once.
//! - Entities: with a schema, an item is the entity whose key templates'
//!   languages accept its key values ([`identify`]).
//!
//! Pure functions over `serde_json` values and the checker's model: nothing
//! here prints or reads files.

#[cfg(test)]
mod tests;

use std::fmt;

use serde_json::{Map, Value as Json, json};

use crate::check::cost;
use crate::check::model::{EntityId, Model, TableId};
pub use crate::check::sample::base64_decode;
use crate::syntax::ast::KeyType;

/// DynamoDB's maximum item size, 400 KB (rule 2.4).
pub const MAX_ITEM_BYTES: u64 = 400 * 1024;
/// A partition key value holds at most 2048 bytes (rule 2.5).
pub const MAX_PARTITION_KEY_BYTES: usize = 2048;
/// A sort key value holds at most 1024 bytes (rule 2.5).
pub const MAX_SORT_KEY_BYTES: usize = 1024;
/// Nesting of lists and maps is limited to 32 levels (rule 2.6).
pub const MAX_DEPTH: usize = 32;
/// A number holds at most 38 significant digits (rule 2.2).
pub const MAX_DIGITS: usize = 38;

/// One attribute value, typed as DynamoDB stores it.
#[derive(Clone, Debug, PartialEq)]
pub enum AttrValue {
    S(String),
    /// The number as written (validated by [`check_number`]).
    N(String),
    /// Decoded bytes (base64 in DynamoDB JSON).
    B(Vec<u8>),
    Bool(bool),
    Null,
    M(Vec<(String, AttrValue)>),
    L(Vec<AttrValue>),
    Ss(Vec<String>),
    Ns(Vec<String>),
    Bs(Vec<Vec<u8>>),
}

/// How an item was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `{"pk": {"S": "A"}}`: every value a one-key object with a type descriptor.
    DynamodbJson,
    /// `{"pk": "A", "n": 12}`.
    Plain,
}

impl Format {
    pub fn as_str(self) -> &'static str {
        match self {
            Format::DynamodbJson => "dynamodb-json",
            Format::Plain => "plain",
        }
    }
}

/// One item: its attributes in input order.
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    pub attributes: Vec<(String, AttrValue)>,
    pub format: Format,
}

impl Item {
    pub fn get(&self, name: &str) -> Option<&AttrValue> {
        self.attributes.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    /// The item in DynamoDB JSON, whichever way it was written: what the
    /// key condition evaluation of `verify::plan` reads.
    pub fn dynamodb_json(&self) -> Map<String, Json> {
        self.attributes
            .iter()
            .map(|(name, value)| (name.clone(), value.dynamodb_json()))
            .collect()
    }
}

impl AttrValue {
    /// `{"S": "x"}`, `{"N": "42"}`, binary as base64: DynamoDB JSON.
    pub fn dynamodb_json(&self) -> Json {
        let base64 = |bytes: &Vec<u8>| Json::String(crate::check::sample::base64(bytes));
        match self {
            AttrValue::S(s) => json!({ "S": s }),
            AttrValue::N(n) => json!({ "N": n }),
            AttrValue::B(b) => json!({ "B": base64(b) }),
            AttrValue::Bool(b) => json!({ "BOOL": b }),
            AttrValue::Null => json!({ "NULL": true }),
            AttrValue::M(fields) => json!({ "M": fields
                .iter()
                .map(|(k, v)| (k.clone(), v.dynamodb_json()))
                .collect::<Map<String, Json>>() }),
            AttrValue::L(items) => json!({ "L": items.iter().map(AttrValue::dynamodb_json).collect::<Vec<_>>() }),
            AttrValue::Ss(items) => json!({ "SS": items }),
            AttrValue::Ns(items) => json!({ "NS": items }),
            AttrValue::Bs(items) => json!({ "BS": items.iter().map(base64).collect::<Vec<_>>() }),
        }
    }
}

/// Input that is not an item, at a JSONPath into the input (`$[3].tags.L[1].N`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    pub path: String,
    pub message: String,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

fn error(path: &str, message: impl Into<String>) -> InputError {
    InputError {
        path: path.to_string(),
        message: message.into(),
    }
}

/// A member name in a JSONPath: `.name`, or `["odd name"]` when it is not
/// a plain identifier.
fn member(path: &str, name: &str) -> String {
    let plain = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if plain {
        format!("{path}.{name}")
    } else {
        format!("{path}[{}]", Json::String(name.to_string()))
    }
}

/// The type descriptors of DynamoDB JSON.
pub const DESCRIPTORS: [&str; 10] = ["S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS"];

fn is_typed(value: &Json) -> bool {
    matches!(value, Json::Object(o) if o.len() == 1 && o.keys().all(|k| DESCRIPTORS.contains(&k.as_str())))
}

/// Parses the input: one JSON document, or several in a row (JSON Lines,
/// as `dyno sample` prints them).
pub fn documents(text: &str) -> Result<Vec<Json>, InputError> {
    let mut out = Vec::new();
    for (i, document) in serde_json::Deserializer::from_str(text).into_iter::<Json>().enumerate() {
        match document {
            Ok(document) => out.push(document),
            Err(e) => {
                let at = if i == 0 {
                    String::new()
                } else {
                    format!(" (document {})", i + 1)
                };
                return Err(error(
                    &format!("line {} column {}{at}", e.line(), e.column()),
                    format!("not JSON: {e}"),
                ));
            }
        }
    }
    if out.is_empty() {
        return Err(error("$", "no items: the input is empty"));
    }
    Ok(out)
}

/// The items of a document, each with its JSONPath: one item (`$`), an
/// array of items (`$[i]`), or a BatchWriteItem request (`{"RequestItems":
/// {TABLE: [{"PutRequest": {"Item": …}}]}}`, whose deletes write no item),
/// or `dyno sample --format json`'s document (`{"version": 1, "tables":
/// [{"items": [{"entity": …, "item": …}]}]}`).
/// `prefix` names the document when the input holds several.
pub fn items_of<'a>(document: &'a Json, prefix: &str) -> Result<Vec<(String, &'a Json)>, InputError> {
    let root = format!("{prefix}$");
    match document {
        Json::Object(fields) if fields.len() == 1 && fields.contains_key("RequestItems") => {
            batch_write_items(&fields["RequestItems"], &format!("{root}.RequestItems"))
        }
        Json::Object(fields) if fields.contains_key("version") && fields.contains_key("tables") => {
            sample_items(&fields["tables"], &format!("{root}.tables"))
        }
        Json::Object(_) => Ok(vec![(root, document)]),
        Json::Array(items) => Ok(items
            .iter()
            .enumerate()
            .map(|(i, v)| (format!("{root}[{i}]"), v))
            .collect()),
        other => Err(error(
            &root,
            format!(
                "expected an item (a JSON object) or an array of items, found {}",
                kind(other)
            ),
        )),
    }
}

/// The items of `dyno sample --format json`: `tables[t].items[i].item`.
fn sample_items<'a>(tables: &'a Json, path: &str) -> Result<Vec<(String, &'a Json)>, InputError> {
    let Json::Array(tables) = tables else {
        return Err(error(
            path,
            format!("expected an array of tables, found {}", kind(tables)),
        ));
    };
    let mut out = Vec::new();
    for (t, table) in tables.iter().enumerate() {
        let at = format!("{path}[{t}].items");
        let Some(Json::Array(items)) = table.get("items") else {
            return Err(error(&at, "expected the table's array of items"));
        };
        for (i, entry) in items.iter().enumerate() {
            let at = format!("{at}[{i}]");
            match entry.get("item") {
                Some(item) => out.push((format!("{at}.item"), item)),
                None => return Err(error(&at, "expected an entry with its `item`")),
            }
        }
    }
    Ok(out)
}

fn batch_write_items<'a>(requests: &'a Json, path: &str) -> Result<Vec<(String, &'a Json)>, InputError> {
    let Json::Object(tables) = requests else {
        return Err(error(
            path,
            format!("expected an object of tables, found {}", kind(requests)),
        ));
    };
    let mut out = Vec::new();
    for (table, writes) in tables {
        let at = member(path, table);
        let Json::Array(writes) = writes else {
            return Err(error(
                &at,
                format!("expected an array of write requests, found {}", kind(writes)),
            ));
        };
        for (i, write) in writes.iter().enumerate() {
            let at = format!("{at}[{i}]");
            if let Some(item) = write.get("PutRequest").and_then(|p| p.get("Item")) {
                out.push((format!("{at}.PutRequest.Item"), item));
            } else if write.get("DeleteRequest").is_none() {
                return Err(error(&at, "expected a PutRequest with an Item, or a DeleteRequest"));
            }
        }
    }
    Ok(out)
}

fn kind(value: &Json) -> &'static str {
    match value {
        Json::Null => "null",
        Json::Bool(_) => "a boolean",
        Json::Number(_) => "a number",
        Json::String(_) => "a string",
        Json::Array(_) => "an array",
        Json::Object(_) => "an object",
    }
}

/// Reads one item at `path`: DynamoDB JSON when every value is a one-key
/// object whose key is a type descriptor (`S`, `N`, …), else plain JSON.
pub fn read_item(value: &Json, path: &str) -> Result<Item, InputError> {
    let Json::Object(fields) = value else {
        return Err(error(
            path,
            format!("expected an item (a JSON object), found {}", kind(value)),
        ));
    };
    let format = if fields.values().all(is_typed) {
        Format::DynamodbJson
    } else {
        Format::Plain
    };
    let mut attributes = Vec::with_capacity(fields.len());
    for (name, value) in fields {
        let at = member(path, name);
        let value = match format {
            Format::DynamodbJson => typed_value(value, &at)?,
            Format::Plain => plain_value(value, &at)?,
        };
        attributes.push((name.clone(), value));
    }
    Ok(Item { attributes, format })
}

fn plain_value(value: &Json, path: &str) -> Result<AttrValue, InputError> {
    Ok(match value {
        Json::Null => AttrValue::Null,
        Json::Bool(b) => AttrValue::Bool(*b),
        Json::Number(n) => {
            let text = n.to_string();
            check_number(&text).map_err(|m| error(path, m))?;
            AttrValue::N(text)
        }
        Json::String(s) => AttrValue::S(s.clone()),
        Json::Array(items) => AttrValue::L(
            items
                .iter()
                .enumerate()
                .map(|(i, v)| plain_value(v, &format!("{path}[{i}]")))
                .collect::<Result<_, _>>()?,
        ),
        Json::Object(fields) => AttrValue::M(
            fields
                .iter()
                .map(|(k, v)| Ok((k.clone(), plain_value(v, &member(path, k))?)))
                .collect::<Result<_, _>>()?,
        ),
    })
}

fn typed_value(value: &Json, path: &str) -> Result<AttrValue, InputError> {
    let Json::Object(typed) = value else {
        return Err(error(
            path,
            format!(
                "expected a typed value such as {{\"S\": \"text\"}}, found {}",
                kind(value)
            ),
        ));
    };
    let mut entries = typed.iter();
    let (Some((ty, inner)), None) = (entries.next(), entries.next()) else {
        return Err(error(
            path,
            format!(
                "expected one type descriptor ({}), found {} keys",
                DESCRIPTORS.join(", "),
                typed.len()
            ),
        ));
    };
    let at = member(path, ty);
    let string = |v: &Json, at: &str| match v {
        Json::String(s) => Ok(s.clone()),
        other => Err(error(at, format!("expected a string, found {}", kind(other)))),
    };
    let array = |v: &'_ Json| match v {
        Json::Array(items) => Ok(items.clone()),
        other => Err(error(&at, format!("expected an array, found {}", kind(other)))),
    };
    Ok(match ty.as_str() {
        "S" => AttrValue::S(string(inner, &at)?),
        "N" => AttrValue::N(number(inner, &at)?),
        "B" => AttrValue::B(binary(inner, &at)?),
        "BOOL" => match inner {
            Json::Bool(b) => AttrValue::Bool(*b),
            other => return Err(error(&at, format!("expected true or false, found {}", kind(other)))),
        },
        "NULL" => match inner {
            Json::Bool(true) => AttrValue::Null,
            other => return Err(error(&at, format!("expected true, found {other}"))),
        },
        "M" => match inner {
            Json::Object(fields) => AttrValue::M(
                fields
                    .iter()
                    .map(|(k, v)| Ok((k.clone(), typed_value(v, &member(&at, k))?)))
                    .collect::<Result<_, _>>()?,
            ),
            other => return Err(error(&at, format!("expected an object, found {}", kind(other)))),
        },
        "L" => AttrValue::L(
            array(inner)?
                .iter()
                .enumerate()
                .map(|(i, v)| typed_value(v, &format!("{at}[{i}]")))
                .collect::<Result<_, _>>()?,
        ),
        "SS" => AttrValue::Ss(
            array(inner)?
                .iter()
                .enumerate()
                .map(|(i, v)| string(v, &format!("{at}[{i}]")))
                .collect::<Result<_, _>>()?,
        ),
        "NS" => AttrValue::Ns(
            array(inner)?
                .iter()
                .enumerate()
                .map(|(i, v)| number(v, &format!("{at}[{i}]")))
                .collect::<Result<_, _>>()?,
        ),
        "BS" => AttrValue::Bs(
            array(inner)?
                .iter()
                .enumerate()
                .map(|(i, v)| binary(v, &format!("{at}[{i}]")))
                .collect::<Result<_, _>>()?,
        ),
        other => {
            return Err(error(
                path,
                format!(
                    "unknown type descriptor `{other}` (expected {})",
                    DESCRIPTORS.join(", ")
                ),
            ));
        }
    })
}

/// A DynamoDB JSON number: a string (`{"N": "12"}`), as the API sends it.
fn number(value: &Json, path: &str) -> Result<String, InputError> {
    match value {
        Json::String(text) => {
            check_number(text).map_err(|m| error(path, m))?;
            Ok(text.clone())
        }
        Json::Number(n) => Err(error(
            path,
            format!("DynamoDB JSON writes a number as a string: \"{n}\""),
        )),
        other => Err(error(
            path,
            format!("expected a number as a string, found {}", kind(other)),
        )),
    }
}

fn binary(value: &Json, path: &str) -> Result<Vec<u8>, InputError> {
    match value {
        Json::String(text) => base64_decode(text).map_err(|m| error(path, m)),
        other => Err(error(path, format!("expected base64 text, found {}", kind(other)))),
    }
}

/// Whether `text` is a number DynamoDB accepts: an optional sign, digits
/// with an optional fraction, an optional exponent, at most 38 significant
/// digits (rule 2.2), and a magnitude from 1E-130 to under 1E+126 (AWS,
/// "Supported data types and naming rules", Number).
pub fn check_number(text: &str) -> Result<(), String> {
    let bad = || format!("`{text}` is not a number");
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(i) => (&unsigned[..i], Some(&unsigned[i + 1..])),
        None => (unsigned, None),
    };
    let exponent: i64 = match exponent {
        Some(exponent) => {
            let digits = exponent.strip_prefix(['-', '+']).unwrap_or(exponent);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            // Absurd exponents saturate: they are out of range either way.
            exponent.parse().unwrap_or(if exponent.starts_with('-') {
                i64::MIN / 2
            } else {
                i64::MAX / 2
            })
        }
        None => 0,
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits_only = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() && fraction.is_empty() || !digits_only(whole) || !digits_only(fraction) {
        return Err(bad());
    }
    let all = format!("{whole}{fraction}");
    let Some(first) = all.find(|c| c != '0') else {
        return Ok(()); // zero
    };
    let significant = all[first..].trim_end_matches('0');
    if significant.len() > MAX_DIGITS {
        return Err(format!(
            "`{text}` has {} significant digits; DynamoDB keeps at most {MAX_DIGITS}",
            significant.len()
        ));
    }
    // The power of ten of the first significant digit.
    let magnitude = whole.len() as i64 - 1 - first as i64 + exponent;
    if !(-130..=125).contains(&magnitude) {
        return Err(format!(
            "`{text}` is out of DynamoDB's number range (1E-130 to 9.99…E+125)"
        ));
    }
    Ok(())
}

/// The size of one value (rules 2.2, 2.3): a string its UTF-8 bytes, a
/// number by [`cost::number_size`], a binary its bytes, a boolean or null
/// 1 byte; a list or map 3 bytes plus, per element, 1 byte and its size
/// (name bytes included for a map); a set the sum of its elements (set
/// sizes are unverified, rule 2.3).
pub fn value_size(value: &AttrValue) -> u64 {
    let number = |n: &str| cost::number_size(n) as u64;
    match value {
        AttrValue::S(s) => s.len() as u64,
        AttrValue::N(n) => number(n),
        AttrValue::B(b) => b.len() as u64,
        AttrValue::Bool(_) | AttrValue::Null => 1,
        AttrValue::M(fields) => {
            3 + fields
                .iter()
                .map(|(k, v)| k.len() as u64 + value_size(v) + 1)
                .sum::<u64>()
        }
        AttrValue::L(items) => 3 + items.iter().map(|v| value_size(v) + 1).sum::<u64>(),
        AttrValue::Ss(items) => items.iter().map(|s| s.len() as u64).sum(),
        AttrValue::Ns(items) => items.iter().map(|n| number(n)).sum(),
        AttrValue::Bs(items) => items.iter().map(|b| b.len() as u64).sum(),
    }
}

/// An item's size (rule 2.1): over its attributes, the name's UTF-8 bytes
/// plus the value's size.
pub fn item_size(item: &Item) -> u64 {
    item.attributes
        .iter()
        .map(|(name, v)| name.len() as u64 + value_size(v))
        .sum()
}

/// What one item of `bytes` costs to read and to write.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Capacity {
    /// GetItem, strongly consistent: 4 KB units (rules 3.1, 3.4).
    pub read_strong: f64,
    /// GetItem, eventually consistent: half (rule 3.1).
    pub read_eventual: f64,
    /// TransactGetItems: twice (rule 3.1).
    pub read_transactional: f64,
    /// PutItem: 1 KB units (rules 3.2, 3.7).
    pub write: f64,
    /// TransactWriteItems: twice (rule 3.2).
    pub write_transactional: f64,
}

pub fn capacity(bytes: u64) -> Capacity {
    let read = cost::read_units(bytes as f64);
    let write = cost::write_units(bytes as f64);
    Capacity {
        read_strong: read,
        read_eventual: read / 2.0,
        read_transactional: read * 2.0,
        write,
        write_transactional: write * 2.0,
    }
}

/// Reading or writing a collection of items.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    pub count: usize,
    pub min: u64,
    pub max: u64,
    pub total: u64,
    /// `total / count` (0 for no items).
    pub average: f64,
    /// BatchGetItem (or one GetItem each): every item rounded up to 4 KB,
    /// then summed (rule 3.4).
    pub batch_get_strong: f64,
    pub batch_get_eventual: f64,
    /// TransactGetItems: the batch, twice.
    pub transact_get: f64,
    /// One Query reading them all: summed, then rounded up once (rule 3.5).
    pub query_strong: f64,
    pub query_eventual: f64,
    /// BatchWriteItem (or one PutItem each): every item rounded up to 1 KB
    /// (rule 3.7).
    pub write: f64,
    /// TransactWriteItems: twice.
    pub write_transactional: f64,
}

pub fn summary(sizes: &[u64]) -> Summary {
    let each: Vec<Capacity> = sizes.iter().map(|&b| capacity(b)).collect();
    let sum = |f: fn(&Capacity) -> f64| each.iter().map(f).sum::<f64>();
    let total: u64 = sizes.iter().sum();
    let query = cost::query_cost(sizes.len() as f64, total as f64, true, false, None);
    Summary {
        count: sizes.len(),
        min: sizes.iter().copied().min().unwrap_or(0),
        max: sizes.iter().copied().max().unwrap_or(0),
        total,
        average: if sizes.is_empty() {
            0.0
        } else {
            total as f64 / sizes.len() as f64
        },
        batch_get_strong: sum(|c| c.read_strong),
        batch_get_eventual: sum(|c| c.read_eventual),
        transact_get: sum(|c| c.read_transactional),
        query_strong: query.rcu,
        query_eventual: query.rcu / 2.0,
        write: sum(|c| c.write),
        write_transactional: sum(|c| c.write_transactional),
    }
}

/// What DynamoDB would reject in an item whatever the schema: over 400 KB
/// (rule 2.4), an empty set, nesting deeper than 32 levels (rule 2.6).
pub fn problems(item: &Item, bytes: u64) -> Vec<String> {
    let mut out = Vec::new();
    if bytes > MAX_ITEM_BYTES {
        out.push(format!(
            "{bytes} B is over DynamoDB's 400 KB item limit ({MAX_ITEM_BYTES} B): a write of it is rejected"
        ));
    }
    for (name, value) in &item.attributes {
        if let Some(where_) = empty_set(value, name) {
            out.push(format!(
                "`{where_}` is an empty set: DynamoDB does not store empty sets"
            ));
        }
        let depth = depth(value);
        if depth > MAX_DEPTH {
            out.push(format!(
                "`{name}` nests {depth} levels of lists and maps; DynamoDB allows {MAX_DEPTH}"
            ));
        }
    }
    out
}

fn empty_set(value: &AttrValue, at: &str) -> Option<String> {
    match value {
        AttrValue::Ss(v) if v.is_empty() => Some(at.to_string()),
        AttrValue::Ns(v) if v.is_empty() => Some(at.to_string()),
        AttrValue::Bs(v) if v.is_empty() => Some(at.to_string()),
        AttrValue::M(fields) => fields.iter().find_map(|(k, v)| empty_set(v, &format!("{at}.{k}"))),
        AttrValue::L(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, v)| empty_set(v, &format!("{at}[{i}]"))),
        _ => None,
    }
}

/// Levels of lists and maps: 0 for a scalar, 1 for a flat list.
fn depth(value: &AttrValue) -> usize {
    match value {
        AttrValue::M(fields) => 1 + fields.iter().map(|(_, v)| depth(v)).max().unwrap_or(0),
        AttrValue::L(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

/// What DynamoDB would reject in an item written to `table`: a key
/// attribute (of the table or of an index) of another type than the key's,
/// an empty String or Binary key value (rule 2.6), or a table key value
/// longer than 2048 bytes (partition) or 1024 bytes (sort; rule 2.5).
pub fn key_problems(model: &Model, table: TableId, item: &Item) -> Vec<String> {
    let table = model.table(table);
    let mut out = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for (_, access) in table.access_ids() {
        let limits = access
            .partition_keys()
            .map(|k| (k, MAX_PARTITION_KEY_BYTES, "partition"))
            .chain(access.sort_keys().map(|k| (k, MAX_SORT_KEY_BYTES, "sort")));
        for (key, limit, role) in limits {
            if seen.contains(&key.name.as_str()) {
                continue;
            }
            seen.push(&key.name);
            let Some(value) = item.get(&key.name) else { continue };
            let owner = if access.is_index() {
                format!("index {}", access.name.text)
            } else {
                format!("table {}", table.name.text)
            };
            let bytes = match (value, key.ty) {
                (AttrValue::S(s), KeyType::String) => s.len(),
                (AttrValue::B(b), KeyType::Binary) => b.len(),
                (AttrValue::N(_), KeyType::Number) => continue,
                (other, ty) => {
                    out.push(format!(
                        "`{}` is {}, but it is a {} key of {owner}: a write of it is rejected",
                        key.name,
                        type_name(other),
                        match ty {
                            KeyType::String => "string",
                            KeyType::Number => "number",
                            KeyType::Binary => "binary",
                        }
                    ));
                    continue;
                }
            };
            if bytes == 0 {
                out.push(format!(
                    "`{}` is empty: a key of {owner} cannot be (rule 2.6)",
                    key.name
                ));
            } else if !access.is_index() && bytes > limit {
                out.push(format!(
                    "`{}` is {bytes} B: a {role} key value holds at most {limit} B (rule 2.5)",
                    key.name
                ));
            }
        }
    }
    out
}

/// What DynamoDB would reject in an item of a table with local secondary
/// indexes: "For each local secondary index on a table, there is a 400 KB
/// limit on the total of the following: The size of an item's data in the
/// table. The size of corresponding entries (including key values and
/// projected attributes) in all local secondary indexes" (AWS, *Constraints
/// in Amazon DynamoDB*, "Item size for tables with Local Secondary
/// Indexes"). An entry is counted as its key attributes (the table's and
/// the index's) and its projected ones; the 100 bytes of overhead storage
/// adds per entry (rule 2.7) are left out, so the problem is reported only
/// when the write is certainly rejected. `bytes` is the item's size.
pub fn local_index_problems(model: &Model, table: TableId, item: &Item, bytes: u64) -> Vec<String> {
    let table = model.table(table);
    let Some(base) = table.base() else { return Vec::new() };
    let attribute = |name: &str| item.get(name).map_or(0, |v| name.len() as u64 + value_size(v));
    let table_keys: Vec<&str> = base.key_attributes().map(|k| k.name.as_str()).collect();
    let mut entries: Vec<(&str, u64)> = Vec::new();
    for (_, access) in table.access_ids() {
        if access.kind != crate::check::model::AccessKind::Lsi {
            continue;
        }
        // Sparse: an item without the index's sort key has no entry.
        if !access.key_attributes().all(|k| item.get(&k.name).is_some()) {
            continue;
        }
        let keys: Vec<&str> = table_keys
            .iter()
            .copied()
            .chain(access.key_attributes().map(|k| k.name.as_str()))
            .fold(Vec::new(), |mut keys, k| {
                if !keys.contains(&k) {
                    keys.push(k);
                }
                keys
            });
        let projected: u64 = item
            .attributes
            .iter()
            .map(|(name, _)| name.as_str())
            .filter(|name| !keys.contains(name))
            .filter(|name| match &access.projection {
                crate::check::model::Projection::All => true,
                crate::check::model::Projection::KeysOnly => false,
                crate::check::model::Projection::Include(names) => names.iter().any(|n| n == name),
            })
            .map(attribute)
            .sum();
        let key_bytes: u64 = keys.iter().map(|k| attribute(k)).sum();
        entries.push((&access.name.text, key_bytes + projected));
    }
    let index_bytes: u64 = entries.iter().map(|(_, b)| b).sum();
    if entries.is_empty() || bytes + index_bytes <= MAX_ITEM_BYTES {
        return Vec::new();
    }
    let names: Vec<String> = entries.iter().map(|(n, b)| format!("{n} {b} B")).collect();
    vec![format!(
        "{bytes} B with its local index entries ({}) is {} B, over the 400 KB ({MAX_ITEM_BYTES} B) DynamoDB allows \
         an item and its local secondary index entries: a write of it is rejected",
        names.join(", "),
        bytes + index_bytes
    )]
}

fn type_name(value: &AttrValue) -> &'static str {
    match value {
        AttrValue::S(_) => "a String",
        AttrValue::N(_) => "a Number",
        AttrValue::B(_) => "a Binary",
        AttrValue::Bool(_) => "a Boolean",
        AttrValue::Null => "Null",
        AttrValue::M(_) => "a Map",
        AttrValue::L(_) => "a List",
        AttrValue::Ss(_) => "a String Set",
        AttrValue::Ns(_) => "a Number Set",
        AttrValue::Bs(_) => "a Binary Set",
    }
}

/// Every item of the input, or every reason it cannot be read.
pub fn parse_items(text: &str) -> Result<Vec<(String, Item)>, Vec<InputError>> {
    let documents = documents(text).map_err(|e| vec![e])?;
    let several = documents.len() > 1;
    let mut items = Vec::new();
    let mut errors = Vec::new();
    for (i, document) in documents.iter().enumerate() {
        let prefix = if several {
            format!("document {}: ", i + 1)
        } else {
            String::new()
        };
        match items_of(document, &prefix) {
            Ok(found) => {
                for (path, value) in found {
                    match read_item(value, &path) {
                        Ok(item) => items.push((path, item)),
                        Err(e) => errors.push(e),
                    }
                }
            }
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() { Ok(items) } else { Err(errors) }
}

/// One entity's items, measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EntitySize {
    pub entity: EntityId,
    /// The average item size.
    pub bytes: f64,
    pub items: usize,
}

/// Items measured per entity, for the items [`identify`] names one entity
/// of; the rest are not counted. What `dyno explain --items` puts in place
/// of the schema's estimates.
pub fn measured_sizes(model: &Model, items: &[(String, Item)]) -> Vec<EntitySize> {
    let mut totals: Vec<(EntityId, u64, usize)> = Vec::new();
    for (_, item) in items {
        let [only] = identify(model, item)[..] else { continue };
        let bytes = item_size(item);
        match totals.iter_mut().find(|(e, ..)| *e == only.entity) {
            Some((_, sum, n)) => {
                *sum += bytes;
                *n += 1;
            }
            None => totals.push((only.entity, bytes, 1)),
        }
    }
    totals
        .into_iter()
        .map(|(entity, sum, n)| EntitySize {
            entity,
            bytes: sum as f64 / n as f64,
            items: n,
        })
        .collect()
}

/// An entity an item is, and which of its `item { }` shapes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Match {
    pub entity: EntityId,
    pub shape: usize,
}

/// Whether a key value is in a template's language: a string by its text;
/// a number as written or as DynamoDB stores it (`007` is the number `7`,
/// which is what a read returns). Binary keys are not matched.
fn key_fits(value: &AttrValue, ty: KeyType, template: &crate::check::lang::Template) -> bool {
    match (value, ty) {
        (AttrValue::S(s), KeyType::String) => template.can_equal(s),
        (AttrValue::N(n), KeyType::Number) => {
            template.can_equal(n) || template.can_equal(&crate::check::sample::normalize_number(n))
        }
        _ => false,
    }
}

/// The entities (and item shapes) whose keys the item could have been
/// written by: its table's primary key attributes are present with the
/// key's type and each value is in the language of the shape's template
/// for it ([`crate::check::lang::Template::can_equal`]; for a key that is
/// a plain attribute, the language of the attribute's type); an index key
/// the shape writes must match too when the item has it (an absent one is
/// a sparse index). Several matches mean the schema lets two entities write
/// the same key (the checker reports that); none, that no entity writes it.
pub fn identify(model: &Model, item: &Item) -> Vec<Match> {
    let mut out = Vec::new();
    for (id, entity) in model.entity_ids() {
        let Some(table) = entity.table.map(|t| model.table(t)) else {
            continue;
        };
        let Some(base) = table.base() else { continue };
        let key_type = |name: &str| table.key_attributes().find(|k| k.name == name).map(|k| k.ty);
        for (shape_index, shape) in entity.items.iter().enumerate() {
            let base_present = base
                .key_attributes()
                .all(|k| shape.key(&k.name).is_some() && item.get(&k.name).is_some());
            if !base_present {
                continue;
            }
            // A key taken from a plain attribute (`PK: id` as the table's
            // key) is `implicit`: its language is the attribute's type.
            let fits = shape.keys.iter().all(|key| {
                let is_base = base.key_attributes().any(|k| k.name == key.attr);
                match item.get(&key.attr) {
                    None => !is_base,
                    Some(value) => key_type(&key.attr).is_some_and(|ty| key_fits(value, ty, &key.template.lang)),
                }
            });
            if fits {
                out.push(Match {
                    entity: id,
                    shape: shape_index,
                });
            }
        }
    }
    out
}

/// The table an item is in: its entity's ([`identify`]), else the
/// schema's only table; `None` when that cannot be told.
pub fn table_of(model: &Model, matches: &[Match]) -> Option<TableId> {
    match matches.first() {
        Some(m) => model.entity(m.entity).table,
        None if model.tables.len() == 1 => model.table_ids().next().map(|(id, _)| id),
        None => None,
    }
}

/// How an item compares with what the schema expects of its entity: the
/// `~2KB` hint, else the estimate from the declared attributes
/// ([`cost::item_size`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Expected {
    pub bytes: f64,
    /// The entity's `~N` hint gave it.
    pub hinted: bool,
    /// Some value took its type's default size.
    pub estimated: bool,
}

pub fn expected(model: &Model, matched: Match) -> Expected {
    let size = cost::item_size(model, matched.entity, matched.shape);
    Expected {
        bytes: size.size.bytes,
        hinted: size.hinted,
        estimated: size.size.estimated,
    }
}

/// `1` or `0.5`: capacity units as people write them.
pub fn units(n: f64) -> String {
    if n.fract() == 0.0 {
        format!("{}", n as i64)
    } else {
        format!("{}", (n * 100.0).round() / 100.0)
    }
}
