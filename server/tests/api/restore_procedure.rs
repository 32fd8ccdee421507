//! The restore procedure as `deploy/README.md` ("Backups") states it, run word for word against
//! the real binary on SQLite and on PostgreSQL: the README's backup block while it serves, a
//! cashout, every instance stopped, the README's restore block, a start. The copy forgot the
//! cashout; the books find it on the chain before the binary serves, so the chips are not paid
//! out twice. And the books' pass survives a crash in its middle: the binary aborted after it
//! recorded the first of two forgotten house transactions starts again and records the second,
//! neither twice. (The in-process server that deployed the test's database stays idle: no
//! requests, no reconciler, and on SQLite it keeps the replaced file's old copy open.)

use alloy::primitives::U256;
use alloy::signers::local::PrivateKeySigner;
use arcade_server::entities::{cashout, house_transaction};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::{Value, json};

use crate::binary::{Arcade, auth_statement, final_cashout, with_own_house};
use crate::helpers::{Backend, sign};
use crate::paying::{PaidApp, decode, sign_payment};

/// The shell block of `deploy/README.md` under `<!-- procedure: {name} -->`.
fn procedure(name: &str) -> String {
    let readme = include_str!("../../../deploy/README.md");
    let marker = format!("<!-- procedure: {name} -->");
    let after = readme
        .split_once(&marker)
        .unwrap_or_else(|| panic!("deploy/README.md has no {marker}"))
        .1;
    let block = after.split_once("```sh\n").expect("a sh block").1;
    block
        .split_once("```")
        .expect("the block ends")
        .0
        .to_owned()
}

/// Runs the README's block `name` for the database of `app`, the copy at `backup`.
fn run_procedure(app: &PaidApp, name: &str, backup: &std::path::Path) {
    let script = procedure(name);
    let url = &app.database_url;
    let file = url
        .strip_prefix("sqlite://")
        .map(|path| path.split('?').next().unwrap().to_owned())
        .unwrap_or_default();
    let status = std::process::Command::new("bash")
        .args(["-euo", "pipefail", "-c", &script])
        .env("ARCADE_DB", file)
        .env("DATABASE_URL", url)
        .env("BACKUP", backup)
        .status()
        .expect("bash runs");
    assert!(
        status.success(),
        "deploy/README.md's {name} block failed:\n{script}"
    );
}

fn procedures(backend: Backend) -> (&'static str, &'static str) {
    match backend {
        Backend::Sqlite => ("sqlite-backup", "sqlite-restore"),
        Backend::Postgres => ("postgres-backup", "postgres-restore"),
    }
}

fn backup_path() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join("arcade-tests");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(format!("backup-{}", alloy::hex::encode(rand_suffix())))
}

fn rand_suffix() -> [u8; 8] {
    PrivateKeySigner::random().address().0[..8]
        .try_into()
        .unwrap()
}

/// Buys `tier` for `payer` from the binary at `base`.
async fn buy(base: &str, payer: &PrivateKeySigner, tier: &str) {
    let client = reqwest::Client::new();
    let url = format!("{base}/api/arcade/chips/{tier}");
    let offer = client.post(&url).send().await.unwrap();
    assert_eq!(offer.status(), 402);
    let challenge = decode(offer.headers()["payment-required"].to_str().unwrap());
    let (payment, _) = sign_payment(&challenge, payer, |_| {});
    let bought = client
        .post(&url)
        .header("PAYMENT-SIGNATURE", payment)
        .send()
        .await
        .unwrap();
    assert_eq!(bought.status(), 200, "{}", bought.text().await.unwrap());
}

/// A cashout of `chips` for `player` from the binary at `base`, followed until it is final
/// when it was accepted: `(status, body)`.
async fn cash_out(base: &str, player: &PrivateKeySigner, chips: i64) -> (u16, Value) {
    let signature = sign(player, &auth_statement(base, player).await);
    let body = json!({ "address": player.address(), "chips": chips, "signature": signature });
    let answer = reqwest::Client::new()
        .post(format!("{base}/api/arcade/cashout"))
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = answer.status().as_u16();
    let body: Value = answer.json().await.unwrap();
    if status != 200 {
        return (status, body);
    }
    (status, final_cashout(base, &body["cashout_id"]).await)
}

