//! A play that asks for its successor (`next_round`) gets the address's next round in its
//! answer, opened in the transaction that settled it: each round of a chain is committed before
//! its client seed exists, takes the place of the round before it (the open-round count never
//! grows), takes a seed index no other round took, and a repeat of the call shows the
//! successor only to its proven owner (the call itself is public in the receipt).

use std::collections::{BTreeMap, BTreeSet};

use alloy::signers::local::PrivateKeySigner;
use arcade_server::entities::{round, seed_batch};
use futures::future::join_all;
use sea_orm::EntityTrait;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::helpers::{Backend, TestApp, recover, signer};
use crate::mcp_client::{McpSession, structured};
use crate::on_both_backends;

/// A flip of `round_id` signed with the owner's statement `signature`.
fn flip(round_id: &str, seed: &str, next_round: bool, signature: &str) -> Value {
    json!({
        "round_id": round_id, "client_seed": seed, "wager": 1, "call": "heads",
        "next_round": next_round, "signature": signature,
    })
}

async fn a_chain_of_rounds_is_one_request_each(app: &TestApp) {
    let house = signer(&app.get("/api/arcade/manifest").await.ok());
    let player = PrivateKeySigner::random();
    app.claim_free(&player).await;
    let signature = app.sign_statement(&player).await;
    let mut round_id = app.commit(&player).await;
    let mut shown: Option<Value> = None;
    for n in 0..6 {
        let played = app
            .post(
                "/api/arcade/flip",
                &flip(&round_id, &format!("seed {n}"), n < 5, &signature),
            )
            .await
            .ok();
        assert_eq!(played["round_id"], round_id.as_str());
        if let Some(shown) = &shown {
            // The commitment the previous answer showed is the one this round revealed.
            assert_eq!(played["commitment"], shown["commitment"]);
            let seed = played["server_seed"].as_str().unwrap();
            assert_eq!(
                alloy::hex::encode(Sha256::digest(seed.as_bytes())),
                shown["commitment"].as_str().unwrap()
            );
        }
        assert_eq!(app.open_rounds(&player).await, i64::from(n < 5));
        if n == 5 {
            assert!(played.get("next_round").is_none(), "{played}");
            break;
        }
        let next = played["next_round"].clone();
        assert_eq!(next["address"], player.address().to_checksum(None));
        assert_eq!(recover(&next["proofs"]["commitment"]), house);
        let message = &next["proofs"]["commitment"]["typed_data"]["message"];
        assert_eq!(message["round_id"], next["round_id"]);
        assert_eq!(
            message["commitment"],
            format!("0x{}", next["commitment"].as_str().unwrap())
        );
        assert_eq!(message["batch_id"], next["proofs"]["batch"]["batch_id"]);
        assert_eq!(message["index"], next["proofs"]["batch"]["index"]);
        let open = app
            .get(&format!(
                "/api/arcade/rounds/{}",
                next["round_id"].as_str().unwrap()
            ))
            .await
            .ok();
        assert_eq!(open["state"], "open");
        assert_eq!(open["commitment"], next["commitment"]);
        round_id = next["round_id"].as_str().unwrap().to_owned();
        shown = Some(next);
    }
}
on_both_backends!(a_chain_of_rounds_is_one_request_each);

/// At the cap, a play's successor takes the place of the round it spent: it opens, and a
/// commit beside it is still refused.
async fn a_successor_never_counts_twice_against_the_cap(backend: Backend) {
    let app = TestApp::spawn_with(backend, |s| s.rounds.max_open_per_address = 2).await;
    let player = PrivateKeySigner::random();
    app.claim_free(&player).await;
    let first = app.commit(&player).await;
    app.commit(&player).await;
    let signature = app.sign_statement(&player).await;
    let played = app
        .post("/api/arcade/flip", &flip(&first, "a", true, &signature))
        .await
        .ok();
    assert!(played["next_round"]["round_id"].is_string(), "{played}");
    assert_eq!(app.open_rounds(&player).await, 2);
    let signature = app.sign_statement(&player).await;
    let commit = json!({ "address": player.address(), "signature": signature });
    app.post("/api/arcade/commit", &commit)
        .await
        .error(429, "too_many_open_rounds");
    app.audit().await;
}

mod a_successor_never_counts_twice_against_the_cap {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        super::a_successor_never_counts_twice_against_the_cap(crate::helpers::Backend::Sqlite)
            .await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        super::a_successor_never_counts_twice_against_the_cap(crate::helpers::Backend::Postgres)
            .await;
    }
}

/// Anyone can repeat a settled call from its public receipt: the repeat answers the receipt,
/// and the successor's id only to a repeat signed by the owner.
async fn a_repeat_shows_the_successor_only_to_its_owner(app: &TestApp) {
    let player = PrivateKeySigner::random();
    app.claim_free(&player).await;
    let round_id = app.commit(&player).await;
    let signature = app.sign_statement(&player).await;
    let body = flip(&round_id, "mine", true, &signature);
    let played = app.post("/api/arcade/flip", &body).await.ok();
    let next = played["next_round"]["round_id"]
        .as_str()
        .unwrap()
        .to_owned();

    // The call as its public receipt shows it, Play signature and all, with or without asking.
    let mut public = body.clone();
    public.as_object_mut().unwrap().remove("signature");
    public["next_round"] = json!(false);
    let stranger = app.post("/api/arcade/flip", &public).await.ok();
    assert_eq!(stranger["replayed"], true);
    assert_eq!(stranger["bet_id"], played["bet_id"]);
    assert!(stranger.get("next_round").is_none(), "{stranger}");
    assert!(
        !stranger.to_string().contains(&next),
        "the successor's id leaked"
    );
    public["next_round"] = json!(true);
    app.post("/api/arcade/flip", &public)
        .await
        .error(401, "signature_required");
    let intruder = PrivateKeySigner::random();
    let mut signed = body.clone();
    signed["signature"] = json!(app.sign_statement(&intruder).await);
    app.post("/api/arcade/flip", &signed)
        .await
        .error(403, "round_not_yours");

    let owner = app.post("/api/arcade/flip", &body).await.ok();
    assert_eq!(owner["replayed"], true);
    assert_eq!(owner["next_round"], played["next_round"]);
    assert_eq!(app.open_rounds(&player).await, 1);
}
on_both_backends!(a_repeat_shows_the_successor_only_to_its_owner);

