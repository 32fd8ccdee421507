//! Buying chips over x402: the money flow from a signed authorization to credited chips.
//!
//! 1. read and verify the payment (`x402::verify`, no IO);
//! 2. reserve its `(payer, nonce)` in `payments` (unique: a replay or a racing copy stops
//!    here), with the block the token's logs will be searched from (`reserve.rs`);
//! 3. check the chain: authorization unused, payer funded (refused early; nothing is sent);
//! 4. hand it to the payment rail chosen by `payments.rail` (`rails/`): the house signs
//!    `transferWithAuthorization` (`rails/house.rs`), or a facilitator settles it
//!    (`rails/facilitated.rs`);
//! 5. decide from the chain alone (`decide.rs`, over `chain::proof`): chips are credited, once,
//!    only on a receipt proving the transfer to the pay-to address, and they are the tier of the
//!    value it moved; the payment fails only when the chain proves it never will be paid (or
//!    paid no tier's price); anything else stays `settling`.
//!
//! `reconcile::Reconcile::payments` takes the same decision later for every row left
//! `settling`. Refusals are a domain [`PurchaseError`]; the edge (`error/`) turns them into the 402.

use std::sync::Arc;

use rmcp::schemars::JsonSchema;
use salvo::oapi::ToSchema;
use serde::{Deserialize, Serialize};

use super::house_sender::HouseSenders;
use super::now_ms;
use super::payments::Payments;
use crate::chain::{Chain, ChainError, RefusalKind};
use crate::faults::CrashPoint;
use crate::rate_limits::{Caller, Operation, RateLimits};
use crate::service::error::ServiceError;
use crate::store::Db;
use crate::tiers::Tier;
use crate::x402::Terms;
use crate::x402::verify::{self, Rejection, Verified};
use crate::x402::wire::decode_payment;

pub mod claim;
mod decide;
pub mod error;
mod identified;
pub mod rails;
mod reserve;

pub use claim::Claim;
pub(crate) use decide::Decision;
pub use error::{PurchaseError, payment_state};
pub use rails::{Presented, RailContext, Rails, Settler, Submission};

/// The body of a successful purchase.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, JsonSchema)]
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

impl Purchase {
    /// What a first purchase of `tier` answers (the example discovery metadata shows).
    pub fn example(tier: &Tier, terms: &Terms) -> Self {
        let chips = i64::try_from(tier.chips).unwrap_or(i64::MAX);
        Self {
            address: crate::address::EXAMPLE.to_owned(),
            tier: tier.name.to_owned(),
            chips_credited: chips,
            balance: chips,
            tx_hash: EXAMPLE_TX_HASH.to_owned(),
            network: terms.network.clone(),
            amount: tier.price_base_units().to_string(),
            asset: terms.asset.to_checksum(None),
            payment_id: 1,
        }
    }
}

/// A transaction hash for examples.
const EXAMPLE_TX_HASH: &str = "0x8d5b6a3f0e2c47d19b6e4f7a2c3d5e8f90a1b2c3d4e5f60718293a4b5c6d7e8f";

/// Buying chips: the money flow in.
#[derive(Clone)]
pub struct Purchases {
    pub(super) db: Db,
    /// `None` when no chain is configured (purchases answer 503).
    pub(super) payments: Option<Arc<Payments>>,
    pub(super) rate_limits: Arc<RateLimits>,
    /// A rail that sends as the house takes its one sender.
    pub(super) sender: HouseSenders,
    /// Crash-safety tests only.
    pub(super) crash_after: Option<CrashPoint>,
}

impl Purchases {
    /// The chain and the terms, when a chain is configured (the treasury watch reads them).
    pub fn configured(&self) -> Option<Arc<Payments>> {
        self.payments.clone()
    }

    pub fn payments(&self) -> Result<&Payments, PurchaseError> {
        self.payments
            .as_deref()
            .ok_or(PurchaseError::Service(ServiceError::PaymentsUnavailable))
    }

    /// What a rail may use of the arcade.
    pub(crate) fn rail_context<'a>(&'a self, payments: &'a Payments) -> RailContext<'a> {
        RailContext {
            db: &self.db,
            chain: &payments.chain,
            house_lock: self.sender.lock(),
            crash_after: self.crash_after,
        }
    }

