//! Flood benchmark (not part of the test run): `cargo bench -p arcade-server --bench flood`.
//!
//! 1. Play latency with and without a flood of `GET /api/arcade/house` (256 requests in
//!    flight the whole time), on SQLite, and on PostgreSQL when `ARCADE_BENCH_POSTGRES_URL`
//!    names a server this may create a database on. Rate limits off: this measures the stats'
//!    cost, not the limiter.
//! 2. Rate limits on (the default buckets): many clients (told apart by `X-Forwarded-For`
//!    through a trusted loopback proxy) flood free claims, commits and reads. Counts the 200s
//!    and 429s, then audits the ledger: every chip is a granted free claim's, every balance the
//!    sum of its ledger, and no refused claim left a wallet.
//! 3. Play latency alone, then under 16 clients each looping the heaviest anonymous reads (the
//!    audit feed a thousand receipts at a time, a full seed batch's detail): each reader from its
//!    own address (its heavy-read bucket), then from a new address every read (only the bucket
//!    all clients share holds them back). The general, free-claim and commit buckets are opened
//!    wide for the bench's own players. SQLite, and PostgreSQL when named. A bare salvo route's
//!    p50/p99 on this machine and client comes first.
//! 4. MCP: `mcp.max_sessions = 50`; one client opens 10 sessions, another floods 150
//!    `initialize`: the first client's sessions all answer, the flooder keeps its newest 16
//!    (`mcp.max_sessions_per_client`).
//!
//! `ARCADE_BENCH_PLAYS` (default 1000) plays per measurement, 8 in flight;
//! `ARCADE_BENCH_PHASES` (e.g. `3` or `1,4`) runs only those phases.

#![allow(clippy::print_stdout)] // a benchmark reports on stdout

mod heavy_reads;
#[path = "../support/mod.rs"]
mod support;

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use alloy::signers::local::PrivateKeySigner;
use arcade_server::entities::{ledger, wallet};
use futures::future::join_all;
use sea_orm::{Database, EntityTrait};
use serde_json::{Value, json};
use support::{
    drop_postgres, env_number, fresh_postgres, open_rounds, percentiles, post, remove_sqlite,
    sign_statement, sqlite_url, start,
};
use tokio::sync::Semaphore;

const PLAYS_IN_FLIGHT: usize = 8;
const HOUSE_IN_FLIGHT: usize = 256;
/// Each flooding client's rounds of (free claim, commit, games).
const ROUNDS_PER_CLIENT: usize = 50;

#[tokio::main]
async fn main() {
    let plays = env_number("ARCADE_BENCH_PLAYS", 1_000);
    println!(
        "plays {plays} ({PLAYS_IN_FLIGHT} in flight), /house flood {HOUSE_IN_FLIGHT} in flight, cores {}",
        std::thread::available_parallelism().map_or(1, usize::from)
    );
    if phase(1) {
        house_flood(plays).await;
    }
    if phase(2) {
        let sqlite = std::env::temp_dir().join(format!("arcade-limits-{}.db", std::process::id()));
        rate_limited_flood(&sqlite_url(&sqlite)).await;
        remove_sqlite(&sqlite);
    }
    if phase(3) {
        heavy_reads::measure(plays).await;
    }
    if phase(4) {
        mcp_session_cap().await;
    }
}

/// Whether to run phase `n`: all of them, or those `ARCADE_BENCH_PHASES` lists (`3` or `1,4`).
fn phase(n: u8) -> bool {
    std::env::var("ARCADE_BENCH_PHASES").map_or(true, |phases| {
        phases.split(',').any(|p| p.trim() == n.to_string())
    })
}

/// Phase 1 on each backend.
async fn house_flood(plays: usize) {
    let mut rows = Vec::new();
    let sqlite = std::env::temp_dir().join(format!("arcade-flood-{}.db", std::process::id()));
    rows.push((
        "SQLite",
        plays_under_flood(&sqlite_url(&sqlite), plays).await,
    ));
    remove_sqlite(&sqlite);
    if let Ok(admin) = std::env::var("ARCADE_BENCH_POSTGRES_URL") {
        let url = fresh_postgres(&admin, "arcade_flood").await;
        rows.push(("PostgreSQL", plays_under_flood(&url, plays).await));
        drop_postgres(&admin, &url).await;
    }
    println!(
        "\n| backend | play p50 | play p99 | with /house flood p50 | p99 | p99 ratio | /house answered/s |"
    );
    println!("|---|---|---|---|---|---|---|");
    for (backend, m) in &rows {
        println!(
            "| {backend} | {:.2} ms | {:.2} ms | {:.2} ms | {:.2} ms | {:.2}x | {:.0} |",
            m.quiet.0,
            m.quiet.1,
            m.flooded.0,
            m.flooded.1,
            m.flooded.1 / m.quiet.1,
            m.house_per_second
        );
    }
}

