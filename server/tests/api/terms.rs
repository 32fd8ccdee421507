//! What a payment row credits is what the chain proves. A payment row is keyed by the payer's
//! EIP-3009 `(payer, nonce)`, and a `failed` row may be presented again; the payer signs every
//! authorization of that nonce, so the one that lands may not be the one the row was last
//! presented with. Whatever lands, the chips credited are the tier of the value the chain moved,
//! and the row says so:
//!
//! - a payer with no tokens presents A (micro, nonce N): refused, the row ends `failed`; funded,
//!   they present B (medium, the same N) while the chain mines nothing, then land A themself at a
//!   higher fee. The house's settlement of B reverts; A moved 0.01 USD: 100 chips, never 10,000.
//!   On the house's rail, and on a facilitator's that reports failure with no hash;
//! - a retried nonce that settles normally, early or late, stores and credits its own terms,
//!   and is given up as expired only by its own validity window;
//! - a smaller authorization of the nonce landed during the request credits what it moved;
//! - a transfer of no tier's price credits nothing, and says why.
//!
//! Each ends with the ledger and money audit.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use alloy::primitives::{Address, B256, Signature, U256};
use alloy::providers::ProviderBuilder;
use alloy::signers::local::PrivateKeySigner;
use arcade_server::chain::devnet::{self, Devnet};
use arcade_server::chain::token::{DollarToken, TransferWithAuthorization};
use arcade_server::entities::payment::{self, PaymentState};
use arcade_server::service::reconcile::Reconciled;
use axum::Json;
use axum::extract::State;
use axum::routing::post;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::{Value, json};

use crate::helpers::Backend;
use crate::paying::{PaidApp, anvil_bin, mint_to, sign_payment};

const MICRO: &str = "/api/arcade/chips/micro";
const MEDIUM: &str = "/api/arcade/chips/medium";
const MICRO_PRICE: u64 = 10_000;
const MEDIUM_PRICE: u64 = 1_000_000;

/// An app whose settlements give up waiting after a second, so they go pending quickly.
async fn impatient(backend: Backend) -> PaidApp {
    PaidApp::spawn_with(backend, |s| s.chain.settle_timeout_ms = 1_000).await
}

/// A payer with no tokens presents A (micro): refused for want of funds, the row `failed`.
/// Then the payer is funded enough for the medium tier and A together.
async fn refused_while_broke(app: &PaidApp, payer: &PrivateKeySigner) -> TransferWithAuthorization {
    let challenge = app.challenge(MICRO).await;
    let (payment, a) = sign_payment(&challenge, payer, |_| {});
    app.buy(MICRO, Some(&payment))
        .await
        .refused("insufficient_funds");
    assert_eq!(the_payment(app, payer).await.state, PaymentState::Failed);
    mint_to(app, payer.address(), MEDIUM_PRICE + MICRO_PRICE).await;
    a
}

