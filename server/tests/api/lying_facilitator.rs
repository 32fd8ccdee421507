//! A facilitator that lies. It accepts every payment at `/verify`, and at `/settle` answers
//! whatever the test told it to: once honestly (it lands the authorization with its own key and
//! reports the real hash), then success with the hash of an unrelated transaction, of the same
//! payer's earlier genuine payment to the house, of a transfer by the payer to someone else, or
//! with no hash at all. None of it may credit a chip; each payment stays `settling` until the
//! chain proves otherwise, and ends `failed` once its authorization has expired by the chain's
//! clock. Whatever text it answers with (a refusal's reason and message, a failure's, a body
//! that is not JSON) never reaches the buyer.

use std::sync::{Arc, Mutex};

use alloy::primitives::{Address, B256, Signature, U256};
use alloy::providers::ProviderBuilder;
use alloy::signers::local::PrivateKeySigner;
use arcade_server::chain::devnet::{self, Devnet};
use arcade_server::chain::token::DollarToken;
use arcade_server::entities::payment;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use sea_orm::EntityTrait;
use serde_json::{Value, json};

use crate::helpers::Backend;
use crate::paying::{PaidApp, anvil_bin, sign_payment};

const SMALL: &str = "/api/arcade/chips/small";
const SMALL_PRICE: u64 = 100_000;

/// What `/settle` answers next.
#[derive(Clone)]
enum Answer {
    /// Lands the authorization itself and reports the real hash.
    Honest,
    /// Success, with this transaction.
    Success(B256),
    /// Success, with no transaction.
    SuccessWithoutHash,
    /// Failure, its reason and message the marker.
    Fails,
    /// HTTP 500 with the marker as its body.
    Garbage,
}

/// What `/verify` answers next.
#[derive(Clone, Copy)]
enum Verdict {
    Valid,
    /// Invalid, the marker as its reason and message.
    Invalid,
    /// Invalid for a reason of the x402 set, the marker as its message.
    InvalidWithMessage,
    /// HTTP 500 with the marker as its body.
    Garbage,
}

/// Text only the liar writes: the buyer must never see it.
const MARKER: &str = "LIAR-MARKER-7f3a <script>alert(1)</script> https://key@facilitator.internal";

struct Liar {
    answer: Mutex<Answer>,
    verdict: Mutex<Verdict>,
    rpc_url: String,
    token: Address,
    key: PrivateKeySigner,
}

async fn verify(State(liar): State<Arc<Liar>>, Json(body): Json<Value>) -> Response {
    let payer = body["paymentPayload"]["payload"]["authorization"]["from"].clone();
    let verdict = *liar.verdict.lock().unwrap();
    match verdict {
        Verdict::Valid => Json(json!({ "isValid": true, "payer": payer })).into_response(),
        Verdict::Invalid => Json(json!({ "isValid": false, "invalidReason": MARKER,
                                         "invalidMessage": MARKER, "payer": payer }))
        .into_response(),
        Verdict::InvalidWithMessage => Json(json!({ "isValid": false,
            "invalidReason": "invalid_exact_evm_payload_signature", "invalidMessage": MARKER,
            "payer": payer }))
        .into_response(),
        Verdict::Garbage => (StatusCode::INTERNAL_SERVER_ERROR, MARKER).into_response(),
    }
}

async fn settle(State(liar): State<Arc<Liar>>, Json(body): Json<Value>) -> Response {
    let payload = &body["paymentPayload"]["payload"];
    let payer = payload["authorization"]["from"].clone();
    let answer = liar.answer.lock().unwrap().clone();
    let network = format!("eip155:{}", devnet::CHAIN_ID);
    let transaction = match answer {
        Answer::Honest => land(&liar, payload).await.to_string(),
        Answer::Success(hash) => hash.to_string(),
        Answer::SuccessWithoutHash => String::new(),
        Answer::Fails => {
            return Json(json!({ "success": false, "errorReason": MARKER,
                                "errorMessage": MARKER, "transaction": "",
                                "network": network, "payer": payer }))
            .into_response();
        }
        Answer::Garbage => return (StatusCode::INTERNAL_SERVER_ERROR, MARKER).into_response(),
    };
    Json(json!({
        "success": true,
        "transaction": transaction,
        "network": network,
        "payer": payer,
    }))
    .into_response()
}

