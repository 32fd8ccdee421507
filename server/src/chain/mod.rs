//! The arcade's one way to the chain: token reads, and transactions the house signs and pays
//! gas for. Built on alloy over HTTP JSON-RPC; the house key never leaves this module.
//!
//! Sending is write-ahead: [`Chain::send`] signs a transaction, hands it to a journal (the caller
//! stores its hash and raw bytes) and only then broadcasts it, one at a time per house key, so a
//! crash or a lost answer leaves a record that can be looked up or rebroadcast, never a second
//! transfer.

pub mod devnet;
mod errors;
pub mod proof;
pub mod token;

use std::future::Future;
use std::time::{Duration, Instant};

use alloy::eips::eip2718::Encodable2718;
use alloy::network::{EthereumWallet, NetworkTransactionBuilder, TransactionBuilder};
use alloy::primitives::{Address, B256, Bytes, U256};
use alloy::providers::{Provider, ProviderBuilder, RootProvider};
use alloy::rpc::types::TransactionRequest;
use alloy::signers::local::PrivateKeySigner;
use alloy::sol_types::Eip712Domain;
use tokio::sync::Mutex;

use alloy::primitives::Signature;
use alloy::sol_types::SolCall;

use crate::address;
use crate::settings::ChainSettings;
pub(crate) use errors::{contract_error, refusal, rpc_error};
use token::{DollarToken, TransferWithAuthorization};

/// Waiting on a receipt: look again after 10 ms, then twice as long each time, up to 1 s (a
/// local node mines in milliseconds, an L2 in about a second or two).
const RECEIPT_POLL_FIRST: Duration = Duration::from_millis(10);
const RECEIPT_POLL_MAX: Duration = Duration::from_secs(1);

/// A chain call that did not give an answer.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ChainError {
    /// No answer: connection refused, timeout, garbage. Whether a broadcast arrived is unknown.
    #[error("the chain RPC did not answer: {0}")]
    Unavailable(String),
    /// The node answered with an error: a revert in simulation, a rejected transaction.
    #[error("the chain refused: {0}")]
    Refused(Refusal),
}

/// Why the node refused a call or a transaction, as far as its message tells.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Refusal {
    pub kind: RefusalKind,
    /// The node's own words (URLs cut out).
    pub message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefusalKind {
    /// The token's balance does not cover the transfer.
    InsufficientBalance,
    /// The EIP-3009 authorization's nonce is used or cancelled.
    AuthorizationUsed,
    /// Past the authorization's `validBefore`.
    AuthorizationExpired,
    /// Before the authorization's `validAfter`.
    AuthorizationNotYetValid,
    /// The authorization's signature does not recover its `from`.
    InvalidSignature,
    /// The house cannot pay the transaction's gas.
    InsufficientGas,
    Other,
}

#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    #[error("chain.{0} must be set when chain.rpc_url is")]
    Missing(&'static str),
    #[error("chain.house_key is not a private key (0x + 64 hex)")]
    HouseKey,
    #[error("chain.{field} {value:?} is not an address (0x + 40 hex)")]
    Address { field: &'static str, value: String },
    #[error("chain.rpc_url is not a URL")]
    RpcUrl,
    #[error("the RPC serves chain {rpc}, but chain.chain_id is {configured}")]
    ChainId { configured: u64, rpc: u64 },
    #[error("the token at {token} has {decimals} decimals; a dollar token has 6")]
    Decimals { token: Address, decimals: u8 },
    #[error("reading the token: {0}")]
    Token(#[from] ChainError),
}

/// The token's EIP-712 domain fields, read from the token itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenDomain {
    pub name: String,
    pub version: String,
}

/// A transaction signed by the house, not necessarily broadcast yet.
#[derive(Debug, Clone)]
pub struct SignedTx {
    pub hash: B256,
    pub raw: Vec<u8>,
    pub nonce: u64,
}

/// What became of a transaction that is in a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mined {
    pub success: bool,
    pub block: u64,
}

/// Why [`Chain::send`] did not return a broadcast transaction.
#[derive(Debug)]
pub enum SendError<E> {
    /// Nothing was signed or journalled: simulation reverted, or the RPC was down.
    NotSent(ChainError),
    /// Signed, but the journal could not store it; nothing was broadcast.
    Journal(E),
    /// Signed and journalled, but the broadcast got no clean answer: it may or may not be in the
    /// pool. Reconcile by hash.
    Unconfirmed { tx: SignedTx, error: ChainError },
}

pub struct Chain {
    provider: RootProvider,
    house: EthereumWallet,
    house_address: Address,
    chain_id: u64,
    token: Address,
    pay_to: Address,
    domain: TokenDomain,
    confirmations: u64,
    settle_timeout: Duration,
    /// One sender per house key in this process: nonces are taken and broadcast in order.
    send_lock: Mutex<()>,
}

