//! `POST /api/arcade/commit`, one route per game of the list (`flip`, `dice`, …);
//! `GET /api/arcade/rounds/{round_id}`, `GET /api/arcade/verify/{bet_id}`.
//! The games share one path (`play`); each route only names its input.

use salvo::prelude::*;

use super::checked::Checked;
use super::client::caller;
use super::edge::arcade;
use super::sign_in;
use crate::error::ApiError;
use crate::inputs::games::{GameInput, for_each_game_input};
use crate::inputs::queries::{BetPath, RoundPath};
use crate::inputs::wallets::AddressInput;
use crate::service::auth::AddressProof;
use crate::service::plays::Played;
use crate::service::receipts::VerifiedBet;
use crate::service::rounds::{Committed, RoundView};

/// Open a round: the house commits to a secret seed. Requires a signature of the auth statement
/// or a `SIGN-IN-WITH-X` header (`GET /api/arcade/siwx/{address}`); both must hold when both
/// are given.
#[endpoint(tags("rounds"))]
pub async fn commit(
    input: Checked<AddressInput>,
    req: &mut Request,
    depot: &mut Depot,
) -> Result<Json<Committed>, ApiError> {
    let Checked(input) = input;
    let siwx = sign_in::header(req);
    let proof = AddressProof {
        signature: input.signature.as_deref(),
        siwx: siwx.as_deref(),
    };
    let committed = arcade(depot)?
        .rounds
        .commit(&input.address.0, proof, caller(depot))
        .await?;
    Ok(Json(committed))
}

macro_rules! game_handlers {
    ($($Game:ident, $endpoint:literal, $Input:ty, $handler:ident, $about:literal;)*) => {$(
        #[doc = $about]
        #[endpoint(tags("rounds"))]
        pub async fn $handler(
            input: Checked<$Input>,
            req: &mut Request,
            depot: &mut Depot,
        ) -> Result<Json<Played>, ApiError> {
            play(input, req, depot).await
        }
    )*};
}
for_each_game_input!(game_handlers);

async fn play<G: GameInput>(
    input: Checked<G>,
    req: &Request,
    depot: &Depot,
) -> Result<Json<Played>, ApiError> {
    let mut play = input.0.play()?;
    play.siwx = sign_in::header(req);
    Ok(Json(arcade(depot)?.plays.play(play).await?))
}

/// Re-derive a settled round from its revealed seed, with `arcade-core`.
#[endpoint(tags("rounds"))]
pub async fn verify(
    input: Checked<BetPath>,
    depot: &mut Depot,
) -> Result<Json<VerifiedBet>, ApiError> {
    let caller = caller(depot);
    Ok(Json(
        arcade(depot)?
            .receipts
            .verify_bet(caller, input.0.bet_id)
            .await?,
    ))
}

/// A round as it stands: `open` (with when it expires), `settled` (with its receipt, server
/// seed included) or `expired`. A client whose game call got no answer finds its result here
/// (or by repeating the same call, which answers the original receipt with `replayed: true`).
#[endpoint(tags("rounds"))]
pub async fn round(
    input: Checked<RoundPath>,
    depot: &mut Depot,
) -> Result<Json<RoundView>, ApiError> {
    let caller = caller(depot);
    Ok(Json(
        arcade(depot)?
            .rounds
            .round(caller, &input.0.round_id)
            .await?,
    ))
}