/// What an honest facilitator does: submit `transferWithAuthorization` and wait for it.
async fn land(liar: &Liar, payload: &Value) -> B256 {
    let auth = &payload["authorization"];
    let number = |field: &str| U256::from_str_radix(auth[field].as_str().unwrap(), 10).unwrap();
    let bytes = alloy::hex::decode(payload["signature"].as_str().unwrap()).unwrap();
    let signature = Signature::from_raw(&bytes).unwrap();
    let call = DollarToken::transferWithAuthorizationCall {
        from: auth["from"].as_str().unwrap().parse().unwrap(),
        to: auth["to"].as_str().unwrap().parse().unwrap(),
        value: number("value"),
        validAfter: number("validAfter"),
        validBefore: number("validBefore"),
        nonce: auth["nonce"].as_str().unwrap().parse().unwrap(),
        v: 27 + u8::from(signature.v()),
        r: signature.r().into(),
        s: signature.s().into(),
    };
    let provider = ProviderBuilder::new()
        .wallet(liar.key.clone())
        .connect_http(liar.rpc_url.parse().unwrap());
    let token = DollarToken::new(liar.token, &provider);
    let receipt = token
        .transferWithAuthorization(
            call.from,
            call.to,
            call.value,
            call.validAfter,
            call.validBefore,
            call.nonce,
            call.v,
            call.r,
            call.s,
        )
        .send()
        .await
        .unwrap()
        .get_receipt()
        .await
        .unwrap();
    receipt.transaction_hash
}

/// The arcade on its own chain, settling through the liar; returns the app and the liar.
async fn spawn(backend: Backend) -> (PaidApp, Arc<Liar>) {
    let devnet = Devnet::start(&anvil_bin(), 0).await.unwrap();
    let liar = Arc::new(Liar {
        answer: Mutex::new(Answer::Honest),
        verdict: Mutex::new(Verdict::Valid),
        rpc_url: devnet.rpc_url(),
        token: devnet.token,
        key: PrivateKeySigner::from(devnet.anvil.keys()[3].clone()),
    });
    let router = axum::Router::new()
        .route("/verify", post(verify))
        .route("/settle", post(settle))
        .with_state(Arc::clone(&liar));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await });
    let app = PaidApp::spawn_on_devnet(backend, devnet, move |settings| {
        settings.payments.facilitator_url = Some(arcade_server::settings::Secret::new(url));
        settings.chain.settle_timeout_ms = 1_000;
    })
    .await;
    (app, liar)
}

async fn lies_credit_nothing(backend: Backend) {
    let (app, liar) = spawn(backend).await;
    let payer = app.payer(2 * SMALL_PRICE).await;
    let challenge = app.challenge(SMALL).await;

    // Honest once: a genuine payment of the price, payer to house, is credited.
    let (first, _) = sign_payment(&challenge, &payer, |_| {});
    let reply = app.buy(SMALL, Some(&first)).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let genuine: B256 = reply.body["tx_hash"].as_str().unwrap().parse().unwrap();
    assert_eq!(app.chips(payer.address()).await, 1000);

    // A transfer by the payer to someone else: another authorization, landed by the test.
    let stranger = PrivateKeySigner::random();
    let (_, elsewhere) = sign_payment(&challenge, &payer, |a| a.to = stranger.address());
    let to_stranger = app.land_authorization(&payer, &elsewhere).await;
    app.mine().await;
    // Something unrelated: a mint to the payer.
    devnet::mint(
        &app.devnet.rpc_url(),
        &app.devnet.house,
        app.devnet.token,
        payer.address(),
        U256::from(SMALL_PRICE),
    )
    .await
    .unwrap();
    let unrelated = latest_transaction(&app).await;

    let lies = [
        (
            "the same payer's earlier genuine payment",
            Answer::Success(genuine),
        ),
        (
            "the payer's transfer to a stranger",
            Answer::Success(to_stranger),
        ),
        ("an unrelated mint", Answer::Success(unrelated)),
        ("no transaction at all", Answer::SuccessWithoutHash),
    ];
    let mut valid_before = 0;
    for (what, answer) in lies {
        *liar.answer.lock().unwrap() = answer;
        let (payment, authorization) = sign_payment(&challenge, &payer, |_| {});
        valid_before = valid_before.max(u64::try_from(authorization.validBefore).unwrap());
        let reply = app.buy(SMALL, Some(&payment)).await;
        assert_eq!(
            (reply.status, reply.body["error"].as_str()),
            (402, Some("settlement_pending")),
            "{what}: {}",
            reply.body
        );
        assert_eq!(app.chips(payer.address()).await, 1000, "{what}");
    }
    let pass = app
        .arcade
        .reconcile
        .payments(std::time::Duration::ZERO)
        .await
        .unwrap();
    assert_eq!(
        (pass.credited, pass.failed, pass.waiting),
        (0, 0, 4),
        "{pass:?}"
    );

    // Expired by the chain's clock: each lie ends failed, and the chips never came.
    let now = u64::try_from(chrono::Utc::now().timestamp()).unwrap();
    app.advance_chain_time(valid_before - now + 1).await;
    let pass = app
        .arcade
        .reconcile
        .payments(std::time::Duration::ZERO)
        .await
        .unwrap();
    assert_eq!((pass.credited, pass.failed), (0, 4), "{pass:?}");
    let states: Vec<_> = payment::Entity::find()
        .all(&app.arcade.db)
        .await
        .unwrap()
        .into_iter()
        .map(|row| row.state)
        .collect();
    use arcade_server::entities::payment::PaymentState::{Failed, Settled};
    assert_eq!(states, [Settled, Failed, Failed, Failed, Failed]);
    assert_eq!(app.chips(payer.address()).await, 1000);
    app.audit().await;
}

