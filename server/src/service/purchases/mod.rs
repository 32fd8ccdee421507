//! Buying chips over x402: the money flow from a signed authorization to credited chips.
//!
//! 1. read and verify the payment (`x402::verify`, no IO);
//! 2. reserve its `(payer, nonce)` in `payments` (unique: a replay or a racing copy stops
//!    here), with the block the token's logs will be searched from;
//! 3. check the chain: authorization unused, payer funded (refused early; nothing is sent);
//! 4. submit it through the payment rail: the house signs `transferWithAuthorization`
//!    (journalled before the broadcast), or a facilitator settles it;
//! 5. decide from the chain alone (`decide.rs`, over `chain::proof`): chips are credited, once,
//!    only on a receipt proving the transfer to the pay-to address; the payment fails only when
//!    the chain proves it never will be paid; anything else stays `settling`.
//!
//! `reconcile::reconcile_payments` takes the same decision later for every row left
//! `settling`; a payment is credited at most once because the credit is a conditional update.

use alloy::primitives::{Address, B256};
use salvo::oapi::ToSchema;
use serde::Serialize;

use super::{Arcade, now_ms};
use crate::chain::proof::Settlement as ChainSettlement;
use crate::chain::{Chain, ChainError};
use crate::error::{ApiError, Challenge};
use crate::tiers::Tier;
use crate::x402::facilitator::Facilitator;
use crate::x402::verify::{self, Rejection, Verified};
use crate::x402::wire::{SettleResponse, decode_payment};
use crate::x402::{Terms, wire::PaymentRequired};

mod decide;
mod facilitated;
mod house;
mod reserve;

pub(crate) use decide::{Claim, Decision};

/// The chain and the terms every offer is made on; present when a chain is configured.
pub struct Payments {
    pub chain: Chain,
    pub terms: Terms,
    /// Verify and settle through this x402 facilitator instead of by the house.
    pub facilitator: Option<Facilitator>,
}

/// The body of a successful purchase.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Purchase {
    /// The payment signer, who got the chips (EIP-55).
    pub address: String,
    pub tier: String,
    pub chips_credited: i64,
    /// Chips after the credit.
    pub balance: i64,
    /// The transaction that proves the payment.
    pub tx_hash: String,
    /// CAIP-2, e.g. `eip155:8453`.
    pub network: String,
    /// Token base units paid, decimal.
    pub amount: String,
    pub asset: String,
    pub payment_id: i64,
}

/// A purchase and the `PAYMENT-RESPONSE` that goes with it.
pub struct Paid {
    pub purchase: Purchase,
    pub settlement: SettleResponse,
}

/// How handing a payment to its rail ended.
enum Submission {
    /// Nothing was sent, by the house or on its behalf: the x402 reason and a sentence.
    Refused { reason: String, detail: String },
    /// The chain (or the facilitator) did not answer before anything was sent.
    ChainDown(String),
    /// The settlement could not be journalled; nothing was sent.
    JournalFailed(sea_orm::DbErr),
    /// Sent, or reported sent: the transaction if one is known. The chain decides the rest.
    Submitted(Option<B256>),
    /// Signed and journalled, but the broadcast got no answer: it may be in the pool.
    BroadcastUnanswered(B256),
    /// A facilitator reported failure without a transaction. It may be wrong (it holds the
    /// signed authorization), so the chain still decides; its reason is what the buyer hears.
    ReportedFailure { reason: String, detail: String },
}

impl Submission {
    fn refused(reason: impl Into<String>, detail: impl Into<String>) -> Self {
        Self::Refused {
            reason: reason.into(),
            detail: detail.into(),
        }
    }

    /// A simulation revert names its cause; the RPC being down is nobody's payment problem.
    fn from_chain_error(error: ChainError) -> Self {
        match error {
            ChainError::Unavailable(_) => Self::ChainDown(error.to_string()),
            ChainError::Refused(message) => Self::refused(
                revert_reason(&message),
                format!("the settlement would fail: {message}"),
            ),
        }
    }
}

impl Arcade {
    pub fn payments(&self) -> Result<&Payments, ApiError> {
        self.payments.as_ref().ok_or(ApiError::PaymentsUnavailable)
    }

    /// The 402 for a tier's resource, optionally saying why a payment was refused.
    pub fn challenge(
        &self,
        tier: &Tier,
        resource_url: &str,
        refusal: Option<(String, String)>,
        payer: Option<Address>,
        transaction: Option<String>,
    ) -> Result<ApiError, ApiError> {
        let payments = self.payments()?;
        let reason = refusal.as_ref().map(|(reason, _)| reason.clone());
        let required: PaymentRequired =
            payments
                .terms
                .payment_required(tier, resource_url.to_owned(), reason.clone());
        let settlement = reason.map(|reason| SettleResponse {
            success: false,
            error_reason: Some(reason),
            error_message: None,
            payer: payer.map(|p| p.to_checksum(None)),
            transaction: transaction.clone().unwrap_or_default(),
            network: payments.terms.network.clone(),
        });
        Ok(ApiError::PaymentRequired(Box::new(Challenge {
            required,
            settlement,
            detail: refusal.map(|(_, detail)| detail),
            transaction,
        })))
    }

