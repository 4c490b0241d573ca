//! The AWS SDK side of `dyno verify`: a client for the endpoint, creating
//! and deleting the tables, writing the samples and running Queries. The
//! samples stay in DynamoDB JSON (`serde_json`); this module converts.

use std::collections::HashMap;
use std::time::Duration;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::{BehaviorVersion, Credentials, Region};
use aws_sdk_dynamodb::error::{DisplayErrorContext, ProvideErrorMetadata};
use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, AttributeValue, BillingMode, GlobalSecondaryIndex, IndexStatus, KeySchemaElement,
    KeyType as SdkKeyType, LocalSecondaryIndex, Projection as SdkProjection, ProjectionType, PutRequest,
    ScalarAttributeType, TableStatus, TimeToLiveSpecification, WriteRequest,
};
use aws_smithy_http_client::tls;
use serde_json::{Map, Value as Json};

use super::pages::Pages;
use super::plan::ConcreteQuery;
use crate::check::model::{AccessKind, KeySchema, Model, Projection, Table};
use crate::check::sample::{BATCH_SIZE, base64, base64_decode};
use crate::syntax::ast::KeyType;

/// Is the endpoint on this machine (moto, DynamoDB Local)?
pub fn is_local(endpoint: &str) -> bool {
    let rest = endpoint.split("://").nth(1).unwrap_or(endpoint);
    let host = rest.split('/').next().unwrap_or_default();
    let host = match host.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or_default(),
        None => host.rsplit_once(':').map_or(host, |(h, _)| h),
    };
    host == "localhost" || host == "::1" || host.starts_with("127.") || host.ends_with(".localhost")
}

/// `dynamodb.eu-west-1.amazonaws.com` → `eu-west-1`.
fn region_of(endpoint: &str) -> Option<String> {
    let rest = endpoint.split("://").nth(1).unwrap_or(endpoint);
    let host = rest.split(['/', ':']).next()?;
    let mut labels = host.split('.');
    (labels.next()? == "dynamodb").then_some(())?;
    let region = labels.next()?;
    (host.contains(".amazonaws.")).then(|| region.to_string())
}

fn env_set(name: &str) -> bool {
    std::env::var_os(name).is_some_and(|v| !v.is_empty())
}

/// Are credentials configured anywhere the standard chain looks without
/// asking the network (environment, profile files)?
fn credentials_configured() -> bool {
    if env_set("AWS_ACCESS_KEY_ID")
        || env_set("AWS_PROFILE")
        || env_set("AWS_WEB_IDENTITY_TOKEN_FILE")
        || env_set("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI")
        || env_set("AWS_CONTAINER_CREDENTIALS_FULL_URI")
    {
        return true;
    }
    let home = std::env::var_os("HOME").map(std::path::PathBuf::from);
    let file = |var: &str, default: &str| {
        std::env::var_os(var)
            .map(std::path::PathBuf::from)
            .or_else(|| home.as_ref().map(|h| h.join(".aws").join(default)))
            .is_some_and(|p| p.is_file())
    };
    file("AWS_SHARED_CREDENTIALS_FILE", "credentials") || file("AWS_CONFIG_FILE", "config")
}

fn region_configured() -> bool {
    env_set("AWS_REGION") || env_set("AWS_DEFAULT_REGION") || credentials_configured()
}

/// A client for the endpoint. Credentials and region come from the standard
/// chain; for an endpoint on this machine with nothing configured, dummy
/// credentials and `us-east-1` (so nothing probes the instance metadata
/// service).
pub async fn client(endpoint: &str) -> Client {
    let http = aws_smithy_http_client::Builder::new()
        .tls_provider(tls::Provider::Rustls(tls::rustls_provider::CryptoMode::Ring))
        .build_https();
    let mut loader = aws_config::defaults(BehaviorVersion::latest())
        .http_client(http)
        .endpoint_url(endpoint);
    let local = is_local(endpoint);
    if local && !credentials_configured() {
        loader = loader.credentials_provider(Credentials::new("dyno", "dyno", None, None, "dyno-verify-local"));
    }
    if !region_configured() {
        let region = region_of(endpoint).unwrap_or_else(|| "us-east-1".into());
        loader = loader.region(Region::new(region));
    }
    Client::new(&loader.load().await)
}

