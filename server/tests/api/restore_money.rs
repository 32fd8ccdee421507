//! The chain is the books: a database restored from a copy taken before a cashout or a
//! purchase never pays the same chips out twice, and credits a purchase the chain proves once.
//! The copy is every table, copied aside in the database itself; the restore puts them back in
//! one transaction; then instances start on the restored data, as the documented procedure
//! starts them (`deploy/README.md`, "Backups"; run verbatim with the real binary in
//! `restore_procedure.rs`). Each case ends with the ledger audit and the chain audit: what the
//! house paid out is the confirmed cashouts, what it took in is the chips credited (100 base
//! units each), and every house transfer of the token is one row of the books.

use std::collections::HashSet;

use alloy::primitives::U256;
use alloy::providers::{Provider, ProviderBuilder};
use alloy::rpc::types::Filter;
use alloy::signers::local::PrivateKeySigner;
use alloy::sol_types::SolEvent;
use arcade_server::chain::token::DollarToken::Transfer;
use arcade_server::entities::{cashout, house_transaction, payment};
use sea_orm::{ColumnTrait, ConnectionTrait, DbBackend, EntityTrait, QueryFilter, Statement};
use serde_json::json;

use crate::helpers::{Backend, TestApp, fresh_database};
use crate::paid_on_both_backends;
use crate::paying::{PaidApp, chain_settings, sign_payment};

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

/// The tables the database holds (the migrations' own excepted).
async fn tables(app: &TestApp) -> HashSet<String> {
    let db = &app.arcade.db;
    let sql = match db.get_database_backend() {
        DbBackend::Sqlite => "SELECT name FROM sqlite_master WHERE type = 'table'",
        _ => "SELECT table_name::text FROM information_schema.tables WHERE table_schema = 'public'",
    };
    db.query_all_raw(Statement::from_string(db.get_database_backend(), sql))
        .await
        .unwrap()
        .into_iter()
        .map(|row| row.try_get_by_index::<String>(0).unwrap())
        .filter(|name| {
            !name.starts_with("seaql") && !name.starts_with("sqlite") && !name.contains("__")
        })
        .collect()
}

/// A copy of every table, as a backup holds it.
pub(crate) async fn backup(app: &TestApp, name: &str) {
    let every: HashSet<String> = TABLES.iter().map(|t| (*t).to_owned()).collect();
    assert_eq!(tables(app).await, every, "the copy holds every table");
    for table in TABLES {
        run(
            app,
            format!("CREATE TABLE {name}__{table} AS SELECT * FROM {table}"),
        )
        .await;
    }
}

/// The database put back to the copy `name`, in one transaction.
pub(crate) async fn restore(app: &TestApp, name: &str) {
    let db = &app.arcade.db;
    let txn = sea_orm::TransactionTrait::begin(db).await.unwrap();
    let statements = TABLES
        .iter()
        .rev()
        .map(|t| format!("DELETE FROM {t}"))
        .chain(
            TABLES
                .iter()
                .map(|t| format!("INSERT INTO {t} SELECT * FROM {name}__{t}")),
        );
    for statement in statements {
        txn.execute_raw(Statement::from_string(db.get_database_backend(), statement))
            .await
            .unwrap();
    }
    txn.commit().await.unwrap();
}

/// Buys `tier` for `payer` from `app` and returns the payment header it was bought with.
pub(crate) async fn buy(app: &PaidApp, payer: &PrivateKeySigner, tier: &str) -> String {
    let path = format!("/api/arcade/chips/{tier}");
    let challenge = app.challenge(&path).await;
    let (payment, _) = sign_payment(&challenge, payer, |_| {});
    let bought = app.buy(&path, Some(&payment)).await;
    assert_eq!(bought.status, 200, "{}", bought.body);
    payment
}

/// The decoded 402 challenge of a chip endpoint of `app`.
async fn challenge_of(app: &TestApp, path: &str) -> serde_json::Value {
    let reply = reqwest::Client::new()
        .post(format!("{}{path}", app.base_url))
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), 402);
    let header = reply.headers()["payment-required"]
        .to_str()
        .unwrap()
        .to_owned();
    crate::paying::decode(&header)
}

