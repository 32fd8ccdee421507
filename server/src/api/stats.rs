//! `GET /api/arcade/games`, `recent`, `house`.

use salvo::prelude::*;

use super::edge::{arcade, query_integer};
use crate::error::ApiError;
use crate::service::receipts::RecentBets;
use crate::service::stats::{GamesListing, HouseStats};

pub const RECENT_DEFAULT: i64 = 8;
pub const RECENT_MAX: i64 = 100;

/// The games, their parameters and live round counts, the limits and how to play.
#[endpoint(tags("stats"))]
pub async fn games(depot: &mut Depot) -> Result<Json<GamesListing>, ApiError> {
    Ok(Json(arcade(depot)?.games().await?))
}

/// The most recent settled rounds, newest first, addresses truncated.
#[endpoint(tags("stats"), parameters(("limit" = Option<i64>, Query, description = "1 to 100, default 8")))]
pub async fn recent(req: &mut Request, depot: &mut Depot) -> Result<Json<RecentBets>, ApiError> {
    let limit = query_integer(req, "limit", RECENT_DEFAULT, 1, RECENT_MAX)?;
    let limit = u64::try_from(limit).map_err(ApiError::internal)?;
    Ok(Json(arcade(depot)?.recent(limit).await?))
}

/// Floor statistics, split between the service's own wallets and other players.
#[endpoint(tags("stats"))]
pub async fn house(depot: &mut Depot) -> Result<Json<HouseStats>, ApiError> {
    Ok(Json(arcade(depot)?.house().await?))
}
