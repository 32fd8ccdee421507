//! A cashout whose fee the chain outgrows: the base fee rises above the max fee its transfer was
//! signed with, so no block includes it, and every later house transaction waits on its nonce.
//! The house replaces it with the same nonce and the same transfer at a higher fee, journalled
//! before the broadcast; the cashout lands once, nothing is paid twice, and the queue behind it
//! moves again. After each: the chain and the ledger agree.

#![allow(clippy::print_stdout)] // what each step saw, shown with --nocapture

use std::time::Duration;

use alloy::consensus::{Transaction, TxEnvelope};
use alloy::eips::eip2718::Decodable2718;
use alloy::primitives::{Address, B256, U256};
use alloy::providers::{Provider, ProviderBuilder};
use alloy::rpc::types::{Filter, TransactionReceipt};
use alloy::sol_types::SolEvent;
use arcade_server::chain::token::DollarToken::Transfer;
use arcade_server::entities::{cashout, house_transaction};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder};
use serde_json::{Value, json};

use crate::cashouts::{ledger_kinds, player_with_chips};
use crate::paid_on_both_backends_with;
use crate::paying::PaidApp;

impl PaidApp {
    /// Mines one block whose base fee is `wei`.
    pub async fn mine_at_base_fee(&self, wei: u128) {
        self.anvil(
            "anvil_setNextBlockBaseFeePerGas",
            json!([format!("{wei:#x}")]),
        )
        .await;
        self.mine().await;
    }

    /// The receipt of `hash`, read straight from anvil, if it is in a block.
    pub async fn mined(&self, hash: B256) -> Option<TransactionReceipt> {
        let provider = ProviderBuilder::new().connect_http(self.devnet.rpc_url().parse().unwrap());
        provider.get_transaction_receipt(hash).await.unwrap()
    }

    /// Every token transfer to `owner` (transaction hash and value), from the token's logs;
    /// mints (from the zero address: the test dollars a player starts with) left out.
    pub async fn transfers_to(&self, owner: Address) -> Vec<(B256, U256)> {
        let provider = ProviderBuilder::new().connect_http(self.devnet.rpc_url().parse().unwrap());
        let filter = Filter::new()
            .address(self.devnet.token)
            .event_signature(Transfer::SIGNATURE_HASH)
            .topic2(owner)
            .from_block(0);
        provider
            .get_logs(&filter)
            .await
            .unwrap()
            .into_iter()
            .filter_map(|log| {
                let hash = log.transaction_hash.unwrap();
                let transfer = Transfer::decode_log(&log.inner).unwrap();
                (transfer.from != Address::ZERO).then_some((hash, transfer.value))
            })
            .collect()
    }
}

pub async fn row(app: &PaidApp, answer: &Value) -> cashout::Model {
    let id = answer["cashout_id"].as_i64().expect("a cashout id");
    cashout::Entity::find_by_id(id)
        .one(&app.arcade.db)
        .await
        .unwrap()
        .unwrap()
}

/// The house journal's transactions for a cashout, oldest first.
pub async fn journal_of(app: &PaidApp, answer: &Value) -> Vec<house_transaction::Model> {
    let reference = format!("cashout:{}", answer["cashout_id"]);
    house_transaction::Entity::find()
        .filter(house_transaction::Column::Reference.eq(reference))
        .order_by_asc(house_transaction::Column::CreatedAt)
        .all(&app.arcade.db)
        .await
        .unwrap()
}

/// The signed transaction a cashout row names.
pub fn signed(row: &cashout::Model) -> TxEnvelope {
    let raw = alloy::hex::decode(row.raw_tx.as_deref().expect("signed")).unwrap();
    TxEnvelope::decode_2718(&mut raw.as_slice()).expect("a signed transaction")
}

pub fn hash_of(row: &cashout::Model) -> B256 {
    row.tx_hash.as_deref().expect("signed").parse().unwrap()
}

pub async fn status(app: &PaidApp, answer: &Value) -> String {
    let path = format!("/api/arcade/cashout/{}", answer["cashout_id"]);
    app.get(&path).await.ok()["status"]
        .as_str()
        .unwrap()
        .to_owned()
}

