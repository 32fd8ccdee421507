//! The house key's history as the chain keeps it, which no restore of the database rolls back:
//! how many of its transactions are mined (by a block, or pending), the token's `Transfer` logs
//! that move the house's money (out of the house key, into the pay-to address) over a range of
//! blocks, and who sent a transaction with which nonce. Transactions are read as plain JSON, so
//! a chain whose blocks hold transaction types this build does not know (Base's deposits,
//! `0x7e`) is read the same way.

use alloy::eips::BlockId;
use alloy::primitives::{Address, B256, Bytes, U256};
use alloy::providers::Provider;
use alloy::rpc::types::{Filter, Log};
use alloy::sol_types::{SolCall, SolEvent};
use serde::Deserialize;

use super::proof::LOG_SCAN_BLOCKS;
use super::token::DollarToken::{self, Transfer};
use super::{Chain, ChainError, rpc_error};

/// One `Transfer` of the token that moved the house's money, in chain order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenMove {
    pub tx: B256,
    pub block: u64,
    pub from: Address,
    pub to: Address,
    pub value: U256,
}

/// Who sent a transaction, with which nonce and input.
#[derive(Debug, Clone, Deserialize)]
pub struct SentBy {
    pub from: Address,
    #[serde(with = "alloy::serde::quantity")]
    pub nonce: u64,
    pub input: Bytes,
}

/// A `transferWithAuthorization` call's terms, read from a transaction's input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SettlementCall {
    pub payer: Address,
    pub to: Address,
    pub nonce: B256,
    pub valid_before: U256,
}

impl SettlementCall {
    pub fn of(input: &[u8]) -> Option<Self> {
        let call = DollarToken::transferWithAuthorizationCall::abi_decode(input).ok()?;
        Some(Self {
            payer: call.from,
            to: call.to,
            nonce: call.nonce,
            valid_before: call.validBefore,
        })
    }
}

impl Chain {
    /// The house's transactions mined by `block`.
    pub async fn house_count_at(&self, block: u64) -> Result<u64, ChainError> {
        self.provider
            .get_transaction_count(self.house_address)
            .block_id(BlockId::number(block))
            .await
            .map_err(rpc_error)
    }

    /// The house's transactions mined or waiting in the node's pool: the next nonce it signs.
    pub async fn house_count_pending(&self) -> Result<u64, ChainError> {
        self.provider
            .get_transaction_count(self.house_address)
            .pending()
            .await
            .map_err(rpc_error)
    }

    /// The newest block with the configured confirmations.
    pub async fn deep_head(&self) -> Result<u64, ChainError> {
        let head = self.block_number().await?;
        Ok((head + 1).saturating_sub(self.confirmations))
    }

    /// Every `Transfer` of the token out of the house key or into the pay-to address in blocks
    /// `from..=to`, in chain order: two log reads per 2,000 blocks.
    pub async fn house_token_moves(
        &self,
        from: u64,
        to: u64,
    ) -> Result<Vec<TokenMove>, ChainError> {
        let mut moves: Vec<(u64, u64, TokenMove)> = Vec::new();
        let mut start = from;
        while start <= to {
            let end = to.min(start + LOG_SCAN_BLOCKS - 1);
            let transfers = Filter::new()
                .address(self.token)
                .event_signature(Transfer::SIGNATURE_HASH)
                .from_block(start)
                .to_block(end);
            for filter in [
                transfers.clone().topic1(self.house_address),
                transfers.topic2(self.pay_to),
            ] {
                let logs = self.provider.get_logs(&filter).await.map_err(rpc_error)?;
                moves.extend(logs.iter().filter_map(token_move));
            }
            start = end + 1;
        }
        moves.sort_by_key(|(block, index, _)| (*block, *index));
        moves.dedup_by_key(|(block, index, _)| (*block, *index));
        Ok(moves.into_iter().map(|(_, _, found)| found).collect())
    }

    /// Who sent `tx`, with its nonce and input; `None` if the RPC does not show it (yet).
    pub async fn sent_by(&self, tx: B256) -> Result<Option<SentBy>, ChainError> {
        self.provider
            .raw_request("eth_getTransactionByHash".into(), (tx,))
            .await
            .map_err(rpc_error)
    }

    /// The first block by which the house's count reached `count` (at most `head`), by halving:
    /// about log2(head) reads of the count.
    pub async fn block_reaching(&self, count: u64, head: u64) -> Result<u64, ChainError> {
        let (mut low, mut high) = (0, head);
        while low < high {
            let middle = low + (high - low) / 2;
            if self.house_count_at(middle).await? >= count {
                high = middle;
            } else {
                low = middle + 1;
            }
        }
        Ok(high)
    }
}

/// `(block, log index, the move)` of a `Transfer` log still in the chain.
fn token_move(log: &Log) -> Option<(u64, u64, TokenMove)> {
    if log.removed {
        return None;
    }
    let transfer = Transfer::decode_log(&log.inner).ok()?;
    let (tx, block, index) = (log.transaction_hash?, log.block_number?, log.log_index?);
    Some((
        block,
        index,
        TokenMove {
            tx,
            block,
            from: transfer.from,
            to: transfer.to,
            value: transfer.value,
        },
    ))
}
