//! Each running instance beats in the database (`instances`), so that a database restored from
//! a backup never reopens a round whose seed was revealed after the backup: such a round was
//! played or expired after it, and stands open again in the copy. An instance that starts while
//! no other beats (a first start, an upgrade, or a restore done the documented way, every
//! instance stopped) expires every open round before it serves; a running instance whose own
//! count goes back (its database restored under it) expires every open round at its next beat.
//! No chips are taken at commit, so an expired round owes nothing: its owner commits again.

use std::time::Duration;

use super::now_ms;
use super::rounds::expiry::Expiry;
use crate::service::error::ServiceError;
use crate::store;
use crate::store::Db;

/// How often an instance beats.
pub const BEAT: Duration = Duration::from_secs(1);

/// This instance's heartbeat among the instances sharing the database.
#[derive(Clone)]
pub struct Instances {
    db: Db,
    /// This running instance (`Seeds::instance`).
    instance: String,
    expiry: Expiry,
}

impl Instances {
    pub fn new(db: Db, instance: String, expiry: Expiry) -> Self {
        Self {
            db,
            instance,
            expiry,
        }
    }

    /// Before serving: if no other instance beats, every open round expires; then this
    /// instance beats too. Instances found not beating are forgotten.
    pub async fn join_instances(&self) -> Result<(), ServiceError> {
        let before = store::instances::beats(&self.db).await?;
        let mut others_beat = false;
        if !before.is_empty() {
            tokio::time::sleep(BEAT + BEAT / 2).await;
            let after = store::instances::beats(&self.db).await?;
            let (stopped, beating): (Vec<_>, Vec<_>) =
                before.into_iter().partition(|seen| after.contains(seen));
            others_beat = !beating.is_empty();
            let stopped: Vec<String> = stopped.into_iter().map(|(id, _)| id).collect();
            store::instances::forget(&self.db, &stopped).await?;
        }
        if !others_beat {
            self.expire_open_rounds("no other instance is running")
                .await?;
        }
        store::instances::start(&self.db, &self.instance, now_ms()).await?;
        Ok(())
    }

    /// Expires every open round, saying why when there were some.
    async fn expire_open_rounds(&self, why: &str) -> Result<(), ServiceError> {
        let expired = self.expiry.expire_every_open_round().await?;
        if expired > 0 {
            tracing::warn!(
                expired,
                "{why}: every open round expired (a restored database can hold open rounds whose seeds were revealed after its backup)"
            );
        }
        Ok(())
    }

    /// One beat: counts this instance's heartbeat up from `count`; the count to beat from next.
    async fn beat(&self, count: i64) -> Result<i64, ServiceError> {
        let instance = &self.instance;
        if store::instances::beat(&self.db, instance, count).await? {
            return Ok(count + 1);
        }
        self.expire_open_rounds("this instance's heartbeat went back (was its database restored?)")
            .await?;
        store::instances::start(&self.db, instance, now_ms()).await?;
        Ok(0)
    }
}

/// Beats every [`BEAT`] until the process stops.
pub fn spawn_heartbeat(instances: Instances) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut count = 0;
        loop {
            tokio::time::sleep(BEAT).await;
            match instances.beat(count).await {
                Ok(next) => count = next,
                Err(error) => tracing::warn!(%error, "beating"),
            }
        }
    })
}
