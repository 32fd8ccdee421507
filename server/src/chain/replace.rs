//! Replacing a house transaction that the chain's fees outgrew: the same nonce, recipient, value,
//! call and gas limit, signed again at higher fees and journalled (like every house
//! transaction) before it is broadcast. Only one transaction per (sender, nonce) can ever be
//! mined, so the original and its replacements never pay twice: whichever is mined counts.

use std::future::Future;

use alloy::consensus::TxEnvelope;
use alloy::consensus::transaction::SignerRecoverable;
use alloy::eips::eip2718::{Decodable2718, Encodable2718};
use alloy::network::{NetworkTransactionBuilder, TransactionBuilder};
use alloy::primitives::B256;
use alloy::providers::Provider;
use alloy::providers::utils::{EIP1559_FEE_ESTIMATION_PAST_BLOCKS, Eip1559Estimator};
use alloy::rpc::types::{BlockNumberOrTag, TransactionRequest};

use super::fees::{Fees, Market};
use super::{Chain, ChainError, SendError, SignedTx, refusal, rpc_error};

/// The percentile of recent blocks' priority fees a bid matches (alloy's estimate).
const PRIORITY_FEE_PERCENTILE: f64 = 20.0;

impl Chain {
    /// The chain's fees now: the base fee of the latest block or of the next one, whichever is
    /// higher, and the priority fee recent blocks paid.
    pub async fn market(&self) -> Result<Market, ChainError> {
        let history = self
            .provider
            .get_fee_history(
                EIP1559_FEE_ESTIMATION_PAST_BLOCKS,
                BlockNumberOrTag::Latest,
                &[PRIORITY_FEE_PERCENTILE],
            )
            .await
            .map_err(rpc_error)?;
        let base_fee = history
            .latest_block_base_fee()
            .into_iter()
            .chain(history.next_block_base_fee())
            .max()
            .unwrap_or_default();
        let rewards = history.reward.unwrap_or_default();
        let estimate = Eip1559Estimator::default().estimate(base_fee, &rewards);
        Ok(Market {
            base_fee,
            priority_fee: estimate.max_priority_fee_per_gas,
        })
    }

    /// The fees a signed transaction bids; `None` unless it is an EIP-1559 transaction (the
    /// only kind the house signs).
    pub fn fees_of(raw: &[u8]) -> Option<Fees> {
        let envelope = TxEnvelope::decode_2718(&mut &raw[..]).ok()?;
        let signed = envelope.as_eip1559()?.tx();
        Some(Fees {
            max_fee_per_gas: signed.max_fee_per_gas,
            max_priority_fee_per_gas: signed.max_priority_fee_per_gas,
        })
    }

    /// The house's transaction `raw` signed again at `fees`, everything else kept (its nonce
    /// above all), handed to `journal`, then broadcast; refused (nothing signed) if the house
    /// key did not sign `raw` or its gas does not cover the new worst cost.
    pub async fn replace<E, F, Fut>(
        &self,
        raw: &[u8],
        fees: Fees,
        journal: F,
    ) -> Result<SignedTx, SendError<E>>
    where
        F: FnOnce(SignedTx) -> Fut,
        Fut: Future<Output = Result<(), E>>,
    {
        let _one_sender = self.send_lock.lock().await;
        let tx = self
            .sign_again(raw, fees)
            .await
            .map_err(SendError::NotSent)?;
        self.journal_then_broadcast(tx, journal).await
    }

    async fn sign_again(&self, raw: &[u8], fees: Fees) -> Result<SignedTx, ChainError> {
        let refused = |why: &str| ChainError::Refused(refusal(why));
        let envelope = TxEnvelope::decode_2718(&mut &raw[..])
            .map_err(|_| refused("the transaction to replace does not decode"))?;
        if envelope.recover_signer().ok() != Some(self.house_address) {
            return Err(refused("the transaction to replace is not the house key's"));
        }
        let original = envelope
            .as_eip1559()
            .ok_or_else(|| refused("the transaction to replace is not an EIP-1559 transaction"))?
            .tx();
        self.ensure_gas(original.gas_limit, fees).await?;
        let request = TransactionRequest::default()
            .with_from(self.house_address)
            .with_chain_id(original.chain_id)
            .with_nonce(original.nonce)
            .with_kind(original.to)
            .with_value(original.value)
            .with_input(original.input.clone())
            .with_access_list(original.access_list.clone())
            .with_gas_limit(original.gas_limit)
            .with_max_fee_per_gas(fees.max_fee_per_gas)
            .with_max_priority_fee_per_gas(fees.max_priority_fee_per_gas);
        let envelope = request
            .build(&self.house)
            .await
            .map_err(|error| refused(&format!("signing: {error}")))?;
        Ok(SignedTx {
            hash: *envelope.tx_hash(),
            raw: envelope.encoded_2718(),
            nonce: original.nonce,
            sender: self.house_address,
        })
    }

    /// The signed bytes of a transaction the chain knows, checked against `hash`.
    pub async fn signed_bytes(&self, hash: B256) -> Result<Option<Vec<u8>>, ChainError> {
        let found = self
            .provider
            .get_transaction_by_hash(hash)
            .await
            .map_err(rpc_error)?;
        Ok(found
            .map(|tx| tx.into_inner().encoded_2718())
            .filter(|raw| alloy::primitives::keccak256(raw) == hash))
    }
}
