//! A round proves itself in a few kilobytes: its receipt (`/verify/{bet_id}`) and its seed's
//! row (`/seed-batches/{batch_id}/rows/{index}`, the row with its batch's signed root) are all a
//! verifier reads, whatever the batch's size; a batch's detail comes in pages. The row is the
//! round's (same commitment, seed and bet), its path leads to the signed root, an open round's
//! row shows no seed and no round id, and rows have their own rate bucket.

use alloy::signers::local::PrivateKeySigner;
use arcade_core::merkle::{leaf_hash, verify_inclusion};
use arcade_server::settings::Settings;
use serde_json::{Value, json};

use crate::helpers::{Backend, TestApp, recover, signer};
use crate::on_both_backends;

/// The most a verifier may read to prove one round, receipt included.
const ONE_ROUND_BYTES: usize = 8 * 1024;

/// Plays `rounds` coinflips for a funded player; the receipts.
async fn play(app: &TestApp, player: &PrivateKeySigner, rounds: usize) -> Vec<Value> {
    app.fund(player.address(), rounds as i64).await;
    let mut receipts = Vec::with_capacity(rounds);
    for i in 0..rounds {
        let round_id = app.commit(player).await;
        let body = json!({ "round_id": round_id, "client_seed": format!("rows {i}"), "wager": 1, "call": "heads" });
        receipts.push(app.post("/api/arcade/flip", &body).await.ok());
    }
    receipts
}

/// The bytes of a GET's body, and the body.
async fn read(app: &TestApp, path: &str) -> (usize, Value) {
    let answer = app
        .client
        .get(format!("{}{path}", app.base_url))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 200, "{path}");
    let bytes = answer.bytes().await.unwrap();
    (bytes.len(), serde_json::from_slice(&bytes).unwrap())
}

fn row_path(receipt: &Value) -> String {
    let batch = &receipt["proofs"]["batch"];
    format!(
        "/api/arcade/seed-batches/{}/rows/{}",
        batch["batch_id"], batch["index"]
    )
}

/// The row's commitment and audit path lead to the batch's root, and the root is signed by the
/// manifest's signer.
fn assert_row_proves(row: &Value, manifest: &Value) {
    let batch = &row["batch"];
    let decode = |hex: &Value| arcade_core::hex::decode32(hex.as_str().unwrap()).unwrap();
    let commitment = decode(&row["row"]["commitment"]);
    let path: Vec<[u8; 32]> = row["row"]["audit_path"]
        .as_array()
        .unwrap()
        .iter()
        .map(decode)
        .collect();
    let index = row["row"]["index"].as_u64().unwrap();
    let size = batch["size"].as_u64().unwrap();
    assert!(verify_inclusion(
        index,
        size,
        &leaf_hash(&commitment),
        &path,
        &decode(&batch["merkle_root"])
    ));
    assert_eq!(recover(batch), signer(manifest), "the root is the signer's");
}

#[allow(clippy::print_stdout)] // the bytes read, shown with --nocapture
async fn one_round_proves_itself_in_a_few_kilobytes(backend: Backend, size: u64) {
    let app = TestApp::spawn_with(backend, |s: &mut Settings| s.seeds.batch_size = size).await;
    let manifest = app.get("/api/arcade/manifest").await.ok();
    let receipts = play(&app, &PrivateKeySigner::random(), 40).await;
    let last = receipts.last().unwrap();
    let (receipt_bytes, receipt) =
        read(&app, &format!("/api/arcade/verify/{}", last["bet_id"])).await;
    let (row_bytes, row) = read(&app, &row_path(last)).await;
    assert_row_proves(&row, &manifest);
    for field in ["commitment", "server_seed", "bet_id", "round_id"] {
        assert_eq!(
            row["row"][field], receipt[field],
            "{field}: the row is the round's"
        );
    }
    assert_eq!(row["row"]["state"], "settled");
    assert_eq!(row["batch"]["size"], size);
    let total = receipt_bytes + row_bytes;
    assert!(
        total <= ONE_ROUND_BYTES,
        "{total} bytes to verify one round"
    );
    // What the whole batch's detail would weigh once every index is used: its bytes per row.
    let batch_id = &last["proofs"]["batch"]["batch_id"];
    let (detail_bytes, detail) = read(&app, &format!("/api/arcade/seed-batches/{batch_id}")).await;
    let rows = detail["rounds"].as_array().unwrap().len();
    let full = detail_bytes as u64 / rows as u64 * size;
    println!(
        "batch of {size}: one round verified from {total} bytes (receipt {receipt_bytes}, row {row_bytes}); \
         the batch's detail was {detail_bytes} bytes for {rows} rows, about {full} bytes when full"
    );
    app.audit().await;
}

