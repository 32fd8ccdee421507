//! Rate limits per client: a general bucket every request draws from (checked at the edge,
//! `api::client`), stricter buckets for the operations that create state or move money,
//! checked inside those operations so an MCP tool call counts the same as its REST twin, and
//! buckets for anonymous reads of many rows, per client and for all, drawn by the rows asked
//! for, one such read at a time (`heavy.rs`). The
//! buckets are `governor`'s GCRA; the key map is bounded (`bounded.rs`); the house's own agents
//! are not limited; `rate_limits.enabled = false` turns it all off.

mod bounded;
mod client;
mod heavy;

use std::num::NonZeroU32;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{Quota, RateLimiter};

pub use bounded::BoundedStore;
pub use client::{BadProxy, ClientKey, TrustedProxies};
pub use heavy::{HeavyRead, ROWS_PER_TOKEN};

use crate::settings::{Bucket, RateLimitSettings};
use crate::telemetry::metrics;

/// Who is calling, as far as limits go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Caller {
    Client(ClientKey),
    /// The house's own agents (they present this process's house-agent token).
    House,
}

/// The operations with their own bucket.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    Free,
    Commit,
    Purchase,
    Cashout,
    Rotate,
    /// One row of a seed batch, read to verify a round.
    ProofRead,
}

impl Operation {
    /// Every operation with a bucket: each one's keys are swept.
    pub const ALL: [Self; 6] = [
        Self::Free,
        Self::Commit,
        Self::Purchase,
        Self::Cashout,
        Self::Rotate,
        Self::ProofRead,
    ];
}

/// Over a bucket: nothing was done; `retry_after_s` is when one more call would pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("too many requests from this client; retry in {retry_after_s} s")]
pub struct RateLimited {
    pub retry_after_s: u64,
}

impl crate::refusal::Refusal for RateLimited {
    fn kind(&self) -> crate::refusal::ErrorKind {
        crate::refusal::RATE_LIMITED
    }

    fn retry_after_s(&self) -> Option<u64> {
        Some(self.retry_after_s)
    }
}

type Limiter = RateLimiter<ClientKey, BoundedStore, DefaultClock>;

pub struct RateLimits {
    enabled: bool,
    clock: DefaultClock,
    general: Limiter,
    free: Limiter,
    commit: Limiter,
    purchase: Limiter,
    cashout: Limiter,
    rotate: Limiter,
    proof_read: Limiter,
    heavy_reads: heavy::HeavyReads,
    proxies: TrustedProxies,
    /// Presented by the house agents (header [`HOUSE_AGENT_HEADER`]); fresh each process.
    house_token: String,
}

/// The header the house agents identify themselves with.
pub const HOUSE_AGENT_HEADER: &str = "x-arcade-house-agent";

impl RateLimits {
    pub fn new(settings: &RateLimitSettings, house_token: String) -> Result<Self, BadProxy> {
        let clock = DefaultClock::default();
        let limiter = |bucket: Bucket| {
            let store = BoundedStore::new(settings.max_clients);
            RateLimiter::new(quota(bucket), store, clock.clone())
        };
        Ok(Self {
            enabled: settings.enabled,
            general: limiter(settings.general),
            free: limiter(settings.free),
            commit: limiter(settings.commit),
            purchase: limiter(settings.purchase),
            cashout: limiter(settings.cashout),
            rotate: limiter(settings.rotate),
            proof_read: limiter(settings.proof_read),
            heavy_reads: heavy::HeavyReads::new(
                limiter(settings.heavy_read),
                settings.heavy_read,
                settings.heavy_read_total,
            ),
            proxies: TrustedProxies::parse(&settings.trusted_proxies)?,
            clock,
            house_token,
        })
    }

    /// Rate limits off: for tests of other things, benchmarks and load tests.
    pub fn disabled() -> Self {
        let settings = RateLimitSettings {
            enabled: false,
            ..crate::settings::Settings::default().rate_limits
        };
        // Cannot fail: it refuses only trusted proxies that do not parse, and there are none.
        Self::new(&settings, String::new()).expect("no proxies to parse")
    }

    pub fn proxies(&self) -> &TrustedProxies {
        &self.proxies
    }

    /// Whether `token` is this process's house-agent token.
    pub fn is_house_token(&self, token: &str) -> bool {
        !self.house_token.is_empty()
            && constant_time_eq(token.as_bytes(), self.house_token.as_bytes())
    }

