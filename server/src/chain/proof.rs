//! What the arcade accepts as proof that a payment arrived, in one place.
//!
//! An EIP-3009 nonce belongs to the payer, not to one authorization: a payer may sign a second
//! authorization with the same nonce (paying themself), or cancel it, and get that mined first.
//! The token then reports the nonce used although the house was never paid. So "the nonce is
//! used", a facilitator's word or a broadcast hash prove nothing. The only proof is a mined,
//! successful receipt, at `chain.confirmations` depth, in which the token emitted
//! `AuthorizationUsed(payer, nonce)` immediately followed by its own
//! `Transfer(payer → pay_to, value)`: the pair `transferWithAuthorization` emits. Adjacency
//! matters: a multicall that uses a second authorization of the same payer emits both events
//! somewhere in one receipt without this authorization paying.
//!
//! The proof reports `value`, the amount that transfer moved, rather than matching it against
//! the amount the payment was presented for: any authorization of the nonce may be the one that
//! lands (the payer signs them all), so what it moved is what is credited, never the terms of
//! whichever request presented the nonce last.
//!
//! [`Chain::prove_payment`] is that check. [`Chain::settlement`] decides a payment the house holds
//! no proving hash for: it finds the transaction that used the nonce in the token's logs and
//! puts it through the same check, or finds that the authorization expired unused by the
//! chain's own clock.

use alloy::eips::BlockId;
use alloy::primitives::{Address, B256, U256};
use alloy::providers::Provider;
use alloy::rpc::types::{BlockNumberOrTag, Filter};
use alloy::sol_types::SolEvent;

pub use super::logs::ExpectedPayment;
use super::logs::{NonceUse, nonce_use_of, paid};
use super::token::DollarToken::{self, AuthorizationCanceled, AuthorizationUsed};
use super::{Chain, ChainError, contract_error, rpc_error};

/// `eth_getLogs` is asked for at most this many blocks at once (public RPCs cap the range).
pub(super) const LOG_SCAN_BLOCKS: u64 = 2_000;

/// What one transaction proves about an expected payment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Proof {
    /// Mined, successful, deep enough, and the authorization's own transfer moved `value` base
    /// units to the pay-to address.
    Paid { value: U256 },
    /// Deep enough, and it did not make this transfer.
    NotPaid(NotPaid),
    /// In no block the RPC shows, or not deep enough yet.
    NotYet,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotPaid {
    Reverted,
    /// Successful, but its logs do not hold the authorization's transfer to the pay-to address.
    NoSuchTransfer,
}

/// Where a payment stands on the chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Settlement {
    /// Transaction `tx` paid the pay-to address `value` base units through the authorization.
    Paid { tx: B256, value: U256 },
    /// It never will be paid: the nonce was consumed by a transaction that did not pay (`tx`),
    /// or cancelled, or the authorization expired unused.
    Unpaid(Unpaid),
    /// The nonce is unused and the authorization still valid: nothing has happened yet.
    Open {
        /// The candidate transaction is mined and reverted (it cannot be rebroadcast).
        candidate_reverted: bool,
    },
    /// Something used the nonce, or the candidate is mined, but not deep enough to judge yet
    /// (or the RPC's logs lag its state).
    Unconfirmed,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unpaid {
    /// The nonce was used by `tx`, which does not pay the pay-to address.
    UsedElsewhere { tx: B256 },
    /// The payer cancelled the authorization in `tx`.
    Canceled { tx: B256 },
    /// The chain's time at confirmation depth is past `validBefore`, and the nonce is unused.
    Expired,
}

impl Chain {
    /// The one check behind every credit: does transaction `tx` prove `expected` was paid, and
    /// how much?
    pub async fn prove_payment(
        &self,
        tx: B256,
        expected: &ExpectedPayment,
    ) -> Result<Proof, ChainError> {
        let receipt = self
            .provider
            .get_transaction_receipt(tx)
            .await
            .map_err(rpc_error)?;
        let Some((receipt, block)) = receipt.and_then(|r| r.block_number.map(|b| (r, b))) else {
            return Ok(Proof::NotYet);
        };
        if !self.is_deep(block).await? {
            return Ok(Proof::NotYet);
        }
        if !receipt.status() {
            return Ok(Proof::NotPaid(NotPaid::Reverted));
        }
        Ok(match paid(receipt.logs(), self.token, expected) {
            Some(value) => Proof::Paid { value },
            None => Proof::NotPaid(NotPaid::NoSuchTransfer),
        })
    }

