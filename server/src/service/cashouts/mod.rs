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
mod reconcile;
mod send;

use std::sync::Arc;

use alloy::primitives::{Address, U256};
use salvo::oapi::ToSchema;
use serde::Serialize;

use super::auth::{AddressProof, Auth};
use super::house_sender::HouseSenders;
use super::now_ms;
use super::purchases::{Payments, PurchaseError};
use super::treasury::ensure_payable;
use super::wallets::cashable;
use crate::address;
use crate::faults::{CrashPoint, crash_if};
use crate::rate_limits::{Caller, Operation, RateLimits};
use crate::store;
use crate::store::Db;
use crate::store::cashouts::{NewCashout, Opened};
use crate::store::entities::wallet;
use crate::telemetry::money;
use crate::tiers::BASE_UNITS_PER_CHIP;

pub use error::CashoutError;
pub use reconcile::CashoutsReconciled;
pub use send::Sent;

/// A cashout as responses show it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CashoutReceipt {
    pub cashout_id: i64,
    /// Where the tokens go (EIP-55).
    pub address: String,
    pub chips: i64,
    /// Token base units, decimal: chips x 100.
    pub amount: String,
    pub asset: String,
    pub network: String,
    /// `pending`, `sent`, `confirmed`, or `failed` (refunded).
    pub status: String,
    pub tx_hash: Option<String>,
    /// Why a `failed` cashout failed.
    pub error: Option<String>,
    /// Chips after the cashout (after the refund, if it failed).
    pub balance: i64,
}

/// The cashout `open` debited, or why it debited nothing.
fn debited(opened: Opened, address: &Address, chips: i64) -> Result<i64, CashoutError> {
    match opened {
        Opened::Pending { id } => Ok(id),
        Opened::NotBoughtIn => Err(CashoutError::BuyInRequired(address::display(address))),
        Opened::Short(wallet) => Err(short(&wallet, chips)),
    }
}

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
    /// Crash-safety tests only.
    pub(super) crash_after: Option<CrashPoint>,
}

impl Cashouts {
    fn payments(&self) -> Result<&Payments, PurchaseError> {
        self.payments.as_deref().ok_or(PurchaseError::Unavailable)
    }

    /// Redeems `chips` of `address` for the token. Requires the address's signature and a
    /// past purchase; only paid chips leave, free chips stay behind (see `wallets::cashable`).
    pub async fn cash_out(
        &self,
        address: &Address,
        chips: i64,
        proof: AddressProof<'_>,
        caller: Caller,
    ) -> Result<CashoutReceipt, CashoutError> {
        self.rate_limits.operation(caller, Operation::Cashout)?;
        let payments = self.payments()?;
        self.auth.verify_proof(address, proof).await?;
        let holder = store::ledger::wallet(&self.db, &address::key(address)).await?;
        if let Some(refusal) = cannot_debit(holder.as_ref(), address, chips) {
            return Err(refusal);
        }
        let new = NewCashout {
            address: address::key(address),
            chips,
            amount: (chips.unsigned_abs() * BASE_UNITS_PER_CHIP).to_string(),
            asset: address::key(&payments.terms.asset),
            network: payments.terms.network.clone(),
            at: now_ms(),
        };
        let amount = new.amount.clone();
        let value = U256::from(chips.unsigned_abs()) * U256::from(BASE_UNITS_PER_CHIP);
        let funding = payments.treasury.cashout_gate.lock().await;
        ensure_payable(&self.db, &payments.chain, *address, value).await?;
        let opened = store::cashouts::open(&self.db, new).await?;
        drop(funding);
        let id = debited(opened, address, chips)?;
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
            Sent::Broadcast | Sent::Elsewhere => Ok(receipt),
        }
    }

    /// The cashout as it stands, with its owner's balance.
    pub async fn cashout_receipt(&self, id: i64) -> Result<CashoutReceipt, CashoutError> {
        let (row, balance) = store::cashouts::find(&self.db, id)
            .await?
            .ok_or(CashoutError::NotFound(id))?;
        Ok(CashoutReceipt {
            cashout_id: row.id,
            address: address::display_key(&row.address),
            chips: row.chips,
            amount: row.amount,
            asset: address::display_key(&row.asset),
            network: row.network,
            status: row.status.as_str().to_owned(),
            tx_hash: row.tx_hash,
            error: row.error,
            balance,
        })
    }
}