struct Measured {
    /// (p50, p99) in milliseconds.
    quiet: (f64, f64),
    flooded: (f64, f64),
    house_per_second: f64,
}

async fn plays_under_flood(database_url: &str, plays: usize) -> Measured {
    let app = start(database_url, |s| s.rate_limits.enabled = false).await;
    let client = reqwest::Client::new();
    let quiet_rounds = open_rounds(&app, &client, plays).await;
    let flooded_rounds = open_rounds(&app, &client, plays).await;
    let quiet = percentiles(play_all(&app, &client, quiet_rounds).await);

    let stop = Arc::new(AtomicBool::new(false));
    let answered = Arc::new(AtomicU64::new(0));
    let flood: Vec<_> = (0..HOUSE_IN_FLIGHT)
        .map(|_| {
            let (client, url) = (client.clone(), format!("{app}/api/arcade/house"));
            let (stop, answered) = (stop.clone(), answered.clone());
            tokio::spawn(async move {
                while !stop.load(Ordering::Relaxed) {
                    let ok = client
                        .get(&url)
                        .send()
                        .await
                        .is_ok_and(|r| r.status() == 200);
                    answered.fetch_add(u64::from(ok), Ordering::Relaxed);
                }
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(500)).await; // the flood is at full strength
    let started = Instant::now();
    let counted_before = answered.load(Ordering::Relaxed);
    let flooded = percentiles(play_all(&app, &client, flooded_rounds).await);
    let house_per_second = (answered.load(Ordering::Relaxed) - counted_before) as f64
        / started.elapsed().as_secs_f64();
    stop.store(true, Ordering::Relaxed);
    join_all(flood).await;
    Measured {
        quiet,
        flooded,
        house_per_second,
    }
}

async fn play_all(app: &str, client: &reqwest::Client, rounds: Vec<String>) -> Vec<Duration> {
    let slots = Arc::new(Semaphore::new(PLAYS_IN_FLIGHT));
    let plays = rounds.into_iter().map(|round_id| {
        let (client, slots) = (client.clone(), slots.clone());
        let url = format!("{app}/api/arcade/flip");
        async move {
            let _slot = slots.acquire_owned().await.unwrap();
            let body = json!({ "round_id": round_id, "client_seed": round_id, "wager": 1, "call": "heads" });
            let sent = Instant::now();
            post(&client, &url, &body).await;
            sent.elapsed()
        }
    });
    join_all(plays).await
}

async fn rate_limited_flood(database_url: &str) {
    let app = start(database_url, |s| {
        s.rate_limits.trusted_proxies = vec!["127.0.0.1".into()];
    })
    .await;
    let client = reqwest::Client::new();
    let clients = 40;
    let started = Instant::now();
    let floods = (0..clients).map(|c| {
        let (client, app) = (client.clone(), app.clone());
        async move {
            let ip = format!("198.51.100.{c}");
            let mut statuses: HashMap<(&str, u16, String), usize> = HashMap::new();
            let player = PrivateKeySigner::random();
            let signature = sign_statement(&app, &client, &player).await;
            for _ in 0..ROUNDS_PER_CLIENT {
                let free = json!({ "address": PrivateKeySigner::random().address() });
                let commit = json!({ "address": player.address(), "signature": signature });
                for (what, path, body) in [
                    ("free", "/api/arcade/free", Some(free)),
                    ("commit", "/api/arcade/commit", Some(commit)),
                    ("games", "/api/arcade/games", None),
                ] {
                    let url = format!("{app}{path}");
                    let request = match &body {
                        Some(body) => client.post(url).json(body),
                        None => client.get(url),
                    };
                    let answer = request.header("x-forwarded-for", &ip).send().await.unwrap();
                    let status = answer.status().as_u16();
                    let body: Value = answer.json().await.unwrap_or_default();
                    let code = body["code"].as_str().unwrap_or("ok").to_owned();
                    *statuses.entry((what, status, code)).or_default() += 1;
                }
            }
            statuses
        }
    });
    let mut totals: HashMap<(&str, u16, String), usize> = HashMap::new();
    for statuses in join_all(floods).await {
        for (key, count) in statuses {
            *totals.entry(key).or_default() += count;
        }
    }
    println!(
        "\nrate limits on: {clients} clients x {ROUNDS_PER_CLIENT} x (free claim, commit, games) in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let mut keys: Vec<_> = totals.keys().cloned().collect();
    keys.sort();
    for key in &keys {
        println!("  {} {} {}: {}", key.0, key.1, key.2, totals[key]);
    }
    let granted = totals
        .get(&("free", 200, "ok".into()))
        .copied()
        .unwrap_or(0);
    audit(database_url, granted).await;
}

/// Every balance is the sum of its ledger; the chips in all are the granted claims' and
/// nothing else; refused claims left no wallet.
async fn audit(database_url: &str, granted_claims: usize) {
    let db = Database::connect(database_url).await.unwrap();
    let wallets = wallet::Entity::find().all(&db).await.unwrap();
    let entries = ledger::Entity::find().all(&db).await.unwrap();
    let mut sums: HashMap<&str, i64> = HashMap::new();
    for entry in &entries {
        *sums.entry(entry.address.as_str()).or_default() += entry.delta;
    }
    for wallet in &wallets {
        assert_eq!(
            sums.get(wallet.address.as_str()).copied().unwrap_or(0),
            wallet.chips
        );
    }
    let chips: i64 = wallets.iter().map(|w| w.chips).sum();
    let granted = i64::try_from(granted_claims).unwrap() * 100;
    assert_eq!(
        chips, granted,
        "chips in the wallets = 100 per granted claim"
    );
    let claimed = wallets.iter().filter(|w| w.free_claimed).count();
    assert_eq!(
        claimed, granted_claims,
        "no wallet claimed beyond the granted"
    );
    println!(
        "  ledger audit: {} wallets, {} entries, {chips} chips = {granted_claims} granted claims x 100: ok",
        wallets.len(),
        entries.len()
    );
}

async fn mcp_session_cap() {
    let sqlite = std::env::temp_dir().join(format!("arcade-mcp-{}.db", std::process::id()));
    let app = start(&sqlite_url(&sqlite), |s| {
        s.rate_limits.enabled = false;
        s.rate_limits.trusted_proxies = vec!["127.0.0.1".into()];
        s.mcp.max_sessions = 50;
    })
    .await;
    let client = reqwest::Client::new();
    let (quiet, flooder) = ("198.51.100.1", "203.0.113.66");
    let mut own = Vec::new();
    for _ in 0..10 {
        own.push(mcp_initialize(&app, &client, quiet).await);
    }
    let mut flood = Vec::new();
    for _ in 0..150 {
        flood.push(mcp_initialize(&app, &client, flooder).await);
    }
    for session in &own {
        assert_eq!(
            mcp_games(&app, &client, session).await,
            200,
            "the other client's session"
        );
    }
    let mut answered = 0;
    for (opened, session) in flood.iter().enumerate() {
        let status = mcp_games(&app, &client, session).await;
        // The flooder's newest 16 answer; its others ended, idlest (oldest) first.
        assert_eq!(
            status,
            if opened >= 134 { 200 } else { 404 },
            "session {opened}"
        );
        answered += usize::from(status == 200);
    }
    println!(
        "\nMCP sessions, cap 50 (16 per client): a client's 10 still answer after another opened 150, of which {answered} still answer"
    );
    assert_eq!(answered, 16);
    remove_sqlite(&sqlite);
}

async fn mcp_initialize(app: &str, client: &reqwest::Client, from: &str) -> String {
    let answer = client
        .post(format!("{app}/api/mcp"))
        .header("accept", "application/json, text/event-stream")
        .header("x-forwarded-for", from)
        .json(
            &json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": { "name": "flood", "version": "1" } } }),
        )
        .send()
        .await
        .unwrap();
    answer.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned()
}

async fn mcp_games(app: &str, client: &reqwest::Client, session: &str) -> u16 {
    client
        .post(format!("{app}/api/mcp"))
        .header("accept", "application/json, text/event-stream")
        .header("mcp-session-id", session)
        .header("mcp-protocol-version", "2025-11-25")
        .json(&json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call",
                       "params": { "name": "arcade_games", "arguments": {} } }))
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}
