//! A payment rail: who submits the settlement of a verified authorization. The house (with its
//! own key, `house.rs`) and an x402 facilitator (`facilitated.rs`) are the two; a new rail is a
//! new implementation of [`Settler`]. Whatever a rail reports, the chain decides (`decide.rs`).

use alloy::primitives::B256;
use async_trait::async_trait;

use super::Claim;
use crate::service::Arcade;
use crate::store::DbErr;
use crate::store::entities::payment::Rail;
use crate::x402::verify::Verified;
use crate::x402::wire::PaymentRequirements;

/// A payment as it was presented, verified.
pub struct Presented<'a> {
    pub verified: &'a Verified,
    /// The payment header exactly as the client sent it (a facilitator gets it unchanged).
    pub header: &'a str,
    /// The offer it answers.
    pub offer: &'a PaymentRequirements,
}

#[async_trait]
pub trait Settler: Send + Sync {
    /// Who this is, as the payment row records it.
    fn rail(&self) -> Rail;

    /// Step 4: submits the settlement of `payment`, reserved as `claim`.
    async fn submit(&self, arcade: &Arcade, claim: &Claim, payment: &Presented<'_>) -> Submission;
}

/// How handing a payment to its rail ended.
#[derive(Debug)]
pub enum Submission {
    /// Nothing was sent, by the house or on its behalf: the x402 reason and a sentence.
    Refused { reason: String, detail: String },
    /// The chain (or the facilitator) did not answer before anything was sent.
    ChainDown(String),
    /// The settlement could not be journalled; nothing was sent.
    JournalFailed(DbErr),
    /// Sent, or reported sent: the transaction if one is known. The chain decides the rest.
    Submitted(Option<B256>),
    /// Signed and journalled, but the broadcast got no answer: it may be in the pool.
    BroadcastUnanswered(B256),
    /// A facilitator reported failure without a transaction. It may be wrong (it holds the
    /// signed authorization), so the chain still decides; its reason is what the buyer hears.
    ReportedFailure { reason: String, detail: String },
}
