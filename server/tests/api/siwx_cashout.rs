//! Sign-in-with-x on cashout, on both backends with a real chain: a cashout proven by the
//! `SIGN-IN-WITH-X` header pays the proven address only, and a rotation revokes the header; a
//! refused header moves nothing: not the balance, not the cashout in flight, not a token.

use alloy::primitives::U256;
use alloy::signers::local::PrivateKeySigner;
use arcade_server::entities::cashout;
use arcade_server::siwx::LIFETIME_MS;
use sea_orm::{ActiveEnum, EntityTrait};
use serde_json::json;

use crate::cashouts::player_with_chips;
use crate::paying::PaidApp;
use crate::siwx_headers::{
    challenge, challenge_issued_at, header, header_with, now_ms, post_proven,
};
use crate::{paid_on_both_backends, paid_on_both_backends_with};

async fn a_cashout_proven_by_a_header_pays_the_proven_address_only(app: &PaidApp) {
    let player = player_with_chips(app).await;
    let stranger = player_with_chips(app).await;
    let strangers_tokens = app.token_balance(stranger.address()).await;
    let proof = header(&challenge(app, &player).await, &player);

    let body = json!({ "address": player.address(), "chips": 300 });
    let receipt = post_proven(app, "/api/arcade/cashout", &body, &proof)
        .await
        .ok();
    assert_eq!(receipt["status"], "confirmed", "{receipt}");
    assert_eq!(receipt["address"], player.address().to_checksum(None));
    assert_eq!(receipt["balance"], 700);
    assert_eq!(
        app.token_balance(player.address()).await,
        U256::from(30_000u64)
    );

    // The player's header cannot send the stranger's chips anywhere.
    let theirs = json!({ "address": stranger.address(), "chips": 300 });
    post_proven(app, "/api/arcade/cashout", &theirs, &proof)
        .await
        .error(403, "signature_mismatch");
    assert_eq!(app.chips(stranger.address()).await, 1_000);
    assert_eq!(
        app.token_balance(stranger.address()).await,
        strangers_tokens
    );

    // Rotating revokes the header for cashouts too.
    let address = json!({ "address": player.address() });
    post_proven(app, "/api/arcade/auth/rotate", &address, &proof)
        .await
        .ok();
    post_proven(app, "/api/arcade/cashout", &body, &proof)
        .await
        .error(401, "signature_revoked");
    assert_eq!(app.chips(player.address()).await, 700);
    assert_eq!(
        app.token_balance(player.address()).await,
        U256::from(30_000u64)
    );
}
paid_on_both_backends!(a_cashout_proven_by_a_header_pays_the_proven_address_only);

/// The cashouts as `(id, status)`, in order.
async fn cashouts(app: &PaidApp) -> Vec<(i64, String)> {
    let rows = cashout::Entity::find().all(&app.arcade.db).await.unwrap();
    rows.into_iter()
        .map(|row| (row.id, row.status.to_value()))
        .collect()
}

async fn a_refused_header_on_cashout_moves_nothing(app: &PaidApp) {
    let player = player_with_chips(app).await;
    let stranger = PrivateKeySigner::random();
    // A cashout in flight: its transfer waits in the pool.
    app.automine(false).await;
    let in_flight = app.cash_out(&player, 200).await.ok();
    assert_eq!(in_flight["status"], "sent", "{in_flight}");
    let before = cashouts(app).await;

    let own = challenge(app, &player).await;
    let named = player.address().to_checksum(None);
    let expired = challenge_issued_at(app, player.address(), now_ms() - LIFETIME_MS - 1_000);
    let refusals = [
        (
            header_with(&own, &stranger, |p| {
                p.insert("address".into(), json!(named));
            }),
            (403, "signature_mismatch"),
        ),
        (
            header(&challenge(app, &stranger).await, &stranger),
            (403, "signature_mismatch"),
        ),
        (
            header_with(&own, &player, |p| {
                p.insert("domain".into(), json!("evil.example"));
            }),
            (403, "signature_mismatch"),
        ),
        (
            header_with(&own, &player, |p| {
                p.insert("chainId".into(), json!("eip155:1"));
            }),
            (403, "signature_mismatch"),
        ),
        (header(&expired, &player), (401, "signature_revoked")),
        ("not base64!".to_owned(), (401, "signature_invalid")),
    ];
    let body = json!({ "address": player.address(), "chips": 300 });
    for (proof, (status, code)) in refusals {
        post_proven(app, "/api/arcade/cashout", &body, &proof)
            .await
            .error(status, code);
        assert_eq!(app.chips(player.address()).await, 800, "{code}");
        assert_eq!(cashouts(app).await, before, "{code}: the cashouts changed");
    }
    assert_eq!(app.token_balance(player.address()).await, U256::ZERO);
    assert_eq!(app.token_balance(stranger.address()).await, U256::ZERO);
    app.automine(true).await;
    app.mine().await;
}
paid_on_both_backends_with!(a_refused_header_on_cashout_moves_nothing, |s| {
    s.chain.settle_timeout_ms = 500;
});
