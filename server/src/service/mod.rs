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
//! | verify a bet, recent bets, the audit feed | `receipts.rs`, its pages bounded by `settled_mark.rs` |
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
pub mod play;
pub mod play_batch;
mod play_book;
pub mod play_writer;
pub mod proofs;
pub mod purchases;
pub mod readiness;
pub mod receipts;
pub mod reconcile;
pub mod round_clock;
pub mod rounds;
mod seed_batch_views;
pub mod seed_batches;
pub mod settled_mark;
pub mod signed_marks;
pub mod stats;
pub mod treasury;
pub mod wallets;

use std::collections::HashSet;
use std::sync::Arc;

use arcade_core::Limits;

use crate::faults::CrashPoint;
use crate::housebots::HouseBots;
use crate::identity::Identity;
use crate::rate_limits::RateLimits;
use crate::settings::RoundSettings;
use crate::store::Db;
use purchases::Payments;

/// Database keys (lowercase) of the service's own wallets, shared by the areas that tell them
/// apart.
pub type HouseWallets = Arc<HashSet<String>>;

/// The arcade: one service per area, each holding only the handles it uses; the edges call
/// `arcade.<area>.<operation>`. Built once, at start, from [`Parts`].
pub struct Arcade {
    /// The database itself, for monitoring and tests; operations go through the areas.
    pub db: Db,
    pub auth: auth::Auth,
    pub wallets: wallets::Wallets,
    pub rounds: rounds::Rounds,
    pub plays: play::Plays,
    pub receipts: receipts::Receipts,
    pub seed_batches: seed_batches::SeedBatches,
    pub proofs: proofs::Proofs,
    pub stats: stats::Stats,
    pub expiry: expiry::Expiry,
    pub instances: instances::Instances,
    pub purchases: purchases::Purchases,
    pub cashouts: cashouts::Cashouts,
    pub reconcile: reconcile::Reconcile,
    pub readiness: readiness::ReadinessProbe,
    /// Rate limits per client for the operations that create state or move money.
    pub rate_limits: Arc<RateLimits>,
    /// The house's own agents (none unless enabled); their addresses are among the house wallets.
    pub house_bots: HouseBots,
}

/// What the areas are built from: what start connected, read and decided.
pub struct Parts {
    pub db: Db,
    pub identity: Identity,
    pub limits: Limits,
    pub house_wallets: HashSet<String>,
    /// The chain and the x402 terms; `None` when no chain is configured (purchases answer 503).
    pub payments: Option<Payments>,
    /// Crash-safety tests only.
    pub crash_after: Option<CrashPoint>,
    pub house_bots: HouseBots,
    pub rate_limits: RateLimits,
    /// How many rounds one address may hold open, and for how long.
    pub rounds: RoundSettings,
    /// The house's signing key and its pre-committed seed batches.
    pub seeds: seed_batches::Seeds,
    /// The signed marks, read (or made) at start, before any play is settled.
    pub marks: signed_marks::SignedMarks,
}

impl Arcade {
    /// Wires the areas: each gets its own handles and the areas it calls.
    pub fn new(parts: Parts) -> Self {
        let db = parts.db;
        let house_wallets: HouseWallets = Arc::new(parts.house_wallets);
        let rate_limits = Arc::new(parts.rate_limits);
        let payments = parts.payments.map(Arc::new);
        let seeds = Arc::new(parts.seeds);
        let marks = Arc::new(parts.marks);
        let clock = round_clock::RoundClock::new(&parts.rounds);
        let sender = house_sender::HouseSenders::new(db.clone());
        let auth = auth::Auth::new(db.clone(), Arc::new(parts.identity), rate_limits.clone());
        let seed_batches =
            seed_batches::SeedBatches::new(db.clone(), seeds.clone(), house_wallets.clone(), clock);
        let proofs = proofs::Proofs::new(seed_batches.clone(), marks.clone());
        let receipts = receipts::Receipts::new(db.clone(), house_wallets.clone(), proofs.clone());
        let floor = floor::Floor::new(db.clone(), house_wallets.clone());
        let expiry = expiry::Expiry::new(db.clone(), clock);
        let purchases = purchases::Purchases {
            db: db.clone(),
            payments: payments.clone(),
            rate_limits: rate_limits.clone(),
            sender: sender.clone(),
            crash_after: parts.crash_after,
        };
        let cashouts = cashouts::Cashouts {
            db: db.clone(),
            payments: payments.clone(),
            rate_limits: rate_limits.clone(),
            auth: auth.clone(),
            sender,
            crash_after: parts.crash_after,
        };
        Self {
            wallets: wallets::Wallets::new(
                db.clone(),
                parts.limits,
                rate_limits.clone(),
                auth.clone(),
            ),
            rounds: rounds::Rounds {
                db: db.clone(),
                rate_limits: rate_limits.clone(),
                max_open: parts.rounds.max_open_per_address,
                clock,
                seed_batches: seed_batches.clone(),
                auth: auth.clone(),
                receipts: receipts.clone(),
            },
            plays: play::Plays::new(
                play_batch::PlayBatches::new(
                    db.clone(),
                    parts.limits,
                    house_wallets.clone(),
                    clock,
                    (proofs.clone(), floor.clone()),
                ),
                auth.clone(),
                receipts.clone(),
            ),
            stats: stats::Stats {
                floor,
                house_wallets,
                limits: parts.limits,
                rounds: parts.rounds,
                seeds: seeds.clone(),
                marks,
            },
            instances: instances::Instances::new(
                db.clone(),
                seeds.instance.clone(),
                expiry.clone(),
            ),
            reconcile: reconcile::Reconcile::new(db.clone(), purchases.clone(), cashouts.clone()),
            readiness: readiness::ReadinessProbe::new(db.clone(), payments),
            auth,
            receipts,
            seed_batches,
            proofs,
            expiry,
            purchases,
            cashouts,
            rate_limits,
            house_bots: parts.house_bots,
            db,
        }
    }
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