    /// Where `expected` stands: `candidate` (our settlement, or a facilitator's reported hash)
    /// is checked first; otherwise, if the nonce is used, the transaction that used it (found in
    /// the token's logs from `from_block`) is checked the same way. `valid_before` is judged by
    /// the chain's time at confirmation depth.
    pub async fn settlement(
        &self,
        expected: &ExpectedPayment,
        candidate: Option<B256>,
        from_block: u64,
        valid_before: U256,
    ) -> Result<Settlement, ChainError> {
        let mut candidate_reverted = false;
        if let Some(tx) = candidate {
            match self.prove_payment(tx, expected).await? {
                Proof::Paid { value } => return Ok(Settlement::Paid { tx, value }),
                Proof::NotPaid(NotPaid::Reverted) => candidate_reverted = true,
                Proof::NotPaid(NotPaid::NoSuchTransfer) | Proof::NotYet => {}
            }
        }
        if self
            .authorization_used(expected.payer, expected.nonce)
            .await?
        {
            let found = self
                .nonce_use(expected.payer, expected.nonce, from_block)
                .await?;
            return match found {
                // The token's state says used; its logs do not show it yet.
                None => Ok(Settlement::Unconfirmed),
                Some(NonceUse {
                    tx,
                    block,
                    canceled: true,
                }) => Ok(if self.is_deep(block).await? {
                    Settlement::Unpaid(Unpaid::Canceled { tx })
                } else {
                    Settlement::Unconfirmed
                }),
                Some(NonceUse { tx, .. }) => Ok(match self.prove_payment(tx, expected).await? {
                    Proof::Paid { value } => Settlement::Paid { tx, value },
                    Proof::NotPaid(_) => Settlement::Unpaid(Unpaid::UsedElsewhere { tx }),
                    Proof::NotYet => Settlement::Unconfirmed,
                }),
            };
        }
        if self.expired_unused(expected, valid_before).await? {
            return Ok(Settlement::Unpaid(Unpaid::Expired));
        }
        Ok(Settlement::Open { candidate_reverted })
    }

    /// The transaction that used or cancelled `(payer, nonce)`, from the token's logs since
    /// `from_block`, scanned a bounded range at a time.
    async fn nonce_use(
        &self,
        payer: Address,
        nonce: B256,
        from_block: u64,
    ) -> Result<Option<NonceUse>, ChainError> {
        let head = self.block_number().await?;
        let mut from = from_block;
        while from <= head {
            let to = head.min(from + LOG_SCAN_BLOCKS - 1);
            let filter = Filter::new()
                .address(self.token)
                .event_signature(vec![
                    AuthorizationUsed::SIGNATURE_HASH,
                    AuthorizationCanceled::SIGNATURE_HASH,
                ])
                .topic1(payer)
                .topic2(nonce)
                .from_block(from)
                .to_block(to);
            let logs = self.provider.get_logs(&filter).await.map_err(rpc_error)?;
            if let Some(found) = logs.iter().find_map(nonce_use_of) {
                return Ok(Some(found));
            }
            from = to + 1;
        }
        Ok(None)
    }

    /// Whether the authorization can never be used any more: the block at confirmation depth
    /// is at or past `valid_before` (the token accepts it only while `block.timestamp <
    /// validBefore`, and later blocks are not older), and the nonce is unused at that block.
    async fn expired_unused(
        &self,
        expected: &ExpectedPayment,
        valid_before: U256,
    ) -> Result<bool, ChainError> {
        let head = self.block_number().await?;
        let deep = (head + 1).saturating_sub(self.confirmations);
        let block = self
            .provider
            .get_block_by_number(BlockNumberOrTag::Number(deep))
            .await
            .map_err(rpc_error)?
            .ok_or_else(|| ChainError::Unavailable(format!("the RPC has no block {deep}")))?;
        if U256::from(block.header.timestamp) < valid_before {
            return Ok(false);
        }
        let used = DollarToken::new(self.token, &self.provider)
            .authorizationState(expected.payer, expected.nonce)
            .block(BlockId::number(deep))
            .call()
            .await
            .map_err(contract_error)?;
        Ok(!used)
    }
}
