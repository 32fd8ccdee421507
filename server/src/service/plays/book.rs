//! A batch's plays settled in memory, in queue order, against each wallet's running balance,
//! free pocket and the day's net: the wager stakes free chips first and a win goes back to the
//! pockets as `arcade_core::pockets` splits it; a refused play changes nothing. The batch
//! (`batch.rs`) writes what the book ends with.

use std::collections::HashMap;

use arcade_core::{ARCADE_NONCE, ClientSeed, Limits, Round, ServerSeed, Settlement, Shares, Stake};

use super::command::{Play, Queued};
use super::error::PlayError;
use crate::service::error::ServiceError;
use crate::service::utc_day;
use crate::store::entities::ledger::LedgerKind;
use crate::store::entities::round;
use crate::store::plays::{LedgerRow, WalletAfter, WalletRead};

/// A round whose wallet row is missing: the database was changed by hand.
#[derive(Debug, thiserror::Error)]
#[error("round {0} has no wallet")]
struct NoWallet(String);

/// A play settled in memory: the core's settlement, how its wager and payout split between
/// the pockets, its last ledger row and the free pocket after it.
pub(in crate::service) struct BookedPlay {
    pub settlement: Settlement,
    pub stake: Stake,
    pub shares: Shares,
    pub ledger_index: usize,
    pub free_after: i64,
}

/// The batch's wallets as the plays change them, and the ledger rows of every change.
pub(in crate::service) struct Book {
    wallets: HashMap<String, WalletAfter>,
    pub ledger: Vec<LedgerRow>,
    now: i64,
    today: i64,
}

impl Book {
    pub fn new(wallets: &[WalletRead], now: i64) -> Self {
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
                    rounds_opened: 0,
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
    pub fn play(
        &mut self,
        round: &round::Model,
        queued: &Queued,
        limits: &Limits,
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
        limits.check_daily_cap(net_today, queued.potential_profit)?;
        let settlement = settle(round, &queued.play)?;
        let payout = i64::try_from(settlement.payout).map_err(ServiceError::internal)?;
        let (stake, shares) = pockets(wallet.free_chips, queued.play.wager, settlement.payout)?;
        let from_free = i64::try_from(stake.from_free()).map_err(ServiceError::internal)?;
        let free_share = i64::try_from(shares.free).map_err(ServiceError::internal)?;
        let reference = crate::store::ledger::round_reference(&round.id);
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

    /// Notes a round opened for `address` by its play (`next_round`).
    pub fn opened(&mut self, address: &str) -> Result<(), ServiceError> {
        let wallet = self
            .wallets
            .get_mut(address)
            .ok_or_else(|| ServiceError::internal(NoWallet(address.to_owned())))?;
        wallet.rounds_opened += 1;
        Ok(())
    }

    /// The wallets a play changed, in address order (the order they were locked in).
    pub fn wallets_after(&self) -> Vec<WalletAfter> {
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

/// An address's net winnings on `today`: what its row holds if the row is of that day, else
/// none yet.
fn net_on(today: i64, net_day: i64, net_today: i64) -> i64 {
    if net_day == today { net_today } else { 0 }
}

fn settle(round: &round::Model, play: &Play) -> Result<Settlement, ServiceError> {
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
