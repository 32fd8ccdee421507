//! A payment whose nonce the token already shows used, presented while no row in this database
//! holds it settled: the purchase the house settled before the database was restored from an
//! older backup, presented again by a payer whose answer was lost. It is decided from the chain
//! alone, as `decide.rs` decides a submitted payment, and nothing is ever sent for it: the
//! transaction that used the nonce is found in the token's logs and put through the one proof
//! of payment (`chain::proof`). If it moved a tier's price from the payer to the pay-to address,
//! that tier is credited, once (the row unique on `(payer, nonce)`, the conditional settle);
//! cancelled, paid elsewhere, or no tier's price: refused, nothing credited.
//!
//! The search is bounded by what the payer signed, not by anything in the database. The token
//! accepts the authorization only while `validAfter < block.timestamp < validBefore`, and the
//! house takes an authorization only while its nonce is unused and its `validBefore` at most
//! `maxTimeoutSeconds` + 60 s ahead (`x402::verify`): a use that paid the house through it was
//! mined less than that long before `validBefore`. So the logs searched are those of the blocks
//! whose timestamps lie in `[max(validAfter + 1, validBefore − lookback), validBefore)`, the
//! lookback being [`LOOKBACK_SECONDS`] (or the offer's window plus [`CLOCK_SKEW_SECONDS`], if
//! longer). Those blocks are found by binary search over headers (`chain::window`).
//!
//! One such request costs, in RPC calls: the head and its header (2), about `log2(seconds
//! from the window's start to now)` headers for the first block and at most `log2(lookback)`
//! for the last (12 for an hour), `eth_getLogs` over the window in ranges of
//! [`LOG_SCAN_BLOCKS`] (one for an hour of blocks at 2 s), `authorizationState`, the receipt
//! and the depth (3), and the block number `reserve` reads: about 45 at most, under 30 for a
//! retry within the day. The `purchase` rate limit bucket (one presentation per client every
//! 2 s, burst 10 by default) is drawn before any of it.
//!
//! [`LOG_SCAN_BLOCKS`]: crate::chain::proof::LOG_SCAN_BLOCKS

use alloy::primitives::U256;

use super::{Claim, Decision, Payments, Purchase, PurchaseError, Purchases, answer};
use crate::chain::{BlockRange, ChainError};
use crate::service::now_ms;
use crate::store;
use crate::x402::verify::{VALID_BEFORE_SLACK_SECONDS, Verified};

/// The x402 reason every refusal here gives: the nonce was used, and not to pay for this.
const NONCE_USED: &str = "invalid_exact_evm_nonce_already_used";

/// How far before `validBefore` the transaction that used the nonce is searched for, at least.
pub const LOOKBACK_SECONDS: u64 = 3_600;
/// How far the chain's clock may be behind the server's when the house took the payment.
pub const CLOCK_SKEW_SECONDS: u64 = 600;

impl Purchases {
    /// An authorization refused as expired stays refused unless the token shows its nonce used;
    /// then it is decided from the chain like any other used nonce.
    pub(super) async fn used_past_expiry(
        &self,
        payments: &Payments,
        verified: &Verified,
        expired: PurchaseError,
    ) -> Result<(), PurchaseError> {
        let auth = &verified.authorization;
        let used = payments
            .chain
            .authorization_used(auth.from, auth.nonce)
            .await
            .map_err(|error| PurchaseError::ChainDown(error.to_string()))?;
        if used { Ok(()) } else { Err(expired) }
    }