async fn an_underpriced_cashout_is_replaced_and_lands_once(app: &PaidApp) {
    let player = player_with_chips(app).await;
    app.automine(false).await;
    let first = app.cash_out(&player, 500).await.ok();
    assert_eq!(first["status"], "sent", "{first}");
    let second = app.cash_out(&player, 300).await.ok();
    assert_eq!(second["status"], "sent", "{second}");
    let original = row(app, &first).await;
    let original_tx = signed(&original);
    let signed_max_fee = original_tx.max_fee_per_gas();
    let nonce = original.tx_nonce.expect("signed");
    let behind = row(app, &second).await;
    assert_eq!(behind.tx_nonce, Some(nonce + 1), "the next nonce");

    // The base fee rises past both transfers' max fees: blocks leave them out (a node keeps
    // them pooled, or drops them, as anvil does), and the second waits on the first's nonce.
    let base_fee = signed_max_fee.max(signed(&behind).max_fee_per_gas()) * 4;
    app.mine_at_base_fee(base_fee).await;
    for stuck in [&original, &behind] {
        assert!(
            app.mined(hash_of(stuck)).await.is_none(),
            "a block included a transfer bidding below its base fee"
        );
    }
    println!("base fee set: {base_fee} wei per gas");
    println!(
        "first cashout: nonce {nonce}, signed max fee {signed_max_fee} wei (priority {:?}), tx {}",
        original_tx.max_priority_fee_per_gas(),
        hash_of(&original)
    );
    println!(
        "second cashout: nonce {}, signed max fee {} wei, tx {}",
        nonce + 1,
        signed(&behind).max_fee_per_gas(),
        hash_of(&behind)
    );

    // The reconciler's pass, then blocks at the raised base fee.
    let pass = app.arcade.reconcile.cashouts(Duration::ZERO).await.unwrap();
    println!("reconciler pass while stuck: {pass:?}");
    app.mine_at_base_fee(base_fee).await;
    let pass = app.arcade.reconcile.cashouts(Duration::ZERO).await.unwrap();
    println!("reconciler pass after a block: {pass:?}");
    let now = (status(app, &first).await, status(app, &second).await);
    let journal = journal_of(app, &first).await;
    println!(
        "statuses: first {}, second {}; house journal for the first: {:?}; player tokens {}",
        now.0,
        now.1,
        journal.iter().map(|t| &t.hash).collect::<Vec<_>>(),
        app.token_balance(player.address()).await
    );
    assert_eq!(
        (now.0.as_str(), now.1.as_str()),
        ("confirmed", "confirmed"),
        "the underpriced transfer was never replaced: it, and the cashout behind it, wait at base fee {base_fee} (signed max fee {signed_max_fee})"
    );

    // Replaced: the same nonce and transfer at a higher fee, both journalled, one mined.
    let landed = row(app, &first).await;
    let replacement = signed(&landed);
    assert_eq!(journal.len(), 2, "the original and one replacement");
    assert!(journal.iter().all(|t| t.nonce == nonce), "{journal:?}");
    assert_eq!(journal[0].hash, hash_of(&original).to_string());
    assert_eq!(journal[1].hash, hash_of(&landed).to_string());
    assert_eq!(
        (replacement.nonce(), replacement.to(), replacement.input()),
        (original_tx.nonce(), original_tx.to(), original_tx.input()),
        "the same transfer"
    );
    let replacement_max_fee = replacement.max_fee_per_gas();
    assert!(replacement_max_fee > base_fee, "{replacement_max_fee}");
    assert!(replacement_max_fee * 10 >= signed_max_fee * 11);
    assert!(
        replacement.max_priority_fee_per_gas().unwrap() * 10
            >= original_tx.max_priority_fee_per_gas().unwrap() * 11
    );
    let mined: Vec<B256> = {
        let mut mined = Vec::new();
        for entry in &journal {
            let hash: B256 = entry.hash.parse().unwrap();
            if let Some(receipt) = app.mined(hash).await {
                assert!(receipt.status(), "{hash} reverted");
                mined.push(hash);
            }
        }
        mined
    };
    assert_eq!(mined, [hash_of(&landed)], "exactly one of them is mined");
    println!(
        "mined with nonce {nonce}: {mined:?}, the replacement alone (the original {} is in no block)",
        hash_of(&original)
    );
    println!(
        "replacement: max fee {replacement_max_fee} wei (priority {:?}), tx {}",
        replacement.max_priority_fee_per_gas(),
        hash_of(&landed)
    );

    // The second was replaced too (it bid below the base fee as well), after the first.
    let landed_behind = row(app, &second).await;
    assert_eq!(journal_of(app, &second).await.len(), 2);
    assert_eq!(landed_behind.tx_nonce, Some(nonce + 1));
    println!(
        "second's replacement: max fee {} wei, tx {}",
        signed(&landed_behind).max_fee_per_gas(),
        hash_of(&landed_behind)
    );

    // Paid once each: the player's token balance rose once per cashout.
    assert_eq!(
        app.transfers_to(player.address()).await,
        [
            (hash_of(&landed), U256::from(50_000u64)),
            (hash_of(&landed_behind), U256::from(30_000u64)),
        ]
    );

    // The queue moves: a later cashout lands at once.
    app.automine(true).await;
    let third = app.cash_out(&player, 100).await.ok();
    assert_eq!(third["status"], "confirmed", "{third}");
    println!(
        "third cashout: nonce {:?}, status {}, tx {}",
        row(app, &third).await.tx_nonce,
        third["status"],
        third["tx_hash"]
    );
    let pass = app.arcade.reconcile.cashouts(Duration::ZERO).await.unwrap();
    assert_eq!(pass.refunded, 0, "{pass:?}");
    let reference = format!("cashout:{}", first["cashout_id"]);
    assert_eq!(
        ledger_kinds(app, &reference).await,
        ["cashout"],
        "no refund"
    );
    assert_eq!(app.chips(player.address()).await, 100);
    assert_eq!(
        app.token_balance(player.address()).await,
        U256::from(90_000u64)
    );
    println!(
        "final: player chips {}, player tokens {} base units (500 + 300 + 100 chips cashed out), house tokens {}",
        app.chips(player.address()).await,
        app.token_balance(player.address()).await,
        app.token_balance(app.house()).await
    );
}
paid_on_both_backends_with!(an_underpriced_cashout_is_replaced_and_lands_once, |s| {
    s.chain.settle_timeout_ms = 500;
});

