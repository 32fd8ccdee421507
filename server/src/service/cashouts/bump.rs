//! The fee bump: a cashout's transfer that is in no block, because the chain's base fee rose
//! above the max fee it was signed with (or because it has waited next in the house's queue
//! past `chain.fee_bump_after_ms`), is signed again with the same nonce and the same transfer at
//! a higher fee, holding the house sender. The replacement is journalled before its broadcast,
//! beside the transaction it replaces, and the row names it; whichever of them is mined pays the
//! cashout (`reconcile.rs`), and the shared nonce lets at most one be mined. The fee never goes
//! above `chain.max_fee_per_gas_wei`: at the cap the transfer waits for the base fee to fall.

use alloy::primitives::B256;

use super::Cashouts;
use super::reconcile::{Step, Stuck};
use crate::chain::fees::{Fees, Replacement};
use crate::chain::{Chain, SendError, SignedTx};
use crate::faults::{CrashPoint, crash_if};
use crate::service::error::ServiceError;
use crate::service::house_sender::{journal_entry, journalled};
use crate::service::now_ms;
use crate::service::payments::Payments;
use crate::store::entities::cashout::CashoutStatus;
use crate::store::{self, DbErr};
use crate::telemetry::money;

impl Cashouts {
    /// Replaces the transfer if the chain's fees outgrew it, or it waited next in the queue
    /// past the bound. `None` if it needs no replacement or cannot have one (signed by another
    /// key, at the cap, refused): then it is rebroadcast as it is.
    pub(super) async fn bump_if_stuck(
        &self,
        payments: &Payments,
        id: i64,
        stuck: Stuck<'_>,
    ) -> Result<Option<Step>, ServiceError> {
        let chain = &payments.chain;
        if stuck.transfer.sender != chain.house_address() {
            // Another key's nonce (the house key changed): only that key could replace it.
            return Ok(None);
        }
        let Some(signed) = Chain::fees_of(stuck.raw) else {
            return Ok(None);
        };
        let market = chain
            .market()
            .await
            .map_err(|error| ServiceError::ChainUnavailable(error.to_string()))?;
        let bound = i64::try_from(chain.fee_bump_after().as_millis()).unwrap_or(i64::MAX);
        let waited = now_ms().saturating_sub(stuck.signed_at) >= bound;
        let overdue = waited && stuck.next;
        if !(market.outprices(signed) || overdue) {
            return Ok(None);
        }
        let cap = chain.max_fee_per_gas();
        let bid = match market.replacement(signed, cap) {
            Replacement::Bid(bid) => bid,
            Replacement::AtCap => {
                tracing::warn!(
                    cashout = id,
                    tx = %stuck.transfer.hash,
                    max_fee_per_gas = %signed.max_fee_per_gas,
                    base_fee = %market.base_fee,
                    cap = %cap,
                    "the transfer's fee cannot rise above chain.max_fee_per_gas_wei; waiting for the base fee to fall"
                );
                return Ok(None);
            }
        };
        self.replace_transfer(payments, id, &stuck, bid).await
    }

    /// Signs, journals and broadcasts the replacement, holding the house sender, if the row
    /// still names the stuck transfer and is unfinished.
    async fn replace_transfer(
        &self,
        payments: &Payments,
        id: i64,
        stuck: &Stuck<'_>,
        bid: Fees,
    ) -> Result<Option<Step>, ServiceError> {
        let replaced = stuck.transfer.hash;
        let sender = self.sender.hold().await?;
        let row = store::cashouts::find(&self.db, id)
            .await?
            .map(|(row, _)| row);
        let unfinished = [CashoutStatus::Pending, CashoutStatus::Sent];
        let still = row.is_some_and(|row| {
            unfinished.contains(&row.status)
                && row.tx_hash.as_deref() == Some(replaced.to_string().as_str())
        });
        if !still {
            sender.release().await;
            return Ok(Some(Step::Waiting));
        }
        let journal = |tx: SignedTx| self.journal_replacement(id, replaced, tx);
        let result = payments.chain.replace(stuck.raw, bid, journal).await;
        sender.release().await;
        let tx = match result {
            Ok(tx) => tx,
            Err(SendError::NotSent(error)) => {
                tracing::warn!(cashout = id, tx = %replaced, %error, "replacing the transfer refused; it stays as signed");
                return Ok(None);
            }
            // Finished or replaced meanwhile: nothing was broadcast.
            Err(SendError::Journal(DbErr::RecordNotUpdated)) => return Ok(Some(Step::Waiting)),
            Err(SendError::Journal(error)) => return Err(error.into()),
            Err(SendError::Unconfirmed { tx, error }) => {
                tracing::warn!(cashout = id, tx = %tx.hash, %error, "replacement's broadcast unanswered; the reconciler rebroadcasts it");
                tx
            }
        };
        money::cashout_replaced(
            id,
            &replaced.to_string(),
            &tx.hash.to_string(),
            bid.max_fee_per_gas,
        );
        self.advance(id, &[CashoutStatus::Pending], CashoutStatus::Sent)
            .await?;
        Ok(Some(Step::Replaced))
    }

    /// Write-ahead of a replacement: journalled and named on the row before the broadcast;
    /// refused (nothing broadcast) if the row no longer names `replaced` or finished.
    async fn journal_replacement(
        &self,
        id: i64,
        replaced: B256,
        tx: SignedTx,
    ) -> Result<(), DbErr> {
        let hash = tx.hash.to_string();
        let signed = journal_entry(&tx, &hash);
        let replaced = replaced.to_string();
        let updated =
            store::cashouts::journal_replacement(&self.db, id, &replaced, &signed, now_ms());
        journalled(updated.await?)?;
        crash_if(self.crash_after, CrashPoint::Replace);
        Ok(())
    }
}