mod one_round_proves_itself_in_a_few_kilobytes {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite_batch_of_1000() {
        super::one_round_proves_itself_in_a_few_kilobytes(crate::helpers::Backend::Sqlite, 1_000)
            .await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite_batch_of_100000() {
        super::one_round_proves_itself_in_a_few_kilobytes(crate::helpers::Backend::Sqlite, 100_000)
            .await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres_batch_of_1000() {
        super::one_round_proves_itself_in_a_few_kilobytes(crate::helpers::Backend::Postgres, 1_000)
            .await;
    }
}

/// A batch's detail in pages of `limit` rows: following `next_from` reads every used index once,
/// in order, and the last page says null.
async fn the_detail_comes_in_pages(app: &TestApp) {
    play(app, &PrivateKeySigner::random(), 7).await;
    let batches = app.get("/api/arcade/seed-batches").await.ok();
    let batch = batches
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["used"].as_i64() > Some(0))
        .unwrap();
    let used = batch["used"].as_i64().unwrap();
    let mut indices = Vec::new();
    let mut from = Some(0);
    let mut pages = 0;
    while let Some(at) = from {
        let page = app
            .get(&format!(
                "/api/arcade/seed-batches/{}?from={at}&limit=3",
                batch["batch_id"]
            ))
            .await
            .ok();
        assert_eq!(page["merkle_root"], batch["merkle_root"]);
        let rounds = page["rounds"].as_array().unwrap();
        assert!(rounds.len() <= 3);
        indices.extend(rounds.iter().map(|r| r["index"].as_i64().unwrap()));
        from = page["next_from"].as_i64();
        pages += 1;
    }
    assert_eq!(
        indices,
        (0..used).collect::<Vec<_>>(),
        "every used index once, in order"
    );
    assert_eq!(pages, (used + 2) / 3);
    let whole = app
        .get(&format!("/api/arcade/seed-batches/{}", batch["batch_id"]))
        .await
        .ok();
    assert_eq!(whole["rounds"].as_array().unwrap().len() as i64, used);
    assert_eq!(whole["next_from"], Value::Null, "one page holds them all");
    let past = app
        .get(&format!(
            "/api/arcade/seed-batches/{}?from={used}",
            batch["batch_id"]
        ))
        .await
        .ok();
    assert_eq!(past["rounds"], json!([]));
    assert_eq!(past["next_from"], Value::Null);
    for bad in ["from=-1", "limit=0", "limit=1001", "from=x"] {
        app.get(&format!(
            "/api/arcade/seed-batches/{}?{bad}",
            batch["batch_id"]
        ))
        .await
        .error(422, "validation_error");
    }
}

on_both_backends!(the_detail_comes_in_pages);

/// An open round's row shows its commitment alone (its id plays it); an index no commit took
/// and a batch never published are 404s that say which; a malformed index is a 422.
async fn rows_show_what_is_revealed_and_refuse_what_is_not_there(app: &TestApp) {
    let player = PrivateKeySigner::random();
    let receipt = play(app, &player, 1).await.remove(0);
    app.commit(&player).await;
    let batch_id = &receipt["proofs"]["batch"]["batch_id"];
    let index = receipt["proofs"]["batch"]["index"].as_i64().unwrap();
    let open = app
        .get(&format!(
            "/api/arcade/seed-batches/{batch_id}/rows/{}",
            index + 1
        ))
        .await
        .ok();
    assert_eq!(open["row"]["state"], "open");
    assert_eq!(
        open["row"]["round_id"],
        Value::Null,
        "an open round's id is its owner's"
    );
    assert_eq!(
        open["row"]["server_seed"],
        Value::Null,
        "an open round's seed is secret"
    );
    let missing = app
        .get(&format!(
            "/api/arcade/seed-batches/{batch_id}/rows/{}",
            index + 2
        ))
        .await
        .error(404, "seed_row_not_found");
    assert!(
        missing["detail"].as_str().unwrap().contains("used"),
        "{missing}"
    );
    app.get("/api/arcade/seed-batches/1/rows/0")
        .await
        .error(404, "seed_batch_not_found");
    for bad in ["-1", "x", "1.5"] {
        app.get(&format!("/api/arcade/seed-batches/{batch_id}/rows/{bad}"))
            .await
            .error(422, "validation_error");
    }
}

on_both_backends!(rows_show_what_is_revealed_and_refuse_what_is_not_there);

/// A verifier that reads a row right after each play is not refused for it: rows draw from their
/// own bucket, not the heavy reads', which a client reading whole batches spends.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn rows_have_their_own_bucket() {
    let app = TestApp::spawn_with(Backend::Sqlite, |s: &mut Settings| {
        s.rate_limits.enabled = true;
    })
    .await;
    let receipt = play(&app, &PrivateKeySigner::random(), 1).await.remove(0);
    let batch = format!(
        "/api/arcade/seed-batches/{}",
        receipt["proofs"]["batch"]["batch_id"]
    );
    let mut refused = false;
    for _ in 0..40 {
        if app.get(&batch).await.status == 429 {
            refused = true;
            break;
        }
    }
    assert!(refused, "whole batches read in a loop are refused");
    for _ in 0..20 {
        let row = app.get(&row_path(&receipt)).await.ok();
        assert_eq!(row["row"]["bet_id"], receipt["bet_id"]);
    }
    app.audit().await;
}

