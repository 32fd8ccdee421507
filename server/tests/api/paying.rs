//! The server with payments on a real chain: a fresh anvil with the test dollar per test, reached
//! through a loopback TCP proxy that a test can cut (the RPC going down), and an independent
//! x402 client (alloy's EIP-712 signer) that can sign good payments and every kind of bad one.

use std::ops::Deref;
use std::path::PathBuf;

use crate::helpers::{Backend, TestApp};
use crate::rpc::{Rpc, RpcProxy, RpcShim};
use alloy::primitives::{Address, B256, U256};
use alloy::providers::{Provider, ProviderBuilder};
use alloy::signers::local::PrivateKeySigner;
use arcade_server::chain::devnet::{self, Devnet};
use arcade_server::chain::token::{DollarToken, TransferWithAuthorization};
use arcade_server::settings::Secret;
use arcade_server::x402::client;
use arcade_server::x402::wire::PaymentRequired;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::Value;

/// Runs one payment test body against a backend with its own chain; the ledger audit follows.
#[macro_export]
macro_rules! paid_on_both_backends {
    ($name:ident) => {
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
            async fn sqlite() {
                let app = $crate::paying::PaidApp::spawn($crate::helpers::Backend::Sqlite).await;
                super::$name(&app).await;
                app.audit().await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
            async fn postgres() {
                let app = $crate::paying::PaidApp::spawn($crate::helpers::Backend::Postgres).await;
                super::$name(&app).await;
                app.audit().await;
            }
        }
    };
}

/// [`paid_on_both_backends!`] with settings of the test's own (`configure`, a closure over
/// `&mut Settings`).
#[macro_export]
macro_rules! paid_on_both_backends_with {
    ($name:ident, $configure:expr) => {
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
            async fn sqlite() {
                let backend = $crate::helpers::Backend::Sqlite;
                let app = $crate::paying::PaidApp::spawn_with(backend, $configure).await;
                super::$name(&app).await;
                app.audit().await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
            async fn postgres() {
                let backend = $crate::helpers::Backend::Postgres;
                let app = $crate::paying::PaidApp::spawn_with(backend, $configure).await;
                super::$name(&app).await;
                app.audit().await;
            }
        }
    };
}

pub struct PaidApp {
    pub app: TestApp,
    pub devnet: Devnet,
    /// Cuts the server's RPC.
    pub proxy: RpcProxy,
    /// Hides receipts from the server.
    pub shim: RpcShim,
}

impl Deref for PaidApp {
    type Target = TestApp;
    fn deref(&self) -> &TestApp {
        &self.app
    }
}

/// A full HTTP answer: purchases are about headers as much as bodies.
pub struct Reply {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub body: Value,
}

impl Reply {
    /// A header holding base64 JSON, decoded.
    pub fn header_json(&self, name: &str) -> Value {
        let text = self
            .headers
            .get(name)
            .unwrap_or_else(|| panic!("no {name} header; body {}", self.body))
            .to_str()
            .unwrap();
        serde_json::from_slice(&STANDARD.decode(text).expect("standard base64")).expect("JSON")
    }

    /// Asserts a non-402 error status and code.
    pub fn error_code(&self, status: u16, code: &str) {
        assert_eq!(
            (self.status, self.body["code"].as_str()),
            (status, Some(code)),
            "{}",
            self.body
        );
    }

    /// Asserts a 402 refusal naming `reason`, in the body and in `PAYMENT-RESPONSE`.
    pub fn refused(&self, reason: &str) {
        assert_eq!(
            (self.status, self.body["error"].as_str()),
            (402, Some(reason)),
            "{}",
            self.body
        );
        assert_eq!(self.header_json("payment-required")["error"], reason);
        let settlement = self.header_json("payment-response");
        assert_eq!(settlement["success"], false);
        assert_eq!(settlement["errorReason"], reason);
    }
}

impl PaidApp {
    pub async fn spawn(backend: Backend) -> Self {
        Self::spawn_with(backend, |_| {}).await
    }

    pub async fn spawn_with(
        backend: Backend,
        configure: impl FnOnce(&mut arcade_server::settings::Settings),
    ) -> Self {
        let devnet = Devnet::start(&anvil_bin(), 0)
            .await
            .expect("anvil starts and the test dollar deploys");
        Self::spawn_on_devnet(backend, devnet, configure).await
    }

