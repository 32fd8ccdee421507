//! Facilitator mode against an independent facilitator: x402-rs (`x402-facilitator-local` +
//! `x402-chain-eip155` from crates.io) served in-process on loopback, with its own key, on the
//! test's anvil. The server forwards payments to its `/verify` and `/settle`; chips are credited
//! only on a receipt that proves the transfer, and a payer who front-runs the facilitator's
//! settlement with a same-nonce authorization gets nothing.

use std::collections::HashMap;
use std::str::FromStr;
use std::sync::Arc;

use alloy::primitives::{Address, U256};
use alloy::providers::{Provider, ProviderBuilder};
use alloy::signers::local::PrivateKeySigner;
use sea_orm::EntityTrait;
use serde_json::json;
use x402_chain_eip155::V2Eip155Exact;
use x402_chain_eip155::chain::config::{
    Eip155ChainConfig, Eip155ChainConfigInner, EvmPrivateKey, RpcConfig,
};
use x402_chain_eip155::chain::permit2::{EXACT_PERMIT2_PROXY_ADDRESS, PERMIT2_ADDRESS};
use x402_chain_eip155::chain::{Eip155ChainProvider, Eip155ChainReference};
use x402_chain_eip155::v1_eip155_exact::VALIDATOR_ADDRESS;
use x402_facilitator_local::{FacilitatorLocal, handlers};
use x402_types::chain::{ChainId, ChainProviderOps, ChainRegistry, FromConfig};
use x402_types::config::LiteralOrEnv;
use x402_types::scheme::{
    SchemeBlueprints, SchemeConfig, SchemeRegistry, X402SchemeFacilitator,
    X402SchemeFacilitatorBuilder,
};

use crate::chain_control::same_nonce_to;
use crate::helpers::Backend;
use crate::paying::{PaidApp, sign_payment};

/// The facilitator's chain provider, as its registry holds it.
struct FacilitatorChain(Arc<Eip155ChainProvider>);

impl ChainProviderOps for FacilitatorChain {
    fn signer_addresses(&self) -> Vec<String> {
        self.0.signer_addresses()
    }

    fn chain_id(&self) -> ChainId {
        self.0.chain_id()
    }
}

/// The `exact` scheme on EVM, built on that provider (what x402-rs's own binary does).
impl X402SchemeFacilitatorBuilder<&FacilitatorChain> for V2Eip155Exact {
    fn build(
        &self,
        chain: &FacilitatorChain,
        config: Option<serde_json::Value>,
    ) -> Result<Box<dyn X402SchemeFacilitator>, Box<dyn std::error::Error>> {
        self.build(Arc::clone(&chain.0), config)
    }
}

/// Starts the facilitator for `rpc_url` with `signer` paying gas; returns its base URL.
async fn start_facilitator(rpc_url: &str, signer: &PrivateKeySigner) -> String {
    // x402-rs refuses to start unless the ERC-6492 validator, Permit2 and its exact proxy
    // are deployed. EIP-3009 payments from plain accounts never call them: give the
    // addresses code so the check passes on a bare anvil.
    let anvil = ProviderBuilder::new().connect_http(rpc_url.parse().unwrap());
    for address in [
        VALIDATOR_ADDRESS,
        PERMIT2_ADDRESS,
        EXACT_PERMIT2_PROXY_ADDRESS,
    ] {
        anvil
            .raw_request::<_, ()>("anvil_setCode".into(), (address, "0x00"))
            .await
            .unwrap();
    }
    let config = Eip155ChainConfig {
        chain_reference: Eip155ChainReference::new(arcade_server::chain::devnet::CHAIN_ID),
        inner: Eip155ChainConfigInner {
            eip1559: true,
            flashblocks: false,
            signers: vec![LiteralOrEnv::from_literal(
                EvmPrivateKey::from_str(&signer.to_bytes().to_string()).unwrap(),
            )],
            rpc: vec![RpcConfig {
                http: LiteralOrEnv::from_literal(rpc_url.parse().unwrap()),
                rate_limit: None,
            }],
            receipt_timeout_secs: 30,
        },
    };
    let provider = Eip155ChainProvider::from_config(&config)
        .await
        .expect("the x402-rs chain provider starts");
    let chain = FacilitatorChain(Arc::new(provider));
    let chains = ChainRegistry::new(HashMap::from([(chain.chain_id(), chain)]));
    let blueprints = SchemeBlueprints::new().and_register(V2Eip155Exact);
    let schemes: Vec<SchemeConfig> =
        serde_json::from_value(json!([{ "id": "v2-eip155-exact", "chains": "eip155:*" }])).unwrap();
    let registry = SchemeRegistry::build(chains, blueprints, &schemes);
    let app = axum::Router::new()
        .merge(handlers::routes().with_state(Arc::new(FacilitatorLocal::new(registry))));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    url
}

/// The house's app, paying through a facilitator that signs with anvil's account 2.
async fn spawn(backend: Backend) -> (PaidApp, Address) {
    let devnet = arcade_server::chain::devnet::Devnet::start(&crate::paying::anvil_bin(), 0)
        .await
        .unwrap();
    let signer = PrivateKeySigner::from(devnet.anvil.keys()[2].clone());
    let facilitator = start_facilitator(&devnet.rpc_url(), &signer).await;
    let app = PaidApp::spawn_on_devnet(backend, devnet, move |settings| {
        settings.payments.facilitator_url = Some(arcade_server::settings::Secret::new(facilitator));
    })
    .await;
    (app, signer.address())
}

