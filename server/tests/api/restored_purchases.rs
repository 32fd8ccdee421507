//! A purchase the database forgot: the house settled it, then the database was restored from a
//! backup taken before it (`payments`, `ledger`, `wallets` put back in place, under the running
//! instance), and the payer, whose answer was lost, presents the same payment again. The chain
//! proves it paid: the tier is credited once, with the original transaction, over REST (with
//! and without `payment-identifier`), after the authorization expired, and over MCP. Each ends
//! with the audit: chips in = money received.

use std::time::Duration;

use alloy::primitives::U256;
use sea_orm::{ConnectionTrait, Statement};
use serde_json::{Value, json};

use crate::mcp_client::{McpSession, structured};
use crate::mcp_purchases::{challenge, pay, signed};
use crate::paid_on_both_backends;
use crate::paying::{PaidApp, Reply, decode, encode, sign_payment};

pub const MEDIUM: &str = "/api/arcade/chips/medium";
pub const MEDIUM_PRICE: u64 = 1_000_000;
const MEDIUM_CHIPS: i64 = 10_000;

/// Tables the backup copies, parents first (restored in this order, emptied in the reverse).
const TABLES: [&str; 3] = ["wallets", "ledger", "payments"];

/// The money tables copied aside in the database itself.
pub async fn backup(app: &PaidApp) {
    for table in TABLES {
        let copy = format!("CREATE TABLE backup_{table} AS SELECT * FROM {table}");
        app.arcade.db.execute_unprepared(&copy).await.unwrap();
    }
}

/// The copies put back in place of the tables, in one transaction.
pub async fn restore(app: &PaidApp) {
    let db = &app.arcade.db;
    let emptied = TABLES.iter().rev().map(|t| format!("DELETE FROM {t}"));
    let refilled = TABLES
        .iter()
        .map(|t| format!("INSERT INTO {t} SELECT * FROM backup_{t}"));
    let txn = sea_orm::TransactionTrait::begin(db).await.unwrap();
    for statement in emptied.chain(refilled) {
        txn.execute_raw(Statement::from_string(db.get_database_backend(), statement))
            .await
            .unwrap();
    }
    txn.commit().await.unwrap();
}

/// Asserts a 200 purchase of the medium tier paid by `tx_hash`.
fn assert_bought(reply: &Reply, tx_hash: &Value) {
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.body["chips_credited"], MEDIUM_CHIPS, "{}", reply.body);
    assert_eq!(reply.body["tx_hash"], *tx_hash, "the original transaction");
    let settlement = reply.header_json("payment-response");
    assert_eq!(settlement["success"], true);
    assert_eq!(settlement["transaction"], *tx_hash);
}

