//! The arcade's one way to the chain: token reads, and transactions the house signs and pays
//! gas for. Built on alloy over HTTP JSON-RPC; the house key never leaves this module.
//!
//! | file | what |
//! |---|---|
//! | `mod.rs` | connecting (chain id, token domain), token reads, the error types |
//! | `send.rs` | the house's transactions, write-ahead: signed, journalled, then broadcast; who signed a raw one |
//! | `replace.rs` | the chain's fees now, and a house transaction signed again at a higher fee (same nonce), journalled, broadcast |
//! | `fees.rs` | what the house bids: clearing the base fee, replacements' raise, the cap |
//! | `receipts.rs` | receipts, their depth, and a bounded wait for one |
//! | `proof.rs` | what counts as proof of payment, and deciding a payment from the chain |
//! | `logs.rs` | the token's logs: the transfer a receipt proves, the transaction a nonce names |
//! | `history.rs` | the house key's history: its count by block, the token moves of its money, who sent what |
//! | `errors.rs` | RPC failures as errors safe to show (no URL) |
//! | `transport.rs` | the RPC over every configured URL: failover, per-call timeouts, backoff |
//! | `token.rs` | the token's interface; `devnet.rs` the local dev chain |

pub mod devnet;
mod errors;
pub mod fees;
pub mod history;
mod logs;
pub mod proof;
mod receipts;
mod replace;
mod send;
pub mod token;
pub mod transport;

use std::time::Duration;

use alloy::network::EthereumWallet;
use alloy::primitives::{Address, B256, U256};
use alloy::providers::{Provider, RootProvider};
use alloy::signers::local::PrivateKeySigner;
use alloy::sol_types::Eip712Domain;
use tokio::sync::Mutex;

use crate::settings::ChainSettings;
pub(crate) use errors::{contract_error, refusal, rpc_error};
use token::DollarToken;

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
    #[error("chain.{0} must be set when chain.rpc_urls is")]
    Missing(&'static str),
    #[error("chain.house_key is not a private key (0x + 64 hex)")]
    HouseKey,
    #[error("an entry of chain.rpc_urls is not a URL")]
    RpcUrl,
    #[error("chain.rpc_urls[{index}] serves chain {rpc}, but chain.chain_id is {configured}")]
    ChainId {
        index: usize,
        configured: u64,
        rpc: u64,
    },
    #[error("the token at {token} has {decimals} decimals; a dollar token has 6")]
    Decimals { token: Address, decimals: u8 },
    #[error(
        "the token at {token} answers EIP-712 {field} {actual:?}, but chain.token_{field} is {configured:?}: payers would sign for another token"
    )]
    Domain {
        token: Address,
        field: &'static str,
        configured: String,
        actual: String,
    },
    #[error("chain.max_fee_per_gas_wei is zero: no transaction the house signs could be mined")]
    FeeCap,
    #[error("building the RPC's HTTP client: {0}")]
    HttpClient(String),
    #[error("reading the token: {0}")]
    Token(#[from] ChainError),
}

/// The token's EIP-712 domain fields, read from the token itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenDomain {
    pub name: String,
    pub version: String,
}

impl TokenDomain {
    /// The first of `name` and `version` the settings pin to another value:
    /// `(field, configured, the token's)`.
    pub fn differs_from(&self, settings: &ChainSettings) -> Option<(&'static str, String, String)> {
        [
            ("name", &settings.token_name, &self.name),
            ("version", &settings.token_version, &self.version),
        ]
        .into_iter()
        .find_map(|(field, configured, actual)| {
            configured
                .as_ref()
                .filter(|configured| *configured != actual)
                .map(|configured| (field, configured.clone(), actual.clone()))
        })
    }
}

/// A transaction signed by the house, not necessarily broadcast yet.
#[derive(Debug, Clone)]
pub struct SignedTx {
    pub hash: B256,
    pub raw: Vec<u8>,
    pub nonce: u64,
    /// The house key's address: a nonce is the sender's own.
    pub sender: Address,
}

/// What became of a transaction that is in a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mined {
    pub success: bool,
    pub block: u64,
    /// Who sent it (signed it), as its receipt says.
    pub from: Address,
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
    /// The most the house bids per gas, wei (`chain.max_fee_per_gas_wei`).
    max_fee_per_gas: u128,
    /// How long a transaction waits at the head of the house's queue before it is replaced.
    fee_bump_after: Duration,
    /// One sender per house key in this process: nonces are taken and broadcast in order.
    send_lock: Mutex<()>,
}

