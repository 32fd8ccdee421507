//! Step 5: what a submitted payment comes to, decided from the chain alone (`chain::proof`),
//! by the request that submitted it and later by the reconciler, the same way:
//!
//! - a receipt proves the authorization paid the pay-to address: the chips of the tier whose
//!   price is the value it moved are credited, once, and the row takes that tier, those chips
//!   and that amount (`store::payments::settle`, a conditional update in the transaction that
//!   credits them). Whichever authorization of the nonce landed, and whatever tier the request
//!   asked for, the credit is what the chain moved;
//! - it moved a value that is no tier's price: nothing is credited, the payment ends `failed`;
//! - the chain proves it never will be paid (the nonce consumed by a transaction that does not
//!   pay, a cancellation, or expiry by the chain's own clock): the payment ends `failed`;
//! - anything else: it stays `settling`.

use alloy::primitives::{B256, U256};

use super::Purchase;
use super::Purchases;
use super::claim::{Claim, fail};
use crate::chain::ChainError;
use crate::chain::proof::{Settlement, Unpaid};
use crate::service::now_ms;
use crate::service::payments::Payments;
use crate::store::entities::payment::PaymentState;
use crate::store::payments::Proven;
use crate::store::{self, DbErr};
use crate::telemetry::money;
use crate::tiers::Tier;

/// What the chain says of a submitted payment.
pub(crate) enum Decision {
    /// Proven paid: credited now (or before, by whoever got there first).
    Credited(Purchase),
    /// Proven never to be paid: marked `failed` with this x402 reason.
    Failed {
        reason: &'static str,
        detail: String,
    },
    /// Nothing has happened yet: the nonce is unused, the authorization still valid.
    /// `reverted`: the candidate transaction is mined and reverted.
    Open { reverted: bool },
    /// Something is on its way, not deep enough to judge yet.
    Unconfirmed,
}

/// Why deciding a payment stopped short.
#[derive(Debug, thiserror::Error)]
pub(crate) enum DecideError {
    #[error(transparent)]
    Chain(#[from] ChainError),
    #[error(transparent)]
    Database(#[from] DbErr),
    #[error("payment {payment} was to be credited but is {state:?}")]
    NotSettled { payment: i64, state: PaymentState },
}

impl Purchases {
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
            Settlement::Paid { tx, value } => self.paid(payments, claim, tx, value).await,
            Settlement::Unpaid(why) => {
                let (reason, detail) = unpaid_reason(why);
                self.mark_failed(claim, &detail).await?;
                Ok(Decision::Failed { reason, detail })
            }
            Settlement::Open { candidate_reverted } => Ok(Decision::Open {
                reverted: candidate_reverted,
            }),
            Settlement::Unconfirmed => Ok(Decision::Unconfirmed),
        }
    }

    /// Transaction `tx` moved `value` through the authorization: the tier it pays for is
    /// credited, or, if it pays for none, nothing is and the payment fails.
    async fn paid(
        &self,
        payments: &Payments,
        claim: &Claim,
        tx: B256,
        value: U256,
    ) -> Result<Decision, DecideError> {
        let tx_hash = tx.to_string();
        let Some((tier, chips)) = bought(value) else {
            let detail = format!(
                "the authorization's nonce was used by transaction {tx_hash} to pay {value} base units, which is no tier's price; no chips are credited"
            );
            self.mark_failed(claim, &detail).await?;
            return Ok(Decision::Failed {
                reason: "invalid_exact_evm_payload_authorization_value_mismatch",
                detail,
            });
        };
        let proven = Proven {
            tx_hash: &tx_hash,
            tier: tier.name,
            chips,
            amount: value.to_string(),
        };
        let purchase = self.credit(payments, claim.id, &proven).await?;
        Ok(Decision::Credited(purchase))
    }

    /// Settled as `proven`, once; the purchase as it stands if someone got there first.
    async fn credit(
        &self,
        payments: &Payments,
        payment_id: i64,
        proven: &Proven<'_>,
    ) -> Result<Purchase, DecideError> {
        let tx_hash = proven.tx_hash;
        let settled = store::payments::settle(&self.db, payment_id, proven, now_ms()).await?;
        let row = settled.row;
        if settled.settled {
            money::credited(payment_id, &row.payer, tx_hash, row.chips);
        }
        if row.state != PaymentState::Settled {
            return Err(DecideError::NotSettled {
                payment: payment_id,
                state: row.state,
            });
        }
        Ok(super::identified::answer(payments, row, settled.balance))
    }

    /// Nothing is owed for this payment, and nothing will be: the reservation is released (the
    /// authorization may be presented again, and is checked afresh).
    pub(crate) async fn mark_failed(&self, claim: &Claim, error: &str) -> Result<(), DbErr> {
        fail(&self.db, claim, error).await
    }
}

/// What a proven transfer of `value` base units buys: the tier whose price it is exactly, and
/// its chips. Any other value (less, more, or between two prices) buys nothing.
fn bought(value: U256) -> Option<(Tier, i64)> {
    let tier = u64::try_from(value).ok().and_then(Tier::priced_at)?;
    Some((tier, i64::try_from(tier.chips).ok()?))
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
