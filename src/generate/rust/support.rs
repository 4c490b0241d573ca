//! The fixed parts of a generated Rust module: the error type, the table
//! handle and the helpers its records and reads call. Each helper is
//! written only into a module that calls it, so generated code has no dead
//! code; the text is as rustfmt leaves it.

/// A helper function (or type) of the generated module.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Helper {
    Checked,
    Required,
    Text,
    Integer,
    Number,
    Boolean,
    Binary,
    List,
    Map,
    Matches,
    Parsed,
    Unidentified,
    Records,
    ShardOf,
    RandomShard,
    QueryPages,
    ScanPages,
    Merge,
    BatchGet,
}

impl Helper {
    pub fn text(self) -> String {
        let text = match self {
            Helper::Checked => CHECKED,
            Helper::Required => REQUIRED,
            Helper::Text => TEXT,
            Helper::Integer => INTEGER,
            Helper::Number => NUMBER,
            Helper::Boolean => BOOLEAN,
            Helper::Binary => BINARY,
            Helper::List => LIST,
            Helper::Map => MAP,
            Helper::Matches => MATCHES,
            Helper::Parsed => PARSED,
            Helper::Unidentified => "",
            Helper::Records => RECORDS,
            Helper::ShardOf => SHARD_OF,
            Helper::RandomShard => RANDOM_SHARD,
            Helper::QueryPages => return pages("Query"),
            Helper::ScanPages => return pages("Scan"),
            Helper::Merge => MERGE,
            Helper::BatchGet => BATCH_GET,
        };
        text.to_string()
    }
}

pub const ERROR: &str = r#"/// What a record or read of this module can fail with.
#[derive(Debug)]
pub enum Error {
    /// A value that goes into a key is not of its type's language (an `id`
    /// with the delimiter, an `int(pad N)` of more digits): it would build
    /// another key, so it is not written or read.
    Key {
        attribute: &'static str,
        value: String,
        pattern: &'static str,
    },
    /// A calculated shard (`shard(N, of attr)`) set to another value than
    /// the one its source gives.
    Shard {
        attribute: &'static str,
        given: i64,
        expected: i64,
    },
    /// An attribute a key or a record needs is absent.
    Missing { attribute: String },
    /// An attribute read back holds another type or value than its own.
    Decode { attribute: String, message: String },
    /// An item read back whose keys no entity the read returns writes.
    Unidentified { key: String },
    /// Keys a `BatchGetItem` left unprocessed after every retry.
    Unprocessed { keys: usize },
    /// The request failed (the SDK's error).
    Sdk(Box<dyn std::error::Error + Send + Sync>),
}

impl Error {
    fn sdk(error: impl std::error::Error + Send + Sync + 'static) -> Self {
        Error::Sdk(Box::new(error))
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Key {
                attribute,
                value,
                pattern,
            } => write!(f, "`{attribute}` = {value:?} does not match {pattern}"),
            Error::Shard {
                attribute,
                given,
                expected,
            } => write!(f, "`{attribute}` is {given}, not {expected}"),
            Error::Missing { attribute } => write!(f, "`{attribute}` is missing"),
            Error::Decode { attribute, message } => write!(f, "`{attribute}`: {message}"),
            Error::Unidentified { key } => write!(f, "no entity of the read has the key {key}"),
            Error::Unprocessed { keys } => write!(f, "{keys} keys stayed unprocessed"),
            Error::Sdk(error) => write!(f, "{}", DisplayErrorContext(error.as_ref())),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Sdk(error) => Some(error.as_ref()),
            _ => None,
        }
    }
}
"#;

pub const TABLE: &str = r#"/// The table on an endpoint: a client and the table's name there.
#[derive(Clone, Debug)]
pub struct Table {
    client: Client,
    name: String,
}

impl Table {
    /// The table under its name in the schema, [`TABLE_NAME`].
    pub fn new(client: Client) -> Self {
        Self::named(client, TABLE_NAME)
    }

