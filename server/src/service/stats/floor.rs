//! The floor's numbers behind `/house`, `/games` and the house agents' replies: one snapshot
//! shared by every request. It is refreshed single-flight (callers that arrive during a refresh
//! take its result) when a bet or cashout of this process changed the floor, or when it is a
//! second old (other instances' plays), and at most once per `MIN_INTERVAL`; a refresh folds the new bets into the stored totals at
//! most once a second and reads the totals plus the bets since the last fold. A flood of
//! readers therefore costs the database one refresh at a time, never a scan of the bets.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::figures::{CashoutTotals, CountAndChips, GameStats};
use crate::service::error::ServiceError;
use crate::service::{HouseWallets, now_ms};
use crate::store;
use crate::store::Db;
use crate::store::entities::cashout::CashoutStatus;
use crate::store::entities::floor_total::FloorScope;

/// How stale a snapshot may be when nothing changed here (other instances may have played).
const MAX_AGE: Duration = Duration::from_secs(1);
/// The least time between two refreshes: a reader after a change waits at most this long.
const MIN_INTERVAL: Duration = Duration::from_millis(100);
/// How often new bets are folded into the stored totals, at most.
const FOLD_EVERY: Duration = Duration::from_secs(1);

/// The floor as one refresh read it.
#[derive(Debug, Default)]
pub struct Snapshot {
    /// Per game, the house wallets' rounds.
    pub house: BTreeMap<String, GameStats>,
    /// Per game, everyone else's.
    pub players: BTreeMap<String, GameStats>,
    pub cashouts: CashoutTotals,
}

impl Snapshot {
    /// Per game, every round on the floor.
    pub fn all(&self) -> BTreeMap<String, GameStats> {
        let mut all = self.players.clone();
        for (game, stats) in &self.house {
            let sum = all.entry(game.clone()).or_default();
            sum.add(stats.rounds, stats.wagered, stats.paid_out);
        }
        all
    }
}

/// The latest snapshot and the refresh in progress, shared by every reader.
#[derive(Default)]
struct FloorCache {
    /// Bumped by every change of the floor made here.
    changes: AtomicU64,
    latest: Mutex<Option<Taken>>,
    /// Held while refreshing; holds when the totals were last folded.
    refreshing: tokio::sync::Mutex<Option<Instant>>,
}

#[derive(Clone)]
struct Taken {
    snapshot: Arc<Snapshot>,
    /// When the refresh began: it saw every change made before.
    began: Instant,
    changes: u64,
}

impl FloorCache {
    /// The latest snapshot if it answers a request that arrived at `arrived`.
    fn fresh(&self, arrived: Instant) -> Option<Arc<Snapshot>> {
        let latest = self.latest.lock().unwrap_or_else(|e| e.into_inner());
        let taken = latest.as_ref()?;
        let unchanged =
            taken.changes == self.changes.load(Ordering::SeqCst) && taken.began.elapsed() < MAX_AGE;
        (unchanged || taken.began >= arrived).then(|| taken.snapshot.clone())
    }

    fn last_refresh_began(&self) -> Option<Instant> {
        let latest = self.latest.lock().unwrap_or_else(|e| e.into_inner());
        latest.as_ref().map(|taken| taken.began)
    }

    fn keep(&self, taken: Taken) {
        *self.latest.lock().unwrap_or_else(|e| e.into_inner()) = Some(taken);
    }
}

/// The floor's numbers: the shared snapshot and what a refresh reads.
#[derive(Clone)]
pub struct Floor {
    db: Db,
    /// The house's rounds are counted apart.
    house_wallets: HouseWallets,
    cache: Arc<FloorCache>,
}

impl Floor {
    pub fn new(db: Db, house_wallets: HouseWallets) -> Self {
        Self {
            db,
            house_wallets,
            cache: Arc::default(),
        }
    }

    /// The house's own wallets, whose rounds the floor counts apart.
    pub fn house_wallets(&self) -> &HouseWallets {
        &self.house_wallets
    }

    /// A bet was settled or a cashout changed here: the next reader refreshes.
    pub fn changed(&self) {
        self.cache.changes.fetch_add(1, Ordering::SeqCst);
    }

    pub(in crate::service) async fn snapshot(&self) -> Result<Arc<Snapshot>, ServiceError> {
        let arrived = Instant::now();
        if let Some(snapshot) = self.cache.fresh(arrived) {
            return Ok(snapshot);
        }
        let mut last_fold = self.cache.refreshing.lock().await;
        if let Some(snapshot) = self.cache.fresh(arrived) {
            return Ok(snapshot);
        }
        // Plays change the floor all the time: refreshes are spaced so that a flood of readers
        // under play costs the database a bounded number of reads, however many arrive.
        if let Some(since) = self.cache.last_refresh_began() {
            tokio::time::sleep(MIN_INTERVAL.saturating_sub(since.elapsed())).await;
        }
        let began = Instant::now();
        let changes = self.cache.changes.load(Ordering::SeqCst);
        if last_fold.is_none_or(|at| at.elapsed() >= FOLD_EVERY) {
            // A failed fold only leaves more bets to read past the watermark.
            if let Err(error) = store::stats::fold(&self.db, &self.house_wallets, now_ms()).await {
                tracing::warn!(%error, "folding the floor totals failed");
            }
            *last_fold = Some(Instant::now());
        }
        let snapshot = Arc::new(self.read_floor().await?);
        self.cache.keep(Taken {
            snapshot: snapshot.clone(),
            began,
            changes,
        });
        Ok(snapshot)
    }

    async fn read_floor(&self) -> Result<Snapshot, ServiceError> {
        let mut snapshot = Snapshot::default();
        for totals in store::stats::floor(&self.db, &self.house_wallets).await? {
            let side = match totals.scope {
                FloorScope::House => &mut snapshot.house,
                FloorScope::Players => &mut snapshot.players,
            };
            let game = side.entry(totals.game).or_default();
            game.add(totals.rounds, totals.wagered, totals.paid_out);
        }
        for (status, count, chips) in store::stats::cashout_totals(&self.db).await? {
            let bucket: &mut CountAndChips = match status {
                CashoutStatus::Confirmed => &mut snapshot.cashouts.confirmed,
                CashoutStatus::Failed => &mut snapshot.cashouts.refunded,
                CashoutStatus::Pending | CashoutStatus::Sent => &mut snapshot.cashouts.in_flight,
            };
            bucket.count += count;
            bucket.chips += chips;
        }
        Ok(snapshot)
    }
}
