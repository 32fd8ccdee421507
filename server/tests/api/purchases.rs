//! Buying chips over x402 on a real chain (anvil + the test dollar): the challenge, a settled
//! purchase, replays sequential and concurrent, and a settlement that outlives its request.
//! After each: the chain and the ledger agree. Refusals and the RPC going down are in
//! `purchase_refusals.rs`.

use std::time::Duration;

use alloy::primitives::U256;
use arcade_server::entities::payment;
use arcade_server::entities::payment::PaymentState;
use futures::future::join_all;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::{Value, json};

use crate::helpers::{Backend, TestApp};
use crate::paid_on_both_backends;
use crate::paying::{PaidApp, sign_payment};

pub const SMALL_PRICE: u64 = 100_000;

pub async fn payments(app: &PaidApp) -> Vec<payment::Model> {
    payment::Entity::find().all(&app.arcade.db).await.unwrap()
}

async fn the_challenge_is_the_v2_offer(app: &PaidApp) {
    let reply = app.buy("/api/arcade/chips", None).await;
    assert_eq!(reply.status, 402);
    assert_eq!(reply.headers["cache-control"].to_str().unwrap(), "no-store");
    assert!(
        reply.headers["access-control-expose-headers"]
            .to_str()
            .unwrap()
            .contains("payment-required")
    );
    let challenge = reply.header_json("payment-required");
    assert_eq!(challenge["x402Version"], 2);
    assert_eq!(
        challenge["resource"]["url"],
        format!("{}/api/arcade/chips", app.base_url)
    );
    let offer = &challenge["accepts"][0];
    assert_eq!(
        offer,
        &json!({
            "scheme": "exact",
            "network": "eip155:31337",
            "amount": "100000",
            "asset": app.devnet.token.to_checksum(None),
            "payTo": app.house().to_checksum(None),
            "maxTimeoutSeconds": 300,
            // Read from the token at start, not configured.
            "extra": { "name": "Arcade Test Dollar", "version": "1" },
        })
    );
    for (key, value) in challenge.as_object().unwrap() {
        let mut in_body = reply.body[key].clone();
        if key == "extensions" {
            // The body adds how the official clients allow the token; the header leaves it out.
            assert!(in_body["spend-controls"]["info"]["npm"].is_string());
            in_body.as_object_mut().unwrap().remove("spend-controls");
        }
        assert_eq!(&in_body, value, "the body repeats the header's {key}");
    }
    assert_eq!(reply.body["code"], "payment_required");

    for (tier, amount) in [
        ("micro", "10000"),
        ("small", "100000"),
        ("medium", "1000000"),
    ] {
        let path = format!("/api/arcade/chips/{tier}");
        assert_eq!(app.challenge(&path).await["accepts"][0]["amount"], amount);
        let by_get = app.get(&path).await;
        assert_eq!(by_get.status, 402, "GET yields the challenge too");
    }
    // An unknown tier is a validation error of the path (the interface's 422), not a 404.
    app.post("/api/arcade/chips/jumbo", &json!({}))
        .await
        .invalid(&[json!("path"), json!("tier")], "enum");
    app.post("/api/arcade/chips", &json!({ "chips": 5 }))
        .await
        .invalid(&[json!("body"), json!("chips")], "extra_forbidden");
    app.post("/api/arcade/chips/micro", &json!([]))
        .await
        .invalid(&[json!("body")], "model_attributes_type");
    assert_eq!(app.post("/api/arcade/chips", &json!({})).await.status, 402);
}
paid_on_both_backends!(the_challenge_is_the_v2_offer);

