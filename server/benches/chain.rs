//! Money-flow latency benchmark (not part of the test run): `cargo bench -p arcade-server --bench chain`.
//!
//! Starts a dev chain (anvil from `server/devnet`, automining, the test dollar deployed) and the
//! server on SQLite, then buys chips N times one after another, timing each purchase from the
//! challenge request to the 200 (challenge, EIP-712 signing, verification, on-chain settlement,
//! receipt, credit); then N purchases with C in flight; then N cashouts one after another and N
//! with C in flight, each from the request to the 200 with the transfer confirmed.
//! `ARCADE_BENCH_PURCHASES` (default 100), `ARCADE_BENCH_CONCURRENCY` (default 8).

#![allow(clippy::print_stdout)] // a benchmark reports on stdout

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use alloy::signers::SignerSync;
use alloy::signers::local::PrivateKeySigner;
use arcade_server::chain::devnet::{self, Devnet};
use arcade_server::settings::{Secret, Settings};
use arcade_server::startup::Application;
use arcade_server::x402;
use arcade_server::x402::wire::PaymentRequired;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};
use tokio::sync::Semaphore;

#[tokio::main]
async fn main() {
    let purchases = env_number("ARCADE_BENCH_PURCHASES", 100);
    let concurrency = env_number("ARCADE_BENCH_CONCURRENCY", 8);
    let anvil = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("devnet/node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil");
    let chain = Devnet::start(&anvil, 0)
        .await
        .expect("anvil (npm ci in server/devnet)");
    let db = std::env::temp_dir().join(format!("arcade-bench-buy-{}.db", std::process::id()));
    let mut settings = Settings::default();
    settings.server.port = 0;
    settings.database.url = Secret::new(format!("sqlite://{}?mode=rwc", db.display()));
    settings.log.filter = "warn".into();
    // Purchases and cashouts back to back from one client: the rate limits would answer them.
    settings.rate_limits.enabled = false;
    settings.chain.chain_id = devnet::CHAIN_ID;
    settings.chain.rpc_urls = vec![Secret::new(chain.rpc_url())];
    settings.chain.token = Some(chain.token);
    settings.chain.house_key = Some(Secret::new(alloy::hex::encode_prefixed(
        chain.house.to_bytes(),
    )));
    let app = Application::build(settings).await.expect("server starts");
    let base = format!("http://127.0.0.1:{}", app.port());
    let url = format!("{base}/api/arcade/chips/micro");
    tokio::spawn(app.run_until_stopped());
    let client = reqwest::Client::new();
    let payer = Arc::new(chain.payer.clone());
    println!("purchases {purchases}, concurrency {concurrency}, anvil automine, SQLite");

    let mut latencies = Vec::with_capacity(purchases);
    for _ in 0..purchases {
        latencies.push(buy(&client, &url, &payer).await);
    }
    report(
        "purchases, sequential, challenge -> 200",
        &mut latencies,
        None,
    );

    let gate = Arc::new(Semaphore::new(concurrency));
    let started = Instant::now();
    let tasks: Vec<_> = (0..purchases)
        .map(|_| {
            let (client, url, payer, gate) =
                (client.clone(), url.clone(), payer.clone(), gate.clone());
            tokio::spawn(async move {
                let _slot = gate.acquire().await.unwrap();
                buy(&client, &url, &payer).await
            })
        })
        .collect();
    let mut latencies = Vec::with_capacity(purchases);
    for task in tasks {
        latencies.push(task.await.unwrap());
    }
    report(
        &format!("purchases, {concurrency} in flight"),
        &mut latencies,
        Some(started.elapsed()),
    );

    // Cashouts of 100 chips by the same payer, who now holds 2N x 100 chips.
    let statement: Value = client
        .get(format!(
            "{base}/api/arcade/auth-statement/{}",
            payer.address()
        ))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let signature = payer
        .sign_message_sync(statement["statement"].as_str().unwrap().as_bytes())
        .unwrap();
    let body = json!({
        "address": payer.address(),
        "chips": 100,
        "signature": format!("0x{}", alloy::hex::encode(signature.as_bytes())),
    });
    let cashout_url = format!("{base}/api/arcade/cashout");
    let mut latencies = Vec::with_capacity(purchases);
    for _ in 0..purchases {
        latencies.push(cash_out(&client, &cashout_url, &body).await);
    }
    report(
        "cashouts, sequential, request -> confirmed",
        &mut latencies,
        None,
    );
    let started = Instant::now();
    let tasks: Vec<_> = (0..purchases)
        .map(|_| {
            let (client, url, body, gate) = (
                client.clone(),
                cashout_url.clone(),
                body.clone(),
                gate.clone(),
            );
            tokio::spawn(async move {
                let _slot = gate.acquire().await.unwrap();
                cash_out(&client, &url, &body).await
            })
        })
        .collect();
    let mut latencies = Vec::with_capacity(purchases);
    for task in tasks {
        latencies.push(task.await.unwrap());
    }
    report(
        &format!("cashouts, {concurrency} in flight"),
        &mut latencies,
        Some(started.elapsed()),
    );
    let _ = std::fs::remove_file(&db);
}

/// One cashout; returns its latency (the answer comes once the transfer is confirmed).
async fn cash_out(client: &reqwest::Client, url: &str, body: &Value) -> Duration {
    let started = Instant::now();
    let reply = client.post(url).json(body).send().await.unwrap();
    assert_eq!(reply.status().as_u16(), 200);
    let receipt: Value = reply.json().await.unwrap();
    assert_eq!(receipt["status"], "confirmed", "{receipt}");
    started.elapsed()
}

/// One purchase as a client makes it; returns its latency.
async fn buy(client: &reqwest::Client, url: &str, payer: &PrivateKeySigner) -> Duration {
    let started = Instant::now();
    let challenge = client.post(url).send().await.unwrap();
    assert_eq!(challenge.status().as_u16(), 402);
    let header = challenge.headers()["payment-required"]
        .to_str()
        .unwrap()
        .to_owned();
    let required: PaymentRequired =
        serde_json::from_slice(&STANDARD.decode(header).unwrap()).unwrap();
    let now = u64::try_from(chrono::Utc::now().timestamp()).unwrap();
    let payment = x402::client::pay(&required, payer, now).unwrap();
    let paid = client
        .post(url)
        .header("PAYMENT-SIGNATURE", payment)
        .send()
        .await
        .unwrap();
    assert_eq!(
        paid.status().as_u16(),
        200,
        "{}",
        paid.text().await.unwrap()
    );
    started.elapsed()
}

fn report(label: &str, latencies: &mut [Duration], wall: Option<Duration>) {
    latencies.sort();
    let last = latencies.len() - 1;
    let at = |percent: usize| latencies[(last * percent).div_ceil(100)].as_secs_f64() * 1000.0;
    let rate = wall.map_or(String::new(), |w| {
        format!(
            ", {:.0} purchases/s",
            latencies.len() as f64 / w.as_secs_f64()
        )
    });
    println!(
        "{label}: p50 {:.1} ms, p90 {:.1} ms, p99 {:.1} ms, max {:.1} ms{rate}",
        at(50),
        at(90),
        at(99),
        at(100)
    );
}

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}
