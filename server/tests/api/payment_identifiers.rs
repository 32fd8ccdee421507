//! The x402 `payment-identifier` extension on a real anvil: declared in every 402 (REST and
//! MCP); the same identifier with the same payment answers the original purchase and credits
//! once; with another payment, 409 `payment_identifier_conflict`; a malformed one, 400
//! `payment_identifier_invalid`, before anything is verified or reserved. The identifier is
//! unique per payer in the database, so two instances on one PostgreSQL answer as one, and
//! another address cannot block a payer's key. Each ends with
//! the audit.

use alloy::signers::local::PrivateKeySigner;
use serde_json::{Value, json};

use crate::helpers::{Backend, TestApp};
use crate::mcp_client::{McpSession, structured, tool_error};
use crate::mcp_purchases::{challenge, pay, signed};
use crate::paying::{PaidApp, Reply, decode, encode, mint_to, sign_payment};

const SMALL: &str = "/api/arcade/chips/small";

/// A payment for `challenge`'s offer by `payer`, under identifier `id`.
fn identified(challenge: &Value, payer: &PrivateKeySigner, id: &str) -> Value {
    let mut payment = signed(challenge, payer);
    payment["extensions"]["payment-identifier"]["info"]["id"] = json!(id);
    payment
}

async fn buy_on(app: &TestApp, payment: &Value) -> Reply {
    let response = app
        .client
        .post(format!("{}{SMALL}", app.base_url))
        .header("PAYMENT-SIGNATURE", encode(payment))
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let body = response.json().await.unwrap();
    Reply {
        status,
        headers,
        body,
    }
}

async fn over_rest(backend: Backend) {
    let app = PaidApp::spawn(backend).await;
    let challenge = app.challenge(SMALL).await;
    assert_eq!(
        challenge["extensions"]["payment-identifier"]["schema"]["properties"]["id"]["maxLength"],
        128
    );
    let payer = app.payer(200_000).await;
    let payment = identified(&challenge, &payer, "pay_rest_0123456789abcdef");
    let first = buy_on(&app, &payment).await;
    assert_eq!(first.status, 200, "{}", first.body);
    let again = buy_on(&app, &payment).await;
    assert_eq!(again.status, 200, "{}", again.body);
    assert_eq!(again.body, first.body, "the original answer");
    assert_eq!(app.chips(payer.address()).await, 1000, "credited once");

    let other = identified(&challenge, &payer, "pay_rest_0123456789abcdef");
    buy_on(&app, &other)
        .await
        .error_code(409, "payment_identifier_conflict");
    for bad in ["short", "pay_with spaces_0123456789", &"x".repeat(129)] {
        let malformed = identified(&challenge, &payer, bad);
        buy_on(&app, &malformed)
            .await
            .error_code(400, "payment_identifier_invalid");
    }
    assert_eq!(app.chips(payer.address()).await, 1000);
    app.audit().await;
}

async fn over_mcp(backend: Backend) {
    let app = PaidApp::spawn(backend).await;
    let session = McpSession::open(&app.base_url).await;
    let required = challenge(&session, "small").await;
    let payer = app.payer(200_000).await;
    let payment = identified(&required, &payer, "pay_mcp_0123456789abcdef");
    let first = pay(&session, "small", &payment).await;
    let again = pay(&session, "small", &payment).await;
    assert_eq!(
        structured(&again),
        structured(&first),
        "the original answer"
    );
    assert_eq!(
        again["_meta"]["x402/payment-response"],
        first["_meta"]["x402/payment-response"]
    );
    assert_eq!(app.chips(payer.address()).await, 1000, "credited once");
    let other = identified(&required, &payer, "pay_mcp_0123456789abcdef");
    let conflict = pay(&session, "small", &other).await;
    assert_eq!(tool_error(&conflict), "payment_identifier_conflict");
    let malformed = identified(&required, &payer, "pay!");
    let invalid = pay(&session, "small", &malformed).await;
    assert_eq!(tool_error(&invalid), "payment_identifier_invalid");
    app.audit().await;
}

/// A key is its payer's own: another address that sent the same key first (here, a payment
/// that failed for want of tokens, which keeps its row) neither blocks it nor answers for it.
async fn a_key_is_the_payers_own(backend: Backend) {
    let app = PaidApp::spawn(backend).await;
    let challenge = app.challenge(SMALL).await;
    let key = "pay_shared_0123456789abcdef";
    let squatter = app.payer(0).await;
    let squatted = buy_on(&app, &identified(&challenge, &squatter, key)).await;
    assert_eq!(squatted.status, 402, "{}", squatted.body);
    let payer = app.payer(200_000).await;
    let payment = identified(&challenge, &payer, key);
    let bought = buy_on(&app, &payment).await;
    assert_eq!(bought.status, 200, "{}", bought.body);
    let again = buy_on(&app, &payment).await;
    assert_eq!((again.status, &again.body), (200, &bought.body));
    assert_eq!(app.chips(payer.address()).await, 1000, "credited once");
    assert_eq!(app.chips(squatter.address()).await, 0);
    app.audit().await;
}

