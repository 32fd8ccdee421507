//! Pre-committed seeds and the house's signatures: under concurrent commits (one server, and
//! two on one PostgreSQL, each taking seeds from batches of its own) every index of every batch
//! is taken exactly once and in order, each commitment is in its batch's signed Merkle tree,
//! every signature recovers to the published signer, and a round from before batches is shown
//! unsigned rather than failing.

use std::collections::{BTreeMap, BTreeSet};

use alloy::primitives::Address;
use alloy::signers::local::PrivateKeySigner;
use arcade_core::merkle::{leaf_hash, verify_inclusion};
use arcade_server::entities::round::{self, RoundState};
use futures::future::join_all;
use sea_orm::{ActiveValue::Set, EntityTrait};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::helpers::{Backend, TestApp, recover, signer};

const BATCH: u64 = 16;

fn small_batches(s: &mut arcade_server::settings::Settings) {
    s.seeds.batch_size = BATCH;
}

fn digest(hex: &str) -> [u8; 32] {
    arcade_core::hex::decode32(hex).unwrap()
}

/// `count` commits at once from `players` players, spread over `servers`.
async fn commit_at_once(servers: &[&TestApp], players: usize, count: usize) -> Vec<Value> {
    let signers: Vec<PrivateKeySigner> = (0..players).map(|_| PrivateKeySigner::random()).collect();
    // Each instance names itself in the statement: a signature per player and server.
    let mut signatures = Vec::new();
    for player in &signers {
        for server in servers {
            signatures.push(server.sign_statement(player).await);
        }
    }
    let commits = (0..count).map(|i| {
        let (player, on) = (i % players, i % servers.len());
        let body = json!({
            "address": signers[player].address(),
            "signature": signatures[player * servers.len() + on],
        });
        let server = servers[on];
        async move { server.post("/api/arcade/commit", &body).await.ok() }
    });
    join_all(commits).await
}

/// Every index of the batches is taken once, in order; each commitment is in its batch's
/// signed tree; each signature recovers to the signer.
async fn assert_seeds_accounted_for(app: &TestApp, commits: &[Value]) {
    let signer = signer(&app.get("/api/arcade/games").await.ok());
    let batches: Vec<Value> =
        serde_json::from_value(app.get("/api/arcade/seed-batches").await.ok()).unwrap();
    let roots: BTreeMap<i64, (String, i64)> = batches
        .iter()
        .map(|b| {
            assert_eq!(recover(b), signer, "the batch is signed by the signer");
            let id = b["batch_id"].as_i64().unwrap();
            (
                id,
                (
                    b["merkle_root"].as_str().unwrap().to_owned(),
                    b["used"].as_i64().unwrap(),
                ),
            )
        })
        .collect();
    let mut taken = BTreeSet::new();
    for commit in commits {
        let place = &commit["proofs"]["batch"];
        let (batch_id, index) = (
            place["batch_id"].as_i64().unwrap(),
            place["index"].as_i64().unwrap(),
        );
        assert!(
            taken.insert((batch_id, index)),
            "index {index} of batch {batch_id} used twice"
        );
        assert_eq!(recover(&commit["proofs"]["commitment"]), signer);
        let message = &commit["proofs"]["commitment"]["typed_data"]["message"];
        assert_eq!(message["round_id"], commit["round_id"]);
        assert_eq!(message["index"], place["index"]);
        let path: Vec<[u8; 32]> = place["audit_path"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| digest(h.as_str().unwrap()))
            .collect();
        let leaf = leaf_hash(&digest(commit["commitment"].as_str().unwrap()));
        let root = digest(&roots[&batch_id].0);
        let size = place["size"].as_u64().unwrap();
        assert_eq!(size, BATCH);
        assert!(verify_inclusion(
            index.cast_unsigned(),
            size,
            &leaf,
            &path,
            &root
        ));
    }
    // No gap: each batch's indices taken are exactly its first ones.
    let mut per_batch: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
    for (batch_id, index) in &taken {
        per_batch.entry(*batch_id).or_default().push(*index);
    }
    for (batch_id, indices) in &per_batch {
        let first: Vec<i64> = (0..indices.len() as i64).collect();
        assert_eq!(
            indices, &first,
            "batch {batch_id}: every index once, in order"
        );
        assert_eq!(
            roots[batch_id].1,
            indices.len() as i64,
            "batch {batch_id}'s used"
        );
    }
    for (batch_id, (_, used)) in &roots {
        let listed = app
            .get(&format!("/api/arcade/seed-batches/{batch_id}"))
            .await
            .ok();
        let indices: Vec<i64> = listed["rounds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["index"].as_i64().unwrap())
            .collect();
        assert_eq!(indices, (0..*used).collect::<Vec<_>>());
    }
    assert!(
        roots.len() as u64 > commits.len() as u64 / BATCH,
        "a batch was published ahead"
    );
}

async fn concurrent_commits_take_every_index_once(backend: Backend) {
    let app = TestApp::spawn_with(backend, small_batches).await;
    let commits = commit_at_once(&[&app], 6, 150).await;
    assert_seeds_accounted_for(&app, &commits).await;

    // Played, a round reveals a seed whose commitment is the signed one, in a signed receipt.
    let owner: Address = commits[0]["address"].as_str().unwrap().parse().unwrap();
    app.fund(owner, 10).await;
    let receipt = app
        .post(
            "/api/arcade/flip",
            &json!({ "round_id": commits[0]["round_id"], "client_seed": "s", "wager": 1, "call": "heads" }),
        )
        .await
        .ok();
    let seed = receipt["server_seed"].as_str().unwrap();
    assert_eq!(
        alloy::hex::encode(Sha256::digest(seed.as_bytes())),
        receipt["commitment"]
    );
    let signer = signer(&app.get("/api/arcade/manifest").await.ok());
    assert_eq!(recover(&receipt["proofs"]["receipt"]), signer);
    assert_eq!(recover(&receipt["proofs"]["commitment"]), signer);
    let message = &receipt["proofs"]["receipt"]["typed_data"]["message"];
    assert_eq!(message["bet_id"], receipt["bet_id"]);
    assert_eq!(message["balance_change"], receipt["profit"]);
    let feed = app.get("/api/arcade/receipts?after=0&limit=10").await.ok();
    assert_eq!(feed["receipts"][0]["proofs"], receipt["proofs"]);
    assert_eq!(feed["next_after"], Value::Null);
    app.audit().await;
}

mod concurrent_commits_take_every_index_once {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        super::concurrent_commits_take_every_index_once(crate::helpers::Backend::Sqlite).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        super::concurrent_commits_take_every_index_once(crate::helpers::Backend::Postgres).await;
    }
}

