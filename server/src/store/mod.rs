//! The only code that writes SQL. Each table's state changes are typed functions over its state
//! enum (`entities`), each a conditional update that says whether it happened; services decide
//! what to do and call these, inside one transaction where several changes must land together.
//!
//! | tables | file |
//! |---|---|
//! | `wallets`, `ledger` (every chip movement with its ledger row) | `ledger.rs` |
//! | `rounds`, `bets`, the wallets' count of open rounds | `rounds.rs` |
//! | a batch of plays: rounds spent, wallets written once, bets and ledger rows inserted | `plays.rs`, its SQL `play_sql.rs` |
//! | `seed_batches` (pre-committed seeds; the index each commit takes) | `seed_batches.rs` |
//! | `auth_generations` (rotating an auth statement) | `identities.rs` |
//! | `secret_fingerprints` (what each secret the deployment runs with hashes to), `deployment_secrets` (older versions' generated secrets, to export) | `secrets.rs` |
//! | `signed_marks` (the house's signed marks, kept once) | `signed_marks.rs` |
//! | `instances` (each running instance's heartbeat) | `instances.rs` |
//! | `payments` | `payments.rs` |
//! | `cashouts` | `cashouts.rs` |
//! | what `payments` and `cashouts` share: guarded, stamped updates, journalling, unfinished rows | `outbox.rs` |
//! | `house_transactions`, `house_sender` | `house.rs` |
//! | `house_books` (how far the books followed the house's transactions on the chain), and a forgotten one recorded again | `books/` |
//! | aggregates for the public statistics, `floor_totals` and its watermark | `stats.rs` |
//! | connecting and migrating | `db.rs` |

pub mod books;
pub mod cashouts;
mod db;
pub mod entities;
pub mod house;
pub mod identities;
pub mod instances;
pub mod ledger;
pub mod outage;
pub mod outbox;
pub mod payments;
pub mod play_sql;
pub mod plays;
pub mod rounds;
pub mod secrets;
pub mod seed_batches;
pub mod signed_marks;
pub mod stats;
pub mod wal_checkpoints;

pub use db::{connect, migrate, pending_migrations, sqlite_file};
pub use sea_orm::{DatabaseConnection as Db, DatabaseTransaction as Tx, DbErr};

use sea_orm::{TransactionTrait, UpdateResult};

/// Starts a transaction: the changes made through it land together at `commit`, or not at all.
pub async fn begin(db: &Db) -> Result<Tx, DbErr> {
    db.begin().await
}

/// Rows not finished yet: how many, and when the oldest was created (ms since the epoch).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Unfinished {
    pub count: i64,
    pub oldest_at: Option<i64>,
}

/// Whether `error` is a unique index refusing an insert.
fn unique_violation(error: &DbErr) -> bool {
    matches!(
        error.sql_err(),
        Some(sea_orm::SqlErr::UniqueConstraintViolation(_))
    )
}

/// Whether a conditional update changed its one row.
fn happened(update: UpdateResult) -> bool {
    update.rows_affected == 1
}