pub(super) fn sdk_error(what: &str, error: impl std::error::Error) -> String {
    format!("{what}: {}", DisplayErrorContext(error))
}

fn scalar(ty: KeyType) -> ScalarAttributeType {
    match ty {
        KeyType::String => ScalarAttributeType::S,
        KeyType::Number => ScalarAttributeType::N,
        KeyType::Binary => ScalarAttributeType::B,
    }
}

/// HASH then RANGE elements; a multi-attribute GSI key has one per
/// attribute, partition attributes first (as the CloudFormation export).
fn key_schema(access: &KeySchema) -> Result<Vec<KeySchemaElement>, String> {
    let element = |name: &str, ty: SdkKeyType| {
        KeySchemaElement::builder()
            .attribute_name(name)
            .key_type(ty)
            .build()
            .map_err(|e| e.to_string())
    };
    let hash = access.partition_keys().map(|k| element(&k.name, SdkKeyType::Hash));
    let range = access.sort_keys().map(|k| element(&k.name, SdkKeyType::Range));
    hash.chain(range).collect()
}

fn projection(projection: &Projection) -> SdkProjection {
    match projection {
        Projection::All => SdkProjection::builder().projection_type(ProjectionType::All).build(),
        Projection::KeysOnly => SdkProjection::builder()
            .projection_type(ProjectionType::KeysOnly)
            .build(),
        Projection::Include(names) => SdkProjection::builder()
            .projection_type(ProjectionType::Include)
            .set_non_key_attributes(Some(names.clone()))
            .build(),
    }
}

/// Creates the table under `name` (its keys, indexes and projections,
/// on-demand billing) and waits until it and its indexes are active. An
/// endpoint that predates keys of several attributes (November 2025)
/// rejects such a global index: the table is then created without them,
/// and `Ok(Some(why))` says what the endpoint answered.
pub async fn create_table(client: &Client, table: &Table, name: &str) -> Result<Option<String>, String> {
    match create(client, table, name, true).await {
        Ok(()) => Ok(None),
        Err(error) if table.access.iter().any(|a| a.is_multi_attribute()) => {
            create(client, table, name, false).await?;
            Ok(Some(error))
        }
        Err(error) => Err(error),
    }
}

async fn create(client: &Client, table: &Table, name: &str, multi_attribute: bool) -> Result<(), String> {
    let base = table
        .base()
        .ok_or_else(|| format!("table `{}` has no key", table.name.text))?;
    let mut definitions: Vec<AttributeDefinition> = Vec::new();
    let mut defined: Vec<&str> = Vec::new();
    let accesses = table
        .access
        .iter()
        .filter(|a| multi_attribute || !a.is_multi_attribute());
    for key in accesses.clone().flat_map(|a| a.key_attributes()) {
        if defined.contains(&key.name.as_str()) {
            continue;
        }
        defined.push(&key.name);
        definitions.push(
            AttributeDefinition::builder()
                .attribute_name(&key.name)
                .attribute_type(scalar(key.ty))
                .build()
                .map_err(|e| e.to_string())?,
        );
    }
    let mut gsis = Vec::new();
    let mut lsis = Vec::new();
    for access in accesses.filter(|a| a.is_index()) {
        match access.kind {
            AccessKind::Gsi => gsis.push(
                GlobalSecondaryIndex::builder()
                    .index_name(access.name.text.as_str())
                    .set_key_schema(Some(key_schema(access)?))
                    .projection(projection(&access.projection))
                    .build()
                    .map_err(|e| e.to_string())?,
            ),
            AccessKind::Lsi => lsis.push(
                LocalSecondaryIndex::builder()
                    .index_name(access.name.text.as_str())
                    .set_key_schema(Some(key_schema(access)?))
                    .projection(projection(&access.projection))
                    .build()
                    .map_err(|e| e.to_string())?,
            ),
            AccessKind::Base => {}
        }
    }
    client
        .create_table()
        .table_name(name)
        .set_attribute_definitions(Some(definitions))
        .set_key_schema(Some(key_schema(base)?))
        .set_global_secondary_indexes((!gsis.is_empty()).then_some(gsis))
        .set_local_secondary_indexes((!lsis.is_empty()).then_some(lsis))
        .billing_mode(BillingMode::PayPerRequest)
        .send()
        .await
        .map_err(|e| {
            // The service's own words when it answered (a ValidationException
            // naming the key schema), the whole error chain otherwise.
            match e.as_service_error().and_then(|s| Some((s.code()?, s.message()?))) {
                Some((code, message)) => format!("creating table `{name}`: {code}: {message}"),
                None => sdk_error(&format!("creating table `{name}`"), e),
            }
        })?;
    wait_active(client, name).await?;
    if let Some(ttl) = &table.ttl {
        enable_ttl(client, name, &ttl.text).await?;
    }
    Ok(())
}