async fn chips(base: &str, address: alloy::primitives::Address) -> i64 {
    let balance: Value = reqwest::Client::new()
        .get(format!("{base}/api/arcade/balance/{address}"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    balance["chips"].as_i64().unwrap()
}

/// The restored database, read afresh (on SQLite the file the restore put in place).
async fn restored(app: &PaidApp) -> sea_orm::DatabaseConnection {
    sea_orm::Database::connect(&app.database_url).await.unwrap()
}

async fn the_documented_restore_never_pays_a_cashout_twice(backend: Backend) {
    let (app, house) = with_own_house(backend).await;
    let (backup_block, restore_block) = procedures(backend);
    let copy = backup_path();
    let serving = Arcade::start(&app, &house, None);
    let payer = app.payer(1_000_000).await;
    buy(&serving.base_url, &payer, "medium").await;
    run_procedure(&app, backup_block, &copy);
    let (status, paid) = cash_out(&serving.base_url, &payer, 10_000).await;
    assert_eq!(
        (status, &paid["status"]),
        (200, &json!("confirmed")),
        "{paid}"
    );
    drop(serving);
    run_procedure(&app, restore_block, &copy);

    let started = Arcade::start(&app, &house, None);
    assert_eq!(
        chips(&started.base_url, payer.address()).await,
        0,
        "the chain's cashout is in the books"
    );
    let (status, again) = cash_out(&started.base_url, &payer, 10_000).await;
    assert_ne!(status, 200, "{again}");
    assert_eq!(
        app.token_balance(payer.address()).await,
        U256::from(1_000_000u64),
        "1.00 in, 1.00 out"
    );
    let db = restored(&app).await;
    let confirmed = cashout::Entity::find()
        .filter(cashout::Column::Status.eq("confirmed"))
        .all(&db)
        .await
        .unwrap();
    assert_eq!(
        confirmed.len(),
        1,
        "one cashout, recorded again from the chain: {confirmed:?}"
    );
    assert_eq!(confirmed[0].tx_hash.as_deref(), paid["tx_hash"].as_str());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_documented_restore_never_pays_a_cashout_twice_on_sqlite() {
    the_documented_restore_never_pays_a_cashout_twice(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_documented_restore_never_pays_a_cashout_twice_on_postgres() {
    the_documented_restore_never_pays_a_cashout_twice(Backend::Postgres).await;
}

/// Two house transactions forgotten (a purchase, then a cashout); the binary aborts right
/// after the books recorded the first, before it serves. Started again, it records the second:
/// each once.
async fn a_crash_in_the_middle_of_the_books_pass(backend: Backend) {
    let (app, house) = with_own_house(backend).await;
    let (backup_block, restore_block) = procedures(backend);
    let copy = backup_path();
    let serving = Arcade::start(&app, &house, None);
    let (first, second) = (app.payer(1_000_000).await, app.payer(100_000).await);
    buy(&serving.base_url, &first, "medium").await;
    run_procedure(&app, backup_block, &copy);
    buy(&serving.base_url, &second, "small").await;
    let (status, paid) = cash_out(&serving.base_url, &first, 5_000).await;
    assert_eq!(
        (status, &paid["status"]),
        (200, &json!("confirmed")),
        "{paid}"
    );
    drop(serving);
    run_procedure(&app, restore_block, &copy);
    let journalled = house_transaction::Entity::find()
        .all(&restored(&app).await)
        .await
        .unwrap()
        .len();

    let mut crashing = Arcade::start_to_crash(&app, &house, "books_recorded");
    assert!(crashing.aborted(), "the fault point was reached");
    let after_crash = house_transaction::Entity::find()
        .all(&restored(&app).await)
        .await
        .unwrap()
        .len();
    assert_eq!(
        after_crash,
        journalled + 1,
        "the first one recorded, then the crash"
    );

    let started = Arcade::start(&app, &house, None);
    assert_eq!(
        chips(&started.base_url, second.address()).await,
        1_000,
        "credited once"
    );
    assert_eq!(
        chips(&started.base_url, first.address()).await,
        5_000,
        "debited once"
    );
    let (status, rest) = cash_out(&started.base_url, &first, 5_000).await;
    assert_eq!(
        (status, &rest["status"]),
        (200, &json!("confirmed")),
        "{rest}"
    );
    let (status, more) = cash_out(&started.base_url, &first, 100).await;
    assert_ne!(status, 200, "{more}");
    let (status, theirs) = cash_out(&started.base_url, &second, 1_000).await;
    assert_eq!(
        (status, &theirs["status"]),
        (200, &json!("confirmed")),
        "{theirs}"
    );
    assert_eq!(
        app.token_balance(first.address()).await,
        U256::from(1_000_000u64)
    );
    assert_eq!(
        app.token_balance(second.address()).await,
        U256::from(100_000u64)
    );
    let journal = house_transaction::Entity::find()
        .all(&restored(&app).await)
        .await
        .unwrap()
        .len();
    assert_eq!(
        journal,
        journalled + 4,
        "two found again, two sent since: none twice"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_crash_in_the_middle_of_the_books_pass_on_sqlite() {
    a_crash_in_the_middle_of_the_books_pass(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_crash_in_the_middle_of_the_books_pass_on_postgres() {
    a_crash_in_the_middle_of_the_books_pass(Backend::Postgres).await;
}
