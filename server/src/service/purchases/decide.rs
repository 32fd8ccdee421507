//! Step 5: what a submitted payment comes to, decided from the chain alone (`chain::proof`),
//! by the request that submitted it and later by the reconciler, the same way:
//!
//! - a receipt proves the authorization paid the pay-to address: the chips are credited, once
//!   (a conditional update of the row in the transaction that credits them);
//! - the chain proves it never will (the nonce consumed by a transaction that does not pay, a
//!   cancellation, or expiry by the chain's own clock): the payment ends `failed`;
//! - anything else: it stays `settling`.

use alloy::primitives::{B256, U256};
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, DbErr, EntityTrait, QueryFilter, TransactionTrait};

use super::{Payments, Purchase};
use crate::address;
use crate::chain::ChainError;
use crate::chain::proof::{ExpectedPayment, Settlement, Unpaid};
use crate::entities::{payment, wallet};
use crate::error::ApiError;
use crate::service::ledger::{self, Kind};
use crate::service::{Arcade, now_ms};

/// A payment reserved in `payments`, with what the chain must show for it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Claim {
    pub id: i64,
    pub expected: ExpectedPayment,
    /// Where the token's logs are searched from for the transaction that used the nonce.
    pub from_block: u64,
    pub valid_before: U256,
}

/// What the chain says of a submitted payment.
pub(crate) enum Decision {
    /// Proven paid: credited now (or before, by whoever got there first).
    Credited(Purchase),
    /// Proven never to be paid: marked `failed` with this x402 reason.
    Failed {
        reason: &'static str,
        detail: String,
    },
    /// Neither yet: it stays `settling` (`Open` or `Unconfirmed`).
    Pending(Settlement),
}

impl Arcade {
    /// Asks the chain about `claim`, with `candidate` (the house's settlement or a
    /// facilitator's reported transaction) checked first, and acts on a final answer.
    pub(crate) async fn decide(
        &self,
        payments: &Payments,
        claim: &Claim,
        candidate: Option<B256>,
    ) -> Result<Decision, DecideError> {
        let settlement = payments
            .chain
            .settlement(
                &claim.expected,
                candidate,
                claim.from_block,
                claim.valid_before,
            )
            .await?;
        match settlement {
            Settlement::Paid(tx) => {
                let purchase = self
                    .credit_settled(payments, claim.id, &tx.to_string())
                    .await?;
                tracing::info!(payment = claim.id, %tx, chips = purchase.chips_credited, "payment proven; chips credited");
                Ok(Decision::Credited(purchase))
            }
            Settlement::Unpaid(why) => {
                let (reason, detail) = unpaid_reason(why);
                self.mark_failed(claim.id, &detail).await?;
                tracing::warn!(payment = claim.id, reason, detail, "payment failed");
                Ok(Decision::Failed { reason, detail })
            }
            open_or_unconfirmed => Ok(Decision::Pending(open_or_unconfirmed)),
        }
    }

    /// Marks the payment settled by `tx_hash` and credits its chips, in one transaction, once.
    /// If it was already credited (another request or the reconciler got there first),
    /// reports that purchase.
    async fn credit_settled(
        &self,
        payments: &Payments,
        payment_id: i64,
        tx_hash: &str,
    ) -> Result<Purchase, DecideError> {
        let now = now_ms();
        let txn = self.db.begin().await?;
        let settled = payment::Entity::update_many()
            .col_expr(payment::Column::State, Expr::value(payment::SETTLED))
            .col_expr(payment::Column::TxHash, Expr::value(tx_hash))
            .col_expr(payment::Column::Error, Expr::value(Option::<String>::None))
            .col_expr(payment::Column::UpdatedAt, Expr::value(now))
            .filter(payment::Column::Id.eq(payment_id))
            .filter(payment::Column::State.eq(payment::SETTLING))
            .exec_with_returning(&txn)
            .await?;
        let row = match settled.into_iter().next() {
            Some(row) => {
                ledger::ensure_wallet(&txn, &row.payer, now).await?;
                let reference = format!("payment:{}", row.id);
                ledger::credit(&txn, &row.payer, row.chips, Kind::Purchase, &reference, now)
                    .await?;
                wallet::Entity::update_many()
                    .col_expr(wallet::Column::BoughtIn, Expr::value(true))
                    .filter(wallet::Column::Address.eq(&row.payer))
                    .exec(&txn)
                    .await?;
                row
            }
            None => payment::Entity::find_by_id(payment_id)
                .one(&txn)
                .await?
                .ok_or_else(|| DbErr::RecordNotFound(format!("payment {payment_id}")))?,
        };
        let balance = wallet::Entity::find_by_id(row.payer.clone())
            .one(&txn)
            .await?
            .map_or(0, |w| w.chips);
        txn.commit().await?;
        if row.state != payment::SETTLED {
            return Err(DecideError::NotSettled {
                payment: payment_id,
                state: row.state,
            });
        }
        Ok(Purchase {
            address: address::display_key(&row.payer),
            tier: row.tier,
            chips_credited: row.chips,
            balance,
            tx_hash: row.tx_hash.unwrap_or_else(|| tx_hash.to_owned()),
            network: row.network,
            amount: row.amount,
            asset: payments.terms.asset.to_checksum(None),
            payment_id,
        })
    }

    /// Nothing moved for this payment, and nothing will: the reservation is released (the
    /// authorization may be presented again, and is checked afresh).
    pub(crate) async fn mark_failed(&self, payment_id: i64, error: &str) -> Result<(), DbErr> {
        payment::Entity::update_many()
            .col_expr(payment::Column::State, Expr::value(payment::FAILED))
            .col_expr(payment::Column::Error, Expr::value(error))
            .col_expr(payment::Column::UpdatedAt, Expr::value(now_ms()))
            .filter(payment::Column::Id.eq(payment_id))
            .filter(payment::Column::State.eq(payment::SETTLING))
            .exec(&self.db)
            .await?;
        Ok(())
    }
}

/// Why deciding a payment stopped short.
#[derive(Debug, thiserror::Error)]
pub(crate) enum DecideError {
    #[error(transparent)]
    Chain(#[from] ChainError),
    #[error(transparent)]
    Database(#[from] DbErr),
    #[error("payment {payment} was to be credited but is {state}")]
    NotSettled { payment: i64, state: String },
}

impl From<DecideError> for ApiError {
    fn from(error: DecideError) -> Self {
        match error {
            DecideError::Chain(error) => Self::ChainUnavailable(error.to_string()),
            other => Self::internal(other),
        }
    }
}

/// The x402 reason and a sentence for a payment the chain proves will never be paid.
fn unpaid_reason(why: Unpaid) -> (&'static str, String) {
    match why {
        Unpaid::UsedElsewhere { tx } => (
            "invalid_exact_evm_nonce_already_used",
            format!(
                "the authorization's nonce was used by transaction {tx}, which does not pay the house; no chips are owed"
            ),
        ),
        Unpaid::Canceled { tx } => (
            "invalid_exact_evm_nonce_already_used",
            format!("the payer cancelled the authorization in transaction {tx}; no chips are owed"),
        ),
        Unpaid::Expired => (
            "invalid_exact_evm_payload_authorization_valid_before",
            "the authorization expired (by the chain's clock) before it was settled".into(),
        ),
    }
}