    pub fn house_token(&self) -> &str {
        &self.house_token
    }

    /// Draws from the general bucket (every request).
    pub fn request(&self, caller: Caller) -> Result<(), RateLimited> {
        self.draw(&self.general, caller, "general")
    }

    /// Draws from `operation`'s bucket.
    pub fn operation(&self, caller: Caller, operation: Operation) -> Result<(), RateLimited> {
        let (limiter, bucket) = self.bucket_of(operation);
        self.draw(limiter, caller, bucket)
    }

    /// `operation`'s bucket and its name.
    fn bucket_of(&self, operation: Operation) -> (&Limiter, &'static str) {
        match operation {
            Operation::Free => (&self.free, "free"),
            Operation::Commit => (&self.commit, "commit"),
            Operation::Purchase => (&self.purchase, "purchase"),
            Operation::Cashout => (&self.cashout, "cashout"),
            Operation::Rotate => (&self.rotate, "rotate"),
            Operation::ProofRead => (&self.proof_read, "proof_read"),
        }
    }

    /// Starts a read of up to `rows` rows (`heavy.rs`): held until the answer is built.
    pub fn heavy_read(&self, caller: Caller, rows: u64) -> Result<HeavyRead<'_>, RateLimited> {
        let Caller::Client(key) = caller else {
            return Ok(HeavyRead::unlimited());
        };
        if !self.enabled {
            return Ok(HeavyRead::unlimited());
        }
        self.heavy_reads.begin(&key, rows).map_err(refused)
    }

    /// Draws `more` rows for a heavy read under way that began with `began_with` (`heavy.rs`,
    /// `HeavyReads::draw`).
    pub fn heavy_draw(
        &self,
        caller: Caller,
        began_with: u64,
        more: u64,
    ) -> Result<(), RateLimited> {
        let Caller::Client(key) = caller else {
            return Ok(());
        };
        if !self.enabled {
            return Ok(());
        }
        self.heavy_reads
            .draw(&key, began_with, more)
            .map_err(refused)
    }

    fn draw(
        &self,
        limiter: &Limiter,
        caller: Caller,
        bucket: &'static str,
    ) -> Result<(), RateLimited> {
        let Caller::Client(key) = caller else {
            return Ok(());
        };
        if !self.enabled {
            return Ok(());
        }
        limiter.check_key(&key).map_err(|not_until| {
            metrics::rate_limited(bucket);
            let wait = not_until.wait_time_from(self.clock.now());
            RateLimited {
                retry_after_s: whole_seconds(wait),
            }
        })
    }

    /// Drops the keys of clients whose buckets are full again; run now and then.
    pub fn sweep(&self) {
        let operations = Operation::ALL.map(|operation| self.bucket_of(operation).0);
        for limiter in std::iter::once(&self.general).chain(operations) {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
        self.heavy_reads.sweep();
    }

    /// Keys held by the general bucket (for the bound's tests).
    pub fn clients(&self) -> usize {
        self.general.len()
    }
}

fn quota(bucket: Bucket) -> Quota {
    let every = Duration::from_millis(bucket.every_ms.max(1));
    let burst = NonZeroU32::new(bucket.burst).unwrap_or(NonZeroU32::MIN);
    // Cannot fail: it refuses only a zero period, and `every` is at least 1 ms.
    Quota::with_period(every)
        .expect("a period of at least 1 ms")
        .allow_burst(burst)
}

/// A heavy read refused by `bucket`: counted, and told how long to wait.
fn refused((bucket, wait): heavy::Refused) -> RateLimited {
    metrics::rate_limited(bucket);
    RateLimited {
        retry_after_s: whole_seconds(wait),
    }
}