    /// Decides `claim` (held by this request, its nonce used on the token) from the chain.
    pub(super) async fn proven_earlier(
        &self,
        payments: &Payments,
        claim: &Claim,
        verified: &Verified,
    ) -> Result<Purchase, PurchaseError> {
        let payer = Some(claim.expected.payer);
        let (earliest, before) = window(verified, payments.terms.max_timeout_seconds);
        let blocks = match payments.chain.blocks_between(earliest, before).await {
            Ok(Some(blocks)) => blocks,
            Ok(None) => return self.not_in_window(claim).await,
            Err(error) => return self.chain_down(claim, error).await,
        };
        let claim = self.search_from(claim, blocks).await?;
        let settlement = match payments
            .chain
            .settlement_within(&claim.expected, blocks)
            .await
        {
            Ok(Some(settlement)) => settlement,
            Ok(None) => return self.not_in_window(&claim).await,
            Err(error) => return self.chain_down(&claim, error).await,
        };
        let decision = self
            .act(payments, &claim, settlement)
            .await
            .map_err(PurchaseError::internal)?;
        // Refused as any used nonce is, whatever the chain shows it moved (the detail says).
        let decision = match decision {
            Decision::Failed { detail, .. } => Decision::Failed {
                reason: NONCE_USED,
                detail,
            },
            decision => decision,
        };
        answer(decision, payer, None, None)
    }

    /// The row's logs are searched from the window's first block from now on (the reconciler
    /// finishes a use not yet deep enough from there).
    async fn search_from(&self, claim: &Claim, blocks: BlockRange) -> Result<Claim, PurchaseError> {
        let from_block = i64::try_from(blocks.from).map_err(PurchaseError::internal)?;
        store::payment_search::search_from(&self.db, claim.id, claim.attempt, from_block, now_ms())
            .await?;
        Ok(Claim {
            from_block: blocks.from,
            ..*claim
        })
    }

    /// The nonce is used, but not in a block where this authorization was valid: whatever used
    /// it did not pay through this authorization.
    async fn not_in_window(&self, claim: &Claim) -> Result<Purchase, PurchaseError> {
        let detail = "the token says this authorization's nonce was already used, and no block in which this authorization was valid used it; no chips are owed for it";
        self.mark_failed(claim, detail).await?;
        Err(PurchaseError::refused(
            NONCE_USED,
            detail,
            Some(claim.expected.payer),
            None,
        ))
    }

    async fn chain_down(
        &self,
        claim: &Claim,
        error: ChainError,
    ) -> Result<Purchase, PurchaseError> {
        let error = error.to_string();
        self.mark_failed(claim, &error).await?;
        Err(PurchaseError::ChainDown(error))
    }
}

/// The timestamps `[earliest, before)` a block that used the authorization for the house lies
/// in.
fn window(verified: &Verified, max_timeout_seconds: u64) -> (u64, u64) {
    let seconds = |value: U256| u64::try_from(value).unwrap_or(u64::MAX);
    let auth = &verified.authorization;
    let before = seconds(auth.validBefore);
    let lookback = LOOKBACK_SECONDS.max(
        max_timeout_seconds
            .saturating_add(VALID_BEFORE_SLACK_SECONDS)
            .saturating_add(CLOCK_SKEW_SECONDS),
    );
    let earliest = seconds(auth.validAfter)
        .saturating_add(1)
        .max(before.saturating_sub(lookback));
    (earliest, before)
}

#[cfg(test)]
mod tests {
    use alloy::primitives::{Address, B256, Signature};

    use super::*;
    use crate::chain::token::TransferWithAuthorization;

    fn valid(after: u64, before: u64) -> Verified {
        Verified {
            authorization: TransferWithAuthorization {
                from: Address::repeat_byte(1),
                to: Address::repeat_byte(2),
                value: U256::from(1_000_000u64),
                validAfter: U256::from(after),
                validBefore: U256::from(before),
                nonce: B256::repeat_byte(3),
            },
            signature: Signature::new(U256::ZERO, U256::ZERO, false),
        }
    }

    #[test]
    fn the_window_ends_at_valid_before_and_looks_back_a_bounded_time() {
        let before = 1_800_000_000;
        assert_eq!(
            window(&valid(0, before), 300),
            (before - LOOKBACK_SECONDS, before)
        );
        // The mining block is later than validAfter, strictly.
        assert_eq!(
            window(&valid(before - 60, before), 300),
            (before - 59, before)
        );
        // An offer with a longer window is covered with room for the clocks.
        assert_eq!(
            window(&valid(0, before), 7_200),
            (
                before - 7_200 - VALID_BEFORE_SLACK_SECONDS - CLOCK_SKEW_SECONDS,
                before
            )
        );
    }
}