    /// Buys `tier` with the payment in `header`.
    pub async fn buy_chips(
        &self,
        tier: &Tier,
        header: Option<&str>,
        caller: Caller,
    ) -> Result<Purchase, PurchaseError> {
        let payments = self.payments()?;
        let header = header.ok_or(PurchaseError::PaymentRequired)?;
        self.rate_limits
            .operation(caller, Operation::Purchase)
            .map_err(PurchaseError::from)?;
        let offer = payments.terms.requirements(tier);
        let identified = identified::identified(header)?;
        if let Some(identified) = &identified
            && let Some(original) = self.answered_before(payments, identified).await?
        {
            return Ok(original);
        }
        let verified = verified_payment(payments, &offer, header)?;
        let fingerprint = identified::fingerprint_of(header);
        let claim = self
            .reserve(&verified, tier, payments, identified, fingerprint)
            .await?;
        let submission = match check_on_chain(&payments.chain, &verified).await {
            Some(refused) => refused,
            None => {
                let presented = Presented {
                    verified: &verified,
                    header,
                    offer: &offer,
                };
                let context = self.rail_context(payments);
                payments
                    .rails
                    .chosen()
                    .submit(&context, &claim, &presented)
                    .await
            }
        };
        self.conclude(payments, &claim, submission).await
    }

    /// Step 5 for the request: what the submission comes to.
    async fn conclude(
        &self,
        payments: &Payments,
        claim: &Claim,
        submission: Submission,
    ) -> Result<Purchase, PurchaseError> {
        let payer = Some(claim.expected.payer);
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
                self.mark_failed(claim, &detail).await?;
                return Err(PurchaseError::refused(reason, detail, payer, None));
            }
            Submission::ChainDown(error) => {
                self.mark_failed(claim, &error).await?;
                return Err(ServiceError::ChainUnavailable(error).into());
            }
            Submission::JournalFailed(error) => {
                self.mark_failed(claim, "could not record the transaction")
                    .await?;
                return Err(PurchaseError::internal(error));
            }
        };
        let decision = match self.decide(payments, claim, candidate).await {
            Ok(decision) => decision,
            // Something was sent: whatever the RPC says now, the reconciler finishes it.
            Err(error) => {
                tracing::warn!(payment = claim.id, %error, "deciding a submitted payment; the reconciler will");
                Decision::Unconfirmed
            }
        };
        match decision {
            Decision::Credited(purchase) => Ok(purchase),
            Decision::Failed { reason, detail } => {
                Err(PurchaseError::refused(reason, detail, payer, candidate))
            }
            Decision::Open { reverted } => {
                Err(PurchaseError::pending(reported, reverted, payer, candidate))
            }
            Decision::Unconfirmed => Err(PurchaseError::pending(reported, false, payer, candidate)),
        }
    }
}

/// Step 1: the header decoded and checked against the offer (no IO).
fn verified_payment(
    payments: &Payments,
    offer: &crate::x402::wire::PaymentRequirements,
    header: &str,
) -> Result<Verified, PurchaseError> {
    let payment =
        decode_payment(header).map_err(|error| PurchaseError::Malformed(error.to_string()))?;
    let domain = payments.chain.eip712_domain();
    let now_seconds = u64::try_from(now_ms() / 1000).unwrap_or_default();
    verify::verify(&payment, offer, &domain, now_seconds).map_err(|rejection| match rejection {
        Rejection::Malformed(detail) => PurchaseError::Malformed(detail),
        Rejection::Refused { reason, detail } => {
            PurchaseError::refused(reason, detail, verify::payer_of(&payment), None)
        }
    })
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

/// The x402 reason for a refusal the chain gave before anything was sent.
fn x402_reason(kind: RefusalKind) -> &'static str {
    match kind {
        RefusalKind::InsufficientBalance => "insufficient_funds",
        RefusalKind::AuthorizationUsed => "invalid_exact_evm_nonce_already_used",
        RefusalKind::AuthorizationExpired => "invalid_exact_evm_payload_authorization_valid_before",
        RefusalKind::AuthorizationNotYetValid => {
            "invalid_exact_evm_payload_authorization_valid_after"
        }
        RefusalKind::InvalidSignature => "invalid_exact_evm_payload_signature",
        RefusalKind::InsufficientGas | RefusalKind::Other => {
            "invalid_exact_evm_transaction_simulation_failed"
        }
    }
}

impl Submission {
    fn refused(reason: impl Into<String>, detail: impl Into<String>) -> Self {
        Self::Refused {
            reason: reason.into(),
            detail: detail.into(),
        }
    }

    /// A simulation revert names its cause; the RPC being down is nobody's payment problem.
    pub(crate) fn from_chain_error(error: ChainError) -> Self {
        match error {
            ChainError::Unavailable(_) => Self::ChainDown(error.to_string()),
            ChainError::Refused(refusal) => Self::refused(
                x402_reason(refusal.kind),
                format!("the settlement would fail: {refusal}"),
            ),
        }
    }
}