/// B: the medium tier, signed with A's nonce and a validity window of its own.
async fn same_nonce_medium(
    app: &PaidApp,
    payer: &PrivateKeySigner,
    a: &TransferWithAuthorization,
) -> (String, TransferWithAuthorization) {
    let challenge = app.challenge(MEDIUM).await;
    sign_payment(&challenge, payer, |b| {
        b.nonce = a.nonce;
        b.validBefore = a.validBefore - U256::from(30);
    })
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

/// A moved 0.01 USD to the house in `tx`: the payer holds the micro tier's chips, and the row
/// says micro, 100 chips, 10000 base units, settled by `tx`.
async fn credited_what_a_moved(
    app: &PaidApp,
    payer: &PrivateKeySigner,
    tx: B256,
    house_before: U256,
) {
    assert_eq!(
        app.chips(payer.address()).await,
        100,
        "the chips of what A moved (micro), not of the tier B asked for"
    );
    let row = the_payment(app, payer).await;
    assert_eq!(
        (row.state, row.tier.as_str(), row.chips, row.amount.as_str()),
        (PaymentState::Settled, "micro", 100, "10000"),
        "{row:?}"
    );
    assert_eq!(row.tx_hash, Some(tx.to_string()));
    assert_eq!(
        app.token_balance(app.house()).await,
        house_before + U256::from(MICRO_PRICE)
    );
    assert_eq!(
        app.token_balance(payer.address()).await,
        U256::from(MEDIUM_PRICE)
    );
}

/// The reported attack on the house's rail: A refused, B (bigger, same nonce) pending in the
/// pool, A landed by the payer first.
async fn a_retried_nonce_landed_at_its_first_terms_credits_what_moved(backend: Backend) {
    let app = impatient(backend).await;
    let payer = app.payer(0).await;
    let house_before = app.token_balance(app.house()).await;
    let a = refused_while_broke(&app, &payer).await;
    let (b_payment, _) = same_nonce_medium(&app, &payer, &a).await;

    app.automine(false).await;
    let reply = app.buy(MEDIUM, Some(&b_payment)).await;
    reply.refused("settlement_pending");
    let settlement: B256 = reply.body["transaction"].as_str().unwrap().parse().unwrap();
    let own = app.land_authorization(&payer, &a).await;
    app.mine().await;
    assert!(app.receipt(own).await.status(), "A is mined first");
    assert!(
        !app.receipt(settlement).await.status(),
        "the house's settlement of B reverts"
    );
    app.automine(true).await;

    assert_eq!(reconcile(&app).await.credited, 1);
    assert_eq!(reconcile(&app).await, Reconciled::default());
    credited_what_a_moved(&app, &payer, own, house_before).await;
    app.audit().await;
}

/// A facilitator that holds the authorization: at `/settle` it broadcasts it (without waiting
/// for a block) and answers failure with no transaction.
struct Withholder {
    rpc_url: String,
    token: Address,
    key: PrivateKeySigner,
    /// The settlements it broadcast.
    sent: Mutex<Vec<B256>>,
}

async fn verify(Json(body): Json<Value>) -> Json<Value> {
    let payer = body["paymentPayload"]["payload"]["authorization"]["from"].clone();
    Json(json!({ "isValid": true, "payer": payer }))
}

async fn settle(State(withholder): State<Arc<Withholder>>, Json(body): Json<Value>) -> Json<Value> {
    let payload = &body["paymentPayload"]["payload"];
    let tx = broadcast(&withholder, payload).await;
    withholder.sent.lock().unwrap().push(tx);
    Json(json!({
        "success": false,
        "errorReason": "unexpected_settle_error",
        "errorMessage": "the facilitator could not settle",
        "transaction": "",
        "network": format!("eip155:{}", devnet::CHAIN_ID),
        "payer": payload["authorization"]["from"].clone(),
    }))
}

/// `transferWithAuthorization` of the payload, sent and not waited for.
async fn broadcast(withholder: &Withholder, payload: &Value) -> B256 {
    let auth = &payload["authorization"];
    let number = |field: &str| U256::from_str_radix(auth[field].as_str().unwrap(), 10).unwrap();
    let bytes = alloy::hex::decode(payload["signature"].as_str().unwrap()).unwrap();
    let signature = Signature::from_raw(&bytes).unwrap();
    let provider = ProviderBuilder::new()
        .wallet(withholder.key.clone())
        .connect_http(withholder.rpc_url.parse().unwrap());
    let token = DollarToken::new(withholder.token, &provider);
    let pending = token
        .transferWithAuthorization(
            auth["from"].as_str().unwrap().parse().unwrap(),
            auth["to"].as_str().unwrap().parse().unwrap(),
            number("value"),
            number("validAfter"),
            number("validBefore"),
            auth["nonce"].as_str().unwrap().parse().unwrap(),
            27 + u8::from(signature.v()),
            signature.r().into(),
            signature.s().into(),
        )
        .send()
        .await
        .unwrap();
    *pending.tx_hash()
}

/// The arcade on its own chain, settling through the withholding facilitator.
async fn spawn_withheld(backend: Backend) -> (PaidApp, Arc<Withholder>) {
    let devnet = Devnet::start(&anvil_bin(), 0).await.unwrap();
    let withholder = Arc::new(Withholder {
        rpc_url: devnet.rpc_url(),
        token: devnet.token,
        key: PrivateKeySigner::from(devnet.anvil.keys()[3].clone()),
        sent: Mutex::new(Vec::new()),
    });
    let router = axum::Router::new()
        .route("/verify", post(verify))
        .route("/settle", post(settle))
        .with_state(Arc::clone(&withholder));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await });
    let app = PaidApp::spawn_on_devnet(backend, devnet, move |settings| {
        settings.payments.facilitator_url = Some(arcade_server::settings::Secret::new(url));
        settings.chain.settle_timeout_ms = 1_000;
    })
    .await;
    (app, withholder)
}

