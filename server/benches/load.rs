//! Load benchmark (not part of the test run): `cargo bench -p arcade-server --bench load`.
//!
//! Against the real server (built with the bench profile), on SQLite, and on PostgreSQL when
//! `ARCADE_BENCH_POSTGRES_URL` names a server this may create a database on:
//! 1. plays: N signed rounds are committed first, then played with C requests in flight (each
//!    play settles a round: the wager, the payout, the bet and its signed receipt);
//! 2. whole rounds: each of N tasks commits a round (signed statement, signed commitment) and
//!    then plays it, C in flight;
//! 3. chained rounds: C players each play a chain of rounds, each play asking for the next
//!    (`next_round`: one request a round), N in all; then one player's 500 chained rounds one
//!    at a time, beside the bare route one request at a time.
//!
//! Then, in the same run, a trivial salvo route measured the same way, so the ratio to the
//! framework's ceiling on this machine is visible. Client and server share the machine.
//! `ARCADE_BENCH_ROUNDS` (default 2000), `ARCADE_BENCH_CONCURRENCY` (default 32);
//! `ARCADE_BENCH_RATE=n` also offers N more plays at n per second (an open loop: latency below
//! the maximum, counted from when each play was due); `ARCADE_BENCH_FEED_READERS=n` has n
//! clients page the audit feed back to back while the plays of step 1 settle.

#![allow(clippy::print_stdout)] // a benchmark reports on stdout

mod support;

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use alloy::signers::local::PrivateKeySigner;
use salvo::prelude::*;
use serde_json::json;
use support::{env_number, funded_player, open_rounds, post, post_unparsed};
use tokio::sync::Semaphore;

#[tokio::main]
async fn main() {
    let rounds = env_number("ARCADE_BENCH_ROUNDS", 2_000);
    let concurrency = env_number("ARCADE_BENCH_CONCURRENCY", 32);
    println!(
        "rounds {rounds}, concurrency {concurrency}, cores {}",
        support::cores()
    );
    let sqlite = std::env::temp_dir().join(format!("arcade-bench-{}.db", std::process::id()));
    bench_rounds("SQLite", &support::sqlite_url(&sqlite), rounds, concurrency).await;
    support::remove_sqlite(&sqlite);
    if let Ok(admin) = std::env::var("ARCADE_BENCH_POSTGRES_URL") {
        let url = support::fresh_postgres(&admin, "arcade_bench").await;
        bench_rounds("PostgreSQL", &url, rounds, concurrency).await;
        support::drop_postgres(&admin, &url).await;
    }
    bench_hello(rounds, concurrency).await;
}

