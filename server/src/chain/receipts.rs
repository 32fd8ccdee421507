//! Receipts: whether a transaction is in a block, how deep, and a bounded wait for one.

use std::time::{Duration, Instant};

use alloy::primitives::{Address, B256};
use alloy::providers::Provider;

use super::{Chain, ChainError, Mined, rpc_error};

/// Waiting on a receipt: look again after 10 ms, then twice as long each time, up to 1 s (a
/// local node mines in milliseconds, an L2 in about a second or two).
const RECEIPT_POLL_FIRST: Duration = Duration::from_millis(10);
const RECEIPT_POLL_MAX: Duration = Duration::from_secs(1);

impl Chain {
    /// The transaction's outcome if it is in a block, however deep.
    pub async fn mined(&self, hash: B256) -> Result<Option<Mined>, ChainError> {
        let receipt = self
            .provider
            .get_transaction_receipt(hash)
            .await
            .map_err(rpc_error)?;
        Ok(receipt.and_then(|receipt| {
            receipt.block_number.map(|block| Mined {
                success: receipt.status(),
                block,
                from: receipt.from,
            })
        }))
    }

    /// The transaction's outcome once it has the configured confirmations; `None` while it is
    /// unknown, pending or not yet deep enough.
    pub async fn confirmed(&self, hash: B256) -> Result<Option<Mined>, ChainError> {
        let Some(mined) = self.mined(hash).await? else {
            return Ok(None);
        };
        Ok(self.is_deep(mined.block).await?.then_some(mined))
    }

    /// How many transactions from `sender` are in blocks: every nonce below it is used.
    pub async fn nonces_used(&self, sender: Address) -> Result<u64, ChainError> {
        self.provider
            .get_transaction_count(sender)
            .latest()
            .await
            .map_err(rpc_error)
    }

    /// The newest block the RPC knows.
    pub async fn block_number(&self) -> Result<u64, ChainError> {
        self.provider.get_block_number().await.map_err(rpc_error)
    }

    /// Whether a transaction in `block` has the configured confirmations.
    pub async fn is_deep(&self, block: u64) -> Result<bool, ChainError> {
        if self.confirmations <= 1 {
            return Ok(true);
        }
        let head = self.block_number().await?;
        Ok(head + 1 >= block + self.confirmations)
    }

    /// Waits (bounded by the settle timeout) for [`Chain::confirmed`] to say something; `None`
    /// when the time ran out. RPC errors while waiting count as "not yet".
    pub async fn wait_confirmed(&self, hash: B256) -> Option<Mined> {
        let deadline = Instant::now() + self.settle_timeout;
        let mut pause = RECEIPT_POLL_FIRST;
        loop {
            if let Ok(Some(mined)) = self.confirmed(hash).await {
                return Some(mined);
            }
            if Instant::now() + pause > deadline {
                return None;
            }
            tokio::time::sleep(pause).await;
            pause = (pause * 2).min(RECEIPT_POLL_MAX);
        }
    }
}
