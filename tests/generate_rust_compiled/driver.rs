//! Runs the scenario of an example (tests/common/scenario.rs) through its
//! generated module: tables created from the scenario's `create`, each
//! record decoded from its typed JSON with the module's `from_item` and
//! written with its `put`, each read called with its parameters and what
//! it returns compared with `scenario::compare`. Every request the module
//! sends is recorded (an SDK interceptor) and must be the read's request
//! constant with the caller's values filled in.
//!
//! The reads are typed calls, so each example's dispatch is written here
//! by hand for every example, together covering every kind of
//! read (Query, collection, GetItem, BatchGetItem, Scan of segments,
//! random and calculated write shards, filters with caller values,
//! keys-only and `include` indexes, a local index) and an entity that
//! writes two items.

use std::collections::HashMap;
use std::fmt::Debug;
use std::sync::{Arc, Mutex};

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::interceptors::BeforeSerializationInterceptorContextRef;
use aws_sdk_dynamodb::config::{ConfigBag, Intercept};
use aws_sdk_dynamodb::error::BoxError;
use aws_sdk_dynamodb::operation::batch_get_item::BatchGetItemInput;
use aws_sdk_dynamodb::operation::get_item::GetItemInput;
use aws_sdk_dynamodb::operation::query::QueryInput;
use aws_sdk_dynamodb::operation::scan::ScanInput;
use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, GlobalSecondaryIndex, KeySchemaElement, KeyType, LocalSecondaryIndex, Projection,
    ProjectionType, ScalarAttributeType,
};
use futures::{Stream, StreamExt};
use serde_json::{Map, Value as Json, json};

use dyno::check::model::{AttrType, Model};
use dyno::check::sample;
use dyno::verify::dynamo;

use super::common::scenario;
use super::complaint_management_system as complaints;
use super::reoccuring_payments as payments;
use super::{billing, chat, device_state_log, games, online_shop, session_store, shop, sns, teams};

type Item = HashMap<String, AttributeValue>;

