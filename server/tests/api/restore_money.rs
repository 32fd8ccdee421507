//! The chain is the books: a database restored from a copy taken before a cashout or a
//! purchase never pays the same chips out twice, and credits a purchase the chain proves once.
//! The copy is every table, copied aside in the database itself; the restore puts them back in
//! one transaction; then another instance starts on the restored data, as the documented
//! procedure starts one (`deploy/README.md`, "Backups"). Each case ends with the ledger audit
//! and the chain audit: what the house paid out is the confirmed cashouts, what it took in is the
//! chips credited (100 base units each), and every house transfer is one row of the books.

use alloy::primitives::U256;
use arcade_server::entities::{cashout, payment};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Statement};

use crate::helpers::TestApp;
use crate::paid_on_both_backends;
use crate::paying::{PaidApp, sign_payment};

/// Every table, parents first (restored in this order, emptied in the reverse one).
const TABLES: [&str; 17] = [
    "seed_batches",
    "wallets",
    "rounds",
    "bets",
    "ledger",
    "payments",
    "cashouts",
    "house_sender",
    "house_transactions",
    "house_books",
    "auth_generations",
    "floor_totals",
    "floor_watermark",
    "deployment_secrets",
    "instances",
    "signed_marks",
    "secret_fingerprints",
];

async fn run(app: &TestApp, sql: String) {
    let db = &app.arcade.db;
    db.execute_raw(Statement::from_string(db.get_database_backend(), sql))
        .await
        .unwrap();
}

/// A copy of every table, as a backup holds it.
async fn backup(app: &TestApp, name: &str) {
    for table in TABLES {
        run(
            app,
            format!("CREATE TABLE {name}_{table} AS SELECT * FROM {table}"),
        )
        .await;
    }
}

/// The database put back to the copy `name`, in one transaction.
async fn restore(app: &TestApp, name: &str) {
    let db = &app.arcade.db;
    let txn = sea_orm::TransactionTrait::begin(db).await.unwrap();
    let statements = TABLES
        .iter()
        .rev()
        .map(|t| format!("DELETE FROM {t}"))
        .chain(
            TABLES
                .iter()
                .map(|t| format!("INSERT INTO {t} SELECT * FROM {name}_{t}")),
        );
    for statement in statements {
        txn.execute_raw(Statement::from_string(db.get_database_backend(), statement))
            .await
            .unwrap();
    }
    txn.commit().await.unwrap();
}

/// Buys `tier` for `payer` and returns the payment header it was bought with.
async fn buy(app: &PaidApp, payer: &alloy::signers::local::PrivateKeySigner, tier: &str) -> String {
    let path = format!("/api/arcade/chips/{tier}");
    let challenge = app.challenge(&path).await;
    let (payment, _) = sign_payment(&challenge, payer, |_| {});
    let bought = app.buy(&path, Some(&payment)).await;
    assert_eq!(bought.status, 200, "{}", bought.body);
    payment
}

/// The chain audit: the tokens the house paid out are the confirmed cashouts, the tokens it
/// took in are the chips its settled payments credited, and each confirmed cashout's transfer
/// is a distinct transaction.
async fn chain_audit(app: &PaidApp, house_before: U256) {
    let db = &app.arcade.db;
    let confirmed = cashout::Entity::find()
        .filter(cashout::Column::Status.eq("confirmed"))
        .all(db)
        .await
        .unwrap();
    let settled = payment::Entity::find()
        .filter(payment::Column::State.eq("settled"))
        .all(db)
        .await
        .unwrap();
    let out: u64 = confirmed
        .iter()
        .map(|c| c.amount.parse::<u64>().unwrap())
        .sum();
    let paid_in: u64 = settled
        .iter()
        .map(|p| u64::try_from(p.chips).unwrap() * 100)
        .sum();
    let held = app.token_balance(app.house()).await;
    assert_eq!(
        held + U256::from(out),
        house_before + U256::from(paid_in),
        "the house's tokens moved by exactly the books' purchases and cashouts"
    );
    let hashes: std::collections::HashSet<_> = confirmed.iter().map(|c| &c.tx_hash).collect();
    assert_eq!(hashes.len(), confirmed.len(), "one row per transfer");
}

