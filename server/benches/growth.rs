//! Growth benchmark (not part of the test run): `cargo bench -p arcade-server --bench growth`.
//!
//! Measures p50/p99 of a play, `GET /verify/{bet_id}`, `GET /recent`, `GET /balance/{address}`
//! and `GET /house` on two databases side by side: one nearly empty, and one into which
//! `ARCADE_BENCH_BULK_ROUNDS` (default 1,000,000) settled rounds were loaded straight into the
//! tables with SQL (seed batches, wallets, rounds, bets and their ledger rows, shaped like the
//! server's own: signatures, seeds and JSON of the same lengths), its public statistics folded
//! (and, on PostgreSQL, the vacuum and analyse its autovacuum would run). Each database has its
//! own server; they are measured in turns (`TURNS`, the order swapped each turn), so the
//! machine's and the database server's background work fall on both alike and the ratio shows
//! what the table size costs. Prints each ratio and the database bytes per settled round. On
//! SQLite, and on PostgreSQL when `ARCADE_BENCH_POSTGRES_URL` names a server this may create
//! databases on. Requests go one at a time (latency, not throughput); `ARCADE_BENCH_SAMPLES`
//! (default 3000) per figure and database, after an untimed quarter as many.

#![allow(clippy::print_stdout)] // a benchmark reports on stdout

mod support;

use std::time::{Duration, Instant};

use sea_orm::{ConnectionTrait, Database, DatabaseConnection, DbBackend};
use serde_json::{Value, json};
use support::{commit_rounds, env_number, funded_player, get, percentiles, post};

/// Settled rounds per bulk wallet.
const ROUNDS_PER_WALLET: usize = 100;
const BATCH_SIZE: usize = 1024;
/// Turns of measurement per database, each a share of the samples.
const TURNS: usize = 6;

