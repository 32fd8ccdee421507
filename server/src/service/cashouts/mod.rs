//! Cashouts: chips out as tokens, the house signing an ordinary ERC-20 `transfer` and paying
//! the gas. An outbox whose every step is durable before the next:
//!
//! 1. `open` (one DB transaction): the chips are debited from the paid pocket (conditional
//!    update, `WHERE chips - free_chips >= n`) and the cashout is recorded `pending` with its
//!    amount in base units;
//! 2. `send::send_cashout`, holding the house sender: sign the transfer, journal its nonce, hash
//!    and raw bytes on the row, broadcast, mark `sent`;
//! 3. the receipt (bounded wait): `confirmed`, or `failed` with the chips refunded in the same
//!    DB transaction. A send that fails before the broadcast refunds the same way.
//!
//! `reconcile` finishes whatever a crash or a lost answer left `pending` or `sent`: it sends
//! what was never signed, replaces what the chain's fees outgrew (`bump`: the same nonce and
//! transfer at a higher fee, journalled before its broadcast), rebroadcasts what was signed but
//! is not on-chain (same nonce, same hash), confirms what is mined (whichever of the cashout's
//! journalled transactions it is), and refunds what reverted or lost its nonce to another row's
//! transaction.

mod bump;
mod error;
pub mod idempotency;
mod payable;
mod receipt;
mod reconcile;
mod send;

use std::sync::Arc;

use alloy::primitives::{Address, U256};

use super::auth::{AddressProof, Auth};
use super::books::Books;
use super::house_sender::HouseSenders;
use super::now_ms;
use super::payments::Payments;
use super::purchases::error::PurchaseError;
use super::wallets::cashable;
use crate::address;
use crate::faults::{CrashPoint, crash_if};
use crate::rate_limits::{Caller, Operation, RateLimits};
use crate::service::error::ServiceError;
use crate::store;
use crate::store::Db;
use crate::store::cashouts::{NewCashout, Opened};
use crate::store::entities::{cashout, wallet};
use crate::telemetry::money;
use crate::tiers::BASE_UNITS_PER_CHIP;

pub use error::CashoutError;
pub use idempotency::IdempotencyKey;
use payable::ensure_payable;
pub use receipt::CashoutReceipt;
pub use reconcile::CashoutsReconciled;
pub use send::Sent;

/// The cashout `open` debited, or why it debited nothing.
fn debited(opened: Opened, address: &Address, chips: i64) -> Result<i64, CashoutError> {
    match opened {
        Opened::Pending { id } => Ok(id),
        Opened::NotBoughtIn => Err(CashoutError::BuyInRequired(address::display(address))),
        Opened::Short(wallet) => Err(short(&wallet, chips)),
        // The key's unique index refused the row, yet no row holds the key.
        Opened::KeyTaken => Err(ServiceError::internal(KeyVanished).into()),
    }
}

/// A cashout's idempotency key was taken, and then no cashout held it.
#[derive(Debug, thiserror::Error)]
#[error("the idempotency key's unique index refused a cashout no row holds")]
struct KeyVanished;

/// Why `open` would debit nothing from `wallet` as it reads now, if it would not: the rule
/// `store::cashouts::open` holds under its lock, read before any shared lock or chain call so a
/// cashout that cannot debit never waits for (or delays) those that can.
fn cannot_debit(
    wallet: Option<&wallet::Model>,
    address: &Address,
    chips: i64,
) -> Option<CashoutError> {
    match wallet.filter(|w| w.bought_in) {
        None => Some(CashoutError::BuyInRequired(address::display(address))),
        Some(wallet) if cashable(wallet) < chips => Some(short(wallet, chips)),
        Some(_) => None,
    }
}

/// The refusal of `chips` from a wallet whose paid pocket does not cover them.
fn short(wallet: &wallet::Model, chips: i64) -> CashoutError {
    if wallet.chips < chips {
        CashoutError::AboveBalance {
            balance: wallet.chips,
            chips,
        }
    } else {
        CashoutError::ExceedsCashable {
            chips,
            cashable: cashable(wallet),
            balance: wallet.chips,
        }
    }
}

/// Cashouts: chips out as tokens (the money flow out), and finishing them later.
#[derive(Clone)]
pub struct Cashouts {
    pub(super) db: Db,
    /// `None` when no chain is configured (cashouts answer 503).
    pub(super) payments: Option<Arc<Payments>>,
    pub(super) rate_limits: Arc<RateLimits>,
    pub(super) auth: Auth,
    /// Transfers are sent as the house, one sender at a time.
    pub(super) sender: HouseSenders,
    /// No cashout is debited or sent while the books are behind the chain.
    pub(super) books: Books,
    /// Crash-safety tests only.
    pub(super) crash_after: Option<CrashPoint>,
}

impl Cashouts {
    fn payments(&self) -> Result<&Payments, PurchaseError> {
        self.payments
            .as_deref()
            .ok_or(PurchaseError::Service(ServiceError::PaymentsUnavailable))
    }