/// A batch that was never published is a 404 before any bucket is drawn from: looping rows of
/// made-up batches spends no heavy read, so it cannot starve the readers of real batches.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn rows_of_unknown_batches_draw_nothing() {
    let app = TestApp::spawn_with(Backend::Sqlite, |s: &mut Settings| {
        s.rate_limits.enabled = true;
    })
    .await;
    let receipt = play(&app, &PrivateKeySigner::random(), 1).await.remove(0);
    for batch_id in 1..=60 {
        app.get(&format!("/api/arcade/seed-batches/{batch_id}/rows/0"))
            .await
            .error(404, "seed_batch_not_found");
    }
    let batch = format!(
        "/api/arcade/seed-batches/{}",
        receipt["proofs"]["batch"]["batch_id"]
    );
    app.get(&batch).await.ok();
    app.get(&row_path(&receipt)).await.ok();
    app.audit().await;
}

/// Readers of old rounds, each in another batch, never make an honest player's commit or play
/// build its batch's tree again: this instance's latest batches stay built however many other
/// trees the readers ask for (a tree cache they could otherwise churn).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn readers_of_old_batches_never_make_a_play_rebuild_its_tree() {
    let app = TestApp::spawn_with(Backend::Sqlite, |s: &mut Settings| {
        s.seeds.batch_size = 2;
        s.rate_limits.enabled = false;
    })
    .await;
    // 150 rounds over 75 batches: more than the 64 trees kept.
    let old = play(&app, &PrivateKeySigner::random(), 150).await;
    let batches = &app.arcade.seed_batches;
    for _ in 0..2 {
        for receipt in &old {
            let bet = &receipt["bet_id"];
            app.get(&format!("/api/arcade/verify/{bet}")).await.ok();
        }
    }
    let published = || async {
        app.get("/api/arcade/seed-batches")
            .await
            .ok()
            .as_array()
            .unwrap()
            .len() as u64
    };
    let (before, published_before) = (batches.tree_builds(), published().await);
    let honest = PrivateKeySigner::random();
    app.fund(honest.address(), 1).await;
    let round_id = app.commit(&honest).await;
    let body =
        json!({ "round_id": round_id, "client_seed": "honest", "wager": 1, "call": "heads" });
    let played = app.post("/api/arcade/flip", &body).await.ok();
    // A batch published meanwhile is built once, as it is published; nothing else is built.
    assert_eq!(
        batches.tree_builds() - before,
        published().await - published_before,
        "the honest round's batch tree was built again after the readers"
    );
    assert!(
        !played["proofs"]["batch"]["audit_path"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    app.audit().await;
}

/// A reader's receipt is priced as a read of its seed's row: where this instance keeps no tree
/// of the round's batch (another instance's batch, or one asked for after many others),
/// `/verify`, the round and a feed page draw a heavy read of the batch's seeds, so a stranger
/// cycling old rounds is refused before it builds tree after tree; once the tree is kept, the
/// same receipt costs a proof read.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_readers_receipt_of_an_old_batch_pays_for_its_tree() {
    const SIZE: u64 = 5_000;
    let first = TestApp::spawn_with(Backend::Sqlite, |s| s.seeds.batch_size = SIZE).await;
    let second = TestApp::spawn_on(&first.database_url, |s| s.seeds.batch_size = SIZE).await;
    let a = play(&first, &PrivateKeySigner::random(), 1).await.remove(0);
    let b = play(&second, &PrivateKeySigner::random(), 1)
        .await
        .remove(0);
    assert_ne!(
        a["proofs"]["batch"]["batch_id"],
        b["proofs"]["batch"]["batch_id"]
    );
    let reader = TestApp::spawn_on(&first.database_url, |s| {
        s.seeds.batch_size = SIZE;
        s.rate_limits.enabled = true;
    })
    .await;
    let builds = || reader.arcade.seed_batches.tree_builds();
    let before = builds();
    let verify = |r: &Value| format!("/api/arcade/verify/{}", r["bet_id"]);
    let round = |r: &Value| format!("/api/arcade/rounds/{}", r["round_id"].as_str().unwrap());
    // Batch a's 5,000 seeds take the reader's whole heavy bucket.
    assert_eq!(
        reader.get(&verify(&a)).await.ok()["verdict"],
        "consistent, not proven"
    );
    assert_eq!(builds(), before + 1);
    reader.get(&verify(&b)).await.error(429, "rate_limited");
    reader.get(&round(&b)).await.error(429, "rate_limited");
    let feed = format!(
        "/api/arcade/receipts?after={}&limit=1",
        b["bet_id"].as_i64().unwrap() - 1
    );
    reader.get(&feed).await.error(429, "rate_limited");
    assert_eq!(builds(), before + 1, "a refused read built nothing");
    // Batch a's tree is kept now: its receipt is a proof read, answered at once.
    reader.get(&verify(&a)).await.ok();
    reader.get(&round(&a)).await.ok();
    assert_eq!(builds(), before + 1);
    first.audit().await;
}
