//! The house agents' client of the public HTTP API: typed calls that read the server's own
//! response types, and the micro-tier purchase over x402 (the 402 read with `x402::wire`).

use std::time::Duration;

use alloy::primitives::Address;
use alloy::signers::local::PrivateKeySigner;
use arcade_core::Call;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::json;

use super::answer::PlayedAnswer;
use crate::error::ErrorBody;
use crate::identity::AuthStatement;
use crate::inputs::games::{call_body, endpoint};
use crate::rate_limits::HOUSE_AGENT_HEADER;
use crate::service::now_ms;
use crate::service::rounds::Committed;
use crate::service::wallets::{Balance, FreeGrant};
use crate::x402::wire::{PaymentRequired, decode_payment_required};
use crate::x402::{PAYMENT_REQUIRED_HEADER, client};

#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error("{path}: the server could not be reached: {reason}")]
    Unreachable { path: String, reason: String },
    #[error("{path}: HTTP {status} {code}")]
    Refused {
        path: String,
        status: u16,
        code: String,
    },
    #[error("{path}: the answer could not be read: {reason}")]
    Unreadable { path: String, reason: String },
    #[error("paying: {0}")]
    Payment(String),
}

/// One round's play.
pub struct RoundPlay<'a> {
    pub round_id: &'a str,
    pub client_seed: &'a str,
    pub wager: i64,
    pub signature: &'a str,
    /// The player's `Play` signature (`proofs::play`).
    pub play_signature: &'a str,
    pub call: &'a Call,
}

/// The agents' HTTP client: `house_token` identifies them to the rate limits (they are not
/// limited).
pub fn http_client(house_token: &str) -> Result<reqwest::Client, reqwest::Error> {
    let mut headers = reqwest::header::HeaderMap::new();
    if let Ok(token) = reqwest::header::HeaderValue::from_str(house_token) {
        headers.insert(HOUSE_AGENT_HEADER, token);
    }
    reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .default_headers(headers)
        .build()
}

pub struct ArcadeClient {
    http: reqwest::Client,
    base_url: String,
}

impl ArcadeClient {
    /// `http` is built once at start by [`http_client`].
    pub fn new(http: reqwest::Client, base_url: &str) -> Self {
        Self {
            http,
            base_url: base_url.to_owned(),
        }
    }

    pub async fn balance(&self, address: Address) -> Result<Balance, ClientError> {
        self.get(&format!("/api/arcade/balance/{address}")).await
    }

    pub async fn auth_statement(&self, address: Address) -> Result<AuthStatement, ClientError> {
        self.get(&format!("/api/arcade/auth-statement/{address}"))
            .await
    }

    pub async fn claim_free(&self, address: Address) -> Result<FreeGrant, ClientError> {
        self.post("/api/arcade/free", &json!({ "address": address }))
            .await
    }

    pub async fn commit(
        &self,
        address: Address,
        signature: &str,
    ) -> Result<Committed, ClientError> {
        let body = json!({ "address": address, "signature": signature });
        self.post("/api/arcade/commit", &body).await
    }

    pub async fn play(&self, round: &RoundPlay<'_>) -> Result<PlayedAnswer, ClientError> {
        let mut body = json!({
            "round_id": round.round_id,
            "client_seed": round.client_seed,
            "wager": round.wager,
            "signature": round.signature,
            "play_signature": round.play_signature,
        });
        if let Some(body) = body.as_object_mut() {
            body.extend(call_body(round.call));
        }
        let path = format!("/api/arcade/{}", endpoint(round.call.game()));
        self.post(&path, &body).await
    }

    /// Buys the micro tier over x402 as a player would; `false` when payments are off.
    pub async fn buy_micro(&self, signer: &PrivateKeySigner) -> Result<bool, ClientError> {
        let path = "/api/arcade/chips/micro";
        let url = format!("{}{path}", self.base_url);
        let challenge = self
            .http
            .post(&url)
            .send()
            .await
            .map_err(unreachable(path))?;
        if challenge.status().as_u16() != 402 {
            return Ok(false);
        }
        let header = challenge
            .headers()
            .get(PAYMENT_REQUIRED_HEADER)
            .and_then(|h| h.to_str().ok())
            .ok_or_else(|| ClientError::Payment("a 402 without PAYMENT-REQUIRED".into()))?;
        let required: PaymentRequired =
            decode_payment_required(header).map_err(|e| ClientError::Payment(e.to_string()))?;
        let now = u64::try_from(now_ms() / 1000).unwrap_or(0);
        let payment =
            client::pay(&required, signer, now).map_err(|e| ClientError::Payment(e.to_string()))?;
        let paid = self
            .http
            .post(&url)
            .header("payment-signature", payment)
            .send()
            .await
            .map_err(unreachable(path))?;
        Self::read::<crate::service::purchases::Purchase>(path, paid).await?;
        Ok(true)
    }

    async fn get<T: DeserializeOwned>(&self, path: &str) -> Result<T, ClientError> {
        let response = self
            .http
            .get(format!("{}{path}", self.base_url))
            .send()
            .await
            .map_err(unreachable(path))?;
        Self::read(path, response).await
    }

    async fn post<T: DeserializeOwned>(
        &self,
        path: &str,
        body: &impl Serialize,
    ) -> Result<T, ClientError> {
        let response = self
            .http
            .post(format!("{}{path}", self.base_url))
            .json(body)
            .send()
            .await
            .map_err(unreachable(path))?;
        Self::read(path, response).await
    }

    async fn read<T: DeserializeOwned>(
        path: &str,
        response: reqwest::Response,
    ) -> Result<T, ClientError> {
        let status = response.status();
        let text = response.text().await.map_err(unreachable(path))?;
        if !status.is_success() {
            let code = serde_json::from_str::<ErrorBody>(&text)
                .map(|body| body.code)
                .unwrap_or_default();
            return Err(ClientError::Refused {
                path: path.to_owned(),
                status: status.as_u16(),
                code,
            });
        }
        serde_json::from_str(&text).map_err(|error| ClientError::Unreadable {
            path: path.to_owned(),
            reason: error.to_string(),
        })
    }
}

fn unreachable(path: &str) -> impl Fn(reqwest::Error) -> ClientError + '_ {
    move |error| ClientError::Unreachable {
        path: path.to_owned(),
        reason: error.without_url().to_string(),
    }
}