async fn bench_rounds(label: &str, database_url: &str, rounds: usize, concurrency: usize) {
    // One client flooding on purpose: the rate limits would answer most of it.
    let app = support::start(database_url, |s| s.rate_limits.enabled = false).await;
    let client = reqwest::Client::new();

    // One player per 32 rounds (the open rounds one address may hold), each with its free
    // chips, wagering 1 chip per round.
    let players = funded_players(&app, &client, rounds).await;
    let (elapsed, mut latencies, round_ids) =
        timed_commits(&app, &client, &players, rounds, concurrency).await;
    report(&format!("commits on {label}"), elapsed, &mut latencies);
    println!("{label}: {rounds} rounds committed; playing them");
    let plays = round_ids.into_iter().map(|round_id| {
        let (client, url) = (client.clone(), format!("{app}/api/arcade/flip"));
        async move {
            let body = json!({ "round_id": round_id, "client_seed": round_id, "wager": 1, "call": "heads" });
            post_unparsed(&client, &url, &body).await;
        }
    });
    let before = Batches::scrape(&client, &app).await;
    let readers = FeedReaders::start(&app, &client, env_number("ARCADE_BENCH_FEED_READERS", 0));
    let (elapsed, mut latencies) = drive(plays, concurrency).await;
    report(
        &format!("plays settled on {label}"),
        elapsed,
        &mut latencies,
    );
    readers.stop(elapsed).await;
    Batches::scrape(&client, &app).await.since(&before);
    if let Some(rate) = std::env::var("ARCADE_BENCH_RATE")
        .ok()
        .and_then(|r| r.parse().ok())
    {
        paced_plays(label, &app, &client, rounds, rate).await;
    }

    let players = funded_players(&app, &client, rounds).await;
    let whole = (0..rounds).map(|i| {
        let (client, app, players) = (client.clone(), app.clone(), players.clone());
        async move {
            let (player, signature) = &players[i / 32];
            let body = json!({ "address": player.address(), "signature": signature });
            let committed = post(&client, &format!("{app}/api/arcade/commit"), &body).await;
            let round_id = committed["round_id"].as_str().unwrap();
            let body = json!({ "round_id": round_id, "client_seed": round_id, "wager": 1, "call": "heads" });
            post_unparsed(&client, &format!("{app}/api/arcade/flip"), &body).await;
        }
    });
    let (elapsed, mut latencies) = drive(whole, concurrency).await;
    report(
        &format!("whole rounds (commit + play) on {label}"),
        elapsed,
        &mut latencies,
    );
    bench_chains(label, &app, &client, rounds, concurrency).await;
    if let Some((now, peak)) = support::memory_mib() {
        println!(
            "  memory (server and bench client, one process): RSS {now:.0} MiB, peak {peak:.0} MiB"
        );
    }
}

/// One new player for each 32 of `rounds` (the open rounds one address may hold), each with
/// its free chips and its signed statement.
async fn funded_players(
    app: &str,
    client: &reqwest::Client,
    rounds: usize,
) -> Arc<Vec<(PrivateKeySigner, String)>> {
    let mut players = Vec::new();
    for _ in 0..rounds.div_ceil(32) {
        players.push(funded_player(app, client).await);
    }
    Arc::new(players)
}

/// `rounds` commits, 32 for each of `players`, `concurrency` in flight: their time, latencies
/// and round ids.
async fn timed_commits(
    app: &str,
    client: &reqwest::Client,
    players: &Arc<Vec<(PrivateKeySigner, String)>>,
    rounds: usize,
    concurrency: usize,
) -> (Duration, Vec<Duration>, Vec<String>) {
    let round_ids = Arc::new(std::sync::Mutex::new(Vec::with_capacity(rounds)));
    let commits = (0..rounds).map(|i| {
        let (client, url, players) = (
            client.clone(),
            format!("{app}/api/arcade/commit"),
            players.clone(),
        );
        let round_ids = round_ids.clone();
        async move {
            let (player, signature) = &players[i / 32];
            let body = json!({ "address": player.address(), "signature": signature });
            let committed = post(&client, &url, &body).await;
            let round_id = committed["round_id"].as_str().unwrap().to_owned();
            round_ids.lock().unwrap().push(round_id);
        }
    });
    let (elapsed, latencies) = drive(commits, concurrency).await;
    let round_ids = std::mem::take(&mut *round_ids.lock().unwrap());
    (elapsed, latencies, round_ids)
}

