//! A payment rail: who submits the settlement of a verified authorization, and what the
//! reconciler does with a payment it recorded that the chain leaves open. A rail sees only a
//! [`RailContext`]. Whatever a rail reports, the chain decides (`decide.rs`).

use alloy::primitives::B256;
use async_trait::async_trait;
use tokio::sync::Mutex;

use crate::chain::Chain;
use crate::faults::CrashPoint;
use crate::service::house_sender::HouseSender;
use crate::service::purchases::claim::Claim;
use crate::store::entities::payment;
use crate::store::{Db, DbErr};
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
    /// Step 4: submits the settlement of `payment`, reserved as `claim`.
    async fn submit(
        &self,
        context: &RailContext<'_>,
        claim: &Claim,
        payment: &Presented<'_>,
    ) -> Submission;

    /// The reconciler's step for `row`, a payment this rail recorded, when the chain leaves it
    /// open: its nonce unused, its authorization still valid, and no transaction of it reverted.
    async fn resume(
        &self,
        context: &RailContext<'_>,
        claim: &Claim,
        row: &payment::Model,
    ) -> Result<Resumed, ResumeError>;
}

/// What a rail may use: the database, the chain, the house's one sender, and the crash points
/// of the crash-safety tests.
pub struct RailContext<'a> {
    pub db: &'a Db,
    pub chain: &'a Chain,
    /// Held (with the `house_sender` row on PostgreSQL) while a house transaction is sent.
    pub house_lock: &'a Mutex<()>,
    pub crash_after: Option<CrashPoint>,
}

impl RailContext<'_> {
    /// The house's one sender, held until [`HouseSender::release`].
    pub async fn house_sender(&self) -> Result<HouseSender<'_>, DbErr> {
        HouseSender::hold(self.house_lock, self.db).await
    }
}

/// What the reconciler did with an open payment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resumed {
    /// Nothing was sent and no one else holds the authorization: the payment is failed.
    Released,
    /// The rail's own signed settlement was broadcast again.
    Rebroadcast,
    /// Someone may still land it: left to the chain, or to the authorization's expiry.
    Waiting,
}

/// Why an open payment could not be resumed this pass (it is tried again next pass).
pub type ResumeError = Box<dyn std::error::Error + Send + Sync>;

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
