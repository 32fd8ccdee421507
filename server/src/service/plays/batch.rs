//! One batch of plays in one transaction. The batch's rounds are spent by one conditional
//! update and read with their wallets (the wallets locked in address order); then every play is
//! settled in memory against its wallet (`book.rs`; a refused play's round is opened
//! again); then each wallet is written once, and the bets (their ids taken first, their receipts
//! signed, on two threads when there are several) and their ledger rows go in as multi-row
//! inserts, in one round trip (`store::plays`). A play whose round is missing, not open,
//! expired, or already played earlier in the batch is left to its request, which answers from
//! the stored state.

use std::collections::{HashMap, HashSet};

use arcade_core::wire::CallParams;
use arcade_core::{ARCADE_NONCE, Limits};

use super::book::{Book, BookedPlay};
use super::command::Queued;
use super::error::PlayError;
use crate::service::error::ServiceError;
use crate::service::group_commit::Batches;
use crate::service::receipts::proofs::Proofs;
use crate::service::receipts::receipt::BetReceipt;
use crate::service::rounds::clock::RoundClock;
use crate::service::rounds::ids::new_round_id;
use crate::service::rounds::opening::{NewRound, OpenedRound, seal};
use crate::service::stats::floor::Floor;
use crate::service::{HouseWallets, now_ms};
use crate::store;
use crate::store::Db;
use crate::store::entities::bet::BetGame;
use crate::store::entities::{bet, round};
use crate::store::seed_batches::Taken;
use crate::telemetry::metrics;

/// What became of one queued play.
#[derive(Debug)]
pub enum Outcome {
    /// Settled and committed: the receipt (signed, proofs not yet attached) and the balance.
    Settled(Box<Settled>),
    /// Its round could not be spent by this play; the request looks at the round.
    NotOpen,
    /// Refused by the rules (short balance, daily cap): nothing changed.
    Refused(PlayError),
}

#[derive(Debug)]
pub struct Settled {
    pub receipt: BetReceipt,
    pub round: round::Model,
    pub receipt_signature: Option<String>,
    pub balance: i64,
    /// The free pocket of `balance`.
    pub free_chips: i64,
    /// The round this play opened for its address (`next_round`), committed with it.
    pub next_round: Option<OpenedRound>,
}

/// What opening a batch's successors came to.
enum Successors {
    /// The indices taken, one per successor opened.
    Opened(Vec<Taken>),
    /// An index taken was one this instance already committed: nothing may be written.
    Rewound(Taken),
}

/// A batch's successors took an index this instance had committed: it is settled again.
#[derive(Debug, thiserror::Error)]
#[error("seed batch {0} went back under this instance; the plays are settled on a new one")]
struct RewoundSeeds(i64);

/// A balance moved under a batch that held its wallet (another writer on the database).
#[derive(Debug, thiserror::Error)]
#[error("a wallet among the batch's {0} changed while the batch held it")]
struct BalanceMoved(usize);

/// Settles batches of plays, each in one transaction (the play writer runs it).
#[derive(Clone)]
pub struct PlayBatches {
    pub(in crate::service) db: Db,
    pub(in crate::service) limits: Limits,
    /// Bets of the house's own wallets are recorded as such.
    house_wallets: HouseWallets,
    pub(in crate::service) clock: RoundClock,
    /// Receipts are signed as they are settled.
    pub(in crate::service) proofs: Proofs,
    /// Told when a batch changed the floor.
    pub(in crate::service) floor: Floor,
}

impl Batches for PlayBatches {
    type Item = Queued;
    type Outcome = Outcome;
    const NAME: &'static str = "play";

    fn settle(
        &self,
        items: &[Queued],
    ) -> impl std::future::Future<Output = Result<Vec<Outcome>, ServiceError>> + Send {
        self.settle_batch(items)
    }

    fn committed(&self) {
        self.floor.changed();
    }

    fn taken(&self, waits: &mut dyn Iterator<Item = std::time::Duration>) {
        metrics::play_batch_taken(waits);
    }

    fn finished(&self, elapsed: std::time::Duration) {
        metrics::play_batch_settled(elapsed);
    }
}

impl PlayBatches {
    pub fn new(
        db: Db,
        limits: Limits,
        house_wallets: HouseWallets,
        clock: RoundClock,
        (proofs, floor): (Proofs, Floor),
    ) -> Self {
        Self {
            db,
            limits,
            house_wallets,
            clock,
            proofs,
            floor,
        }
    }

