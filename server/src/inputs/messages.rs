//! The interface's inbound `AgentMessage` (`POST /api/housebot/message`).

use rmcp::schemars::JsonSchema;
use serde::Deserialize;

use super::{Input, Place};

/// A message to the house agents.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct AgentMessage {
    /// Who is writing, 1 to 128 characters.
    #[schemars(length(min = 1, max = 128), example = &"agent-7")]
    pub from_id: String,
    /// A name to greet, up to 128 characters.
    #[schemars(length(max = 128))]
    pub from_name: Option<String>,
    /// The message, 1 to 2000 characters.
    #[schemars(length(min = 1, max = 2000), example = &"How do I verify a round?")]
    pub message: String,
    /// Anything that helps, up to 4000 characters.
    #[schemars(length(max = 4000))]
    pub context: Option<String>,
    /// Also run the read-only tool the message asks for (games, house, recent, or the balance
    /// of an address it names). Default false.
    #[serde(default)]
    pub use_tools: Option<bool>,
}

impl Input for AgentMessage {
    const PLACE: Place = Place::Body;
}