    /// Redeems `chips` of `address` for the token. Requires the address's signature and a
    /// past purchase; only paid chips leave, free chips stay behind (see `wallets::cashable`).
    /// Under a `key` the address sent before, answers that cashout (see `idempotency`).
    pub async fn cash_out(
        &self,
        address: &Address,
        chips: i64,
        key: Option<&IdempotencyKey>,
        proof: AddressProof<'_>,
        caller: Caller,
    ) -> Result<CashoutReceipt, CashoutError> {
        self.rate_limits.operation(caller, Operation::Cashout)?;
        let payments = self.payments()?;
        self.auth.verify_proof(address, proof).await?;
        if let Some(replayed) = self.under_key(address, key, chips).await? {
            return replayed;
        }
        if let Some(refused) = self.refusal(address, key, chips).await? {
            return refused;
        }
        // The books follow the chain before any debit: a cashout a restored copy forgot is
        // debited first, and these chips are read after it.
        if let Err(behind) = self.books.ready_for_cashout().await? {
            return Err(CashoutError::BooksBehind(behind));
        }
        if let Some(refused) = self.refusal(address, key, chips).await? {
            return refused;
        }
        let new = NewCashout {
            address: address::key(address),
            chips,
            amount: (chips.unsigned_abs() * BASE_UNITS_PER_CHIP).to_string(),
            asset: address::key(&payments.terms.asset),
            network: payments.terms.network.clone(),
            idempotency_key: key.map(|key| key.as_str().to_owned()),
            at: now_ms(),
        };
        let amount = new.amount.clone();
        let value = U256::from(chips.unsigned_abs()) * U256::from(BASE_UNITS_PER_CHIP);
        let funding = payments.treasury.cashout_gate.lock().await;
        ensure_payable(&self.db, &payments.chain, *address, value).await?;
        let opened = store::cashouts::open(&self.db, new).await?;
        drop(funding);
        let id = match opened {
            Opened::KeyTaken | Opened::Short(_) if key.is_some() => {
                match self.under_key(address, key, chips).await? {
                    Some(replayed) => return replayed,
                    None => debited(opened, address, chips)?,
                }
            }
            opened => debited(opened, address, chips)?,
        };
        money::cashout_opened(id, &address::key(address), chips, &amount);
        crash_if(self.crash_after, CrashPoint::Debit);
        let sent = self.send_cashout(payments, id).await?;
        let receipt = self.cashout_receipt(id).await?;
        match sent {
            Sent::ChainDown => Err(CashoutError::NotSent {
                chain_down: true,
                receipt: Box::new(receipt),
            }),
            Sent::Refused => Err(CashoutError::NotSent {
                chain_down: false,
                receipt: Box::new(receipt),
            }),
            Sent::Broadcast | Sent::Elsewhere | Sent::Held => Ok(receipt),
        }
    }

    /// The answer to a cashout `open` would debit nothing for, as the wallet reads now: its
    /// refusal, or the cashout a copy of this request under the same key debited first.
    async fn refusal(
        &self,
        address: &Address,
        key: Option<&IdempotencyKey>,
        chips: i64,
    ) -> Result<Option<Result<CashoutReceipt, CashoutError>>, CashoutError> {
        let holder = store::ledger::wallet(&self.db, &address::key(address)).await?;
        let Some(refusal) = cannot_debit(holder.as_ref(), address, chips) else {
            return Ok(None);
        };
        Ok(Some(match self.under_key(address, key, chips).await? {
            Some(replayed) => replayed,
            None => Err(refusal),
        }))
    }

    /// The answer under `key`, if `address` opened a cashout under it: that cashout as it
    /// stands, or a conflict when it was for other chips.
    async fn under_key(
        &self,
        address: &Address,
        key: Option<&IdempotencyKey>,
        chips: i64,
    ) -> Result<Option<Result<CashoutReceipt, CashoutError>>, CashoutError> {
        let Some(key) = key else {
            return Ok(None);
        };
        let found =
            store::cashouts::find_by_key(&self.db, &address::key(address), key.as_str()).await?;
        Ok(found.map(|(row, balance)| {
            let receipt = receipt_of(&row, balance);
            idempotency::replay(&row, chips, receipt)
        }))
    }

    /// The cashout as it stands, with its owner's balance.
    pub async fn cashout_receipt(&self, id: i64) -> Result<CashoutReceipt, CashoutError> {
        let (row, balance) = store::cashouts::find(&self.db, id)
            .await?
            .ok_or(CashoutError::NotFound(id))?;
        Ok(receipt_of(&row, balance))
    }
}

/// The receipt of cashout `row`, its owner holding `balance` chips.
fn receipt_of(row: &cashout::Model, balance: i64) -> CashoutReceipt {
    CashoutReceipt {
        cashout_id: row.id,
        address: address::display_key(&row.address),
        chips: row.chips,
        amount: row.amount.clone(),
        asset: address::display_key(&row.asset),
        network: row.network.clone(),
        status: row.status.as_str().to_owned(),
        tx_hash: row.tx_hash.clone(),
        error: row.error.clone(),
        balance,
    }
}
