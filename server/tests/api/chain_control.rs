//! Driving the test chain the way an attacker or a slow network would: mining by hand, moving
//! the chain's clock, and payers (or anyone) sending their own transactions with a higher fee,
//! straight to anvil.

use std::time::{Duration, Instant};

use alloy::network::TransactionBuilder;
use alloy::primitives::{Address, B256};
use alloy::providers::{Provider, ProviderBuilder};
use alloy::rpc::types::{TransactionReceipt, TransactionRequest};
use alloy::signers::SignerSync;
use alloy::signers::local::PrivateKeySigner;
use alloy::sol_types::SolCall;
use arcade_server::chain::token::{CancelAuthorization, DollarToken, TransferWithAuthorization};
use serde_json::{Value, json};

use crate::paying::PaidApp;

/// Far above what the house bids, so the pool orders these first.
const ATTACKER_FEE_WEI: u128 = 500_000_000_000;

impl PaidApp {
    pub async fn automine(&self, on: bool) {
        self.anvil("evm_setAutomine", json!([on])).await;
    }

    pub async fn mine(&self) {
        self.anvil("evm_mine", json!([])).await;
    }

    /// Moves the chain's clock `seconds` ahead and mines a block at the new time.
    pub async fn advance_chain_time(&self, seconds: u64) {
        self.anvil("evm_increaseTime", json!([seconds])).await;
        self.mine().await;
    }

    /// Gives an address ETH for gas.
    pub async fn give_eth(&self, owner: Address) {
        self.anvil(
            "anvil_setBalance",
            json!([owner, "0x8ac7230489e80000"]), // 10 ETH
        )
        .await;
    }

    /// Transactions waiting in anvil's pool.
    pub async fn pooled(&self) -> usize {
        let provider = self.anvil_provider();
        let status: Value = provider
            .raw_request("txpool_status".into(), ())
            .await
            .unwrap();
        let pending = status["pending"].as_str().unwrap_or("0x0");
        usize::from_str_radix(pending.trim_start_matches("0x"), 16).unwrap()
    }

    /// Waits until at least `count` transactions are in the pool (someone else's broadcast).
    pub async fn wait_for_pool(&self, count: usize) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while self.pooled().await < count {
            assert!(Instant::now() < deadline, "nothing reached the pool");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// `sender` calls the token with `input` at a fee above the house's; returns the hash
    /// without waiting for it to be mined.
    pub async fn send_to_token(&self, sender: &PrivateKeySigner, input: Vec<u8>) -> B256 {
        let provider = ProviderBuilder::new()
            .wallet(sender.clone())
            .connect_http(self.devnet.rpc_url().parse().unwrap());
        let request = TransactionRequest::default()
            .with_to(self.devnet.token)
            .with_input(input)
            .with_gas_limit(200_000)
            .with_max_fee_per_gas(ATTACKER_FEE_WEI)
            .with_max_priority_fee_per_gas(ATTACKER_FEE_WEI);
        *provider.send_transaction(request).await.unwrap().tx_hash()
    }

    /// `payer` lands an authorization themself (signed by them, as the house would submit it).
    pub async fn land_authorization(
        &self,
        payer: &PrivateKeySigner,
        authorization: &TransferWithAuthorization,
    ) -> B256 {
        let signature = payer
            .sign_typed_data_sync(authorization, &self.arcade_domain())
            .unwrap();
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
        self.give_eth(payer.address()).await;
        self.send_to_token(payer, call.abi_encode()).await
    }

    /// The payer's signed cancellation of `nonce`, submitted by `relayer`.
    pub async fn cancel_authorization(
        &self,
        payer: &PrivateKeySigner,
        nonce: B256,
        relayer: &PrivateKeySigner,
    ) -> B256 {
        let cancel = CancelAuthorization {
            authorizer: payer.address(),
            nonce,
        };
        let signature = payer
            .sign_typed_data_sync(&cancel, &self.arcade_domain())
            .unwrap();
        let call = DollarToken::cancelAuthorizationCall {
            authorizer: payer.address(),
            nonce,
            v: 27 + u8::from(signature.v()),
            r: signature.r().into(),
            s: signature.s().into(),
        };
        self.give_eth(relayer.address()).await;
        self.send_to_token(relayer, call.abi_encode()).await
    }

    pub async fn receipt(&self, hash: B256) -> TransactionReceipt {
        self.anvil_provider()
            .get_transaction_receipt(hash)
            .await
            .unwrap()
            .unwrap_or_else(|| panic!("{hash} is not mined"))
    }

    /// The test dollar's EIP-712 domain.
    pub fn arcade_domain(&self) -> alloy::sol_types::Eip712Domain {
        alloy::sol_types::eip712_domain! {
            name: "Arcade Test Dollar",
            version: "1",
            chain_id: arcade_server::chain::devnet::CHAIN_ID,
            verifying_contract: self.devnet.token,
        }
    }

    fn anvil_provider(&self) -> impl Provider {
        ProviderBuilder::new().connect_http(self.devnet.rpc_url().parse().unwrap())
    }
}

/// A second authorization of `first.from` with the same nonce, paying `to` instead.
pub fn same_nonce_to(first: &TransferWithAuthorization, to: Address) -> TransferWithAuthorization {
    TransferWithAuthorization {
        to,
        value: first.value,
        ..first.clone()
    }
}