    /// The table under another name (a prefix per environment, a test's).
    pub fn named(client: Client, name: impl Into<String>) -> Self {
        Table {
            client,
            name: name.into(),
        }
    }

    pub fn client(&self) -> &Client {
        &self.client
    }

    pub fn name(&self) -> &str {
        &self.name
    }
}
"#;

const CHECKED: &str = r#"/// `text` if it is in the language of `pattern`, else the error naming it.
fn checked(attribute: &'static str, text: String, pattern: &Pattern) -> Result<String, Error> {
    if pattern.regex().is_match(&text) {
        Ok(text)
    } else {
        Err(Error::Key {
            attribute,
            value: text,
            pattern: pattern.source,
        })
    }
}
"#;

const REQUIRED: &str = r#"fn required<T>(value: Option<T>, attribute: &str) -> Result<T, Error> {
    value.ok_or_else(|| Error::Missing {
        attribute: attribute.to_string(),
    })
}
"#;

const TEXT: &str = r#"fn decode_text(item: &Item, name: &str) -> Result<Option<String>, Error> {
    match item.get(name) {
        None | Some(AttributeValue::Null(_)) => Ok(None),
        Some(AttributeValue::S(text)) => Ok(Some(text.clone())),
        Some(_) => Err(mistyped(name, "a string (S)")),
    }
}
"#;

const INTEGER: &str = r#"fn decode_integer(item: &Item, name: &str) -> Result<Option<i64>, Error> {
    match decode_number(item, name)? {
        None => Ok(None),
        Some(text) => text.parse().map(Some).map_err(|_| Error::Decode {
            attribute: name.to_string(),
            message: format!("{text:?} is not an integer"),
        }),
    }
}
"#;

/// Also holds `mistyped`, which every decoder calls.
const NUMBER: &str = r#"/// A Number's text (or a key's text: an attribute a key takes the place of).
fn decode_number(item: &Item, name: &str) -> Result<Option<String>, Error> {
    match item.get(name) {
        None | Some(AttributeValue::Null(_)) => Ok(None),
        Some(AttributeValue::N(text) | AttributeValue::S(text)) => Ok(Some(text.clone())),
        Some(_) => Err(mistyped(name, "a number (N)")),
    }
}
"#;

const BOOLEAN: &str = r#"fn decode_bool(item: &Item, name: &str) -> Result<Option<bool>, Error> {
    match item.get(name) {
        None | Some(AttributeValue::Null(_)) => Ok(None),
        Some(AttributeValue::Bool(value)) => Ok(Some(*value)),
        Some(AttributeValue::S(text)) if text == "true" || text == "false" => {
            Ok(Some(text == "true"))
        }
        Some(_) => Err(mistyped(name, "a boolean (BOOL)")),
    }
}
"#;

const BINARY: &str = r#"fn decode_binary(item: &Item, name: &str) -> Result<Option<Vec<u8>>, Error> {
    match item.get(name) {
        None | Some(AttributeValue::Null(_)) => Ok(None),
        Some(AttributeValue::B(blob)) => Ok(Some(blob.as_ref().to_vec())),
        Some(_) => Err(mistyped(name, "binary (B)")),
    }
}
"#;

const LIST: &str = r#"fn decode_list(item: &Item, name: &str) -> Result<Option<Vec<AttributeValue>>, Error> {
    match item.get(name) {
        None | Some(AttributeValue::Null(_)) => Ok(None),
        Some(AttributeValue::L(values)) => Ok(Some(values.clone())),
        Some(_) => Err(mistyped(name, "a list (L)")),
    }
}
"#;

const MAP: &str = r#"fn decode_map(item: &Item, name: &str) -> Result<Option<Item>, Error> {
    match item.get(name) {
        None | Some(AttributeValue::Null(_)) => Ok(None),
        Some(AttributeValue::M(values)) => Ok(Some(values.clone())),
        Some(_) => Err(mistyped(name, "a map (M)")),
    }
}
"#;

