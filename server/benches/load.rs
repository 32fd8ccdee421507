//! Load benchmark (not part of the test run): `cargo bench -p arcade-server --bench load`.
//!
//! Opens N signed rounds, plays them with C requests in flight against the real server (built
//! with the bench profile) on SQLite, and on PostgreSQL when `ARCADE_BENCH_POSTGRES_URL` names
//! a server this may create a database on; then, in the same run, measures a trivial salvo route
//! the same way, so the ratio to the framework's ceiling on this machine is visible. Client and
//! server share the machine. `ARCADE_BENCH_ROUNDS` (default 2000), `ARCADE_BENCH_CONCURRENCY`
//! (default 32).

#![allow(clippy::print_stdout)] // a benchmark reports on stdout

use std::sync::Arc;
use std::time::{Duration, Instant};

use alloy::signers::SignerSync;
use alloy::signers::local::PrivateKeySigner;
use arcade_server::settings::{Secret, Settings};
use arcade_server::startup::Application;
use salvo::prelude::*;
use sea_orm::{ConnectionTrait, Database};
use serde_json::{Value, json};
use tokio::sync::Semaphore;

#[tokio::main]
async fn main() {
    let rounds = env_number("ARCADE_BENCH_ROUNDS", 2_000);
    let concurrency = env_number("ARCADE_BENCH_CONCURRENCY", 32);
    println!(
        "rounds {rounds}, concurrency {concurrency}, cores {}",
        num_cores()
    );
    let sqlite = std::env::temp_dir().join(format!("arcade-bench-{}.db", std::process::id()));
    let sqlite_url = format!("sqlite://{}?mode=rwc", sqlite.display());
    bench_rounds("SQLite", &sqlite_url, rounds, concurrency).await;
    let _ = std::fs::remove_file(&sqlite);
    if let Ok(admin) = std::env::var("ARCADE_BENCH_POSTGRES_URL") {
        let name = format!("arcade_bench_{}", std::process::id());
        let db = Database::connect(&admin)
            .await
            .expect("PostgreSQL reachable");
        db.execute_unprepared(&format!("CREATE DATABASE {name}"))
            .await
            .expect("a database");
        let url = format!(
            "{}/{name}",
            admin.rsplit_once('/').expect("a URL with a database").0
        );
        bench_rounds("PostgreSQL", &url, rounds, concurrency).await;
    }
    bench_hello(rounds, concurrency).await;
}

async fn bench_rounds(label: &str, database_url: &str, rounds: usize, concurrency: usize) {
    let mut settings = Settings::default();
    settings.server.port = 0;
    settings.database.url = Secret::new(database_url);
    // One client flooding on purpose: the rate limits would answer most of it.
    settings.rate_limits.enabled = false;
    let app = Application::build(settings).await.expect("server starts");
    let base = format!("http://127.0.0.1:{}", app.port());
    tokio::spawn(app.run_until_stopped());
    let client = reqwest::Client::new();

    // One player per 32 rounds (the open rounds one address may hold), each with its free
    // chips, wagering 1 chip per round.
    let mut round_ids = Vec::with_capacity(rounds);
    for _ in 0..rounds.div_ceil(32) {
        let player = PrivateKeySigner::random();
        let address = player.address();
        let statement = get(
            &client,
            &format!("{base}/api/arcade/auth-statement/{address}"),
        )
        .await;
        let signature = player
            .sign_message_sync(statement["statement"].as_str().unwrap().as_bytes())
            .unwrap();
        let signature = format!("0x{}", alloy::hex::encode(signature.as_bytes()));
        post(
            &client,
            &format!("{base}/api/arcade/free"),
            &json!({ "address": address }),
        )
        .await;
        for _ in 0..32.min(rounds - round_ids.len()) {
            let body = json!({ "address": address, "signature": signature });
            let committed = post(&client, &format!("{base}/api/arcade/commit"), &body).await;
            round_ids.push(committed["round_id"].as_str().unwrap().to_owned());
        }
    }
    let requests = round_ids.into_iter().map(|round_id| {
        json!({ "round_id": round_id, "client_seed": round_id, "wager": 1, "call": "heads" })
    });
    let url = format!("{base}/api/arcade/flip");
    let (elapsed, mut latencies) = drive(&client, &url, requests.collect(), concurrency).await;
    report(
        &format!("settled rounds on {label}"),
        elapsed,
        &mut latencies,
    );
}

async fn bench_hello(requests: usize, concurrency: usize) {
    #[handler]
    async fn hello() -> &'static str {
        "hello"
    }
    let acceptor = TcpListener::new("127.0.0.1:0").bind().await;
    let port = acceptor.local_addr().unwrap().port();
    tokio::spawn(Server::new(acceptor).serve(Router::with_path("hello").get(hello)));
    let client = reqwest::Client::new();
    let url = format!("http://127.0.0.1:{port}/hello");
    let semaphore = Arc::new(Semaphore::new(concurrency));
    let started = Instant::now();
    let mut tasks = Vec::with_capacity(requests);
    for _ in 0..requests {
        let permit = semaphore.clone().acquire_owned().await.unwrap();
        let (client, url) = (client.clone(), url.clone());
        tasks.push(tokio::spawn(async move {
            let sent = Instant::now();
            let ok = client.get(&url).send().await.unwrap().status().is_success();
            drop(permit);
            assert!(ok);
            sent.elapsed()
        }));
    }
    let mut latencies = Vec::with_capacity(requests);
    for task in tasks {
        latencies.push(task.await.unwrap());
    }
    report(
        "hello route (salvo, same client)",
        started.elapsed(),
        &mut latencies,
    );
}

async fn drive(
    client: &reqwest::Client,
    url: &str,
    bodies: Vec<Value>,
    concurrency: usize,
) -> (Duration, Vec<Duration>) {
    let semaphore = Arc::new(Semaphore::new(concurrency));
    let started = Instant::now();
    let mut tasks = Vec::with_capacity(bodies.len());
    for body in bodies {
        let permit = semaphore.clone().acquire_owned().await.unwrap();
        let (client, url) = (client.clone(), url.to_owned());
        tasks.push(tokio::spawn(async move {
            let sent = Instant::now();
            let response = client.post(&url).json(&body).send().await.unwrap();
            let status = response.status();
            drop(permit);
            assert!(
                status.is_success(),
                "{status}: {}",
                response.text().await.unwrap()
            );
            sent.elapsed()
        }));
    }
    let mut latencies = Vec::with_capacity(tasks.len());
    for task in tasks {
        latencies.push(task.await.unwrap());
    }
    (started.elapsed(), latencies)
}

fn report(label: &str, elapsed: Duration, latencies: &mut [Duration]) {
    latencies.sort();
    // Nearest-rank percentile: the latency at `percent` of the sorted list.
    let at = |percent: usize| {
        let index = (latencies.len() - 1) * percent / 100;
        latencies[index].as_secs_f64() * 1000.0
    };
    println!(
        "{label}: {:.0}/s over {} requests, p50 {:.2} ms, p99 {:.2} ms",
        latencies.len() as f64 / elapsed.as_secs_f64(),
        latencies.len(),
        at(50),
        at(99),
    );
}

async fn get(client: &reqwest::Client, url: &str) -> Value {
    client.get(url).send().await.unwrap().json().await.unwrap()
}

async fn post(client: &reqwest::Client, url: &str, body: &Value) -> Value {
    let response = client.post(url).json(body).send().await.unwrap();
    assert!(response.status().is_success());
    response.json().await.unwrap()
}

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn num_cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}
