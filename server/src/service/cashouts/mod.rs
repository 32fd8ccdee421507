//! Cashouts: chips out as tokens, the house signing an ordinary ERC-20 `transfer` and paying
//! the gas. An outbox whose every step is durable before the next:
//!
//! 1. `open` (one DB transaction): the chips are debited (conditional update) and the cashout
//!    is recorded `pending` with its amount in base units;
//! 2. `send::send_cashout`, holding the house sender: sign the transfer, journal its nonce, hash
//!    and raw bytes on the row, broadcast, mark `sent`;
//! 3. the receipt (bounded wait): `confirmed`, or `failed` with the chips refunded in the same
//!    DB transaction. A send that fails before the broadcast refunds the same way.
//!
//! `reconcile` finishes whatever a crash or a lost answer left `pending` or `sent`: it sends
//! what was never signed, rebroadcasts what was signed but is not on-chain (same nonce, same
//! hash), confirms what is mined, and refunds what reverted or lost its nonce to another
//! transaction.

mod reconcile;
mod send;

use alloy::primitives::Address;
use salvo::oapi::ToSchema;
use sea_orm::{ActiveValue::Set, EntityTrait, TransactionTrait};
use serde::Serialize;

use super::ledger::{self, Floor, Kind};
use super::wallets::cashable;
use super::{Arcade, now_ms};
use crate::address;
use crate::entities::{cashout, wallet};
use crate::error::ApiError;
use crate::faults::{CrashPoint, crash_if};
use crate::tiers::BASE_UNITS_PER_CHIP;

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

impl Arcade {
    /// Redeems `chips` of `address` for the token. Requires the address's signature and a
    /// past purchase; the chips granted for free stay behind (see `wallets::cashable`).
    pub async fn cash_out(
        &self,
        address: &Address,
        chips: i64,
        signature: Option<&str>,
    ) -> Result<CashoutReceipt, ApiError> {
        let payments = self.payments()?;
        self.identity.verify(address, signature)?;
        let (min, max) = (
            i64::try_from(self.limits.min_cashout_chips).unwrap_or(i64::MAX),
            i64::try_from(self.limits.max_cashout_chips).unwrap_or(i64::MAX),
        );
        if !(min..=max).contains(&chips) {
            return Err(ApiError::CashoutOutOfRange { chips, min, max });
        }
        let id = self.open_cashout(address, chips).await?;
        crash_if(self.crash_after, CrashPoint::Debit);
        let sent = self.send_cashout(payments, id).await?;
        let receipt = self.cashout_receipt(id).await?;
        match sent {
            Sent::ChainDown => Err(ApiError::CashoutNotSent {
                chain_down: true,
                receipt: Box::new(receipt),
            }),
            Sent::Refused => Err(ApiError::CashoutNotSent {
                chain_down: false,
                receipt: Box::new(receipt),
            }),
            Sent::Broadcast | Sent::Elsewhere => Ok(receipt),
        }
    }

    /// Step 1: debit and record, or refuse with nothing changed.
    async fn open_cashout(&self, address: &Address, chips: i64) -> Result<i64, ApiError> {
        let payments = self.payments()?;
        let key = address::key(address);
        let now = now_ms();
        let txn = self.db.begin().await?;
        let holder = wallet::Entity::find_by_id(key.clone()).one(&txn).await?;
        let Some(holder) = holder.filter(|w| w.bought_in) else {
            return Err(ApiError::BuyInRequired(address::display(address)));
        };
        let row = cashout::ActiveModel {
            address: Set(key.clone()),
            chips: Set(chips),
            amount: Set((chips.unsigned_abs() * BASE_UNITS_PER_CHIP).to_string()),
            asset: Set(address::key(&payments.terms.asset)),
            network: Set(payments.terms.network.clone()),
            status: Set(cashout::PENDING.to_owned()),
            tx_nonce: Set(None),
            tx_hash: Set(None),
            raw_tx: Set(None),
            error: Set(None),
            created_at: Set(now),
            updated_at: Set(now),
            ..Default::default()
        };
        let id = cashout::Entity::insert(row)
            .exec(&txn)
            .await?
            .last_insert_id;
        let reference = format!("cashout:{id}");
        let debited = ledger::debit(
            &txn,
            &key,
            chips,
            Floor::FreeGrant,
            Kind::Cashout,
            &reference,
            now,
        )
        .await?;
        if debited.is_none() {
            // Refused: say why from the wallet as it is now, not as it was read before.
            let now_held = wallet::Entity::find_by_id(key.clone())
                .one(&txn)
                .await?
                .unwrap_or(holder);
            return Err(if now_held.chips < chips {
                ApiError::CashoutAboveBalance {
                    balance: now_held.chips,
                    chips,
                }
            } else {
                ApiError::CashoutExceedsCashable {
                    chips,
                    cashable: cashable(&now_held),
                    balance: now_held.chips,
                }
            });
        }
        txn.commit().await?;
        Ok(id)
    }

    /// The cashout as it stands, with its owner's balance.
    pub async fn cashout_receipt(&self, id: i64) -> Result<CashoutReceipt, ApiError> {
        let row = cashout::Entity::find_by_id(id)
            .one(&self.db)
            .await?
            .ok_or(ApiError::CashoutNotFound(id))?;
        let balance = wallet::Entity::find_by_id(row.address.clone())
            .one(&self.db)
            .await?
            .map_or(0, |w| w.chips);
        Ok(CashoutReceipt {
            cashout_id: row.id,
            address: address::display_key(&row.address),
            chips: row.chips,
            amount: row.amount,
            asset: address::display_key(&row.asset),
            network: row.network,
            status: row.status,
            tx_hash: row.tx_hash,
            error: row.error,
            balance,
        })
    }
}