    /// The server on a dev chain the test already started.
    pub async fn spawn_on_devnet(
        backend: Backend,
        devnet: Devnet,
        configure: impl FnOnce(&mut arcade_server::settings::Settings),
    ) -> Self {
        let Rpc { proxy, shim } = Rpc::start(&devnet.rpc_url()).await;
        let chain = chain_settings(&devnet, &proxy.url());
        let app = TestApp::spawn_with(backend, |settings| {
            chain(settings);
            configure(settings);
        })
        .await;
        Self {
            app,
            devnet,
            proxy,
            shim,
        }
    }

    /// A second server instance on the same database and chain, with the same house key.
    pub async fn another_instance(&self) -> TestApp {
        TestApp::spawn_on(
            &self.database_url,
            chain_settings(&self.devnet, &self.proxy.url()),
        )
        .await
    }

    /// A fresh payer holding `base_units` of the test dollar (and no ETH: the house pays gas).
    pub async fn payer(&self, base_units: u64) -> PrivateKeySigner {
        let payer = PrivateKeySigner::random();
        if base_units > 0 {
            devnet::mint(
                &self.devnet.rpc_url(),
                &self.devnet.house,
                self.devnet.token,
                payer.address(),
                U256::from(base_units),
            )
            .await
            .expect("minted");
        }
        payer
    }

    /// Token balance read straight from anvil (not through the server or its proxy).
    pub async fn token_balance(&self, owner: Address) -> U256 {
        let provider = ProviderBuilder::new().connect_http(self.devnet.rpc_url().parse().unwrap());
        DollarToken::new(self.devnet.token, &provider)
            .balanceOf(owner)
            .call()
            .await
            .expect("balanceOf")
    }

    pub async fn authorization_used(&self, payer: Address, nonce: B256) -> bool {
        let provider = ProviderBuilder::new().connect_http(self.devnet.rpc_url().parse().unwrap());
        DollarToken::new(self.devnet.token, &provider)
            .authorizationState(payer, nonce)
            .call()
            .await
            .expect("authorizationState")
    }

    /// An anvil control call (`evm_setAutomine`, `evm_mine`, `anvil_dropTransaction`, ...).
    pub async fn anvil(&self, method: &'static str, params: Value) {
        let provider = ProviderBuilder::new().connect_http(self.devnet.rpc_url().parse().unwrap());
        provider
            .raw_request::<_, Value>(method.into(), params)
            .await
            .unwrap_or_else(|e| panic!("{method}: {e}"));
    }

    pub fn house(&self) -> Address {
        self.devnet.house.address()
    }

    /// A request to a chip endpoint with an optional payment header.
    pub async fn buy(&self, path: &str, payment: Option<&str>) -> Reply {
        self.buy_by(reqwest::Method::POST, path, payment).await
    }

    /// [`Self::buy`] with another method (chip endpoints sell on GET too).
    pub async fn buy_by(
        &self,
        method: reqwest::Method,
        path: &str,
        payment: Option<&str>,
    ) -> Reply {
        let mut request = self
            .client
            .request(method, format!("{}{path}", self.base_url));
        if let Some(payment) = payment {
            request = request.header("PAYMENT-SIGNATURE", payment);
        }
        let response = request.send().await.expect("request sent");
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let text = response.text().await.unwrap();
        let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
        Reply {
            status,
            headers,
            body,
        }
    }

    /// Buys a tier's chips for `payer` over x402 (asserting it works).
    pub async fn buy_chips(&self, payer: &PrivateKeySigner, tier: &str) {
        let path = format!("/api/arcade/chips/{tier}");
        let challenge = self.challenge(&path).await;
        let (payment, _) = sign_payment(&challenge, payer, |_| {});
        let reply = self.buy(&path, Some(&payment)).await;
        assert_eq!(reply.status, 200, "{}", reply.body);
    }

    /// ETH held by an address, read from anvil.
    pub async fn eth_balance(&self, owner: Address) -> U256 {
        let provider = ProviderBuilder::new().connect_http(self.devnet.rpc_url().parse().unwrap());
        provider.get_balance(owner).await.expect("eth_getBalance")
    }