/// What a read returned: each record's entity and its attributes.
pub type Returned = Vec<(&'static str, Item)>;

/// One example's generated module, as the driver calls it.
pub trait Example {
    type Table;
    fn table(client: Client, name: String) -> Self::Table;
    /// Decodes `item` (the record's attributes) as `entity` and puts it.
    async fn put(table: &Self::Table, entity: &str, item: &Item) -> Result<(), String>;
    /// Calls the read `pattern` with `params` (the scenario's typed JSON).
    async fn read(table: &Self::Table, pattern: &str, params: &Json) -> Result<Returned, String>;
}

pub async fn run<E: Example>(file: &str, requests: &[(&str, &str)]) {
    let endpoint = super::common::endpoint();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let analysis = dyno::check::analyze(&std::fs::read_to_string(&path).unwrap());
    let model = &analysis.schema.model;
    let unique = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let prefix = format!("gen_rs_{}_{unique}_", std::process::id());
    let scenario = scenario::scenario(&analysis, file, &prefix);
    let recorder = Recorder::default();
    let base = dynamo::client(&endpoint).await;
    let client = Client::from_conf(base.config().to_builder().interceptor(recorder.clone()).build());

    let tables = scenario["tables"].as_array().unwrap();
    let mut handles = HashMap::new();
    for table in tables {
        let name = table["endpoint_name"].as_str().unwrap().to_string();
        create_table(&client, &table["create"]).await;
        handles.insert(
            table["name"].as_str().unwrap().to_string(),
            (E::table(client.clone(), name.clone()), name),
        );
    }
    let result = drive::<E>(model, &scenario, &handles, requests, &recorder).await;
    for (_, name) in handles.values() {
        let _ = dynamo::delete_table(&base, name).await;
    }
    if let Err(failures) = result {
        panic!("{file}:\n{}", failures.join("\n"));
    }
}

async fn drive<E: Example>(
    model: &Model,
    scenario: &Json,
    handles: &HashMap<String, (E::Table, String)>,
    requests: &[(&str, &str)],
    recorder: &Recorder,
) -> Result<(), Vec<String>> {
    for put in scenario["puts"].as_array().unwrap() {
        let entity = put["entity"].as_str().unwrap();
        let item = to_item(model, entity, &put["record"]);
        let (table, _) = &handles[put["table"].as_str().unwrap()];
        E::put(table, entity, &item)
            .await
            .map_err(|e| vec![format!("put {entity} {}: {e}", put["record"])])?;
    }
    let mut failures = Vec::new();
    let reads = scenario["reads"].as_array().unwrap();
    assert_eq!(reads.len(), requests.len(), "every pattern is read");
    for read in reads {
        let pattern = read["pattern"].as_str().unwrap();
        let (table, endpoint_name) = &handles[read["table"].as_str().unwrap()];
        recorder.0.lock().unwrap().clear();
        let returned = match E::read(table, pattern, &read["params"]).await {
            Ok(returned) => returned,
            Err(e) => {
                failures.push(format!("{pattern}: {e}"));
                continue;
            }
        };
        let records: Vec<Json> = returned
            .iter()
            .map(|(entity, item)| json!({ "entity": entity, "record": from_item(model, entity, item) }))
            .collect();
        if let Err(e) = scenario::compare(model, read, &records) {
            failures.push(e);
        }
        let template: Json = requests
            .iter()
            .find(|(name, _)| *name == pattern)
            .map(|(_, text)| serde_json::from_str(text).unwrap())
            .unwrap_or_else(|| panic!("no request constant for {pattern}"));
        let table_name = read["table"].as_str().unwrap();
        let sent = recorder.0.lock().unwrap().clone();
        if sent.is_empty() {
            failures.push(format!("{pattern}: sent no request"));
        }
        for request in sent {
            let request = renamed(&request, endpoint_name, table_name);
            if !fits(&template, &request) {
                failures.push(format!(
                    "{pattern}: sent {request}\nwhich is not its request constant {template}"
                ));
            }
        }
    }
    if failures.is_empty() { Ok(()) } else { Err(failures) }
}

/// The typed record of the scenario as the item of its attributes.
fn to_item(model: &Model, entity: &str, record: &Json) -> Item {
    let entity = model.entity(model.entity_named(entity).unwrap());
    let mut item = Item::new();
    for (name, value) in record.as_object().unwrap() {
        let ty = &entity.attribute(name).unwrap().ty;
        let value = match (ty, value) {
            (_, Json::Null) => continue,
            (AttrType::Int { .. } | AttrType::Epoch(_) | AttrType::Shard { .. }, v) => AttributeValue::N(v.to_string()),
            (AttrType::Decimal, v) => AttributeValue::N(v.as_str().unwrap().to_string()),
            (AttrType::Bool, v) => AttributeValue::Bool(v.as_bool().unwrap()),
            (AttrType::Binary, v) => AttributeValue::B(Blob::new(sample::base64_decode(v.as_str().unwrap()).unwrap())),
            (AttrType::List | AttrType::Map, v) => plain_value(v),
            (_, v) => AttributeValue::S(v.as_str().unwrap().to_string()),
        };
        item.insert(name.clone(), value);
    }
    item
}

/// A plain JSON value (as `sample::plain` writes lists and maps) as an
/// attribute value.
fn plain_value(value: &Json) -> AttributeValue {
    match value {
        Json::Null => AttributeValue::Null(true),
        Json::Bool(b) => AttributeValue::Bool(*b),
        Json::Number(n) => AttributeValue::N(n.to_string()),
        Json::String(s) => AttributeValue::S(s.clone()),
        Json::Array(values) => AttributeValue::L(values.iter().map(plain_value).collect()),
        Json::Object(map) => AttributeValue::M(map.iter().map(|(k, v)| (k.clone(), plain_value(v))).collect()),
    }
}

/// A returned record's attributes as the scenario types them.
fn from_item(model: &Model, entity: &str, item: &Item) -> Json {
    let entity = model.entity(model.entity_named(entity).unwrap());
    let mut out = Map::new();
    for (name, value) in item {
        let Some(attribute) = entity.attribute(name) else {
            out.insert(name.clone(), json!(format!("not an attribute: {value:?}")));
            continue;
        };
        let json = match (&attribute.ty, value) {
            (AttrType::Int { .. } | AttrType::Epoch(_) | AttrType::Shard { .. }, AttributeValue::N(n)) => {
                json!(n.parse::<i64>().unwrap())
            }
            (AttrType::Decimal, AttributeValue::N(n)) => json!(n),
            (AttrType::Bool, AttributeValue::Bool(b)) => json!(b),
            (AttrType::Binary, AttributeValue::B(b)) => json!(sample::base64(b.as_ref())),
            (AttrType::List | AttrType::Map, v) => sample::plain(&dynamo::from_value(v)),
            (_, AttributeValue::S(s)) => json!(s),
            (_, other) => json!(format!("mistyped: {other:?}")),
        };
        out.insert(name.clone(), json);
    }
    Json::Object(out)
}

/// The request as sent, the endpoint's table name back to the schema's.
fn renamed(request: &Json, endpoint_name: &str, table: &str) -> Json {
    match request {
        Json::String(s) if s == endpoint_name => json!(table),
        Json::Object(map) => Json::Object(
            map.iter()
                .map(|(k, v)| {
                    let k = if k == endpoint_name {
                        table.to_string()
                    } else {
                        k.clone()
                    };
                    (k, renamed(v, endpoint_name, table))
                })
                .collect(),
        ),
        Json::Array(values) => Json::Array(values.iter().map(|v| renamed(v, endpoint_name, table)).collect()),
        other => other.clone(),
    }
}

/// Is `sent` the request `template` with the caller's values (`{name}`)
/// filled in? A template's one batch key stands for every key sent.
fn fits(template: &Json, sent: &Json) -> bool {
    match (template, sent) {
        (Json::Object(t), Json::Object(s)) => {
            t.len() == s.len() && t.iter().all(|(k, tv)| s.get(k).is_some_and(|sv| fits(tv, sv)))
        }
        (Json::Array(t), Json::Array(s)) if t.len() == 1 => !s.is_empty() && s.iter().all(|sv| fits(&t[0], sv)),
        (Json::Array(t), Json::Array(s)) => t.len() == s.len() && t.iter().zip(s).all(|(a, b)| fits(a, b)),
        (Json::String(t), Json::String(s)) if t.contains('{') => placeholders(t).is_match(s),
        (Json::String(t), Json::Number(_)) => t.starts_with('{') && t.ends_with('}'),
        _ => template == sent,
    }
}

fn placeholders(template: &str) -> regex::Regex {
    let mut pattern = String::from("^");
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else { break };
        pattern.push_str(&regex::escape(&rest[..open]));
        pattern.push_str("[\\s\\S]*");
        rest = &rest[open + close + 1..];
    }
    pattern.push_str(&regex::escape(rest));
    pattern.push('$');
    regex::Regex::new(&pattern).unwrap()
}

