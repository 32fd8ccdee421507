//! Cashouts on a real chain: tokens arrive and the house pays the gas; refusals debit nothing;
//! a send that cannot happen refunds; a transfer that reverts or loses its nonce refunds once;
//! concurrent cashouts never overdraw. After each: the chain and the ledger agree.

use std::time::Duration;

use alloy::network::TransactionBuilder;
use alloy::primitives::{U256, keccak256};
use alloy::providers::{Provider, ProviderBuilder};
use alloy::rpc::types::TransactionRequest;
use alloy::signers::local::PrivateKeySigner;
use alloy::sol_types::SolValue;
use arcade_server::entities::{cashout, ledger};
use futures::future::join_all;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::json;

use crate::helpers::{Backend, sign};
use crate::paid_on_both_backends;
use crate::paying::PaidApp;

/// A player holding 1000 purchased chips (and no ETH).
async fn player_with_chips(app: &PaidApp) -> PrivateKeySigner {
    let player = app.payer(100_000).await;
    app.buy_chips(&player, "small").await;
    player
}

async fn ledger_kinds(app: &PaidApp, reference: &str) -> Vec<String> {
    ledger::Entity::find()
        .filter(ledger::Column::Reference.eq(reference))
        .all(&app.arcade.db)
        .await
        .unwrap()
        .into_iter()
        .map(|e| e.kind)
        .collect()
}

async fn a_cashout_pays_the_player_and_the_house_pays_gas(app: &PaidApp) {
    let player = player_with_chips(app).await;
    let house_tokens = app.token_balance(app.house()).await;
    let house_eth = app.eth_balance(app.house()).await;

    let receipt = app.cash_out(&player, 400).await.ok();
    assert_eq!(receipt["status"], "confirmed", "{receipt}");
    assert_eq!(receipt["chips"], 400);
    assert_eq!(receipt["amount"], "40000");
    assert_eq!(receipt["balance"], 600);
    assert_eq!(receipt["address"], player.address().to_checksum(None));
    assert_eq!(receipt["network"], "eip155:31337");

    assert_eq!(
        app.token_balance(player.address()).await,
        U256::from(40_000u64)
    );
    assert_eq!(
        app.token_balance(app.house()).await,
        house_tokens - U256::from(40_000u64)
    );
    assert_eq!(
        app.eth_balance(player.address()).await,
        U256::ZERO,
        "the player paid no gas"
    );
    assert!(
        app.eth_balance(app.house()).await < house_eth,
        "the house did"
    );
    let chain = ProviderBuilder::new().connect_http(app.devnet.rpc_url().parse().unwrap());
    let tx = chain
        .get_transaction_receipt(receipt["tx_hash"].as_str().unwrap().parse().unwrap())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(tx.from, app.house());

    let id = receipt["cashout_id"].as_i64().unwrap();
    let status = app.get(&format!("/api/arcade/cashout/{id}")).await.ok();
    assert_eq!(status["status"], "confirmed");
    assert_eq!(
        ledger_kinds(app, &format!("cashout:{id}")).await,
        ["cashout"]
    );
    let house = app.get("/api/arcade/house").await.ok();
    assert_eq!(house["cashouts"]["confirmed"]["chips"], 400, "{house}");
    assert_eq!(house["cashouts"]["confirmed"]["count"], 1, "{house}");
}
paid_on_both_backends!(a_cashout_pays_the_player_and_the_house_pays_gas);

async fn refused_cashouts_debit_nothing(app: &PaidApp) {
    let player = player_with_chips(app).await;
    app.cash_out(&player, 99)
        .await
        .error(400, "cashout_out_of_range");
    app.cash_out(&player, 250_001)
        .await
        .error(400, "cashout_out_of_range");
    app.cash_out(&player, 1_001)
        .await
        .error(400, "insufficient_chips");

    let statement_of =
        |who: &PrivateKeySigner| format!("/api/arcade/auth-statement/{}", who.address());
    app.post(
        "/api/arcade/cashout",
        &json!({ "address": player.address(), "chips": 100 }),
    )
    .await
    .error(401, "signature_required");
    let stranger = PrivateKeySigner::random();
    let statement = app.get(&statement_of(&player)).await.ok();
    let foreign = sign(&stranger, statement["statement"].as_str().unwrap());
    app.post(
        "/api/arcade/cashout",
        &json!({ "address": player.address(), "chips": 100, "signature": foreign }),
    )
    .await
    .error(403, "signature_mismatch");
    app.post(
        "/api/arcade/cashout",
        &json!({ "address": player.address(), "chips": "100" }),
    )
    .await
    .invalid(&[json!("body"), json!("chips")], "int_type");

    // Free chips alone cannot be cashed out.
    let freeloader = PrivateKeySigner::random();
    app.claim_free(&freeloader).await;
    app.cash_out(&freeloader, 100)
        .await
        .error(400, "buy_in_required");

    assert_eq!(app.chips(player.address()).await, 1000);
    assert_eq!(app.chips(freeloader.address()).await, 100);
    assert_eq!(app.token_balance(player.address()).await, U256::ZERO);
    assert!(
        cashout::Entity::find()
            .all(&app.arcade.db)
            .await
            .unwrap()
            .is_empty()
    );
}
paid_on_both_backends!(refused_cashouts_debit_nothing);

