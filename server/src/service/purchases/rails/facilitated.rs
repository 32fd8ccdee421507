//! An x402 facilitator's rail (`payments.rail = "facilitator"`, at `payments.facilitator_url`):
//! it verifies the payment and submits `transferWithAuthorization` itself. Its answers are hints, never proof: the transaction it
//! reports goes through the same receipt check as the house's own, and a failure it reports
//! leaves the payment to the chain as well: the facilitator holds the authorization and may
//! still land it, so an open payment waits for the chain or for expiry. Its words stay with
//! it: the buyer hears a reason of the x402 set (`x402::reasons`) and the arcade's own
//! sentence; its messages go to the log.

use std::time::Duration;

use alloy::primitives::B256;
use async_trait::async_trait;

use super::settler::{Presented, RailContext, ResumeError, Resumed, Settler, Submission};
use super::{Built, RailEntry, RailError};
use crate::service::now_ms;
use crate::service::purchases::claim::Claim;
use crate::settings::Settings;
use crate::store;
use crate::store::entities::payment;
use crate::telemetry::money;
use crate::x402::facilitator::{Facilitator, FacilitatorError};
use crate::x402::reasons;
use crate::x402::wire::{SettleResponse, decode_json};

/// How the settings choose and build this rail: it needs the facilitator's URL.
pub const ENTRY: RailEntry = RailEntry {
    name: "facilitator",
    needs: Some("payments.facilitator_url"),
    build,
};

fn build(settings: &Settings) -> Built {
    let Some(url) = &settings.payments.facilitator_url else {
        return Ok(None);
    };
    // A settle waits for the receipt: allow the chain's confirmation time and a call on top.
    let chain = &settings.chain;
    let timeout = Duration::from_millis(chain.settle_timeout_ms + chain.rpc_timeout_ms);
    let facilitator = Facilitator::new(url.expose(), timeout)
        .map_err(|error| RailError::Build("facilitator", error.to_string()))?;
    Ok(Some(Box::new(FacilitatorRail(facilitator))))
}

pub struct FacilitatorRail(pub Facilitator);

#[async_trait]
impl Settler for FacilitatorRail {
    async fn submit(
        &self,
        context: &RailContext<'_>,
        claim: &Claim,
        payment: &Presented<'_>,
    ) -> Submission {
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
                let reason = reasons::known(answer.invalid_reason.as_deref())
                    .unwrap_or("unexpected_verify_error");
                log_words(
                    claim.id,
                    "refused",
                    answer.invalid_reason,
                    answer.invalid_message,
                );
                return Submission::Refused {
                    reason: reason.into(),
                    detail: format!("the facilitator refused the payment ({reason})"),
                };
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
        reported(context, claim, settled).await
    }

    async fn resume(
        &self,
        _: &RailContext<'_>,
        _: &Claim,
        _: &payment::Model,
    ) -> Result<Resumed, ResumeError> {
        Ok(Resumed::Waiting)
    }
}

/// What the facilitator's settle answer comes to; a transaction it names is recorded on the row.
async fn reported(context: &RailContext<'_>, claim: &Claim, settled: SettleResponse) -> Submission {
    let transaction: Option<B256> = settled.transaction.parse().ok();
    if let Some(hash) = transaction {
        let hash = hash.to_string();
        let recorded =
            store::payments::record_reported(context.db, claim.id, claim.attempt, &hash, now_ms());
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
    let reason =
        reasons::known(settled.error_reason.as_deref()).unwrap_or("unexpected_settle_error");
    log_words(
        claim.id,
        "settle failed",
        settled.error_reason,
        settled.error_message,
    );
    Submission::ReportedFailure {
        reason: reason.into(),
        detail: format!("the facilitator reported that it could not settle ({reason})"),
    }
}

/// What the facilitator said, for the operator: at debug, cut short.
fn log_words(payment: i64, what: &str, reason: Option<String>, message: Option<String>) {
    tracing::debug!(
        payment,
        what,
        reason = %reasons::for_log(reason.as_deref().unwrap_or_default()),
        message = %reasons::for_log(message.as_deref().unwrap_or_default()),
        "the facilitator's words"
    );
}
