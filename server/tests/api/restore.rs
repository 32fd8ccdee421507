//! A database restored from a backup (or wiped, the secret kept) never makes the house issue a
//! seed it has already revealed, nor reopens a round whose seed it revealed. The backup is every
//! table copied aside in the database itself; the restore puts them back in one transaction,
//! under the running instance, and a new instance is started on the restored data too. Rounds
//! played between the two revealed their seeds; no commitment issued after the restore, by
//! either instance, is one of theirs. Rounds opened before the backup and played or expired
//! after it (their seeds revealed) stand open in the copy: they cannot be played again.

use std::collections::HashSet;

use alloy::signers::local::PrivateKeySigner;
use sea_orm::{ConnectionTrait, Statement};
use serde_json::{Value, json};

use crate::helpers::{Backend, TestApp, fresh_database};

/// Tables copied by the backup, parents before children (restored in this order, emptied in
/// the reverse one).
const TABLES: [&str; 8] = [
    "secret_fingerprints",
    "instances",
    "wallets",
    "ledger",
    "seed_batches",
    "rounds",
    "bets",
    "auth_generations",
];

async fn backup(app: &TestApp) {
    for table in TABLES {
        app.arcade
            .db
            .execute_unprepared(&format!(
                "CREATE TABLE backup_{table} AS SELECT * FROM {table}"
            ))
            .await
            .unwrap();
    }
}

async fn restore(app: &TestApp) {
    let db = &app.arcade.db;
    let mut statements: Vec<String> = TABLES
        .iter()
        .rev()
        .map(|t| format!("DELETE FROM {t}"))
        .collect();
    statements.extend(
        TABLES
            .iter()
            .map(|t| format!("INSERT INTO {t} SELECT * FROM backup_{t}")),
    );
    let txn = sea_orm::TransactionTrait::begin(db).await.unwrap();
    for statement in statements {
        txn.execute_raw(Statement::from_string(db.get_database_backend(), statement))
            .await
            .unwrap();
    }
    txn.commit().await.unwrap();
}

/// A played round's commitment and its revealed seed.
async fn play_one(app: &TestApp, player: &PrivateKeySigner) -> (String, String) {
    let round_id = app.commit(player).await;
    let receipt = app
        .post(
            "/api/arcade/flip",
            &json!({ "round_id": round_id, "client_seed": "seen", "wager": 1, "call": "heads" }),
        )
        .await
        .ok();
    (
        receipt["commitment"].as_str().unwrap().to_owned(),
        receipt["server_seed"].as_str().unwrap().to_owned(),
    )
}

async fn commitments(app: &TestApp, player: &PrivateKeySigner, count: usize) -> Vec<Value> {
    let signature = app.sign_statement(player).await;
    let mut committed = Vec::new();
    for _ in 0..count {
        committed.push(
            app.post(
                "/api/arcade/commit",
                &json!({ "address": player.address(), "signature": signature }),
            )
            .await
            .ok(),
        );
    }
    committed
}

fn assert_none_revealed(revealed: &HashSet<String>, after: &[Value], who: &str) {
    for commit in after {
        let commitment = commit["commitment"].as_str().unwrap();
        assert!(
            !revealed.contains(commitment),
            "{who} issued commitment {commitment} again, whose seed was revealed after the backup (batch {} index {})",
            commit["proofs"]["batch"]["batch_id"],
            commit["proofs"]["batch"]["index"]
        );
    }
}

/// A round opened before the backup: after it, played (`played`) or expired by its owner's
/// rotation (`expired`); either way its seed is public.
struct Reopened {
    round_id: String,
    seed: String,
}

async fn reveal_after_the_backup(
    app: &TestApp,
    played: (&PrivateKeySigner, &str),
    expired: (&PrivateKeySigner, &str),
) -> [Reopened; 2] {
    let receipt = app
        .post(
            "/api/arcade/flip",
            &json!({ "round_id": played.1, "client_seed": "seen", "wager": 1, "call": "heads" }),
        )
        .await
        .ok();
    let signature = app.sign_statement(expired.0).await;
    let rotation = json!({ "address": expired.0.address(), "signature": signature });
    app.post("/api/arcade/auth/rotate", &rotation).await.ok();
    let round = app
        .get(&format!("/api/arcade/rounds/{}", expired.1))
        .await
        .ok();
    let mut seed = None;
    for batch in app
        .get("/api/arcade/seed-batches")
        .await
        .ok()
        .as_array()
        .unwrap()
    {
        let batch = app
            .get(&format!("/api/arcade/seed-batches/{}", batch["batch_id"]))
            .await
            .ok();
        for listed in batch["rounds"].as_array().unwrap() {
            if listed["commitment"] == round["commitment"] {
                seed = listed["server_seed"].as_str().map(str::to_owned);
            }
        }
    }
    [
        Reopened {
            round_id: played.1.to_owned(),
            seed: receipt["server_seed"].as_str().unwrap().to_owned(),
        },
        Reopened {
            round_id: expired.1.to_owned(),
            seed: seed.expect("the expired round's seed is shown"),
        },
    ]
}

/// Playing a reopened round with the call its known seed makes win is refused, on `app`.
async fn assert_not_played_again(app: &TestApp, reopened: &[Reopened], who: &str) {
    for round in reopened {
        let call = crate::clocks::winning_flip(&round.seed, "known");
        let body = json!({ "round_id": round.round_id, "client_seed": "known", "wager": 100, "call": call });
        let played = app.post("/api/arcade/flip", &body).await;
        assert_eq!(
            (played.status, played.body["code"].as_str()),
            (409, Some("round_expired")),
            "{who} played again a round whose seed was revealed: {}",
            played.body
        );
    }
}

