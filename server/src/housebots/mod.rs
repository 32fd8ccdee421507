//! House agents: the service's own players. Each has a wallet key, gets chips as a player does
//! (the free grant, then x402 purchases when payments are on), and plays rounds through the
//! public HTTP API with real signatures and fresh client seeds, verifying every receipt with
//! `arcade-core`. Their addresses are the house wallets the public stats split out.
//!
//! | file | what |
//! |---|---|
//! | `agent.rs` | one agent's loop: fund, commit, play, verify, back off, stop |
//! | `client.rs` | the public API as the agents call it, with the server's own types |
//! | `strategy.rs` | what each agent bets |
//! | `message.rs` | answers to `POST /api/housebot/message` |

mod agent;
mod answer;
mod client;
pub mod message;
mod strategy;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use alloy::primitives::Address;
use alloy::signers::local::PrivateKeySigner;
use salvo::oapi::ToSchema;
use serde::Serialize;
use tokio_util::sync::CancellationToken;

use crate::address;
use crate::settings::HouseBotSettings;
pub use strategy::Strategy;

/// An agent's state as `GET /api/housebot/status` shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AgentStatus {
    pub name: String,
    pub address: String,
    pub strategy: String,
    /// `starting`, `running`, `paused` (backing off), `out_of_chips`, `stopped`.
    pub state: String,
    pub rounds: u64,
    pub wins: u64,
    pub losses: u64,
    /// Sum of profits.
    pub net_chips: i64,
    pub balance: i64,
    /// Chip purchases made over x402.
    pub purchases: u64,
    pub last_action: Option<String>,
    pub last_action_at: Option<String>,
    /// Receipts that did not re-derive with `arcade-core` (should stay 0).
    pub verification_failures: u64,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct BotsConfig {
    pub enabled: bool,
    pub agents: usize,
    pub cadence_ms: u64,
    pub wager: i64,
    pub top_up_below: i64,
    pub max_rounds: u64,
    pub funding: String,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct BotsStatus {
    pub config: BotsConfig,
    pub agents: Vec<AgentStatus>,
}

/// One agent: its key, its strategy and its shared status.
pub struct Agent {
    pub signer: PrivateKeySigner,
    pub strategy: Strategy,
    pub status: Mutex<AgentStatus>,
}

/// The configured agents (none when disabled).
pub struct HouseBots {
    pub agents: Vec<Arc<Agent>>,
    pub settings: HouseBotSettings,
    /// Their HTTP client, built at start when there are agents.
    http: Option<reqwest::Client>,
}

#[derive(Debug, thiserror::Error)]
pub enum HouseBotsError {
    #[error("housebots.keys[{0}] is not a private key (0x + 64 hex)")]
    BadKey(usize),
    #[error("building the house agents' HTTP client: {0}")]
    HttpClient(#[from] reqwest::Error),
}

impl HouseBots {
    /// The agents of `settings`, presenting `house_token` with every call.
    pub fn new(settings: &HouseBotSettings, house_token: &str) -> Result<Self, HouseBotsError> {
        let keys = if settings.enabled {
            &settings.keys[..]
        } else {
            &[]
        };
        let agents = keys
            .iter()
            .enumerate()
            .map(|(i, key)| {
                let signer: PrivateKeySigner = key
                    .expose()
                    .parse()
                    .map_err(|_| HouseBotsError::BadKey(i))?;
                let strategy = Strategy::for_agent(i);
                let name = strategy.agent_name(i);
                let status = AgentStatus {
                    name,
                    address: address::display(&signer.address()),
                    strategy: strategy.name(),
                    state: "starting".into(),
                    rounds: 0,
                    wins: 0,
                    losses: 0,
                    net_chips: 0,
                    balance: 0,
                    purchases: 0,
                    last_action: None,
                    last_action_at: None,
                    verification_failures: 0,
                };
                Ok(Arc::new(Agent {
                    signer,
                    strategy,
                    status: Mutex::new(status),
                }))
            })
            .collect::<Result<Vec<_>, HouseBotsError>>()?;
        let http = if agents.is_empty() {
            None
        } else {
            Some(client::http_client(house_token)?)
        };
        Ok(Self {
            agents,
            settings: settings.clone(),
            http,
        })
    }

    pub fn addresses(&self) -> Vec<Address> {
        self.agents.iter().map(|a| a.signer.address()).collect()
    }

    /// Starts every agent against `base_url`; they stop when `shutdown` is cancelled.
    pub fn spawn(&self, base_url: &str, shutdown: &CancellationToken) {
        let Some(http) = &self.http else {
            return;
        };
        for agent in &self.agents {
            let run = agent::Run {
                agent: agent.clone(),
                base_url: base_url.to_owned(),
                http: http.clone(),
                settings: self.settings.clone(),
                shutdown: shutdown.clone(),
            };
            tokio::spawn(run.play());
        }
    }

    pub fn status(&self) -> BotsStatus {
        let s = &self.settings;
        BotsStatus {
            config: BotsConfig {
                enabled: !self.agents.is_empty(),
                agents: self.agents.len(),
                cadence_ms: s.cadence_ms,
                wager: s.wager,
                top_up_below: s.top_up_below,
                max_rounds: s.max_rounds,
                funding: format!(
                    "below {} chips: the free grant once, then x402 purchases of the micro tier (when payments are on)",
                    s.top_up_below
                ),
            },
            agents: self
                .agents
                .iter()
                .map(|a| {
                    a.status
                        .lock()
                        .map(|s| s.clone())
                        .unwrap_or_else(|e| e.into_inner().clone())
                })
                .collect(),
        }
    }
}

/// How long an agent waits after the server was busy or failing: doubles up to a minute.
pub fn backoff(previous: Duration) -> Duration {
    (previous * 2).clamp(Duration::from_millis(500), Duration::from_secs(60))
}