/// Two instances on one database: every index once, and no batch taken from by both (each
/// takes seeds only from the batches it published).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_instances_take_seeds_from_batches_of_their_own() {
    let first = TestApp::spawn_with(Backend::Postgres, small_batches).await;
    let second = TestApp::spawn_on(&first.database_url, small_batches).await;
    let commits = commit_at_once(&[&first, &second], 6, 150).await;
    assert_seeds_accounted_for(&first, &commits).await;
    let batches_of = |server: usize| -> BTreeSet<i64> {
        commits
            .iter()
            .skip(server)
            .step_by(2)
            .map(|c| c["proofs"]["batch"]["batch_id"].as_i64().unwrap())
            .collect()
    };
    assert!(
        batches_of(0).is_disjoint(&batches_of(1)),
        "a batch was taken from by both instances"
    );
    first.audit().await;
}

/// A round opened before batches (no batch, no signature) still plays and verifies; its
/// receipt says it is unsigned instead of failing.
async fn rounds_from_before_signing_are_unsigned(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let player = PrivateKeySigner::random();
    app.fund(player.address(), 100).await;
    let seed = "ab".repeat(32);
    let row = round::ActiveModel {
        id: Set("r_0000000000000000000000000000b4f0".into()),
        address: Set(format!("{:#x}", player.address())),
        commitment: Set(alloy::hex::encode(Sha256::digest(seed.as_bytes()))),
        server_seed: Set(seed),
        state: Set(RoundState::Open),
        created_at: Set(chrono::Utc::now().timestamp_millis()),
        spent_at: Set(None),
        expired_at: Set(None),
        batch_id: Set(None),
        seed_index: Set(None),
        commitment_signature: Set(None),
        predecessor_id: Set(None),
    };
    round::Entity::insert(row)
        .exec_without_returning(&app.arcade.db)
        .await
        .unwrap();
    sea_orm::ConnectionTrait::execute_unprepared(
        &app.arcade.db,
        &format!(
            "UPDATE wallets SET open_rounds = open_rounds + 1 WHERE address = '{:#x}'",
            player.address()
        ),
    )
    .await
    .unwrap();
    let receipt = app
        .post(
            "/api/arcade/roulette",
            &json!({ "round_id": "r_0000000000000000000000000000b4f0", "client_seed": "old", "wager": 5, "bet": "red" }),
        )
        .await
        .ok();
    assert_eq!(
        receipt["proofs"],
        json!({ "batch": null, "commitment": null, "receipt": null, "play": null })
    );
    let verified = app
        .get(&format!("/api/arcade/verify/{}", receipt["bet_id"]))
        .await
        .ok();
    assert_eq!(verified["verdict"], "consistent, not proven");
    assert!(
        verified["reason"]
            .as_str()
            .unwrap()
            .contains("Commitment signature"),
        "{verified}"
    );
    app.audit().await;
}

mod rounds_from_before_signing_are_unsigned {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        super::rounds_from_before_signing_are_unsigned(crate::helpers::Backend::Sqlite).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        super::rounds_from_before_signing_are_unsigned(crate::helpers::Backend::Postgres).await;
    }
}

/// Commits racing on batches smaller than a batch of commits: each batch of commits that finds
/// fewer seeds than it counted publishes as many as it needs and opens every round, in order.
async fn commits_beyond_the_seeds_left_all_open(backend: Backend) {
    let app = TestApp::spawn_with(backend, small_batches).await;
    let answers = commit_at_once(&[&app], 96, 96).await;
    let rounds = round::Entity::find().all(&app.arcade.db).await.unwrap();
    assert_eq!(rounds.len(), 96);
    assert_seeds_accounted_for(&app, &answers).await;
    app.audit().await;
}

mod commits_beyond_the_seeds_left_all_open {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        super::commits_beyond_the_seeds_left_all_open(crate::helpers::Backend::Sqlite).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        super::commits_beyond_the_seeds_left_all_open(crate::helpers::Backend::Postgres).await;
    }
}