/// UpdateTimeToLive on an active table: what the CloudFormation export's
/// `TimeToLiveSpecification` does, so the endpoint sees the table as
/// deployed. The samples' expiry times are far in the future, so no item
/// expires while verify reads it.
async fn enable_ttl(client: &Client, name: &str, attribute: &str) -> Result<(), String> {
    let specification = TimeToLiveSpecification::builder()
        .attribute_name(attribute)
        .enabled(true)
        .build()
        .map_err(|e| e.to_string())?;
    client
        .update_time_to_live()
        .table_name(name)
        .time_to_live_specification(specification)
        .send()
        .await
        .map_err(|e| sdk_error(&format!("enabling time to live on table `{name}`"), e))?;
    Ok(())
}

async fn wait_active(client: &Client, name: &str) -> Result<(), String> {
    let mut delay = Duration::from_millis(100);
    let deadline = std::time::Instant::now() + Duration::from_secs(600);
    loop {
        let described = client
            .describe_table()
            .table_name(name)
            .send()
            .await
            .map_err(|e| sdk_error(&format!("describing table `{name}`"), e))?;
        if let Some(table) = described.table() {
            let indexes_active = table
                .global_secondary_indexes()
                .iter()
                .all(|i| i.index_status().is_none_or(|s| *s == IndexStatus::Active));
            if table.table_status() == Some(&TableStatus::Active) && indexes_active {
                return Ok(());
            }
        }
        if std::time::Instant::now() > deadline {
            return Err(format!("table `{name}` did not become active within 10 minutes"));
        }
        tokio::time::sleep(delay).await;
        delay = (delay * 2).min(Duration::from_secs(5));
    }
}

pub async fn delete_table(client: &Client, name: &str) -> Result<(), String> {
    client
        .delete_table()
        .table_name(name)
        .send()
        .await
        .map(|_| ())
        .map_err(|e| sdk_error(&format!("deleting table `{name}`"), e))
}

/// Writes the items with BatchWriteItem, 25 at a time, retrying what the
/// endpoint leaves unprocessed.
pub async fn write_items(client: &Client, name: &str, items: &[&Map<String, Json>]) -> Result<(), String> {
    for chunk in items.chunks(BATCH_SIZE) {
        let mut requests: Vec<WriteRequest> = Vec::new();
        for item in chunk {
            let put = PutRequest::builder()
                .set_item(Some(to_item(item)))
                .build()
                .map_err(|e| e.to_string())?;
            requests.push(WriteRequest::builder().put_request(put).build());
        }
        let mut pending = HashMap::from([(name.to_string(), requests)]);
        let mut delay = Duration::from_millis(50);
        for attempt in 0.. {
            let output = client
                .batch_write_item()
                .set_request_items(Some(pending))
                .send()
                .await
                .map_err(|e| sdk_error(&format!("writing items to `{name}`"), e))?;
            pending = output.unprocessed_items.unwrap_or_default();
            pending.retain(|_, v| !v.is_empty());
            if pending.is_empty() {
                break;
            }
            if attempt == 10 {
                return Err(format!("writing items to `{name}`: still unprocessed after 10 retries"));
            }
            tokio::time::sleep(delay).await;
            delay = (delay * 2).min(Duration::from_secs(2));
        }
    }
    Ok(())
}