    /// The decoded 402 challenge of a chip endpoint.
    pub async fn challenge(&self, path: &str) -> Value {
        self.challenge_by(reqwest::Method::POST, path).await
    }

    /// The decoded 402 challenge of a chip endpoint reached with `method`.
    pub async fn challenge_by(&self, method: reqwest::Method, path: &str) -> Value {
        let reply = self.buy_by(method, path, None).await;
        assert_eq!(reply.status, 402, "{}", reply.body);
        reply.header_json("payment-required")
    }
}

/// The chain part of a test server's settings: this dev chain, its house key, bounded waits,
/// and no periodic reconciler (tests run it themselves).
pub fn chain_settings(
    devnet: &Devnet,
    rpc_url: &str,
) -> impl FnOnce(&mut arcade_server::settings::Settings) + use<> {
    let rpc_url = rpc_url.to_owned();
    let token = devnet.token;
    let house_key = alloy::hex::encode_prefixed(devnet.house.to_bytes());
    move |settings| {
        settings.chain.chain_id = devnet::CHAIN_ID;
        settings.chain.rpc_urls = vec![Secret::new(rpc_url)];
        settings.chain.token = Some(token);
        settings.chain.house_key = Some(Secret::new(house_key));
        settings.chain.rpc_timeout_ms = 3_000;
        settings.chain.settle_timeout_ms = 10_000;
        settings.payments.reconcile_interval_ms = 3_600_000;
    }
}

/// Mints more test dollars (base units) to an address. The minter is the house key, which the
/// server may be using at the same moment (house agents settling their purchases): a mint the
/// node refuses for its nonce was never sent, and is sent again with a fresh one.
pub async fn mint_to(app: &PaidApp, owner: Address, base_units: u64) {
    for attempt in 1.. {
        let minted = devnet::mint(
            &app.devnet.rpc_url(),
            &app.devnet.house,
            app.devnet.token,
            owner,
            U256::from(base_units),
        )
        .await;
        match minted {
            Ok(()) => return,
            Err(error) if attempt < 10 && error.to_string().contains("nonce") => {
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            }
            Err(error) => panic!("minted: {error:?}"),
        }
    }
}

/// Signs a payment for the challenge's first offer with the arcade's own x402 client; `edit`
/// can spoil the authorization before it is signed.
pub fn sign_payment(
    challenge: &Value,
    payer: &PrivateKeySigner,
    edit: impl FnOnce(&mut TransferWithAuthorization),
) -> (String, TransferWithAuthorization) {
    let required: PaymentRequired =
        serde_json::from_value(challenge.clone()).expect("a v2 PaymentRequired");
    let now = u64::try_from(chrono::Utc::now().timestamp()).unwrap();
    let mut authorization =
        client::authorization(&required.accepts[0], payer.address(), now).unwrap();
    edit(&mut authorization);
    let header = client::payment_header(&required, &authorization, payer).unwrap();
    (header, authorization)
}

/// Base64 of a JSON value, as a payment header.
pub fn encode(payload: &Value) -> String {
    STANDARD.encode(payload.to_string())
}

/// Decodes a payment header back to its JSON, to spoil it after signing.
pub fn decode(header: &str) -> Value {
    serde_json::from_slice(&STANDARD.decode(header).unwrap()).unwrap()
}

/// The anvil binary `npm ci` puts in `server/devnet` (or `ARCADE_ANVIL_BIN`).
pub fn anvil_bin() -> PathBuf {
    let path = std::env::var_os("ARCADE_ANVIL_BIN").map_or_else(
        || {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("devnet/node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil")
        },
        PathBuf::from,
    );
    assert!(
        path.exists(),
        "no anvil at {}: run `npm ci` in server/devnet (tests/run.sh does)",
        path.display()
    );
    path
}

/// Runs each named test body (it spawns its own `PaidApp` and audits) on SQLite and PostgreSQL.
#[macro_export]
macro_rules! on_both_backends_with_own_chain {
    ($($name:ident),* $(,)?) => {
        $(
            mod $name {
                #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
                async fn sqlite() {
                    super::$name($crate::helpers::Backend::Sqlite).await;
                }

                #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
                async fn postgres() {
                    super::$name($crate::helpers::Backend::Postgres).await;
                }
            }
        )*
    };
}
