//! House agents against the real server: they fund themselves like players, play through the
//! public API with real signatures, verify every receipt, stop when told, and the public stats
//! split their play from everyone else's. Plus the message endpoint and its 422s.

use std::time::{Duration, Instant};

use alloy::primitives::U256;
use alloy::signers::local::PrivateKeySigner;
use arcade_server::settings::{HouseBotSettings, Secret};
use serde_json::{Value, json};

use crate::helpers::{Backend, TestApp, recover};
use crate::paying::{PaidApp, mint_to};

fn bots(keys: &[PrivateKeySigner], max_rounds: u64, top_up_below: i64) -> HouseBotSettings {
    HouseBotSettings {
        enabled: true,
        keys: keys
            .iter()
            .map(|k| Secret::new(alloy::hex::encode_prefixed(k.to_bytes())))
            .collect(),
        cadence_ms: 20,
        wager: 2,
        top_up_below,
        max_rounds,
    }
}

/// Polls the status until every agent has stopped.
async fn until_stopped(app: &TestApp) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let status = app.get("/api/housebot/status").await.ok();
        let agents = status["agents"].as_array().unwrap();
        if agents.iter().all(|a| a["state"] == "stopped") {
            return status;
        }
        assert!(Instant::now() < deadline, "agents still playing: {status}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn agents_play_the_floor_verify_everything_and_the_stats_split() {
    let keys: Vec<PrivateKeySigner> = (0..3).map(|_| PrivateKeySigner::random()).collect();
    let app = TestApp::spawn_with(Backend::Sqlite, |s| s.housebots = bots(&keys, 6, 10)).await;
    // Somebody else plays one round meanwhile.
    let player = PrivateKeySigner::random();
    app.claim_free(&player).await;
    let round_id = app.commit(&player).await;
    app.post(
        "/api/arcade/flip",
        &json!({ "round_id": round_id, "client_seed": "not a house agent", "wager": 3, "call": "heads" }),
    )
    .await
    .ok();

    let status = until_stopped(&app).await;
    assert_eq!(status["config"]["agents"], 3);
    let agents = status["agents"].as_array().unwrap();
    let mut strategies = Vec::new();
    for (agent, key) in agents.iter().zip(&keys) {
        assert_eq!(agent["address"], key.address().to_checksum(None));
        assert_eq!(agent["rounds"], 6, "{agent}");
        assert_eq!(
            agent["wins"].as_u64().unwrap() + agent["losses"].as_u64().unwrap(),
            6
        );
        assert_eq!(agent["verification_failures"], 0, "{agent}");
        assert!(
            agent["last_action"].as_str().unwrap().starts_with("bet "),
            "{agent}"
        );
        let balance = app.chips(key.address()).await;
        assert_eq!(agent["balance"], balance);
        assert_eq!(
            balance,
            100 + agent["net_chips"].as_i64().unwrap(),
            "free chips plus net"
        );
        strategies.push(agent["strategy"].as_str().unwrap().to_owned());
    }
    strategies.dedup();
    assert_eq!(strategies.len(), 3, "three strategies");

    let house = app.get("/api/arcade/house").await.ok();
    assert_eq!(house["house_wallets"]["rounds"], 18, "{house}");
    assert_eq!(house["players"]["rounds"], 1);
    assert_eq!(house["all"]["rounds"], 19);
    let mut listed: Vec<String> = house["house_wallet_addresses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap().to_owned())
        .collect();
    listed.sort();
    let mut expected: Vec<String> = keys.iter().map(|k| k.address().to_checksum(None)).collect();
    expected.sort();
    assert_eq!(listed, expected);
    // Every round the agents played re-derives on the server's verify endpoint as well, and
    // carries the agent's own signature of its play, as any careful player's does.
    for bet_id in 1..=19 {
        let verified = app.get(&format!("/api/arcade/verify/{bet_id}")).await.ok();
        assert_eq!(
            verified["mismatches"],
            serde_json::json!([]),
            "bet {bet_id}"
        );
        // The agents sign their plays (a pass); the outside player's flips were sent unsigned.
        let verdict = if verified["house_agent"] == true {
            "pass"
        } else {
            "consistent, not proven"
        };
        assert_eq!(verified["verdict"], verdict, "bet {bet_id}: {verified}");
        if verified["house_agent"] == true {
            let player: alloy::primitives::Address =
                verified["address"].as_str().unwrap().parse().unwrap();
            assert_eq!(recover(&verified["proofs"]["play"]), player, "bet {bet_id}");
        }
    }
    app.audit().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn agents_buy_chips_over_x402_like_a_player() {
    let keys: Vec<PrivateKeySigner> = (0..2).map(|_| PrivateKeySigner::random()).collect();
    // Below 150 chips they top up: the free 100 first, then a micro purchase (100 for 0.01).
    let app = PaidApp::spawn_with(Backend::Sqlite, |s| s.housebots = bots(&keys, 2, 150)).await;
    for key in &keys {
        mint_to(&app, key.address(), 50_000).await;
    }
    let status = until_stopped(&app).await;
    for (agent, key) in status["agents"].as_array().unwrap().iter().zip(&keys) {
        let purchases = agent["purchases"].as_u64().unwrap();
        assert!(purchases >= 1, "{agent}");
        assert_eq!(agent["rounds"], 2, "{agent}");
        let spent = U256::from(10_000 * purchases);
        assert_eq!(
            app.token_balance(key.address()).await,
            U256::from(50_000u64) - spent
        );
        let balance = app
            .get(&format!("/api/arcade/balance/{}", key.address()))
            .await
            .ok();
        assert_eq!(balance["bought_in"], true);
    }
    app.audit().await;
}

#[tokio::test]
async fn the_message_endpoint_answers_and_runs_read_only_tools() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let ask = |message: &str, use_tools: bool| json!({ "from_id": "agent-7", "from_name": "Seven", "message": message, "use_tools": use_tools });
    let how = app
        .post("/api/housebot/message", &ask("How do I play?", false))
        .await
        .ok();
    assert_eq!(how["to"], "agent-7");
    assert!(how["reply"].as_str().unwrap().starts_with("Hello Seven."));
    assert!(
        how["reply"]
            .as_str()
            .unwrap()
            .contains("/api/arcade/commit"),
        "{how}"
    );
    assert_eq!(how["tool"], Value::Null);

    let odds = app
        .post(
            "/api/housebot/message",
            &ask("what are the odds and limits?", true),
        )
        .await
        .ok();
    assert!(odds["reply"].as_str().unwrap().contains("1.98x"));
    assert_eq!(odds["tool"]["name"], "games");
    assert_eq!(odds["tool"]["result"]["limits"]["max_wager_chips"], 1000);

    let fair = app
        .post("/api/housebot/message", &ask("is it provably fair?", false))
        .await
        .ok();
    assert!(
        fair["reply"]
            .as_str()
            .unwrap()
            .contains("sha256(server_seed)")
    );

    let player = PrivateKeySigner::random();
    app.claim_free(&player).await;
    let balance = app
        .post(
            "/api/housebot/message",
            &ask(&format!("balance of {}", player.address()), true),
        )
        .await
        .ok();
    assert_eq!(balance["tool"]["name"], "balance");
    assert_eq!(balance["tool"]["result"]["chips"], 100);
    let house = app
        .post("/api/housebot/message", &ask("house stats please", true))
        .await
        .ok();
    assert_eq!(house["tool"]["name"], "house");

    app.post("/api/housebot/message", &json!({ "message": "hi" }))
        .await
        .invalid(&[json!("body"), json!("from_id")], "missing");
    app.post(
        "/api/housebot/message",
        &json!({ "from_id": "", "message": "hi" }),
    )
    .await
    .invalid(&[json!("body"), json!("from_id")], "string_too_short");
    app.post(
        "/api/housebot/message",
        &json!({ "from_id": "x", "message": "a".repeat(2001) }),
    )
    .await
    .invalid(&[json!("body"), json!("message")], "string_too_long");
    app.post(
        "/api/housebot/message",
        &json!({ "from_id": "x", "message": "hi", "use_tools": "yes" }),
    )
    .await
    .invalid(&[json!("body"), json!("use_tools")], "bool_type");
    app.post_raw("/api/housebot/message", "[1]")
        .await
        .invalid(&[json!("body")], "model_attributes_type");
}

#[tokio::test]
async fn without_agents_the_status_says_so() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let status = app.get("/api/housebot/status").await.ok();
    assert_eq!(status["config"]["enabled"], false);
    assert_eq!(status["agents"], json!([]));
}