impl Chain {
    /// Connects when `chain.rpc_urls` is set: checks each URL's chain id and reads the token's
    /// domain.
    pub async fn connect(settings: &ChainSettings) -> Result<Option<Self>, ConnectError> {
        if settings.rpc_urls.is_empty() {
            return Ok(None);
        }
        let house_key = settings
            .house_key
            .as_ref()
            .ok_or(ConnectError::Missing("house_key"))?;
        let signer: PrivateKeySigner = house_key
            .expose()
            .parse()
            .map_err(|_| ConnectError::HouseKey)?;
        let house_address = signer.address();
        let token = settings.token.ok_or(ConnectError::Missing("token"))?;
        let pay_to = settings.pay_to.unwrap_or(house_address);
        let max_fee_per_gas = u128::try_from(settings.max_fee_per_gas_wei.0).unwrap_or(u128::MAX);
        if max_fee_per_gas == 0 {
            return Err(ConnectError::FeeCap);
        }
        let provider = provider_on_chain(settings).await?;
        let domain = token_domain(&provider, settings, token).await?;
        Ok(Some(Self {
            provider,
            house: EthereumWallet::new(signer),
            house_address,
            chain_id: settings.chain_id,
            token,
            pay_to,
            domain,
            confirmations: settings.confirmations.max(1),
            settle_timeout: Duration::from_millis(settings.settle_timeout_ms),
            max_fee_per_gas,
            fee_bump_after: Duration::from_millis(settings.fee_bump_after_ms),
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

    /// The most the house bids per gas, wei.
    pub fn max_fee_per_gas(&self) -> u128 {
        self.max_fee_per_gas
    }

    /// How long a transaction next in the house's queue waits before it is replaced.
    pub fn fee_bump_after(&self) -> Duration {
        self.fee_bump_after
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

    /// An address's native balance (wei): for the house, what pays its gas.
    pub async fn gas_balance(&self, owner: Address) -> Result<U256, ChainError> {
        self.provider.get_balance(owner).await.map_err(rpc_error)
    }

    /// What `owner` held of the token at `block` (the node must still hold that block's state).
    pub async fn token_balance_at(&self, owner: Address, block: u64) -> Result<U256, ChainError> {
        DollarToken::new(self.token, &self.provider)
            .balanceOf(owner)
            .call()
            .block(alloy::eips::BlockId::number(block))
            .await
            .map_err(contract_error)
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
}

/// A provider over the configured URLs that serve the configured chain. A URL on another chain
/// stops the start; one that does not answer at start is left out (its chain unchecked, it is
/// never used; restart once it is back), and none answering is an error.
async fn provider_on_chain(settings: &ChainSettings) -> Result<RootProvider, ConnectError> {
    let mut checked = Vec::with_capacity(settings.rpc_urls.len());
    let mut last_error = None;
    for (index, url) in settings.rpc_urls.iter().enumerate() {
        let one = transport::provider(settings, std::slice::from_ref(url))?;
        match one.get_chain_id().await.map_err(rpc_error) {
            Ok(rpc) if rpc == settings.chain_id => checked.push(url.clone()),
            Ok(rpc) => {
                return Err(ConnectError::ChainId {
                    index,
                    configured: settings.chain_id,
                    rpc,
                });
            }
            Err(error) => {
                tracing::warn!(index, %error, "chain.rpc_urls[{index}] does not answer at start: its chain is unchecked, so it is left out until the next start");
                last_error = Some(error);
            }
        }
    }
    if checked.is_empty() {
        return Err(ConnectError::Token(last_error.unwrap_or_else(|| {
            ChainError::Unavailable("no RPC URL answered".into())
        })));
    }
    transport::provider(settings, &checked)
}

/// The token's EIP-712 domain, once it is known to be a dollar token (6 decimals) whose domain
/// is the one the settings expect.
async fn token_domain(
    provider: &RootProvider,
    settings: &ChainSettings,
    token: Address,
) -> Result<TokenDomain, ConnectError> {
    let contract = DollarToken::new(token, provider);
    let name = contract.name().call().await.map_err(contract_error)?;
    let version = contract.version().call().await.map_err(contract_error)?;
    let decimals = contract.decimals().call().await.map_err(contract_error)?;
    if decimals != 6 {
        return Err(ConnectError::Decimals { token, decimals });
    }
    let domain = TokenDomain { name, version };
    if let Some((field, configured, actual)) = domain.differs_from(settings) {
        return Err(ConnectError::Domain {
            token,
            field,
            configured,
            actual,
        });
    }
    Ok(domain)
}