async fn create_table(client: &Client, create: &Json) {
    let text = |v: &Json| v.as_str().unwrap().to_string();
    let key_schema = |v: &Json| -> Vec<KeySchemaElement> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|k| {
                KeySchemaElement::builder()
                    .attribute_name(text(&k["AttributeName"]))
                    .key_type(KeyType::from(k["KeyType"].as_str().unwrap()))
                    .build()
                    .unwrap()
            })
            .collect()
    };
    let projection = |v: &Json| {
        let non_key: Option<Vec<String>> = v["NonKeyAttributes"].as_array().map(|a| a.iter().map(text).collect());
        Projection::builder()
            .projection_type(ProjectionType::from(v["ProjectionType"].as_str().unwrap_or("ALL")))
            .set_non_key_attributes(non_key)
            .build()
    };
    let mut request = client
        .create_table()
        .table_name(text(&create["TableName"]))
        .billing_mode(BillingMode::PayPerRequest)
        .set_key_schema(Some(key_schema(&create["KeySchema"])));
    for definition in create["AttributeDefinitions"].as_array().unwrap() {
        request = request.attribute_definitions(
            AttributeDefinition::builder()
                .attribute_name(text(&definition["AttributeName"]))
                .attribute_type(ScalarAttributeType::from(definition["AttributeType"].as_str().unwrap()))
                .build()
                .unwrap(),
        );
    }
    for index in create["GlobalSecondaryIndexes"].as_array().into_iter().flatten() {
        request = request.global_secondary_indexes(
            GlobalSecondaryIndex::builder()
                .index_name(text(&index["IndexName"]))
                .set_key_schema(Some(key_schema(&index["KeySchema"])))
                .projection(projection(&index["Projection"]))
                .build()
                .unwrap(),
        );
    }
    for index in create["LocalSecondaryIndexes"].as_array().into_iter().flatten() {
        request = request.local_secondary_indexes(
            LocalSecondaryIndex::builder()
                .index_name(text(&index["IndexName"]))
                .set_key_schema(Some(key_schema(&index["KeySchema"])))
                .projection(projection(&index["Projection"]))
                .build()
                .unwrap(),
        );
    }
    request.send().await.unwrap_or_else(|e| {
        panic!(
            "create {}: {}",
            create["TableName"],
            aws_sdk_dynamodb::error::DisplayErrorContext(e)
        )
    });
}

/// Records every request the module sends, as `dyno explain` writes one.
#[derive(Clone, Debug, Default)]
struct Recorder(Arc<Mutex<Vec<Json>>>);

impl Intercept for Recorder {
    fn name(&self) -> &'static str {
        "dyno-test-recorder"
    }

    fn read_before_execution(
        &self,
        context: &BeforeSerializationInterceptorContextRef<'_>,
        _: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let input = context.input();
        let json = if let Some(q) = input.downcast_ref::<QueryInput>() {
            Some(fields(vec![
                ("TableName", q.table_name.as_ref().map(|v| json!(v))),
                ("IndexName", q.index_name.as_ref().map(|v| json!(v))),
                (
                    "KeyConditionExpression",
                    q.key_condition_expression.as_ref().map(|v| json!(v)),
                ),
                ("FilterExpression", q.filter_expression.as_ref().map(|v| json!(v))),
                (
                    "ExpressionAttributeNames",
                    q.expression_attribute_names.as_ref().map(|v| json!(v)),
                ),
                (
                    "ExpressionAttributeValues",
                    q.expression_attribute_values.as_ref().map(values),
                ),
                ("ScanIndexForward", q.scan_index_forward.map(|v| json!(v))),
                ("ConsistentRead", q.consistent_read.map(|v| json!(v))),
                ("Limit", q.limit.map(|v| json!(v))),
            ]))
        } else if let Some(s) = input.downcast_ref::<ScanInput>() {
            Some(fields(vec![
                ("TableName", s.table_name.as_ref().map(|v| json!(v))),
                ("IndexName", s.index_name.as_ref().map(|v| json!(v))),
                ("FilterExpression", s.filter_expression.as_ref().map(|v| json!(v))),
                (
                    "ExpressionAttributeNames",
                    s.expression_attribute_names.as_ref().map(|v| json!(v)),
                ),
                (
                    "ExpressionAttributeValues",
                    s.expression_attribute_values.as_ref().map(values),
                ),
                ("ConsistentRead", s.consistent_read.map(|v| json!(v))),
                ("Limit", s.limit.map(|v| json!(v))),
                ("Segment", s.segment.map(|v| json!(v))),
                ("TotalSegments", s.total_segments.map(|v| json!(v))),
            ]))
        } else if let Some(g) = input.downcast_ref::<GetItemInput>() {
            Some(fields(vec![
                ("TableName", g.table_name.as_ref().map(|v| json!(v))),
                ("Key", g.key.as_ref().map(values)),
                ("ConsistentRead", g.consistent_read.map(|v| json!(v))),
            ]))
        } else {
            input.downcast_ref::<BatchGetItemInput>().map(|b| {
                let mut items = Map::new();
                for (table, keys) in b.request_items.iter().flatten() {
                    items.insert(
                        table.clone(),
                        fields(vec![
                            ("Keys", Some(Json::Array(keys.keys.iter().map(values).collect()))),
                            ("ConsistentRead", keys.consistent_read.map(|v| json!(v))),
                        ]),
                    );
                }
                json!({ "RequestItems": items })
            })
        };
        if let Some(json) = json {
            self.0.lock().unwrap().push(json);
        }
        Ok(())
    }
}

fn fields(fields: Vec<(&str, Option<Json>)>) -> Json {
    Json::Object(
        fields
            .into_iter()
            .filter_map(|(k, v)| v.map(|v| (k.to_string(), v)))
            .collect(),
    )
}

fn values(map: &Item) -> Json {
    Json::Object(map.iter().map(|(k, v)| (k.clone(), dynamo::from_value(v))).collect())
}

