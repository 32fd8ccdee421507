//! Cashouts the chain fails after they were sent: a transfer that reverts, or whose nonce
//! another transaction takes, is refunded once; an RPC that lags behind the chain never leads
//! to a refund. After each: the chain and the ledger agree.

use std::time::Duration;

use alloy::primitives::{U256, keccak256};
use alloy::sol_types::SolValue;
use arcade_server::entities::cashout;
use sea_orm::EntityTrait;
use serde_json::{Value, json};

use crate::cashouts::{ledger_kinds, player_with_chips};
use crate::helpers::Backend;
use crate::paying::PaidApp;

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
    let pass = app.arcade.reconcile.cashouts(Duration::ZERO).await.unwrap();
    assert_eq!(pass.refunded, 1, "{pass:?}");
    let again = app.arcade.reconcile.cashouts(Duration::ZERO).await.unwrap();
    assert_eq!(again.refunded, 0, "refunded once: {again:?}");
    let id = sent["cashout_id"].as_i64().unwrap();
    let status = app.get(&format!("/api/arcade/cashout/{id}")).await.ok();
    assert_eq!(status["status"], "failed");
    assert_eq!(app.chips(player.address()).await, 1000);
    assert_eq!(app.token_balance(player.address()).await, U256::ZERO);
    app.audit().await;
}

/// Broadcast, then dropped from the pool; the next cashout takes its nonce and is mined. That
/// journalled transaction proves the first can never be mined, so the reconciler refunds it
/// (and confirms the second).
async fn a_transfer_whose_nonce_is_taken_is_refunded(backend: Backend) {
    let app = PaidApp::spawn_with(backend, |s| s.chain.settle_timeout_ms = 500).await;
    let player = player_with_chips(&app).await;
    app.anvil("evm_setAutomine", json!([false])).await;
    let first = app.cash_out(&player, 500).await.ok();
    assert_eq!(first["status"], "sent", "{first}");
    app.anvil("anvil_dropTransaction", json!([first["tx_hash"]]))
        .await;
    let second = app.cash_out(&player, 300).await.ok();
    assert_eq!(second["status"], "sent", "{second}");
    let nonce_of = |id: &Value| {
        let id = id.as_i64().unwrap();
        let db = app.arcade.db.clone();
        async move {
            cashout::Entity::find_by_id(id)
                .one(&db)
                .await
                .unwrap()
                .unwrap()
                .tx_nonce
        }
    };
    assert_eq!(
        nonce_of(&first["cashout_id"]).await,
        nonce_of(&second["cashout_id"]).await,
        "the second transfer took the first's nonce"
    );
    app.anvil("evm_mine", json!([])).await;

    let pass = app.arcade.reconcile.cashouts(Duration::ZERO).await.unwrap();
    assert_eq!((pass.refunded, pass.confirmed), (1, 1), "{pass:?}");
    assert_eq!(app.chips(player.address()).await, 700);
    assert_eq!(
        app.token_balance(player.address()).await,
        U256::from(30_000u64)
    );
    app.anvil("evm_setAutomine", json!([true])).await;
    app.audit().await;
}

/// An RPC that lags answers null for the receipt of a transfer that is mined: the house's nonce
/// reads used and the transfer seems gone. That proves nothing, so nothing is refunded; once
/// the receipt shows, the cashout is confirmed. (Refunding here would pay the player twice.)
async fn a_lagging_rpc_never_leads_to_a_refund(backend: Backend) {
    let app = PaidApp::spawn_with(backend, |s| s.chain.settle_timeout_ms = 500).await;
    let player = player_with_chips(&app).await;
    app.shim.hide_receipts(true);
    let sent = app.cash_out(&player, 500).await.ok();
    assert_eq!(sent["status"], "sent", "{sent}");
    let hash = sent["tx_hash"].as_str().unwrap().parse().unwrap();
    assert!(app.receipt(hash).await.status(), "mined all along");
    for _ in 0..3 {
        let pass = app.arcade.reconcile.cashouts(Duration::ZERO).await.unwrap();
        assert_eq!((pass.refunded, pass.waiting), (0, 1), "{pass:?}");
    }
    assert_eq!(app.chips(player.address()).await, 500);

    app.shim.hide_receipts(false);
    let pass = app.arcade.reconcile.cashouts(Duration::ZERO).await.unwrap();
    assert_eq!(pass.confirmed, 1, "{pass:?}");
    let id = sent["cashout_id"].as_i64().unwrap();
    assert_eq!(
        ledger_kinds(&app, &format!("cashout:{id}")).await,
        ["cashout"]
    );
    assert_eq!(
        app.token_balance(player.address()).await,
        U256::from(50_000u64)
    );
    assert_eq!(app.chips(player.address()).await, 500);
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

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn lagging_rpc_sqlite() {
        a_lagging_rpc_never_leads_to_a_refund(Backend::Sqlite).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn lagging_rpc_postgres() {
        a_lagging_rpc_never_leads_to_a_refund(Backend::Postgres).await;
    }
}