/// The payment bought before the restore; presented again, it is credited from the chain.
/// Returns the answer to the presentation after the restore.
async fn bought_forgotten_and_presented_again(app: &PaidApp, payment: &str) -> Reply {
    let payer: alloy::primitives::Address = decode(payment)["payload"]["authorization"]["from"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    let first = app.buy(MEDIUM, Some(payment)).await;
    assert_eq!(first.status, 200, "{}", first.body);
    restore(app).await;
    assert_eq!(app.chips(payer).await, 0, "the restore forgot the purchase");

    let again = app.buy(MEDIUM, Some(payment)).await;
    assert_bought(&again, &first.body["tx_hash"]);
    assert_eq!(again.body["balance"], MEDIUM_CHIPS);
    assert_eq!(app.chips(payer).await, MEDIUM_CHIPS);
    again
}

async fn a_forgotten_purchase_is_credited_once_from_the_chain(app: &PaidApp) {
    let payer = app.payer(MEDIUM_PRICE).await;
    backup(app).await;
    let (payment, _) = sign_payment(&app.challenge(MEDIUM).await, &payer, |_| {});
    let again = bought_forgotten_and_presented_again(app, &payment).await;

    // Once more: the row now holds it settled, so it answers as any replay, crediting nothing.
    let replay = app.buy(MEDIUM, Some(&payment)).await;
    replay.refused("invalid_exact_evm_nonce_already_used");
    assert_eq!(replay.body["state"], "settled");
    assert_eq!(replay.body["tx_hash"], again.body["tx_hash"]);
    assert_eq!(app.chips(payer.address()).await, MEDIUM_CHIPS);
    assert_eq!(app.token_balance(payer.address()).await, U256::ZERO);
}
paid_on_both_backends!(a_forgotten_purchase_is_credited_once_from_the_chain);

async fn a_forgotten_identified_purchase_answers_the_same_purchase_again(app: &PaidApp) {
    let payer = app.payer(MEDIUM_PRICE).await;
    backup(app).await;
    let mut payment = decode(&sign_payment(&app.challenge(MEDIUM).await, &payer, |_| {}).0);
    payment["extensions"]["payment-identifier"]["info"]["id"] = json!("pay_restored_0123456789");
    let payment = encode(&payment);
    let again = bought_forgotten_and_presented_again(app, &payment).await;

    let replay = app.buy(MEDIUM, Some(&payment)).await;
    assert_eq!(replay.status, 200, "{}", replay.body);
    assert_eq!(replay.body, again.body, "the same purchase");
    assert_eq!(app.chips(payer.address()).await, MEDIUM_CHIPS);
}
paid_on_both_backends!(a_forgotten_identified_purchase_answers_the_same_purchase_again);

/// After `validBefore` the payment is still proven from the chain; an expired authorization
/// whose nonce is unused stays refused as expired, and reserves nothing.
async fn a_forgotten_purchase_is_credited_after_its_authorization_expired(app: &PaidApp) {
    let payer = app.payer(2 * MEDIUM_PRICE).await;
    backup(app).await;
    let challenge = app.challenge(MEDIUM).await;
    let soon = |a: &mut arcade_server::chain::token::TransferWithAuthorization| {
        a.validBefore = U256::from(chrono::Utc::now().timestamp() + 8);
    };
    let (payment, paid) = sign_payment(&challenge, &payer, soon);
    let (unused, _) = sign_payment(&challenge, &payer, soon);
    let first = app.buy(MEDIUM, Some(&payment)).await;
    assert_eq!(first.status, 200, "{}", first.body);
    restore(app).await;

    let expiry = u64::try_from(paid.validBefore).unwrap();
    let now = u64::try_from(chrono::Utc::now().timestamp()).unwrap();
    tokio::time::sleep(Duration::from_secs(expiry.saturating_sub(now) + 1)).await;
    app.advance_chain_time(60).await;

    app.buy(MEDIUM, Some(&unused))
        .await
        .refused("invalid_exact_evm_payload_authorization_valid_before");
    let again = app.buy(MEDIUM, Some(&payment)).await;
    assert_bought(&again, &first.body["tx_hash"]);
    assert_eq!(app.chips(payer.address()).await, MEDIUM_CHIPS);
    app.buy(MEDIUM, Some(&payment))
        .await
        .refused("invalid_exact_evm_nonce_already_used");
    assert_eq!(app.chips(payer.address()).await, MEDIUM_CHIPS);
    assert_eq!(
        app.token_balance(payer.address()).await,
        U256::from(MEDIUM_PRICE),
        "the unused authorization moved nothing"
    );
}
paid_on_both_backends!(a_forgotten_purchase_is_credited_after_its_authorization_expired);

async fn a_forgotten_purchase_is_credited_through_mcp(app: &PaidApp) {
    let session = McpSession::open(&app.base_url).await;
    let payer = app.payer(MEDIUM_PRICE).await;
    backup(app).await;
    let payment = signed(&challenge(&session, "medium").await, &payer);
    let bought = pay(&session, "medium", &payment).await;
    let first = structured(&bought);
    restore(app).await;

    let result = pay(&session, "medium", &payment).await;
    let purchase = structured(&result);
    assert_eq!(purchase["chips_credited"], MEDIUM_CHIPS);
    assert_eq!(
        purchase["tx_hash"], first["tx_hash"],
        "the original transaction"
    );
    let settlement = &result["_meta"]["x402/payment-response"];
    assert_eq!(settlement["success"], true);
    assert_eq!(settlement["transaction"], first["tx_hash"]);
    assert_eq!(app.chips(payer.address()).await, MEDIUM_CHIPS);
    let again = pay(&session, "medium", &payment).await;
    assert_eq!(again["structuredContent"]["state"], "settled", "{again}");
    assert_eq!(app.chips(payer.address()).await, MEDIUM_CHIPS);
}
paid_on_both_backends!(a_forgotten_purchase_is_credited_through_mcp);
