//! Attacks on the money flow in, on a real anvil with the test dollar (which has USDC's
//! `cancelAuthorization`): a payer who front-runs the house's pending settlement with a second
//! authorization of the same nonce, or cancels it; a settlement that is slow but honest; a payer
//! who lands their own authorization before the house does; an authorization that expires by
//! the chain's clock. Each ends with the audit: chips in = money received.

use std::time::Duration;

use alloy::primitives::{B256, U256};
use alloy::signers::local::PrivateKeySigner;
use arcade_server::chain::token::TransferWithAuthorization;
use arcade_server::entities::payment;
use arcade_server::entities::payment::PaymentState;
use arcade_server::service::reconcile::Reconciled;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};

use crate::chain_control::same_nonce_to;
use crate::helpers::Backend;
use crate::paying::{PaidApp, sign_payment};

const MEDIUM: &str = "/api/arcade/chips/medium";
const MEDIUM_PRICE: u64 = 1_000_000;

/// An app whose settlements give up waiting after a second, so they go pending quickly.
async fn impatient(backend: Backend) -> PaidApp {
    PaidApp::spawn_with(backend, |s| s.chain.settle_timeout_ms = 1_000).await
}

/// The payer signs authorization A for the medium tier and presents it with automine off: the
/// house's settlement sits in the pool and the purchase answers `settlement_pending`.
async fn pending_purchase(
    app: &PaidApp,
    payer: &PrivateKeySigner,
) -> (String, TransferWithAuthorization, B256) {
    let challenge = app.challenge(MEDIUM).await;
    let (payment, authorization) = sign_payment(&challenge, payer, |_| {});
    app.automine(false).await;
    let reply = app.buy(MEDIUM, Some(&payment)).await;
    reply.refused("settlement_pending");
    let settlement = reply.body["transaction"].as_str().unwrap().parse().unwrap();
    (payment, authorization, settlement)
}

async fn reconcile(app: &PaidApp) -> Reconciled {
    app.arcade.reconcile.payments(Duration::ZERO).await.unwrap()
}

async fn the_payment(app: &PaidApp, payer: &PrivateKeySigner) -> payment::Model {
    payment::Entity::find()
        .filter(payment::Column::Payer.eq(format!("{:#x}", payer.address())))
        .one(&app.arcade.db)
        .await
        .unwrap()
        .expect("a payment row")
}

/// The reported attack: A's settlement pending past the timeout, B (same nonce, paying the
/// payer) mined first at a higher fee. The nonce reads used, but nothing paid the house.
async fn a_same_nonce_front_run_credits_nothing(backend: Backend) {
    let app = impatient(backend).await;
    let payer = app.payer(MEDIUM_PRICE).await;
    let house_before = app.token_balance(app.house()).await;
    let (payment, a, settlement) = pending_purchase(&app, &payer).await;

    let b = app
        .land_authorization(&payer, &same_nonce_to(&a, payer.address()))
        .await;
    app.mine().await;
    assert!(app.receipt(b).await.status(), "B is mined first");
    assert!(
        !app.receipt(settlement).await.status(),
        "the house's settlement of A reverts"
    );
    assert!(app.authorization_used(payer.address(), a.nonce).await);

    assert_eq!(
        reconcile(&app).await,
        Reconciled {
            failed: 1,
            ..Default::default()
        }
    );
    assert_eq!(reconcile(&app).await, Reconciled::default());
    let row = the_payment(&app, &payer).await;
    assert_eq!(row.state, PaymentState::Failed);
    assert!(
        row.error.as_deref().unwrap().contains(&b.to_string()),
        "{row:?}"
    );
    assert_eq!(app.chips(payer.address()).await, 0);
    assert_eq!(app.token_balance(app.house()).await, house_before);
    assert_eq!(
        app.token_balance(payer.address()).await,
        U256::from(MEDIUM_PRICE)
    );

    // Presented again, A is refused: its nonce is spent, and not on the house.
    app.automine(true).await;
    app.buy(MEDIUM, Some(&payment))
        .await
        .refused("invalid_exact_evm_nonce_already_used");
    assert_eq!(app.chips(payer.address()).await, 0);
    app.audit().await;
}