    /// Buys `tier` with the payment in `header`; without one, answers the 402 challenge.
    pub async fn buy_chips(
        &self,
        tier: &Tier,
        resource_url: &str,
        header: Option<&str>,
    ) -> Result<Paid, ApiError> {
        let payments = self.payments()?;
        let Some(header) = header else {
            return Err(self.challenge(tier, resource_url, None, None, None)?);
        };
        let payment = decode_payment(header).map_err(|error| ApiError::MalformedPayment {
            detail: error.to_string(),
        })?;
        let offer = payments.terms.requirements(tier);
        let domain = payments.chain.eip712_domain();
        let now_seconds = u64::try_from(now_ms() / 1000).unwrap_or_default();
        let verified = match verify::verify(&payment, &offer, &domain, now_seconds) {
            Ok(verified) => verified,
            Err(Rejection::Malformed(detail)) => {
                return Err(ApiError::MalformedPayment { detail });
            }
            Err(Rejection::Refused { reason, detail }) => {
                let payer = verify::payer_of(&payment);
                return Err(self.challenge(
                    tier,
                    resource_url,
                    Some((reason.to_owned(), detail)),
                    payer,
                    None,
                )?);
            }
        };
        let claim = self.reserve(&verified, tier, payments).await?;
        let payer = claim.expected.payer;
        let refuse = |reason: String, detail: String, transaction: Option<B256>| {
            self.challenge(
                tier,
                resource_url,
                Some((reason, detail)),
                Some(payer),
                transaction.map(|tx| tx.to_string()),
            )
        };
        let submission = match check_on_chain(&payments.chain, &verified).await {
            Some(refused) => refused,
            None => match &payments.facilitator {
                Some(facilitator) => {
                    self.settle_by_facilitator(facilitator, &claim, header, &offer)
                        .await
                }
                None => self.settle_by_house(payments, &claim, &verified).await,
            },
        };
        let (candidate, reported) = match submission {
            Submission::Submitted(candidate) => {
                if let Some(tx) = candidate {
                    payments.chain.wait_confirmed(tx).await;
                }
                (candidate, None)
            }
            Submission::BroadcastUnanswered(tx) => (Some(tx), None),
            Submission::ReportedFailure { reason, detail } => (None, Some((reason, detail))),
            Submission::Refused { reason, detail } => {
                self.mark_failed(claim.id, &detail).await?;
                return Err(refuse(reason, detail, None)?);
            }
            Submission::ChainDown(error) => {
                self.mark_failed(claim.id, &error).await?;
                return Err(ApiError::ChainUnavailable(error));
            }
            Submission::JournalFailed(error) => {
                self.mark_failed(claim.id, "could not record the transaction")
                    .await?;
                return Err(ApiError::internal(error));
            }
        };
        let decision = match self.decide(payments, &claim, candidate).await {
            Ok(decision) => decision,
            // Something was sent: whatever the RPC says now, the reconciler finishes it.
            Err(error) => {
                tracing::warn!(payment = claim.id, %error, "deciding a submitted payment; the reconciler will");
                Decision::Pending(ChainSettlement::Unconfirmed)
            }
        };
        if let (Decision::Pending(_), Some((reason, detail))) = (&decision, reported) {
            return Err(refuse(
                reason,
                format!(
                    "{detail}; the authorization stays reserved until the chain settles it or it expires"
                ),
                candidate,
            )?);
        }
        match decision {
            Decision::Credited(purchase) => Ok(Paid {
                settlement: SettleResponse {
                    success: true,
                    error_reason: None,
                    error_message: None,
                    payer: Some(payer.to_checksum(None)),
                    transaction: purchase.tx_hash.clone(),
                    network: payments.terms.network.clone(),
                },
                purchase,
            }),
            Decision::Failed { reason, detail } => Err(refuse(reason.into(), detail, candidate)?),
            Decision::Pending(ChainSettlement::Open {
                candidate_reverted: true,
            }) => Err(refuse(
                "invalid_exact_evm_transaction_failed".into(),
                "the settlement reverted; the authorization stays reserved until it expires: sign a new one to buy".into(),
                candidate,
            )?),
            Decision::Pending(_) => Err(refuse(
                "settlement_pending".into(),
                format!(
                    "the settlement{} is not confirmed yet; the chips are credited once the chain proves the payment (check the balance), do not pay again",
                    candidate.map(|h| format!(" {h}")).unwrap_or_default()
                ),
                candidate,
            )?),
        }
    }
}

/// Step 3, before anything is sent: the authorization must be unused on the token and the
/// payer must hold the price. `authorizationState` only refuses early here; it never proves a
/// payment.
async fn check_on_chain(chain: &Chain, verified: &Verified) -> Option<Submission> {
    let auth = &verified.authorization;
    match chain.authorization_used(auth.from, auth.nonce).await {
        Err(error) => return Some(Submission::from_chain_error(error)),
        Ok(true) => {
            return Some(Submission::refused(
                "invalid_exact_evm_nonce_already_used",
                "the token says this authorization's nonce was already used",
            ));
        }
        Ok(false) => {}
    }
    match chain.token_balance(auth.from).await {
        Err(error) => Some(Submission::from_chain_error(error)),
        Ok(balance) if balance < auth.value => Some(Submission::refused(
            "insufficient_funds",
            format!(
                "the payer holds {balance} base units of the token; the price is {}",
                auth.value
            ),
        )),
        Ok(_) => None,
    }
}

/// x402 reasons for the token's revert messages (ours and USDC's word them alike).
fn revert_reason(message: &str) -> &'static str {
    let message = message.to_ascii_lowercase();
    if message.contains("exceeds balance") {
        "insufficient_funds"
    } else if message.contains("used or canceled") {
        "invalid_exact_evm_nonce_already_used"
    } else if message.contains("expired") {
        "invalid_exact_evm_payload_authorization_valid_before"
    } else if message.contains("not yet valid") {
        "invalid_exact_evm_payload_authorization_valid_after"
    } else if message.contains("invalid signature") {
        "invalid_exact_evm_payload_signature"
    } else {
        "invalid_exact_evm_transaction_simulation_failed"
    }
}
