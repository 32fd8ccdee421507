//! One house agent's loop, through the public HTTP API like any player: get chips when low,
//! open a round with a real signature, play it with a fresh random client seed, verify the
//! receipt with `arcade-core`, wait for the cadence; back off when the server is busy or
//! failing; stop cleanly on shutdown or after `max_rounds`.

use std::sync::Arc;
use std::time::Duration;

use alloy::signers::SignerSync;
use arcade_core::Call;
use tokio_util::sync::CancellationToken;

use super::answer::{PlayedAnswer, Sent};
use super::client::{ArcadeClient, ClientError, RoundPlay};
use super::{Agent, AgentStatus, backoff};
use crate::proofs::play::{self, PlayFields, PlayMessage};
use crate::proofs::signing_domain;
use crate::service::rounds::Committed;
use crate::service::wallets::Balance;
use crate::service::{now_ms, rfc3339};
use crate::settings::HouseBotSettings;

pub struct Run {
    pub agent: Arc<Agent>,
    pub base_url: String,
    /// Presents the house's token with every call: the house's agents are not rate limited.
    pub http: reqwest::Client,
    pub settings: HouseBotSettings,
    pub shutdown: CancellationToken,
}

enum Step {
    Played,
    Funded,
    OutOfChips,
}

#[derive(Debug, thiserror::Error)]
enum StepError {
    #[error(transparent)]
    Client(#[from] ClientError),
    #[error("signing: {0}")]
    Signing(String),
}

impl Run {
    pub async fn play(self) {
        let client = ArcadeClient::new(self.http.clone(), &self.base_url);
        let cadence = Duration::from_millis(self.settings.cadence_ms);
        let mut pause = Duration::ZERO;
        let mut signature = None;
        let mut rounds = 0;
        while !self.shutdown.is_cancelled()
            && (self.settings.max_rounds == 0 || rounds < self.settings.max_rounds)
        {
            match self.step(&client, &mut signature, rounds).await {
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
        client: &ArcadeClient,
        signature: &mut Option<String>,
        n: u64,
    ) -> Result<Step, StepError> {
        let balance = client.balance(self.agent.signer.address()).await?;
        let chips = balance.chips;
        self.update(|s| s.balance = chips);
        if chips < self.settings.top_up_below {
            if let Some(funded) = self.fund(client, &balance).await? {
                return Ok(funded);
            }
            if chips < 1 {
                return Ok(Step::OutOfChips);
            }
        }
        let signature = match signature {
            Some(signature) => signature.clone(),
            None => signature.insert(self.sign_in(client).await?).clone(),
        };
        let (played, sent) = self.play_round(client, &signature, chips, n).await?;
        self.record(&played, &sent);
        Ok(Step::Played)
    }

    /// Low on chips: the free grant once, then the micro tier over x402 (`None`: neither).
    async fn fund(
        &self,
        client: &ArcadeClient,
        balance: &Balance,
    ) -> Result<Option<Step>, StepError> {
        if !balance.free_claimed {
            client.claim_free(self.agent.signer.address()).await?;
            self.acted("claimed the free chips");
            return Ok(Some(Step::Funded));
        }
        if client.buy_micro(&self.agent.signer).await? {
            self.update(|s| s.purchases += 1);
            self.acted("bought 100 chips over x402");
            return Ok(Some(Step::Funded));
        }
        Ok(None)
    }

    /// Signs the auth statement, once per run.
    async fn sign_in(&self, client: &ArcadeClient) -> Result<String, StepError> {
        let statement = client.auth_statement(self.agent.signer.address()).await?;
        let signed = self
            .agent
            .signer
            .sign_message_sync(statement.statement.as_bytes())
            .map_err(|e| StepError::Signing(e.to_string()))?;
        Ok(alloy::hex::encode_prefixed(signed.as_bytes()))
    }

    /// Commits and plays round `n` of the strategy with a fresh random client seed; the answer
    /// with what the agent was shown and sent, to hold it to.
    async fn play_round(
        &self,
        client: &ArcadeClient,
        signature: &str,
        chips: i64,
        n: u64,
    ) -> Result<(PlayedAnswer, Sent), StepError> {
        let round = client
            .commit(self.agent.signer.address(), signature)
            .await?;
        let call = self.agent.strategy.call(n);
        let client_seed = alloy::hex::encode(alloy::primitives::B256::random());
        let wager = self.settings.wager.min(chips).max(1);
        let play_signature = self.sign_play(&round, &call, &client_seed, wager)?;
        let play = RoundPlay {
            round_id: &round.round_id,
            client_seed: &client_seed,
            wager,
            signature,
            play_signature: &play_signature,
            call: &call,
        };
        let played = client.play(&play).await?;
        let sent = Sent {
            round_id: round.round_id,
            commitment: round.commitment,
            client_seed,
            call,
            wager,
            play_signature,
        };
        Ok((played, sent))
    }

    /// The agent's `Play` signature of the round's commitment and this call, in the domain of
    /// the house's signed commitment, as any player makes it.
    fn sign_play(
        &self,
        round: &Committed,
        call: &Call,
        client_seed: &str,
        wager: i64,
    ) -> Result<String, StepError> {
        let unsignable = || StepError::Signing("the play cannot be signed".into());
        let chain_id = round.proofs.commitment.typed_data.domain["chainId"]
            .as_u64()
            .ok_or_else(unsignable)?;
        let fields = PlayFields {
            round_id: &round.round_id,
            player: &round.address,
            commitment: &round.commitment,
            client_seed,
            wager,
        };
        let message = PlayMessage::of(fields, call);
        let digest = play::hash(&signing_domain(chain_id), &message).ok_or_else(unsignable)?;
        let signed = self
            .agent
            .signer
            .sign_hash_sync(&digest)
            .map_err(|e| StepError::Signing(e.to_string()))?;
        Ok(alloy::hex::encode_prefixed(signed.as_bytes()))
    }

    /// Verifies the receipt with the core and counts the round.
    fn record(&self, played: &PlayedAnswer, sent: &Sent) {
        let receipt = &played.receipt;
        let verified = played.verifies() && played.is_what_was_sent(sent);
        if !verified {
            tracing::error!(agent = %self.name(), bet = played.bet_id, "A HOUSE AGENT'S RECEIPT DOES NOT VERIFY");
        }
        self.update(|s| {
            s.state = "running".into();
            s.rounds += 1;
            s.net_chips += receipt.profit;
            if receipt.won {
                s.wins += 1;
            } else {
                s.losses += 1;
            }
            s.balance = played.balance;
            if !verified {
                s.verification_failures += 1;
            }
        });
        let verdict = if receipt.won { "won" } else { "lost" };
        self.acted(&format!(
            "bet {} ({}): {verdict}, profit {}",
            played.bet_id,
            receipt.game.as_str(),
            receipt.profit
        ));
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

    fn update(&self, change: impl FnOnce(&mut AgentStatus)) {
        let mut status = self.agent.status.lock().unwrap_or_else(|e| e.into_inner());
        change(&mut status);
    }
}
