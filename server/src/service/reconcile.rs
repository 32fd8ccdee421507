//! Finishing payments a request could not: a settlement whose receipt did not come in time, a
//! broadcast that got no answer, a facilitator that answered late or wrongly, a process that
//! stopped mid-way. Runs at start and then periodically, and decides each `settling` payment
//! exactly as the request would have (`purchases::decide`, over `chain::proof`): credited on a
//! receipt that proves the transfer, failed when the chain proves it never will be paid
//! (including expiry by the chain's clock), otherwise left to the rail that recorded it
//! (`Settler::resume`: the house rebroadcasts its own signed settlement if it is in no block).

use std::time::Duration;

use alloy::primitives::B256;

use super::books::Books;
use super::cashouts::{Cashouts, CashoutsReconciled};
use super::now_ms;
use super::payments::Payments;
use super::purchases::rails::{ResumeError, Resumed};
use super::purchases::{Claim, Decision, Purchases};
use crate::service::error::ServiceError;
use crate::store;
use crate::store::Db;
use crate::store::entities::payment;
use crate::telemetry::metrics;

/// What one pass did, for logs and tests.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Reconciled {
    pub credited: usize,
    pub failed: usize,
    pub rebroadcast: usize,
    pub waiting: usize,
}

/// Finishing the payments and cashouts that requests left unfinished.
#[derive(Clone)]
pub struct Reconcile {
    db: Db,
    purchases: Purchases,
    cashouts: Cashouts,
    /// Followed first on every periodic pass: what the database forgot is recorded again
    /// before any payment or cashout is decided.
    books: Books,
}

impl Reconcile {
    pub fn new(db: Db, (purchases, cashouts): (Purchases, Cashouts), books: Books) -> Self {
        Self {
            db,
            purchases,
            cashouts,
            books,
        }
    }

    /// Checks every `settling` payment not touched for `min_age` against the chain.
    pub async fn payments(&self, min_age: Duration) -> Result<Reconciled, ServiceError> {
        let mut outcome = Reconciled::default();
        let Some(payments) = self.purchases.payments.as_deref() else {
            return Ok(outcome);
        };
        let age = i64::try_from(min_age.as_millis()).unwrap_or(i64::MAX);
        let rows = store::payments::settling_since(&self.db, now_ms().saturating_sub(age)).await?;
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
    ) -> Result<Step, Failure> {
        let claim = Claim::of(row)?;
        let candidate: Option<B256> = row.tx_hash.as_deref().and_then(|h| h.parse().ok());
        let reverted = match self.purchases.decide(payments, &claim, candidate).await? {
            Decision::Credited(_) => return Ok(Step::Credited),
            Decision::Failed { .. } => return Ok(Step::Failed),
            Decision::Open { reverted } => reverted,
            Decision::Unconfirmed => return Ok(Step::Waiting),
        };
        // The nonce is unused and the authorization still valid. Our settlement reverted (it
        // cannot be sent again): wait for the chain, or for expiry.
        if reverted {
            return Ok(Step::Waiting);
        }
        // The rail that recorded it knows who else may hold the authorization. A rail this
        // instance does not run: wait for the chain, or for expiry.
        let Some(rail) = payments.rails.recorded(&row.settled_by) else {
            return Ok(Step::Waiting);
        };
        let context = self.purchases.rail_context(payments);
        Ok(match rail.resume(&context, &claim, row).await? {
            Resumed::Released => Step::Failed,
            Resumed::Rebroadcast => Step::Rebroadcast,
            Resumed::Waiting => Step::Waiting,
        })
    }

    /// Checks every unfinished cashout not touched for `min_age` against the chain.
    pub async fn cashouts(&self, min_age: Duration) -> Result<CashoutsReconciled, ServiceError> {
        self.cashouts.reconcile(min_age).await
    }

    /// How long a request owns its payment or cashout: twice the chain's settle timeout.
    fn min_age(&self) -> Duration {
        self.purchases
            .payments
            .as_deref()
            .map_or(Duration::ZERO, |p| p.chain.settle_timeout() * 2)
    }
}

/// Why one payment could not be reconciled this pass (it is tried again next pass).
type Failure = ResumeError;

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
pub fn spawn_reconciler(reconcile: Reconcile, interval: Duration) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            let min_age = reconcile.min_age();
            metrics::reconcile_pass("books");
            if let Err(error) = reconcile.books.catch_up().await {
                tracing::warn!(%error, "following the house's transactions on the chain");
            }
            metrics::reconcile_pass("payments");
            match reconcile.payments(min_age).await {
                Ok(done) if done != Reconciled::default() => {
                    tracing::info!(?done, "payments reconciled");
                }
                Ok(_) => {}
                Err(error) => tracing::warn!(%error, "reconciling payments"),
            }
            metrics::reconcile_pass("cashouts");
            match reconcile.cashouts(min_age).await {
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
