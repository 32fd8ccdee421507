//! The operations shared by every edge (REST, MCP, the house agents), one struct per area. A
//! service decides and orchestrates: it checks the rules, calls `store` for every state change
//! (several in one transaction where they must land together), `chain` for the chain, and
//! `arcade-core` for every number. It writes no SQL and builds no HTTP: each area returns its
//! own domain error (wrapping the shared failures of `error.rs`), and the edge's `error/` maps
//! them to answers; nothing here imports the edge's error, nor presents a route (the 402
//! challenge, discovery metadata and the manifest are `api/`'s).
//!
//! Each area's struct holds only the handles it uses (cheap clones: `Db`, `Arc`s) and the areas
//! it calls; [`Arcade`] is the composition root that builds them (here, and only here, is
//! `impl Arcade`), and an edge calls `arcade.<area>.<operation>`.
//!
//! | `arcade.` | operations | holds | file |
//! |---|---|---|---|
//! | `wallets` | free chips, balance | db, limits, rate limits, `auth` | `wallets.rs` |
//! | `rounds` | commit (open a round), show a round | db, rate limits, clock, `seed_batches`, `auth`, `receipts`, the commit writer's queue | `rounds/`; opened in batches by the commit writer (`group_commit.rs`), one transaction each (`rounds/batch.rs`, with the open-round cap, the rows made by `rounds/opening.rs`); when a round expires: `rounds/clock.rs`; its id: `rounds/ids.rs` |
//! | `plays` | flip, dice, roulette, … (settle a round) | db, limits, clock, `auth`, `proofs`, `receipts`, the writer's queue | `plays/`; settled in batches by the play writer (`group_commit.rs`), one transaction each (`plays/batch.rs`, in memory `plays/book.rs`) |
//! | `receipts` | verify a bet, recent bets, the audit feed | db, house wallets, `proofs`, the settled mark | `receipts/` (one receipt: `receipts/receipt.rs`; a result as shown: `shown_result.rs`; a stored bet read back: `stored_bets.rs`; the verdict: `verdict.rs`), its pages bounded by `settled_mark.rs` |
//! | `proofs` | a receipt's batch place and signatures; checking a play's signature | `seed_batches`, the signed marks | `receipts/proofs.rs`, their shapes on the wire: `receipts/wire.rs`; the marks: `signed_marks.rs` |
//! | `seed_batches` | publishing seed batches, a seed's place in its batch, the batches as the public sees them | db, the seeds, house wallets, clock | `seeds/` (the seeds: `seeds/house.rs`; the batches: `seeds/batches.rs`, their audit paths: `paths.rs`, reads: `reads.rs`, views: `views.rs`) |
//! | `stats` | games listing, house stats | the floor (db, house wallets, snapshot), limits, round settings, the signer, the marks | `stats/`, read from the floor's snapshot (`stats/floor.rs`) in its figures (`stats/figures.rs`) |
//! | `auth` | the auth statement, verifying signatures, rotating | db, identity, rate limits | `auth/` (generations as this instance last saw them: `auth/known_generations.rs`) |
//! | `expiry` | expiring rounds left open | db, clock | `rounds/expiry.rs` |
//! | `instances` | each instance's heartbeat, and open rounds expired after a restore | db, this instance's id, `expiry` | `instances.rs` |
//! | `purchases` | buying chips over x402 (the money flow in) | db, payments, rate limits, the house sender, crash points | `purchases/` |
//! | `cashouts` | cashouts: chips out as tokens (the money flow out), and finishing them | db, payments, rate limits, `auth`, the house sender, crash points | `cashouts/`; what the house can pay: `treasury.rs`, held by `payments.rs` with the chain and the rails |
//! | `books` | following the house's transactions on the chain: what a restore forgot recorded again | db, payments, crash points | `books/` (what a forgotten transaction was: `books/record.rs`) |
//! | `reconcile` | finishing settlements and cashouts a request could not | db, `purchases`, `cashouts`, `books` | `reconcile.rs` |
//! | `readiness` | whether this instance can serve (`/readyz`) | db, payments, `books` | `readiness.rs` |
//! | | one sender for the house key across instances | its lock, db | `house_sender.rs` |

pub mod auth;
pub mod books;
pub mod cashouts;
pub mod error;
pub mod group_commit;
pub mod house_sender;
pub mod instances;
pub mod payments;
pub mod plays;
pub mod purchases;
mod randomness;
pub mod readiness;
pub mod receipts;
pub mod reconcile;
pub mod rounds;
pub mod seeds;
pub mod signed_marks;
pub mod stats;
pub mod treasury;
pub mod wallets;

use std::collections::HashSet;
use std::sync::Arc;

use arcade_core::Limits;

