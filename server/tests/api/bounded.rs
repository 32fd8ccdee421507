//! State a stranger can create stays bounded: open rounds per address (racing commits included,
//! and they expire), live MCP sessions, MCP bodies.

use std::time::Duration;

use alloy::signers::local::PrivateKeySigner;
use arcade_server::entities::round;
use futures::future::join_all;
use sea_orm::EntityTrait;
use serde_json::json;

use crate::helpers::{Backend, TestApp};
use crate::mcp_client::{McpSession, structured};

async fn open_rounds_are_capped_per_address(backend: Backend) {
    let app = TestApp::spawn_with(backend, |s| s.rounds.max_open_per_address = 3).await;
    let player = PrivateKeySigner::random();
    app.claim_free(&player).await;
    let mut rounds = Vec::new();
    for _ in 0..3 {
        rounds.push(app.commit(&player).await);
    }
    let signature = app.sign_statement(&player).await;
    let commit = json!({ "address": player.address(), "signature": signature });
    let refused = app
        .post("/api/arcade/commit", &commit)
        .await
        .error(429, "too_many_open_rounds");
    assert_eq!(refused["max_open_rounds"], 3);
    let stored = round::Entity::find().all(&app.arcade.db).await.unwrap();
    assert_eq!(stored.len(), 3, "the refused commit opened nothing");
    assert_eq!(app.open_rounds(&player).await, 3);

    // Another address is not held back; a played round frees its place.
    app.commit(&PrivateKeySigner::random()).await;
    let play = json!({ "round_id": rounds[0], "client_seed": "c", "wager": 1, "call": "heads" });
    app.post("/api/arcade/flip", &play).await.ok();
    assert_eq!(app.open_rounds(&player).await, 2);
    app.post("/api/arcade/commit", &commit).await.ok();
    app.audit().await;
}

/// Commits racing for one address's last places (settled in one batch of the commit writer or
/// in several) open exactly the places left, beside other addresses' commits in the same
/// batches, and each address's count is its open rounds.
async fn commits_racing_for_the_last_places_open_only_those(backend: Backend) {
    const CAP: usize = 5;
    let app = TestApp::spawn_with(backend, |s| s.rounds.max_open_per_address = CAP as i64).await;
    let player = PrivateKeySigner::random();
    app.commit(&player).await;
    let others: Vec<PrivateKeySigner> = (0..16).map(|_| PrivateKeySigner::random()).collect();
    let mut bodies = Vec::new();
    for (i, other) in others.iter().enumerate() {
        let signature = app.sign_statement(other).await;
        bodies.push((
            false,
            json!({ "address": other.address(), "signature": signature }),
        ));
        if i % 2 == 0 {
            let signature = app.sign_statement(&player).await;
            bodies.push((
                true,
                json!({ "address": player.address(), "signature": signature }),
            ));
            bodies.push((
                true,
                json!({ "address": player.address(), "signature": signature }),
            ));
            bodies.push((
                true,
                json!({ "address": player.address(), "signature": signature }),
            ));
        }
    }
    let answers = join_all(
        bodies
            .iter()
            .map(|(_, body)| app.post("/api/arcade/commit", body)),
    )
    .await;
    let mut opened = 0;
    for ((mine, _), answer) in bodies.iter().zip(answers) {
        match (mine, answer.status) {
            (true, 200) => opened += 1,
            (true, _) => {
                let refused = answer.error(429, "too_many_open_rounds");
                assert_eq!(refused["max_open_rounds"], CAP);
            }
            (false, status) => assert_eq!(status, 200, "{}", answer.body),
        }
    }
    assert_eq!(
        opened,
        CAP - 1,
        "the racing commits open the places left, no more"
    );
    let key = format!("{:#x}", player.address());
    let stored = round::Entity::find().all(&app.arcade.db).await.unwrap();
    let held = stored.iter().filter(|round| round.address == key).count();
    assert_eq!(held, CAP);
    assert_eq!(app.open_rounds(&player).await, CAP as i64);
    assert_eq!(stored.len(), CAP + others.len());
    for other in &others {
        assert_eq!(app.open_rounds(other).await, 1);
    }
    app.audit().await;
}

