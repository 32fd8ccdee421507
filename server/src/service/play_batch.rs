//! One batch of plays in one transaction. The batch's rounds are spent by one conditional
//! update and read with their wallets (the wallets locked in address order); then every play is
//! settled in memory, in queue order, against its wallet's running balance, free pocket and the
//! day's net (a refused play changes nothing: its round is opened again); the wager stakes free
//! chips first and a win goes back to the pockets as `arcade_core::pockets` splits it; then
//! each wallet is written once,
//! and the bets (their ids taken first, their receipts signed, on two threads when there are
//! several) and their ledger rows go in as multi-row inserts, in one round trip
//! (`store::plays`). A play whose round is missing, not open, expired, or already played earlier
//! in the batch is left to its request, which answers from the stored state.

use std::collections::{HashMap, HashSet};

use arcade_core::wire::CallParams;
use arcade_core::{ARCADE_NONCE, ClientSeed, Round, ServerSeed, Settlement, Shares, Stake};

use super::play::PlayError;
use super::play_writer::Queued;
use super::receipts::BetReceipt;
use super::{Arcade, now_ms, utc_day};
use crate::service::error::ServiceError;
use crate::store;
use crate::store::entities::bet::BetGame;
use crate::store::entities::ledger::LedgerKind;
use crate::store::entities::{bet, round};
use crate::store::plays::{LedgerRow, WalletAfter, WalletRead};
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
}

/// A balance moved under a batch that held its wallet (another writer on the database).
#[derive(Debug, thiserror::Error)]
#[error("a wallet among the batch's {0} changed while the batch held it")]
struct BalanceMoved(usize);

/// A round whose wallet row is missing: the database was changed by hand.
#[derive(Debug, thiserror::Error)]
#[error("round {0} has no wallet")]
struct NoWallet(String);

impl Arcade {
    /// Settles `queued` in one transaction; one outcome per play, in order.
    pub(super) async fn settle_batch(
        &self,
        queued: &[Queued],
    ) -> Result<Vec<Outcome>, ServiceError> {
        let now = now_ms();
        let txn = store::begin(&self.db).await?;
        let ids: Vec<&str> = queued.iter().map(|q| q.play.round_id.as_str()).collect();
        let spent = store::plays::spend_batch(&txn, &ids, now, self.opened_after(now)).await?;
        let rounds = first_plays(queued, &spent.rounds);

        let mut book = Book::new(&spent.wallets, now);
        let mut refused = Vec::new();
        let mut pending = Vec::with_capacity(queued.len());
        for (queued, round) in queued.iter().zip(rounds) {
            let Some(round) = round else {
                pending.push(Pending::NotOpen);
                continue;
            };
            match book.play(round, queued, self) {
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
        let (outcomes, bets) = self.record(pending, &book, &mut bet_ids, now)?;
        let wallets_after = book.wallets_after();
        if !store::plays::write_batch(&txn, &wallets_after, &bets, &book.ledger).await? {
            return Err(ServiceError::internal(BalanceMoved(wallets_after.len())));
        }
        txn.commit().await?;
        for settled in settled(&outcomes) {
            let receipt = &settled.receipt;
            metrics::round_settled(receipt.game.as_str(), receipt.wager, receipt.payout);
        }
        Ok(outcomes)
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
            })));
            bets.push(bet);
        }
        let unsigned: Vec<_> = settled(&outcomes)
            .map(|settled| (&settled.receipt, &settled.round))
            .collect();
        let signatures = self.sign_receipts(&unsigned)?;
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

/// A play settled in memory: the core's settlement, how its wager and payout split between
/// the pockets, its last ledger row and the free pocket after it.
struct BookedPlay {
    settlement: Settlement,
    stake: Stake,
    shares: Shares,
    ledger_index: usize,
    free_after: i64,
}

/// The batch's wallets as the plays change them, and the ledger rows of every change.
struct Book {
    wallets: HashMap<String, WalletAfter>,
    ledger: Vec<LedgerRow>,
    now: i64,
    today: i64,
}