/// A filter's `#fN` names and `:fN` values as the SDK takes them.
pub fn filter_placeholders(
    filter: &super::filtered::ConcreteFilter,
) -> (HashMap<String, String>, HashMap<String, AttributeValue>) {
    let names = filter
        .names
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
        .collect();
    let values = filter.values.iter().map(|(k, v)| (k.clone(), to_value(v))).collect();
    (names, values)
}

/// A key value as the SDK takes it; a binary key is written base64.
pub fn key_value(ty: KeyType, text: String) -> AttributeValue {
    match ty {
        KeyType::String => AttributeValue::S(text),
        KeyType::Number => AttributeValue::N(text),
        KeyType::Binary => AttributeValue::B(Blob::new(base64_decode(&text).unwrap_or_else(|_| text.into_bytes()))),
    }
}

impl Pages {
    /// Adds one response's items (the first response's count is the first
    /// page's); the key to go on from, with `follow` and more to read.
    pub fn add(
        &mut self,
        items: &[HashMap<String, AttributeValue>],
        last_evaluated_key: Option<HashMap<String, AttributeValue>>,
        follow: bool,
    ) -> Option<HashMap<String, AttributeValue>> {
        self.pages += 1;
        self.items.extend(items.iter().map(from_item));
        if self.pages == 1 {
            self.first_page = self.items.len();
        }
        last_evaluated_key.filter(|key| follow && !key.is_empty())
    }
}