impl Chain {
    /// Connects when `chain.rpc_url` is set: checks the chain id and reads the token's domain.
    pub async fn connect(settings: &ChainSettings) -> Result<Option<Self>, ConnectError> {
        let Some(rpc_url) = &settings.rpc_url else {
            return Ok(None);
        };
        let url = rpc_url.expose().parse().map_err(|_| ConnectError::RpcUrl)?;
        let house_key = settings
            .house_key
            .as_ref()
            .ok_or(ConnectError::Missing("house_key"))?;
        let signer: PrivateKeySigner = house_key
            .expose()
            .parse()
            .map_err(|_| ConnectError::HouseKey)?;
        let house_address = signer.address();
        let token_text = settings
            .token
            .as_ref()
            .ok_or(ConnectError::Missing("token"))?;
        let token = parse_address("token", token_text)?;
        let pay_to = match &settings.pay_to {
            Some(text) => parse_address("pay_to", text)?,
            None => house_address,
        };
        let timeout = Duration::from_millis(settings.rpc_timeout_ms);
        let provider = ProviderBuilder::default().with_reqwest(url, |builder| {
            builder
                .timeout(timeout)
                .build()
                .expect("an HTTP client with a timeout builds")
        });
        let rpc_chain = provider.get_chain_id().await.map_err(rpc_error)?;
        if rpc_chain != settings.chain_id {
            return Err(ConnectError::ChainId {
                configured: settings.chain_id,
                rpc: rpc_chain,
            });
        }
        let contract = DollarToken::new(token, &provider);
        let name = contract.name().call().await.map_err(contract_error)?;
        let version = contract.version().call().await.map_err(contract_error)?;
        let decimals = contract.decimals().call().await.map_err(contract_error)?;
        if decimals != 6 {
            return Err(ConnectError::Decimals { token, decimals });
        }
        Ok(Some(Self {
            provider,
            house: EthereumWallet::new(signer),
            house_address,
            chain_id: settings.chain_id,
            token,
            pay_to,
            domain: TokenDomain { name, version },
            confirmations: settings.confirmations.max(1),
            settle_timeout: Duration::from_millis(settings.settle_timeout_ms),
            send_lock: Mutex::new(()),
        }))
    }

    /// CAIP-2 name of the chain, as x402 writes it: `eip155:<chain id>`.
    pub fn network(&self) -> String {
        format!("eip155:{}", self.chain_id)
    }

    pub fn chain_id(&self) -> u64 {
        self.chain_id
    }

    pub fn token(&self) -> Address {
        self.token
    }

    pub fn pay_to(&self) -> Address {
        self.pay_to
    }

    pub fn house_address(&self) -> Address {
        self.house_address
    }

    pub fn token_domain(&self) -> &TokenDomain {
        &self.domain
    }

    pub fn settle_timeout(&self) -> Duration {
        self.settle_timeout
    }

    /// The EIP-712 domain payers sign transfer authorizations under.
    pub fn eip712_domain(&self) -> Eip712Domain {
        Eip712Domain::new(
            Some(self.domain.name.clone().into()),
            Some(self.domain.version.clone().into()),
            Some(U256::from(self.chain_id)),
            Some(self.token),
            None,
        )
    }

    pub async fn token_balance(&self, owner: Address) -> Result<U256, ChainError> {
        DollarToken::new(self.token, &self.provider)
            .balanceOf(owner)
            .call()
            .await
            .map_err(contract_error)
    }

    /// Whether the EIP-3009 authorization `(authorizer, nonce)` has been used on-chain.
    pub async fn authorization_used(
        &self,
        authorizer: Address,
        nonce: B256,
    ) -> Result<bool, ChainError> {
        DollarToken::new(self.token, &self.provider)
            .authorizationState(authorizer, nonce)
            .call()
            .await
            .map_err(contract_error)
    }

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
        journal(tx.clone()).await.map_err(SendError::Journal)?;
        match self.provider.send_raw_transaction(&tx.raw).await {
            Ok(_) => Ok(tx),
            Err(error) => Err(SendError::Unconfirmed {
                tx,
                error: rpc_error(error),
            }),
        }
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
        let gas = self
            .provider
            .estimate_gas(request.clone())
            .await
            .map_err(rpc_error)?;
        let fees = self
            .provider
            .estimate_eip1559_fees()
            .await
            .map_err(rpc_error)?;
        let gas_limit = gas + gas / 5;
        // Some nodes (anvil) pool a transaction its sender cannot pay for, where it waits
        // forever; refuse it here instead, as a public node would.
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
        let envelope = request
            .with_gas_limit(gas_limit)
            .with_max_fee_per_gas(fees.max_fee_per_gas)
            .with_max_priority_fee_per_gas(fees.max_priority_fee_per_gas)
            .build(&self.house)
            .await
            .map_err(|error| ChainError::Refused(refusal(&format!("signing: {error}"))))?;
        Ok(SignedTx {
            hash: *envelope.tx_hash(),
            raw: envelope.encoded_2718(),
            nonce,
        })
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

    /// How many transactions from the house are in blocks: every nonce below it is used.
    pub async fn house_nonces_used(&self) -> Result<u64, ChainError> {
        self.provider
            .get_transaction_count(self.house_address)
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

fn parse_address(field: &'static str, text: &str) -> Result<Address, ConnectError> {
    address::parse(text).ok_or_else(|| ConnectError::Address {
        field,
        value: text.to_owned(),
    })
}