/// Chains played side by side with commits, on batches small enough that they run out under
/// them: every seed index of every batch is taken by exactly one round, in order, whichever
/// writer opened it. A play answered without a successor (no seed left that instant) is
/// followed by a commit, as a client does.
async fn chains_and_commits_take_every_index_once(backend: Backend) {
    let app = TestApp::spawn_with(backend, |s| s.seeds.batch_size = 16).await;
    let players: Vec<PrivateKeySigner> = (0..6).map(|_| PrivateKeySigner::random()).collect();
    for player in &players {
        app.claim_free(player).await;
    }
    let chains = players.iter().enumerate().map(|(p, player)| {
        let app = &app;
        async move {
            let mut successors = 0;
            let signature = app.sign_statement(player).await;
            let mut round_id = app.commit(player).await;
            for n in 0..8 {
                let body = flip(&round_id, &format!("{p} {n}"), true, &signature);
                let played = app.post("/api/arcade/flip", &body).await.ok();
                round_id = match played["next_round"]["round_id"].as_str() {
                    Some(next) => {
                        successors += 1;
                        next.to_owned()
                    }
                    None => app.commit(player).await,
                };
                app.commit(player).await;
            }
            successors
        }
    });
    let successors: usize = join_all(chains).await.into_iter().sum();
    let rounds = round::Entity::find().all(&app.arcade.db).await.unwrap();
    assert_eq!(rounds.len(), players.len() * 17);
    let mut taken: BTreeMap<i64, BTreeSet<i64>> = BTreeMap::new();
    for round in &rounds {
        let (batch, index) = (round.batch_id.unwrap(), round.seed_index.unwrap());
        assert!(
            taken.entry(batch).or_default().insert(index),
            "index {index} of {batch} twice"
        );
    }
    for batch in seed_batch::Entity::find()
        .all(&app.arcade.db)
        .await
        .unwrap()
    {
        let used: Vec<i64> = taken
            .remove(&batch.id)
            .unwrap_or_default()
            .into_iter()
            .collect();
        assert_eq!(
            used,
            (0..batch.next_index).collect::<Vec<_>>(),
            "batch {}",
            batch.id
        );
    }
    assert!(
        taken.is_empty(),
        "rounds on batches never published: {taken:?}"
    );
    let chained = rounds.iter().filter(|r| r.predecessor_id.is_some()).count();
    assert_eq!(chained, successors);
    assert!(successors > 0);
    app.audit().await;
}

mod chains_and_commits_take_every_index_once {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        super::chains_and_commits_take_every_index_once(crate::helpers::Backend::Sqlite).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        super::chains_and_commits_take_every_index_once(crate::helpers::Backend::Postgres).await;
    }
}

/// Over MCP, a game tool takes `next_round` and its result carries the successor.
async fn over_mcp_a_play_carries_its_successor(app: &TestApp) {
    let player = PrivateKeySigner::random();
    app.claim_free(&player).await;
    let round_id = app.commit(&player).await;
    let mcp = McpSession::open(&app.base_url).await;
    let signature = app.sign_statement(&player).await;
    let call = json!({
        "round_id": round_id, "client_seed": "m", "wager": 1, "call": "tails",
        "next_round": true, "signature": signature,
    });
    let answer = mcp.call("arcade_flip", call).await;
    let played = structured(&answer);
    let next = played["next_round"]["round_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let call = json!({ "round_id": next, "client_seed": "n", "wager": 1, "call": "tails" });
    let answer = mcp.call("arcade_flip", call).await;
    let again = structured(&answer);
    assert_eq!(again["commitment"], played["next_round"]["commitment"]);
    assert_eq!(app.open_rounds(&player).await, 0);
}
on_both_backends!(over_mcp_a_play_carries_its_successor);

/// Asking for a successor without the owner's proof is refused before anything moves: whoever
/// holds a round id may play it once, never chain the owner's chips round after round.
async fn an_unproven_play_cannot_ask_for_a_successor(app: &TestApp) {
    let player = PrivateKeySigner::random();
    app.claim_free(&player).await;
    let round_id = app.commit(&player).await;
    let body = json!({ "round_id": round_id, "client_seed": "s", "wager": 10, "call": "heads", "next_round": true });
    app.post("/api/arcade/flip", &body)
        .await
        .error(401, "signature_required");
    assert_eq!(app.chips(player.address()).await, 100, "nothing taken");
    let open = app
        .get(&format!("/api/arcade/rounds/{round_id}"))
        .await
        .ok();
    assert_eq!(open["state"], "open");
    assert_eq!(app.open_rounds(&player).await, 1);
}
on_both_backends!(an_unproven_play_cannot_ask_for_a_successor);