/// Every record of a paginated read.
async fn all<T, E: Debug, S: Stream<Item = Result<T, E>> + Unpin>(
    records: Result<S, E>,
    each: impl Fn(T) -> (&'static str, Item),
) -> Result<Returned, String> {
    let mut records = records.map_err(|e| format!("{e:?}"))?;
    let mut out = Vec::new();
    while let Some(record) = records.next().await {
        out.push(each(record.map_err(|e| format!("{e:?}"))?));
    }
    Ok(out)
}

/// The record of a read of one item, if any.
fn one<T, E: Debug>(
    record: Result<Option<T>, E>,
    each: impl Fn(T) -> (&'static str, Item),
) -> Result<Returned, String> {
    Ok(record.map_err(|e| format!("{e:?}"))?.into_iter().map(each).collect())
}

fn text(params: &Json, name: &str) -> String {
    match &params[name] {
        Json::String(s) => s.clone(),
        other => panic!("parameter {name} is {other}"),
    }
}

fn int(params: &Json, name: &str) -> i64 {
    params[name]
        .as_i64()
        .unwrap_or_else(|| panic!("parameter {name} is {}", params[name]))
}

fn failed(e: impl Debug) -> String {
    format!("{e:?}")
}

pub struct Billing;

impl Example for Billing {
    type Table = billing::Table;

    fn table(client: Client, name: String) -> billing::Table {
        billing::Table::named(client, name)
    }

    async fn put(table: &billing::Table, entity: &str, item: &Item) -> Result<(), String> {
        match entity {
            "Tenant" => billing::Tenant::from_item(item).map_err(failed)?.put(table).await,
            "User" => billing::User::from_item(item).map_err(failed)?.put(table).await,
            "Invoice" => billing::Invoice::from_item(item).map_err(failed)?.put(table).await,
            "AuditEvent" => billing::AuditEvent::from_item(item).map_err(failed)?.put(table).await,
            other => return Err(format!("no entity {other}")),
        }
        .map_err(failed)
    }

    async fn read(table: &billing::Table, pattern: &str, p: &Json) -> Result<Returned, String> {
        use billing::TenantEverythingItem as Everything;
        let user = |r: billing::User| ("User", r.attributes());
        let invoice = |r: billing::Invoice| ("Invoice", r.attributes());
        let audit = |r: billing::AuditEvent| ("AuditEvent", r.attributes());
        match pattern {
            "tenantEverything" => {
                let each = |r| match r {
                    Everything::Tenant(r) => ("Tenant", r.attributes()),
                    Everything::User(r) => ("User", r.attributes()),
                    Everything::Invoice(r) => ("Invoice", r.attributes()),
                    Everything::AuditEvent(r) => ("AuditEvent", r.attributes()),
                };
                all(table.tenant_everything(&text(p, "tenantId")), each).await
            }
            "listUsers" => all(table.list_users(&text(p, "tenantId")), user).await,
            "openInvoices" => all(table.open_invoices(), invoice).await,
            "auditSince" => all(table.audit_since(&text(p, "tenantId"), &text(p, "since")), audit).await,
            "usersPinned" => all(table.users_pinned(&text(p, "tenantId")), user).await,
            "getTenant" => one(table.get_tenant(&text(p, "tenantId")).await, |r| {
                ("Tenant", r.attributes())
            }),
            "getInvoice" => one(table.get_invoice(&text(p, "tenantId"), int(p, "number")).await, invoice),
            "listInvoices" => all(table.list_invoices(&text(p, "tenantId")), invoice).await,
            "recentAudit" => all(table.recent_audit(&text(p, "tenantId")), audit).await,
            "openInvoicesDue" => all(table.open_invoices_due(&text(p, "from"), &text(p, "to")), invoice).await,
            "allAdmins" => all(table.all_admins(), user).await,
            other => Err(format!("no read {other}")),
        }
    }
}

pub struct Games;

impl Example for Games {
    type Table = games::Table;

    fn table(client: Client, name: String) -> games::Table {
        games::Table::named(client, name)
    }

    async fn put(table: &games::Table, entity: &str, item: &Item) -> Result<(), String> {
        match entity {
            "Score" => games::Score::from_item(item).map_err(failed)?.put(table).await,
            "Player" => games::Player::from_item(item).map_err(failed)?.put(table).await,
            "Match" => games::Match::from_item(item).map_err(failed)?.put(table).await,
            other => return Err(format!("no entity {other}")),
        }
        .map_err(failed)
    }

    async fn read(table: &games::Table, pattern: &str, p: &Json) -> Result<Returned, String> {
        use games::PlayerPageItem as Page;
        let score = |r: games::Score| ("Score", r.attributes());
        let player = |r: games::Player| ("Player", r.attributes());
        let game = |r: games::Match| ("Match", r.attributes());
        match pattern {
            "leaderboard" => {
                let returned = all(table.leaderboard(&text(p, "gameId"), &text(p, "day")), score).await?;
                // The shards' Queries merged: best first, across shards.
                let points: Vec<i64> = returned
                    .iter()
                    .map(|(_, item)| match &item["points"] {
                        AttributeValue::N(n) => n.parse().unwrap(),
                        other => panic!("points is {other:?}"),
                    })
                    .collect();
                if points.windows(2).any(|w| w[0] < w[1]) {
                    return Err(format!("not by points descending: {points:?}"));
                }
                Ok(returned)
            }
            "playerScores" => {
                let read = table.player_scores(&text(p, "gameId"), &text(p, "day"), &text(p, "userId"), int(p, "now"));
                all(read, score).await
            }
            "player" => one(table.player(&text(p, "userId")).await, player),
            "players" => {
                let keys = [games::PlayersKey {
                    user_id: text(p, "userId"),
                }];
                Ok(table
                    .players(&keys)
                    .await
                    .map_err(failed)?
                    .into_iter()
                    .map(player)
                    .collect())
            }
            "rankedWins" => all(table.ranked_wins(&text(p, "userId")), game).await,
            "killerMatches" => {
                let read = table.killer_matches(&text(p, "userId"), &text(p, "since"), int(p, "minKills"));
                all(read, game).await
            }
            "playerPage" => {
                let each = |r| match r {
                    Page::Player(r) => ("Player", r.attributes()),
                    Page::Match(r) => ("Match", r.attributes()),
                };
                all(table.player_page(&text(p, "userId")), each).await
            }
            "byHandle" => all(table.by_handle(&text(p, "handle")), |r| ("Player", r.attributes())).await,
            other => Err(format!("no read {other}")),
        }
    }
}

pub struct Teams;

impl Example for Teams {
    type Table = teams::Table;

    fn table(client: Client, name: String) -> teams::Table {
        teams::Table::named(client, name)
    }

    async fn put(table: &teams::Table, entity: &str, item: &Item) -> Result<(), String> {
        match entity {
            "User" => teams::User::from_item(item).map_err(failed)?.put(table).await,
            "Team" => teams::Team::from_item(item).map_err(failed)?.put(table).await,
            // Two items: the user's side and the team's.
            "Membership" => teams::Membership::from_item(item).map_err(failed)?.put(table).await,
            "Project" => teams::Project::from_item(item).map_err(failed)?.put(table).await,
            "Grant" => teams::Grant::from_item(item).map_err(failed)?.put(table).await,
            other => return Err(format!("no entity {other}")),
        }
        .map_err(failed)
    }

    async fn read(table: &teams::Table, pattern: &str, p: &Json) -> Result<Returned, String> {
        let membership = |r: teams::Membership| ("Membership", r.attributes());
        match pattern {
            "getUser" => one(table.get_user(&text(p, "userId")).await, |r| ("User", r.attributes())),
            "getTeam" => one(table.get_team(&text(p, "teamId")).await, |r| ("Team", r.attributes())),
            "teamsOfUser" => all(table.teams_of_user(&text(p, "userId")), membership).await,
            "membersOfTeam" => all(table.members_of_team(&text(p, "teamId")), membership).await,
            "userWithTeams" => {
                let each = |r| match r {
                    teams::UserWithTeamsItem::User(r) => ("User", r.attributes()),
                    teams::UserWithTeamsItem::Membership(r) => ("Membership", r.attributes()),
                };
                all(table.user_with_teams(&text(p, "userId")), each).await
            }
            "teamWithMembers" => {
                let each = |r| match r {
                    teams::TeamWithMembersItem::Team(r) => ("Team", r.attributes()),
                    teams::TeamWithMembersItem::Membership(r) => ("Membership", r.attributes()),
                };
                all(table.team_with_members(&text(p, "teamId")), each).await
            }
            "recentTeamsOfUser" => all(table.recent_teams_of_user(&text(p, "userId")), membership).await,
            "newMembers" => all(table.new_members(&text(p, "teamId"), &text(p, "since")), membership).await,
            "projectWithTeams" => {
                let each = |r| match r {
                    teams::ProjectWithTeamsItem::Project(r) => ("Project", r.attributes()),
                    teams::ProjectWithTeamsItem::Grant(r) => ("Grant", r.attributes()),
                };
                all(table.project_with_teams(&text(p, "projectId")), each).await
            }
            "projectsOfTeam" => {
                all(table.projects_of_team(&text(p, "teamId")), |r| {
                    ("Grant", r.attributes())
                })
                .await
            }
            other => Err(format!("no read {other}")),
        }
    }
}

pub struct Shop;

impl Example for Shop {
    type Table = shop::Table;

    fn table(client: Client, name: String) -> shop::Table {
        shop::Table::named(client, name)
    }

    async fn put(table: &shop::Table, entity: &str, item: &Item) -> Result<(), String> {
        match entity {
            "Customer" => shop::Customer::from_item(item).map_err(failed)?.put(table).await,
            "Address" => shop::Address::from_item(item).map_err(failed)?.put(table).await,
            "Order" => shop::Order::from_item(item).map_err(failed)?.put(table).await,
            "OrderItem" => shop::OrderItem::from_item(item).map_err(failed)?.put(table).await,
            other => return Err(format!("no entity {other}")),
        }
        .map_err(failed)
    }

    async fn read(table: &shop::Table, pattern: &str, p: &Json) -> Result<Returned, String> {
        let customer = |r: shop::Customer| ("Customer", r.attributes());
        let order = |r: shop::Order| ("Order", r.attributes());
        match pattern {
            "customerProfile" => {
                let each = |r| match r {
                    shop::CustomerProfileItem::Customer(r) => ("Customer", r.attributes()),
                    shop::CustomerProfileItem::Address(r) => ("Address", r.attributes()),
                };
                all(table.customer_profile(&text(p, "customerId")), each).await
            }
            "getCustomer" => one(table.get_customer(&text(p, "customerId")).await, customer),
            "customerAddresses" => {
                let read = table.customer_addresses(&text(p, "customerId"));
                all(read, |r| ("Address", r.attributes())).await
            }
            "customerByEmail" => all(table.customer_by_email(&text(p, "email")), customer).await,
            "customerOrders" => all(table.customer_orders(&text(p, "customerId")), order).await,
            "orderWithLines" => {
                let each = |r| match r {
                    shop::OrderWithLinesItem::Order(r) => ("Order", r.attributes()),
                    shop::OrderWithLinesItem::OrderItem(r) => ("OrderItem", r.attributes()),
                };
                all(table.order_with_lines(&text(p, "orderId")), each).await
            }
            "orderLines" => {
                all(table.order_lines(&text(p, "orderId")), |r| {
                    ("OrderItem", r.attributes())
                })
                .await
            }
            "openOrders" => all(table.open_orders(), order).await,
            "ordersByStatusSince" => {
                let status: shop::OrderStatus = text(p, "status").parse().map_err(failed)?;
                all(table.orders_by_status_since(status, &text(p, "since")), order).await
            }
            "customerOrdersPinned" => all(table.customer_orders_pinned(&text(p, "customerId")), order).await,
            other => Err(format!("no read {other}")),
        }
    }
}

pub struct RecurringPayments;

impl Example for RecurringPayments {
    type Table = payments::Table;

    fn table(client: Client, name: String) -> payments::Table {
        payments::Table::named(client, name)
    }

    async fn put(table: &payments::Table, entity: &str, item: &Item) -> Result<(), String> {
        match entity {
            "Subscription" => {
                payments::Subscription::from_item(item)
                    .map_err(failed)?
                    .put(table)
                    .await
            }
            "Receipt" => payments::Receipt::from_item(item).map_err(failed)?.put(table).await,
            other => return Err(format!("no entity {other}")),
        }
        .map_err(failed)
    }

    async fn read(table: &payments::Table, pattern: &str, p: &Json) -> Result<Returned, String> {
        let subscription = |r: payments::Subscription| ("Subscription", r.attributes());
        // The indexes by date project some attributes.
        let projected = |r: payments::SubscriptionProjection| ("Subscription", r.attributes());
        match pattern {
            "subscriptionsOfAccount" => all(table.subscriptions_of_account(&text(p, "AccountId")), subscription).await,
            "receiptsOfAccount" => {
                let read = table.receipts_of_account(&text(p, "AccountId"));
                all(read, |r| ("Receipt", r.attributes())).await
            }
            "subscription" => {
                let (account, sub, sku) = (text(p, "AccountId"), text(p, "SubId"), text(p, "SKU"));
                one(table.subscription(&account, &sub, &sku).await, subscription)
            }
            "dueRemindersByDate" => all(table.due_reminders_by_date(&text(p, "NextReminderDate")), projected).await,
            "duePaymentsByDate" => all(table.due_payments_by_date(&text(p, "NextPaymentDate")), projected).await,
            other => Err(format!("no read {other}")),
        }
    }
}

pub struct ChatSystem;

impl Example for ChatSystem {
    type Table = chat::Table;

    fn table(client: Client, name: String) -> chat::Table {
        chat::Table::named(client, name)
    }

    async fn put(table: &chat::Table, entity: &str, item: &Item) -> Result<(), String> {
        match entity {
            "Room" => chat::Room::from_item(item).map_err(failed)?.put(table).await,
            "Join" => chat::Join::from_item(item).map_err(failed)?.put(table).await,
            "Comment" => chat::Comment::from_item(item).map_err(failed)?.put(table).await,
            other => return Err(format!("no entity {other}")),
        }
        .map_err(failed)
    }

    async fn read(table: &chat::Table, pattern: &str, p: &Json) -> Result<Returned, String> {
        let comment = |r: chat::Comment| ("Comment", r.attributes());
        let room = text(p, "RoomID");
        match pattern {
            "getAllComments" => all(table.get_all_comments(&room), comment).await,
            "getLatestComments" => all(table.get_latest_comments(&room), comment).await,
            "getFromLatestToSpecifiedPositionComments" => {
                let read = table.get_from_latest_to_specified_position_comments(&room, &text(p, "FromPosition"));
                all(read, comment).await
            }
            "getFromPositionToPositionComments" => {
                let (from, to) = (text(p, "FromPosition"), text(p, "ToPosition"));
                all(table.get_from_position_to_position_comments(&room, &from, &to), comment).await
            }
            other => Err(format!("no read {other}")),
        }
    }
}

pub struct SessionManagement;

impl Example for SessionManagement {
    type Table = session_store::Table;

    fn table(client: Client, name: String) -> session_store::Table {
        session_store::Table::named(client, name)
    }

    async fn put(table: &session_store::Table, entity: &str, item: &Item) -> Result<(), String> {
        match entity {
            "Session" => {
                session_store::Session::from_item(item)
                    .map_err(failed)?
                    .put(table)
                    .await
            }
            "ChildSession" => {
                session_store::ChildSession::from_item(item)
                    .map_err(failed)?
                    .put(table)
                    .await
            }
            other => return Err(format!("no entity {other}")),
        }
        .map_err(failed)
    }

    async fn read(table: &session_store::Table, pattern: &str, p: &Json) -> Result<Returned, String> {
        let session = |r: session_store::Session| ("Session", r.attributes());
        let child = |r: session_store::ChildSession| ("ChildSession", r.attributes());
        match pattern {
            "getSessionBySessionId" => {
                let (id, customer) = (text(p, "session_id"), text(p, "customer_id"));
                one(table.get_session_by_session_id(&id, &customer).await, session)
            }
            "getChildSessionsBySessionId" => {
                all(table.get_child_sessions_by_session_id(&text(p, "session_id")), child).await
            }
            "getSessionByChildSessionId" => {
                all(
                    table.get_session_by_child_session_id(&text(p, "child_session_id")),
                    child,
                )
                .await
            }
            "getLastLoginTimeByCustomerId" => {
                all(
                    table.get_last_login_time_by_customer_id(&text(p, "customer_id")),
                    session,
                )
                .await
            }
            "getSessionIdByCustomerId" => {
                let (customer, id) = (text(p, "customer_id"), text(p, "session_id"));
                one(table.get_session_id_by_customer_id(&customer, &id).await, session)
            }
            "getSessionsByCustomerId" => all(table.get_sessions_by_customer_id(&text(p, "customer_id")), session).await,
            other => Err(format!("no read {other}")),
        }
    }
}

pub struct ComplaintManagement;

impl Example for ComplaintManagement {
    type Table = complaints::Table;

    fn table(client: Client, name: String) -> complaints::Table {
        complaints::Table::named(client, name)
    }

    async fn put(table: &complaints::Table, entity: &str, item: &Item) -> Result<(), String> {
        match entity {
            "Complaint" => complaints::Complaint::from_item(item).map_err(failed)?.put(table).await,
            "Communication" => {
                complaints::Communication::from_item(item)
                    .map_err(failed)?
                    .put(table)
                    .await
            }
            other => return Err(format!("no entity {other}")),
        }
        .map_err(failed)
    }

    async fn read(table: &complaints::Table, pattern: &str, p: &Json) -> Result<Returned, String> {
        let complaint = |r: complaints::Complaint| ("Complaint", r.attributes());
        let communication = |r: complaints::Communication| ("Communication", r.attributes());
        match pattern {
            "complaintMetadata" => one(table.complaint_metadata(&text(p, "complaint_id")).await, complaint),
            "complaintCommunications" => all(table.complaint_communications(&text(p, "PK")), communication).await,
            "customerComplaints" => all(table.customer_complaints(&text(p, "customer_id")), complaint).await,
            "escalatedComplaints" => all(table.escalated_complaints(&text(p, "escalated_to")), complaint).await,
            "agentCommunications" => all(table.agent_communications(&text(p, "agentID")), communication).await,
            "complaintsBySeverityAndState" => {
                let severity = text(p, "severity").parse().map_err(failed)?;
                let state = text(p, "state").parse().map_err(failed)?;
                all(table.complaints_by_severity_and_state(severity, state), complaint).await
            }
            "complaintStateChanges" => all(table.complaint_state_changes(&text(p, "PK")), communication).await,
            other => Err(format!("no read {other}")),
        }
    }
}

pub struct SocialNetwork;

impl Example for SocialNetwork {
    type Table = sns::Table;

    fn table(client: Client, name: String) -> sns::Table {
        sns::Table::named(client, name)
    }

    async fn put(table: &sns::Table, entity: &str, item: &Item) -> Result<(), String> {
        match entity {
            "UserInfo" => sns::UserInfo::from_item(item).map_err(failed)?.put(table).await,
            "UserCount" => sns::UserCount::from_item(item).map_err(failed)?.put(table).await,
            "Follower" => sns::Follower::from_item(item).map_err(failed)?.put(table).await,
            "Following" => sns::Following::from_item(item).map_err(failed)?.put(table).await,
            "Post" => sns::Post::from_item(item).map_err(failed)?.put(table).await,
            "Like" => sns::Like::from_item(item).map_err(failed)?.put(table).await,
            "LikeCount" => sns::LikeCount::from_item(item).map_err(failed)?.put(table).await,
            "TimelineEntry" => sns::TimelineEntry::from_item(item).map_err(failed)?.put(table).await,
            other => return Err(format!("no entity {other}")),
        }
        .map_err(failed)
    }

    async fn read(table: &sns::Table, pattern: &str, p: &Json) -> Result<Returned, String> {
        match pattern {
            "getUserInfoByUserID" => {
                let each = |r| match r {
                    sns::GetUserInfoByUserIdItem::UserInfo(r) => ("UserInfo", r.attributes()),
                    sns::GetUserInfoByUserIdItem::UserCount(r) => ("UserCount", r.attributes()),
                };
                all(table.get_user_info_by_user_id(&text(p, "userID")), each).await
            }
            "getFollowerListByUserID" => {
                let read = table.get_follower_list_by_user_id(&text(p, "userID"));
                all(read, |r| ("Follower", r.attributes())).await
            }
            "getFollowingListByUserID" => {
                let read = table.get_following_list_by_user_id(&text(p, "userID"));
                all(read, |r| ("Following", r.attributes())).await
            }
            "getPostListByUserID" => {
                all(table.get_post_list_by_user_id(&text(p, "userID")), |r| {
                    ("Post", r.attributes())
                })
                .await
            }
            "getUserLikesByPostID" => {
                all(table.get_user_likes_by_post_id(&text(p, "postID")), |r| {
                    ("Like", r.attributes())
                })
                .await
            }
            "getLikeCountByPostID" => {
                let read = table.get_like_count_by_post_id(&text(p, "postID")).await;
                one(read, |r| ("LikeCount", r.attributes()))
            }
            "getTimelineByUserID" => {
                let read = table.get_timeline_by_user_id(&text(p, "userID"));
                all(read, |r| ("TimelineEntry", r.attributes())).await
            }
            other => Err(format!("no read {other}")),
        }
    }
}

pub struct DeviceStateLog;

impl Example for DeviceStateLog {
    type Table = device_state_log::Table;

    fn table(client: Client, name: String) -> device_state_log::Table {
        device_state_log::Table::named(client, name)
    }

    async fn put(table: &device_state_log::Table, entity: &str, item: &Item) -> Result<(), String> {
        match entity {
            "DeviceLog" => {
                device_state_log::DeviceLog::from_item(item)
                    .map_err(failed)?
                    .put(table)
                    .await
            }
            other => return Err(format!("no entity {other}")),
        }
        .map_err(failed)
    }

    async fn read(table: &device_state_log::Table, pattern: &str, p: &Json) -> Result<Returned, String> {
        let log = |r: device_state_log::DeviceLog| ("DeviceLog", r.attributes());
        match pattern {
            "logsOfDeviceInState" => {
                all(
                    table.logs_of_device_in_state(&text(p, "deviceId"), &text(p, "State")),
                    log,
                )
                .await
            }
            "operatorLogsBetween" => {
                let (operator, from, to) = (text(p, "Operator"), text(p, "date1"), text(p, "date2"));
                all(table.operator_logs_between(&operator, &from, &to), log).await
            }
            "escalatedLogs" => all(table.escalated_logs(&text(p, "EscalatedTo")), log).await,
            "escalatedLogsInState" => {
                all(
                    table.escalated_logs_in_state(&text(p, "EscalatedTo"), &text(p, "State")),
                    log,
                )
                .await
            }
            "escalatedLogsInStateOnDate" => {
                let (to, state, date) = (text(p, "EscalatedTo"), text(p, "State"), text(p, "date1"));
                all(table.escalated_logs_in_state_on_date(&to, &state, &date), log).await
            }
            other => Err(format!("no read {other}")),
        }
    }
}

pub struct OnlineShop;

impl Example for OnlineShop {
    type Table = online_shop::Table;

    fn table(client: Client, name: String) -> online_shop::Table {
        online_shop::Table::named(client, name)
    }

    async fn put(table: &online_shop::Table, entity: &str, item: &Item) -> Result<(), String> {
        use online_shop as m;
        match entity {
            "Customer" => m::Customer::from_item(item).map_err(failed)?.put(table).await,
            "Product" => m::Product::from_item(item).map_err(failed)?.put(table).await,
            "Warehouse" => m::Warehouse::from_item(item).map_err(failed)?.put(table).await,
            "WarehouseItem" => m::WarehouseItem::from_item(item).map_err(failed)?.put(table).await,
            "Order" => m::Order::from_item(item).map_err(failed)?.put(table).await,
            "OrderItem" => m::OrderItem::from_item(item).map_err(failed)?.put(table).await,
            "Invoice" => m::Invoice::from_item(item).map_err(failed)?.put(table).await,
            "Shipment" => m::Shipment::from_item(item).map_err(failed)?.put(table).await,
            "ShipmentItem" => m::ShipmentItem::from_item(item).map_err(failed)?.put(table).await,
            other => return Err(format!("no entity {other}")),
        }
        .map_err(failed)
    }

    async fn read(table: &online_shop::Table, pattern: &str, p: &Json) -> Result<Returned, String> {
        use online_shop as m;
        let stock = |r: m::WarehouseItem| ("WarehouseItem", r.attributes());
        let line = |r: m::OrderItem| ("OrderItem", r.attributes());
        let invoice = |r: m::Invoice| ("Invoice", r.attributes());
        let shipment = |r: m::Shipment| ("Shipment", r.attributes());
        let between = || (text(p, "date1"), text(p, "date2"));
        match pattern {
            "customer" => one(table.customer(&text(p, "customerId")).await, |r| {
                ("Customer", r.attributes())
            }),
            "product" => one(table.product(&text(p, "productId")).await, |r| {
                ("Product", r.attributes())
            }),
            "warehouse" => one(table.warehouse(&text(p, "warehouseId")).await, |r| {
                ("Warehouse", r.attributes())
            }),
            "productInventory" => all(table.product_inventory(&text(p, "productId")), stock).await,
            "orderDetails" => {
                let each = |r| match r {
                    m::OrderDetailsItem::Order(r) => ("Order", r.attributes()),
                    m::OrderDetailsItem::OrderItem(r) => ("OrderItem", r.attributes()),
                    m::OrderDetailsItem::Invoice(r) => ("Invoice", r.attributes()),
                    m::OrderDetailsItem::Shipment(r) => ("Shipment", r.attributes()),
                    m::OrderDetailsItem::ShipmentItem(r) => ("ShipmentItem", r.attributes()),
                };
                all(table.order_details(&text(p, "orderId")), each).await
            }
            "orderProducts" => all(table.order_products(&text(p, "orderId")), line).await,
            "orderInvoice" => all(table.order_invoice(&text(p, "orderId")), invoice).await,
            "orderShipments" => all(table.order_shipments(&text(p, "orderId")), shipment).await,
            "productOrdersBetween" => {
                let (product, (from, to)) = (text(p, "productId"), between());
                all(table.product_orders_between(&product, &from, &to), line).await
            }
            "invoice" => all(table.invoice(&text(p, "invoiceId")), invoice).await,
            "invoicePayments" => all(table.invoice_payments(&text(p, "invoiceId")), invoice).await,
            "shipmentDetail" => {
                let each = |r| match r {
                    m::ShipmentDetailItem::Shipment(r) => ("Shipment", r.attributes()),
                    m::ShipmentDetailItem::ShipmentItem(r) => ("ShipmentItem", r.attributes()),
                };
                all(table.shipment_detail(&text(p, "shipmentId")), each).await
            }
            "warehouseShipments" => all(table.warehouse_shipments(&text(p, "warehouseId")), shipment).await,
            "warehouseInventory" => all(table.warehouse_inventory(&text(p, "warehouseId")), stock).await,
            "customerInvoicesBetween" => {
                let (customer, (from, to)) = (text(p, "customerId"), between());
                all(table.customer_invoices_between(&customer, &from, &to), invoice).await
            }
            "customerOrderedProductsBetween" => {
                let (customer, (from, to)) = (text(p, "customerId"), between());
                all(table.customer_ordered_products_between(&customer, &from, &to), line).await
            }
            other => Err(format!("no read {other}")),
        }
    }
}
