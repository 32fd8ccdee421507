//! `POST /api/arcade/commit`, `flip`, `dice`, `roulette`; `GET /api/arcade/rounds/{round_id}`,
//! `GET /api/arcade/verify/{bet_id}`.
//! The three games share one path (`play`); each route only names its input.

use salvo::prelude::*;

use super::checked::Checked;
use super::client::caller;
use super::edge::arcade;
use crate::error::ApiError;
use crate::inputs::games::{DiceInput, FlipInput, GameInput, RouletteInput};
use crate::inputs::queries::{BetPath, RoundPath};
use crate::inputs::wallets::AddressInput;
use crate::service::play::Played;
use crate::service::receipts::VerifiedBet;
use crate::service::rounds::{Committed, RoundView};

/// Open a round: the house commits to a secret seed. Requires a signature of the auth statement.
#[endpoint(tags("rounds"))]
pub async fn commit(
    input: Checked<AddressInput>,
    depot: &mut Depot,
) -> Result<Json<Committed>, ApiError> {
    let Checked(input) = input;
    let committed = arcade(depot)?
        .commit(&input.address.0, input.signature.as_deref(), caller(depot))
        .await?;
    Ok(Json(committed))
}

/// Coinflip: call heads or tails. Pays 1.98x the wager.
#[endpoint(tags("rounds"))]
pub async fn flip(input: Checked<FlipInput>, depot: &mut Depot) -> Result<Json<Played>, ApiError> {
    play(input, depot).await
}

/// Dice: a roll from 0.00 to 100.00, under or over a target; the result carries the exact
/// return of the call.
#[endpoint(tags("rounds"))]
pub async fn dice(input: Checked<DiceInput>, depot: &mut Depot) -> Result<Json<Played>, ApiError> {
    play(input, depot).await
}

/// European roulette: one of 13 bets on 37 pockets.
#[endpoint(tags("rounds"))]
pub async fn roulette(
    input: Checked<RouletteInput>,
    depot: &mut Depot,
) -> Result<Json<Played>, ApiError> {
    play(input, depot).await
}

async fn play<G: GameInput>(input: Checked<G>, depot: &Depot) -> Result<Json<Played>, ApiError> {
    let play = input.0.play()?;
    Ok(Json(arcade(depot)?.play(play).await?))
}

/// Re-derive a settled round from its revealed seed, with `arcade-core`.
#[endpoint(tags("rounds"))]
pub async fn verify(
    input: Checked<BetPath>,
    depot: &mut Depot,
) -> Result<Json<VerifiedBet>, ApiError> {
    Ok(Json(arcade(depot)?.verify_bet(input.0.bet_id).await?))
}

/// A round as it stands: `open` (with when it expires), `settled` (with its receipt, server
/// seed included) or `expired`. A client whose game call got no answer finds its result here
/// (or by repeating the same call, which answers the original receipt with `replayed: true`).
#[endpoint(tags("rounds"))]
pub async fn round(
    input: Checked<RoundPath>,
    depot: &mut Depot,
) -> Result<Json<RoundView>, ApiError> {
    Ok(Json(arcade(depot)?.round(&input.0.round_id).await?))
}
