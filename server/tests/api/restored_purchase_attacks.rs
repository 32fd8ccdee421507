//! Attacks on the decision from the chain for a presented payment whose nonce is already used
//! and which no row here holds settled: a cancelled authorization; a second authorization of
//! the nonce paying another address, landed first; one that paid the house no tier's price; a
//! forged signature over someone else's used nonce. Nothing is credited to anyone who did not
//! pay, nothing twice. Each ends with the audit: chips in = money received.

use alloy::primitives::{Address, U256};
use alloy::signers::local::PrivateKeySigner;
use arcade_server::chain::token::TransferWithAuthorization;
use arcade_server::entities::payment;
use arcade_server::entities::payment::PaymentState;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::json;

use crate::chain_control::same_nonce_to;
use crate::paid_on_both_backends;
use crate::paying::{PaidApp, Reply, decode, encode, sign_payment};
use crate::restored_purchases::{MEDIUM, MEDIUM_PRICE, backup, restore};

/// A payer and their signed, never presented, authorization for the medium tier.
async fn signed_medium(app: &PaidApp) -> (PrivateKeySigner, String, TransferWithAuthorization) {
    let payer = app.payer(MEDIUM_PRICE).await;
    let (payment, authorization) = sign_payment(&app.challenge(MEDIUM).await, &payer, |_| {});
    (payer, payment, authorization)
}

/// The payer's payment rows: each one `failed`, none credited.
async fn assert_nothing_owed(app: &PaidApp, payer: Address) {
    let rows = payment::Entity::find()
        .filter(payment::Column::Payer.eq(format!("{payer:#x}")))
        .all(&app.arcade.db)
        .await
        .unwrap();
    assert!(
        rows.iter().all(|row| row.state == PaymentState::Failed),
        "{rows:?}"
    );
    assert_eq!(app.chips(payer).await, 0);
}

fn assert_detail_names(reply: &Reply, words: &str) {
    let detail = reply.body["detail"].as_str().unwrap_or_default();
    assert!(detail.contains(words), "{}", reply.body);
}

async fn a_cancelled_authorization_presented_credits_nothing(app: &PaidApp) {
    let (payer, payment, a) = signed_medium(app).await;
    let cancel = app
        .cancel_authorization(&payer, a.nonce, &PrivateKeySigner::random())
        .await;
    assert!(app.receipt(cancel).await.status());
    let reply = app.buy(MEDIUM, Some(&payment)).await;
    reply.refused("invalid_exact_evm_nonce_already_used");
    assert_detail_names(&reply, "cancelled");
    assert_nothing_owed(app, payer.address()).await;
    assert_eq!(
        app.token_balance(payer.address()).await,
        U256::from(MEDIUM_PRICE)
    );
}
paid_on_both_backends!(a_cancelled_authorization_presented_credits_nothing);

/// The payer signs A (to the house) and B (same nonce, to an accomplice), lands B, and presents
/// A: the nonce is used, but not to pay the house.
async fn the_house_copy_of_a_nonce_paid_elsewhere_credits_nothing(app: &PaidApp) {
    let (payer, payment, a) = signed_medium(app).await;
    let accomplice = PrivateKeySigner::random().address();
    let b = app
        .land_authorization(&payer, &same_nonce_to(&a, accomplice))
        .await;
    assert!(app.receipt(b).await.status());
    let reply = app.buy(MEDIUM, Some(&payment)).await;
    reply.refused("invalid_exact_evm_nonce_already_used");
    assert_detail_names(&reply, &b.to_string());
    assert_nothing_owed(app, payer.address()).await;
    assert_eq!(
        app.token_balance(accomplice).await,
        U256::from(MEDIUM_PRICE)
    );
    // Presented again, it is decided the same way.
    app.buy(MEDIUM, Some(&payment))
        .await
        .refused("invalid_exact_evm_nonce_already_used");
    assert_nothing_owed(app, payer.address()).await;
}
paid_on_both_backends!(the_house_copy_of_a_nonce_paid_elsewhere_credits_nothing);

/// The nonce paid the house 12345 base units (no tier's price) through another authorization;
/// the medium tier's authorization of that nonce is presented.
async fn a_used_nonce_that_paid_no_tiers_price_credits_nothing(app: &PaidApp) {
    let (payer, payment, a) = signed_medium(app).await;
    let odd = TransferWithAuthorization {
        value: U256::from(12_345u64),
        ..a.clone()
    };
    let landed = app.land_authorization(&payer, &odd).await;
    assert!(app.receipt(landed).await.status());
    let reply = app.buy(MEDIUM, Some(&payment)).await;
    reply.refused("invalid_exact_evm_nonce_already_used");
    assert_detail_names(&reply, "no tier's price");
    assert_nothing_owed(app, payer.address()).await;
    app.audit_with_unowed(U256::from(12_345u64)).await;
}

mod a_used_nonce_that_paid_no_tiers_price_credits_nothing {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        let app = crate::paying::PaidApp::spawn(crate::helpers::Backend::Sqlite).await;
        super::a_used_nonce_that_paid_no_tiers_price_credits_nothing(&app).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        let app = crate::paying::PaidApp::spawn(crate::helpers::Backend::Postgres).await;
        super::a_used_nonce_that_paid_no_tiers_price_credits_nothing(&app).await;
    }
}

/// A victim's purchase, forgotten by a restore. A forger presents the victim's used nonce under
/// the forger's own signature, as the victim or as the forger: refused, nothing credited. The
/// victim's own payment, presented by anyone, credits the victim, once.
async fn a_forged_signature_over_a_used_nonce_credits_no_one(app: &PaidApp) {
    let (victim, payment, _) = signed_medium(app).await;
    backup(app).await;
    let bought = app.buy(MEDIUM, Some(&payment)).await;
    assert_eq!(bought.status, 200, "{}", bought.body);
    restore(app).await;

    let forger = PrivateKeySigner::random();
    let original = decode(&payment);
    let mut as_victim = decode(
        &sign_payment(&app.challenge(MEDIUM).await, &forger, |a| {
            a.nonce = original["payload"]["authorization"]["nonce"]
                .as_str()
                .unwrap()
                .parse()
                .unwrap();
            a.validBefore = U256::from_str_radix(
                original["payload"]["authorization"]["validBefore"]
                    .as_str()
                    .unwrap(),
                10,
            )
            .unwrap();
        })
        .0,
    );
    as_victim["payload"]["authorization"]["from"] = json!(victim.address());
    let mut as_forger = original.clone();
    as_forger["payload"]["authorization"]["from"] = json!(forger.address());
    for forged in [as_victim, as_forger] {
        app.buy(MEDIUM, Some(&encode(&forged)))
            .await
            .refused("invalid_exact_evm_payload_signature");
    }
    assert_eq!(app.chips(victim.address()).await, 0);
    assert_eq!(app.chips(forger.address()).await, 0);

    // The victim's very payment, replayed by the forger, pays the victim (who paid) and no one
    // else; once.
    let replayed = app.buy(MEDIUM, Some(&payment)).await;
    assert_eq!(replayed.status, 200, "{}", replayed.body);
    assert_eq!(replayed.body["address"], victim.address().to_checksum(None));
    assert_eq!(replayed.body["tx_hash"], bought.body["tx_hash"]);
    app.buy(MEDIUM, Some(&payment))
        .await
        .refused("invalid_exact_evm_nonce_already_used");
    assert_eq!(app.chips(victim.address()).await, 10_000);
    assert_eq!(app.chips(forger.address()).await, 0);
}
paid_on_both_backends!(a_forged_signature_over_a_used_nonce_credits_no_one);
