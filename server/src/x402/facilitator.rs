//! A client of an x402 facilitator's HTTP API (`POST /verify`, `POST /settle`, v2 JSON), for
//! deployments that let a facilitator verify payments and submit settlements instead of the
//! house. The facilitator answers payment failures with HTTP 200 and `isValid`/`success` false;
//! both are read whatever the status. Its answer's text is its own: an error here never carries
//! it (a body that is not JSON is logged at debug, cut short), so no caller can be shown it.

use std::time::Duration;

use serde::Deserialize;
use serde_json::{Value, json};

use super::X402_VERSION;
use super::wire::{PaymentRequirements, SettleResponse};

pub struct Facilitator {
    client: reqwest::Client,
    url: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VerifyResponse {
    pub is_valid: bool,
    #[serde(default)]
    pub invalid_reason: Option<String>,
    #[serde(default)]
    pub invalid_message: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum FacilitatorError {
    /// The request never reached the facilitator (connection refused, DNS): nothing happened.
    #[error("the facilitator cannot be reached: {0}")]
    Unreachable(String),
    /// Sent, but no readable answer (timeout, garbage): it may have acted.
    #[error("the facilitator gave no readable answer: {0}")]
    NoAnswer(String),
}

impl Facilitator {
    /// `url` is the facilitator's base URL; `timeout` bounds each call (a settle waits for the
    /// receipt, so allow the chain's confirmation time). Built at start: an HTTP client that
    /// cannot be built (no TLS backend) stops the start.
    pub fn new(url: &str, timeout: Duration) -> Result<Self, reqwest::Error> {
        Ok(Self {
            client: reqwest::Client::builder().timeout(timeout).build()?,
            url: url.trim_end_matches('/').to_owned(),
        })
    }

    pub async fn verify(
        &self,
        payload: &Value,
        requirements: &PaymentRequirements,
    ) -> Result<VerifyResponse, FacilitatorError> {
        self.call("verify", payload, requirements).await
    }

    pub async fn settle(
        &self,
        payload: &Value,
        requirements: &PaymentRequirements,
    ) -> Result<SettleResponse, FacilitatorError> {
        self.call("settle", payload, requirements).await
    }

    async fn call<T: for<'de> Deserialize<'de>>(
        &self,
        operation: &str,
        payload: &Value,
        requirements: &PaymentRequirements,
    ) -> Result<T, FacilitatorError> {
        let body = json!({
            "x402Version": X402_VERSION,
            "paymentPayload": payload,
            "paymentRequirements": requirements,
        });
        let response = self
            .client
            .post(format!("{}/{operation}", self.url))
            .json(&body)
            .send()
            .await
            .map_err(|error| {
                // A facilitator's URL may carry a key: errors never name it.
                let unreachable = error.is_connect();
                let shown = error.without_url().to_string();
                if unreachable {
                    FacilitatorError::Unreachable(shown)
                } else {
                    FacilitatorError::NoAnswer(shown)
                }
            })?;
        let status = response.status();
        let text = response
            .text()
            .await
            .map_err(|error| FacilitatorError::NoAnswer(error.without_url().to_string()))?;
        serde_json::from_str(&text).map_err(|_| {
            tracing::debug!(
                operation,
                %status,
                body = %super::reasons::for_log(&text),
                "the facilitator's answer is not JSON"
            );
            FacilitatorError::NoAnswer(format!("HTTP {status} to /{operation}, not a JSON answer"))
        })
    }
}