pub const MISTYPED: &str = r#"fn mistyped(name: &str, expected: &str) -> Error {
    Error::Decode {
        attribute: name.to_string(),
        message: format!("is not {expected}"),
    }
}
"#;

const MATCHES: &str = r#"/// Whether the item's key attribute `name` is in `pattern`'s language.
fn matches(item: &Item, name: &str, pattern: &Pattern) -> bool {
    match item.get(name) {
        Some(AttributeValue::S(text) | AttributeValue::N(text)) => pattern.regex().is_match(text),
        _ => false,
    }
}
"#;

const PARSED: &str = r#"/// An enum's value from its text.
fn parsed<T: std::str::FromStr<Err = Error>>(text: Option<String>) -> Result<Option<T>, Error> {
    text.map(|text| text.parse()).transpose()
}
"#;

const RECORDS: &str = r#"/// Each item decoded, in order; the first error ends the stream.
fn records<T: Send + 'static>(items: Items, decode: fn(&Item) -> Result<T, Error>) -> Records<T> {
    items
        .and_then(move |item| future::ready(decode(&item)))
        .boxed()
}
"#;

const SHARD_OF: &str = r#"/// FNV-1a (32 bit) over the UTF-8 bytes of the source's key text, modulo
/// the shard count: the shard `dyno` computes for `shard(N, of attr)`.
fn shard_of(text: &str, count: u32) -> i64 {
    let mut hash: u32 = 0x811c_9dc5;
    for byte in text.bytes() {
        hash ^= u32::from(byte);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    i64::from(hash % count)
}
"#;

const RANDOM_SHARD: &str = r#"/// A shard drawn at random, `0` to `count - 1` (not for cryptography).
fn random_shard(count: u64) -> i64 {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    hasher.write_u128(now.map_or(0, |d| d.as_nanos()));
    (hasher.finish() % count) as i64
}
"#;

/// `query_pages` or `scan_pages`: the items of a Query or a Scan.
fn pages(operation: &str) -> String {
    let function = format!("{}_pages", operation.to_lowercase());
    let builder = format!("{operation}FluentBuilder");
    PAGES
        .replace("OPERATION", operation)
        .replace("FUNCTION", &function)
        .replace("BUILDER", &builder)
}

const PAGES: &str = r#"/// The items of a OPERATION, page by page as the caller reads them, following
/// `LastEvaluatedKey`.
fn FUNCTION(request: BUILDER) -> Items {
    stream::try_unfold(Some(None), move |start: Option<Option<Item>>| {
        let request = request.clone();
        async move {
            let Some(start) = start else {
                return Ok(None);
            };
            let output = request
                .set_exclusive_start_key(start)
                .send()
                .await
                .map_err(Error::sdk)?;
            let next = output.last_evaluated_key.filter(|key| !key.is_empty());
            let items = output.items.unwrap_or_default().into_iter().map(Ok);
            Ok(Some((stream::iter(items), next.map(Some))))
        }
    })
    .try_flatten()
    .boxed()
}
"#;

const MERGE: &str = r#"/// The items of several Queries (one per shard) as one stream ordered by
/// the sort key `key`, as DynamoDB orders it: each source is already in
/// that order, so the merge reads one page of each before the first item.
fn merge(sources: Vec<Items>, key: &'static str, forward: bool) -> Items {
    let state: (Vec<Items>, Option<Vec<Option<Item>>>) = (sources, None);
    stream::try_unfold(state, move |(mut sources, heads)| async move {
        let mut heads = match heads {
            Some(heads) => heads,
            None => future::try_join_all(sources.iter_mut().map(|s| s.try_next())).await?,
        };
        let mut best: Option<usize> = None;
        for (i, head) in heads.iter().enumerate() {
            let Some(item) = head else { continue };
            let first = match best.and_then(|b| heads[b].as_ref()) {
                None => true,
                Some(other) => {
                    let order = compare(item.get(key), other.get(key));
                    if forward {
                        order.is_lt()
                    } else {
                        order.is_gt()
                    }
                }
            };
            if first {
                best = Some(i);
            }
        }
        let Some(best) = best else {
            return Ok(None);
        };
        let item = heads[best].take();
        heads[best] = sources[best].try_next().await?;
        Ok(item.map(|item| (item, (sources, Some(heads)))))
    })
    .boxed()
}

/// DynamoDB's order of key values: strings and binary by their bytes,
/// numbers by value.
fn compare(a: Option<&AttributeValue>, b: Option<&AttributeValue>) -> Ordering {
    match (a, b) {
        (Some(AttributeValue::S(a)), Some(AttributeValue::S(b))) => a.as_bytes().cmp(b.as_bytes()),
        (Some(AttributeValue::N(a)), Some(AttributeValue::N(b))) => compare_numbers(a, b),
        (Some(AttributeValue::B(a)), Some(AttributeValue::B(b))) => a.as_ref().cmp(b.as_ref()),
        (a, b) => a.is_some().cmp(&b.is_some()),
    }
}

/// Two Numbers by value, exactly (as decimals, not floats).
fn compare_numbers(a: &str, b: &str) -> Ordering {
    let (a_negative, a) = sign(a);
    let (b_negative, b) = sign(b);
    match (a_negative, b_negative) {
        (false, true) => Ordering::Greater,
        (true, false) => Ordering::Less,
        (false, false) => magnitude(a, b),
        (true, true) => magnitude(b, a),
    }
}

fn sign(number: &str) -> (bool, &str) {
    match number.strip_prefix('-') {
        Some(rest) if rest.trim_matches(['0', '.']).is_empty() => (false, rest),
        Some(rest) => (true, rest),
        None => (false, number.strip_prefix('+').unwrap_or(number)),
    }
}

fn magnitude(a: &str, b: &str) -> Ordering {
    let (a_int, a_frac) = a.split_once('.').unwrap_or((a, ""));
    let (b_int, b_frac) = b.split_once('.').unwrap_or((b, ""));
    let (a_int, b_int) = (a_int.trim_start_matches('0'), b_int.trim_start_matches('0'));
    let (a_frac, b_frac) = (a_frac.trim_end_matches('0'), b_frac.trim_end_matches('0'));
    a_int
        .len()
        .cmp(&b_int.len())
        .then_with(|| a_int.cmp(b_int))
        .then_with(|| a_frac.cmp(b_frac))
}
"#;

const BATCH_GET: &str = r#"/// The items of `keys` on `table`, up to 100 keys a request, retrying the
/// keys DynamoDB leaves unprocessed (with a growing pause).
async fn batch_get(
    client: &Client,
    table: &str,
    keys: Vec<Item>,
    consistent: bool,
) -> Result<Vec<Item>, Error> {
    let mut items = Vec::new();
    for chunk in keys.chunks(100) {
        let mut pending = chunk.to_vec();
        let mut attempt = 0;
        while !pending.is_empty() {
            let request = KeysAndAttributes::builder()
                .set_keys(Some(pending))
                .consistent_read(consistent)
                .build()
                .map_err(Error::sdk)?;
            let output = client
                .batch_get_item()
                .request_items(table, request)
                .send()
                .await
                .map_err(Error::sdk)?;
            let mut responses = output.responses.unwrap_or_default();
            items.extend(responses.remove(table).unwrap_or_default());
            let mut unprocessed = output.unprocessed_keys.unwrap_or_default();
            pending = unprocessed
                .remove(table)
                .map(|k| k.keys)
                .unwrap_or_default();
            if pending.is_empty() {
                break;
            }
            attempt += 1;
            if attempt > 8 {
                return Err(Error::Unprocessed {
                    keys: pending.len(),
                });
            }
            if let Some(sleep) = client.config().sleep_impl() {
                sleep.sleep(Duration::from_millis(25 << attempt)).await;
            }
        }
    }
    Ok(items)
}
"#;