/// Backup, a cashout of every chip (confirmed on chain), restore: the chips read 10,000 again in
/// the copy. The next instance finds the cashout on the chain before it serves: recorded again,
/// its chips debited, so a second cashout of them is refused and the house paid once.
async fn a_restore_that_forgot_a_cashout_never_pays_it_again(app: &PaidApp) {
    let house_before = app.token_balance(app.house()).await;
    let payer = app.payer(1_000_000).await;
    buy(app, &payer, "medium").await;
    backup(app, "before_cashout").await;
    let paid = app.cash_out(&payer, 10_000).await.ok();
    assert_eq!(paid["status"], "confirmed", "{paid}");
    restore(app, "before_cashout").await;
    assert_eq!(
        app.chips(payer.address()).await,
        10_000,
        "the copy forgot the cashout"
    );

    let next = app.another_instance().await;
    assert_eq!(
        next.chips(payer.address()).await,
        0,
        "the chain's cashout is in the books"
    );
    let again = next.cash_out(&payer, 10_000).await;
    assert_ne!(again.status, 200, "{}", again.body);
    assert_eq!(
        app.token_balance(payer.address()).await,
        U256::from(1_000_000u64),
        "paid out once"
    );
    // The instance still running under the restore checks the chain before it signs, too.
    let old = app.cash_out(&payer, 10_000).await;
    assert_ne!(old.status, 200, "{}", old.body);
    assert_eq!(
        app.token_balance(payer.address()).await,
        U256::from(1_000_000u64)
    );
    chain_audit(app, house_before).await;
    next.audit().await;
}
paid_on_both_backends!(a_restore_that_forgot_a_cashout_never_pays_it_again);

/// Backup, a purchase settled by the house, restore: the next instance finds the settlement on
/// the chain and credits its chips once; the payment presented again credits nothing more.
async fn a_restore_that_forgot_a_purchase_credits_it_once(app: &PaidApp) {
    let house_before = app.token_balance(app.house()).await;
    let payer = app.payer(200_000).await;
    backup(app, "before_purchase").await;
    let payment = buy(app, &payer, "small").await;
    restore(app, "before_purchase").await;
    assert_eq!(
        app.chips(payer.address()).await,
        0,
        "the copy forgot the purchase"
    );

    let next = app.another_instance().await;
    assert_eq!(
        next.chips(payer.address()).await,
        1000,
        "credited from the chain"
    );
    let presented = reqwest::Client::new()
        .post(format!("{}/api/arcade/chips/small", next.base_url))
        .header("PAYMENT-SIGNATURE", payment)
        .send()
        .await
        .unwrap();
    assert_eq!(presented.status(), 402, "already used");
    assert_eq!(next.chips(payer.address()).await, 1000, "credited once");
    chain_audit(app, house_before).await;
    next.audit().await;
}
paid_on_both_backends!(a_restore_that_forgot_a_purchase_credits_it_once);

/// Backup, then a purchase and a cashout of half of it, restore: the next instance records
/// both in the chain's order (the credit, then the debit), so what is left is what was left.
async fn a_restore_that_forgot_both_pairs_them_in_chain_order(app: &PaidApp) {
    let house_before = app.token_balance(app.house()).await;
    let payer = app.payer(1_000_000).await;
    backup(app, "before_both").await;
    buy(app, &payer, "medium").await;
    let paid = app.cash_out(&payer, 5_000).await.ok();
    assert_eq!(paid["status"], "confirmed", "{paid}");
    restore(app, "before_both").await;

    let next = app.another_instance().await;
    assert_eq!(next.chips(payer.address()).await, 5_000);
    let rest = next.cash_out(&payer, 5_000).await;
    assert_eq!(rest.status, 200, "{}", rest.body);
    let more = next.cash_out(&payer, 1).await;
    assert_ne!(more.status, 200, "{}", more.body);
    assert_eq!(
        app.token_balance(payer.address()).await,
        U256::from(1_000_000u64),
        "1.00 in, 1.00 out, never more"
    );
    chain_audit(app, house_before).await;
    next.audit().await;
}
paid_on_both_backends!(a_restore_that_forgot_both_pairs_them_in_chain_order);