async fn a_signed_payment_buys_chips_once(app: &PaidApp) {
    let payer = app.payer(5 * SMALL_PRICE).await;
    let challenge = app.challenge("/api/arcade/chips").await;
    let (payment, authorization) = sign_payment(&challenge, &payer, |_| {});
    let house_before = app.token_balance(app.house()).await;

    let reply = app.buy("/api/arcade/chips", Some(&payment)).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let purchase = &reply.body;
    assert_eq!(purchase["address"], payer.address().to_checksum(None));
    assert_eq!(purchase["tier"], "small");
    assert_eq!(purchase["chips_credited"], 1000);
    assert_eq!(purchase["balance"], 1000);
    assert_eq!(purchase["amount"], "100000");
    assert_eq!(purchase["network"], "eip155:31337");
    let settlement = reply.header_json("payment-response");
    assert_eq!(settlement["success"], true);
    assert_eq!(settlement["transaction"], purchase["tx_hash"]);
    assert_eq!(settlement["payer"], payer.address().to_checksum(None));
    assert_eq!(settlement, reply.header_json("x-payment-response"));

    // The money moved on-chain, payer to pay-to, and the authorization is spent.
    assert_eq!(
        app.token_balance(payer.address()).await,
        U256::from(4 * SMALL_PRICE)
    );
    assert_eq!(
        app.token_balance(app.house()).await,
        house_before + U256::from(SMALL_PRICE)
    );
    assert!(
        app.authorization_used(payer.address(), authorization.nonce)
            .await
    );
    let balance = app
        .get(&format!("/api/arcade/balance/{}", payer.address()))
        .await
        .ok();
    assert_eq!(
        (balance["chips"].as_i64(), balance["bought_in"].as_bool()),
        (Some(1000), Some(true))
    );

    // The same authorization again, on the same or another tier: a 402 saying it was used
    // (a purchase without a valid payment is always a 402), with its state; nothing moves.
    for path in ["/api/arcade/chips", "/api/arcade/chips/small"] {
        let replay = app.buy(path, Some(&payment)).await;
        replay.refused("invalid_exact_evm_nonce_already_used");
        assert_eq!(
            (
                replay.body["code"].as_str(),
                replay.body["state"].as_str(),
                replay.body["tx_hash"].as_str()
            ),
            (
                Some("payment_already_used"),
                Some("settled"),
                purchase["tx_hash"].as_str()
            ),
            "{}",
            replay.body
        );
    }
    assert_eq!(app.chips(payer.address()).await, 1000);
    assert_eq!(
        app.token_balance(payer.address()).await,
        U256::from(4 * SMALL_PRICE)
    );

    // A second, fresh authorization buys again (medium tier: 10000 chips for 1.00).
    let medium = app.challenge("/api/arcade/chips/medium").await;
    let payer_rich = app.payer(10 * SMALL_PRICE).await;
    let (payment, _) = sign_payment(&medium, &payer_rich, |_| {});
    let reply = app.buy("/api/arcade/chips/medium", Some(&payment)).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.body["chips_credited"], 10_000);
}
paid_on_both_backends!(a_signed_payment_buys_chips_once);

async fn sixteen_copies_of_one_payment_settle_once(app: &PaidApp) {
    let payer = app.payer(3 * SMALL_PRICE).await;
    let challenge = app.challenge("/api/arcade/chips").await;
    let (payment, _) = sign_payment(&challenge, &payer, |_| {});
    let replies = join_all((0..16).map(|_| app.buy("/api/arcade/chips", Some(&payment)))).await;
    let settled = replies.iter().filter(|r| r.status == 200).count();
    assert_eq!(settled, 1, "exactly one copy settles");
    for reply in replies.iter().filter(|r| r.status != 200) {
        // In flight (`settlement_pending`) or already settled, never a second settlement.
        let reason = reply.body["error"].as_str().unwrap_or_default();
        assert!(
            reply.status == 402
                && reply.body["code"] == "payment_already_used"
                && ["settlement_pending", "invalid_exact_evm_nonce_already_used"].contains(&reason),
            "{}",
            reply.body
        );
    }
    assert_eq!(app.chips(payer.address()).await, 1000);
    assert_eq!(
        app.token_balance(payer.address()).await,
        U256::from(2 * SMALL_PRICE)
    );
    // Two different authorizations from one payer at once: both settle (the house sends in
    // nonce order).
    let payments: Vec<String> = (0..2)
        .map(|_| sign_payment(&challenge, &payer, |_| {}).0)
        .collect();
    let replies = join_all(
        payments
            .iter()
            .map(|p| app.buy("/api/arcade/chips", Some(p))),
    )
    .await;
    assert!(
        replies.iter().all(|r| r.status == 200),
        "distinct payments all settle"
    );
    assert_eq!(app.chips(payer.address()).await, 3000);
    assert_eq!(app.token_balance(payer.address()).await, U256::ZERO);
}
paid_on_both_backends!(sixteen_copies_of_one_payment_settle_once);

/// The receipt does not come within the settle timeout: the buyer hears `settlement_pending`
/// with the hash, the transaction is dropped from the pool, the reconciler rebroadcasts the
/// same signed transaction, and once mined the chips are credited exactly once.
async fn a_late_settlement_is_reconciled_once(backend: Backend) {
    let app = PaidApp::spawn_with(backend, |s| s.chain.settle_timeout_ms = 1_000).await;
    let payer = app.payer(SMALL_PRICE).await;
    let challenge = app.challenge("/api/arcade/chips").await;
    let (payment, authorization) = sign_payment(&challenge, &payer, |_| {});

    app.anvil("evm_setAutomine", json!([false])).await;
    let reply = app.buy("/api/arcade/chips", Some(&payment)).await;
    reply.refused("settlement_pending");
    let tx_hash = reply.body["transaction"].as_str().unwrap().to_owned();
    assert_eq!(
        reply.header_json("payment-response")["transaction"],
        tx_hash.as_str()
    );
    assert_eq!(
        app.chips(payer.address()).await,
        0,
        "nothing credited before the receipt"
    );
    let replay = app.buy("/api/arcade/chips", Some(&payment)).await;
    replay.refused("settlement_pending");
    assert_eq!(
        replay.body["transaction"],
        tx_hash.as_str(),
        "do not pay again"
    );

    app.anvil("anvil_dropTransaction", json!([tx_hash])).await;
    let pass = app.arcade.reconcile.payments(Duration::ZERO).await.unwrap();
    assert_eq!(pass.rebroadcast, 1, "{pass:?}");
    app.anvil("evm_mine", json!([])).await;
    let pass = app.arcade.reconcile.payments(Duration::ZERO).await.unwrap();
    assert_eq!(pass.credited, 1, "{pass:?}");
    let again = app.arcade.reconcile.payments(Duration::ZERO).await.unwrap();
    assert_eq!(again.credited, 0, "{again:?}");

    assert_eq!(app.chips(payer.address()).await, 1000);
    assert_eq!(app.token_balance(payer.address()).await, U256::ZERO);
    assert!(
        app.authorization_used(payer.address(), authorization.nonce)
            .await
    );
    let rows = payment::Entity::find()
        .filter(payment::Column::State.eq(PaymentState::Settled))
        .all(&app.arcade.db)
        .await
        .unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].tx_hash.as_deref(), Some(tx_hash.as_str()));
    app.audit().await;
}

