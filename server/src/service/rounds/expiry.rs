//! Upkeep that keeps state bounded: open rounds past `rounds.ttl_secs` are marked expired (no
//! chips were taken at commit, so nothing is owed) and taken off their addresses' counts, and
//! idle clients' rate-limit keys are dropped.

use std::sync::Arc;
use std::time::Duration;

use super::clock::RoundClock;
use crate::rate_limits::RateLimits;
use crate::service::error::ServiceError;
use crate::service::now_ms;
use crate::store;
use crate::store::Db;

/// Rounds expired per transaction.
const BATCH: u64 = 500;

/// Expires open rounds past their time.
#[derive(Clone)]
pub struct Expiry {
    db: Db,
    clock: RoundClock,
}

impl Expiry {
    pub fn new(db: Db, clock: RoundClock) -> Self {
        Self { db, clock }
    }

    /// Marks every open round past its time expired; how many.
    pub async fn expire_rounds(&self) -> Result<u64, ServiceError> {
        let mut expired = 0;
        loop {
            let now = now_ms();
            let batch =
                store::rounds::expire_stale(&self.db, self.clock.opened_after(now) + 1, now, BATCH)
                    .await?;
            expired += batch;
            if batch < BATCH {
                return Ok(expired);
            }
        }
    }

    /// Marks every open round expired, whatever its age; how many.
    pub(in crate::service) async fn expire_every_open_round(&self) -> Result<u64, ServiceError> {
        let mut expired = 0;
        loop {
            let batch = store::rounds::expire_stale(&self.db, i64::MAX, now_ms(), BATCH).await?;
            expired += batch;
            if batch < BATCH {
                return Ok(expired);
            }
        }
    }
}

/// Expires rounds and drops idle clients' rate-limit keys every `every` until the process stops.
pub fn spawn_upkeep(
    expiry: Expiry,
    rate_limits: Arc<RateLimits>,
    every: Duration,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            match expiry.expire_rounds().await {
                Ok(0) => {}
                Ok(expired) => tracing::info!(expired, "open rounds expired"),
                Err(error) => tracing::warn!(%error, "expiring open rounds"),
            }
            rate_limits.sweep();
            tokio::time::sleep(every).await;
        }
    })
}