/// Each measured operation's name and latencies.
type Figures = Vec<(&'static str, Vec<Duration>)>;

#[tokio::main]
async fn main() {
    let bulk = env_number("ARCADE_BENCH_BULK_ROUNDS", 1_000_000);
    let samples = env_number("ARCADE_BENCH_SAMPLES", 3_000);
    println!(
        "bulk rounds {bulk}, {samples} samples per figure in {TURNS} turns, cores {}",
        support::cores()
    );
    let files = ["empty", "loaded"].map(|name| {
        std::env::temp_dir().join(format!("arcade-growth-{name}-{}.db", std::process::id()))
    });
    let [empty, loaded] = files.each_ref().map(|path| support::sqlite_url(path));
    growth("SQLite", &empty, &loaded, bulk, samples).await;
    for file in &files {
        support::remove_sqlite(file);
    }
    if let Ok(admin) = std::env::var("ARCADE_BENCH_POSTGRES_URL") {
        let empty = support::fresh_postgres(&admin, "arcade_growth_empty").await;
        let loaded = support::fresh_postgres(&admin, "arcade_growth_loaded").await;
        growth("PostgreSQL", &empty, &loaded, bulk, samples).await;
        for url in [&empty, &loaded] {
            support::drop_postgres(&admin, url).await;
        }
    }
}

async fn growth(backend: &str, empty_url: &str, loaded_url: &str, bulk: usize, samples: usize) {
    let no_limits = |s: &mut arcade_server::settings::Settings| s.rate_limits.enabled = false;
    let empty_app = support::start(empty_url, no_limits).await;
    let loaded_app = support::start(loaded_url, no_limits).await;
    let client = reqwest::Client::new();
    let db = Database::connect(loaded_url).await.expect("database");
    let bytes_before = database_bytes(&db).await;
    let started = Instant::now();
    load(&db, bulk).await;
    println!(
        "{backend}: loaded {bulk} settled rounds in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    settle_after_load(&db).await;
    let folded = Instant::now();
    wait_for_fold(&loaded_app, &client, bulk).await;
    println!(
        "{backend}: statistics folded them in after {:.1} s",
        folded.elapsed().as_secs_f64()
    );
    let bytes_per_round = (database_bytes(&db).await - bytes_before) / bulk as f64;
    // Untimed first pass: connections, caches and the seed tree warm, as they are after load.
    for app in [&empty_app, &loaded_app] {
        measure(app, &client, samples / 4).await;
    }
    let (mut empty, mut loaded) = (Figures::new(), Figures::new());
    for turn in 0..TURNS {
        let mut order = [(&empty_app, &mut empty), (&loaded_app, &mut loaded)];
        if turn % 2 == 1 {
            order.reverse();
        }
        for (app, figures) in order {
            let measured = measure(app, &client, samples / TURNS).await;
            if figures.is_empty() {
                *figures = measured;
            } else {
                for ((_, all), (_, more)) in figures.iter_mut().zip(measured) {
                    all.extend(more);
                }
            }
        }
    }
    println!("\n{backend}: {bytes_per_round:.0} database bytes per settled round");
    println!("| {backend} | empty p50 | empty p99 | at {bulk} p50 | p99 | p99 ratio |");
    println!("|---|---|---|---|---|---|");
    for ((name, before), (_, after)) in empty.into_iter().zip(loaded) {
        let (before, after) = (percentiles(before), percentiles(after));
        println!(
            "| {name} | {:.2} ms | {:.2} ms | {:.2} ms | {:.2} ms | {:.2}x |",
            before.0,
            before.1,
            after.0,
            after.1,
            after.1 / before.1
        );
    }
    println!();
}

/// Each operation's latencies, `samples` of each.
async fn measure(app: &str, client: &reqwest::Client, samples: usize) -> Figures {
    let mut rounds = Vec::with_capacity(samples);
    let mut players = Vec::new();
    while rounds.len() < samples {
        let (player, signature) = funded_player(app, client).await;
        let count = 32.min(samples - rounds.len());
        rounds.extend(commit_rounds(app, client, &player, &signature, count).await);
        players.push(player.address());
    }
    let mut plays = Vec::with_capacity(samples);
    let mut bet_ids = Vec::with_capacity(samples);
    for round_id in &rounds {
        let body =
            json!({ "round_id": round_id, "client_seed": round_id, "wager": 1, "call": "heads" });
        let (elapsed, played) = timed(post(client, &format!("{app}/api/arcade/flip"), &body)).await;
        plays.push(elapsed);
        bet_ids.push(played["bet_id"].as_i64().unwrap());
    }
    let mut figures = vec![("play (flip)", plays)];
    let urls: [(&str, Vec<String>); 4] = [
        (
            "GET /verify/{bet_id}",
            bet_ids
                .iter()
                .map(|id| format!("{app}/api/arcade/verify/{id}"))
                .collect(),
        ),
        (
            "GET /recent",
            vec![format!("{app}/api/arcade/recent"); samples],
        ),
        (
            "GET /balance/{address}",
            (0..samples)
                .map(|i| format!("{app}/api/arcade/balance/{}", players[i % players.len()]))
                .collect(),
        ),
        (
            "GET /house",
            vec![format!("{app}/api/arcade/house"); samples],
        ),
    ];
    for (name, urls) in urls {
        let mut latencies = Vec::with_capacity(urls.len());
        for url in &urls {
            latencies.push(timed(get(client, url)).await.0);
        }
        figures.push((name, latencies));
    }
    figures
}

async fn timed(request: impl Future<Output = Value>) -> (Duration, Value) {
    let sent = Instant::now();
    let answer = request.await;
    (sent.elapsed(), answer)
}

/// The house statistics count every bulk round once the fold has caught up.
async fn wait_for_fold(app: &str, client: &reqwest::Client, bulk: usize) {
    loop {
        let house = get(client, &format!("{app}/api/arcade/house")).await;
        let rounds = house["all"]["rounds"]
            .as_u64()
            .expect("/house counts rounds");
        if usize::try_from(rounds).unwrap_or(0) >= bulk {
            return;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// PostgreSQL's autovacuum visits tables that grew this much and refreshes their statistics;
/// run that now, so the loaded figures measure the database at rest, not racing its own
/// vacuum (on two cores a vacuum of a million-row table takes one of them for a while).
async fn settle_after_load(db: &DatabaseConnection) {
    if db.get_database_backend() != DbBackend::Postgres {
        return;
    }
    let started = Instant::now();
    db.execute_unprepared("VACUUM (ANALYZE) seed_batches, wallets, rounds, bets, ledger")
        .await
        .expect("vacuum");
    let cache = db
        .query_one_raw(sea_orm::Statement::from_string(
            DbBackend::Postgres,
            "SELECT current_setting('shared_buffers') AS cache",
        ))
        .await
        .expect("shared_buffers")
        .expect("a row");
    // The loaded database outgrows the default cache (128MB) many times over: its figures
    // depend on it, so it is printed beside them.
    println!(
        "PostgreSQL: vacuumed and analysed in {:.1} s; shared_buffers {}",
        started.elapsed().as_secs_f64(),
        cache.try_get::<String>("", "cache").expect("text")
    );
}

async fn database_bytes(db: &DatabaseConnection) -> f64 {
    let sql = match db.get_database_backend() {
        DbBackend::Postgres => "SELECT pg_database_size(current_database())::BIGINT AS bytes",
        _ => "SELECT page_count * page_size AS bytes FROM pragma_page_count(), pragma_page_size()",
    };
    let row = db
        .query_one_raw(sea_orm::Statement::from_string(
            db.get_database_backend(),
            sql,
        ))
        .await
        .unwrap()
        .unwrap();
    row.try_get::<i64>("", "bytes").unwrap() as f64
}

/// Loads `bulk` settled coinflip rounds of 1 chip (every other one won) over wallets of
/// `ROUNDS_PER_WALLET` rounds each, in full seed batches, with their ledger rows (a free grant
/// per wallet, a wager per round, a win per won round) and the wallets' balances as the sum of
/// their ledger. `balance_after` of the bulk rows is not replayed (a constant).
async fn load(db: &DatabaseConnection, bulk: usize) {
    let backend = db.get_database_backend();
    let hex = |expr: &str, width: usize| match backend {
        DbBackend::Postgres => format!("lpad(to_hex({expr}), {width}, '0')"),
        _ => format!("printf('%0{width}x', {expr})"),
    };
    let wallets = bulk.div_ceil(ROUNDS_PER_WALLET);
    let batches = bulk.div_ceil(BATCH_SIZE);
    let t0 = chrono::Utc::now().timestamp_millis() - i64::try_from(bulk).unwrap() - 60_000;
    let series = |n: usize| {
        format!("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {n}) ")
    };
    let address = format!("'0x' || {}", hex(&format!("1 + i % {wallets}"), 40));
    let statements = [
        format!(
            "{} INSERT INTO seed_batches (id, size, next_index, merkle_root, created_at, signature) \
             SELECT 1000000 + i, {BATCH_SIZE}, {BATCH_SIZE}, {}, {t0}, '0x' || {} FROM n",
            series(batches),
            hex("i", 64),
            hex("i", 130)
        ),
        format!(
            "{} INSERT INTO wallets (address, chips, bought_in, free_claimed, free_granted, net_day, \
             net_today, created_at, open_rounds) \
             SELECT '0x' || {}, 0, FALSE, TRUE, 100, 0, 0, {t0}, 0 FROM n",
            series(wallets),
            hex("i", 40)
        ),
        format!(
            "{} INSERT INTO ledger (address, kind, delta, balance_after, reference, created_at) \
             SELECT '0x' || {}, 'free', 100, 100, 'free', {t0} FROM n",
            series(wallets),
            hex("i", 40)
        ),
        format!(
            "{} INSERT INTO rounds (id, address, server_seed, commitment, state, created_at, \
             spent_at, batch_id, seed_index, commitment_signature) \
             SELECT {}, {address}, {}, {}, 'spent', {t0} + i, {t0} + i + 1, \
             1000001 + (i - 1) / {BATCH_SIZE}, (i - 1) % {BATCH_SIZE}, '0x' || {} FROM n",
            series(bulk),
            hex("i", 32),
            hex("i * 7", 64),
            hex("i * 13", 64),
            hex("i", 130)
        ),
        format!(
            "{} INSERT INTO bets (round_id, address, game, client_seed, nonce, wager, params, \
             result, won, payout, profit, settled_at, receipt_signature, commitment, committed_at) \
             SELECT {}, {address}, 'coinflip', 'bulk-client-seed-' || i, 0, 1, '{{\"call\":\"heads\"}}', \
             CASE WHEN i % 2 = 0 THEN '{{\"outcome\":\"heads\"}}' ELSE '{{\"outcome\":\"tails\"}}' END, \
             i % 2 = 0, CASE WHEN i % 2 = 0 THEN 2 ELSE 0 END, CASE WHEN i % 2 = 0 THEN 1 ELSE -1 END, \
             {t0} + i + 1, '0x' || {}, {}, {t0} + i FROM n",
            series(bulk),
            hex("i", 32),
            hex("i", 130),
            hex("i * 13", 64)
        ),
        format!(
            "{} INSERT INTO ledger (address, kind, delta, balance_after, reference, created_at) \
             SELECT {address}, 'wager', -1, 100, 'round:' || {}, {t0} + i + 1 FROM n",
            series(bulk),
            hex("i", 32)
        ),
        format!(
            "{} INSERT INTO ledger (address, kind, delta, balance_after, reference, created_at) \
             SELECT {address}, 'win', 2, 100, 'round:' || {}, {t0} + i + 1 FROM n WHERE i % 2 = 0",
            series(bulk),
            hex("i", 32)
        ),
        "UPDATE wallets SET chips = (SELECT SUM(delta) FROM ledger WHERE ledger.address = wallets.address)"
            .to_owned(),
    ];
    // What a database that grew over time has had done to it: statistics gathered, and the
    // bulk write's log checkpointed (PostgreSQL's autovacuum also sets the rows' hint bits).
    let settle: &[&str] = match backend {
        DbBackend::Postgres => &["VACUUM ANALYZE", "CHECKPOINT"],
        _ => &["ANALYZE", "PRAGMA wal_checkpoint(TRUNCATE)"],
    };
    let statements = statements
        .into_iter()
        .chain(settle.iter().map(|s| (*s).to_owned()));
    for statement in statements {
        db.execute_unprepared(&statement)
            .await
            .unwrap_or_else(|e| panic!("{e}: {statement}"));
    }
}