/// Runs the Query and (with `follow`) follows `LastEvaluatedKey` to the last
/// page, keeping the first page's size apart.
pub async fn query_pages(
    client: &Client,
    model: &Model,
    query: &ConcreteQuery,
    name: &str,
    follow: bool,
) -> Result<Pages, String> {
    let access = query.key_schema(model);
    // The request `dyno verify` reports is the one sent: its condition,
    // names and values (a multi-attribute key names each attribute).
    let request = query.request(model, name);
    let expression = request["KeyConditionExpression"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let names: HashMap<String, String> = request["ExpressionAttributeNames"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
        .collect();
    let values: HashMap<String, AttributeValue> = request["ExpressionAttributeValues"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(k, v)| (k.clone(), condition_value(v)))
        .collect();
    let mut out = Pages::default();
    let mut start: Option<HashMap<String, AttributeValue>> = None;
    loop {
        let output = client
            .query()
            .table_name(name)
            .set_index_name(access.is_index().then(|| access.name.text.to_string()))
            .key_condition_expression(&expression)
            .set_filter_expression(query.filter.as_ref().map(|f| f.text.clone()))
            .set_expression_attribute_names(Some(names.clone()))
            .set_expression_attribute_values(Some(values.clone()))
            .scan_index_forward(query.forward)
            .consistent_read(query.consistent)
            .set_limit(query.limit.map(|l| l.min(i32::MAX as u64) as i32))
            .set_exclusive_start_key(start.take())
            .send()
            .await
            .map_err(|e| sdk_error("Query", e))?;
        start = out.add(output.items(), output.last_evaluated_key.clone(), follow);
        if start.is_none() {
            break;
        }
        if out.pages >= 10_000 {
            return Err("Query: more than 10000 pages".into());
        }
    }
    Ok(out)
}

/// A condition value: binary text that is not base64 (a `begins_with`
/// prefix cut mid-character) is sent as its bytes.
fn condition_value(value: &Json) -> AttributeValue {
    match value.get("B").and_then(Json::as_str) {
        Some(text) => AttributeValue::B(Blob::new(
            base64_decode(text).unwrap_or_else(|_| text.as_bytes().to_vec()),
        )),
        None => to_value(value),
    }
}

pub fn to_item(item: &Map<String, Json>) -> HashMap<String, AttributeValue> {
    item.iter().map(|(k, v)| (k.clone(), to_value(v))).collect()
}

/// DynamoDB JSON to an SDK value.
pub fn to_value(value: &Json) -> AttributeValue {
    let Some((ty, inner)) = value.as_object().and_then(|o| o.iter().next()) else {
        return AttributeValue::Null(true);
    };
    let text = || inner.as_str().unwrap_or_default().to_string();
    let texts = || -> Vec<String> {
        inner
            .as_array()
            .map(|a| a.iter().filter_map(|v| v.as_str().map(str::to_string)).collect())
            .unwrap_or_default()
    };
    let blob = |t: &str| Blob::new(base64_decode(t).unwrap_or_default());
    match ty.as_str() {
        "S" => AttributeValue::S(text()),
        "N" => AttributeValue::N(text()),
        "B" => AttributeValue::B(blob(&text())),
        "BOOL" => AttributeValue::Bool(inner.as_bool().unwrap_or_default()),
        "L" => AttributeValue::L(
            inner
                .as_array()
                .map(|a| a.iter().map(to_value).collect())
                .unwrap_or_default(),
        ),
        "M" => AttributeValue::M(inner.as_object().map(to_item).unwrap_or_default()),
        "SS" => AttributeValue::Ss(texts()),
        "NS" => AttributeValue::Ns(texts()),
        "BS" => AttributeValue::Bs(texts().iter().map(|t| blob(t)).collect()),
        _ => AttributeValue::Null(true),
    }
}

pub fn from_item(item: &HashMap<String, AttributeValue>) -> Map<String, Json> {
    let mut keys: Vec<&String> = item.keys().collect();
    keys.sort();
    keys.into_iter().map(|k| (k.clone(), from_value(&item[k]))).collect()
}

/// An SDK value as DynamoDB JSON.
pub fn from_value(value: &AttributeValue) -> Json {
    use serde_json::json;
    match value {
        AttributeValue::S(s) => json!({ "S": s }),
        AttributeValue::N(n) => json!({ "N": n }),
        AttributeValue::B(b) => json!({ "B": base64(b.as_ref()) }),
        AttributeValue::Bool(b) => json!({ "BOOL": b }),
        AttributeValue::Null(_) => json!({ "NULL": true }),
        AttributeValue::L(l) => json!({ "L": l.iter().map(from_value).collect::<Vec<_>>() }),
        AttributeValue::M(m) => json!({ "M": Json::Object(from_item(m)) }),
        AttributeValue::Ss(v) => json!({ "SS": v }),
        AttributeValue::Ns(v) => json!({ "NS": v }),
        AttributeValue::Bs(v) => json!({ "BS": v.iter().map(|b| base64(b.as_ref())).collect::<Vec<_>>() }),
        _ => Json::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_endpoints_are_recognised() {
        for local in [
            "http://localhost:8000",
            "http://127.0.0.1:5000",
            "http://[::1]:8000/",
            "localhost:8000",
        ] {
            assert!(is_local(local), "{local}");
        }
        for remote in ["https://dynamodb.eu-west-1.amazonaws.com", "http://10.0.0.1:8000"] {
            assert!(!is_local(remote), "{remote}");
        }
        assert_eq!(
            region_of("https://dynamodb.eu-west-1.amazonaws.com").as_deref(),
            Some("eu-west-1")
        );
        assert_eq!(region_of("http://localhost:8000"), None);
    }

    #[test]
    fn values_round_trip_through_the_sdk_types() {
        let item: Map<String, Json> = serde_json::from_str(
            r#"{"a": {"S": "x"}, "b": {"N": "4.5"}, "c": {"B": "AAEC"}, "d": {"BOOL": true},
                "e": {"L": [{"S": "y"}, {"N": "1"}]}, "f": {"M": {"g": {"NULL": true}}}, "h": {"SS": ["p", "q"]}}"#,
        )
        .unwrap();
        assert_eq!(from_item(&to_item(&item)), item);
    }
}