/// The same attack on a facilitator's rail: it reports failure with no hash while B waits in
/// the pool; the payer lands A first.
async fn a_retried_nonce_the_facilitator_failed_credits_what_moved(backend: Backend) {
    let (app, withholder) = spawn_withheld(backend).await;
    let payer = app.payer(0).await;
    let house_before = app.token_balance(app.house()).await;
    let a = refused_while_broke(&app, &payer).await;
    assert!(
        withholder.sent.lock().unwrap().is_empty(),
        "A never reached it"
    );
    let (b_payment, _) = same_nonce_medium(&app, &payer, &a).await;

    app.automine(false).await;
    let reply = app.buy(MEDIUM, Some(&b_payment)).await;
    reply.refused("unexpected_settle_error");
    let settlement = withholder.sent.lock().unwrap()[0];
    let own = app.land_authorization(&payer, &a).await;
    app.wait_for_pool(2).await;
    app.mine().await;
    assert!(app.receipt(own).await.status(), "A is mined first");
    assert!(
        !app.receipt(settlement).await.status(),
        "the facilitator's settlement of B reverts"
    );
    app.automine(true).await;

    assert_eq!(reconcile(&app).await.credited, 1);
    assert_eq!(reconcile(&app).await, Reconciled::default());
    credited_what_a_moved(&app, &payer, own, house_before).await;
    assert_eq!(the_payment(&app, &payer).await.settled_by, "facilitator");
    app.audit().await;
}

/// A failed nonce presented again for another tier and validity window, settled at once: the
/// answer and the row carry B's terms, not A's.
async fn a_retried_nonce_stores_the_terms_it_credits(backend: Backend) {
    let app = PaidApp::spawn(backend).await;
    let payer = app.payer(0).await;
    let a = refused_while_broke(&app, &payer).await;
    let (b_payment, b) = same_nonce_medium(&app, &payer, &a).await;

    let reply = app.buy(MEDIUM, Some(&b_payment)).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(
        (
            reply.body["tier"].as_str(),
            reply.body["chips_credited"].as_i64(),
            reply.body["amount"].as_str()
        ),
        (Some("medium"), Some(10_000), Some("1000000")),
        "{}",
        reply.body
    );
    let row = the_payment(&app, &payer).await;
    assert_eq!(
        (row.state, row.tier.as_str(), row.chips, row.amount.as_str()),
        (PaymentState::Settled, "medium", 10_000, "1000000"),
        "{row:?}"
    );
    assert_eq!(row.valid_before, i64::try_from(b.validBefore).unwrap());
    assert_eq!(row.pay_to, format!("{:#x}", app.house()));
    assert_eq!(row.error, None);
    assert_eq!(row.tx_hash.as_deref(), reply.body["tx_hash"].as_str());
    assert_eq!(app.chips(payer.address()).await, 10_000);
    app.audit().await;
}

/// The same retry whose settlement is mined only after the request gave up waiting: the
/// reconciler proves B's transfer and credits the medium tier (the payer paid 1.00 USD).
async fn a_retried_nonce_settled_late_is_credited_at_its_new_terms(backend: Backend) {
    let app = impatient(backend).await;
    let payer = app.payer(0).await;
    let a = refused_while_broke(&app, &payer).await;
    let (b_payment, _) = same_nonce_medium(&app, &payer, &a).await;
    app.automine(false).await;
    app.buy(MEDIUM, Some(&b_payment))
        .await
        .refused("settlement_pending");
    app.mine().await;
    app.automine(true).await;

    assert_eq!(
        reconcile(&app).await,
        Reconciled {
            credited: 1,
            ..Default::default()
        }
    );
    let row = the_payment(&app, &payer).await;
    assert_eq!(
        (row.state, row.tier.as_str(), row.chips, row.amount.as_str()),
        (PaymentState::Settled, "medium", 10_000, "1000000"),
        "{row:?}"
    );
    assert_eq!(app.chips(payer.address()).await, 10_000);
    app.audit().await;
}

/// A was signed to expire within a minute; B, the retry, for the usual five. B's settlement is
/// dropped from the pool and the chain's clock passes A's `validBefore` but not B's: B can still
/// be mined, so the payment is not given up as expired, and the same signed settlement is sent
/// again and credited.
async fn a_retried_nonce_is_judged_expired_by_its_own_window(backend: Backend) {
    let app = impatient(backend).await;
    let payer = app.payer(0).await;
    let now = now_seconds();
    let challenge = app.challenge(MICRO).await;
    let (a_payment, a) = sign_payment(&challenge, &payer, |a| {
        a.validBefore = U256::from(now + 60);
    });
    app.buy(MICRO, Some(&a_payment))
        .await
        .refused("insufficient_funds");
    mint_to(&app, payer.address(), MEDIUM_PRICE).await;
    let challenge = app.challenge(MEDIUM).await;
    let (b_payment, b) = sign_payment(&challenge, &payer, |b| b.nonce = a.nonce);
    assert!(b.validBefore > a.validBefore + U256::from(120));

    app.automine(false).await;
    let reply = app.buy(MEDIUM, Some(&b_payment)).await;
    reply.refused("settlement_pending");
    let settlement = reply.body["transaction"].clone();
    app.anvil("anvil_dropTransaction", json!([settlement]))
        .await;
    app.advance_chain_time(u64::try_from(a.validBefore).unwrap() - now_seconds() + 1)
        .await;

    assert_eq!(
        reconcile(&app).await,
        Reconciled {
            rebroadcast: 1,
            ..Default::default()
        },
        "B is still valid by the chain's clock: its settlement is sent again, not given up"
    );
    app.mine().await;
    app.automine(true).await;
    assert_eq!(reconcile(&app).await.credited, 1);
    let row = the_payment(&app, &payer).await;
    assert_eq!(
        (row.state, row.chips, row.amount.as_str()),
        (PaymentState::Settled, 10_000, "1000000"),
        "{row:?}"
    );
    assert_eq!(app.chips(payer.address()).await, 10_000);
    app.audit().await;
}

