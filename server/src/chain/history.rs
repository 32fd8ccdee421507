//! The house key's history as the chain keeps it, which no restore of the database rolls back:
//! how many of its transactions are mined (by a block, or pending), the token's `Transfer` logs
//! that move the house's money (out of the house key, into the pay-to address) over a range of
//! blocks, who sent a transaction with which nonce, and the house's transaction with a nonce. Transactions are read as plain JSON, so
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

/// Who sent a transaction, to whom, with which nonce and input.
#[derive(Debug, Clone, Deserialize)]
pub struct SentBy {
    pub from: Address,
    /// `None` for a contract creation.
    #[serde(default)]
    pub to: Option<Address>,
    #[serde(with = "alloy::serde::quantity")]
    pub nonce: u64,
    pub input: Bytes,
}

/// A house transaction found by its nonce.
#[derive(Debug, Clone)]
pub struct Located {
    pub tx: B256,
    pub block: u64,
    pub sent: SentBy,
    /// The token's transfers it made.
    pub moves: Vec<TokenMove>,
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
    /// `from..=to`, in chain order, and whether every block's logs were read: two log reads per
    /// 2,000 blocks. A range the RPC refuses (a provider's cap on results, which anyone can
    /// fill with transfers into the pay-to address) is read again in halves, down to one block.
    pub async fn house_token_moves(
        &self,
        from: u64,
        to: u64,
    ) -> Result<(Vec<TokenMove>, bool), ChainError> {
        let mut moves: Vec<(u64, u64, TokenMove)> = Vec::new();
        let mut whole = true;
        let mut start = from;
        while start <= to {
            let end = to.min(start + LOG_SCAN_BLOCKS - 1);
            let transfers = Filter::new()
                .address(self.token)
                .event_signature(Transfer::SIGNATURE_HASH);
            for filter in [
                transfers.clone().topic1(self.house_address),
                transfers.topic2(self.pay_to),
            ] {
                let (found, all) = self.logs_in_halves(&filter, start, end).await?;
                moves.extend(found);
                whole &= all;
            }
            start = end + 1;
        }
        moves.sort_by_key(|(block, index, _)| (*block, *index));
        moves.dedup_by_key(|(block, index, _)| (*block, *index));
        Ok((
            moves.into_iter().map(|(_, _, found)| found).collect(),
            whole,
        ))
    }

    /// The moves `filter` matches in `from..=to`; a refused range is read as two halves, depth
    /// first, so an RPC that refuses everything costs one read per halving, not one per block.
    /// A single block still refused (stuffed with more transfers than the provider answers) is
    /// left out: the books account for every house nonce by itself, so no log is needed to find
    /// the house's transactions, only to find them cheaply.
    async fn logs_in_halves(
        &self,
        filter: &Filter,
        from: u64,
        to: u64,
    ) -> Result<(Vec<(u64, u64, TokenMove)>, bool), ChainError> {
        let mut moves = Vec::new();
        let mut whole = true;
        let mut ranges = vec![(from, to)];
        while let Some((start, end)) = ranges.pop() {
            let range = filter.clone().from_block(start).to_block(end);
            match self.provider.get_logs(&range).await {
                Ok(logs) => moves.extend(logs.iter().filter_map(token_move)),
                Err(error) if end > start && error.as_error_resp().is_some() => {
                    let middle = start + (end - start) / 2;
                    ranges.push((middle + 1, end));
                    ranges.push((start, middle));
                }
                Err(error) if error.as_error_resp().is_some() => {
                    tracing::warn!(block = start, %error, "the RPC refuses the logs of one block: its house transactions are looked up by nonce");
                    whole = false;
                }
                Err(error) => return Err(rpc_error(error)),
            }
        }
        Ok((moves, whole))
    }

    /// Who sent `tx`, with its nonce and input; `None` if the RPC does not show it (yet).
    pub async fn sent_by(&self, tx: B256) -> Result<Option<SentBy>, ChainError> {
        self.provider
            .raw_request("eth_getTransactionByHash".into(), (tx,))
            .await
            .map_err(rpc_error)
    }

    /// The first block in `low..=high` by which the house's count reached `count` (`high` if
    /// none before), by halving: about log2(high - low) reads of the count.
    pub async fn block_reaching(
        &self,
        count: u64,
        (mut low, mut high): (u64, u64),
    ) -> Result<u64, ChainError> {
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

    /// The house's transaction with `nonce`, mined in `blocks`, found without logs: the block
    /// its count was reached by, that block's transactions, and its receipt's transfers of the
    /// token. About log2(blocks) + 2 reads; `None` if the RPC does not show it.
    pub async fn house_transaction_with_nonce(
        &self,
        nonce: u64,
        blocks: (u64, u64),
    ) -> Result<Option<Located>, ChainError> {
        #[derive(Debug, Deserialize)]
        struct Block {
            transactions: Vec<serde_json::Value>,
        }
        #[derive(Debug, Deserialize)]
        struct Receipt {
            logs: Vec<Log>,
        }
        let block = self.block_reaching(nonce + 1, blocks).await?;
        let found: Option<Block> = self
            .provider
            .raw_request("eth_getBlockByNumber".into(), (format!("{block:#x}"), true))
            .await
            .map_err(rpc_error)?;
        let Some((tx, sent)) = found
            .into_iter()
            .flat_map(|b| b.transactions)
            .find_map(|tx| {
                let hash = serde_json::from_value::<B256>(tx.get("hash")?.clone()).ok()?;
                let sent = serde_json::from_value::<SentBy>(tx).ok()?;
                (sent.from == self.house_address && sent.nonce == nonce).then_some((hash, sent))
            })
        else {
            return Ok(None);
        };
        if !self.may_move_house_tokens(&sent) {
            // A mint, or a call to anything but the token: no receipt needed to know it moved
            // none of the house's tokens (a lagging RPC may not show receipts yet).
            return Ok(Some(Located {
                tx,
                block,
                sent,
                moves: Vec::new(),
            }));
        }
        let receipt: Option<Receipt> = self
            .provider
            .raw_request("eth_getTransactionReceipt".into(), (tx,))
            .await
            .map_err(rpc_error)?;
        let Some(receipt) = receipt else {
            return Ok(None);
        };
        let moves = receipt
            .logs
            .iter()
            .filter(|log| log.address() == self.token)
            .filter_map(token_move)
            .map(|(_, _, found)| found)
            .collect();
        Ok(Some(Located {
            tx,
            block,
            sent,
            moves,
        }))
    }
}

impl Chain {
    /// Whether a house transaction could have moved the token into or out of the house's hands:
    /// any call to the token but a mint (the house key holds no allowance elsewhere).
    fn may_move_house_tokens(&self, sent: &SentBy) -> bool {
        let mint = DollarToken::mintCall::SELECTOR;
        sent.to == Some(self.token) && sent.input.get(..4) != Some(&mint[..])
    }
}

/// `(block, log index, the move)` of a `Transfer` log still in the chain that moved something
/// (anyone can log transfers of nothing, and none is a payment).
fn token_move(log: &Log) -> Option<(u64, u64, TokenMove)> {
    if log.removed {
        return None;
    }
    let transfer = Transfer::decode_log(&log.inner).ok()?;
    if transfer.value.is_zero() {
        return None;
    }
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
