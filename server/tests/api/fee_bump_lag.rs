//! A fee bump seen through a lagging RPC: the replacement is mined, but the RPC answers null for
//! every receipt and a transaction count from before it, so the reconciler sees a transfer in
//! no block, next in the queue, and replaces it again (the chain refuses: the nonce is used).
//! It must never refund on what the RPC does not show; once the RPC catches up, the mined
//! replacement pays the cashout, once, and the chain and the ledger agree.

#![allow(clippy::print_stdout)] // what each step saw, shown with --nocapture

use std::time::Duration;

use alloy::consensus::Transaction;
use alloy::primitives::{B256, U256};

use crate::cashouts::{ledger_kinds, player_with_chips};
use crate::fee_bump::{hash_of, journal_of, row, signed, status};
use crate::paid_on_both_backends_with;
use crate::paying::PaidApp;

async fn a_mined_replacement_hidden_by_a_lagging_rpc_is_never_refunded(app: &PaidApp) {
    let player = player_with_chips(app).await;
    app.automine(false).await;
    let answer = app.cash_out(&player, 500).await.ok();
    let original = row(app, &answer).await;
    let nonce = u64::try_from(original.tx_nonce.expect("signed")).unwrap();
    let base_fee = signed(&original).max_fee_per_gas() * 4;
    app.mine_at_base_fee(base_fee).await;

    // The reconciler replaces the underpriced transfer; the next block mines the replacement.
    let pass = app.arcade.reconcile.cashouts(Duration::ZERO).await.unwrap();
    assert_eq!(pass.replaced, 1, "{pass:?}");
    let replacement = hash_of(&row(app, &answer).await);
    app.mine_at_base_fee(base_fee).await;
    assert!(
        app.mined(replacement).await.is_some(),
        "the replacement is mined"
    );
    let tokens = app.token_balance(player.address()).await;
    assert_eq!(tokens, U256::from(50_000u64), "paid by the replacement");

    // The RPC lags: no receipts, and the house's transaction count from before the replacement.
    app.shim.hide_receipts(true);
    app.shim.stale_transaction_count(Some(nonce));
    for n in 0..3 {
        let pass = app.arcade.reconcile.cashouts(Duration::ZERO).await.unwrap();
        println!("pass {n} through the lagging RPC: {pass:?}");
        assert_eq!((pass.refunded, pass.confirmed), (0, 0), "{pass:?}");
        assert_eq!(status(app, &answer).await, "sent");
        app.mine_at_base_fee(base_fee).await;
    }
    let reference = format!("cashout:{}", answer["cashout_id"]);
    assert_eq!(
        ledger_kinds(app, &reference).await,
        ["cashout"],
        "no refund while lagging"
    );
    let journal = journal_of(app, &answer).await;
    println!(
        "journalled while lagging: {:?}",
        journal.iter().map(|t| &t.hash).collect::<Vec<_>>()
    );
    assert!(journal.len() >= 2, "{journal:?}");
    assert!(
        journal
            .iter()
            .all(|t| t.nonce == original.tx_nonce.unwrap()),
        "one nonce: {journal:?}"
    );

    // The RPC catches up: the mined replacement pays the cashout, whatever the row named since.
    app.shim.hide_receipts(false);
    app.shim.stale_transaction_count(None);
    let pass = app.arcade.reconcile.cashouts(Duration::ZERO).await.unwrap();
    println!("pass after the RPC caught up: {pass:?}");
    assert_eq!((pass.confirmed, pass.refunded), (1, 0), "{pass:?}");
    assert_eq!(status(app, &answer).await, "confirmed");
    let landed = row(app, &answer).await;
    assert_eq!(hash_of(&landed), replacement, "the row names the mined one");
    let mined: Vec<B256> = {
        let mut mined = Vec::new();
        for entry in journal_of(app, &answer).await {
            let hash: B256 = entry.hash.parse().unwrap();
            if app.mined(hash).await.is_some() {
                mined.push(hash);
            }
        }
        mined
    };
    assert_eq!(
        mined,
        [replacement],
        "exactly one transaction of the nonce is mined"
    );
    assert_eq!(
        app.transfers_to(player.address()).await,
        [(replacement, U256::from(50_000u64))],
        "paid once"
    );
    assert_eq!(
        ledger_kinds(app, &reference).await,
        ["cashout"],
        "no refund"
    );
    app.automine(true).await;
    let later = app.cash_out(&player, 100).await.ok();
    assert_eq!(later["status"], "confirmed", "the queue moves: {later}");
}
paid_on_both_backends_with!(
    a_mined_replacement_hidden_by_a_lagging_rpc_is_never_refunded,
    |s| {
        s.chain.settle_timeout_ms = 500;
        s.chain.fee_bump_after_ms = 0;
    }
);