/// A transfer whose fee still clears the base fee, but that waited next in the house's queue
/// past `chain.fee_bump_after_ms` (zero here), is replaced too; the one queued behind it is
/// not (it waits on the nonce before its own, not on its fee). Both land once.
async fn the_head_of_the_queue_is_replaced_after_waiting(app: &PaidApp) {
    let player = player_with_chips(app).await;
    app.automine(false).await;
    let first = app.cash_out(&player, 500).await.ok();
    let second = app.cash_out(&player, 300).await.ok();
    let (original, behind) = (row(app, &first).await, row(app, &second).await);

    let pass = app.arcade.reconcile.cashouts(Duration::ZERO).await.unwrap();
    println!("reconciler pass, base fee unchanged: {pass:?}");
    assert_eq!((pass.replaced, pass.rebroadcast), (1, 1), "{pass:?}");
    let head = row(app, &first).await;
    assert_ne!(head.tx_hash, original.tx_hash, "the head was replaced");
    assert_eq!(head.tx_nonce, original.tx_nonce);
    assert!(signed(&head).max_fee_per_gas() * 10 >= signed(&original).max_fee_per_gas() * 11);
    assert_eq!(
        row(app, &second).await.tx_hash,
        behind.tx_hash,
        "not the one behind"
    );

    app.mine().await;
    let pass = app.arcade.reconcile.cashouts(Duration::ZERO).await.unwrap();
    assert_eq!(pass.confirmed, 2, "{pass:?}");
    assert_eq!(
        app.transfers_to(player.address()).await,
        [
            (hash_of(&head), U256::from(50_000u64)),
            (hash_of(&behind), U256::from(30_000u64)),
        ],
        "paid once each"
    );
    assert_eq!(journal_of(app, &first).await.len(), 2);
    assert_eq!(journal_of(app, &second).await.len(), 1);
    app.automine(true).await;
}
paid_on_both_backends_with!(the_head_of_the_queue_is_replaced_after_waiting, |s| {
    s.chain.settle_timeout_ms = 500;
    s.chain.fee_bump_after_ms = 0;
});

/// Two instances on one PostgreSQL database reconcile the same underpriced cashout at once:
/// one replacement is journalled and broadcast (the row names the transfer it replaces only
/// once, holding the house sender), and the cashout is paid once.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_instances_replace_one_transfer_once() {
    let app = PaidApp::spawn_with(crate::helpers::Backend::Postgres, |s| {
        s.chain.settle_timeout_ms = 500;
    })
    .await;
    let other = app.another_instance().await;
    let player = player_with_chips(&app).await;
    app.automine(false).await;
    let answer = app.cash_out(&player, 500).await.ok();
    let original = row(&app, &answer).await;
    let base_fee = signed(&original).max_fee_per_gas() * 4;
    app.mine_at_base_fee(base_fee).await;

    let (one, two) = tokio::join!(
        app.arcade.reconcile.cashouts(Duration::ZERO),
        other.arcade.reconcile.cashouts(Duration::ZERO),
    );
    let (one, two) = (one.unwrap(), two.unwrap());
    println!("two passes at once: {one:?} and {two:?}");
    assert_eq!(one.replaced + two.replaced, 1, "{one:?} {two:?}");
    let journal = journal_of(&app, &answer).await;
    assert_eq!(journal.len(), 2, "the original and one replacement");

    app.mine_at_base_fee(base_fee).await;
    let pass = app.arcade.reconcile.cashouts(Duration::ZERO).await.unwrap();
    assert_eq!(pass.confirmed, 1, "{pass:?}");
    let landed = row(&app, &answer).await;
    assert_eq!(landed.tx_hash.as_deref(), Some(journal[1].hash.as_str()));
    assert_eq!(
        app.transfers_to(player.address()).await,
        [(hash_of(&landed), U256::from(50_000u64))],
        "paid once"
    );
    app.automine(true).await;
    app.audit().await;
}
