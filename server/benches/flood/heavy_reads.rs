//! Phase 3 of the flood bench: plays alone, then under clients looping the heaviest anonymous
//! reads (the audit feed a thousand receipts at a time, a full seed batch's detail), each reader
//! from its own address (its own heavy-read bucket), then from a new address every read (only
//! the bucket all clients share holds them back).

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use arcade_server::settings::Bucket;
use futures::future::join_all;
use tokio::sync::Semaphore;

use crate::support::{
    drop_postgres, fresh_postgres, hello_url, open_rounds, percentiles, remove_sqlite, sqlite_url,
    start,
};
use crate::{PLAYS_IN_FLIGHT, play_all};

/// Clients looping the heaviest anonymous reads.
const HEAVY_READERS: usize = 16;
const HEAVY_READS: [&str; 2] = [
    "/api/arcade/receipts?after=0&limit=1000",
    "/api/arcade/seed-batches/1",
];

/// Phase 3 on each backend, after the bare route's baseline.
pub async fn measure(plays: usize) {
    let hello = hello_url().await;
    let client = reqwest::Client::new();
    let hellos = (0..plays).map(|_| {
        let (client, hello) = (client.clone(), hello.clone());
        async move {
            let sent = Instant::now();
            assert!(
                client
                    .get(&hello)
                    .send()
                    .await
                    .unwrap()
                    .status()
                    .is_success()
            );
            sent.elapsed()
        }
    });
    let (p50, p99) = percentiles(in_flight(hellos).await);
    println!(
        "\nheavy reads ({HEAVY_READERS} readers of {HEAVY_READS:?}); bare salvo route: p50 {p50:.2} ms, p99 {p99:.2} ms"
    );
    let mut rows = Vec::new();
    let sqlite = std::env::temp_dir().join(format!("arcade-heavy-{}.db", std::process::id()));
    rows.push((
        "SQLite",
        plays_under_heavy_reads(&sqlite_url(&sqlite), plays).await,
    ));
    remove_sqlite(&sqlite);
    if let Ok(admin) = std::env::var("ARCADE_BENCH_POSTGRES_URL") {
        let url = fresh_postgres(&admin, "arcade_heavy").await;
        rows.push(("PostgreSQL", plays_under_heavy_reads(&url, plays).await));
        drop_postgres(&admin, &url).await;
    }
    println!(
        "| backend | play alone p50 / p99 | readers at own address: play p50 / p99 | reads 200/s, 429/s | a new address every read: play p50 / p99 | reads 200/s, 429/s |"
    );
    println!("|---|---|---|---|---|---|");
    for (backend, m) in &rows {
        println!(
            "| {backend} | {:.2} / {:.2} ms | {:.2} / {:.2} ms | {:.1}, {:.0} | {:.2} / {:.2} ms | {:.1}, {:.0} |",
            m.quiet.0,
            m.quiet.1,
            m.own_address.plays.0,
            m.own_address.plays.1,
            m.own_address.answered,
            m.own_address.refused,
            m.new_addresses.plays.0,
            m.new_addresses.plays.1,
            m.new_addresses.answered,
            m.new_addresses.refused,
        );
    }
}

struct HeavyMeasured {
    quiet: (f64, f64),
    own_address: UnderReads,
    new_addresses: UnderReads,
}

/// Plays' (p50, p99) in ms while readers looped, and the reads answered and refused per second.
struct UnderReads {
    plays: (f64, f64),
    answered: f64,
    refused: f64,
}

async fn plays_under_heavy_reads(database_url: &str, plays: usize) -> HeavyMeasured {
    let app = start(database_url, |s| {
        s.rate_limits.trusted_proxies = vec!["127.0.0.1".into()];
        // The bench's players all come from this machine: only the heavy reads are limited.
        let wide = Bucket {
            every_ms: 1,
            burst: 1_000_000,
        };
        (
            s.rate_limits.general,
            s.rate_limits.free,
            s.rate_limits.commit,
        ) = (wide, wide, wide);
    })
    .await;
    let client = reqwest::Client::new();
    let mut rounds = Vec::new();
    for _ in 0..3 {
        rounds.push(open_rounds(&app, &client, plays).await);
    }
    // The first plays also fill the feed the readers ask a thousand of.
    let quiet = percentiles(play_all(&app, &client, rounds.remove(0)).await);
    let own_address = under_heavy_reads(&app, &client, rounds.remove(0), false).await;
    let new_addresses = under_heavy_reads(&app, &client, rounds.remove(0), true).await;
    HeavyMeasured {
        quiet,
        own_address,
        new_addresses,
    }
}

/// Plays `rounds` while the readers loop: each from its own address, or (`rotating`) from a
/// new address every read.
async fn under_heavy_reads(
    app: &str,
    client: &reqwest::Client,
    rounds: Vec<String>,
    rotating: bool,
) -> UnderReads {
    let stop = Arc::new(AtomicBool::new(false));
    let (answered, refused) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let readers: Vec<_> = (0..HEAVY_READERS)
        .map(|reader| {
            let (client, app) = (client.clone(), app.to_owned());
            let (stop, answered, refused) = (stop.clone(), answered.clone(), refused.clone());
            tokio::spawn(async move {
                for read in 0_u32.. {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let address = if rotating {
                        let [_, a, b, c] = read.to_be_bytes();
                        format!("10.{a}.{b}.{}", c ^ u8::try_from(reader).unwrap())
                    } else {
                        format!("203.0.113.{reader}")
                    };
                    let path = HEAVY_READS[read as usize % HEAVY_READS.len()];
                    let answer = client
                        .get(format!("{app}{path}"))
                        .header("x-forwarded-for", address)
                        .send()
                        .await
                        .unwrap();
                    let status = answer.status().as_u16();
                    answer.bytes().await.unwrap();
                    match status {
                        200 => answered.fetch_add(1, Ordering::Relaxed),
                        429 => refused.fetch_add(1, Ordering::Relaxed),
                        other => panic!("{path}: {other}"),
                    };
                }
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(500)).await; // the readers are at full strength
    let counted = (
        answered.load(Ordering::Relaxed),
        refused.load(Ordering::Relaxed),
    );
    let started = Instant::now();
    let plays = percentiles(play_all(app, client, rounds).await);
    let seconds = started.elapsed().as_secs_f64();
    let answered = (answered.load(Ordering::Relaxed) - counted.0) as f64 / seconds;
    let refused = (refused.load(Ordering::Relaxed) - counted.1) as f64 / seconds;
    stop.store(true, Ordering::Relaxed);
    join_all(readers).await;
    UnderReads {
        plays,
        answered,
        refused,
    }
}

/// Runs `requests` with `PLAYS_IN_FLIGHT` at a time; each one's latency.
async fn in_flight(
    requests: impl Iterator<Item = impl Future<Output = Duration>>,
) -> Vec<Duration> {
    let slots = Arc::new(Semaphore::new(PLAYS_IN_FLIGHT));
    join_all(requests.map(|request| {
        let slots = slots.clone();
        async move {
            let _slot = slots.acquire_owned().await.unwrap();
            request.await
        }
    }))
    .await
}
