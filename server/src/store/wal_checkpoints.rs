//! SQLite only: copying the write-ahead log back into the database file from a connection of
//! its own. Left to the writing connection (SQLite's automatic checkpoint), the copy runs inside
//! whichever commit first finds the log past 1,000 pages, and every play queued behind that
//! commit waits for it. A passive checkpoint from a second connection copies what is committed
//! without taking the write lock, so the writer goes on; the writer's own automatic checkpoint
//! stays on as the bound, and finds little left to copy.

use std::str::FromStr;

use sea_orm::DbErr;
use sea_orm::sqlx::sqlite::{SqliteConnectOptions, SqliteConnection};
use sea_orm::sqlx::{self, ConnectOptions as _};

/// What a checkpoint found: frames in the log, and how many of them are now in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Checkpointed {
    pub logged: i64,
    pub copied: i64,
}

/// A connection that only checkpoints.
pub struct WalCheckpointer {
    connection: SqliteConnection,
}

impl WalCheckpointer {
    /// A checkpointing connection to the SQLite file `url` names; `None` for PostgreSQL or a
    /// database in memory (which has no log to copy).
    pub async fn open(url: &str) -> Result<Option<Self>, DbErr> {
        if !url.starts_with("sqlite:") || url.contains(":memory:") || url.contains("mode=memory") {
            return Ok(None);
        }
        let options = SqliteConnectOptions::from_str(url)
            .map_err(sqlx_error)?
            .create_if_missing(false);
        let connection = options.connect().await.map_err(sqlx_error)?;
        Ok(Some(Self { connection }))
    }

    /// Copies every committed page not yet in the database file, without waiting for or
    /// blocking the writer (a passive checkpoint).
    pub async fn checkpoint(&mut self) -> Result<Checkpointed, DbErr> {
        let (_busy, logged, copied): (i64, i64, i64) =
            sqlx::query_as("PRAGMA wal_checkpoint(PASSIVE)")
                .fetch_one(&mut self.connection)
                .await
                .map_err(sqlx_error)?;
        Ok(Checkpointed { logged, copied })
    }
}

fn sqlx_error(error: sqlx::Error) -> DbErr {
    DbErr::Conn(sea_orm::RuntimeErr::SqlxError(error.into()))
}
