//! Which blocks lie in a span of time, found by binary search over block headers.
//!
//! A block's timestamp is greater than its parent's (a consensus rule), so block `n` is at least
//! `t(head) − t(n)` blocks below the head, and the blocks after `n` that are less than `s`
//! seconds younger than it number less than `s`. Each search runs over at most as many blocks
//! as the seconds it spans, one `eth_getBlockByNumber` per halving: about `log2(seconds)` calls.
//! On a chain that broke the rule the range would come out too short, never too long.

use alloy::providers::Provider;
use alloy::rpc::types::BlockNumberOrTag;

use super::{Chain, ChainError, rpc_error};

/// Blocks `from..=to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockRange {
    pub from: u64,
    pub to: u64,
}

impl Chain {
    /// The blocks whose timestamps lie in `[earliest, before)`; `None` when there are none
    /// (yet).
    pub async fn blocks_between(
        &self,
        earliest: u64,
        before: u64,
    ) -> Result<Option<BlockRange>, ChainError> {
        let head = self.block_number().await?;
        let head_time = self.timestamp(head).await?;
        if earliest >= before || head_time < earliest {
            return Ok(None);
        }
        let lowest = head.saturating_sub(head_time - earliest);
        let from = self.first_at(earliest, lowest, head).await?;
        let highest = head.min(from.saturating_add(before - earliest - 1));
        let after = self.first_at(before, from, highest).await?;
        Ok((after > from).then_some(BlockRange {
            from,
            to: after - 1,
        }))
    }

    /// The first block in `low..=high` whose timestamp is at least `time`, or `high + 1`.
    async fn first_at(&self, time: u64, low: u64, high: u64) -> Result<u64, ChainError> {
        let (mut low, mut high) = (low, high + 1);
        while low < high {
            let middle = low + (high - low) / 2;
            if self.timestamp(middle).await? >= time {
                high = middle;
            } else {
                low = middle + 1;
            }
        }
        Ok(low)
    }

    /// Block `number`'s timestamp.
    async fn timestamp(&self, number: u64) -> Result<u64, ChainError> {
        let block = self
            .provider
            .get_block_by_number(BlockNumberOrTag::Number(number))
            .await
            .map_err(rpc_error)?
            .ok_or_else(|| ChainError::Unavailable(format!("the RPC has no block {number}")))?;
        Ok(block.header.timestamp)
    }
}