    /// Settles `queued` in one transaction; one outcome per play, in order.
    pub(in crate::service) async fn settle_batch(
        &self,
        queued: &[Queued],
    ) -> Result<Vec<Outcome>, ServiceError> {
        let now = now_ms();
        let txn = store::begin(&self.db).await?;
        let ids: Vec<&str> = queued.iter().map(|q| q.play.round_id.as_str()).collect();
        let mut spent =
            store::plays::spend_batch(&txn, &ids, now, self.clock.opened_after(now)).await?;
        for round in &mut spent.rounds {
            self.proofs.fill_server_seed(&txn, round).await?;
        }
        let rounds = first_plays(queued, &spent.rounds);

        let mut book = Book::new(&spent.wallets, now);
        let mut refused = Vec::new();
        let mut pending = Vec::with_capacity(queued.len());
        for (queued, round) in queued.iter().zip(rounds) {
            let Some(round) = round else {
                pending.push(Pending::NotOpen);
                continue;
            };
            match book.play(round, queued, &self.limits) {
                Ok(settlement) => pending.push(Pending::Settled(round, queued, settlement)),
                Err(error) => {
                    refused.push(&*round.id);
                    pending.push(Pending::Refused(error));
                }
            }
        }
        store::plays::unspend(&txn, &refused).await?;
        let settled_count = pending
            .iter()
            .filter(|p| matches!(p, Pending::Settled(..)))
            .count();
        let mut bet_ids = spent.bet_ids(settled_count)?.into_iter();
        let (mut outcomes, bets) = self.record(pending, &book, &mut bet_ids, now)?;
        let opened = self
            .open_successors(&txn, queued, &mut outcomes, &mut book, now)
            .await?;
        let seeds = &self.proofs.seed_batches.seeds;
        let taken = match opened {
            Successors::Opened(taken) => taken,
            Successors::Rewound(rewound) => {
                // Not an index a restore may have revealed: that seed batch is given up, and
                // the batch is settled again on a new one.
                drop(txn);
                let seed_batches = &self.proofs.seed_batches;
                seed_batches.abandon_rewound(&rewound).await?;
                seed_batches.ensure_seed_room().await?;
                return Err(ServiceError::internal(RewoundSeeds(rewound.batch_id)));
            }
        };
        let wallets_after = book.wallets_after();
        if !store::plays::write_batch(&txn, &wallets_after, &bets, &book.ledger).await? {
            return Err(ServiceError::internal(BalanceMoved(wallets_after.len())));
        }
        txn.commit().await?;
        for taken in &taken {
            seeds.committed(taken);
        }
        for settled in settled(&outcomes) {
            let receipt = &settled.receipt;
            metrics::round_settled(receipt.game.as_str(), receipt.wager, receipt.payout);
        }
        Ok(outcomes)
    }

    /// Opens, in the batch's transaction, the successor each settled play asked for
    /// (`next_round`) on the next indices of this instance's seed batches: as many as they
    /// have left (a play beyond them is answered without one). Each takes the place of the
    /// round its play spent, so no count of open rounds grows. The indices taken, or one this
    /// instance already committed (its database went back under it).
    async fn open_successors(
        &self,
        txn: &impl sea_orm::ConnectionTrait,
        queued: &[Queued],
        outcomes: &mut [Outcome],
        book: &mut Book,
        now: i64,
    ) -> Result<Successors, ServiceError> {
        let mut asking: Vec<(&mut Settled, NewRound)> = Vec::new();
        for (queued, outcome) in queued.iter().zip(outcomes.iter_mut()) {
            if let (true, Outcome::Settled(settled)) = (queued.play.next_round, outcome) {
                let next = NewRound {
                    round_id: new_round_id()?,
                    address: settled.round.address.clone(),
                    now,
                    predecessor: Some(settled.round.id.clone()),
                };
                asking.push((settled, next));
            }
        }
        if asking.is_empty() {
            return Ok(Successors::Opened(Vec::new()));
        }
        let seeds = &self.proofs.seed_batches.seeds;
        let taken = store::seed_batches::take_indices(txn, &seeds.instance, asking.len()).await?;
        if let Some(rewound) = taken.iter().find(|taken| seeds.taken_before(taken)) {
            return Ok(Successors::Rewound(rewound.clone()));
        }
        let indices = taken.clone();
        let opening: Vec<&NewRound> = asking.iter().map(|(_, next)| next).collect();
        let opened = seal(seeds, &opening, taken)?;
        store::rounds::insert_rounds(txn, opened.iter().map(|o| o.round.clone())).await?;
        for ((settled, _), opened) in asking.into_iter().zip(opened) {
            book.opened(&opened.round.address)?;
            settled.next_round = Some(opened);
        }
        Ok(Successors::Opened(indices))
    }