/// The same attack while the purchase request is still waiting for its receipt: the request
/// itself answers that the nonce was used elsewhere.
async fn a_front_run_during_the_request_is_refused(backend: Backend) {
    let app = PaidApp::spawn(backend).await;
    let payer = app.payer(MEDIUM_PRICE).await;
    let challenge = app.challenge(MEDIUM).await;
    let (payment, a) = sign_payment(&challenge, &payer, |_| {});
    app.automine(false).await;
    let attack = async {
        app.wait_for_pool(1).await;
        let b = app
            .land_authorization(&payer, &same_nonce_to(&a, payer.address()))
            .await;
        app.wait_for_pool(2).await;
        app.mine().await;
        b
    };
    let (reply, b) = tokio::join!(app.buy(MEDIUM, Some(&payment)), attack);
    reply.refused("invalid_exact_evm_nonce_already_used");
    assert!(
        reply.body["detail"]
            .as_str()
            .unwrap()
            .contains(&b.to_string()),
        "{}",
        reply.body
    );
    assert_eq!(the_payment(&app, &payer).await.state, PaymentState::Failed);
    assert_eq!(app.chips(payer.address()).await, 0);
    assert_eq!(reconcile(&app).await, Reconciled::default());
    app.automine(true).await;
    app.audit().await;
}

/// USDC's `cancelAuthorization`, signed by the payer and sent by anyone, beats the settlement.
async fn a_cancelled_authorization_credits_nothing(backend: Backend) {
    let app = impatient(backend).await;
    let payer = app.payer(MEDIUM_PRICE).await;
    let (_, a, settlement) = pending_purchase(&app, &payer).await;
    let relayer = PrivateKeySigner::random();
    let cancel = app.cancel_authorization(&payer, a.nonce, &relayer).await;
    app.mine().await;
    assert!(app.receipt(cancel).await.status());
    assert!(!app.receipt(settlement).await.status());

    assert_eq!(reconcile(&app).await.failed, 1);
    let row = the_payment(&app, &payer).await;
    assert_eq!(row.state, PaymentState::Failed);
    assert!(
        row.error.as_deref().unwrap().contains("cancelled"),
        "{row:?}"
    );
    assert_eq!(app.chips(payer.address()).await, 0);
    assert_eq!(
        app.token_balance(payer.address()).await,
        U256::from(MEDIUM_PRICE)
    );
    app.automine(true).await;
    app.audit().await;
}

/// The payer (or a relayer) lands the very same authorization A before the house: the house was
/// paid through A, so the chips are owed, once, found through the token's logs.
async fn the_payer_landing_a_themself_is_credited_once(backend: Backend) {
    let app = impatient(backend).await;
    let payer = app.payer(MEDIUM_PRICE).await;
    let house_before = app.token_balance(app.house()).await;
    let (_, a, settlement) = pending_purchase(&app, &payer).await;
    let own = app.land_authorization(&payer, &a).await;
    app.mine().await;
    assert!(app.receipt(own).await.status());
    assert!(!app.receipt(settlement).await.status());

    assert_eq!(reconcile(&app).await.credited, 1);
    assert_eq!(reconcile(&app).await, Reconciled::default());
    let row = the_payment(&app, &payer).await;
    assert_eq!(row.state, PaymentState::Settled);
    assert_eq!(row.tx_hash.as_deref(), Some(own.to_string().as_str()));
    assert_eq!(app.chips(payer.address()).await, 10_000);
    assert_eq!(
        app.token_balance(app.house()).await,
        house_before + U256::from(MEDIUM_PRICE)
    );
    app.automine(true).await;
    app.audit().await;
}

/// A settlement that never made it (dropped from the pool) is given up once the authorization
/// has expired by the chain's clock, although the server's clock says it is still valid.
async fn an_authorization_expired_on_chain_is_given_up(backend: Backend) {
    let app = impatient(backend).await;
    let payer = app.payer(MEDIUM_PRICE).await;
    let (_, a, settlement) = pending_purchase(&app, &payer).await;
    app.anvil("anvil_dropTransaction", serde_json::json!([settlement]))
        .await;

    // Still valid on-chain: the reconciler sends the same signed settlement again.
    assert_eq!(reconcile(&app).await.rebroadcast, 1);
    app.anvil("anvil_dropTransaction", serde_json::json!([settlement]))
        .await;
    let valid_for = u64::try_from(a.validBefore).unwrap() - now_seconds();
    app.advance_chain_time(valid_for + 1).await;
    assert!(now_seconds() < u64::try_from(a.validBefore).unwrap());

    assert_eq!(reconcile(&app).await.failed, 1);
    let row = the_payment(&app, &payer).await;
    assert_eq!(row.state, PaymentState::Failed);
    assert!(row.error.as_deref().unwrap().contains("expired"), "{row:?}");
    assert!(!app.authorization_used(payer.address(), a.nonce).await);
    assert_eq!(app.chips(payer.address()).await, 0);
    app.automine(true).await;
    app.audit().await;
}

fn now_seconds() -> u64 {
    u64::try_from(chrono::Utc::now().timestamp()).unwrap()
}

crate::on_both_backends_with_own_chain!(
    a_same_nonce_front_run_credits_nothing,
    a_front_run_during_the_request_is_refused,
    a_cancelled_authorization_credits_nothing,
    the_payer_landing_a_themself_is_credited_once,
    an_authorization_expired_on_chain_is_given_up,
);
