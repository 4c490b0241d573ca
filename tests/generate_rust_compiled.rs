//! The generated Rust of every example (the snapshots `generate_rust.rs`
//! keeps equal to `dyno generate rust`) compiled with dyno's own
//! aws-sdk-dynamodb, so `cargo clippy --all-targets --all-features` lints
//! it; each module's request constants are what `dyno explain --format
//! json` prints; and, against the endpoint in `DYNO_TEST_ENDPOINT`
//! (ignored unless asked for, as tests/verify.rs), billing's and games'
//! modules write the scenario's records (tests/common/scenario.rs) with
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs `--features verify` and a DynamoDB endpoint in DYNO_TEST_ENDPOINT (README: Tests)"]
async fn billing_end_to_end() {
    driver::run::<driver::Billing>("examples/billing.dyno", billing::REQUESTS).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs `--features verify` and a DynamoDB endpoint in DYNO_TEST_ENDPOINT (README: Tests)"]
async fn games_end_to_end() {
    driver::run::<driver::Games>("examples/games.dyno", games::REQUESTS).await;
}
