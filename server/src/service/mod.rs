//! One function per operation, shared by every edge (REST and MCP). A service decides and
//! orchestrates: it checks the rules, calls `store` for every state change (several in one
//! transaction where they must land together), `chain` for the chain, and `arcade-core` for
//! every number. It writes no SQL and builds no HTTP: each area returns its own domain error
//! (wrapping the shared failures of `error.rs`), and the edge's `error/` maps them to answers;
//! nothing here imports the edge's error.
//!
//! | operation | file |
//! |---|---|
//! | free chips, balance | `wallets.rs` |
//! | commit (open a round) | `rounds.rs` |
//! | flip, dice, roulette (settle a round) | `play.rs`; settled in batches by `play_writer.rs`, one transaction each (`play_batch.rs`) |
//! | verify a bet, recent bets, the audit feed | `receipts.rs` (a result as shown: `shown_result.rs`), its pages bounded by `settled_mark.rs` |
//! | a receipt's batch place and signatures | `proofs.rs` |
//! | the signed marks: from which bet on receipts carry proofs, and sign `house_agent` | `signed_marks.rs` |
//! | publishing seed batches, a seed's place in its batch | `seed_batches.rs` |
//! | the seed batches as the public sees them | `seed_batch_views.rs` |
//! | games listing, house stats | `stats.rs`, read from the floor's snapshot (`floor.rs`) |
//! | the auth statement, verifying signatures, rotating | `auth.rs` |
//! | expiring rounds left open | `expiry.rs` |
//! | each instance's heartbeat, and open rounds expired after a restore | `instances.rs` |
//! | buying chips over x402 (the money flow in) | `purchases/` |
//! | the x402 manifest of paid resources | `manifest.rs` |
//! | finishing settlements a request could not | `reconcile.rs` |
//! | cashouts: chips out as tokens (the money flow out) | `cashouts/` |
//! | one sender for the house key across instances | `house_sender.rs` |
//! | the house's balances against their floors; cashouts it cannot pay | `treasury.rs` |
//! | whether this instance can serve (`/readyz`) | `readiness.rs` |

pub mod auth;
pub mod cashouts;
pub mod error;
pub mod expiry;
pub mod floor;
pub mod house_sender;
pub mod instances;
pub mod manifest;
pub mod play;
pub mod play_batch;
pub mod play_writer;
pub mod proofs;
pub mod purchases;
pub mod readiness;
pub mod receipts;
pub mod reconcile;
pub mod rounds;
mod seed_batch_views;
pub mod seed_batches;
pub mod settled_mark;
pub mod shown_result;
pub mod signed_marks;
pub mod stats;
pub mod treasury;
pub mod wallets;

use std::collections::HashSet;

use arcade_core::Limits;

use crate::faults::CrashPoint;
use crate::housebots::HouseBots;
use crate::identity::Identity;
use crate::rate_limits::RateLimits;
use crate::settings::RoundSettings;
use crate::store::Db;
use purchases::Payments;

/// The arcade's state: the database and what every operation needs to decide.
pub struct Arcade {
    pub db: Db,
    pub identity: Identity,
    pub limits: Limits,
    /// Database keys (lowercase) of the service's own wallets.
    pub house_wallets: HashSet<String>,
    /// The chain and the x402 terms; `None` when no chain is configured (purchases answer 503).
    pub payments: Option<Payments>,
    /// Held (with the `house_sender` row on PostgreSQL) while a house transaction is sent.
    pub house_lock: tokio::sync::Mutex<()>,
    /// Crash-safety tests only.
    pub crash_after: Option<CrashPoint>,
    /// The house's own agents (none unless enabled); their addresses are in `house_wallets`.
    pub house_bots: HouseBots,
    /// The public statistics' shared snapshot.
    pub floor: floor::Floor,
    /// Rate limits per client for the operations that create state or move money.
    pub rate_limits: RateLimits,
    /// How many rounds one address may hold open, and for how long.
    pub rounds: RoundSettings,
    /// The house's signing key and its pre-committed seed batches.
    pub seeds: seed_batches::Seeds,
    /// The signed marks, read (or made) at start, before any play is settled.
    pub marks: signed_marks::SignedMarks,
    /// The queue into the one writer that settles plays in batches.
    pub play_writer: play_writer::PlayWriter,
    /// The audit feed's bound, shared by its readers.
    pub settled_mark: settled_mark::SettledMark,
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

/// Days since the Unix epoch (UTC) of a time in milliseconds.
pub fn utc_day(ms: i64) -> i64 {
    ms.div_euclid(86_400_000)
}

/// RFC 3339 UTC with milliseconds, as responses show times.
pub fn rfc3339(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .unwrap_or_default()
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}