/// A refusal and a failure in the liar's own words, and bodies that are not JSON: each buyer
/// hears a reason of the x402 set and the arcade's own sentence, never the liar's text (in the
/// body or in any header), and nothing is credited.
async fn a_facilitators_words_never_reach_the_buyer(backend: Backend) {
    let (app, liar) = spawn(backend).await;
    let payer = app.payer(10 * SMALL_PRICE).await;
    let challenge = app.challenge(SMALL).await;
    let cases = [
        (
            "a refusal in its own words",
            Verdict::Invalid,
            Answer::Honest,
        ),
        (
            "a refusal with its own message",
            Verdict::InvalidWithMessage,
            Answer::Honest,
        ),
        (
            "a verification that is not JSON",
            Verdict::Garbage,
            Answer::Honest,
        ),
        ("a failure in its own words", Verdict::Valid, Answer::Fails),
        (
            "a settlement that is not JSON",
            Verdict::Valid,
            Answer::Garbage,
        ),
    ];
    let mut valid_before = 0;
    for (what, verdict, answer) in cases {
        *liar.verdict.lock().unwrap() = verdict;
        *liar.answer.lock().unwrap() = answer;
        let (payment, authorization) = sign_payment(&challenge, &payer, |_| {});
        valid_before = valid_before.max(u64::try_from(authorization.validBefore).unwrap());
        let reply = app.buy(SMALL, Some(&payment)).await;
        assert!(matches!(reply.status, 402 | 503), "{what}: {}", reply.body);
        let mut heard = reply.body.to_string();
        for (name, value) in &reply.headers {
            let value = value.to_str().unwrap_or_default();
            heard.push_str(value);
            if name == "payment-required" || name == "payment-response" {
                heard.push_str(&reply.header_json(name.as_str()).to_string());
            }
        }
        assert!(!heard.contains("LIAR-MARKER"), "{what}: {heard}");
        assert!(!heard.contains("facilitator.internal"), "{what}: {heard}");
        if reply.status == 402 {
            let reason = reply.body["error"].as_str().unwrap();
            assert!(
                reason
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'),
                "{what}: {reason}"
            );
        }
        assert_eq!(app.chips(payer.address()).await, 0, "{what}");
    }
    let now = u64::try_from(chrono::Utc::now().timestamp()).unwrap();
    app.advance_chain_time(valid_before.saturating_sub(now) + 1)
        .await;
    let pass = app
        .arcade
        .reconcile
        .payments(std::time::Duration::ZERO)
        .await
        .unwrap();
    assert_eq!(pass.credited, 0, "{pass:?}");
    assert_eq!(app.chips(payer.address()).await, 0);
    app.audit().await;
}

mod a_facilitators_words_never_reach_the_buyer {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        super::a_facilitators_words_never_reach_the_buyer(crate::helpers::Backend::Sqlite).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        super::a_facilitators_words_never_reach_the_buyer(crate::helpers::Backend::Postgres).await;
    }
}

/// The hash of the newest block's first transaction.
async fn latest_transaction(app: &PaidApp) -> B256 {
    use alloy::providers::Provider;
    let provider = ProviderBuilder::new().connect_http(app.devnet.rpc_url().parse().unwrap());
    let block = provider
        .get_block_by_number(alloy::eips::BlockNumberOrTag::Latest)
        .await
        .unwrap()
        .unwrap();
    block.transactions.hashes().next().unwrap()
}

mod lies_credit_nothing {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        super::lies_credit_nothing(crate::helpers::Backend::Sqlite).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        super::lies_credit_nothing(crate::helpers::Backend::Postgres).await;
    }
}
