//! Finishing cashouts a request could not: at start and then periodically, every `pending` or
//! `sent` cashout is compared with the chain. A signed transfer is refunded only when the chain
//! proves it can never be mined: it reverted (deep enough), or another journalled transaction of
//! the same sender with its nonce is mined deep enough (the sender recovered from the signed
//! transfer itself, and checked against the other's receipt: a nonce is its sender's own, and
//! the house key may have changed since). A receipt lookup that answers null proves nothing (an
//! RPC that lags answers null for mined transactions): then the cashout waits.

use std::time::Duration;

use alloy::primitives::{Address, B256};

use super::Sent;
use crate::chain::{Chain, ChainError};
use crate::error::ApiError;
use crate::service::purchases::Payments;
use crate::service::{Arcade, now_ms};
use crate::store;
use crate::store::entities::cashout::{self, CashoutStatus};

/// What one pass did, for logs and tests.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct CashoutsReconciled {
    pub confirmed: usize,
    pub refunded: usize,
    pub sent: usize,
    pub rebroadcast: usize,
    pub waiting: usize,
}

enum Step {
    Confirmed,
    Refunded,
    Sent,
    Rebroadcast,
    Waiting,
}

impl Arcade {
    /// Checks every unfinished cashout not touched for `min_age` against the chain.
    pub async fn reconcile_cashouts(
        &self,
        min_age: Duration,
    ) -> Result<CashoutsReconciled, ApiError> {
        let mut outcome = CashoutsReconciled::default();
        let Some(payments) = self.payments.as_ref() else {
            return Ok(outcome);
        };
        let age = i64::try_from(min_age.as_millis()).unwrap_or(i64::MAX);
        let rows =
            store::cashouts::unfinished_since(&self.db, now_ms().saturating_sub(age)).await?;
        for row in rows {
            let step = match self.reconcile_cashout(payments, &row).await {
                Ok(step) => step,
                Err(error) => {
                    tracing::warn!(cashout = row.id, %error, "reconciling a cashout; will retry");
                    Step::Waiting
                }
            };
            match step {
                Step::Confirmed => outcome.confirmed += 1,
                Step::Refunded => outcome.refunded += 1,
                Step::Sent => outcome.sent += 1,
                Step::Rebroadcast => outcome.rebroadcast += 1,
                Step::Waiting => outcome.waiting += 1,
            }
        }
        Ok(outcome)
    }

    async fn reconcile_cashout(
        &self,
        payments: &Payments,
        row: &cashout::Model,
    ) -> Result<Step, ApiError> {
        let chain = &payments.chain;
        let signed = (
            row.tx_hash.as_deref().and_then(|h| h.parse::<B256>().ok()),
            row.tx_nonce.and_then(|n| u64::try_from(n).ok()),
            row.raw_tx.as_deref(),
        );
        let (Some(hash), Some(nonce), Some(raw)) = signed else {
            // Never signed: send it now.
            return Ok(match self.send_cashout(payments, row.id).await? {
                Sent::Broadcast => Step::Sent,
                Sent::ChainDown | Sent::Refused => Step::Refunded,
                Sent::Elsewhere => Step::Waiting,
            });
        };
        if let Some(step) = self.settle_mined(chain, row.id, hash).await? {
            return Ok(step);
        }
        let raw = alloy::hex::decode(raw).map_err(ApiError::internal)?;
        let sender = Chain::signer_of(&raw).ok_or_else(|| ApiError::internal(Unsigned(row.id)))?;
        let transfer = Transfer {
            hash,
            nonce,
            sender,
        };
        if let Some(step) = self.refund_if_replaced(chain, row, transfer).await? {
            return Ok(step);
        }
        if let Err(error) = chain.rebroadcast(&raw).await {
            tracing::info!(cashout = row.id, %error, "rebroadcast refused; checking again later");
        }
        self.advance(row.id, &[CashoutStatus::Pending], CashoutStatus::Sent)
            .await?;
        Ok(Step::Rebroadcast)
    }

    /// The signed transfer is in a block: confirmed or refunded once deep enough, else wait.
    async fn settle_mined(
        &self,
        chain: &Chain,
        id: i64,
        hash: B256,
    ) -> Result<Option<Step>, ApiError> {
        let unavailable = |error: ChainError| ApiError::ChainUnavailable(error.to_string());
        if let Some(mined) = chain.confirmed(hash).await.map_err(unavailable)? {
            if !mined.success {
                self.fail_and_refund(id, "the transfer reverted").await?;
                return Ok(Some(Step::Refunded));
            }
            let unfinished = [CashoutStatus::Pending, CashoutStatus::Sent];
            self.confirm(id, &unfinished, hash).await?;
            return Ok(Some(Step::Confirmed));
        }
        let in_block = chain.mined(hash).await.map_err(unavailable)?.is_some();
        // In a block, not deep enough yet.
        Ok(in_block.then_some(Step::Waiting))
    }

    /// The signed transfer is in no block the RPC shows: refunded only if a journalled
    /// transaction of its sender with its nonce is mined deep enough; waiting if the sender's
    /// nonce is used and nothing shows by what (never a refund on a null receipt).
    async fn refund_if_replaced(
        &self,
        chain: &Chain,
        row: &cashout::Model,
        transfer: Transfer,
    ) -> Result<Option<Step>, ApiError> {
        let unavailable = |error: ChainError| ApiError::ChainUnavailable(error.to_string());
        if let Some(other) = self
            .nonce_taken_by(chain, transfer)
            .await
            .map_err(unavailable)?
        {
            let why = format!(
                "house transaction {other} used its nonce; this transfer can never be mined"
            );
            self.fail_and_refund(row.id, &why).await?;
            return Ok(Some(Step::Refunded));
        }
        if chain
            .nonces_used(transfer.sender)
            .await
            .map_err(unavailable)?
            > transfer.nonce
        {
            tracing::warn!(
                cashout = row.id,
                tx = %transfer.hash,
                nonce = transfer.nonce,
                sender = %transfer.sender,
                "the sender's nonce is used, but neither this transfer's receipt nor another journalled transaction of its sender with its nonce can be seen; waiting (a lagging RPC, or the key used outside the arcade)"
            );
            return Ok(Some(Step::Waiting));
        }
        Ok(None)
    }
}

impl Arcade {
    /// Another journalled transaction with the transfer's nonce, mined deep enough from the
    /// transfer's own sender.
    async fn nonce_taken_by(
        &self,
        chain: &Chain,
        transfer: Transfer,
    ) -> Result<Option<B256>, ChainError> {
        let nonce = i64::try_from(transfer.nonce).unwrap_or(i64::MAX);
        let others = store::house::others_with_nonce(
            &self.db,
            &transfer.sender,
            nonce,
            &transfer.hash.to_string(),
        )
        .await
        .map_err(|error| ChainError::Unavailable(format!("reading the journal: {error}")))?;
        for other in others.iter().filter_map(|h| h.parse::<B256>().ok()) {
            let mined = chain.confirmed(other).await?;
            if mined.is_some_and(|mined| mined.from == transfer.sender) {
                return Ok(Some(other));
            }
        }
        Ok(None)
    }
}

/// A cashout's signed transfer: its hash, and the nonce it holds of its sender's.
#[derive(Debug, Clone, Copy)]
struct Transfer {
    hash: B256,
    nonce: u64,
    sender: Address,
}

/// A cashout whose stored transfer does not decode to a signed transaction: the database was
/// changed by hand.
#[derive(Debug, thiserror::Error)]
#[error("cashout {0}'s stored transaction has no recoverable signer")]
struct Unsigned(i64);