/// Clients paging the audit feed back to back (100 receipts a page, from the last id seen), as
/// auditors following the house would, beside the plays.
struct FeedReaders {
    running: Arc<AtomicBool>,
    pages: Arc<AtomicU64>,
    receipts: Arc<AtomicU64>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

impl FeedReaders {
    fn start(app: &str, client: &reqwest::Client, count: usize) -> Self {
        let running = Arc::new(AtomicBool::new(true));
        let pages = Arc::new(AtomicU64::new(0));
        let receipts = Arc::new(AtomicU64::new(0));
        let tasks = (0..count)
            .map(|_| {
                let (client, app) = (client.clone(), app.to_owned());
                let (running, pages, receipts) = (running.clone(), pages.clone(), receipts.clone());
                tokio::spawn(async move {
                    let mut after = 0;
                    while running.load(Ordering::SeqCst) {
                        let url = format!("{app}/api/arcade/receipts?after={after}&limit=100");
                        let page = support::get(&client, &url).await;
                        let list = page["receipts"].as_array().unwrap();
                        if let Some(last) = list.last() {
                            after = last["bet_id"].as_i64().unwrap();
                        }
                        pages.fetch_add(1, Ordering::SeqCst);
                        receipts.fetch_add(list.len() as u64, Ordering::SeqCst);
                    }
                })
            })
            .collect();
        Self {
            running,
            pages,
            receipts,
            tasks,
        }
    }

