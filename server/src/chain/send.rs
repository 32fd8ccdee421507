//! Transactions from the house: signed, handed to a journal, and only then broadcast, one at
//! a time per house key, so a crash or a lost answer leaves a record that can be looked up or
//! rebroadcast, never a second transfer.

use std::future::Future;

use alloy::consensus::TxEnvelope;
use alloy::consensus::transaction::SignerRecoverable;
use alloy::eips::eip2718::{Decodable2718, Encodable2718};
use alloy::network::{NetworkTransactionBuilder, TransactionBuilder};
use alloy::primitives::{Address, Bytes, Signature, U256};
use alloy::providers::Provider;
use alloy::rpc::types::TransactionRequest;
use alloy::sol_types::SolCall;

use super::fees::Fees;
use super::token::{DollarToken, TransferWithAuthorization};
use super::{Chain, ChainError, Refusal, RefusalKind, SendError, SignedTx, refusal, rpc_error};

impl Chain {
    /// The house submits a payer's signed EIP-3009 authorization (`transferWithAuthorization`),
    /// paying the gas; journalled (see [`Chain::send`]) before it is broadcast.
    pub async fn transfer_with_authorization<E, F, Fut>(
        &self,
        authorization: &TransferWithAuthorization,
        signature: &Signature,
        journal: F,
    ) -> Result<SignedTx, SendError<E>>
    where
        F: FnOnce(SignedTx) -> Fut,
        Fut: Future<Output = Result<(), E>>,
    {
        let call = DollarToken::transferWithAuthorizationCall {
            from: authorization.from,
            to: authorization.to,
            value: authorization.value,
            validAfter: authorization.validAfter,
            validBefore: authorization.validBefore,
            nonce: authorization.nonce,
            v: 27 + u8::from(signature.v()),
            r: signature.r().into(),
            s: signature.s().into(),
        };
        self.send(self.token, call.abi_encode().into(), journal)
            .await
    }

    /// The house sends `value` base units of the token to `to` (an ERC-20 `transfer`),
    /// journalled before it is broadcast.
    pub async fn transfer<E, F, Fut>(
        &self,
        to: Address,
        value: U256,
        journal: F,
    ) -> Result<SignedTx, SendError<E>>
    where
        F: FnOnce(SignedTx) -> Fut,
        Fut: Future<Output = Result<(), E>>,
    {
        let call = DollarToken::transferCall { to, value };
        self.send(self.token, call.abi_encode().into(), journal)
            .await
    }

    /// Simulates a call from the house to `to`, signs it, hands it to `journal`, then
    /// broadcasts it. The journal runs before anything leaves the process; if it fails, nothing
    /// is broadcast.
    async fn send<E, F, Fut>(
        &self,
        to: Address,
        input: Bytes,
        journal: F,
    ) -> Result<SignedTx, SendError<E>>
    where
        F: FnOnce(SignedTx) -> Fut,
        Fut: Future<Output = Result<(), E>>,
    {
        let _one_sender = self.send_lock.lock().await;
        let tx = self.sign(to, input).await.map_err(SendError::NotSent)?;
        self.journal_then_broadcast(tx, journal).await
    }

    /// Hands the signed `tx` to `journal`, and broadcasts it only once that succeeded. The
    /// caller holds the send lock.
    pub(super) async fn journal_then_broadcast<E, F, Fut>(
        &self,
        tx: SignedTx,
        journal: F,
    ) -> Result<SignedTx, SendError<E>>
    where
        F: FnOnce(SignedTx) -> Fut,
        Fut: Future<Output = Result<(), E>>,
    {
        journal(tx.clone()).await.map_err(SendError::Journal)?;
        match self.provider.send_raw_transaction(&tx.raw).await {
            Ok(_) => Ok(tx),
            Err(error) => Err(SendError::Unconfirmed {
                tx,
                error: rpc_error(error),
            }),
        }
    }

    /// Whether the house could send a `transfer` of `value` to `to` now: the token would not
    /// revert it (the house holds the tokens) and the house's gas covers its worst cost.
    /// Nothing is signed or sent.
    pub async fn check_transfer(&self, to: Address, value: U256) -> Result<(), ChainError> {
        let call = DollarToken::transferCall { to, value };
        let request = TransactionRequest::default()
            .with_from(self.house_address)
            .with_to(self.token)
            .with_input(Bytes::from(call.abi_encode()))
            .with_chain_id(self.chain_id);
        self.priced(request).await.map(|_| ())
    }

    async fn sign(&self, to: Address, input: Bytes) -> Result<SignedTx, ChainError> {
        let nonce = self
            .provider
            .get_transaction_count(self.house_address)
            .pending()
            .await
            .map_err(rpc_error)?;
        let request = TransactionRequest::default()
            .with_from(self.house_address)
            .with_to(to)
            .with_input(input)
            .with_chain_id(self.chain_id)
            .with_nonce(nonce);
        let envelope = self
            .priced(request)
            .await?
            .build(&self.house)
            .await
            .map_err(|error| ChainError::Refused(refusal(&format!("signing: {error}"))))?;
        Ok(SignedTx {
            hash: *envelope.tx_hash(),
            raw: envelope.encoded_2718(),
            nonce,
            sender: self.house_address,
        })
    }

    /// `request` with its gas limit and fees (the market's bid, at most the cap), once
    /// simulated (a revert is refused) and checked against the house's gas balance.
    async fn priced(&self, request: TransactionRequest) -> Result<TransactionRequest, ChainError> {
        let gas = self
            .provider
            .estimate_gas(request.clone())
            .await
            .map_err(rpc_error)?;
        let fees = self.market().await?.bid(self.max_fee_per_gas);
        let gas_limit = gas + gas / 5;
        self.ensure_gas(gas_limit, fees).await?;
        Ok(request
            .with_gas_limit(gas_limit)
            .with_max_fee_per_gas(fees.max_fee_per_gas)
            .with_max_priority_fee_per_gas(fees.max_priority_fee_per_gas))
    }

    /// Refuses a transaction whose worst cost (`gas_limit` at the max fee) the house's gas does
    /// not cover. Some nodes (anvil) pool a transaction its sender cannot pay for, where it
    /// waits forever; refused here instead, as a public node would.
    pub(super) async fn ensure_gas(&self, gas_limit: u64, fees: Fees) -> Result<(), ChainError> {
        let worst_cost = U256::from(gas_limit) * U256::from(fees.max_fee_per_gas);
        let held = self
            .provider
            .get_balance(self.house_address)
            .await
            .map_err(rpc_error)?;
        if held < worst_cost {
            return Err(ChainError::Refused(Refusal {
                kind: RefusalKind::InsufficientGas,
                message: format!(
                    "insufficient funds for gas: the house holds {held} wei, the transaction may cost {worst_cost}"
                ),
            }));
        }
        Ok(())
    }

    /// Who signed the raw transaction `raw` (its nonce is that sender's), recovered offline.
    pub fn signer_of(raw: &[u8]) -> Option<Address> {
        let envelope = TxEnvelope::decode_2718(&mut &raw[..]).ok()?;
        envelope.recover_signer().ok()
    }

    /// Sends an already signed transaction again (same nonce, same hash).
    pub async fn rebroadcast(&self, raw: &[u8]) -> Result<(), ChainError> {
        let _one_sender = self.send_lock.lock().await;
        self.provider
            .send_raw_transaction(raw)
            .await
            .map(|_| ())
            .map_err(rpc_error)
    }
}
