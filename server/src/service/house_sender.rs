//! One sender for the house key at a time, across every server instance: a transaction takes
//! its nonce from the chain, is journalled and broadcast while this is held. In one process a
//! mutex does it; on PostgreSQL the row `house_sender` is also held `FOR UPDATE`, so instances
//! sharing the database queue behind each other. (SQLite is one process's database.)

use sea_orm::{ConnectionTrait, DatabaseTransaction, DbBackend, DbErr, TransactionTrait};
use tokio::sync::MutexGuard;

use super::Arcade;

/// Held while a house transaction is signed and broadcast; [`HouseSender::release`] it after.
pub struct HouseSender<'a> {
    _in_process: MutexGuard<'a, ()>,
    across_instances: Option<DatabaseTransaction>,
}

impl Arcade {
    pub async fn house_sender(&self) -> Result<HouseSender<'_>, DbErr> {
        let in_process = self.house_lock.lock().await;
        let across_instances = match self.db.get_database_backend() {
            DbBackend::Postgres => {
                let txn = self.db.begin().await?;
                txn.execute_unprepared("SELECT id FROM house_sender WHERE id = 1 FOR UPDATE")
                    .await?;
                Some(txn)
            }
            _ => None,
        };
        Ok(HouseSender {
            _in_process: in_process,
            across_instances,
        })
    }
}

impl HouseSender<'_> {
    pub async fn release(self) {
        if let Some(txn) = self.across_instances
            && let Err(error) = txn.commit().await
        {
            tracing::warn!(%error, "releasing the house sender row");
        }
    }
}