impl Book {
    fn new(wallets: &[WalletRead], now: i64) -> Self {
        let wallets = wallets
            .iter()
            .map(|w| {
                let after = WalletAfter {
                    address: w.address.clone(),
                    chips_before: w.chips,
                    chips: w.chips,
                    free_before: w.free_chips,
                    free_chips: w.free_chips,
                    net_day: w.net_day,
                    net_today: w.net_today,
                    rounds_spent: 0,
                };
                (w.address.clone(), after)
            })
            .collect();
        Self {
            wallets,
            ledger: Vec::new(),
            now,
            today: utc_day(now),
        }
    }

    /// Takes the wager (free chips first), settles with `arcade-core` and pays out to the pockets
    /// in proportion to their stakes, if the balance and the daily cap allow; otherwise nothing
    /// changes.
    fn play(
        &mut self,
        round: &round::Model,
        queued: &Queued,
        arcade: &Arcade,
    ) -> Result<BookedPlay, PlayError> {
        let (today, now) = (self.today, self.now);
        let wallet = self
            .wallets
            .get_mut(&round.address)
            .ok_or_else(|| ServiceError::internal(NoWallet(round.id.clone())))?;
        let wager = i64::try_from(queued.play.wager).map_err(ServiceError::internal)?;
        if wallet.chips < wager {
            return Err(PlayError::InsufficientChips {
                balance: wallet.chips,
                wager: queued.play.wager,
            });
        }
        let net_today = net_on(today, wallet.net_day, wallet.net_today);
        arcade
            .limits
            .check_daily_cap(net_today, queued.potential_profit)?;
        let settlement = settle(round, &queued.play)?;
        let payout = i64::try_from(settlement.payout).map_err(ServiceError::internal)?;
        let (stake, shares) = pockets(wallet.free_chips, queued.play.wager, settlement.payout)?;
        let from_free = i64::try_from(stake.from_free()).map_err(ServiceError::internal)?;
        let free_share = i64::try_from(shares.free).map_err(ServiceError::internal)?;
        let reference = format!("round:{}", round.id);
        let row = |kind, (delta, free_delta), balance_after| LedgerRow {
            address: round.address.clone(),
            kind,
            delta,
            balance_after,
            reference: reference.clone(),
            at: now,
            free_delta,
        };
        wallet.chips -= wager;
        wallet.free_chips -= from_free;
        let wagered = row(LedgerKind::Wager, (-wager, -from_free), wallet.chips);
        self.ledger.push(wagered);
        if payout > 0 {
            wallet.chips += payout;
            wallet.free_chips += free_share;
            let won = row(LedgerKind::Win, (payout, free_share), wallet.chips);
            self.ledger.push(won);
        }
        wallet.net_day = today;
        wallet.net_today = net_today + settlement.profit;
        wallet.rounds_spent += 1;
        Ok(BookedPlay {
            settlement,
            stake,
            shares,
            ledger_index: self.ledger.len() - 1,
            free_after: wallet.free_chips,
        })
    }

    /// The wallets a play changed, in address order (the order they were locked in).
    fn wallets_after(&self) -> Vec<WalletAfter> {
        let mut changed: Vec<WalletAfter> = self
            .wallets
            .values()
            .filter(|after| after.rounds_spent > 0)
            .cloned()
            .collect();
        changed.sort_unstable_by(|a, b| a.address.cmp(&b.address));
        changed
    }
}

/// How a wager of `wager` from a wallet whose free pocket holds `free` chips, and its payout,
/// split between the pockets (`arcade_core::pockets`).
fn pockets(free: i64, wager: u64, payout: u64) -> Result<(Stake, Shares), ServiceError> {
    let free = u64::try_from(free).map_err(ServiceError::internal)?;
    let stake = Stake::take(free, wager).map_err(ServiceError::internal)?;
    Ok((stake, stake.split(payout)))
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

/// An address's net winnings on `today`: what its row holds if the row is of that day, else
/// none yet.
fn net_on(today: i64, net_day: i64, net_today: i64) -> i64 {
    if net_day == today { net_today } else { 0 }
}

fn settle(round: &round::Model, play: &super::play::Play) -> Result<Settlement, ServiceError> {
    let server_seed = ServerSeed::parse(&round.server_seed).map_err(ServiceError::internal)?;
    let client_seed = ClientSeed::parse(&play.client_seed).map_err(ServiceError::internal)?;
    let round = Round::new(
        server_seed,
        client_seed,
        ARCADE_NONCE,
        play.call,
        play.wager,
    )
    .map_err(ServiceError::internal)?;
    Ok(round.settle())
}