async fn a_house_without_tokens_refunds(app: &PaidApp) {
    let player = player_with_chips(app).await;
    // The house sends almost all its tokens away: less than the 0.10 being cashed out remain.
    let held = app.token_balance(app.house()).await;
    let house = ProviderBuilder::new()
        .wallet(app.devnet.house.clone())
        .connect_http(app.devnet.rpc_url().parse().unwrap());
    arcade_server::chain::token::DollarToken::new(app.devnet.token, &house)
        .transfer(
            PrivateKeySigner::random().address(),
            held - U256::from(99_999u64),
        )
        .send()
        .await
        .unwrap()
        .get_receipt()
        .await
        .unwrap();

    let refused = app.cash_out(&player, 1000).await;
    let body = refused.error(502, "cashout_failed");
    assert_eq!(body["status"], "failed");
    assert_eq!(body["balance"], 1000, "refunded: {body}");
    assert_eq!(app.chips(player.address()).await, 1000);
    assert_eq!(app.token_balance(player.address()).await, U256::ZERO);
    let id = body["cashout_id"].as_i64().unwrap();
    assert_eq!(
        ledger_kinds(app, &format!("cashout:{id}")).await,
        ["cashout", "refund"]
    );
}
paid_on_both_backends!(a_house_without_tokens_refunds);

async fn a_house_without_gas_refunds(app: &PaidApp) {
    let player = player_with_chips(app).await;
    app.anvil("anvil_setBalance", json!([app.house(), "0x0"]))
        .await;
    let body = app
        .cash_out(&player, 1000)
        .await
        .error(502, "cashout_failed");
    assert_eq!(
        (body["status"].as_str(), body["balance"].as_i64()),
        (Some("failed"), Some(1000))
    );
    assert!(
        body["error"].as_str().unwrap().contains("would fail"),
        "{body}"
    );
    assert_eq!(app.token_balance(player.address()).await, U256::ZERO);
}
paid_on_both_backends!(a_house_without_gas_refunds);

async fn a_cashout_while_the_rpc_is_down_refunds(app: &PaidApp) {
    let player = player_with_chips(app).await;
    app.proxy.set_up(false);
    let body = app
        .cash_out(&player, 300)
        .await
        .error(503, "chain_unavailable");
    app.proxy.set_up(true);
    assert_eq!(
        (body["status"].as_str(), body["balance"].as_i64()),
        (Some("failed"), Some(1000))
    );
    assert_eq!(app.token_balance(player.address()).await, U256::ZERO);
    // Back up, a cashout goes through.
    assert_eq!(app.cash_out(&player, 300).await.ok()["status"], "confirmed");
    assert_eq!(
        app.token_balance(player.address()).await,
        U256::from(30_000u64)
    );
}
paid_on_both_backends!(a_cashout_while_the_rpc_is_down_refunds);

async fn sixteen_cashouts_on_a_balance_for_five(app: &PaidApp) {
    let player = player_with_chips(app).await;
    // 1000 chips, 200 each: five fit.
    let signature = app.sign_statement(&player).await;
    let body = json!({ "address": player.address(), "chips": 200, "signature": signature });
    let replies = join_all((0..16).map(|_| app.post("/api/arcade/cashout", &body))).await;
    let paid: Vec<_> = replies.iter().filter(|r| r.status == 200).collect();
    assert_eq!(paid.len(), 5);
    assert!(paid.iter().all(|r| r.body["status"] == "confirmed"));
    for refused in replies.iter().filter(|r| r.status != 200) {
        assert_eq!(
            (refused.status, refused.body["code"].as_str()),
            (400, Some("insufficient_chips")),
            "{}",
            refused.body
        );
    }
    assert_eq!(app.chips(player.address()).await, 0);
    assert_eq!(
        app.token_balance(player.address()).await,
        U256::from(100_000u64)
    );
}
paid_on_both_backends!(sixteen_cashouts_on_a_balance_for_five);