use crate::faults::CrashPoint;
use crate::identity::Identity;
use crate::rate_limits::RateLimits;
use crate::settings::RoundSettings;
use crate::store::Db;
use payments::Payments;

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
    pub plays: plays::Plays,
    pub receipts: receipts::Receipts,
    pub seed_batches: seeds::SeedBatches,
    pub proofs: receipts::proofs::Proofs,
    pub stats: stats::Stats,
    pub expiry: rounds::expiry::Expiry,
    pub instances: instances::Instances,
    pub purchases: purchases::Purchases,
    pub cashouts: cashouts::Cashouts,
    pub reconcile: reconcile::Reconcile,
    pub readiness: readiness::ReadinessProbe,
    /// Following the house's transactions on the chain (a pass runs before serving).
    pub books: books::Books,
    /// Rate limits per client for the operations that create state or move money.
    pub rate_limits: Arc<RateLimits>,
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
    /// How the edge names each game (its route and parameters), for the games listing.
    pub game_wire: stats::GameWire,
    pub rate_limits: RateLimits,
    /// How many rounds one address may hold open, and for how long.
    pub rounds: RoundSettings,
    /// The house's signing key and its pre-committed seed batches.
    pub seeds: seeds::Seeds,
    /// The signed marks, read (or made) at start, before any play is settled.
    pub marks: signed_marks::SignedMarks,
}

impl Arcade {
    /// Wires the areas: each gets its own handles and the areas it calls.
    pub fn new(parts: Parts) -> Self {
        let db = parts.db;
        let house_wallets: HouseWallets = Arc::new(parts.house_wallets);
        let rate_limits = Arc::new(parts.rate_limits);
        let seeds = Arc::new(parts.seeds);
        let marks = Arc::new(parts.marks);
        let clock = rounds::clock::RoundClock::new(&parts.rounds);
        let auth = auth::Auth::new(db.clone(), Arc::new(parts.identity), rate_limits.clone());
        let seed_batches = seeds::SeedBatches::new(
            db.clone(),
            seeds.clone(),
            house_wallets.clone(),
            clock,
            rate_limits.clone(),
        );
        let proofs = receipts::proofs::Proofs::new(seed_batches.clone(), marks.clone());
        let receipts = receipts::Receipts::new(db.clone(), house_wallets.clone(), proofs.clone());
        let floor = stats::floor::Floor::new(db.clone(), house_wallets.clone());
        let expiry = rounds::expiry::Expiry::new(db.clone(), clock);
        let batches = plays::batch::PlayBatches::new(
            db.clone(),
            parts.limits,
            house_wallets.clone(),
            clock,
            (proofs.clone(), floor.clone()),
        );
        let money = Money::new(&db, parts.payments, &rate_limits, &auth, parts.crash_after);
        // The play and commit writers write to one database: each tells the log's checkpointer.
        let committed = Arc::new(tokio::sync::Notify::new());
        let commits = rounds::batch::CommitBatches::new(
            db.clone(),
            seed_batches.clone(),
            parts.rounds.max_open_per_address,
        );
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
                writer: Arc::new(group_commit::GroupWriter::new(commits, committed.clone())),
                clock,
                seed_batches: seed_batches.clone(),
                auth: auth.clone(),
                receipts: receipts.clone(),
            },
            plays: plays::Plays::new(
                batches,
                committed,
                auth.clone(),
                receipts.clone(),
                money.books.clone(),
            ),
            stats: stats::Stats::new(
                floor,
                parts.limits,
                parts.rounds,
                (seeds.clone(), marks),
                parts.game_wire,
            ),
            instances: instances::Instances::new(
                db.clone(),
                seeds.instance.clone(),
                expiry.clone(),
            ),
            reconcile: money.reconcile,
            readiness: money.readiness,
            books: money.books,
            purchases: money.purchases,
            cashouts: money.cashouts,
            auth,
            receipts,
            seed_batches,
            proofs,
            expiry,
            rate_limits,
            db,
        }
    }
}

/// The areas that need the chain: the money flows in and out, finishing them, and readiness.
struct Money {
    books: books::Books,
    purchases: purchases::Purchases,
    cashouts: cashouts::Cashouts,
    reconcile: reconcile::Reconcile,
    readiness: readiness::ReadinessProbe,
}

impl Money {
    fn new(
        db: &Db,
        payments: Option<Payments>,
        rate_limits: &Arc<RateLimits>,
        auth: &auth::Auth,
        crash_after: Option<CrashPoint>,
    ) -> Self {
        let payments = payments.map(Arc::new);
        let sender = house_sender::HouseSenders::new(db.clone());
        let books = books::Books::new(db.clone(), payments.clone(), crash_after);
        let purchases = purchases::Purchases {
            db: db.clone(),
            payments: payments.clone(),
            rate_limits: rate_limits.clone(),
            sender: sender.clone(),
            crash_after,
        };
        let cashouts = cashouts::Cashouts {
            db: db.clone(),
            payments: payments.clone(),
            rate_limits: rate_limits.clone(),
            auth: auth.clone(),
            sender,
            books: books.clone(),
            crash_after,
        };
        Self {
            reconcile: reconcile::Reconcile::new(
                db.clone(),
                (purchases.clone(), cashouts.clone()),
                books.clone(),
            ),
            readiness: readiness::ReadinessProbe::new(db.clone(), payments, books.clone()),
            books,
            purchases,
            cashouts,
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