async fn purchases_settle_through_the_facilitator(backend: Backend) {
    let (app, facilitator) = spawn(backend).await;
    let payer = app.payer(300_000).await;
    let challenge = app.challenge("/api/arcade/chips").await;
    let (payment, authorization) = sign_payment(&challenge, &payer, |_| {});
    let house_before = app.token_balance(app.house()).await;

    let reply = app.buy("/api/arcade/chips", Some(&payment)).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.body["chips_credited"], 1000);
    let tx_hash = reply.body["tx_hash"].as_str().unwrap().to_owned();
    assert_eq!(
        reply.header_json("payment-response")["transaction"],
        tx_hash.as_str()
    );

    // The facilitator sent the settlement (and paid its gas), not the house.
    let chain = ProviderBuilder::new().connect_http(app.devnet.rpc_url().parse().unwrap());
    let receipt = chain
        .get_transaction_receipt(tx_hash.parse().unwrap())
        .await
        .unwrap()
        .expect("the settlement is mined");
    assert!(receipt.status());
    assert_eq!(receipt.from, facilitator);
    assert_eq!(
        app.token_balance(payer.address()).await,
        U256::from(200_000u64)
    );
    assert_eq!(
        app.token_balance(app.house()).await,
        house_before + U256::from(100_000u64)
    );
    assert!(
        app.authorization_used(payer.address(), authorization.nonce)
            .await
    );

    // Replayed: refused by the arcade's own records before the facilitator is asked.
    app.buy("/api/arcade/chips", Some(&payment))
        .await
        .refused("invalid_exact_evm_nonce_already_used");
    assert_eq!(app.chips(payer.address()).await, 1000);

    // A payer without the money: the facilitator's refusal comes back as a 402 with its reason.
    let broke = app.payer(0).await;
    let (unfunded, _) = sign_payment(&challenge, &broke, |_| {});
    let reply = app.buy("/api/arcade/chips", Some(&unfunded)).await;
    assert_eq!(reply.status, 402, "{}", reply.body);
    let reason = reply.body["error"].as_str().unwrap_or_default().to_owned();
    assert!(!reason.is_empty(), "{}", reply.body);
    assert_eq!(
        reply.header_json("payment-response")["errorReason"],
        reason.as_str()
    );
    assert_eq!(app.chips(broke.address()).await, 0);
    app.audit().await;
}

async fn a_facilitator_that_cannot_be_reached_charges_nothing(backend: Backend) {
    let devnet = arcade_server::chain::devnet::Devnet::start(&crate::paying::anvil_bin(), 0)
        .await
        .unwrap();
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let app = PaidApp::spawn_on_devnet(backend, devnet, move |settings| {
        settings.payments.facilitator_url = Some(arcade_server::settings::Secret::new(url));
    })
    .await;
    let payer = app.payer(100_000).await;
    let challenge = app.challenge("/api/arcade/chips").await;
    let (payment, authorization) = sign_payment(&challenge, &payer, |_| {});
    app.buy("/api/arcade/chips", Some(&payment))
        .await
        .error_code(503, "chain_unavailable");
    assert_eq!(app.chips(payer.address()).await, 0);
    assert_eq!(
        app.token_balance(payer.address()).await,
        U256::from(100_000u64)
    );
    assert!(
        !app.authorization_used(payer.address(), authorization.nonce)
            .await
    );
    app.audit().await;
}

mod purchases_settle_through_the_facilitator {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        super::purchases_settle_through_the_facilitator(crate::helpers::Backend::Sqlite).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        super::purchases_settle_through_the_facilitator(crate::helpers::Backend::Postgres).await;
    }
}

/// The facilitator's settlement of A waits in the pool; the payer lands B (same nonce, paying
/// themself) at a higher fee; both are mined, B first. No chips, and the payment ends `failed`.
async fn a_front_run_of_the_facilitators_settlement_credits_nothing(backend: Backend) {
    let (app, _) = spawn(backend).await;
    let payer = app.payer(1_000_000).await;
    let house_before = app.token_balance(app.house()).await;
    let challenge = app.challenge("/api/arcade/chips/medium").await;
    let (payment, a) = sign_payment(&challenge, &payer, |_| {});
    app.automine(false).await;
    let attack = async {
        app.wait_for_pool(1).await;
        let b = app
            .land_authorization(&payer, &same_nonce_to(&a, payer.address()))
            .await;
        app.wait_for_pool(2).await;
        app.mine().await;
        b
    };
    let (reply, b) = tokio::join!(app.buy("/api/arcade/chips/medium", Some(&payment)), attack);
    assert_eq!(reply.status, 402, "{}", reply.body);
    assert!(app.receipt(b).await.status(), "B is mined");
    let pass = app
        .arcade
        .reconcile
        .payments(std::time::Duration::ZERO)
        .await
        .unwrap();
    assert_eq!(pass.credited, 0, "{pass:?}");
    let rows = arcade_server::entities::payment::Entity::find()
        .all(&app.arcade.db)
        .await
        .unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(
        rows[0].state,
        arcade_server::entities::payment::PaymentState::Failed,
        "{:?}",
        rows[0]
    );
    assert_eq!(app.chips(payer.address()).await, 0);
    assert_eq!(app.token_balance(app.house()).await, house_before);
    app.automine(true).await;
    app.audit().await;
}

mod a_front_run_of_the_facilitators_settlement_credits_nothing {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        super::a_front_run_of_the_facilitators_settlement_credits_nothing(
            crate::helpers::Backend::Sqlite,
        )
        .await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        super::a_front_run_of_the_facilitators_settlement_credits_nothing(
            crate::helpers::Backend::Postgres,
        )
        .await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_facilitator_that_cannot_be_reached_charges_nothing_sqlite() {
    a_facilitator_that_cannot_be_reached_charges_nothing(Backend::Sqlite).await;
}
