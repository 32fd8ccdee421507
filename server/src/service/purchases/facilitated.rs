//! Settlement through an x402 facilitator (`payments.facilitator_url`): it verifies the payment
//! and submits `transferWithAuthorization` itself. The house still decides when chips are owed:
//! only once the token says the authorization is used.

use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, DbErr, EntityTrait, QueryFilter};

use super::{Payments, Reservation, Settlement};
use crate::entities::payment;
use crate::service::{Arcade, now_ms};
use crate::x402::facilitator::{Facilitator, FacilitatorError};
use crate::x402::verify::Verified;
use crate::x402::wire::{PaymentRequirements, decode_json};

impl Arcade {
    pub(super) async fn settle_by_facilitator(
        &self,
        payments: &Payments,
        facilitator: &Facilitator,
        reservation: &Reservation,
        verified: &Verified,
        header: &str,
        offer: &PaymentRequirements,
    ) -> Settlement {
        // Forwarded exactly as the client sent it.
        let payload = match decode_json(header) {
            Ok(payload) => payload,
            Err(error) => return Settlement::refused("invalid_payload", error.to_string()),
        };
        match facilitator.verify(&payload, offer).await {
            Ok(answer) if answer.is_valid => {}
            Ok(answer) => {
                let reason = answer
                    .invalid_reason
                    .unwrap_or_else(|| "invalid_payload".into());
                let detail = answer
                    .invalid_message
                    .unwrap_or_else(|| format!("the facilitator refused the payment: {reason}"));
                return Settlement::refused(reason, detail);
            }
            Err(error) => return Settlement::ChainDown(error.to_string()),
        }
        let settled = match facilitator.settle(&payload, offer).await {
            Ok(settled) => settled,
            // Never sent: nothing can have happened.
            Err(error @ FacilitatorError::Unreachable(_)) => {
                return Settlement::ChainDown(error.to_string());
            }
            // It may have settled: the reconciler asks the token.
            Err(error @ FacilitatorError::NoAnswer(_)) => {
                tracing::warn!(payment = reservation.id, %error, "facilitator settle unanswered; the reconciler will ask the token");
                return Settlement::Pending(None);
            }
        };
        let transaction = (!settled.transaction.is_empty()).then(|| settled.transaction.clone());
        if let Some(hash) = &transaction
            && let Err(error) = self.record_transaction(reservation.id, hash).await
        {
            tracing::error!(payment = reservation.id, %error, "recording the facilitator's transaction");
        }
        let auth = &verified.authorization;
        let used = payments
            .chain
            .authorization_used(auth.from, auth.nonce)
            .await;
        match (settled.success, used) {
            (_, Ok(true)) => Settlement::Settled(transaction.unwrap_or_default()),
            (false, Ok(false)) if transaction.is_none() => {
                let reason = settled
                    .error_reason
                    .unwrap_or_else(|| "unexpected_settle_error".into());
                let detail = settled
                    .error_message
                    .unwrap_or_else(|| format!("the facilitator could not settle: {reason}"));
                Settlement::refused(reason, detail)
            }
            // Reported settled (or sent) but not visible on the token yet, or the token cannot
            // be read: the reconciler finishes it.
            _ => Settlement::Pending(transaction),
        }
    }

    async fn record_transaction(&self, payment_id: i64, hash: &str) -> Result<(), DbErr> {
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
