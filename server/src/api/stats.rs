//! `GET /api/arcade/games`, `recent`, `house`.

use salvo::prelude::*;

use super::checked::Checked;
use super::edge::arcade;
use crate::error::ApiError;
use crate::inputs::queries::RecentQuery;
use crate::service::receipts::BetReceipt;
use crate::service::stats::{GamesListing, HouseStats};

/// The games, their parameters and live round counts, the limits and how to play.
#[endpoint(tags("stats"))]
pub async fn games(depot: &mut Depot) -> Result<Json<GamesListing>, ApiError> {
    Ok(Json(arcade(depot)?.stats.games().await?))
}

/// The most recent settled rounds, newest first: a list of receipts without their server
/// seeds, addresses truncated.
#[endpoint(tags("stats"))]
pub async fn recent(
    input: Checked<RecentQuery>,
    depot: &mut Depot,
) -> Result<Json<Vec<BetReceipt>>, ApiError> {
    Ok(Json(arcade(depot)?.receipts.recent(input.0.limit()).await?))
}

/// Floor statistics, split between the service's own wallets and other players.
#[endpoint(tags("stats"))]
pub async fn house(depot: &mut Depot) -> Result<Json<HouseStats>, ApiError> {
    Ok(Json(arcade(depot)?.stats.house().await?))
}
