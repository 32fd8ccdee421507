//! One sender for the house key at a time, across every server instance: a transaction takes
//! its nonce from the chain, is journalled and broadcast while this is held. In one process a
//! mutex does it; on PostgreSQL the `house_sender` row is also held (`store::house`), so
//! instances sharing the database queue behind each other.

use std::sync::Arc;

use tokio::sync::{Mutex, MutexGuard};

use crate::chain::SignedTx;
use crate::store::{self, Db, DbErr, Tx};

/// Held while a house transaction is signed and broadcast; [`HouseSender::release`] it after.
pub struct HouseSender<'a> {
    _in_process: MutexGuard<'a, ()>,
    across_instances: Option<Tx>,
}

/// Where the house's one sender is taken: this process's lock and the database's row.
#[derive(Clone)]
pub struct HouseSenders {
    /// Held (with the `house_sender` row on PostgreSQL) while a house transaction is sent.
    lock: Arc<Mutex<()>>,
    db: Db,
}

impl HouseSenders {
    pub fn new(db: Db) -> Self {
        Self {
            lock: Arc::default(),
            db,
        }
    }

    pub async fn hold(&self) -> Result<HouseSender<'_>, DbErr> {
        HouseSender::hold(&self.lock, &self.db).await
    }

    /// The in-process lock, for a rail's context.
    pub fn lock(&self) -> &Mutex<()> {
        &self.lock
    }
}

impl<'a> HouseSender<'a> {
    /// Waits for `lock` in this process, then for the `house_sender` row in `db`.
    pub async fn hold(lock: &'a Mutex<()>, db: &Db) -> Result<Self, DbErr> {
        let in_process = lock.lock().await;
        let across_instances = store::house::hold_sender(db).await?;
        Ok(Self {
            _in_process: in_process,
            across_instances,
        })
    }

    pub async fn release(self) {
        if let Some(txn) = self.across_instances
            && let Err(error) = txn.commit().await
        {
            tracing::warn!(%error, "releasing the house sender row");
        }
    }
}

/// The house journal's record of `tx`, whose hash is `hash` (as text), for a write-ahead.
pub fn journal_entry<'a>(tx: &'a SignedTx, hash: &'a str) -> store::house::Signed<'a> {
    store::house::Signed {
        hash,
        raw: &tx.raw,
        nonce: tx.nonce,
        sender: tx.sender,
    }
}

/// A write-ahead that updated no row refuses: the row moved on, so nothing is broadcast.
pub fn journalled(updated: bool) -> Result<(), DbErr> {
    if updated {
        Ok(())
    } else {
        Err(DbErr::RecordNotUpdated)
    }
}