async fn a_restored_database_never_issues_a_revealed_seed_again(backend: Backend) {
    let running = TestApp::spawn_with(backend, |s| s.rounds.max_open_per_address = 100).await;
    let player = PrivateKeySigner::random();
    let rotator = PrivateKeySigner::random();
    running.fund(player.address(), 1_000).await;
    running.fund(rotator.address(), 1_000).await;
    play_one(&running, &player).await;
    let to_play = running.commit(&player).await;
    let to_expire = running.commit(&rotator).await;
    backup(&running).await;
    // A backup at least a heartbeat old (`service::instances`), as any real one is.
    tokio::time::sleep(arcade_server::service::instances::BEAT * 2).await;
    let reopened =
        reveal_after_the_backup(&running, (&player, &to_play), (&rotator, &to_expire)).await;

    let mut revealed = HashSet::new();
    for _ in 0..12 {
        let (commitment, seed) = play_one(&running, &player).await;
        assert!(revealed.insert(commitment), "a commitment issued twice");
        assert_eq!(seed.len(), 64);
    }

    restore(&running).await;
    let started = TestApp::spawn_on(&running.database_url, |s| {
        s.rounds.max_open_per_address = 100;
    })
    .await;
    // By the time the new instance serves, the running one has beaten since the restore.
    assert_not_played_again(&started, &reopened, "an instance started after the restore").await;
    assert_not_played_again(&running, &reopened, "the instance restored under").await;
    let after_start = commitments(&started, &player, 16).await;
    assert_none_revealed(
        &revealed,
        &after_start,
        "an instance started after the restore",
    );
    let under_running = commitments(&running, &player, 16).await;
    assert_none_revealed(&revealed, &under_running, "the instance restored under");

    // The restore did not cost the signer: the secrets came back with the data.
    let signer = async |app: &TestApp| app.get("/api/arcade/manifest").await.ok()["signer"].clone();
    assert_eq!(signer(&running).await, signer(&started).await);
    running.audit().await;
}

mod a_restored_database_never_issues_a_revealed_seed_again {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        super::a_restored_database_never_issues_a_revealed_seed_again(
            crate::helpers::Backend::Sqlite,
        )
        .await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        super::a_restored_database_never_issues_a_revealed_seed_again(
            crate::helpers::Backend::Postgres,
        )
        .await;
    }
}

/// A database wiped with the seeds secret kept (set in the settings): its first batch is not
/// the wiped one's, so its first commitments are other ones.
async fn a_wiped_database_with_the_secret_kept_issues_other_seeds(backend: Backend) {
    let secret = alloy::hex::encode(alloy::primitives::B256::random());
    let keep_secret = |s: &mut arcade_server::settings::Settings| {
        s.seeds.secret = Some(arcade_server::settings::Secret::new(secret.clone()));
    };
    let before = TestApp::spawn_with(backend, keep_secret).await;
    let player = PrivateKeySigner::random();
    before.fund(player.address(), 100).await;
    let (commitment, _) = play_one(&before, &player).await;
    let revealed = HashSet::from([commitment]);

    let wiped = TestApp::spawn_on(&fresh_database(backend).await, keep_secret).await;
    let after = commitments(&wiped, &player, 4).await;
    assert_none_revealed(&revealed, &after, "the wiped deployment");
    before.audit().await;
    wiped.audit().await;
}

mod a_wiped_database_with_the_secret_kept_issues_other_seeds {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        super::a_wiped_database_with_the_secret_kept_issues_other_seeds(
            crate::helpers::Backend::Sqlite,
        )
        .await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        super::a_wiped_database_with_the_secret_kept_issues_other_seeds(
            crate::helpers::Backend::Postgres,
        )
        .await;
    }
}

/// Rounds opened before an upgrade to heartbeats (or before every instance stopped): the first
/// instance to start with none beating expires them, whatever ids or seeds leaked meanwhile.
async fn rounds_open_when_no_instance_beats_expire_at_start(backend: Backend) {
    let before = TestApp::spawn(backend).await;
    let player = PrivateKeySigner::random();
    before.fund(player.address(), 100).await;
    let round_id = before.commit(&player).await;
    before
        .arcade
        .db
        .execute_unprepared("DELETE FROM instances")
        .await
        .unwrap();
    let after = TestApp::spawn_on(&before.database_url, |_| {}).await;
    let round = after
        .get(&format!("/api/arcade/rounds/{round_id}"))
        .await
        .ok();
    assert_eq!(round["state"], "expired", "{round}");
    let body = json!({ "round_id": round_id, "client_seed": "late", "wager": 10, "call": "heads" });
    after
        .post("/api/arcade/flip", &body)
        .await
        .error(409, "round_expired");
    assert_eq!(after.chips(player.address()).await, 100);
    after.audit().await;
}

mod rounds_open_when_no_instance_beats_expire_at_start {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        super::rounds_open_when_no_instance_beats_expire_at_start(crate::helpers::Backend::Sqlite)
            .await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        super::rounds_open_when_no_instance_beats_expire_at_start(
            crate::helpers::Backend::Postgres,
        )
        .await;
    }
}
