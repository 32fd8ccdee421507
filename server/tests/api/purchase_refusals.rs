//! Purchases that must move nothing: each refusal of a payment (the amount, the payee, the
//! network, the time window, a stranger's signature or one over another token's domain, a
//! payer without the tokens, a malformed header) and a purchase while the RPC is down: no chip
//! credited, no token moved. An authorization refused for a reason that passes (funds arriving,
//! the RPC coming back) buys once afterwards.

use alloy::primitives::U256;
use arcade_server::entities::payment::PaymentState;
use serde_json::{Value, json};

use crate::paid_on_both_backends;
use crate::paying::{PaidApp, decode, encode, sign_payment};
use crate::purchases::{SMALL_PRICE, payments};

async fn refusals_move_nothing(app: &PaidApp) {
    let challenge = app.challenge("/api/arcade/chips").await;
    let payer = app.payer(SMALL_PRICE).await;
    let now = u64::try_from(chrono::Utc::now().timestamp()).unwrap();
    let stranger = alloy::signers::local::PrivateKeySigner::random();

    let spoiled: Vec<(&str, String)> = vec![
        (
            "invalid_exact_evm_payload_authorization_value_mismatch",
            sign_payment(&challenge, &payer, |a| {
                a.value = U256::from(SMALL_PRICE - 1)
            })
            .0,
        ),
        (
            "invalid_exact_evm_payload_recipient_mismatch",
            sign_payment(&challenge, &payer, |a| a.to = stranger.address()).0,
        ),
        (
            "invalid_exact_evm_payload_authorization_valid_before",
            sign_payment(&challenge, &payer, |a| a.validBefore = U256::from(now - 1)).0,
        ),
        (
            // Valid for longer than maxTimeoutSeconds (300) allows, plus a minute of skew.
            "invalid_exact_evm_payload_authorization_valid_before",
            sign_payment(&challenge, &payer, |a| {
                a.validBefore = U256::from(now + 300 + 61 + 5)
            })
            .0,
        ),
        (
            "invalid_exact_evm_payload_authorization_valid_after",
            sign_payment(&challenge, &payer, |a| a.validAfter = U256::from(now + 600)).0,
        ),
        ("invalid_network", {
            let mut payload = decode(&sign_payment(&challenge, &payer, |_| {}).0);
            payload["accepted"]["network"] = json!("eip155:8453");
            encode(&payload)
        }),
        ("invalid_payment_requirements", {
            let mut payload = decode(&sign_payment(&challenge, &payer, |_| {}).0);
            payload["accepted"]["amount"] = json!("1");
            encode(&payload)
        }),
        ("invalid_exact_evm_payload_signature", {
            // Signed by a stranger, claiming to be the payer.
            let mut payload = decode(&sign_payment(&challenge, &stranger, |_| {}).0);
            payload["payload"]["authorization"]["from"] = json!(payer.address());
            encode(&payload)
        }),
        ("invalid_exact_evm_payload_signature", {
            // Signed over another token name (USDC's), as a copied config would.
            let mut wrong = challenge.clone();
            wrong["accepts"][0]["extra"]["name"] = json!("USD Coin");
            let mut payload = decode(&sign_payment(&wrong, &payer, |_| {}).0);
            payload["accepted"] = challenge["accepts"][0].clone();
            encode(&payload)
        }),
    ];
    for (reason, payment) in &spoiled {
        app.buy("/api/arcade/chips", Some(payment))
            .await
            .refused(reason);
    }

    // A payer without the money: verified, reserved, refused by the chain check, released.
    let broke = app.payer(SMALL_PRICE - 1).await;
    let (unfunded, _) = sign_payment(&challenge, &broke, |_| {});
    app.buy("/api/arcade/chips", Some(&unfunded))
        .await
        .refused("insufficient_funds");

    for (malformed, what) in [
        ("%%%not base64%%%".to_owned(), "not base64"),
        (encode(&json!("a string")), "not an object"),
        (
            encode(
                &json!({"x402Version": 1, "scheme": "exact", "network": "base-sepolia", "payload": {}}),
            ),
            "v1",
        ),
        (
            encode(&json!({"x402Version": 2, "accepted": challenge["accepts"][0]})),
            "no payload",
        ),
    ] {
        let reply = app.buy("/api/arcade/chips", Some(&malformed)).await;
        assert_eq!(
            (
                reply.status,
                reply.body["code"].as_str(),
                reply.body["error"].as_str()
            ),
            (402, Some("invalid_payload"), Some("invalid_payload")),
            "{what}: {}",
            reply.body
        );
    }
    let via_x_payment = app
        .client
        .post(format!("{}/api/arcade/chips", app.base_url))
        .header("X-PAYMENT", "%%%")
        .send()
        .await
        .unwrap();
    let status = via_x_payment.status().as_u16();
    let body: Value = via_x_payment.json().await.unwrap();
    assert_eq!(
        (status, body["error"].as_str()),
        (402, Some("invalid_payload")),
        "X-PAYMENT is read too"
    );

    for who in [payer.address(), broke.address()] {
        assert_eq!(app.chips(who).await, 0);
    }
    assert_eq!(
        app.token_balance(payer.address()).await,
        U256::from(SMALL_PRICE)
    );
    assert_eq!(
        app.token_balance(broke.address()).await,
        U256::from(SMALL_PRICE - 1)
    );
    assert!(
        payments(app)
            .await
            .iter()
            .all(|p| p.state == PaymentState::Failed)
    );

    // Funded later, the refused authorization itself goes through, once.
    crate::paying::mint_to(app, broke.address(), 1).await;
    let reply = app.buy("/api/arcade/chips", Some(&unfunded)).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(app.chips(broke.address()).await, 1000);
}
paid_on_both_backends!(refusals_move_nothing);

async fn a_purchase_while_the_rpc_is_down_charges_and_credits_nothing(app: &PaidApp) {
    let payer = app.payer(SMALL_PRICE).await;
    let challenge = app.challenge("/api/arcade/chips").await;
    let (payment, authorization) = sign_payment(&challenge, &payer, |_| {});

    app.proxy.set_up(false);
    let reply = app.buy("/api/arcade/chips", Some(&payment)).await;
    assert_eq!(
        (reply.status, reply.body["code"].as_str()),
        (503, Some("chain_unavailable")),
        "{}",
        reply.body
    );
    app.proxy.set_up(true);

    assert_eq!(app.chips(payer.address()).await, 0);
    assert_eq!(
        app.token_balance(payer.address()).await,
        U256::from(SMALL_PRICE)
    );
    assert!(
        !app.authorization_used(payer.address(), authorization.nonce)
            .await
    );
    // Back up, the same authorization still buys, once.
    let reply = app.buy("/api/arcade/chips", Some(&payment)).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(app.chips(payer.address()).await, 1000);
}
paid_on_both_backends!(a_purchase_while_the_rpc_is_down_charges_and_credits_nothing);