/// Storage slot of `balanceOf[owner]` in the test dollar (`balanceOf` is its second variable).
fn balance_slot(owner: alloy::primitives::Address) -> U256 {
    U256::from_be_bytes(keccak256((owner, U256::from(1)).abi_encode()).0)
}

/// Broadcast, then the house's tokens vanish before it is mined: the transfer reverts on-chain,
/// and the reconciler refunds it once.
async fn a_transfer_that_reverts_is_refunded(backend: Backend) {
    let app = PaidApp::spawn_with(backend, |s| s.chain.settle_timeout_ms = 500).await;
    let player = player_with_chips(&app).await;
    app.anvil("evm_setAutomine", json!([false])).await;
    let sent = app.cash_out(&player, 500).await.ok();
    assert_eq!(sent["status"], "sent", "{sent}");
    assert_eq!(sent["balance"], 500);
    let slot = balance_slot(app.house());
    app.anvil(
        "anvil_setStorageAt",
        json!([
            app.devnet.token,
            format!("{slot:#066x}"),
            format!("{:#066x}", 0)
        ]),
    )
    .await;
    app.anvil("evm_mine", json!([])).await;
    let pass = app.arcade.reconcile_cashouts(Duration::ZERO).await.unwrap();
    assert_eq!(pass.refunded, 1, "{pass:?}");
    let again = app.arcade.reconcile_cashouts(Duration::ZERO).await.unwrap();
    assert_eq!(again.refunded, 0, "refunded once: {again:?}");
    let id = sent["cashout_id"].as_i64().unwrap();
    let status = app.get(&format!("/api/arcade/cashout/{id}")).await.ok();
    assert_eq!(status["status"], "failed");
    assert_eq!(app.chips(player.address()).await, 1000);
    assert_eq!(app.token_balance(player.address()).await, U256::ZERO);
    app.audit().await;
}

/// Broadcast, then dropped from the pool and its nonce used by another house transaction: it
/// can never be mined, so the reconciler refunds it.
async fn a_transfer_whose_nonce_is_taken_is_refunded(backend: Backend) {
    let app = PaidApp::spawn_with(backend, |s| s.chain.settle_timeout_ms = 500).await;
    let player = player_with_chips(&app).await;
    app.anvil("evm_setAutomine", json!([false])).await;
    let sent = app.cash_out(&player, 500).await.ok();
    assert_eq!(sent["status"], "sent", "{sent}");
    let id = sent["cashout_id"].as_i64().unwrap();
    app.anvil("anvil_dropTransaction", json!([sent["tx_hash"]]))
        .await;
    let row = cashout::Entity::find_by_id(id)
        .one(&app.arcade.db)
        .await
        .unwrap()
        .unwrap();
    let house = ProviderBuilder::new()
        .wallet(app.devnet.house.clone())
        .connect_http(app.devnet.rpc_url().parse().unwrap());
    let other = TransactionRequest::default()
        .with_to(app.house())
        .with_value(U256::from(1))
        .with_nonce(u64::try_from(row.tx_nonce.unwrap()).unwrap());
    let pending = house.send_transaction(other).await.unwrap();
    app.anvil("evm_mine", json!([])).await;
    pending.get_receipt().await.unwrap();

    let pass = app.arcade.reconcile_cashouts(Duration::ZERO).await.unwrap();
    assert_eq!(pass.refunded, 1, "{pass:?}");
    assert_eq!(app.chips(player.address()).await, 1000);
    assert_eq!(app.token_balance(player.address()).await, U256::ZERO);
    app.audit().await;
}

mod chain_side_failures {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn reverted_sqlite() {
        a_transfer_that_reverts_is_refunded(Backend::Sqlite).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn reverted_postgres() {
        a_transfer_that_reverts_is_refunded(Backend::Postgres).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn nonce_taken_sqlite() {
        a_transfer_whose_nonce_is_taken_is_refunded(Backend::Sqlite).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn nonce_taken_postgres() {
        a_transfer_whose_nonce_is_taken_is_refunded(Backend::Postgres).await;
    }
}
