//! The embedded dev chain: a local anvil node with the test dollar deployed, the house and a
//! demo payer funded. `arcade dev` and the test suites start it; nothing here runs in `serve`.

use std::path::Path;

use alloy::network::TransactionBuilder;
use alloy::node_bindings::{Anvil, AnvilInstance};
use alloy::primitives::{Address, U256};
use alloy::providers::{Provider, ProviderBuilder};
use alloy::rpc::types::TransactionRequest;
use alloy::signers::local::PrivateKeySigner;
use alloy::sol_types::SolValue;

use super::token::{DollarToken, test_dollar_bytecode};

/// Anvil's own chain id.
pub const CHAIN_ID: u64 = 31337;
/// The dev chain's test dollar's EIP-712 domain.
pub const DEV_TOKEN_NAME: &str = "Arcade Test Dollar";
pub const DEV_TOKEN_VERSION: &str = "1";
/// Tokens minted to the house and to the demo payer: 1000 dollars each (6 decimals).
pub const STARTING_DOLLARS: u64 = 1_000_000_000;

#[derive(Debug, thiserror::Error)]
pub enum DevnetError {
    #[error("starting anvil from {path}: {message}")]
    Anvil { path: String, message: String },
    #[error("setting up the dev chain: {0}")]
    Setup(String),
}

/// A running dev chain. Dropping it stops anvil.
pub struct Devnet {
    pub anvil: AnvilInstance,
    pub token: Address,
    /// Anvil's well-known account 0: deploys and mints the token, settles payments, pays gas.
    pub house: PrivateKeySigner,
    /// Anvil's well-known account 1, holding test dollars to buy chips with.
    pub payer: PrivateKeySigner,
}

impl Devnet {
    /// Starts anvil on loopback (`port` 0: any free port), deploys the test dollar and funds
    /// the house and the demo payer.
    pub async fn start(anvil_bin: &Path, port: u16) -> Result<Self, DevnetError> {
        let anvil = Anvil::at(anvil_bin)
            .port(port)
            .chain_id(CHAIN_ID)
            .try_spawn()
            .map_err(|error| DevnetError::Anvil {
                path: anvil_bin.display().to_string(),
                message: error.to_string(),
            })?;
        let house = PrivateKeySigner::from(anvil.keys()[0].clone());
        let payer = PrivateKeySigner::from(anvil.keys()[1].clone());
        let token =
            deploy_test_dollar(&anvil.endpoint(), &house, DEV_TOKEN_NAME, DEV_TOKEN_VERSION)
                .await?;
        for owner in [house.address(), payer.address()] {
            mint(
                &anvil.endpoint(),
                &house,
                token,
                owner,
                U256::from(STARTING_DOLLARS),
            )
            .await?;
        }
        Ok(Self {
            anvil,
            token,
            house,
            payer,
        })
    }

    pub fn rpc_url(&self) -> String {
        self.anvil.endpoint()
    }
}

/// Deploys the committed test dollar artefact from `deployer`, who becomes its minter, under
/// the EIP-712 domain `name` and `version`.
pub async fn deploy_test_dollar(
    rpc_url: &str,
    deployer: &PrivateKeySigner,
    name: &str,
    version: &str,
) -> Result<Address, DevnetError> {
    let provider = ProviderBuilder::new()
        .wallet(deployer.clone())
        .connect_http(parse_url(rpc_url)?);
    let mut code = test_dollar_bytecode();
    code.extend((name.to_owned(), version.to_owned()).abi_encode_params());
    let deploy = TransactionRequest::default().with_deploy_code(code);
    let receipt = provider
        .send_transaction(deploy)
        .await
        .map_err(setup)?
        .get_receipt()
        .await
        .map_err(setup)?;
    receipt
        .contract_address
        .ok_or_else(|| DevnetError::Setup("the deployment created no contract".into()))
}

/// Mints test dollars (base units) to `to`; `minter` must be the token's deployer.
pub async fn mint(
    rpc_url: &str,
    minter: &PrivateKeySigner,
    token: Address,
    to: Address,
    amount: U256,
) -> Result<(), DevnetError> {
    let provider = ProviderBuilder::new()
        .wallet(minter.clone())
        .connect_http(parse_url(rpc_url)?);
    let receipt = DollarToken::new(token, &provider)
        .mint(to, amount)
        .send()
        .await
        .map_err(setup)?
        .get_receipt()
        .await
        .map_err(setup)?;
    if !receipt.status() {
        return Err(DevnetError::Setup(format!("minting to {to} reverted")));
    }
    Ok(())
}

/// Sets an account's ETH balance (anvil's `anvil_setBalance`), e.g. to give a fresh key gas.
pub async fn set_eth_balance(rpc_url: &str, owner: Address, wei: U256) -> Result<(), DevnetError> {
    let provider = ProviderBuilder::new().connect_http(parse_url(rpc_url)?);
    provider
        .raw_request::<_, ()>("anvil_setBalance".into(), (owner, wei))
        .await
        .map_err(setup)
}

fn parse_url(rpc_url: &str) -> Result<alloy::transports::http::reqwest::Url, DevnetError> {
    rpc_url
        .parse()
        .map_err(|_| DevnetError::Setup(format!("{rpc_url:?} is not a URL")))
}

fn setup(error: impl std::fmt::Display) -> DevnetError {
    DevnetError::Setup(error.to_string())
}
