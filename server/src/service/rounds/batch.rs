//! One batch of commits in one transaction (the commit writer runs it: `group_commit.rs`). The
//! batch's wallets are made where missing and read locked, in address order (the order play
//! batches lock them in, so the two queue instead of deadlocking); a commit proven with a
//! statement generation that is no longer its address's current one takes nothing (a rotation
//! locks the wallet first, so it either expires the round or revokes the commit); each other
//! commit is counted against its address's open rounds in queue order, and one at the cap
//! takes nothing. The
//! counted ones take the next indices of this instance's seed batches, each turned into its
//! round's seed, commitment and signed Commitment (on two threads when there are several); then
//! each wallet's count is written once and the rounds go in as one multi-row insert. An index
//! this instance already committed (its database went back under it) gives that seed batch up
//! and opens the batch's rounds on a new one; no index is used twice or skipped.

use std::collections::BTreeMap;
use std::future::Future;

use super::opening::{NewRound, OpenedRound, seal};
use crate::identity::Generation;
use crate::service::error::ServiceError;
use crate::service::group_commit::Batches;
use crate::service::seeds::batches::SeedBatches;
use crate::store;
use crate::store::Db;
use crate::store::seed_batches::Taken;

/// Attempts at a batch whose seeds ran out or went back under this instance, each after a
/// new seed batch is published.
const SEED_ATTEMPTS: usize = 4;

/// A commit checked (its address proven), waiting for the writer.
#[derive(Debug, Clone)]
pub struct QueuedCommit {
    pub round: NewRound,
    /// The statement generation its proof holds for.
    pub generation: Generation,
}

/// What became of one queued commit.
#[derive(Debug)]
pub enum CommitOutcome {
    /// Opened and committed: the round, with its commitment and the house's signature of it.
    Opened(Box<OpenedRound>),
    /// The address holds the most open rounds it may: nothing written for it.
    AtCap,
    /// The address's current statement generation is not the one the commit was proven with
    /// (it rotated): nothing written for it.
    Stale,
}

/// Opens batches of rounds, each in one transaction (the commit writer runs it).
#[derive(Clone)]
pub struct CommitBatches {
    db: Db,
    seed_batches: SeedBatches,
    /// How many rounds one address may hold open.
    pub(in crate::service) max_open: i64,
}

/// How one attempt at a batch ended.
enum Attempt {
    Opened(Vec<CommitOutcome>),
    /// This instance's seed batches have fewer indices left than the batch counted (how many
    /// it wanted): nothing written.
    NoSeed(i64),
    /// An index taken was one this instance already committed: nothing written.
    Rewound(Taken),
}

/// No seed batch could be published in time for a batch of commits.
#[derive(Debug, thiserror::Error)]
#[error("no seed batch has an index left, and publishing one did not make room")]
struct NoSeeds;

/// A wallet's count of open rounds moved while the batch held it (another writer).
#[derive(Debug, thiserror::Error)]
#[error("a wallet's count of open rounds moved while a batch of commits held it")]
struct CountsMoved;

impl Batches for CommitBatches {
    type Item = QueuedCommit;
    type Outcome = CommitOutcome;
    const NAME: &'static str = "commit";

    fn settle(
        &self,
        items: &[QueuedCommit],
    ) -> impl Future<Output = Result<Vec<CommitOutcome>, ServiceError>> + Send {
        self.settle_batch(items)
    }
}

impl CommitBatches {
    pub fn new(db: Db, seed_batches: SeedBatches, max_open: i64) -> Self {
        Self {
            db,
            seed_batches,
            max_open,
        }
    }

    async fn settle_batch(
        &self,
        queued: &[QueuedCommit],
    ) -> Result<Vec<CommitOutcome>, ServiceError> {
        for _ in 0..SEED_ATTEMPTS {
            match self.try_batch(queued).await? {
                Attempt::Opened(outcomes) => return Ok(outcomes),
                Attempt::NoSeed(wanted) => self.seed_batches.ensure_room_for(wanted).await?,
                Attempt::Rewound(taken) => {
                    self.seed_batches.abandon_rewound(&taken).await?;
                    self.seed_batches.ensure_seed_room().await?;
                }
            }
        }
        Err(ServiceError::internal(NoSeeds))
    }

