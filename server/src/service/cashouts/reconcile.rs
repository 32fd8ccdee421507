//! Finishing cashouts a request could not: at start and then periodically, every `pending` or
//! `sent` cashout is compared with the chain. A signed cashout may have several journalled
//! transactions, its transfer and the replacements that re-signed it at a higher fee, all with
//! one nonce of one sender, so at most one of them can ever be mined: it is confirmed when any of
//! them is mined deep enough and succeeded (the row then names that one). It is refunded only
//! when the chain proves none can ever be mined: the mined one reverted (deep enough), or
//! another journalled transaction of the same sender with its nonce (another row's) is mined
//! deep enough (the sender recovered from the signed transfer itself, and checked against the
//! other's receipt: a nonce is its sender's own, and the house key may have changed since). A
//! receipt lookup that answers null proves nothing (an RPC that lags answers null for mined
//! transactions): then the cashout waits. A transfer in no block is replaced at a higher fee
//! when the chain's fees outgrew it (`bump.rs`), else rebroadcast as signed.

use std::time::Duration;

use alloy::primitives::{Address, B256};

use super::Cashouts;
use super::Sent;
use crate::chain::{Chain, ChainError};
use crate::service::error::ServiceError;
use crate::service::now_ms;
use crate::service::payments::Payments;
use crate::store;
use crate::store::entities::cashout::{self, CashoutStatus};

/// What one pass did, for logs and tests.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct CashoutsReconciled {
    pub confirmed: usize,
    pub refunded: usize,
    pub sent: usize,
    pub rebroadcast: usize,
    /// Transfers signed again at a higher fee (the same nonce).
    pub replaced: usize,
    pub waiting: usize,
}

pub(super) enum Step {
    Confirmed,
    Refunded,
    Sent,
    Rebroadcast,
    Replaced,
    Waiting,
}

/// Where a signed transfer in no block stands.
enum Unmined {
    /// The chain decided it (refunded), or cannot be read well enough to act (waiting).
    Settled(Step),
    /// Every earlier nonce of its sender is mined: it is next.
    Next,
    /// Earlier nonces of its sender are still to be mined.
    Queued,
}

impl Cashouts {
    /// Checks every unfinished cashout not touched for `min_age` against the chain.
    pub async fn reconcile(&self, min_age: Duration) -> Result<CashoutsReconciled, ServiceError> {
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
                Step::Replaced => outcome.replaced += 1,
                Step::Waiting => outcome.waiting += 1,
            }
        }
        Ok(outcome)
    }

    async fn reconcile_cashout(
        &self,
        payments: &Payments,
        row: &cashout::Model,
    ) -> Result<Step, ServiceError> {
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
                Sent::Elsewhere | Sent::Held => Step::Waiting,
            });
        };
        let journalled = self.journalled(row, hash).await?;
        let hashes: Vec<B256> = journalled.iter().map(|(hash, _)| *hash).collect();
        if let Some(step) = self.settle_mined(chain, row, &hashes).await? {
            return Ok(step);
        }
        let raw = alloy::hex::decode(raw).map_err(ServiceError::internal)?;
        let sender =
            Chain::signer_of(&raw).ok_or_else(|| ServiceError::internal(Unsigned(row.id)))?;
        let transfer = Transfer {
            hash,
            nonce,
            sender,
        };
        let next = match self.place_of(chain, row, transfer).await? {
            Unmined::Settled(step) => return Ok(step),
            Unmined::Next => true,
            Unmined::Queued => false,
        };
        let signed_at = journalled
            .iter()
            .find(|(journalled, _)| *journalled == hash)
            .map_or(row.updated_at, |(_, at)| *at);
        let stuck = Stuck {
            transfer,
            raw: &raw,
            signed_at,
            next,
        };
        if let Some(step) = self.bump_if_stuck(payments, row.id, stuck).await? {
            return Ok(step);
        }
        if let Err(error) = chain.rebroadcast(&raw).await {
            tracing::info!(cashout = row.id, %error, "rebroadcast refused; checking again later");
        }
        self.advance(row.id, &[CashoutStatus::Pending], CashoutStatus::Sent)
            .await?;
        Ok(Step::Rebroadcast)
    }

    /// Every transaction journalled for the cashout with its nonce (the row's own included,
    /// whatever the journal holds), with when it was signed, oldest first.
    async fn journalled(
        &self,
        row: &cashout::Model,
        hash: B256,
    ) -> Result<Vec<(B256, i64)>, ServiceError> {
        let nonce = row.tx_nonce.unwrap_or_default();
        let reference = store::outbox::reference::<cashout::Entity>(row.id);
        let mut journalled: Vec<(B256, i64)> =
            store::house::journalled_for(&self.db, nonce, &reference)
                .await?
                .into_iter()
                .filter_map(|tx| Some((tx.hash.parse().ok()?, tx.created_at)))
                .collect();
        if !journalled.iter().any(|(journalled, _)| *journalled == hash) {
            journalled.push((hash, row.updated_at));
        }
        Ok(journalled)
    }

    /// One of the cashout's transactions is in a block: confirmed (naming it) or refunded once
    /// deep enough, else wait.
    async fn settle_mined(
        &self,
        chain: &Chain,
        row: &cashout::Model,
        hashes: &[B256],
    ) -> Result<Option<Step>, ServiceError> {
        for &hash in hashes {
            let Some(mined) = chain.mined(hash).await.map_err(unavailable)? else {
                continue;
            };
            if !chain.is_deep(mined.block).await.map_err(unavailable)? {
                return Ok(Some(Step::Waiting));
            }
            if !mined.success {
                self.fail_and_refund(row.id, "the transfer reverted")
                    .await?;
                return Ok(Some(Step::Refunded));
            }
            let raw = self.signed_bytes(chain, row, hash).await?;
            let unfinished = [CashoutStatus::Pending, CashoutStatus::Sent];
            self.confirm(row.id, &unfinished, hash, &raw).await?;
            return Ok(Some(Step::Confirmed));
        }
        Ok(None)
    }

    /// The signed bytes of the cashout's transaction `hash`: the row's, or (for a transaction
    /// it replaced) the chain's.
    async fn signed_bytes(
        &self,
        chain: &Chain,
        row: &cashout::Model,
        hash: B256,
    ) -> Result<Vec<u8>, ServiceError> {
        if row.tx_hash.as_deref() == Some(hash.to_string().as_str())
            && let Some(raw) = row.raw_tx.as_deref()
        {
            return alloy::hex::decode(raw).map_err(ServiceError::internal);
        }
        chain
            .signed_bytes(hash)
            .await
            .map_err(unavailable)?
            .ok_or_else(|| ServiceError::ChainUnavailable(format!("the RPC does not show {hash}")))
    }
}

