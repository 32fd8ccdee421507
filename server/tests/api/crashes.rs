//! Crash safety of cashouts and purchases with the real binary: `faults.crash_after` aborts the
//! process (as `kill -9` would) right after each step; a restarted server finishes every
//! cashout either paid exactly once or refunded, and credits every purchase exactly once if and
//! only if it was paid, and the chain and the ledger agree. Plus two instances on one PostgreSQL
//! database sending for one house key at once.

use std::time::{Duration, Instant};

use alloy::consensus::{Transaction, TxEnvelope};
use alloy::eips::eip2718::Decodable2718;
use alloy::primitives::{B256, U256};
use alloy::providers::{Provider, ProviderBuilder};
use alloy::signers::local::PrivateKeySigner;
use arcade_server::entities::cashout::CashoutStatus;
use arcade_server::entities::payment::PaymentState;
use arcade_server::entities::{cashout, house_transaction, ledger, payment};
use futures::future::join_all;
use sea_orm::{ActiveEnum, ColumnTrait, EntityTrait, QueryFilter};
use serde_json::{Value, json};

use crate::binary::{Arcade, cashout_body, final_cashout, with_own_house};
use crate::helpers::Backend;
use crate::paying::PaidApp;

async fn cashout_row(app: &PaidApp, id: i64) -> cashout::Model {
    cashout::Entity::find_by_id(id)
        .one(&app.arcade.db)
        .await
        .unwrap()
        .expect("the cashout was recorded")
}

async fn on_chain(app: &PaidApp, hash: &str) -> bool {
    let chain = ProviderBuilder::new().connect_http(app.devnet.rpc_url().parse().unwrap());
    let hash: B256 = hash.parse().unwrap();
    chain.get_transaction_by_hash(hash).await.unwrap().is_some()
}

async fn a_crash_after(point: &str, backend: Backend) {
    let (app, house) = with_own_house(backend).await;
    let player = app.payer(100_000).await;
    app.buy_chips(&player, "small").await;
    let client = reqwest::Client::new();
    let body = cashout_body(&app, &player, 500).await;

    let mut crashing = Arcade::start(&app, &house, Some(point));
    let answer = client
        .post(format!("{}/api/arcade/cashout", crashing.base_url))
        .json(&body)
        .send()
        .await;
    assert!(
        answer.as_ref().is_err_and(|e| !e.is_connect()),
        "the process died while answering: {answer:?}"
    );
    assert!(crashing.aborted());

    // What the crash left behind.
    let row = cashout_row(&app, 1).await;
    assert_eq!(row.status, CashoutStatus::Pending);
    assert_eq!(
        app.chips(player.address()).await,
        500,
        "debited before the crash"
    );
    match point {
        "debit" => assert!(row.tx_hash.is_none()),
        "sign" => assert!(!on_chain(&app, row.tx_hash.as_deref().unwrap()).await),
        _ => assert!(on_chain(&app, row.tx_hash.as_deref().unwrap()).await),
    }

    // A fresh start finishes it.
    let restarted = Arcade::start(&app, &house, None);
    let finished = final_cashout(&restarted.base_url, &json!(1)).await;
    assert_eq!(finished["status"], "confirmed", "{finished}");
    if point != "debit" {
        assert_eq!(
            finished["tx_hash"],
            row.tx_hash.unwrap().as_str(),
            "the same transaction"
        );
    }
    assert_eq!(
        app.token_balance(player.address()).await,
        U256::from(50_000u64),
        "paid once"
    );
    assert_eq!(
        app.chips(player.address()).await,
        500,
        "debited once, not refunded"
    );
    let entries: Vec<String> = ledger::Entity::find()
        .filter(ledger::Column::Reference.eq("cashout:1"))
        .all(&app.arcade.db)
        .await
        .unwrap()
        .into_iter()
        .map(|e| e.kind.to_value())
        .collect();
    assert_eq!(entries, ["cashout"]);
    app.audit().await;
}

