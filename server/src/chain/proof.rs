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
//! [`Chain::prove_payment`] is that check. [`Chain::settlement`] decides a payment the house holds
//! no proving hash for: it finds the transaction that used the nonce in the token's logs and
//! puts it through the same check, or finds that the authorization expired unused by the
//! chain's own clock.

use alloy::eips::BlockId;
use alloy::primitives::{Address, B256, U256};
use alloy::providers::Provider;
use alloy::rpc::types::{BlockNumberOrTag, Filter, Log};
use alloy::sol_types::SolEvent;

use super::token::DollarToken::{
    self, AuthorizationCanceled, AuthorizationUsed, Transfer as TransferEvent,
};
use super::{Chain, ChainError, contract_error, rpc_error};

/// `eth_getLogs` is asked for at most this many blocks at once (public RPCs cap the range).
const LOG_SCAN_BLOCKS: u64 = 2_000;

/// The transfer a purchase is owed for: the payer's authorization `nonce`, paying exactly
/// `value` to `pay_to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExpectedPayment {
    pub payer: Address,
    pub pay_to: Address,
    pub value: U256,
    pub nonce: B256,
}

/// What one transaction proves about an expected payment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Proof {
    /// Mined, successful, deep enough, and it made exactly this transfer.
    Paid,
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
    /// This transaction paid the pay-to address through the authorization.
    Paid(B256),
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

/// The transaction that consumed a nonce, as the token's logs name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct NonceUse {
    tx: B256,
    block: u64,
    canceled: bool,
}