    async fn stop(self, elapsed: Duration) {
        self.running.store(false, Ordering::SeqCst);
        if self.tasks.is_empty() {
            return;
        }
        for task in self.tasks {
            task.await.unwrap();
        }
        let seconds = elapsed.as_secs_f64();
        println!(
            "  beside them, the audit feed served {:.0} pages/s, {:.0} receipts/s",
            self.pages.load(Ordering::SeqCst) as f64 / seconds,
            self.receipts.load(Ordering::SeqCst) as f64 / seconds,
        );
    }
}

/// Plays offered at `rate` per second (open loop), to read the latency below the maximum.
async fn paced_plays(label: &str, app: &str, client: &reqwest::Client, rounds: usize, rate: u32) {
    let round_ids = open_rounds(app, client, rounds).await;
    let plays = round_ids.into_iter().map(|round_id| {
        let (client, url) = (client.clone(), format!("{app}/api/arcade/flip"));
        async move {
            let body = json!({ "round_id": round_id, "client_seed": round_id, "wager": 1, "call": "heads" });
            post_unparsed(&client, &url, &body).await;
        }
    });
    let every = Duration::from_secs(1) / rate;
    let before = Batches::scrape(client, app).await;
    let (elapsed, mut latencies) = drive_paced(plays, 4096, Some(every)).await;
    report(
        &format!("plays offered at {rate}/s on {label}"),
        elapsed,
        &mut latencies,
    );
    Batches::scrape(client, app).await.since(&before);
}

/// The server's own figures from `/metrics`: the play writer's histograms (a play's wait for
/// the writer, the writer's time per batch) and the flip route's time inside the server, to
/// tell where a play's latency goes.
#[derive(Default)]
struct Batches {
    batches: f64,
    plays: f64,
    batch_seconds: f64,
    queue_seconds: f64,
    /// Cumulative bucket counts by upper bound, per histogram.
    queue: Vec<(f64, f64)>,
    batch: Vec<(f64, f64)>,
    flip: Vec<(f64, f64)>,
}

impl Batches {
    async fn scrape(client: &reqwest::Client, app: &str) -> Self {
        let text = client
            .get(format!("{app}/metrics"))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        let value = |name: &str| {
            text.lines()
                .find_map(|line| line.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
                .unwrap_or(0.0)
        };
        // `name_bucket{...le="0.005"} 42` lines whose labels contain `with`.
        let buckets = |name: &str, with: &str| -> Vec<(f64, f64)> {
            text.lines()
                .filter(|line| line.starts_with(&format!("{name}_bucket{{")) && line.contains(with))
                .filter_map(|line| {
                    let le = line.split("le=\"").nth(1)?.split('"').next()?;
                    let count = line.rsplit(' ').next()?.parse().ok()?;
                    Some((le.parse().unwrap_or(f64::INFINITY), count))
                })
                .collect()
        };
        Self {
            batches: value("arcade_play_batch_plays_count"),
            plays: value("arcade_play_batch_plays_sum"),
            batch_seconds: value("arcade_play_batch_seconds_sum"),
            queue_seconds: value("arcade_play_queue_seconds_sum"),
            queue: buckets("arcade_play_queue_seconds", ""),
            batch: buckets("arcade_play_batch_seconds", ""),
            flip: buckets("arcade_http_request_duration_seconds", "flip"),
        }
    }

    /// Prints the means, and the bucket the 99th percentile falls in, over what happened since
    /// `before`.
    fn since(&self, before: &Self) {
        let batches = self.batches - before.batches;
        let plays = self.plays - before.plays;
        let p99 = |after: &[(f64, f64)], before: &[(f64, f64)]| {
            let count = |le: f64, list: &[(f64, f64)]| {
                list.iter().find(|(l, _)| *l == le).map_or(0.0, |(_, c)| *c)
            };
            let total = after
                .last()
                .map_or(0.0, |(le, _)| count(*le, after) - count(*le, before));
            after
                .iter()
                .find(|(le, c)| c - count(*le, before) >= 0.99 * total)
                .map_or(f64::NAN, |(le, _)| le * 1e3)
        };
        println!(
            "  writer: {batches:.0} batches, {:.1} plays each, {:.2} ms per batch (p99 ≤ {} ms); \
             a play waited {:.2} ms for its batch (p99 ≤ {} ms); the flip route inside the server: p99 ≤ {} ms",
            plays / batches,
            (self.batch_seconds - before.batch_seconds) / batches * 1e3,
            p99(&self.batch, &before.batch),
            (self.queue_seconds - before.queue_seconds) / plays * 1e3,
            p99(&self.queue, &before.queue),
            p99(&self.flip, &before.flip),
        );
    }
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
    let hellos = (0..requests).map(|_| {
        let (client, url) = (client.clone(), url.clone());
        async move {
            let ok = client.get(&url).send().await.unwrap().status().is_success();
            assert!(ok);
        }
    });
    let (elapsed, mut latencies) = drive(hellos, concurrency).await;
    report("hello route (salvo, same client)", elapsed, &mut latencies);
    let hellos = (0..SEQUENTIAL.min(requests)).map(|_| {
        let (client, url) = (client.clone(), url.clone());
        async move {
            let ok = client.get(&url).send().await.unwrap().status().is_success();
            assert!(ok);
        }
    });
    let (elapsed, mut latencies) = drive(hellos, 1).await;
    report("hello route, one at a time", elapsed, &mut latencies);
}

/// Rounds one agent plays one after another in the sequential step (of 1-chip flips from its
/// 100 free chips: running out in 500 would take a walk of 4.5 standard deviations).
const SEQUENTIAL: usize = 500;

/// Chained rounds (`next_round`: one request a round): one chain per player, `concurrency`
/// players at once, `rounds` in all; then a new player's `SEQUENTIAL` rounds one at a time.
async fn bench_chains(
    label: &str,
    app: &str,
    client: &reqwest::Client,
    rounds: usize,
    concurrency: usize,
) {
    let chains = concurrency.clamp(1, rounds.max(1));
    let players = funded_players(app, client, chains * 32).await;
    let mut firsts = Vec::with_capacity(chains);
    for (player, signature) in players.iter().take(chains) {
        firsts.push(commit_one(app, client, player, signature).await);
    }
    let started = Instant::now();
    let running: Vec<_> = firsts
        .into_iter()
        .enumerate()
        .map(|(n, first)| {
            let length = rounds / chains + usize::from(n < rounds % chains);
            let signature = players[n].1.clone();
            tokio::spawn(play_chain(
                app.to_owned(),
                client.clone(),
                (first, signature),
                length,
            ))
        })
        .collect();
    let mut latencies = Vec::with_capacity(rounds);
    for chain in running {
        latencies.extend(chain.await.unwrap());
    }
    report(
        &format!("chained rounds (one request each, {chains} chains) on {label}"),
        started.elapsed(),
        &mut latencies,
    );
    let (player, signature) = funded_player(app, client).await;
    let first = commit_one(app, client, &player, &signature).await;
    let started = Instant::now();
    let chain = (first, signature);
    let mut latencies = play_chain(app.to_owned(), client.clone(), chain, SEQUENTIAL).await;
    report(
        &format!("one agent's chained rounds, one at a time, on {label}"),
        started.elapsed(),
        &mut latencies,
    );
}

/// A commit's round id.
async fn commit_one(
    app: &str,
    client: &reqwest::Client,
    player: &PrivateKeySigner,
    signature: &str,
) -> String {
    let body = json!({ "address": player.address(), "signature": signature });
    let committed = post(client, &format!("{app}/api/arcade/commit"), &body).await;
    committed["round_id"].as_str().unwrap().to_owned()
}

/// Plays `length` rounds from `round_id` on, each asking for the next (with the owner's
/// statement `signature`, which a successor needs): each play's latency.
async fn play_chain(
    app: String,
    client: reqwest::Client,
    (mut round_id, signature): (String, String),
    length: usize,
) -> Vec<Duration> {
    let url = format!("{app}/api/arcade/flip");
    let mut latencies = Vec::with_capacity(length);
    for _ in 0..length {
        let sent = Instant::now();
        let body = json!({ "round_id": round_id, "client_seed": round_id, "wager": 1, "call": "heads", "next_round": true, "signature": signature });
        let answer = post_unparsed(&client, &url, &body).await;
        latencies.push(sent.elapsed());
        round_id = successor_id(&answer);
    }
    latencies
}

/// The successor's round id in a play's answer, read as a client that needs only it would,
/// without parsing the rest (as the other steps leave their answers unparsed).
fn successor_id(answer: &str) -> String {
    const KEY: &str = "\"next_round\":{\"round_id\":\"";
    let from = answer.find(KEY).expect("a successor") + KEY.len();
    let to = answer[from..].find('"').unwrap();
    answer[from..from + to].to_owned()
}

/// Runs `requests` with `concurrency` in flight; the wall time and each one's latency.
async fn drive<F>(
    requests: impl Iterator<Item = F>,
    concurrency: usize,
) -> (Duration, Vec<Duration>)
where
    F: Future<Output = ()> + Send + 'static,
{
    drive_paced(requests, concurrency, None).await
}

/// As `drive`, or, with `every`, one request sent every `every` whatever the answers (an
/// open loop), each latency counted from when it was due, so a stall is not hidden by the
/// requests it held back.
async fn drive_paced<F>(
    requests: impl Iterator<Item = F>,
    concurrency: usize,
    every: Option<Duration>,
) -> (Duration, Vec<Duration>)
where
    F: Future<Output = ()> + Send + 'static,
{
    let semaphore = Arc::new(Semaphore::new(concurrency));
    let started = Instant::now();
    let mut tasks = Vec::new();
    for (n, request) in requests.enumerate() {
        let due = match every {
            // The timer's 1 ms resolution would pace an unpaced loop too: no sleep at all.
            None => Instant::now(),
            Some(every) => {
                let due = started + every * u32::try_from(n).unwrap();
                tokio::time::sleep_until(due.into()).await;
                due
            }
        };
        let permit = semaphore.clone().acquire_owned().await.unwrap();
        tasks.push(tokio::spawn(async move {
            request.await;
            drop(permit);
            due.elapsed()
        }));
    }
    let mut latencies = Vec::with_capacity(tasks.len());
    for task in tasks {
        latencies.push(task.await.unwrap());
    }
    (started.elapsed(), latencies)
}

fn report(label: &str, elapsed: Duration, latencies: &mut [Duration]) {
    let count = latencies.len();
    let (p50, p99) = support::percentiles(latencies.to_vec());
    println!(
        "{label}: {:.0}/s over {count}, p50 {p50:.2} ms, p99 {p99:.2} ms",
        count as f64 / elapsed.as_secs_f64(),
    );
}
