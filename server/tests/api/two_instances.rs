//! Two server instances on one PostgreSQL database, raced against each other.

use alloy::signers::local::PrivateKeySigner;
use futures::future::join_all;
use serde_json::json;

use crate::helpers::{Backend, TestApp};

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_servers_on_one_postgres_settle_each_round_once() {
    let first = TestApp::spawn(Backend::Postgres).await;
    let second = TestApp::spawn_on(&first.database_url, |_| {}).await;
    assert_ne!(first.base_url, second.base_url);
    let servers = [&first, &second];

    let player = PrivateKeySigner::random();
    let body = json!({ "address": player.address() });
    let claims = (0..32).map(|i| servers[i % 2].post("/api/arcade/free", &body));
    let granted = join_all(claims)
        .await
        .iter()
        .filter(|r| r.status == 200)
        .count();
    assert_eq!(granted, 1);

    first.fund(player.address(), 900).await;
    let round_id = first.commit(&player).await;
    let plays = (0..64).map(|i| {
        let body = json!({ "round_id": round_id, "client_seed": format!("{i}"), "wager": 10, "call": "tails" });
        async move { servers[i % 2].post("/api/arcade/flip", &body).await }
    });
    let responses = join_all(plays).await;
    assert_eq!(responses.iter().filter(|r| r.status == 200).count(), 1);
    assert!(
        responses
            .iter()
            .filter(|r| r.status != 200)
            .all(|r| r.status == 409)
    );

    // Wagers from one balance through both servers at once.
    let other = PrivateKeySigner::random();
    first.fund(other.address(), 50).await;
    let mut rounds = Vec::new();
    for i in 0..32 {
        rounds.push(servers[i % 2].commit(&other).await);
    }
    let plays = rounds.iter().enumerate().map(|(i, round_id)| {
        let body = json!({ "round_id": round_id, "client_seed": "both", "wager": 5, "target": 1 });
        async move { servers[i % 2].post("/api/arcade/dice", &body).await }
    });
    let responses = join_all(plays).await;
    let settled: Vec<_> = responses.iter().filter(|r| r.status == 200).collect();
    let paid: i64 = settled
        .iter()
        .map(|r| r.body["payout"].as_i64().unwrap())
        .sum();
    let balance = second.chips(other.address()).await;
    assert_eq!(balance, 50 - 5 * settled.len() as i64 + paid);
    assert!(
        (0..5).contains(&balance) || settled.len() == 32,
        "balance {balance} left unplayed"
    );
    first.audit().await;
}