impl Cashouts {
    /// The signed transfer is in no block the RPC shows: refunded only if a journalled
    /// transaction of its sender with its nonce, of another row, is mined deep enough; waiting
    /// if the sender's nonce is used and nothing shows by what (never a refund on a null
    /// receipt); else whether it is next in its sender's queue.
    async fn place_of(
        &self,
        chain: &Chain,
        row: &cashout::Model,
        transfer: Transfer,
    ) -> Result<Unmined, ServiceError> {
        if let Some(other) = self
            .nonce_taken_by(chain, row.id, transfer)
            .await
            .map_err(unavailable)?
        {
            let why = format!(
                "house transaction {other} used its nonce; this transfer can never be mined"
            );
            self.fail_and_refund(row.id, &why).await?;
            return Ok(Unmined::Settled(Step::Refunded));
        }
        let used = chain
            .nonces_used(transfer.sender)
            .await
            .map_err(unavailable)?;
        if used > transfer.nonce {
            tracing::warn!(
                cashout = row.id,
                tx = %transfer.hash,
                nonce = transfer.nonce,
                sender = %transfer.sender,
                "the sender's nonce is used, but neither this transfer's receipt nor another journalled transaction of its sender with its nonce can be seen; waiting (a lagging RPC, or the key used outside the arcade)"
            );
            return Ok(Unmined::Settled(Step::Waiting));
        }
        Ok(if used == transfer.nonce {
            Unmined::Next
        } else {
            Unmined::Queued
        })
    }

    /// A journalled transaction of another row with the transfer's nonce, mined deep enough
    /// from the transfer's own sender. (The cashout's own replacements share its nonce: one of
    /// them mined pays it, and is found by [`Arcade::settle_mined`].)
    async fn nonce_taken_by(
        &self,
        chain: &Chain,
        id: i64,
        transfer: Transfer,
    ) -> Result<Option<B256>, ChainError> {
        let nonce = i64::try_from(transfer.nonce).unwrap_or(i64::MAX);
        let others = store::house::others_with_nonce(
            &self.db,
            &transfer.sender,
            nonce,
            &store::outbox::reference::<cashout::Entity>(id),
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

fn unavailable(error: ChainError) -> ServiceError {
    ServiceError::ChainUnavailable(error.to_string())
}

/// A cashout's signed transfer: its hash, and the nonce it holds of its sender's.
#[derive(Debug, Clone, Copy)]
pub(super) struct Transfer {
    pub hash: B256,
    pub nonce: u64,
    pub sender: Address,
}

/// A signed transfer in no block, its nonce neither used nor proven taken.
pub(super) struct Stuck<'a> {
    pub transfer: Transfer,
    /// Its signed bytes.
    pub raw: &'a [u8],
    /// When it was signed (journalled), ms.
    pub signed_at: i64,
    /// Whether every earlier nonce of its sender is mined (nothing else holds it up).
    pub next: bool,
}

/// A cashout whose stored transfer does not decode to a signed transaction: the database was
/// changed by hand.
#[derive(Debug, thiserror::Error)]
#[error("cashout {0}'s stored transaction has no recoverable signer")]
struct Unsigned(i64);