fn now_seconds() -> u64 {
    u64::try_from(chrono::Utc::now().timestamp()).unwrap()
}

/// A payer presents B (medium) and, while the request waits for its receipt, lands A' (the same
/// nonce, 0.01 USD to the house) at a higher fee. The house was paid 0.01 USD through the nonce:
/// the request credits the micro tier, and says so.
async fn a_smaller_same_nonce_payment_during_the_request_credits_what_moved(backend: Backend) {
    let app = PaidApp::spawn(backend).await;
    let payer = app.payer(MEDIUM_PRICE + MICRO_PRICE).await;
    let house_before = app.token_balance(app.house()).await;
    let challenge = app.challenge(MEDIUM).await;
    let (payment, b) = sign_payment(&challenge, &payer, |_| {});
    let smaller = TransferWithAuthorization {
        value: U256::from(MICRO_PRICE),
        ..b.clone()
    };
    app.automine(false).await;
    let attack = async {
        app.wait_for_pool(1).await;
        let own = app.land_authorization(&payer, &smaller).await;
        app.wait_for_pool(2).await;
        app.mine().await;
        own
    };
    let (reply, own) = tokio::join!(app.buy(MEDIUM, Some(&payment)), attack);
    app.automine(true).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(
        (
            reply.body["tier"].as_str(),
            reply.body["chips_credited"].as_i64(),
            reply.body["amount"].as_str()
        ),
        (Some("micro"), Some(100), Some("10000")),
        "{}",
        reply.body
    );
    credited_what_a_moved(&app, &payer, own, house_before).await;
    app.audit().await;
}

/// The nonce is landed paying the house a value that is no tier's price: nothing is credited,
/// the payment ends `failed` and says what moved.
async fn a_same_nonce_transfer_of_no_tiers_price_credits_nothing(backend: Backend) {
    const ODD: u64 = 12_345;
    let app = impatient(backend).await;
    let payer = app.payer(MEDIUM_PRICE + ODD).await;
    let challenge = app.challenge(MEDIUM).await;
    let (payment, b) = sign_payment(&challenge, &payer, |_| {});
    app.automine(false).await;
    app.buy(MEDIUM, Some(&payment))
        .await
        .refused("settlement_pending");
    let odd = TransferWithAuthorization {
        value: U256::from(ODD),
        ..b
    };
    let own = app.land_authorization(&payer, &odd).await;
    app.mine().await;
    assert!(app.receipt(own).await.status());
    app.automine(true).await;

    assert_eq!(
        reconcile(&app).await,
        Reconciled {
            failed: 1,
            ..Default::default()
        }
    );
    let row = the_payment(&app, &payer).await;
    assert_eq!(row.state, PaymentState::Failed, "{row:?}");
    let error = row.error.as_deref().unwrap();
    assert!(
        error.contains("12345") && error.contains("no tier") && error.contains(&own.to_string()),
        "{row:?}"
    );
    assert_eq!(app.chips(payer.address()).await, 0);

    // Presented again, it is a fresh attempt that finds the nonce spent: still nothing.
    app.buy(MEDIUM, Some(&payment))
        .await
        .refused("invalid_exact_evm_nonce_already_used");
    assert_eq!(the_payment(&app, &payer).await.state, PaymentState::Failed);
    assert_eq!(app.chips(payer.address()).await, 0);
    app.audit_with_unowed(U256::from(ODD)).await;
}

crate::on_both_backends_with_own_chain!(
    a_retried_nonce_landed_at_its_first_terms_credits_what_moved,
    a_retried_nonce_the_facilitator_failed_credits_what_moved,
    a_retried_nonce_stores_the_terms_it_credits,
    a_retried_nonce_settled_late_is_credited_at_its_new_terms,
    a_retried_nonce_is_judged_expired_by_its_own_window,
    a_smaller_same_nonce_payment_during_the_request_credits_what_moved,
    a_same_nonce_transfer_of_no_tiers_price_credits_nothing,
);
