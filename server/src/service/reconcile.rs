//! Finishing payments a request could not: a settlement whose receipt did not come in time, a
//! broadcast that got no answer, a process that stopped mid-way. Runs at start and then
//! periodically. The token's `authorizationState` is the final word: a used authorization paid
//! the house (its `to` was checked to be the pay-to address), an unused and expired one never
//! will.

use std::sync::Arc;
use std::time::Duration;

use alloy::primitives::{Address, B256};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder};

use super::cashouts::CashoutsReconciled;
use super::purchases::Payments;
use super::{Arcade, now_ms};
use crate::chain::ChainError;
use crate::entities::payment;
use crate::error::ApiError;

/// What one pass did, for logs and tests.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Reconciled {
    pub credited: usize,
    pub failed: usize,
    pub rebroadcast: usize,
    pub waiting: usize,
}

impl Arcade {
    /// Checks every `settling` payment not touched for `min_age` against the chain.
    pub async fn reconcile_payments(&self, min_age: Duration) -> Result<Reconciled, ApiError> {
        let mut outcome = Reconciled::default();
        let Some(payments) = self.payments.as_ref() else {
            return Ok(outcome);
        };
        let age = i64::try_from(min_age.as_millis()).unwrap_or(i64::MAX);
        let rows = payment::Entity::find()
            .filter(payment::Column::State.eq(payment::SETTLING))
            .filter(payment::Column::UpdatedAt.lte(now_ms().saturating_sub(age)))
            .order_by_asc(payment::Column::Id)
            .all(&self.db)
            .await?;
        for row in rows {
            match self.reconcile_one(payments, &row).await {
                Ok(step) => step.count(&mut outcome),
                Err(error) => {
                    tracing::warn!(payment = row.id, %error, "reconciling a payment; will retry");
                    outcome.waiting += 1;
                }
            }
        }
        Ok(outcome)
    }

    async fn reconcile_one(
        &self,
        payments: &Payments,
        row: &payment::Model,
    ) -> Result<Step, ApiError> {
        let chain = &payments.chain;
        let unavailable = |error: ChainError| ApiError::ChainUnavailable(error.to_string());
        let hash: Option<B256> = row.tx_hash.as_deref().and_then(|h| h.parse().ok());
        let mined = match hash {
            Some(hash) => chain.confirmed(hash).await.map_err(unavailable)?,
            None => None,
        };
        let hash_text = hash.map(|h| h.to_string()).unwrap_or_default();
        if mined.is_some_and(|m| m.success) {
            self.credit_settled(payments, row.id, &hash_text).await?;
            tracing::info!(payment = row.id, tx = %hash_text, "settlement confirmed late; chips credited");
            return Ok(Step::Credited);
        }
        let payer: Address = row.payer.parse().map_err(ApiError::internal)?;
        let nonce: B256 = row.nonce.parse().map_err(ApiError::internal)?;
        if chain
            .authorization_used(payer, nonce)
            .await
            .map_err(unavailable)?
        {
            // Ours, not yet deep enough: wait. Otherwise another transaction used it, and
            // since its `to` is the pay-to address, the house was paid: the chips are owed.
            if hash.is_some() && mined.is_none() {
                return Ok(Step::Waiting);
            }
            self.credit_settled(payments, row.id, &hash_text).await?;
            tracing::info!(
                payment = row.id,
                "authorization used on-chain; chips credited"
            );
            return Ok(Step::Credited);
        }
        if mined.is_some() {
            self.mark_failed(row.id, "the settlement reverted").await?;
            return Ok(Step::Failed);
        }
        let expired = now_ms() / 1000 > row.valid_before;
        if expired {
            self.mark_failed(row.id, "the authorization expired before it was settled")
                .await?;
            tracing::info!(
                payment = row.id,
                "unsettled authorization expired; released"
            );
            return Ok(Step::Failed);
        }
        if row.settled_by == payment::BY_FACILITATOR {
            // The facilitator may still submit it; it is released once it has expired.
            return Ok(Step::Waiting);
        }
        let Some(raw) = row.raw_tx.as_deref() else {
            self.mark_failed(row.id, "stopped before the settlement was signed")
                .await?;
            return Ok(Step::Failed);
        };
        let raw = alloy::hex::decode(raw).map_err(ApiError::internal)?;
        if let Err(error) = chain.rebroadcast(&raw).await {
            tracing::info!(payment = row.id, %error, "rebroadcast refused; checking again later");
        }
        Ok(Step::Rebroadcast)
    }
}

enum Step {
    Credited,
    Failed,
    Rebroadcast,
    Waiting,
}

impl Step {
    fn count(self, outcome: &mut Reconciled) {
        match self {
            Self::Credited => outcome.credited += 1,
            Self::Failed => outcome.failed += 1,
            Self::Rebroadcast => outcome.rebroadcast += 1,
            Self::Waiting => outcome.waiting += 1,
        }
    }
}

/// Reconciles payments and cashouts every `interval` until the process stops. A request owns
/// its payment or cashout for the settle timeout; only rows older than twice that are touched.
pub fn spawn_reconciler(arcade: Arc<Arcade>, interval: Duration) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            let min_age = arcade
                .payments
                .as_ref()
                .map_or(Duration::ZERO, |p| p.chain.settle_timeout() * 2);
            match arcade.reconcile_payments(min_age).await {
                Ok(done) if done != Reconciled::default() => {
                    tracing::info!(?done, "payments reconciled");
                }
                Ok(_) => {}
                Err(error) => tracing::warn!(%error, "reconciling payments"),
            }
            match arcade.reconcile_cashouts(min_age).await {
                Ok(done) if done != CashoutsReconciled::default() => {
                    tracing::info!(?done, "cashouts reconciled");
                }
                Ok(_) => {}
                Err(error) => tracing::warn!(%error, "reconciling cashouts"),
            }
            tokio::time::sleep(interval).await;
        }
    })
}
