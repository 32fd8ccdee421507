//! `POST /api/arcade/commit`, `flip`, `dice`, `roulette`; `GET /api/arcade/verify/{bet_id}`.

use salvo::prelude::*;

use super::bodies::{self, AddressBody, DiceBody, FlipBody, RouletteBody};
use super::edge::{arcade, body, path_integer};
use crate::error::ApiError;
use crate::service::play::Played;
use crate::service::receipts::VerifiedBet;
use crate::service::rounds::Committed;

/// Open a round: the house commits to a secret seed. Requires a signature of the auth statement.
#[endpoint(tags("rounds"), request_body = AddressBody)]
pub async fn commit(req: &mut Request, depot: &mut Depot) -> Result<Json<Committed>, ApiError> {
    let body = AddressBody::parse(&body(req, depot).await?)?;
    let committed = arcade(depot)?
        .commit(&body.address, body.signature.as_deref())
        .await?;
    Ok(Json(committed))
}

/// Coinflip: call heads or tails. Pays 1.98x the wager.
#[endpoint(tags("rounds"), request_body = FlipBody)]
pub async fn flip(req: &mut Request, depot: &mut Depot) -> Result<Json<Played>, ApiError> {
    let play = bodies::flip(&body(req, depot).await?)?;
    Ok(Json(arcade(depot)?.play(play).await?))
}

/// Dice: a roll from 0.00 to 100.00, under or over a target; the schedule comes with the result.
#[endpoint(tags("rounds"), request_body = DiceBody)]
pub async fn dice(req: &mut Request, depot: &mut Depot) -> Result<Json<Played>, ApiError> {
    let play = bodies::dice(&body(req, depot).await?)?;
    Ok(Json(arcade(depot)?.play(play).await?))
}

/// European roulette: one of 13 bets on 37 pockets.
#[endpoint(tags("rounds"), request_body = RouletteBody)]
pub async fn roulette(req: &mut Request, depot: &mut Depot) -> Result<Json<Played>, ApiError> {
    let play = bodies::roulette(&body(req, depot).await?)?;
    Ok(Json(arcade(depot)?.play(play).await?))
}

/// Re-derive a settled round from its revealed seed, with `arcade-core`.
#[endpoint(tags("rounds"), parameters(("bet_id" = i64, Path, description = "from a game call's receipt")))]
pub async fn verify(req: &mut Request, depot: &mut Depot) -> Result<Json<VerifiedBet>, ApiError> {
    let bet_id = path_integer(req, "bet_id", 1, i64::MAX)?;
    Ok(Json(arcade(depot)?.verify_bet(bet_id).await?))
}
