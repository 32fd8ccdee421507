//! A database restored from a backup (or wiped, the secret kept) never makes the house issue a
//! seed it has already revealed. The backup is every table copied aside in the database itself;
//! the restore puts them back in one transaction, under the running instance, and a new
//! instance is started on the restored data too. Rounds played between the two revealed their
//! seeds; no commitment issued after the restore, by either instance, is one of theirs.

use std::collections::HashSet;

use alloy::signers::local::PrivateKeySigner;
use sea_orm::{ConnectionTrait, Statement};
use serde_json::{Value, json};

use crate::helpers::{Backend, TestApp, fresh_database};

/// Tables copied by the backup, parents before children (restored in this order, emptied in
/// the reverse one).
const TABLES: [&str; 7] = [
    "deployment_secrets",
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

async fn a_restored_database_never_issues_a_revealed_seed_again(backend: Backend) {
    let running = TestApp::spawn_with(backend, |s| s.rounds.max_open_per_address = 100).await;
    let player = PrivateKeySigner::random();
    running.fund(player.address(), 1_000).await;
    play_one(&running, &player).await;
    backup(&running).await;

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
