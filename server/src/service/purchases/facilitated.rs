//! An x402 facilitator's rail (`payments.facilitator_url`): it verifies the payment and submits
//! `transferWithAuthorization` itself. Its answers are hints, never proof: the transaction it
//! reports goes through the same receipt check as the house's own, and a failure it reports
//! leaves the payment to the chain as well.

use alloy::primitives::B256;
use async_trait::async_trait;

use super::{Claim, Presented, Settler, Submission};
use crate::service::{Arcade, now_ms};
use crate::store;
use crate::store::entities::payment::Rail;
use crate::telemetry::money;
use crate::x402::facilitator::{Facilitator, FacilitatorError};
use crate::x402::wire::decode_json;

pub struct FacilitatorRail(pub Facilitator);

#[async_trait]
impl Settler for FacilitatorRail {
    fn rail(&self) -> Rail {
        Rail::Facilitator
    }

    async fn submit(&self, arcade: &Arcade, claim: &Claim, payment: &Presented<'_>) -> Submission {
        // Forwarded exactly as the client sent it.
        let payload = match decode_json(payment.header) {
            Ok(payload) => payload,
            Err(error) => {
                return Submission::Refused {
                    reason: "invalid_payload".into(),
                    detail: error.to_string(),
                };
            }
        };
        match self.0.verify(&payload, payment.offer).await {
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
        let settled = match self.0.settle(&payload, payment.offer).await {
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
        let transaction: Option<B256> = settled.transaction.parse().ok();
        if let Some(hash) = transaction {
            let hash = hash.to_string();
            let recorded = store::payments::record_reported(
                &arcade.db,
                claim.id,
                claim.attempt,
                &hash,
                now_ms(),
            );
            match recorded.await {
                Ok(_) => money::settlement_submitted(claim.id, &hash, "facilitator"),
                Err(error) => {
                    tracing::error!(payment = claim.id, %error, "recording the facilitator's transaction");
                }
            }
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
}