    /// The outcomes, and the bets to insert: ids assigned in queue order, receipts signed.
    fn record(
        &self,
        pending: Vec<Pending<'_>>,
        book: &Book,
        bet_ids: &mut impl Iterator<Item = i64>,
        now: i64,
    ) -> Result<(Vec<Outcome>, Vec<bet::Model>), ServiceError> {
        let mut outcomes = Vec::with_capacity(pending.len());
        let mut bets = Vec::new();
        for entry in pending {
            let (round, queued, settlement) = match entry {
                Pending::Settled(round, queued, settlement) => (round, queued, settlement),
                Pending::NotOpen => {
                    outcomes.push(Outcome::NotOpen);
                    continue;
                }
                Pending::Refused(error) => {
                    outcomes.push(Outcome::Refused(error));
                    continue;
                }
            };
            let id = bet_ids
                .next()
                .ok_or_else(|| ServiceError::internal(NoBetId))?;
            let house_agent = self.house_wallets.contains(&round.address);
            let (bet, receipt) = settled_bet(id, (round, house_agent), queued, &settlement, now)?;
            let after = &book.ledger[settlement.ledger_index];
            outcomes.push(Outcome::Settled(Box::new(Settled {
                receipt,
                round: round.clone(),
                receipt_signature: None,
                balance: after.balance_after,
                free_chips: settlement.free_after,
                next_round: None,
            })));
            bets.push(bet);
        }
        let unsigned: Vec<_> = settled(&outcomes)
            .map(|settled| (&settled.receipt, &settled.round))
            .collect();
        let signatures = self.proofs.sign_receipts(&unsigned)?;
        let settled = outcomes.iter_mut().filter_map(|outcome| match outcome {
            Outcome::Settled(settled) => Some(settled),
            _ => None,
        });
        for ((settled, bet), signature) in settled.zip(&mut bets).zip(signatures) {
            bet.receipt_signature.clone_from(&signature);
            settled.receipt_signature = signature;
        }
        Ok((outcomes, bets))
    }
}

/// The settled among `outcomes`, in order.
fn settled(outcomes: &[Outcome]) -> impl Iterator<Item = &Settled> {
    outcomes.iter().filter_map(|outcome| match outcome {
        Outcome::Settled(settled) => Some(&**settled),
        _ => None,
    })
}

/// Per play, the round it spent: the one spent with its id, if it is the first play of that
/// round in the batch.
fn first_plays<'r>(queued: &[Queued], spent: &'r [round::Model]) -> Vec<Option<&'r round::Model>> {
    let by_id: HashMap<&str, &round::Model> = spent.iter().map(|r| (&*r.id, r)).collect();
    let mut seen = HashSet::new();
    queued
        .iter()
        .map(|q| {
            let round = *by_id.get(q.play.round_id.as_str())?;
            seen.insert(&*round.id).then_some(round)
        })
        .collect()
}

/// Fewer bet ids were reserved than plays settled (a store defect).
#[derive(Debug, thiserror::Error)]
#[error("no bet id reserved for a settled play")]
struct NoBetId;

enum Pending<'a> {
    Settled(&'a round::Model, &'a Queued, BookedPlay),
    NotOpen,
    Refused(PlayError),
}

/// The bet row (id reserved, not yet signed) and its receipt, from the settlement in memory;
/// `house_agent` whether the round's wallet is one of the house's own (recorded with the bet,
/// and signed from the signed marks on).
fn settled_bet(
    id: i64,
    (round, house_agent): (&round::Model, bool),
    queued: &Queued,
    booked: &BookedPlay,
    now: i64,
) -> Result<(bet::Model, BetReceipt), ServiceError> {
    let (play, settlement) = (&queued.play, &booked.settlement);
    let params = CallParams(&settlement.call);
    let bet = bet::Model {
        id,
        round_id: round.id.clone(),
        address: round.address.clone(),
        game: BetGame(settlement.call.game()),
        client_seed: play.client_seed.clone(),
        nonce: i64::try_from(ARCADE_NONCE).map_err(ServiceError::internal)?,
        wager: i64::try_from(play.wager).map_err(ServiceError::internal)?,
        params: serde_json::to_string(&params).map_err(ServiceError::internal)?,
        result: serde_json::to_string(&settlement.result).map_err(ServiceError::internal)?,
        won: settlement.won,
        payout: i64::try_from(settlement.payout).map_err(ServiceError::internal)?,
        profit: settlement.profit,
        settled_at: now,
        receipt_signature: None,
        commitment: round.commitment.clone(),
        committed_at: round.created_at,
        free_wagered: i64::try_from(booked.stake.from_free()).map_err(ServiceError::internal)?,
        free_paid: i64::try_from(booked.shares.free).map_err(ServiceError::internal)?,
        house_agent: Some(house_agent),
        play_signature: play.play_signature.clone(),
    };
    let receipt = BetReceipt::settled(&bet, round, settlement.call, settlement.result)?;
    Ok((bet, receipt))
}