    async fn try_batch(&self, queued: &[QueuedCommit]) -> Result<Attempt, ServiceError> {
        let seeds = &self.seed_batches.seeds;
        let txn = store::begin(&self.db).await?;
        let mut wallets: BTreeMap<&str, i64> = BTreeMap::new();
        for commit in queued {
            wallets
                .entry(&commit.round.address)
                .or_insert(commit.round.now);
        }
        let counts = store::rounds::lock_open_counts(&txn, &wallets).await?;
        let generations =
            store::identities::current_generations(&txn, wallets.keys().copied()).await?;
        let admitted = admit(queued, &counts, &generations, self.max_open);
        let wanted = admitted
            .iter()
            .filter(|admitted| **admitted == Admitted::Open)
            .count();
        let taken = store::seed_batches::take_indices(&txn, &seeds.instance, wanted).await?;
        if taken.len() < wanted {
            let wanted = i64::try_from(wanted).map_err(ServiceError::internal)?;
            return Ok(Attempt::NoSeed(wanted));
        }
        if let Some(rewound) = taken.iter().find(|taken| seeds.taken_before(taken)) {
            return Ok(Attempt::Rewound(rewound.clone()));
        }
        let opening: Vec<&NewRound> = queued
            .iter()
            .zip(&admitted)
            .filter_map(|(commit, admitted)| (*admitted == Admitted::Open).then_some(&commit.round))
            .collect();
        let opened = seal(seeds, &opening, taken)?;
        let mut added: BTreeMap<&str, i64> = BTreeMap::new();
        for round in &opening {
            *added.entry(&round.address).or_default() += 1;
        }
        let rows = opened.iter().map(|opened| opened.round.clone());
        if !store::rounds::insert_opened(&txn, rows, &added, self.max_open).await? {
            return Err(ServiceError::internal(CountsMoved));
        }
        txn.commit().await?;
        for opened in &opened {
            seeds.committed(&opened.taken);
        }
        let mut opened = opened.into_iter();
        let outcomes = admitted.iter().map(|admitted| match admitted {
            Admitted::Open => opened.next().map_or(CommitOutcome::AtCap, |round| {
                CommitOutcome::Opened(Box::new(round))
            }),
            Admitted::AtCap => CommitOutcome::AtCap,
            Admitted::Stale => CommitOutcome::Stale,
        });
        Ok(Attempt::Opened(outcomes.collect()))
    }
}

/// Whether a commit opens its round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Admitted {
    Open,
    AtCap,
    Stale,
}

/// Per commit, in queue order: stale if `generations` (each address's current stored one; none
/// is the derived first, 0) is not the generation it was proven with, else whether its address
/// has room for it: fewer open rounds than `cap`, counting the commits opened before it in the
/// batch.
fn admit(
    queued: &[QueuedCommit],
    counts: &BTreeMap<String, i64>,
    generations: &BTreeMap<String, (i64, String)>,
    cap: i64,
) -> Vec<Admitted> {
    let mut open: BTreeMap<&str, i64> = BTreeMap::new();
    queued
        .iter()
        .map(|commit| {
            let address = &commit.round.address;
            let current = match generations.get(address) {
                Some((number, nonce)) => {
                    *number == commit.generation.number && *nonce == commit.generation.nonce
                }
                None => commit.generation.number == 0,
            };
            if !current {
                return Admitted::Stale;
            }
            let held = open
                .entry(address)
                .or_insert_with(|| counts.get(address).copied().unwrap_or(0));
            if *held >= cap {
                return Admitted::AtCap;
            }
            *held += 1;
            Admitted::Open
        })
        .collect()
}
