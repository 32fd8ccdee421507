//! Sign-in-with-x over REST, on both backends: the `SIGN-IN-WITH-X` header proves the address
//! on commit, the games and rotate; a header that does not prove it (another address's or
//! signer's, another deployment's domain or chain, expired, revoked by a rotation) is refused
//! with its code and changes nothing; a lost play answer is fetched again with the same header
//! after it expired, but only by the round's owner, of the current generation; a header costs
//! at most one signer recovery, counted with the statement signatures' (`bounded_cost.rs`).
//! Cashouts are in `siwx_cashout.rs`, the MCP argument in `siwx_mcp.rs`.

use alloy::signers::local::PrivateKeySigner;
use arcade_server::entities::round;
use arcade_server::siwx::LIFETIME_MS;
use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};
use serde_json::{Value, json};

use crate::helpers::{TestApp, sign};
use crate::on_both_backends;
use crate::siwx_headers::{
    challenge, challenge_issued_at, header, header_with, now_ms, post_proven,
};

/// What a refused proof must leave as it was: the chips, the rounds and the generation.
async fn state_of(app: &TestApp, player: &PrivateKeySigner) -> (i64, u64, Value) {
    let rounds = round::Entity::find()
        .filter(round::Column::Address.eq(format!("{:#x}", player.address())))
        .count(&app.arcade.db)
        .await
        .unwrap();
    let statement = app
        .get(&format!("/api/arcade/auth-statement/{}", player.address()))
        .await
        .ok();
    let chips = app.chips(player.address()).await;
    (chips, rounds, statement["generation"].clone())
}

fn flip(round_id: &Value, client_seed: &str, call: &str) -> Value {
    json!({ "round_id": round_id, "client_seed": client_seed, "wager": 10, "call": call })
}

async fn a_header_proves_the_address_on_commit_play_and_rotate(app: &TestApp) {
    let player = PrivateKeySigner::random();
    app.fund(player.address(), 1_000).await;
    let proof = header(&challenge(app, &player).await, &player);
    let address = json!({ "address": player.address() });

    let committed = post_proven(app, "/api/arcade/commit", &address, &proof)
        .await
        .ok();
    let body = flip(&committed["round_id"], "header", "heads");
    let played = post_proven(app, "/api/arcade/flip", &body, &proof)
        .await
        .ok();
    assert_eq!(played["replayed"], false, "{played}");
    assert_eq!(played["balance"], app.chips(player.address()).await);

    // Both proofs given: each must hold.
    let forged = sign(&PrivateKeySigner::random(), "not the statement");
    let both = json!({ "address": player.address(), "signature": forged });
    post_proven(app, "/api/arcade/commit", &both, &proof)
        .await
        .error(403, "signature_mismatch");
    let signature = app.sign_statement(&player).await;
    let both = json!({ "address": player.address(), "signature": signature });
    post_proven(app, "/api/arcade/commit", &both, &proof)
        .await
        .ok();

    let rotated = post_proven(app, "/api/arcade/auth/rotate", &address, &proof)
        .await
        .ok();
    assert_eq!(rotated["auth_statement"]["generation"], 1, "{rotated}");
    // The rotation revoked the header: a replay of it proves nothing any more.
    let before = state_of(app, &player).await;
    for path in ["/api/arcade/commit", "/api/arcade/auth/rotate"] {
        post_proven(app, path, &address, &proof)
            .await
            .error(401, "signature_revoked");
    }
    assert_eq!(state_of(app, &player).await, before, "nothing changed");

    let fresh = header(&challenge(app, &player).await, &player);
    post_proven(app, "/api/arcade/commit", &address, &fresh)
        .await
        .ok();
}
on_both_backends!(a_header_proves_the_address_on_commit_play_and_rotate);