mod crash_after {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn debit_sqlite() {
        a_crash_after("debit", Backend::Sqlite).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sign_sqlite() {
        a_crash_after("sign", Backend::Sqlite).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn broadcast_sqlite() {
        a_crash_after("broadcast", Backend::Sqlite).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn debit_postgres() {
        a_crash_after("debit", Backend::Postgres).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sign_postgres() {
        a_crash_after("sign", Backend::Postgres).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn broadcast_postgres() {
        a_crash_after("broadcast", Backend::Postgres).await;
    }
}

/// A cashout whose fee the base fee outgrew, and whose process dies right after its
/// replacement (the same nonce, a higher fee) is journalled, before that is broadcast: the row
/// and the journal name the replacement, and the restarted server broadcasts it; the cashout is
/// paid once, by the replacement.
#[allow(clippy::print_stdout)] // what the crash left, shown with --nocapture
async fn a_crash_after_a_fee_bump(backend: Backend) {
    let (app, house) = with_own_house(backend).await;
    let player = app.payer(100_000).await;
    app.buy_chips(&player, "small").await;
    let body = cashout_body(&app, &player, 500).await;
    app.automine(false).await;
    let mut crashing = Arcade::start(&app, &house, Some("replace"));
    let answer: Value = reqwest::Client::new()
        .post(format!("{}/api/arcade/cashout", crashing.base_url))
        .json(&body)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(answer["status"], "sent", "{answer}");
    let original = cashout_row(&app, 1).await;
    let raw = alloy::hex::decode(original.raw_tx.as_deref().unwrap()).unwrap();
    let signed_max_fee = TxEnvelope::decode_2718(&mut raw.as_slice())
        .unwrap()
        .max_fee_per_gas();
    let base_fee = signed_max_fee * 4;
    app.mine_at_base_fee(base_fee).await;
    assert!(crashing.aborted(), "the reconciler replaced the transfer");

    // What the crash left behind: the replacement journalled and named, never broadcast.
    let row = cashout_row(&app, 1).await;
    let replacement = row.tx_hash.clone().unwrap();
    assert_eq!(row.status, CashoutStatus::Sent);
    assert_ne!(Some(&replacement), original.tx_hash.as_ref());
    assert_eq!(row.tx_nonce, original.tx_nonce, "the same nonce");
    assert!(!on_chain(&app, &replacement).await, "not broadcast");
    let journal: Vec<(String, i64)> = house_transaction::Entity::find()
        .filter(house_transaction::Column::Reference.eq("cashout:1"))
        .all(&app.arcade.db)
        .await
        .unwrap()
        .into_iter()
        .map(|t| (t.hash, t.nonce))
        .collect();
    let nonce = original.tx_nonce.unwrap();
    assert_eq!(journal.len(), 2, "{journal:?}");
    assert!(
        journal.contains(&(replacement.clone(), nonce)),
        "{journal:?}"
    );
    println!(
        "crashed after journalling replacement {replacement} of {} (nonce {nonce}) at base fee {base_fee}",
        original.tx_hash.as_deref().unwrap()
    );

    // A fresh start broadcasts it; blocks at the raised base fee mine it.
    let restarted = Arcade::start(&app, &house, None);
    let deadline = Instant::now() + Duration::from_secs(30);
    let finished = loop {
        app.mine_at_base_fee(base_fee).await;
        let status: Value = reqwest::get(format!("{}/api/arcade/cashout/1", restarted.base_url))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        if status["status"] == "confirmed" || status["status"] == "failed" {
            break status;
        }
        assert!(Instant::now() < deadline, "not finished: {status}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    println!("after the restart: {finished}");
    assert_eq!(finished["status"], "confirmed", "{finished}");
    assert_eq!(finished["tx_hash"], replacement.as_str(), "the replacement");
    let player_address = player.address();
    assert_eq!(
        app.transfers_to(player_address).await,
        [(replacement.parse().unwrap(), U256::from(50_000u64))],
        "paid once"
    );
    assert_eq!(app.chips(player_address).await, 500, "not refunded");
    app.automine(true).await;
    app.audit().await;
}

mod crash_after_a_fee_bump {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        a_crash_after_a_fee_bump(Backend::Sqlite).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        a_crash_after_a_fee_bump(Backend::Postgres).await;
    }
}

/// A purchase whose process dies after its settlement is journalled (not broadcast), or after
/// the broadcast: the restarted server's reconciler sends the same signed settlement if it is
/// not on-chain, and credits the chips once the receipt proves the payment.
async fn a_purchase_crash_after(point: &str, backend: Backend) {
    let (app, house) = with_own_house(backend).await;
    let payer = app.payer(100_000).await;
    let house_before = app.token_balance(house.address()).await;
    let challenge = app.challenge("/api/arcade/chips").await;
    let (payment, _) = crate::paying::sign_payment(&challenge, &payer, |_| {});

    let mut crashing = Arcade::start(&app, &house, Some(point));
    let answer = reqwest::Client::new()
        .post(format!("{}/api/arcade/chips", crashing.base_url))
        .header("PAYMENT-SIGNATURE", &payment)
        .send()
        .await;
    assert!(
        answer.as_ref().is_err_and(|e| !e.is_connect()),
        "the process died while answering: {answer:?}"
    );
    assert!(crashing.aborted());
    let row = payment::Entity::find()
        .one(&app.arcade.db)
        .await
        .unwrap()
        .expect("the payment was reserved");
    assert_eq!(row.state, PaymentState::Settling);
    let journalled = row
        .tx_hash
        .clone()
        .expect("journalled before the broadcast");
    assert_eq!(
        on_chain(&app, &journalled).await,
        point == "settlement_broadcast"
    );
    assert_eq!(app.chips(payer.address()).await, 0, "nothing credited yet");

    let _restarted = Arcade::start(&app, &house, None);
    let deadline = Instant::now() + Duration::from_secs(30);
    while app.chips(payer.address()).await == 0 {
        assert!(Instant::now() < deadline, "never credited");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    tokio::time::sleep(Duration::from_millis(600)).await; // another reconcile pass or two
    assert_eq!(app.chips(payer.address()).await, 1000, "credited once");
    let row = payment::Entity::find_by_id(row.id)
        .one(&app.arcade.db)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(row.state, PaymentState::Settled);
    assert_eq!(
        row.tx_hash.as_deref(),
        Some(journalled.as_str()),
        "the same transaction"
    );
    assert_eq!(
        app.token_balance(house.address()).await,
        house_before + U256::from(100_000u64),
        "paid once"
    );
    app.audit().await;
}

mod purchase_crash_after {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn signed_sqlite() {
        a_purchase_crash_after("settlement_signed", Backend::Sqlite).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn broadcast_sqlite() {
        a_purchase_crash_after("settlement_broadcast", Backend::Sqlite).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn signed_postgres() {
        a_purchase_crash_after("settlement_signed", Backend::Postgres).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn broadcast_postgres() {
        a_purchase_crash_after("settlement_broadcast", Backend::Postgres).await;
    }
}

/// Two instances on one PostgreSQL database, one house key, cashouts on both at once: every
/// transfer gets its own nonce and is confirmed.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_instances_send_one_at_a_time() {
    let first = PaidApp::spawn(Backend::Postgres).await;
    let second = first.another_instance().await;
    let mut players = Vec::new();
    for _ in 0..4 {
        let player = first.payer(100_000).await;
        first.buy_chips(&player, "small").await;
        players.push(player);
    }
    let requests = players.iter().enumerate().flat_map(|(i, player)| {
        let player: &PrivateKeySigner = player;
        let first = &first;
        let second = &second;
        (0..3).map(move |_| async move {
            let server = if i % 2 == 0 { &first.app } else { second };
            let signature = server.sign_statement(player).await;
            server
                .post(
                    "/api/arcade/cashout",
                    &json!({ "address": player.address(), "chips": 100, "signature": signature }),
                )
                .await
        })
    });
    let replies = join_all(requests).await;
    for reply in &replies {
        assert_eq!(reply.status, 200, "{}", reply.body);
        assert_eq!(reply.body["status"], "confirmed", "{}", reply.body);
    }
    let rows = cashout::Entity::find().all(&first.arcade.db).await.unwrap();
    let mut nonces: Vec<i64> = rows.iter().map(|r| r.tx_nonce.unwrap()).collect();
    nonces.sort_unstable();
    nonces.dedup();
    assert_eq!(nonces.len(), 12, "twelve transfers, twelve nonces");
    for player in &players {
        assert_eq!(
            first.token_balance(player.address()).await,
            U256::from(30_000u64)
        );
    }
    first.audit().await;
}
