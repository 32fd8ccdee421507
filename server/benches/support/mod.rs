//! What the benchmarks share: starting the real server on a database, players with signed
//! statements and open rounds, and percentiles.

#![allow(dead_code)] // each benchmark uses the part it needs

use std::time::Duration;

use alloy::signers::SignerSync;
use alloy::signers::local::PrivateKeySigner;
use arcade_server::settings::{Secret, Settings};
use arcade_server::startup::Application;
use futures::future::join_all;
use sea_orm::{ConnectionTrait, Database};
use serde_json::{Value, json};

/// Starts the server on `database_url` (port picked, logs quiet) and returns its base URL.
pub async fn start(database_url: &str, configure: impl FnOnce(&mut Settings)) -> String {
    let mut settings = Settings::default();
    settings.server.port = 0;
    settings.database.url = Secret::new(database_url);
    settings.server.state_dir = Some(state_dir(database_url));
    settings.log.filter = "warn".into();
    configure(&mut settings);
    let app = Application::build(settings).await.expect("server starts");
    let base = format!("http://127.0.0.1:{}", app.port());
    tokio::spawn(app.run_until_stopped());
    base
}

/// One state directory (the generated secrets) per database, as a deployment has: servers
/// on one database share it.
fn state_dir(database_url: &str) -> String {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    database_url.hash(&mut hasher);
    let dir = std::env::temp_dir().join(format!("arcade-bench-state-{:016x}", hasher.finish()));
    dir.to_string_lossy().into_owned()
}

pub async fn sign_statement(
    app: &str,
    client: &reqwest::Client,
    player: &PrivateKeySigner,
) -> String {
    let url = format!("{app}/api/arcade/auth-statement/{}", player.address());
    let statement = get(client, &url).await;
    let signature = player
        .sign_message_sync(statement["statement"].as_str().unwrap().as_bytes())
        .unwrap();
    format!("0x{}", alloy::hex::encode(signature.as_bytes()))
}

/// A new player with its free chips and its signed statement.
pub async fn funded_player(app: &str, client: &reqwest::Client) -> (PrivateKeySigner, String) {
    let player = PrivateKeySigner::random();
    let signature = sign_statement(app, client, &player).await;
    let body = json!({ "address": player.address() });
    post(client, &format!("{app}/api/arcade/free"), &body).await;
    (player, signature)
}

/// Commits `count` rounds for one player (at most the 32 one address may hold open).
pub async fn commit_rounds(
    app: &str,
    client: &reqwest::Client,
    player: &PrivateKeySigner,
    signature: &str,
    count: usize,
) -> Vec<String> {
    let commits = (0..count).map(|_| {
        let body = json!({ "address": player.address(), "signature": signature });
        let url = format!("{app}/api/arcade/commit");
        async move {
            post(client, &url, &body).await["round_id"]
                .as_str()
                .unwrap()
                .to_owned()
        }
    });
    join_all(commits).await
}

/// Commits `count` rounds over new players of 32 rounds each, each funded with its free chips.
pub async fn open_rounds(app: &str, client: &reqwest::Client, count: usize) -> Vec<String> {
    let mut rounds = Vec::with_capacity(count);
    while rounds.len() < count {
        let (player, signature) = funded_player(app, client).await;
        let batch = 32.min(count - rounds.len());
        rounds.extend(commit_rounds(app, client, &player, &signature, batch).await);
    }
    rounds
}

pub async fn get(client: &reqwest::Client, url: &str) -> Value {
    let response = client.get(url).send().await.unwrap();
    let status = response.status();
    let text = response.text().await.unwrap();
    assert!(status.is_success(), "{url}: {status} {text}");
    serde_json::from_str(&text).unwrap()
}

pub async fn post(client: &reqwest::Client, url: &str, body: &Value) -> Value {
    serde_json::from_str(&post_unparsed(client, url, body).await).unwrap()
}

/// `post` without parsing the answer: read whole, its status checked. A client elsewhere would
/// parse it on its own cores; a bench's client shares the server's, so its timed requests
/// leave the answer unparsed, as the hello route's do.
pub async fn post_unparsed(client: &reqwest::Client, url: &str, body: &Value) -> String {
    let response = client.post(url).json(body).send().await.unwrap();
    let status = response.status();
    let text = response.text().await.unwrap();
    assert!(status.is_success(), "{url}: {status} {text}");
    text
}

/// A trivial salvo route on its own port (`GET /hello`): the floor a request costs on this
/// machine and client, to read the server's figures against. Returns its URL.
pub async fn hello_url() -> String {
    use salvo::prelude::*;

    #[handler]
    async fn hello() -> &'static str {
        "hello"
    }
    let acceptor = TcpListener::new("127.0.0.1:0").bind().await;
    let port = acceptor.local_addr().unwrap().port();
    tokio::spawn(Server::new(acceptor).serve(Router::with_path("hello").get(hello)));
    format!("http://127.0.0.1:{port}/hello")
}

/// (p50, p99) in milliseconds, nearest rank.
pub fn percentiles(mut latencies: Vec<Duration>) -> (f64, f64) {
    latencies.sort();
    let at = |percent: usize| latencies[(latencies.len() - 1) * percent / 100].as_secs_f64() * 1e3;
    (at(50), at(99))
}

pub fn sqlite_url(path: &std::path::Path) -> String {
    format!("sqlite://{}?mode=rwc", path.display())
}

/// Removes a bench's SQLite file and its log and shared-memory files.
pub fn remove_sqlite(path: &std::path::Path) {
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
}

/// A new database on the PostgreSQL server `admin` names; its URL.
pub async fn fresh_postgres(admin: &str, prefix: &str) -> String {
    let name = format!("{prefix}_{}", std::process::id());
    let db = Database::connect(admin)
        .await
        .expect("PostgreSQL reachable");
    db.execute_unprepared(&format!("CREATE DATABASE {name}"))
        .await
        .expect("a database");
    format!(
        "{}/{name}",
        admin.rsplit_once('/').expect("a URL with a database").0
    )
}

/// Drops a database `fresh_postgres` made (the loaded growth database is ~1.6 GB), closing what
/// the bench's servers left connected to it.
pub async fn drop_postgres(admin: &str, url: &str) {
    let name = url.rsplit_once('/').expect("a URL with a database").1;
    let db = Database::connect(admin)
        .await
        .expect("PostgreSQL reachable");
    if let Err(error) = db
        .execute_unprepared(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        .await
    {
        eprintln!("dropping {name}: {error}");
    }
}

pub fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// This process's resident memory and its peak, in MiB (`/proc/self/status`): the server and
/// the benchmark's client together, as they share the process.
pub fn memory_mib() -> Option<(f64, f64)> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let field = |name: &str| -> Option<f64> {
        let line = status.lines().find(|line| line.starts_with(name))?;
        let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kib / 1024.0)
    };
    Some((field("VmRSS:")?, field("VmHWM:")?))
}