/// A payment presented to `to`.
async fn present(to: &TestApp, tier: &str, payment: &str) -> u16 {
    reqwest::Client::new()
        .post(format!("{}/api/arcade/chips/{tier}", to.base_url))
        .header("PAYMENT-SIGNATURE", payment)
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

/// The chain audit over the books of `db_of`: the house key's token transfers since `from_block`
/// are exactly the confirmed cashouts (one row each, by hash), the tokens paid into pay-to by the
/// house's settlements are the chips its settled payments credited, and the house's balance moved
/// by exactly that.
pub(crate) async fn chain_audit(
    app: &PaidApp,
    db_of: &TestApp,
    house_before: U256,
    from_block: u64,
) {
    let db = &db_of.arcade.db;
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
    let chain = ProviderBuilder::new().connect_http(app.devnet.rpc_url().parse().unwrap());
    let logs = chain
        .get_logs(
            &Filter::new()
                .address(app.devnet.token)
                .event_signature(Transfer::SIGNATURE_HASH)
                .topic1(app.house())
                .from_block(from_block),
        )
        .await
        .unwrap();
    let transfers: HashSet<String> = logs
        .iter()
        .map(|log| log.transaction_hash.unwrap().to_string())
        .collect();
    let rows: HashSet<String> = confirmed.iter().filter_map(|c| c.tx_hash.clone()).collect();
    assert_eq!(rows.len(), confirmed.len(), "one row per transfer");
    assert_eq!(
        transfers, rows,
        "every house transfer on chain is one confirmed cashout"
    );
    let journal: HashSet<String> = house_transaction::Entity::find()
        .all(db)
        .await
        .unwrap()
        .into_iter()
        .map(|tx| tx.hash)
        .collect();
    assert!(
        rows.is_subset(&journal),
        "every cashout's transfer is journalled"
    );
}

pub(crate) async fn block(app: &PaidApp) -> u64 {
    let chain = ProviderBuilder::new().connect_http(app.devnet.rpc_url().parse().unwrap());
    chain.get_block_number().await.unwrap()
}

/// Backup, a cashout of every chip (confirmed on chain), restore: the chips read 10,000 again in
/// the copy. Two instances started at once on the restored data find the cashout on the chain
/// before they serve: recorded once, its chips debited, so a second cashout is refused by both,
/// and by the instance left running under the restore; the house paid once.
async fn a_restore_that_forgot_a_cashout_never_pays_it_again(app: &PaidApp) {
    let (house_before, from) = (app.token_balance(app.house()).await, block(app).await);
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

    let (next, other) = tokio::join!(app.another_instance(), app.another_instance());
    assert_eq!(
        next.chips(payer.address()).await,
        0,
        "the chain's cashout is in the books"
    );
    for instance in [&next, &other, &app.app] {
        let again = instance.cash_out(&payer, 10_000).await;
        assert_ne!(again.status, 200, "{}", again.body);
    }
    assert_eq!(
        app.token_balance(payer.address()).await,
        U256::from(1_000_000u64),
        "paid out once: 1.00 in, 1.00 out"
    );
    let rows = cashout::Entity::find().all(&next.arcade.db).await.unwrap();
    assert_eq!(
        rows.len(),
        1,
        "recorded once, by one of the instances: {rows:?}"
    );
    chain_audit(app, &next, house_before, from).await;
    next.audit().await;
}
paid_on_both_backends!(a_restore_that_forgot_a_cashout_never_pays_it_again);

/// Backup, a purchase settled by the house, restore: the next instance finds the settlement on
/// the chain and credits its chips once; the payment presented again credits nothing more.
async fn a_restore_that_forgot_a_purchase_credits_it_once(app: &PaidApp) {
    let (house_before, from) = (app.token_balance(app.house()).await, block(app).await);
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
    assert_ne!(present(&next, "small", &payment).await, 200, "already used");
    assert_eq!(next.chips(payer.address()).await, 1000, "credited once");
    let cashed = next.cash_out(&payer, 1000).await;
    assert_eq!(cashed.status, 200, "{}", cashed.body);
    chain_audit(app, &next, house_before, from).await;
    next.audit().await;
}
paid_on_both_backends!(a_restore_that_forgot_a_purchase_credits_it_once);

/// Backup, then a purchase and a cashout of half of it, restore: the next instance records both
/// in the chain's order (the credit, then the debit), so what is left is what was left.
async fn a_restore_that_forgot_both_pairs_them_in_chain_order(app: &PaidApp) {
    let (house_before, from) = (app.token_balance(app.house()).await, block(app).await);
    let payer = app.payer(1_000_000).await;
    backup(app, "before_both").await;
    buy(app, &payer, "medium").await;
    let paid = app.cash_out(&payer, 5_000).await.ok();
    assert_eq!(paid["status"], "confirmed", "{paid}");
    restore(app, "before_both").await;
    assert_eq!(app.chips(payer.address()).await, 0, "the copy forgot both");

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
    chain_audit(app, &next, house_before, from).await;
    next.audit().await;
}
paid_on_both_backends!(a_restore_that_forgot_both_pairs_them_in_chain_order);

/// The database lost, its secrets kept: the books start at the chain's count, so nothing the
/// house sent before is credited or debited again, and a payment presented again is refused
/// (used): a copy of nothing can pay nothing twice. New purchases and cashouts work.
async fn a_wiped_database_pays_nothing_twice(app: &PaidApp) {
    let payer = app.payer(1_000_000).await;
    let payment = buy(app, &payer, "medium").await;
    let paid = app.cash_out(&payer, 10_000).await.ok();
    assert_eq!(paid["status"], "confirmed", "{paid}");

    let (house_before, from) = (app.token_balance(app.house()).await, block(app).await + 1);
    let backend = match app.arcade.db.get_database_backend() {
        DbBackend::Sqlite => Backend::Sqlite,
        _ => Backend::Postgres,
    };
    let wiped = fresh_database(backend).await;
    let secrets = crate::helpers::state_dir(&app.database_url);
    let chain = chain_settings(&app.devnet, &app.proxy.url());
    let after = TestApp::spawn_on(&wiped, |settings| {
        chain(settings);
        settings.server.state_dir = Some(secrets);
    })
    .await;
    assert_eq!(after.chips(payer.address()).await, 0);
    assert_ne!(
        present(&after, "medium", &payment).await,
        200,
        "used before the wipe"
    );
    assert_eq!(
        after.chips(payer.address()).await,
        0,
        "never credited again"
    );
    let refused = after.cash_out(&payer, 10_000).await;
    assert_ne!(refused.status, 200, "{}", refused.body);

    let fresh = app.payer(100_000).await;
    let challenge = challenge_of(&after, "/api/arcade/chips/small").await;
    let (payment, _) = sign_payment(&challenge, &fresh, |_| {});
    assert_eq!(present(&after, "small", &payment).await, 200);
    let cashed = after.cash_out(&fresh, 1000).await;
    assert_eq!(cashed.status, 200, "{}", cashed.body);
    assert_eq!(cashed.body["status"], "confirmed", "{}", cashed.body);
    chain_audit(app, &after, house_before, from).await;
    after.audit().await;
}
paid_on_both_backends!(a_wiped_database_pays_nothing_twice);

/// Another deployment (its own house key) sells chips with the same pay-to address: its
/// settlement is in the token's logs the books read, and is never this deployment's. After a
/// restore of this one, the books pass over it, and it presented here is refused.
async fn a_payment_another_deployment_settled_is_never_credited(app: &PaidApp) {
    let (house_before, from) = (app.token_balance(app.house()).await, block(app).await);
    backup(app, "before_other").await;
    let theirs = PrivateKeySigner::random();
    app.anvil(
        "anvil_setBalance",
        json!([theirs.address(), "0x56BC75E2D63100000"]),
    )
    .await;
    let key = alloy::hex::encode_prefixed(theirs.to_bytes());
    let pay_to = app.house();
    let chain = chain_settings(&app.devnet, &app.proxy.url());
    let other = TestApp::spawn_with(Backend::Sqlite, |settings| {
        chain(settings);
        settings.chain.house_key = Some(arcade_server::settings::Secret::new(key));
        settings.chain.pay_to = Some(pay_to);
    })
    .await;
    let payer = app.payer(200_000).await;
    let challenge = challenge_of(&other, "/api/arcade/chips/small").await;
    let (payment, _) = sign_payment(&challenge, &payer, |_| {});
    assert_eq!(
        present(&other, "small", &payment).await,
        200,
        "sold by the other"
    );
    restore(app, "before_other").await;

    let next = app.another_instance().await;
    assert_eq!(
        next.chips(payer.address()).await,
        0,
        "not this deployment's payment"
    );
    assert_ne!(present(&next, "small", &payment).await, 200);
    assert_eq!(next.chips(payer.address()).await, 0);
    let ours = payment::Entity::find().all(&next.arcade.db).await.unwrap();
    assert!(
        ours.iter()
            .all(|p| p.state != arcade_server::entities::payment::PaymentState::Settled),
        "{ours:?}"
    );
    // The other deployment's settlement moved tokens into pay-to: the house's balance is the
    // books' plus that, and the money audit counts it as paid in and owed by nobody here.
    chain_audit(app, &next, house_before + U256::from(100_000u64), from).await;
    next.audit().await;
    app.audit_with_unowed(U256::from(100_000u64)).await;
}

mod a_payment_another_deployment_settled_is_never_credited {
    use crate::helpers::Backend;
    use crate::paying::PaidApp;

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        let app = PaidApp::spawn(Backend::Sqlite).await;
        super::a_payment_another_deployment_settled_is_never_credited(&app).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        let app = PaidApp::spawn(Backend::Postgres).await;
        super::a_payment_another_deployment_settled_is_never_credited(&app).await;
    }
}
