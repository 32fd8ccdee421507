//! A purchase's settlement whose fee the chain outgrows: the base fee rises above the max fee
//! the house signed it with, so no block includes it (anvil keeps it pooled), and it holds the
//! house key's next nonce, so a cashout signed after it waits too. The reconciler signs the
//! settlement again with the same nonce and call at a higher fee, journalled beside the
//! original before its broadcast; one of them is mined, the payment is credited once, and the
//! cashout behind it lands. Ends with the ledger audit and the chain audit.

#![allow(clippy::print_stdout)] // what each step saw, shown with --nocapture

use std::time::Duration;

use alloy::consensus::{Transaction, TxEnvelope};
use alloy::eips::eip2718::Decodable2718;
use alloy::primitives::{B256, U256};
use arcade_server::entities::{house_transaction, payment};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder};

use crate::cashouts::player_with_chips;
use crate::fee_bump::status;
use crate::paid_on_both_backends_with;
use crate::paying::{PaidApp, sign_payment};

fn signed(raw: &str) -> TxEnvelope {
    let raw = alloy::hex::decode(raw).unwrap();
    TxEnvelope::decode_2718(&mut raw.as_slice()).expect("a signed transaction")
}

async fn payment_of(app: &PaidApp, payer: alloy::primitives::Address) -> payment::Model {
    payment::Entity::find()
        .filter(payment::Column::Payer.eq(format!("{payer:#x}")))
        .one(&app.arcade.db)
        .await
        .unwrap()
        .expect("the payment's row")
}

async fn an_underpriced_settlement_is_replaced_and_credited_once(app: &PaidApp) {
    let player = player_with_chips(app).await;
    let payer = app.payer(100_000).await;
    app.automine(false).await;
    let challenge = app.challenge("/api/arcade/chips/small").await;
    let (payment, _) = sign_payment(&challenge, &payer, |_| {});
    let bought = app.buy("/api/arcade/chips/small", Some(&payment)).await;
    println!(
        "purchase answered {} {}",
        bought.status, bought.body["code"]
    );
    let cashout = app.cash_out(&player, 300).await.ok();
    assert_eq!(cashout["status"], "sent", "{cashout}");

    let original = payment_of(app, payer.address()).await;
    let original_tx = signed(original.raw_tx.as_deref().expect("signed"));
    let original_hash: B256 = original.tx_hash.as_deref().unwrap().parse().unwrap();
    let nonce = original_tx.nonce();
    let base_fee = original_tx.max_fee_per_gas() * 4;
    app.mine_at_base_fee(base_fee).await;
    assert!(
        app.mined(original_hash).await.is_none(),
        "a block took a settlement below its base fee"
    );
    println!(
        "settlement: nonce {nonce}, max fee {} wei, tx {original_hash}; base fee now {base_fee}",
        original_tx.max_fee_per_gas()
    );

    let pass = app.arcade.reconcile.payments(Duration::ZERO).await.unwrap();
    println!("payments pass while stuck: {pass:?}");
    app.arcade.reconcile.cashouts(Duration::ZERO).await.unwrap();
    app.mine_at_base_fee(base_fee).await;
    let pass = app.arcade.reconcile.payments(Duration::ZERO).await.unwrap();
    println!("payments pass after a block: {pass:?}");
    app.arcade.reconcile.cashouts(Duration::ZERO).await.unwrap();

    let settled = payment_of(app, payer.address()).await;
    let reference = format!("payment:{}", settled.id);
    let journal = house_transaction::Entity::find()
        .filter(house_transaction::Column::Reference.eq(&reference))
        .order_by_asc(house_transaction::Column::CreatedAt)
        .all(&app.arcade.db)
        .await
        .unwrap();
    println!(
        "payment {:?}, journal {:?}",
        settled.state,
        journal
            .iter()
            .map(|t| (&t.hash, t.nonce))
            .collect::<Vec<_>>()
    );
    assert_eq!(
        app.chips(payer.address()).await,
        1_000,
        "the underpriced settlement was never replaced: the payer holds no chips at base fee {base_fee}"
    );
    assert_eq!(journal.len(), 2, "the original and one replacement");
    assert!(
        journal.iter().all(|t| t.nonce == nonce as i64),
        "{journal:?}"
    );
    let replacement = signed(settled.raw_tx.as_deref().unwrap());
    assert_eq!(
        (replacement.nonce(), replacement.to(), replacement.input()),
        (original_tx.nonce(), original_tx.to(), original_tx.input()),
        "the same call"
    );
    assert!(replacement.max_fee_per_gas() > base_fee);
    let mut mined = Vec::new();
    for entry in &journal {
        let hash: B256 = entry.hash.parse().unwrap();
        if app.mined(hash).await.is_some() {
            mined.push(hash);
        }
    }
    assert_eq!(mined.len(), 1, "exactly one of them is mined: {mined:?}");
    assert_eq!(
        status(app, &cashout).await,
        "confirmed",
        "the cashout behind it landed"
    );
    assert_eq!(
        app.token_balance(player.address()).await,
        U256::from(30_000u64)
    );
}
paid_on_both_backends_with!(
    an_underpriced_settlement_is_replaced_and_credited_once,
    |s| {
        s.chain.settle_timeout_ms = 500;
    }
);
