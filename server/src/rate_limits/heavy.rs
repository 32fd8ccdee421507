//! Reads of many rows (the audit feed, a seed batch's detail, the list of batches). Each client
//! draws from its own bucket by the rows it asks for; all clients together draw from one bucket
//! the same way; and one heavy read runs at a time on an instance. However many clients (or
//! addresses) loop them, they cost this instance a bounded share of one core, and plays keep the
//! rest.

use std::num::NonZeroU32;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::state::{InMemoryState, NotKeyed};
use governor::{NotUntil, RateLimiter};
use tokio::sync::{Semaphore, SemaphorePermit};

use super::client::ClientKey;
use super::{Limiter, quota};
use crate::settings::Bucket;

/// Rows of a heavy read that cost one token.
pub const ROWS_PER_TOKEN: u64 = 100;

/// Refused: which bucket (for the metrics) and how long to wait.
pub type Refused = (&'static str, Duration);

type Shared = RateLimiter<NotKeyed, InMemoryState, DefaultClock>;

pub struct HeavyReads {
    per_client: Limiter,
    per_client_burst: NonZeroU32,
    total: Shared,
    total_burst: NonZeroU32,
    one_at_a_time: Semaphore,
    clock: DefaultClock,
}

/// A heavy read under way: the next one on this instance may start once it is dropped.
#[derive(Debug)]
#[must_use = "the read is under way while this is held"]
pub struct HeavyRead<'a> {
    _one_at_a_time: Option<SemaphorePermit<'a>>,
}

impl HeavyRead<'_> {
    /// For callers no heavy-read limit applies to (the house, limits off).
    pub fn unlimited() -> Self {
        Self {
            _one_at_a_time: None,
        }
    }
}

impl HeavyReads {
    pub fn new(per_client: Limiter, per_client_bucket: Bucket, total: Bucket) -> Self {
        let clock = DefaultClock::default();
        Self {
            per_client,
            per_client_burst: burst(per_client_bucket),
            total: RateLimiter::direct_with_clock(quota(total), clock.clone()),
            total_burst: burst(total),
            one_at_a_time: Semaphore::new(1),
            clock,
        }
    }

    /// Starts a read of up to `rows` rows for `client`: when no other heavy read runs, and
    /// both its own bucket and the shared one hold the rows' tokens.
    pub fn begin(&self, client: &ClientKey, rows: u64) -> Result<HeavyRead<'_>, Refused> {
        let permit = self
            .one_at_a_time
            .try_acquire()
            .map_err(|_| ("heavy_read_busy", Duration::from_secs(1)))?;
        self.draw(client, 0, rows)?;
        Ok(HeavyRead {
            _one_at_a_time: Some(permit),
        })
    }

    /// Draws the tokens of `more` rows for `client`, from its own bucket and the shared one,
    /// beyond the `began_with` rows already drawn: what a read under way (its `HeavyRead` held)
    /// turns out to cost beyond what it began with. The two draws together take no more than a
    /// whole bucket, so a read refused for them passes once the bucket is full again.
    pub fn draw(&self, client: &ClientKey, began_with: u64, more: u64) -> Result<(), Refused> {
        let total = began_with.saturating_add(more);
        let beyond = |burst| {
            let drawn = if began_with == 0 {
                0
            } else {
                tokens(began_with, burst).get()
            };
            NonZeroU32::new(tokens(total, burst).get() - drawn)
        };
        if let Some(own) = beyond(self.per_client_burst) {
            self.waited(self.per_client.check_key_n(client, own), "heavy_read")?;
        }
        if let Some(shared) = beyond(self.total_burst) {
            self.waited(self.total.check_n(shared), "heavy_read_total")?;
        }
        Ok(())
    }

    fn waited(
        &self,
        drawn: Result<
            Result<(), NotUntil<<DefaultClock as Clock>::Instant>>,
            governor::InsufficientCapacity,
        >,
        bucket: &'static str,
    ) -> Result<(), Refused> {
        match drawn {
            Ok(Ok(())) => Ok(()),
            Ok(Err(not_until)) => Err((bucket, not_until.wait_time_from(self.clock.now()))),
            // Never drawn: `tokens` keeps every draw within its bucket.
            Err(too_many) => {
                tracing::warn!(%too_many, bucket, "a draw larger than its bucket");
                Err((bucket, Duration::from_secs(1)))
            }
        }
    }

    pub fn sweep(&self) {
        self.per_client.retain_recent();
        self.per_client.shrink_to_fit();
    }
}

fn burst(bucket: Bucket) -> NonZeroU32 {
    NonZeroU32::new(bucket.burst).unwrap_or(NonZeroU32::MIN)
}

/// One token per [`ROWS_PER_TOKEN`] rows, at least one and at most the whole bucket.
fn tokens(rows: u64, burst: NonZeroU32) -> NonZeroU32 {
    u32::try_from(rows.div_ceil(ROWS_PER_TOKEN))
        .ok()
        .and_then(NonZeroU32::new)
        .unwrap_or(NonZeroU32::MIN)
        .min(burst)
}
