//! A database outage is answered 503 `database_unavailable` with `Retry-After`, never 500, and
//! the service comes back by itself when the database does: a PostgreSQL cluster of the
//! test's own (the suite's shared one serves every other test) is stopped for five seconds
//! under play, its connections cut, and started again. Ends with the ledger audit.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use alloy::signers::local::PrivateKeySigner;
use serde_json::{Value, json};

use crate::helpers::{Response, TestApp};

/// The outage cluster: its own port and directory.
const PORT: &str = "54341";
const DIR: &str = "/tmp/arcade-outage-pg";
/// How long a player goes on after the run for an answer that is a 200.
const AFTER_STOP: Duration = Duration::from_secs(20);

/// `tests/scripts/postgres.sh <command>` on the outage cluster; what it printed.
fn cluster(command: &str) -> String {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/scripts/postgres.sh");
    let output = Command::new("bash")
        .arg(script)
        .arg(command)
        .env("ARCADE_TEST_PG_PORT", PORT)
        .env("ARCADE_TEST_PG_DIR", DIR)
        .output()
        .expect("postgres.sh runs");
    assert!(output.status.success(), "postgres.sh {command}: {output:?}");
    String::from_utf8(output.stdout).unwrap().trim().to_owned()
}

/// What one request answered: its status and code, and its `Retry-After`.
type Answer = (u16, String, Option<String>);

async fn send(app: &TestApp, path: &str, body: &Value) -> (Answer, Value) {
    let reply = app
        .client
        .post(format!("{}{path}", app.base_url))
        .header("content-type", "application/json")
        .body(body.to_string())
        .send()
        .await;
    let Ok(reply) = reply else {
        return ((0, "no answer".into(), None), Value::Null);
    };
    let retry_after = reply
        .headers()
        .get("retry-after")
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned);
    let Response { status, body } = Response::read(reply).await;
    let code = body["code"].as_str().unwrap_or("").to_owned();
    ((status, code, retry_after), body)
}

/// Commit and flip in a loop until `stop`, and then until an answer is a 200 (a connection the
/// pool held through the outage fails the one request that finds it broken), for at most
/// `AFTER_STOP`; every answer.
async fn play_until(
    app: Arc<TestApp>,
    player: PrivateKeySigner,
    stop: Arc<AtomicBool>,
) -> Vec<Answer> {
    let signature = app.sign_statement(&player).await;
    let mut answers: Vec<Answer> = Vec::new();
    let mut n = 0;
    let mut stopped_at = None;
    loop {
        if stop.load(Ordering::SeqCst) {
            let since = *stopped_at.get_or_insert_with(std::time::Instant::now);
            let answered = answers.last().is_some_and(|answer| answer.0 == 200);
            if answered || since.elapsed() > AFTER_STOP {
                break;
            }
        }
        let commit = json!({ "address": player.address(), "signature": signature });
        let (answer, committed) = send(&app, "/api/arcade/commit", &commit).await;
        let ok = answer.0 == 200;
        answers.push(answer);
        if !ok {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        }
        n += 1;
        let flip = json!({ "round_id": committed["round_id"], "client_seed": format!("seed {n}"),
                           "wager": 1, "call": "heads" });
        let (answer, _) = send(&app, "/api/arcade/flip", &flip).await;
        answers.push(answer);
    }
    answers
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[allow(clippy::print_stdout)] // the answers seen, shown with --nocapture
async fn postgres_stopped_under_play_is_a_503_and_service_resumes() {
    let url = cluster("start");
    let app = Arc::new(TestApp::spawn_on(&url, |_| {}).await);
    let stop = Arc::new(AtomicBool::new(false));
    let mut players = Vec::new();
    for _ in 0..6 {
        let player = PrivateKeySigner::random();
        app.fund(player.address(), 10_000).await;
        players.push(tokio::spawn(play_until(app.clone(), player, stop.clone())));
    }
    tokio::time::sleep(Duration::from_millis(1500)).await;
    cluster("stop");
    tokio::time::sleep(Duration::from_secs(5)).await;
    cluster("resume");
    tokio::time::sleep(Duration::from_secs(3)).await;
    stop.store(true, Ordering::SeqCst);

    let mut seen: BTreeMap<(u16, String), usize> = BTreeMap::new();
    let mut last = Vec::new();
    for player in players {
        let answers = player.await.unwrap();
        last.push(answers.last().cloned());
        for (status, code, retry_after) in answers {
            if status == 503 {
                assert_eq!(code, "database_unavailable");
                assert_eq!(retry_after.as_deref(), Some("2"));
            }
            *seen.entry((status, code)).or_default() += 1;
        }
    }
    println!("answers under the outage: {seen:?}");
    assert!(
        seen.keys().all(|(status, _)| [200, 503].contains(status)),
        "only answers and 503s: {seen:?}"
    );
    assert!(
        last.iter()
            .all(|answer| answer.as_ref().is_some_and(|a| a.0 == 200)),
        "every player plays again once the database is back: {last:?}"
    );
    app.audit().await;
    cluster("stop");
}
