//! One house agent's loop, through the public HTTP API like any player: get chips when low,
//! open a round with a real signature, play it with a fresh random client seed, verify the
//! receipt with `arcade-core`, wait for the cadence; back off when the server is busy or
//! failing; stop cleanly on shutdown or after `max_rounds`.

use std::sync::Arc;
use std::time::Duration;

use alloy::signers::SignerSync;
use arcade_core::Receipt;
use arcade_core::wire::ReceiptInput;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::{Agent, backoff};
use crate::service::{now_ms, rfc3339};
use crate::settings::HouseBotSettings;
use crate::x402::client;
use crate::x402::wire::PaymentRequired;

pub struct Run {
    pub agent: Arc<Agent>,
    pub base_url: String,
    pub settings: HouseBotSettings,
    pub shutdown: CancellationToken,
}

enum Step {
    Played,
    Funded,
    OutOfChips,
}

impl Run {
    pub async fn play(self) {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(30))
            .build()
            .expect("an HTTP client builds");
        let cadence = Duration::from_millis(self.settings.cadence_ms);
        let mut pause = Duration::ZERO;
        let mut signature = None;
        let mut rounds = 0;
        while !self.shutdown.is_cancelled()
            && (self.settings.max_rounds == 0 || rounds < self.settings.max_rounds)
        {
            match self.step(&http, &mut signature, rounds).await {
                Ok(Step::Played) => {
                    rounds += 1;
                    pause = Duration::ZERO;
                    self.wait(cadence).await;
                }
                Ok(Step::Funded) => {}
                Ok(Step::OutOfChips) => {
                    self.update(|s| s.state = "out_of_chips".into());
                    self.wait(cadence * 10).await;
                }
                Err(error) => {
                    pause = backoff(pause);
                    tracing::warn!(agent = %self.name(), %error, ?pause, "house agent backing off");
                    self.update(|s| {
                        s.state = "paused".into();
                        s.last_action = Some(format!("backing off: {error}"));
                    });
                    self.wait(pause).await;
                }
            }
        }
        self.update(|s| s.state = "stopped".into());
    }

    async fn step(
        &self,
        http: &reqwest::Client,
        signature: &mut Option<String>,
        n: u64,
    ) -> Result<Step, String> {
        let address = self.agent.signer.address();
        let balance = self
            .call(
                http,
                reqwest::Method::GET,
                &format!("/api/arcade/balance/{address}"),
                None,
            )
            .await?;
        let chips = balance["chips"].as_i64().unwrap_or(0);
        self.update(|s| s.balance = chips);
        if chips < self.settings.top_up_below {
            if balance["free_claimed"] == false {
                self.call(
                    http,
                    reqwest::Method::POST,
                    "/api/arcade/free",
                    Some(json!({ "address": address })),
                )
                .await?;
                self.acted("claimed the free chips");
                return Ok(Step::Funded);
            }
            if self.buy(http).await? {
                self.update(|s| s.purchases += 1);
                self.acted("bought 100 chips over x402");
                return Ok(Step::Funded);
            }
            if chips < 1 {
                return Ok(Step::OutOfChips);
            }
        }
        let signature = match signature {
            Some(signature) => signature.clone(),
            None => {
                let statement = self
                    .call(
                        http,
                        reqwest::Method::GET,
                        &format!("/api/arcade/auth-statement/{address}"),
                        None,
                    )
                    .await?;
                let signed = self
                    .agent
                    .signer
                    .sign_message_sync(statement["statement"].as_str().unwrap_or("").as_bytes())
                    .map_err(|e| e.to_string())?;
                signature
                    .insert(alloy::hex::encode_prefixed(signed.as_bytes()))
                    .clone()
            }
        };
        let round = self
            .call(
                http,
                reqwest::Method::POST,
                "/api/arcade/commit",
                Some(json!({ "address": address, "signature": signature })),
            )
            .await?;
        let (game, call) = self.agent.strategy.call(n);
        let mut body = json!({
            "round_id": round["round_id"],
            "client_seed": alloy::hex::encode(alloy::primitives::B256::random()),
            "wager": self.settings.wager.min(chips).max(1),
            "signature": signature,
        });
        if let (Some(body), Some(call)) = (body.as_object_mut(), call.as_object()) {
            body.extend(call.clone());
        }
        let receipt = self
            .call(
                http,
                reqwest::Method::POST,
                &format!("/api/arcade/{game}"),
                Some(body),
            )
            .await?;
        let verified = verifies(&receipt);
        if !verified {
            tracing::error!(agent = %self.name(), receipt = %receipt, "A HOUSE AGENT'S RECEIPT DOES NOT VERIFY");
        }
        self.update(|s| {
            s.state = "running".into();
            s.rounds += 1;
            let profit = receipt["profit"].as_i64().unwrap_or(0);
            s.net_chips += profit;
            if receipt["won"] == true {
                s.wins += 1;
            } else {
                s.losses += 1;
            }
            s.balance = receipt["balance"].as_i64().unwrap_or(s.balance);
            if !verified {
                s.verification_failures += 1;
            }
        });
        let verdict = if receipt["won"] == true {
            "won"
        } else {
            "lost"
        };
        self.acted(&format!(
            "bet {} ({game}): {verdict}, profit {}",
            receipt["bet_id"], receipt["profit"]
        ));
        Ok(Step::Played)
    }

    /// Buys the micro tier over x402 as a player would; `false` when payments are off.
    async fn buy(&self, http: &reqwest::Client) -> Result<bool, String> {
        let url = format!("{}/api/arcade/chips/micro", self.base_url);
        let challenge = http.post(&url).send().await.map_err(|e| e.to_string())?;
        if challenge.status().as_u16() != 402 {
            return Ok(false);
        }
        let header = challenge
            .headers()
            .get("payment-required")
            .and_then(|h| h.to_str().ok())
            .ok_or("a 402 without PAYMENT-REQUIRED")?;
        let required: PaymentRequired = STANDARD
            .decode(header)
            .ok()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .ok_or("an unreadable PAYMENT-REQUIRED")?;
        let now = u64::try_from(now_ms() / 1000).unwrap_or(0);
        let payment = client::pay(&required, &self.agent.signer, now).map_err(|e| e.to_string())?;
        let paid = http
            .post(&url)
            .header("payment-signature", payment)
            .send()
            .await
            .map_err(|e| e.to_string())?;
        if !paid.status().is_success() {
            return Err(format!("purchase refused: HTTP {}", paid.status()));
        }
        Ok(true)
    }

    async fn call(
        &self,
        http: &reqwest::Client,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
    ) -> Result<Value, String> {
        let mut request = http.request(method, format!("{}{path}", self.base_url));
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.map_err(|e| e.to_string())?;
        let status = response.status();
        let body: Value = response.json().await.map_err(|e| e.to_string())?;
        if !status.is_success() {
            return Err(format!("{path}: HTTP {status} {}", body["code"]));
        }
        Ok(body)
    }

    async fn wait(&self, duration: Duration) {
        tokio::select! {
            () = tokio::time::sleep(duration) => {}
            () = self.shutdown.cancelled() => {}
        }
    }

    fn name(&self) -> String {
        self.agent
            .status
            .lock()
            .map(|s| s.name.clone())
            .unwrap_or_default()
    }

    fn acted(&self, action: &str) {
        self.update(|s| {
            s.last_action = Some(action.to_owned());
            s.last_action_at = Some(rfc3339(now_ms()));
        });
    }

    fn update(&self, change: impl FnOnce(&mut super::AgentStatus)) {
        let mut status = self.agent.status.lock().unwrap_or_else(|e| e.into_inner());
        change(&mut status);
    }
}

/// Whether a receipt re-derives with the fairness core (independently of the server's say).
fn verifies(receipt: &Value) -> bool {
    serde_json::from_value::<ReceiptInput>(receipt.clone())
        .ok()
        .and_then(|input| Receipt::try_from(input).ok())
        .and_then(|receipt| arcade_core::verify(&receipt).ok())
        .is_some_and(|verification| verification.verified())
}
