//! The audit feed (`GET /api/arcade/receipts`): a client paging by the last `bet_id` it saw gets
//! every settled bet exactly once, in order, even while plays settle beside it. On PostgreSQL a
//! bet's id is taken before its play commits, so a page must not reach past an id still being
//! written.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use alloy::signers::local::PrivateKeySigner;
use arcade_server::service::now_ms;
use arcade_server::store;
use futures::future::join_all;
use serde_json::json;

use crate::helpers::{Backend, TestApp};
use crate::on_both_backends;

/// Every page after `after` until one ends short; the ids seen.
async fn page_to_the_end(app: &TestApp, after: &mut i64) -> Vec<i64> {
    let mut seen = Vec::new();
    loop {
        let page = app
            .get(&format!("/api/arcade/receipts?after={after}&limit=5"))
            .await
            .ok();
        for receipt in page["receipts"].as_array().unwrap() {
            let id = receipt["bet_id"].as_i64().unwrap();
            seen.push(id);
            *after = id;
        }
        if page["next_after"].is_null() {
            return seen;
        }
        assert_eq!(page["next_after"].as_i64(), Some(*after));
    }
}

async fn paging_beside_plays_sees_every_bet_once(app: &TestApp) {
    let mut plays = Vec::new();
    for player in 0..4 {
        let signer = PrivateKeySigner::random();
        app.fund(signer.address(), 1_000).await;
        for i in 0..20 {
            let round_id = app.commit(&signer).await;
            plays.push(json!({
                "round_id": round_id, "client_seed": format!("{player}/{i}"), "wager": 1, "call": "heads"
            }));
        }
    }
    let playing = AtomicBool::new(true);
    let paging = async {
        let mut after = 0;
        let mut seen = Vec::new();
        while playing.load(Ordering::SeqCst) {
            seen.extend(page_to_the_end(app, &mut after).await);
        }
        // Every play was answered before this request: all of them are in reach.
        seen.extend(page_to_the_end(app, &mut after).await);
        seen
    };
    let settling = async {
        let answers = join_all(plays.iter().map(|body| app.post("/api/arcade/flip", body))).await;
        playing.store(false, Ordering::SeqCst);
        answers
    };
    let (seen, answers) = tokio::join!(paging, settling);
    let mut settled: Vec<i64> = answers
        .into_iter()
        .map(|answer| answer.ok()["bet_id"].as_i64().unwrap())
        .collect();
    settled.sort_unstable();
    assert_eq!(seen, settled, "the pages hold every bet once, in order");
}

on_both_backends!(paging_beside_plays_sees_every_bet_once);

/// A play batch on PostgreSQL takes its bets' ids in the spend and writes them after signing;
/// meanwhile another play (higher id) commits. A page must wait for the first batch rather than
/// hand out the higher id, past which a client would never look back.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_page_waits_for_bet_ids_taken_but_not_yet_written() {
    let app = Arc::new(TestApp::spawn(Backend::Postgres).await);
    let held = PrivateKeySigner::random();
    app.fund(held.address(), 100).await;
    let held_round = app.commit(&held).await;
    let other = PrivateKeySigner::random();
    app.fund(other.address(), 100).await;
    let other_round = app.commit(&other).await;

    let batch = store::begin(&app.arcade.db).await.unwrap();
    let spent = store::plays::spend_batch(&batch, &[held_round.as_str()], now_ms(), 0)
        .await
        .unwrap();
    let held_id = spent.bet_ids(1).unwrap()[0];
    let played = app
        .post(
            "/api/arcade/flip",
            &json!({ "round_id": other_round, "client_seed": "s", "wager": 1, "call": "heads" }),
        )
        .await
        .ok();
    let played_id = played["bet_id"].as_i64().unwrap();
    assert!(played_id > held_id, "the later play took the higher id");

    let paging = {
        let app = app.clone();
        tokio::spawn(async move { app.get("/api/arcade/receipts?after=0").await.ok() })
    };
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(
        !paging.is_finished(),
        "a page was answered while a lower bet id was still being written"
    );
    batch.rollback().await.unwrap();
    let page = tokio::time::timeout(Duration::from_secs(10), paging)
        .await
        .expect("the page is answered once the batch is done")
        .unwrap();
    let ids: Vec<_> = page["receipts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|receipt| receipt["bet_id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, [played_id]);
    app.audit().await;
}
