//! Settlement through an x402 facilitator (`payments.facilitator_url`): it verifies the payment
//! and submits `transferWithAuthorization` itself. Its answers are hints, never proof: the
//! transaction it reports goes through the same receipt check as the house's own, and a
//! failure it reports leaves the payment to the chain as well.

use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, DbErr, EntityTrait, QueryFilter};

use super::{Claim, Submission};
use crate::entities::payment;
use crate::service::{Arcade, now_ms};
use crate::x402::facilitator::{Facilitator, FacilitatorError};
use crate::x402::wire::{PaymentRequirements, decode_json};

impl Arcade {
    /// Step 4 by a facilitator: its `/verify`, then its `/settle`.
    pub(super) async fn settle_by_facilitator(
        &self,
        facilitator: &Facilitator,
        claim: &Claim,
        header: &str,
        offer: &PaymentRequirements,
    ) -> Submission {
        // Forwarded exactly as the client sent it.
        let payload = match decode_json(header) {
            Ok(payload) => payload,
            Err(error) => return Submission::refused("invalid_payload", error.to_string()),
        };
        match facilitator.verify(&payload, offer).await {
            Ok(answer) if answer.is_valid => {}
            // Not asked to settle: nothing was sent on the house's behalf.
            Ok(answer) => {
                let reason = answer
                    .invalid_reason
                    .unwrap_or_else(|| "invalid_payload".into());
                let detail = answer
                    .invalid_message
                    .unwrap_or_else(|| format!("the facilitator refused the payment: {reason}"));
                return Submission::Refused { reason, detail };
            }
            Err(error) => return Submission::ChainDown(error.to_string()),
        }
        let settled = match facilitator.settle(&payload, offer).await {
            Ok(settled) => settled,
            // Never sent: nothing can have happened.
            Err(error @ FacilitatorError::Unreachable(_)) => {
                return Submission::ChainDown(error.to_string());
            }
            // It may have settled: the chain decides.
            Err(error @ FacilitatorError::NoAnswer(_)) => {
                tracing::warn!(payment = claim.id, %error, "facilitator settle unanswered; the chain decides");
                return Submission::Submitted(None);
            }
        };
        let transaction: Option<alloy::primitives::B256> = settled.transaction.parse().ok();
        if let Some(hash) = &transaction
            && let Err(error) = self.record_reported(claim.id, &hash.to_string()).await
        {
            tracing::error!(payment = claim.id, %error, "recording the facilitator's transaction");
        }
        if settled.success || transaction.is_some() {
            return Submission::Submitted(transaction);
        }
        let reason = settled
            .error_reason
            .unwrap_or_else(|| "unexpected_settle_error".into());
        let detail = settled
            .error_message
            .unwrap_or_else(|| format!("the facilitator could not settle: {reason}"));
        Submission::ReportedFailure { reason, detail }
    }

    /// The facilitator's transaction, kept as the candidate the reconciler checks first.
    async fn record_reported(&self, payment_id: i64, hash: &str) -> Result<(), DbErr> {
        payment::Entity::update_many()
            .col_expr(payment::Column::TxHash, Expr::value(hash))
            .col_expr(payment::Column::UpdatedAt, Expr::value(now_ms()))
            .filter(payment::Column::Id.eq(payment_id))
            .filter(payment::Column::State.eq(payment::SETTLING))
            .exec(&self.db)
            .await?;
        Ok(())
    }
}
