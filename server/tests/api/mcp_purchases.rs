//! Chips bought inside MCP (`arcade_buy_chips`, the x402 MCP transport) on a real anvil: the
//! challenge as a tool error, a payment in `_meta["x402/payment"]` settled by the purchase
//! path REST uses, with `_meta["x402/payment-response"]`; the same payment again refused as
//! REST refuses it; the same-nonce front-run during the request; a settlement still in flight.
//! Every refusal of a presented payment carries the failed settlement in
//! `_meta["x402/payment-response"]`, as REST's 402 carries it in `PAYMENT-RESPONSE`. Each ends
//! with the audit: chips in = money received.

use alloy::signers::local::PrivateKeySigner;
use arcade_server::entities::payment;
use arcade_server::entities::payment::PaymentState;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::{Value, json};

use crate::chain_control::same_nonce_to;
use crate::helpers::Backend;
use crate::mcp_client::{McpSession, structured, tool_error};
use crate::paying::{PaidApp, decode, sign_payment};

pub const TOOL: &str = "arcade_buy_chips";

/// The tool's answer without a payment: the `PaymentRequired`, checked as the transport
/// requires it (`isError`, `structuredContent`, the same JSON in `content[0].text`).
pub async fn challenge(session: &McpSession, tier: &str) -> Value {
    let result = session.call(TOOL, json!({ "tier": tier })).await;
    assert_eq!(result["isError"], true, "{result}");
    let required = result["structuredContent"].clone();
    let text: Value = serde_json::from_str(result["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(text, required);
    assert_eq!(required["x402Version"], 2);
    assert_eq!(required["code"], "payment_required");
    assert!(
        result["_meta"]["x402/payment-response"].is_null(),
        "no payment, no settlement: {result}"
    );
    required
}

/// The failed settlement of a refused payment, as the official x402 MCP server sends it:
/// `success: false`, the refusal's reason, the payer, the network, and `transaction`.
pub fn failed_settlement(result: &Value, reason: &str, payer: &PrivateKeySigner) -> Value {
    assert_eq!(result["isError"], true, "{result}");
    assert_eq!(result["structuredContent"]["error"], reason);
    let settlement = result["_meta"]["x402/payment-response"].clone();
    assert_eq!(settlement["success"], false, "{result}");
    assert_eq!(settlement["errorReason"], reason);
    assert_eq!(settlement["payer"], payer.address().to_checksum(None));
    let offer = &result["structuredContent"]["accepts"][0];
    assert_eq!(settlement["network"], offer["network"]);
    assert!(settlement["transaction"].is_string(), "{settlement}");
    settlement
}

/// The tool called with `payment` (a payment header's JSON) in `_meta["x402/payment"]`.
pub async fn pay(session: &McpSession, tier: &str, payment: &Value) -> Value {
    let meta = json!({ "x402/payment": payment });
    session
        .call_with_meta(TOOL, json!({ "tier": tier }), meta)
        .await
}

/// A payment for the tool's challenge, as its JSON.
pub fn signed(required: &Value, payer: &PrivateKeySigner) -> Value {
    decode(&sign_payment(required, payer, |_| {}).0)
}

async fn a_purchase_over_mcp_settles_as_rest_does(backend: Backend) {
    let app = PaidApp::spawn(backend).await;
    let session = McpSession::open(&app.base_url).await;
    let required = challenge(&session, "small").await;
    let rest = app.challenge("/api/arcade/chips/small").await;
    assert_eq!(required["accepts"], rest["accepts"], "the same offer");
    assert_eq!(required["resource"]["url"], "mcp://tool/arcade_buy_chips");
    assert_eq!(
        required["extensions"]["payment-identifier"]["info"],
        json!({ "required": false })
    );
    let input = &required["extensions"]["bazaar"]["info"]["input"];
    assert_eq!(
        (&input["type"], &input["toolName"], &input["transport"]),
        (&json!("mcp"), &json!(TOOL), &json!("streamable-http"))
    );
    assert_eq!(input["example"], json!({ "tier": "small" }));

    let payer = app.payer(100_000).await;
    let payment = signed(&required, &payer);
    let result = pay(&session, "small", &payment).await;
    let purchase = structured(&result);
    assert_eq!(purchase["chips_credited"], 1000);
    assert_eq!(purchase["address"], payer.address().to_checksum(None));
    let settlement = &result["_meta"]["x402/payment-response"];
    assert_eq!(settlement["success"], true);
    assert_eq!(settlement["transaction"], purchase["tx_hash"]);
    assert_eq!(settlement["payer"], purchase["address"]);
    assert!(
        result["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("1000 chips")
    );

    // The replay: the same payment again is refused as REST refuses it, and credits nothing.
    let again = pay(&session, "small", &payment).await;
    assert_eq!(tool_error(&again), "payment_already_used");
    let refusal = failed_settlement(&again, "invalid_exact_evm_nonce_already_used", &payer);
    assert_eq!(refusal["transaction"], purchase["tx_hash"]);
    assert_eq!(again["structuredContent"]["state"], "settled");
    assert_eq!(app.chips(payer.address()).await, 1000);
    app.audit().await;
}

/// REST's `a_front_run_during_the_request_is_refused`, through MCP: while the house's settlement
/// waits in the pool, the payer lands authorization B of the same nonce paying themself.
async fn a_front_run_during_an_mcp_purchase_is_refused(backend: Backend) {
    let app = PaidApp::spawn(backend).await;
    let session = McpSession::open(&app.base_url).await;
    let payer = app.payer(1_000_000).await;
    let required = challenge(&session, "medium").await;
    let (header, a) = sign_payment(&required, &payer, |_| {});
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
    let payment = decode(&header);
    let (result, b) = tokio::join!(pay(&session, "medium", &payment), attack);
    assert_eq!(tool_error(&result), "payment_refused");
    failed_settlement(&result, "invalid_exact_evm_nonce_already_used", &payer);
    let refusal = &result["structuredContent"];
    assert!(
        refusal["detail"].as_str().unwrap().contains(&b.to_string()),
        "{refusal}"
    );
    let row = payment::Entity::find()
        .filter(payment::Column::Payer.eq(format!("{:#x}", payer.address())))
        .one(&app.arcade.db)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(row.state, PaymentState::Failed);
    assert_eq!(app.chips(payer.address()).await, 0);
    app.automine(true).await;
    app.audit().await;
}

/// The settlement outlasts the settle timeout: the call is refused with `settlement_pending`
/// and the transaction in flight, distinguishable from a refusal as on REST; the same payment
/// again says the same (do not pay again), and nothing is credited before the receipt.
async fn a_pending_mcp_purchase_says_so(backend: Backend) {
    let app = PaidApp::spawn_with(backend, |s| s.chain.settle_timeout_ms = 1_000).await;
    let session = McpSession::open(&app.base_url).await;
    let payer = app.payer(10_000).await;
    let required = challenge(&session, "micro").await;
    let payment = signed(&required, &payer);
    app.automine(false).await;
    let pending = pay(&session, "micro", &payment).await;
    let settlement = failed_settlement(&pending, "settlement_pending", &payer);
    let tx_hash = pending["structuredContent"]["transaction"].clone();
    assert!(
        tx_hash.as_str().is_some_and(|tx| tx.len() == 66),
        "{pending}"
    );
    assert_eq!(settlement["transaction"], tx_hash);

    let again = pay(&session, "micro", &payment).await;
    let settlement = failed_settlement(&again, "settlement_pending", &payer);
    assert_eq!(settlement["transaction"], tx_hash, "do not pay again");
    assert_eq!(again["structuredContent"]["state"], "settling");
    assert_eq!(app.chips(payer.address()).await, 0);
    app.automine(true).await;
}

crate::on_both_backends_with_own_chain!(
    a_purchase_over_mcp_settles_as_rest_does,
    a_front_run_during_an_mcp_purchase_is_refused,
    a_pending_mcp_purchase_says_so,
);