/// Seconds to wait, rounded up (a client told 0 would retry at once and fail again).
fn whole_seconds(wait: Duration) -> u64 {
    let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    seconds.max(1)
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Settings;

    fn limits(burst: u32) -> RateLimits {
        let mut settings = Settings::default().rate_limits;
        let bucket = Bucket {
            every_ms: 60_000,
            burst,
        };
        settings.general = bucket;
        settings.free = bucket;
        settings.max_clients = 2;
        RateLimits::new(&settings, "house-token".into()).unwrap()
    }

    /// A key stays only while its bucket is not full again: every operation's bucket is swept,
    /// or clients past `max_clients` would share one bucket for the process's life.
    #[test]
    fn every_operations_keys_are_swept() {
        let mut settings = Settings::default().rate_limits;
        settings.max_clients = 2;
        let quick = Bucket {
            every_ms: 1,
            burst: 1,
        };
        (settings.free, settings.commit, settings.purchase) = (quick, quick, quick);
        (settings.cashout, settings.rotate, settings.proof_read) = (quick, quick, quick);
        let limits = RateLimits::new(&settings, String::new()).unwrap();
        for operation in Operation::ALL {
            let client = Caller::Client(ClientKey::V4([198, 51, 100, 9]));
            limits.operation(client, operation).unwrap();
            assert_eq!(limits.bucket_of(operation).0.len(), 1, "{operation:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
        limits.sweep();
        for operation in Operation::ALL {
            assert_eq!(
                limits.bucket_of(operation).0.len(),
                0,
                "{operation:?} swept"
            );
        }
    }

    #[test]
    fn a_bucket_empties_then_says_when_to_retry() {
        let limits = limits(2);
        let client = Caller::Client(ClientKey::V4([198, 51, 100, 7]));
        assert!(limits.operation(client, Operation::Free).is_ok());
        assert!(limits.operation(client, Operation::Free).is_ok());
        let refused = limits.operation(client, Operation::Free).unwrap_err();
        assert!((59..=60).contains(&refused.retry_after_s), "{refused:?}");
        // Another client, another bucket; the house is never limited.
        let other = Caller::Client(ClientKey::V4([198, 51, 100, 8]));
        assert!(limits.operation(other, Operation::Free).is_ok());
        for _ in 0..10 {
            assert!(limits.operation(Caller::House, Operation::Free).is_ok());
        }
    }

    #[test]
    fn clients_beyond_the_bound_share_one_bucket() {
        let limits = limits(1);
        let first = Caller::Client(ClientKey::V4([203, 0, 113, 1]));
        assert!(limits.request(first).is_ok());
        assert!(limits.request(first).is_err(), "its own bucket is empty");
        let passed = (2..=50u8)
            .filter(|last| {
                let client = Caller::Client(ClientKey::V4([203, 0, 113, *last]));
                limits.request(client).is_ok()
            })
            .count();
        assert_eq!(limits.clients(), 3, "two clients and the shared bucket");
        assert_eq!(
            passed, 2,
            "the second client, then one draw of the shared bucket"
        );
    }

    #[test]
    fn heavy_reads_draw_by_the_rows_asked_for_one_at_a_time() {
        let mut settings = Settings::default().rate_limits;
        let bucket = |burst| Bucket {
            every_ms: 60_000,
            burst,
        };
        settings.heavy_read = bucket(20);
        settings.heavy_read_total = bucket(45);
        let limits = RateLimits::new(&settings, String::new()).unwrap();
        let client = |last| Caller::Client(ClientKey::V4([198, 51, 100, last]));
        // 1000 rows: 10 tokens; twice empties a client's bucket.
        drop(limits.heavy_read(client(9), 1000).unwrap());
        drop(limits.heavy_read(client(9), 1000).unwrap());
        assert!(
            limits.heavy_read(client(9), 1).is_err(),
            "even one row now waits"
        );
        // Small reads cost one token; a read beyond the bucket costs the whole bucket.
        for _ in 0..20 {
            drop(limits.heavy_read(client(10), 50).unwrap());
        }
        assert!(limits.heavy_read(client(10), 50).is_err());
        // 20 + 20 of the 45 shared tokens are gone: 5 are left for everyone else.
        assert!(
            limits.heavy_read(client(11), 1000).is_err(),
            "the shared bucket"
        );
        let reading = limits.heavy_read(client(12), 500).unwrap();
        let busy = limits.heavy_read(client(13), 1).unwrap_err();
        assert_eq!(busy.retry_after_s, 1, "one heavy read at a time");
        drop(reading);
        assert!(limits.heavy_read(Caller::House, 1_000_000).is_ok());
    }

    #[test]
    fn the_switch_turns_every_bucket_off_and_the_token_is_checked_whole() {
        let limits = RateLimits::disabled();
        let client = Caller::Client(ClientKey::V4([198, 51, 100, 7]));
        for _ in 0..1000 {
            assert!(limits.operation(client, Operation::Cashout).is_ok());
        }
        assert!(!limits.is_house_token(""), "an empty token is nobody's");
        let limits = self::limits(1);
        assert!(limits.is_house_token("house-token"));
        assert!(!limits.is_house_token("house-toke"));
        assert!(!limits.is_house_token("house-tokens"));
    }
}