/// What an attack is, its header, the answer of commit and rotate, then of a game on the
/// player's open round.
type Attack = (
    &'static str,
    String,
    (u16, &'static str),
    (u16, &'static str),
);

/// Each header that does not prove the player's address.
fn attacks(
    app: &TestApp,
    own: &Value,
    player: &PrivateKeySigner,
    stranger: &PrivateKeySigner,
) -> Vec<Attack> {
    let named = player.address().to_checksum(None);
    let mismatch = (403, "signature_mismatch");
    let not_yours = (403, "round_not_yours");
    let revoked = (401, "signature_revoked");
    let expired = challenge_issued_at(app, player.address(), now_ms() - LIFETIME_MS - 1_000);
    vec![
        (
            "another signer's header naming the player",
            header_with(own, stranger, |p| {
                p.insert("address".into(), json!(named));
            }),
            mismatch,
            not_yours,
        ),
        (
            "the stranger's own header on a body naming the player",
            header(
                &challenge_issued_at(app, stranger.address(), now_ms()),
                stranger,
            ),
            mismatch,
            not_yours,
        ),
        (
            "another domain",
            header_with(own, player, |p| {
                p.insert("domain".into(), json!("evil.example"));
            }),
            mismatch,
            mismatch,
        ),
        (
            "another chain",
            header_with(own, player, |p| {
                p.insert("chainId".into(), json!("eip155:1"));
            }),
            mismatch,
            mismatch,
        ),
        ("expired", header(&expired, player), revoked, revoked),
    ]
}

async fn headers_that_do_not_prove_the_address_change_nothing(app: &TestApp) {
    let (player, stranger) = (PrivateKeySigner::random(), PrivateKeySigner::random());
    app.fund(player.address(), 1_000).await;
    app.fund(stranger.address(), 1_000).await;
    let round_id = json!(app.commit(&player).await);
    let own = challenge(app, &player).await;
    let before = state_of(app, &player).await;
    let address = json!({ "address": player.address() });
    for (what, proof, (status, code), (play_status, play_code)) in
        attacks(app, &own, &player, &stranger)
    {
        for path in ["/api/arcade/commit", "/api/arcade/auth/rotate"] {
            let refused = post_proven(app, path, &address, &proof).await;
            assert_eq!(refused.status, status, "{what} on {path}: {}", refused.body);
            assert_eq!(refused.body["code"], code, "{what} on {path}");
        }
        let body = flip(&round_id, "stolen", "heads");
        let refused = post_proven(app, "/api/arcade/flip", &body, &proof).await;
        assert_eq!(refused.status, play_status, "{what}: {}", refused.body);
        assert_eq!(refused.body["code"], play_code, "{what}");
        assert_eq!(
            state_of(app, &player).await,
            before,
            "{what} changed something"
        );
    }
    assert_eq!(app.chips(stranger.address()).await, 1_000);
    // The round is still the player's to play.
    let signature = app.sign_statement(&player).await;
    let mut body = flip(&round_id, "mine", "tails");
    body["signature"] = json!(signature);
    app.post("/api/arcade/flip", &body).await.ok();
}
on_both_backends!(headers_that_do_not_prove_the_address_change_nothing);

async fn a_lost_answer_is_fetched_again_after_its_header_expired(app: &TestApp) {
    let (player, stranger) = (PrivateKeySigner::random(), PrivateKeySigner::random());
    app.fund(player.address(), 1_000).await;
    let round_id = json!(app.commit(&player).await);
    // A proof this deployment issued so that it expires three seconds from now.
    let issued = now_ms() - LIFETIME_MS + 3_000;
    let proof = header(&challenge_issued_at(app, player.address(), issued), &player);
    let body = flip(&round_id, "lost", "heads");
    let first = post_proven(app, "/api/arcade/flip", &body, &proof)
        .await
        .ok();
    let wait = issued + LIFETIME_MS + 200 - now_ms();
    tokio::time::sleep(std::time::Duration::from_millis(
        u64::try_from(wait).unwrap_or(0),
    ))
    .await;
    let chips = app.chips(player.address()).await;

    let address = json!({ "address": player.address() });
    post_proven(app, "/api/arcade/commit", &address, &proof)
        .await
        .error(401, "signature_revoked");
    let again = post_proven(app, "/api/arcade/flip", &body, &proof)
        .await
        .ok();
    assert_eq!(again["replayed"], true, "{again}");
    assert_eq!(again["bet_id"], first["bet_id"]);
    assert_eq!(again["server_seed"], first["server_seed"]);
    assert_eq!(again["balance"], chips);

    // Another call on the spent round is not a repeat: the window holds.
    let other = flip(&round_id, "lost", "tails");
    post_proven(app, "/api/arcade/flip", &other, &proof)
        .await
        .error(401, "signature_revoked");
    // The address check holds for a repeat: a stranger's expired proof is not the owner's.
    let strangers = challenge_issued_at(app, stranger.address(), issued);
    post_proven(
        app,
        "/api/arcade/flip",
        &body,
        &header(&strangers, &stranger),
    )
    .await
    .error(403, "round_not_yours");
    // So does the generation: once the owner rotates, the old proof fetches nothing.
    let signature = app.sign_statement(&player).await;
    app.post(
        "/api/arcade/auth/rotate",
        &json!({ "address": player.address(), "signature": signature }),
    )
    .await
    .ok();
    post_proven(app, "/api/arcade/flip", &body, &proof)
        .await
        .error(401, "signature_revoked");
    assert_eq!(app.chips(player.address()).await, chips, "nothing moved");
}
on_both_backends!(a_lost_answer_is_fetched_again_after_its_header_expired);

/// A commit proven by `proof`: its status and code, and the signer recoveries it cost.
async fn header_costs(app: &TestApp, player: &PrivateKeySigner, proof: &str) -> (Value, u64) {
    let before = app.arcade.auth.identity().recoveries();
    let body = json!({ "address": player.address() });
    let answer = post_proven(app, "/api/arcade/commit", &body, proof).await;
    let spent = app.arcade.auth.identity().recoveries() - before;
    (json!([answer.status, answer.body["code"]]), spent)
}

/// After rotations past the generations a check reads, a forged header costs one recovery
/// (counted like a signature's), one of the first generation none, and the owner's one.
async fn a_header_costs_at_most_one_recovery_however_often_its_address_rotated(app: &TestApp) {
    let (player, stranger) = (PrivateKeySigner::random(), PrivateKeySigner::random());
    let first = challenge_issued_at(app, player.address(), now_ms());
    let address = json!({ "address": player.address() });
    for _ in 0..4 {
        let proof = header(&challenge(app, &player).await, &player);
        post_proven(app, "/api/arcade/auth/rotate", &address, &proof)
            .await
            .ok();
    }
    let current = challenge(app, &player).await;
    let named = player.address().to_checksum(None);
    let forged = header_with(&current, &stranger, |p| {
        p.insert("address".into(), json!(named));
    });
    let (answer, spent) = header_costs(app, &player, &forged).await;
    assert_eq!(answer, json!([403, "signature_mismatch"]));
    assert_eq!(spent, 1, "a forged header cost {spent} recoveries");

    let (answer, spent) = header_costs(app, &player, &header(&first, &player)).await;
    assert_eq!(answer, json!([403, "signature_mismatch"]));
    assert_eq!(spent, 0, "refused before any recovery");

    let (answer, spent) = header_costs(app, &player, &header(&current, &player)).await;
    assert_eq!(answer, json!([200, null]));
    assert_eq!(spent, 1);
}
on_both_backends!(a_header_costs_at_most_one_recovery_however_often_its_address_rotated);
