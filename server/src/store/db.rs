//! Opening the database (SQLite file in WAL mode, or PostgreSQL, picked by the URL) and running
//! the one schema's migrations.

use std::time::Duration;

use arcade_migrations::{Migrator, MigratorTrait};
use sea_orm::sqlx::sqlite::{SqliteJournalMode, SqliteSynchronous};
use sea_orm::{
    ConnectOptions, ConnectionTrait, Database, DatabaseConnection, DbBackend, DbErr,
    TransactionTrait,
};

use crate::settings::DatabaseSettings;

/// Negative: KiB rather than pages.
const SQLITE_CACHE_KIB: &str = "-65536";
const SQLITE_MMAP_BYTES: &str = "1073741824";
/// A pooled connection idle this long is pinged before it is handed out.
const IDLE_BEFORE_PING: Duration = Duration::from_secs(30);

pub async fn connect(settings: &DatabaseSettings) -> Result<DatabaseConnection, DbErr> {
    let url = settings.url.expose();
    let is_sqlite = url.starts_with("sqlite:");
    let pool_size = settings
        .max_connections
        .unwrap_or(if is_sqlite { 1 } else { 16 });
    let mut options = ConnectOptions::new(url);
    options
        .max_connections(pool_size)
        .acquire_timeout(Duration::from_secs(30))
        .sqlx_logging(false)
        // sqlx pings a connection when it goes back to the pool; pinging it again on every
        // checkout costs each statement a second round trip, so only a connection idle long
        // enough to have been dropped by the server or a proxy is tested first.
        .test_before_acquire_if_idle_for(IDLE_BEFORE_PING)
        .map_sqlx_sqlite_opts(|opts| {
            opts.journal_mode(SqliteJournalMode::Wal)
                .synchronous(SqliteSynchronous::Normal)
                .busy_timeout(Duration::from_secs(10))
                .foreign_keys(true)
                // Round ids are random, so plays touch pages all over the tables: keep 64 MiB
                // of them in the page cache and read the file through a map, not read(2).
                .pragma("cache_size", SQLITE_CACHE_KIB)
                .pragma("mmap_size", SQLITE_MMAP_BYTES)
        });
    Database::connect(options).await
}

/// Applies the pending migrations. On PostgreSQL, where several instances may start at once on
/// one fresh database, in one transaction holding an advisory lock: the first to take it
/// migrates, the others then find nothing pending (without it, two would apply the same
/// migration and one fail on what the other created).
pub async fn migrate(db: &DatabaseConnection) -> Result<(), DbErr> {
    if db.get_database_backend() != DbBackend::Postgres {
        return Migrator::up(db, None).await;
    }
    let txn = db.begin().await?;
    txn.execute_unprepared(&format!("SELECT pg_advisory_xact_lock({MIGRATION_LOCK})"))
        .await?;
    Migrator::up(&txn, None).await?;
    txn.commit().await
}

/// The advisory lock id migrations take on PostgreSQL (any constant the deployment's other
/// clients of the database do not use: "arcade" in ASCII).
const MIGRATION_LOCK: i64 = 0x0000_6172_6361_6465;

/// Migrations not yet applied to `db` (`arcade migrate` or `arcade serve` applies them).
pub async fn pending_migrations(db: &DatabaseConnection) -> Result<usize, DbErr> {
    Ok(Migrator::get_pending_migrations(db).await?.len())
}

/// The path a SQLite URL (`sqlite://path?mode=rwc`, `sqlite:path`) names (`:memory:` for an
/// in-memory one); `None` for another backend.
pub fn sqlite_file(url: &str) -> Option<&std::path::Path> {
    let rest = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))?;
    Some(std::path::Path::new(rest.split('?').next().unwrap_or(rest)))
}
