//! What strangers' floods cost honest players, measured (never asserted: figures for the
//! notes, run by hand with `cargo test -p arcade-server --test api -- --ignored floods
//! --nocapture`): honest commit-and-flip loops on PostgreSQL beside 40 flips a second whose
//! round id holds a NUL, and beside a control flood of as many well-formed unknown ids; one
//! honest cashout behind 200 cashouts from addresses that never bought chips, and alone.

#![allow(clippy::print_stdout)] // the figures are the output

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use alloy::signers::local::PrivateKeySigner;
use futures::future::join_all;
use serde_json::json;

use crate::cashouts::player_with_chips;
use crate::helpers::{Backend, TestApp};
use crate::paying::PaidApp;

const HONEST_PLAYERS: usize = 32;
const FLOOD_PER_SECOND: u64 = 40;
const RUN: Duration = Duration::from_secs(10);

/// Commit and flip until `stop`; each flip's latency.
async fn honest(
    app: Arc<TestApp>,
    player: PrivateKeySigner,
    stop: Arc<AtomicBool>,
) -> Vec<Duration> {
    let signature = app.sign_statement(&player).await;
    let mut latencies = Vec::new();
    let mut n = 0;
    while !stop.load(Ordering::SeqCst) {
        let commit = json!({ "address": player.address(), "signature": signature });
        let committed = app.post("/api/arcade/commit", &commit).await.ok();
        n += 1;
        let flip = json!({ "round_id": committed["round_id"], "client_seed": format!("s{n}"),
                           "wager": 1, "call": "heads" });
        let started = Instant::now();
        let played = app.post("/api/arcade/flip", &flip).await;
        assert_eq!(played.status, 200, "{}", played.body);
        latencies.push(started.elapsed());
    }
    latencies
}

/// `FLOOD_PER_SECOND` unsigned flips of `round_id` until `stop`; their statuses.
async fn flood(app: Arc<TestApp>, round_id: String, stop: Arc<AtomicBool>) -> Vec<u16> {
    let mut tick = tokio::time::interval(Duration::from_millis(1000 / FLOOD_PER_SECOND));
    let mut sent = Vec::new();
    while !stop.load(Ordering::SeqCst) {
        tick.tick().await;
        let app = app.clone();
        let body = json!({ "round_id": round_id, "client_seed": "x", "wager": 1, "call": "heads" });
        sent.push(tokio::spawn(async move {
            app.post("/api/arcade/flip", &body).await.status
        }));
    }
    join_all(sent)
        .await
        .into_iter()
        .map(Result::unwrap)
        .collect()
}

/// The `per_mille`-th of a thousand of `sorted`.
fn percentile(sorted: &[Duration], per_mille: usize) -> Duration {
    let at = sorted.len().saturating_sub(1) * per_mille / 1000;
    sorted.get(at).copied().unwrap_or_default()
}

async fn honest_beside(label: &str, flood_id: Option<String>) {
    let app = Arc::new(TestApp::spawn(Backend::Postgres).await);
    let stop = Arc::new(AtomicBool::new(false));
    let mut players = Vec::new();
    for _ in 0..HONEST_PLAYERS {
        let player = PrivateKeySigner::random();
        app.fund(player.address(), 1_000_000).await;
        players.push(tokio::spawn(honest(app.clone(), player, stop.clone())));
    }
    let flooder = flood_id.map(|id| tokio::spawn(flood(app.clone(), id, stop.clone())));
    tokio::time::sleep(RUN).await;
    stop.store(true, Ordering::SeqCst);
    let mut latencies: Vec<Duration> = Vec::new();
    for player in players {
        latencies.extend(player.await.unwrap());
    }
    let flooded = match flooder {
        Some(flooder) => {
            let statuses = flooder.await.unwrap();
            let mut counts = std::collections::BTreeMap::new();
            for status in statuses {
                *counts.entry(status).or_insert(0) += 1;
            }
            format!("{counts:?}")
        }
        None => "none".into(),
    };
    latencies.sort();
    println!(
        "{label}: honest {:.0} plays/s, p50 {:?}, p99 {:?}, max {:?}; flood answered {flooded}",
        latencies.len() as f64 / RUN.as_secs_f64(),
        percentile(&latencies, 500),
        percentile(&latencies, 990),
        latencies.last().copied().unwrap_or_default(),
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "a measurement, run by hand"]
async fn floods_of_malformed_round_ids() {
    honest_beside("no flood", None).await;
    let control = "r_00000000000000000000000000000000".to_owned();
    honest_beside("control flood (unknown well-formed ids)", Some(control)).await;
    let nul = "r_000000000000000000000000000000\0".to_owned();
    honest_beside("NUL flood", Some(nul)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "a measurement, run by hand"]
async fn floods_of_penniless_cashouts() {
    let app = PaidApp::spawn(Backend::Postgres).await;
    let player = player_with_chips(&app).await;
    let alone = Instant::now();
    app.cash_out(&player, 100).await.ok();
    let alone = alone.elapsed();

    let mut strangers = Vec::new();
    for _ in 0..200 {
        let stranger = PrivateKeySigner::random();
        let signature = app.sign_statement(&stranger).await;
        strangers
            .push(json!({ "address": stranger.address(), "chips": 100, "signature": signature }));
    }
    let signature = app.sign_statement(&player).await;
    let honest_body = json!({ "address": player.address(), "chips": 100, "signature": signature });
    let calls = || app.shim.calls.load(Ordering::SeqCst);
    let before = calls();
    let flood = join_all(
        strangers
            .iter()
            .map(|body| app.post("/api/arcade/cashout", body)),
    );
    let honest = async {
        tokio::time::sleep(Duration::from_millis(20)).await;
        let started = Instant::now();
        let answer = app.post("/api/arcade/cashout", &honest_body).await;
        (answer.status, started.elapsed())
    };
    let (refused, (status, behind)) = futures::join!(flood, honest);
    let refused_in = refused.iter().filter(|r| r.status == 400).count();
    println!(
        "an honest cashout alone {alone:?}; behind 200 penniless cashouts {behind:?} (answered {status}); \
         {refused_in} of them refused 400; RPC calls during the flood {}",
        calls() - before
    );
}
