//! Steps 2 and 3 of a cashout: the transfer signed, journalled and broadcast by the house
//! sender, then its receipt; and the refund every failed path ends in.

use alloy::primitives::{Address, B256, U256};

use super::Cashouts;
use crate::chain::{ChainError, SendError, SignedTx};
use crate::faults::{CrashPoint, crash_if};
use crate::service::error::ServiceError;
use crate::service::house_sender::{journal_entry, journalled};
use crate::service::now_ms;
use crate::service::payments::Payments;
use crate::store::entities::cashout::CashoutStatus;
use crate::store::{self, DbErr};
use crate::telemetry::money;

/// What sending did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sent {
    /// Broadcast (and confirmed, reverted and refunded, or still waiting: see the row).
    Broadcast,
    /// Not sent, refunded: the chain did not answer.
    ChainDown,
    /// Not sent, refunded: the transfer would fail (e.g. the house lacks tokens or gas).
    Refused,
    /// Another request or instance already sent (or finished) this cashout.
    Elsewhere,
    /// Not signed: the books do not cover every house transaction on the chain yet. It stays
    /// `pending`, debited; the reconciler sends it once they do.
    Held,
}

impl Cashouts {
    pub(super) async fn send_cashout(
        &self,
        payments: &Payments,
        id: i64,
    ) -> Result<Sent, ServiceError> {
        let chain = &payments.chain;
        let sender = self.sender.hold().await?;
        let row = store::cashouts::find(&self.db, id)
            .await?
            .map(|(row, _)| row);
        let Some(row) = row.filter(|r| r.status == CashoutStatus::Pending && r.tx_hash.is_none())
        else {
            sender.release().await;
            return Ok(Sent::Elsewhere);
        };
        // Held by the house's one sender: nothing is signed while the chain holds a house
        // transaction the journal does not (a restore may have forgotten this very payout).
        if !self.books.covers_pending().await.unwrap_or(false) {
            sender.release().await;
            tracing::warn!(
                cashout = id,
                "the chain holds house transactions the books do not: the cashout waits, unsigned, for the next pass"
            );
            return Ok(Sent::Held);
        }
        let to: Address = row.address.parse().map_err(ServiceError::internal)?;
        let value = U256::from_str_radix(&row.amount, 10).map_err(ServiceError::internal)?;
        let journal = |tx: SignedTx| self.journal_cashout(id, tx);
        let result = chain.transfer(to, value, journal).await;
        sender.release().await;
        match result {
            Ok(tx) => {
                crash_if(self.crash_after, CrashPoint::Broadcast);
                self.advance(id, &[CashoutStatus::Pending], CashoutStatus::Sent)
                    .await?;
                money::cashout_sent(id, &tx.hash.to_string());
                match chain.wait_confirmed(tx.hash).await {
                    Some(mined) if mined.success => {
                        self.confirm(id, &[CashoutStatus::Sent], tx.hash, &tx.raw)
                            .await?;
                    }
                    Some(_) => self.fail_and_refund(id, "the transfer reverted").await?,
                    None => {} // stays `sent`; the reconciler follows it up
                }
                Ok(Sent::Broadcast)
            }
            Err(SendError::NotSent(error @ ChainError::Unavailable(_))) => {
                self.fail_and_refund(id, &error.to_string()).await?;
                Ok(Sent::ChainDown)
            }
            Err(SendError::NotSent(ChainError::Refused(refusal))) => {
                self.fail_and_refund(id, &format!("the transfer would fail: {refusal}"))
                    .await?;
                Ok(Sent::Refused)
            }
            Err(SendError::Journal(DbErr::RecordNotUpdated)) => Ok(Sent::Elsewhere),
            // Unsigned as far as anyone knows: it stays `pending`, the reconciler sends it.
            Err(SendError::Journal(error)) => Err(error.into()),
            Err(SendError::Unconfirmed { tx, error }) => {
                tracing::warn!(cashout = id, tx = %tx.hash, %error, "broadcast unanswered; the reconciler will look it up");
                self.advance(id, &[CashoutStatus::Pending], CashoutStatus::Sent)
                    .await?;
                money::cashout_sent(id, &tx.hash.to_string());
                Ok(Sent::Broadcast)
            }
        }
    }

    /// Write-ahead: nonce, hash and raw bytes stored (on the row and in the house's journal)
    /// before the broadcast. Refuses if the row was signed or finished meanwhile (then nothing
    /// is broadcast).
    async fn journal_cashout(&self, id: i64, tx: SignedTx) -> Result<(), DbErr> {
        let hash = tx.hash.to_string();
        let signed = journal_entry(&tx, &hash);
        journalled(store::cashouts::journal(&self.db, id, &signed, now_ms()).await?)?;
        crash_if(self.crash_after, CrashPoint::Sign);
        Ok(())
    }

    /// Moves a cashout to `to` if it is in one of `from`.
    pub(super) async fn advance(
        &self,
        id: i64,
        from: &[CashoutStatus],
        to: CashoutStatus,
    ) -> Result<bool, DbErr> {
        store::cashouts::advance(&self.db, id, from, to, now_ms()).await
    }

    /// Paid: the transfer `tx` (signed bytes `raw`), one of the cashout's journalled
    /// transactions, is mined deep enough and succeeded; the row names it from now on.
    pub(super) async fn confirm(
        &self,
        id: i64,
        from: &[CashoutStatus],
        tx: B256,
        raw: &[u8],
    ) -> Result<(), DbErr> {
        let (hash, raw) = (tx.to_string(), alloy::hex::encode_prefixed(raw));
        if store::cashouts::confirm(&self.db, id, from, &hash, &raw, now_ms()).await? {
            money::cashout_confirmed(id, &hash);
        }
        Ok(())
    }

    /// Never paid: `failed` and the chips back, in one transaction, once.
    pub(super) async fn fail_and_refund(&self, id: i64, error: &str) -> Result<(), DbErr> {
        if store::cashouts::fail_and_refund(&self.db, id, error, now_ms()).await? {
            money::refunded(id, error);
        }
        Ok(())
    }
}