async fn open_rounds_expire_and_free_their_place(backend: Backend) {
    let app = TestApp::spawn_with(backend, |s| {
        s.rounds.max_open_per_address = 2;
        s.rounds.ttl_secs = 1;
        s.rounds.expire_every_ms = 200;
    })
    .await;
    let player = PrivateKeySigner::random();
    app.claim_free(&player).await;
    let first = app.commit(&player).await;
    app.commit(&player).await;
    tokio::time::sleep(Duration::from_millis(1_300)).await;
    let view = app.get(&format!("/api/arcade/rounds/{first}")).await.ok();
    assert_eq!(view["state"], "expired");
    assert!(view["expired_at"].is_string(), "{view}");
    let play = json!({ "round_id": first, "client_seed": "late", "wager": 5, "call": "heads" });
    app.post("/api/arcade/flip", &play)
        .await
        .error(409, "round_expired");
    assert_eq!(app.chips(player.address()).await, 100, "nothing taken");
    // The upkeep marks them and gives their places back.
    let mut waited = 0;
    while app.open_rounds(&player).await != 0 {
        assert!(waited < 50, "the expired rounds were never counted off");
        tokio::time::sleep(Duration::from_millis(100)).await;
        waited += 1;
    }
    let stored = round::Entity::find().all(&app.arcade.db).await.unwrap();
    assert!(stored.iter().all(|r| r.expired_at.is_some()));
    let fresh = app.commit(&player).await;
    let play = json!({ "round_id": fresh, "client_seed": "on time", "wager": 5, "call": "heads" });
    app.post("/api/arcade/flip", &play).await.ok();
    app.audit().await;
}

mod open_rounds_are_capped_per_address {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        super::open_rounds_are_capped_per_address(crate::helpers::Backend::Sqlite).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        super::open_rounds_are_capped_per_address(crate::helpers::Backend::Postgres).await;
    }
}

mod commits_racing_for_the_last_places_open_only_those {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        super::commits_racing_for_the_last_places_open_only_those(crate::helpers::Backend::Sqlite)
            .await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        super::commits_racing_for_the_last_places_open_only_those(
            crate::helpers::Backend::Postgres,
        )
        .await;
    }
}

mod open_rounds_expire_and_free_their_place {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        super::open_rounds_expire_and_free_their_place(crate::helpers::Backend::Sqlite).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        super::open_rounds_expire_and_free_their_place(crate::helpers::Backend::Postgres).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn mcp_sessions_are_capped_and_the_idlest_ends_first() {
    let app = TestApp::spawn_with(Backend::Sqlite, |s| s.mcp.max_sessions = 3).await;
    let oldest = McpSession::open(&app.base_url).await;
    let second = McpSession::open(&app.base_url).await;
    let third = McpSession::open(&app.base_url).await;
    // The oldest is used last, so the second is now the idlest.
    structured(&oldest.call("arcade_games", json!({})).await);
    structured(&third.call("arcade_games", json!({})).await);
    let fourth = McpSession::open(&app.base_url).await;
    let (status, _) = second.call_raw("arcade_games", json!({})).await;
    assert_eq!(status, 404, "the idlest session ended");
    for live in [&oldest, &third, &fourth] {
        structured(&live.call("arcade_games", json!({})).await);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn mcp_bodies_are_bounded_like_every_other() {
    let app = TestApp::spawn_with(Backend::Sqlite, |s| s.server.max_body_bytes = 2_048).await;
    let padding = "x".repeat(4_096);
    let oversized = json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": { "name": padding, "version": "1" } } });
    let answer = app
        .client
        .post(format!("{}/api/mcp", app.base_url))
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .body(oversized.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 413);
    let body: serde_json::Value = answer.json().await.unwrap();
    assert_eq!(body["code"], "payload_too_large");
    // Within the bound, MCP works as before.
    let mcp = McpSession::open(&app.base_url).await;
    structured(&mcp.call("arcade_games", json!({})).await);
}
