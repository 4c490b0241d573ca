//! The generated Rust of every example (the snapshots `generate_rust.rs`
//! keeps equal to `dyno generate rust`) compiled with dyno's own
//! aws-sdk-dynamodb, so `cargo clippy --all-targets --all-features` lints
//! it; each module's request constants are what `dyno explain --format
//! json` prints; and, against the endpoint in `DYNO_TEST_ENDPOINT`
//! (ignored unless asked for, as tests/verify.rs), every example's module
//! writes the scenario's records (tests/common/scenario.rs) with
//! their `put`s and read back exactly the expected records with every
//! read, each sending the request `dyno explain` shows.
#![cfg(feature = "verify")]

mod common;

// The applications' view: a module whose API a test uses only in part.
// `rustfmt::skip`: the snapshots are formatted with rustfmt's defaults (as
// an application's project would), not with this repository's settings.
#[allow(dead_code)]
#[rustfmt::skip]
#[path = "generated/rust/billing/billing.rs"]
mod billing;
#[allow(dead_code)]
#[rustfmt::skip]
#[path = "generated/rust/games/games.rs"]
mod games;
#[allow(dead_code)]
#[rustfmt::skip]
#[path = "generated/rust/shop/shop.rs"]
mod shop;
#[allow(dead_code)]
#[rustfmt::skip]
#[path = "generated/rust/teams/teams.rs"]
mod teams;
#[allow(dead_code)]
#[rustfmt::skip]
#[path = "generated/rust/chat-system/chat.rs"]
mod chat;
#[allow(dead_code)]
#[rustfmt::skip]
#[path = "generated/rust/complaint-management/complaint_management_system.rs"]
mod complaint_management_system;
#[allow(dead_code)]
#[rustfmt::skip]
#[path = "generated/rust/device-state-log/device_state_log.rs"]
mod device_state_log;
#[allow(dead_code)]
#[rustfmt::skip]
#[path = "generated/rust/online-shop/online_shop.rs"]
mod online_shop;
#[allow(dead_code)]
#[rustfmt::skip]
#[path = "generated/rust/recurring-payments/reoccuring_payments.rs"]
mod reoccuring_payments;
#[allow(dead_code)]
#[rustfmt::skip]
#[path = "generated/rust/session-management/session_store.rs"]
mod session_store;
#[allow(dead_code)]
#[rustfmt::skip]
#[path = "generated/rust/social-network/sns.rs"]
mod sns;
#[allow(dead_code)]
#[rustfmt::skip]
#[path = "generated/rust/edges/edges.rs"]
mod edges;

#[path = "generate_rust_compiled/driver.rs"]
mod driver;

use std::process::Command;

use serde_json::Value as Json;

/// Each example and the request constants of its module.
const MODULES: &[(&str, &[(&str, &str)])] = &[
    ("examples/billing.dyno", billing::REQUESTS),
    ("examples/games.dyno", games::REQUESTS),
    ("examples/shop.dyno", shop::REQUESTS),
    ("examples/teams.dyno", teams::REQUESTS),
    ("examples/real/chat-system.dyno", chat::REQUESTS),
    (
        "examples/real/complaint-management.dyno",
        complaint_management_system::REQUESTS,
    ),
    ("examples/real/device-state-log.dyno", device_state_log::REQUESTS),
    ("examples/real/online-shop.dyno", online_shop::REQUESTS),
    ("examples/real/recurring-payments.dyno", reoccuring_payments::REQUESTS),
    ("examples/real/session-management.dyno", session_store::REQUESTS),
    ("examples/real/social-network.dyno", sns::REQUESTS),
    ("tests/fixtures/generate/edges.dyno", edges::REQUESTS),
];