impl Chain {
    /// The one check behind every credit: does transaction `tx` prove `expected` was paid?
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
        Ok(if pays(receipt.logs(), self.token, expected) {
            Proof::Paid
        } else {
            Proof::NotPaid(NotPaid::NoSuchTransfer)
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
                Proof::Paid => return Ok(Settlement::Paid(tx)),
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
                    Proof::Paid => Settlement::Paid(tx),
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

fn nonce_use_of(log: &Log) -> Option<NonceUse> {
    let (tx, block) = (log.transaction_hash?, log.block_number?);
    let topic = *log.topic0()?;
    (!log.removed).then_some(NonceUse {
        tx,
        block,
        canceled: topic == AuthorizationCanceled::SIGNATURE_HASH,
    })
}

/// Whether one receipt's `logs` (in order) hold the token's `AuthorizationUsed(payer, nonce)`
/// immediately followed by its `Transfer(payer → pay_to, value)`.
pub fn pays(logs: &[Log], token: Address, expected: &ExpectedPayment) -> bool {
    logs.windows(2)
        .any(|pair| uses_nonce(&pair[0], token, expected) && transfers(&pair[1], token, expected))
}

fn uses_nonce(log: &Log, token: Address, expected: &ExpectedPayment) -> bool {
    log.address() == token
        && AuthorizationUsed::decode_log(&log.inner)
            .is_ok_and(|used| used.authorizer == expected.payer && used.nonce == expected.nonce)
}

fn transfers(log: &Log, token: Address, expected: &ExpectedPayment) -> bool {
    log.address() == token
        && TransferEvent::decode_log(&log.inner).is_ok_and(|transfer| {
            transfer.from == expected.payer
                && transfer.to == expected.pay_to
                && transfer.value == expected.value
        })
}

#[cfg(test)]
mod tests {
    use alloy::primitives::LogData;

    use super::*;

    const TOKEN: Address = Address::repeat_byte(0x70);
    const OTHER_TOKEN: Address = Address::repeat_byte(0x71);
    const PAYER: Address = Address::repeat_byte(0x01);
    const PAY_TO: Address = Address::repeat_byte(0x02);
    const THIEF: Address = Address::repeat_byte(0x03);

    fn expected() -> ExpectedPayment {
        ExpectedPayment {
            payer: PAYER,
            pay_to: PAY_TO,
            value: U256::from(1_000_000u64),
            nonce: B256::repeat_byte(0xaa),
        }
    }

    fn log(address: Address, data: LogData) -> Log {
        Log {
            inner: alloy::primitives::Log { address, data },
            ..Default::default()
        }
    }

    fn used(token: Address, payer: Address, nonce: B256) -> Log {
        log(
            token,
            AuthorizationUsed {
                authorizer: payer,
                nonce,
            }
            .encode_log_data(),
        )
    }

    fn transfer(token: Address, from: Address, to: Address, value: u64) -> Log {
        log(
            token,
            TransferEvent {
                from,
                to,
                value: U256::from(value),
            }
            .encode_log_data(),
        )
    }

    fn the_pair() -> [Log; 2] {
        let e = expected();
        [
            used(TOKEN, PAYER, e.nonce),
            transfer(TOKEN, PAYER, PAY_TO, 1_000_000),
        ]
    }

    #[test]
    fn the_authorizations_own_pair_proves_payment() {
        assert!(pays(&the_pair(), TOKEN, &expected()));
        // Other logs around it (a relayer's multicall, a fee transfer) do not matter.
        let mut logs = vec![transfer(TOKEN, THIEF, PAY_TO, 5)];
        logs.extend(the_pair());
        logs.push(used(TOKEN, PAYER, B256::repeat_byte(0xbb)));
        assert!(pays(&logs, TOKEN, &expected()));
    }

    #[test]
    fn a_multicall_pairing_the_nonce_with_another_transfer_proves_nothing() {
        // Authorization B (another nonce) pays the house; authorization A (our nonce) pays the
        // payer's accomplice. Both events are in the receipt, but not as A's pair.
        let e = expected();
        let logs = [
            used(TOKEN, PAYER, B256::repeat_byte(0xbb)),
            transfer(TOKEN, PAYER, PAY_TO, 1_000_000),
            used(TOKEN, PAYER, e.nonce),
            transfer(TOKEN, PAYER, THIEF, 1_000_000),
        ];
        assert!(!pays(&logs, TOKEN, &e));
    }

    #[test]
    fn each_field_of_the_pair_must_match() {
        let e = expected();
        let spoiled: [[Log; 2]; 7] = [
            [
                used(OTHER_TOKEN, PAYER, e.nonce),
                transfer(TOKEN, PAYER, PAY_TO, 1_000_000),
            ],
            [
                used(TOKEN, PAYER, e.nonce),
                transfer(OTHER_TOKEN, PAYER, PAY_TO, 1_000_000),
            ],
            [
                used(TOKEN, THIEF, e.nonce),
                transfer(TOKEN, PAYER, PAY_TO, 1_000_000),
            ],
            [
                used(TOKEN, PAYER, B256::repeat_byte(0xbb)),
                transfer(TOKEN, PAYER, PAY_TO, 1_000_000),
            ],
            [
                used(TOKEN, PAYER, e.nonce),
                transfer(TOKEN, THIEF, PAY_TO, 1_000_000),
            ],
            [
                used(TOKEN, PAYER, e.nonce),
                transfer(TOKEN, PAYER, THIEF, 1_000_000),
            ],
            [
                used(TOKEN, PAYER, e.nonce),
                transfer(TOKEN, PAYER, PAY_TO, 999_999),
            ],
        ];
        for (i, logs) in spoiled.iter().enumerate() {
            assert!(!pays(logs, TOKEN, &e), "case {i} must not prove payment");
        }
    }

    #[test]
    fn the_pair_in_the_wrong_order_or_apart_proves_nothing() {
        let [used_log, transfer_log] = the_pair();
        let e = expected();
        assert!(!pays(&[transfer_log.clone(), used_log.clone()], TOKEN, &e));
        let apart = [used_log, transfer(TOKEN, THIEF, THIEF, 1), transfer_log];
        assert!(!pays(&apart, TOKEN, &e));
        assert!(!pays(&[], TOKEN, &e));
    }

    #[test]
    fn a_cancellation_is_recognised_in_the_logs() {
        let nonce = B256::repeat_byte(0xaa);
        let mut canceled = log(
            TOKEN,
            AuthorizationCanceled {
                authorizer: PAYER,
                nonce,
            }
            .encode_log_data(),
        );
        canceled.transaction_hash = Some(B256::repeat_byte(0x0c));
        canceled.block_number = Some(7);
        assert_eq!(
            nonce_use_of(&canceled),
            Some(NonceUse {
                tx: B256::repeat_byte(0x0c),
                block: 7,
                canceled: true
            })
        );
        let mut used_log = used(TOKEN, PAYER, nonce);
        used_log.transaction_hash = Some(B256::repeat_byte(0x0d));
        used_log.block_number = Some(8);
        assert!(nonce_use_of(&used_log).is_some_and(|u| !u.canceled));
        used_log.removed = true;
        assert_eq!(
            nonce_use_of(&used_log),
            None,
            "a log reorged away is no use"
        );
    }
}
