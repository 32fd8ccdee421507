//! `GET /api/housebot/status`, `POST /api/housebot/message`.

use salvo::prelude::*;

use super::checked::Checked;
use super::edge::{arcade, shared};
use crate::error::ApiError;
use crate::housebots::BotsStatus;
use crate::housebots::message::{Reply, answer};
use crate::inputs::messages::AgentMessage;

/// What the house's own agents are doing: per agent its state, rounds, wins and losses, net
/// chips, balance, last action and verification failures (which should stay 0).
#[endpoint(tags("house"))]
pub async fn status(depot: &mut Depot) -> Result<Json<BotsStatus>, ApiError> {
    Ok(Json(shared(depot)?.house_bots.status()))
}

/// Write to the house agents (the interface's `AgentMessage`): a deterministic answer about
/// how to play, the limits and odds, or verification; with `use_tools`, the result of the
/// read-only tool the message asks for.
#[endpoint(tags("house"))]
pub async fn message(
    input: Checked<AgentMessage>,
    depot: &mut Depot,
) -> Result<Json<Reply>, ApiError> {
    Ok(Json(answer(arcade(depot)?, &input.0).await?))
}