/// A failed payment keeps the first key it was sent under: whoever holds the payment and
/// re-sends it without the key, or under their own, neither strips nor rebinds it (and is not
/// told the key is taken), so the payer's retry under the key answers the purchase the chain
/// made, credited once.
async fn a_failed_payment_keeps_its_identifier(backend: Backend) {
    let app = PaidApp::spawn(backend).await;
    let challenge = app.challenge(SMALL).await;
    let key = "pay_kept_0123456789abcdef";
    let payer = app.payer(0).await;
    let payment = identified(&challenge, &payer, key);
    let unfunded = buy_on(&app, &payment).await;
    assert_eq!(unfunded.status, 402, "{}", unfunded.body);
    let mut stripped = payment.clone();
    stripped.as_object_mut().unwrap().remove("extensions");
    let again = buy_on(&app, &stripped).await;
    assert_eq!(again.status, 402, "{}", again.body);
    let mut rebound = payment.clone();
    rebound["extensions"]["payment-identifier"]["info"]["id"] = json!("pay_other_0123456789abcd");
    let under_another = buy_on(&app, &rebound).await;
    assert_eq!(under_another.status, 402, "{}", under_another.body);

    mint_to(&app, payer.address(), 200_000).await;
    let bought = buy_on(&app, &stripped).await;
    assert_eq!(bought.status, 200, "{}", bought.body);
    let retried = buy_on(&app, &payment).await;
    assert_eq!(
        (retried.status, &retried.body),
        (200, &bought.body),
        "the payer's retry under its key answers the purchase"
    );
    assert_eq!(app.chips(payer.address()).await, 1000, "credited once");
    app.audit().await;
}

/// A key answers for the payment its row's attempt is: when the payer's failed payment under a
/// key gives way to another authorization of the same nonce (sent without the key) that is
/// bought, the first payment under the key is not answered the second one's purchase.
async fn a_key_answers_only_for_its_own_payment(backend: Backend) {
    let app = PaidApp::spawn(backend).await;
    let challenge = app.challenge(SMALL).await;
    let key = "pay_first_0123456789abcdef";
    let payer = app.payer(0).await;
    let first = identified(&challenge, &payer, key);
    assert_eq!(buy_on(&app, &first).await.status, 402);
    let field = |name: &str| {
        first["payload"]["authorization"][name]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let nonce = field("nonce").parse().unwrap();
    // Another authorization of the same nonce: one second shorter than the first's, whenever it
    // is signed (the signing reads the clock, which may tick between the two).
    let valid_before: alloy::primitives::U256 = field("validBefore").parse().unwrap();
    let (header, _) = sign_payment(&challenge, &payer, |authorization| {
        authorization.nonce = nonce;
        authorization.validBefore = valid_before - alloy::primitives::U256::from(1);
    });
    let second = decode(&header);
    mint_to(&app, payer.address(), 200_000).await;
    let bought = buy_on(&app, &second).await;
    assert_eq!(bought.status, 200, "{}", bought.body);
    let asked = buy_on(&app, &first).await;
    assert_ne!(
        (asked.status, &asked.body),
        (200, &bought.body),
        "another payment's purchase"
    );
    asked.error_code(409, "payment_identifier_conflict");
    assert_eq!(app.chips(payer.address()).await, 1000, "credited once");
    app.audit().await;
}

/// The same identified payment sent many times at once to two instances on one PostgreSQL
/// (a network duplicating a request): one credit, and no copy is told its key was taken by
/// another payment.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn identical_copies_racing_on_two_instances_are_no_conflict() {
    let app = PaidApp::spawn(Backend::Postgres).await;
    let second = app.another_instance().await;
    let challenge = app.challenge(SMALL).await;
    let payer = app.payer(800_000).await;
    for round in 0..8 {
        let payment = identified(
            &challenge,
            &payer,
            &format!("pay_copy_{round:02}_0123456789ab"),
        );
        let copies = (0..6).map(|copy| {
            let instance = if copy % 2 == 0 { &*app } else { &second };
            buy_on(instance, &payment)
        });
        let replies = futures::future::join_all(copies).await;
        for reply in &replies {
            assert_ne!(reply.status, 409, "a copy answered 409: {}", reply.body);
        }
    }
    assert_eq!(
        app.chips(payer.address()).await,
        8000,
        "each payment credited once"
    );
    app.audit().await;
}

/// Two instances on one PostgreSQL: the identifier is the database's, not an instance's.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_instances_on_one_postgres_share_the_identifiers() {
    let app = PaidApp::spawn(Backend::Postgres).await;
    let second = app.another_instance().await;
    let challenge = app.challenge(SMALL).await;
    let payer = app.payer(300_000).await;
    let payment = identified(&challenge, &payer, "pay_two_0123456789abcdef");
    let first = buy_on(&app, &payment).await;
    assert_eq!(first.status, 200, "{}", first.body);
    let again = buy_on(&second, &payment).await;
    assert_eq!((again.status, &again.body), (200, &first.body));
    let other = identified(&challenge, &payer, "pay_two_0123456789abcdef");
    buy_on(&second, &other)
        .await
        .error_code(409, "payment_identifier_conflict");

    // Two new payments under one new identifier, one to each instance at once: one is bought,
    // the other is the conflict (whichever loses the unique index).
    let (a, b) = (
        identified(&challenge, &payer, "pay_race_0123456789abcdef"),
        identified(&challenge, &payer, "pay_race_0123456789abcdef"),
    );
    let (ra, rb) = tokio::join!(buy_on(&app, &a), buy_on(&second, &b));
    let mut statuses = [ra.status, rb.status];
    statuses.sort_unstable();
    assert_eq!(statuses, [200, 409], "{} / {}", ra.body, rb.body);
    assert_eq!(app.chips(payer.address()).await, 2000);
    app.audit().await;
}

crate::on_both_backends_with_own_chain!(
    over_rest,
    over_mcp,
    a_key_is_the_payers_own,
    a_failed_payment_keeps_its_identifier,
    a_key_answers_only_for_its_own_payment
);
