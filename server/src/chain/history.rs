//! The house key's history as the chain keeps it, which no restore of the database rolls back:
//! how many of its transactions are mined, and which transaction took a given nonce and what it
//! did to the token (a cashout's `transfer`, a purchase's `transferWithAuthorization`, or
//! something else). A nonce's transaction is found without an index: the block where the
//! house's count passed it is searched for (galloping up from a block known to be before it,
//! then halving), then read whole.

use alloy::consensus::Transaction as _;
use alloy::eips::BlockId;
use alloy::primitives::{Address, B256, U256};
use alloy::providers::Provider;
use alloy::rpc::types::BlockNumberOrTag;
use alloy::sol_types::SolCall;

use super::token::DollarToken;
use super::{Chain, ChainError, rpc_error};

/// A mined transaction of the house, and what it did.
#[derive(Debug, Clone)]
pub struct HouseTx {
    pub hash: B256,
    pub nonce: u64,
    pub block: u64,
    pub what: HouseTxKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HouseTxKind {
    /// A successful ERC-20 `transfer` of the token: a cashout.
    Transfer { to: Address, value: U256 },
    /// A successful `transferWithAuthorization` to `pay_to`: a purchase settled.
    Settlement {
        payer: Address,
        nonce: B256,
        value: U256,
        valid_before: U256,
    },
    /// Anything else (a mint, gas sent, a reverted call): it moved none of the books' chips.
    Other,
}

impl Chain {
    /// The house's transactions mined by `block` (the latest when `None`).
    pub async fn house_count_at(&self, block: Option<u64>) -> Result<u64, ChainError> {
        let request = self.provider.get_transaction_count(self.house_address);
        let request = match block {
            Some(block) => request.block_id(BlockId::number(block)),
            None => request.latest(),
        };
        request.await.map_err(rpc_error)
    }

    /// The house's transaction with `nonce`, mined after `after` and by `head`, and what it
    /// did; `None` if no block up to `head` holds it.
    pub async fn house_tx(
        &self,
        nonce: u64,
        after: u64,
        head: u64,
    ) -> Result<Option<HouseTx>, ChainError> {
        let Some(block) = self.block_passing(nonce, after, head).await? else {
            return Ok(None);
        };
        let found = self
            .provider
            .get_block_by_number(BlockNumberOrTag::Number(block))
            .full()
            .await
            .map_err(rpc_error)?
            .ok_or_else(|| ChainError::Unavailable(format!("the RPC has no block {block}")))?;
        let txs: Vec<_> = found.transactions.into_transactions().collect();
        let seen: Vec<String> = txs
            .iter()
            .map(|tx| format!("{}:{}", tx.inner.signer(), tx.nonce()))
            .collect();
        let tx = txs
            .into_iter()
            .find(|tx| tx.inner.signer() == self.house_address && tx.nonce() == nonce)
            .ok_or_else(|| {
                ChainError::Unavailable(format!(
                    "block {block} passed the house's nonce {nonce} but holds no such transaction ({})",
                    seen.join(", ")
                ))
            })?;
        let hash = *tx.inner.tx_hash();
        let success = self
            .provider
            .get_transaction_receipt(hash)
            .await
            .map_err(rpc_error)?
            .is_some_and(|receipt| receipt.status());
        let what = if success && tx.to() == Some(self.token) {
            self.token_call(tx.input())
        } else {
            HouseTxKind::Other
        };
        Ok(Some(HouseTx {
            hash,
            nonce,
            block,
            what,
        }))
    }

    /// What a successful call of the token did, read from its input.
    fn token_call(&self, input: &[u8]) -> HouseTxKind {
        if let Ok(call) = DollarToken::transferCall::abi_decode(input) {
            return HouseTxKind::Transfer {
                to: call.to,
                value: call.value,
            };
        }
        match DollarToken::transferWithAuthorizationCall::abi_decode(input) {
            Ok(call) if call.to == self.pay_to => HouseTxKind::Settlement {
                payer: call.from,
                nonce: call.nonce,
                value: call.value,
                valid_before: call.validBefore,
            },
            _ => HouseTxKind::Other,
        }
    }

    /// The first block after `after`, up to `head`, by which the house's count exceeds
    /// `nonce`: galloping up from `after`, then halving.
    async fn block_passing(
        &self,
        nonce: u64,
        after: u64,
        head: u64,
    ) -> Result<Option<u64>, ChainError> {
        let passed = |count: u64| count > nonce;
        if !passed(self.house_count_at(Some(head)).await?) {
            return Ok(None);
        }
        let (mut low, mut step) = (after, 1);
        let mut high = loop {
            let probe = (after + step).min(head);
            if passed(self.house_count_at(Some(probe)).await?) {
                break probe;
            }
            low = probe;
            if probe == head {
                return Ok(None);
            }
            step *= 2;
        };
        // `low` has not passed it, `high` has.
        while high - low > 1 {
            let middle = low + (high - low) / 2;
            if passed(self.house_count_at(Some(middle)).await?) {
                high = middle;
            } else {
                low = middle;
            }
        }
        Ok(Some(high))
    }
}