fn explain(file: &str) -> Json {
    let output = Command::new(env!("CARGO_BIN_EXE_dyno"))
        .args(["explain", file, "--format", "json"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run dyno");
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("{file}: {e}"))
}

#[test]
fn every_request_constant_is_what_dyno_explain_shows() {
    for (file, requests) in MODULES {
        let explained = explain(file);
        let patterns = explained["patterns"].as_array().unwrap();
        assert_eq!(patterns.len(), requests.len(), "{file}: one constant per pattern");
        for pattern in patterns {
            let name = pattern["pattern"].as_str().unwrap();
            let constant = requests
                .iter()
                .find(|(n, _)| *n == name)
                .unwrap_or_else(|| panic!("{file}: no constant for {name}"));
            let constant: Json = serde_json::from_str(constant.1).unwrap();
            assert_eq!(constant, pattern["request"], "{file}: {name}");
        }
    }
}

/// A Score of games.dyno with every field valid.
fn score() -> games::Score {
    games::Score {
        game_id: "g1".into(),
        day: "2026-03-14".into(),
        user_id: "u1".into(),
        points: 42,
        shard: Some(3),
        bucket: None,
        expires_at: 1_767_225_600,
    }
}

#[test]
fn keys_are_built_from_the_templates_and_the_shards() {
    let keys = score().keys().unwrap();
    assert_eq!(keys.len(), 1);
    let text = |name: &str| match &keys[0][name] {
        aws_sdk_dynamodb::types::AttributeValue::S(s) => s.clone(),
        other => panic!("{name} is {other:?}"),
    };
    assert_eq!(text("pk"), "SCORE#g1#2026-03-14.3");
    assert_eq!(text("sk"), "000000042#u1");
    // `bucket` is FNV-1a of `u1` modulo 4, as dyno computes it.
    let bucket = dyno::check::shard::of("u1", 4);
    assert_eq!(text("gsi1pk"), format!("PLAYER#g1#2026-03-14.{bucket}"));
    assert_eq!(text("gsi1sk"), "USER#u1");
    // A random shard left unset is drawn in range.
    for _ in 0..50 {
        let keys = games::Score { shard: None, ..score() }.keys().unwrap();
        let aws_sdk_dynamodb::types::AttributeValue::S(pk) = &keys[0]["pk"] else {
            panic!("pk is not a string")
        };
        let shard: u32 = pk.rsplit('.').next().unwrap().parse().unwrap();
        assert!(shard < 10, "{pk}");
    }
}

#[test]
fn a_value_outside_its_language_is_refused_naming_the_attribute() {
    let refused = |score: games::Score| match score.keys() {
        Err(games::Error::Key { attribute, .. }) => attribute,
        other => panic!("not refused: {other:?}"),
    };
    assert_eq!(
        refused(games::Score {
            user_id: "u#1".into(),
            ..score()
        }),
        "userId"
    );
    assert_eq!(
        refused(games::Score {
            day: "2026-13-01".into(),
            ..score()
        }),
        "day"
    );
    assert_eq!(
        refused(games::Score {
            points: 1_000_000_000,
            ..score()
        }),
        "points"
    );
    assert_eq!(
        refused(games::Score {
            shard: Some(10),
            ..score()
        }),
        "shard"
    );
    match (games::Score {
        bucket: Some(9),
        ..score()
    })
    .keys()
    {
        Err(games::Error::Shard { attribute, given, .. }) => assert_eq!((attribute, given), ("bucket", 9)),
        other => panic!("a calculated shard set to another value: {other:?}"),
    }
    let table = games::Table::new(aws_sdk_dynamodb::Client::from_conf(
        aws_sdk_dynamodb::Config::builder()
            .behavior_version(aws_sdk_dynamodb::config::BehaviorVersion::latest())
            .build(),
    ));
    // Refused before anything is sent.
    assert!(matches!(
        table.leaderboard("g#1", "2026-03-14"),
        Err(games::Error::Key {
            attribute: "gameId",
            ..
        })
    ));
}

#[test]
fn items_read_back_are_decoded_and_told_apart_by_their_keys() {
    use aws_sdk_dynamodb::types::AttributeValue;
    let mut item = score().keys().unwrap().remove(0);
    item.extend(score().attributes());
    assert_eq!(games::Score::identify(&item).unwrap().points, 42);
    // Another entity's item, a Score read as a Player: an error, not a record.
    assert!(matches!(
        games::Player::identify(&item),
        Err(games::Error::Unidentified { .. })
    ));
    assert!(matches!(
        games::PlayerPageItem::identify(&item),
        Err(games::Error::Unidentified { .. })
    ));
    let mut mistyped = item.clone();
    mistyped.insert("points".into(), AttributeValue::Bool(true));
    assert!(matches!(
        games::Score::from_item(&mistyped),
        Err(games::Error::Decode { .. })
    ));
    let mut missing = item.clone();
    missing.remove("gameId");
    assert!(matches!(
        games::Score::from_item(&missing),
        Err(games::Error::Missing { .. })
    ));
    let mut unknown = games::Match {
        user_id: "u1".into(),
        match_id: "01KDVDNA5WCQR22R2S793E1W27".into(),
        played_at: "2026-03-14T09:26:53Z".into(),
        mode: games::MatchMode::CoOp,
        won: true,
        kills: 3,
        map_name: None,
    }
    .attributes();
    assert_eq!(unknown["mode"], AttributeValue::S("co-op".into()));
    unknown.insert("mode".into(), AttributeValue::S("solo".into()));
    assert!(matches!(
        games::Match::from_item(&unknown),
        Err(games::Error::Decode { .. })
    ));
}

/// An end-to-end test of one example: its scenario through its module.
macro_rules! end_to_end {
    ($($test:ident: $driver:ident, $file:literal, $module:ident;)*) => {
        $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            #[ignore = "needs `--features verify` and a DynamoDB endpoint in DYNO_TEST_ENDPOINT (README: Tests)"]
            async fn $test() {
                driver::run::<driver::$driver>($file, $module::REQUESTS).await;
            }
        )*
    };
}

end_to_end! {
    billing_end_to_end: Billing, "examples/billing.dyno", billing;
    games_end_to_end: Games, "examples/games.dyno", games;
    teams_end_to_end: Teams, "examples/teams.dyno", teams;
    shop_end_to_end: Shop, "examples/shop.dyno", shop;
    recurring_payments_end_to_end: RecurringPayments, "examples/real/recurring-payments.dyno", reoccuring_payments;
    chat_system_end_to_end: ChatSystem, "examples/real/chat-system.dyno", chat;
    session_management_end_to_end: SessionManagement, "examples/real/session-management.dyno", session_store;
    social_network_end_to_end: SocialNetwork, "examples/real/social-network.dyno", sns;
    device_state_log_end_to_end: DeviceStateLog, "examples/real/device-state-log.dyno", device_state_log;
    online_shop_end_to_end: OnlineShop, "examples/real/online-shop.dyno", online_shop;
    complaint_management_end_to_end: ComplaintManagement, "examples/real/complaint-management.dyno",
        complaint_management_system;
}