mod a_late_settlement_is_reconciled_once {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        a_late_settlement_is_reconciled_once(Backend::Sqlite).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        a_late_settlement_is_reconciled_once(Backend::Postgres).await;
    }
}

async fn the_manifest_lists_what_is_for_sale(app: &PaidApp) {
    let manifest = app.get("/api/arcade/manifest").await.ok();
    let urls: Vec<&Value> = manifest["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["url"])
        .collect();
    let well_known = app.get("/.well-known/x402").await.ok();
    assert_eq!(
        well_known["resources"]
            .as_array()
            .unwrap()
            .iter()
            .collect::<Vec<_>>(),
        urls,
        "the indexers' document lists the manifest's resources"
    );
    assert_eq!(manifest["x402_version"], 2);
    assert_eq!(manifest["network"], "eip155:31337");
    assert_eq!(manifest["asset"], app.devnet.token.to_checksum(None));
    assert_eq!(manifest["pay_to"], app.house().to_checksum(None));
    assert_eq!(manifest["token"]["name"], "Arcade Test Dollar");
    let resources = manifest["resources"].as_array().unwrap();
    let summary: Vec<(String, u64, String, String)> = resources
        .iter()
        .map(|r| {
            (
                r["path"].as_str().unwrap().to_owned(),
                r["chips"].as_u64().unwrap(),
                r["price_usd"].as_str().unwrap().to_owned(),
                r["amount"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let expected = [
        ("/api/arcade/chips", 1000, "0.10", "100000"),
        ("/api/arcade/chips/micro", 100, "0.01", "10000"),
        ("/api/arcade/chips/small", 1000, "0.10", "100000"),
        ("/api/arcade/chips/medium", 10000, "1.00", "1000000"),
    ]
    .map(|(p, c, u, a)| (p.to_owned(), c, u.to_owned(), a.to_owned()));
    assert_eq!(summary, expected);
    // Each resource's offer is the one its 402 makes.
    for resource in resources {
        let challenge = app.challenge(resource["path"].as_str().unwrap()).await;
        assert_eq!(resource["accepts"], challenge["accepts"]);
    }
}
paid_on_both_backends!(the_manifest_lists_what_is_for_sale);

/// Browsers may pay from any origin: the preflight allows the payment headers.
async fn browsers_may_send_payments(app: &PaidApp) {
    let preflight = app
        .client
        .request(
            reqwest::Method::OPTIONS,
            format!("{}/api/arcade/chips", app.base_url),
        )
        .header("origin", "https://agent.example")
        .header("access-control-request-method", "POST")
        .header(
            "access-control-request-headers",
            "payment-signature, access-control-expose-headers",
        )
        .send()
        .await
        .unwrap();
    assert_eq!(preflight.status().as_u16(), 204);
    let allowed = preflight.headers()["access-control-allow-headers"]
        .to_str()
        .unwrap();
    for header in [
        "payment-signature",
        "x-payment",
        "access-control-expose-headers",
    ] {
        assert!(allowed.contains(header), "{header} allowed: {allowed}");
    }
    assert_eq!(preflight.headers()["access-control-allow-origin"], "*");
}
paid_on_both_backends!(browsers_may_send_payments);

#[tokio::test]
async fn without_a_chain_purchases_say_so() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    app.post("/api/arcade/chips", &json!({}))
        .await
        .error(503, "payments_unavailable");
    // The manifest still answers: every resource listed, none available, and why.
    let manifest = app.get("/api/arcade/manifest").await.ok();
    assert_eq!(manifest["available"], false, "{manifest}");
    assert!(
        manifest["unavailable_reason"]
            .as_str()
            .unwrap()
            .contains("no chain")
    );
    let resources = manifest["resources"].as_array().unwrap();
    assert_eq!(resources.len(), 4);
    assert!(
        resources
            .iter()
            .all(|r| r["available"] == false && r["accepts"] == json!([]))
    );
    // The indexers' document lists them too, and publishes no proof without a chain.
    let well_known = app.get("/.well-known/x402").await.ok();
    assert_eq!(well_known["resources"].as_array().unwrap().len(), 4);
    assert!(well_known.get("ownershipProofs").is_none(), "{well_known}");
    let _: Value = app.get("/api/arcade/games").await.ok();
}
