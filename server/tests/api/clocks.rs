//! One clock decides expiry and reveal. Two instances share a database, and one sees time an
//! hour ahead of the other, for rounds' expiry: `ahead` holds a round expired after one second,
//! `behind` after an hour (their `rounds.ttl_secs`). The round's owner waits out the second and
//! reads the seed batch from `ahead`, which shows the round expired with its seed: by then no
//! instance can play it, so the owner, knowing the seed, cannot pick the winning call on
//! `behind`.

use alloy::signers::local::PrivateKeySigner;
use arcade_core::{Call, ClientSeed, Round, ServerSeed, Side};
use serde_json::json;

use crate::helpers::{Backend, TestApp};

/// The coinflip call that wins with `seed` and `client_seed`.
pub fn winning_flip(seed: &str, client_seed: &str) -> &'static str {
    let round = Round::new(
        ServerSeed::parse(seed).unwrap(),
        ClientSeed::parse(client_seed).unwrap(),
        0,
        Call::Coinflip(Side::Heads),
        1,
    )
    .unwrap();
    if round.settle().won { "heads" } else { "tails" }
}

async fn a_revealed_seed_is_of_a_round_no_instance_can_play(backend: Backend) {
    let behind = TestApp::spawn_with(backend, |s| s.rounds.ttl_secs = 3_600).await;
    let ahead = TestApp::spawn_on(&behind.database_url, |s| {
        s.rounds.ttl_secs = 1;
        // Its expiry task must not mark the round before the owner reads the batch.
        s.rounds.expire_every_ms = 3_600_000;
    })
    .await;
    let owner = PrivateKeySigner::random();
    behind.fund(owner.address(), 1_000).await;
    let signature = behind.sign_statement(&owner).await;
    let committed = behind
        .post(
            "/api/arcade/commit",
            &json!({ "address": owner.address(), "signature": signature }),
        )
        .await
        .ok();
    tokio::time::sleep(std::time::Duration::from_millis(1_500)).await;

    let batch_id = &committed["proofs"]["batch"]["batch_id"];
    let batch = ahead
        .get(&format!("/api/arcade/seed-batches/{batch_id}"))
        .await
        .ok();
    let listed = batch["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["commitment"] == committed["commitment"])
        .expect("the round's index is listed")
        .clone();
    // Past its time by `ahead`'s clock: marked expired in the database, then shown.
    assert_eq!(listed["state"], "expired", "{listed}");
    let seed = listed["server_seed"]
        .as_str()
        .expect("an expired round's seed");

    // The owner knows the seed: the winning call for their client seed.
    let call = winning_flip(seed, "chosen");
    let played = behind
        .post(
            "/api/arcade/flip",
            &json!({ "round_id": committed["round_id"], "client_seed": "chosen", "wager": 500, "call": call }),
        )
        .await;
    assert_eq!(
        played.status, 409,
        "a round whose seed was shown could still be played: {}",
        played.body
    );
    assert_eq!(played.body["code"], "round_expired", "{}", played.body);
    assert_eq!(behind.chips(owner.address()).await, 1_000, "nothing moved");
    behind.audit().await;
}

mod a_revealed_seed_is_of_a_round_no_instance_can_play {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        super::a_revealed_seed_is_of_a_round_no_instance_can_play(crate::helpers::Backend::Sqlite)
            .await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        super::a_revealed_seed_is_of_a_round_no_instance_can_play(
            crate::helpers::Backend::Postgres,
        )
        .await;
    }
}
