//! Sign-in-with-x at the edge: `GET /api/arcade/siwx/{address}` (a challenge bound to the
//! address's statement generation) and the `SIGN-IN-WITH-X` header commit, the games, cashout
//! and rotate read beside the body's `signature`.

use salvo::oapi::ToSchema;
use salvo::prelude::*;
use serde::Serialize;

use super::checked::Checked;
use super::edge::arcade;
use crate::error::ApiError;
use crate::inputs::games::endpoint;
use crate::inputs::wallets::AddressPath;
use crate::siwx::{Declaration, HEADER, LIFETIME_MS, Siwx, SupportedChain};

/// The games' REST path segments.
static GAMES: std::sync::LazyLock<Vec<&'static str>> = std::sync::LazyLock::new(|| {
    arcade_core::Game::ALL
        .iter()
        .map(|game| endpoint(*game))
        .collect()
});

/// A sign-in-with-x challenge for the address (the x402 `sign-in-with-x` extension's `info`,
/// `supportedChains` and `schema`, as a 402 declares it): sign `info` for the chain with the
/// official client (`createSIWxPayload`, then `encodeSIWxHeader`) and send the result as the
/// `SIGN-IN-WITH-X` header of commit, the games, cashout and rotate, in place of the body's
/// `signature`, for five minutes. Rotating revokes it.
#[endpoint(tags("identity"))]
pub async fn challenge(
    input: Checked<AddressPath>,
    depot: &mut Depot,
    res: &mut Response,
) -> Result<Json<Declaration>, ApiError> {
    let declaration = arcade(depot)?
        .auth
        .siwx_challenge(&input.0.address.0)
        .await?;
    res.add_header("cache-control", "no-store", true).ok();
    Ok(Json(declaration))
}

/// How the manifest announces sign-in-with-x.
#[derive(Debug, Serialize, ToSchema)]
pub struct SignInWithX {
    /// The request header that carries the proof: `SIGN-IN-WITH-X`.
    pub header: &'static str,
    /// How an address gets its challenge: the method and the URL template (`{address}` to fill
    /// in), written as `accepted_by` writes operations.
    pub challenge: String,
    /// The ways to sign it (`{chainId, type}`), as the 402's extension lists them.
    pub supported_chains: Vec<SupportedChain>,
    /// The operations that accept it in place of the auth statement's signature.
    pub accepted_by: Vec<String>,
    /// How long a challenge may be signed and used, in seconds.
    pub lifetime_seconds: i64,
}

pub fn advertised(siwx: &Siwx, base_url: &str) -> SignInWithX {
    let arcade = format!("{base_url}/api/arcade");
    let games = GAMES.iter().map(|game| format!("POST {arcade}/{game}"));
    SignInWithX {
        header: HEADER,
        challenge: format!("GET {arcade}/siwx/{{address}}"),
        supported_chains: siwx.supported_chains(),
        accepted_by: [
            format!("POST {arcade}/commit"),
            format!("POST {arcade}/cashout"),
            format!("POST {arcade}/auth/rotate"),
        ]
        .into_iter()
        .chain(games)
        .collect(),
        lifetime_seconds: LIFETIME_MS / 1000,
    }
}

/// The request's `SIGN-IN-WITH-X` header, if it has one (a value that is not text is kept as a
/// replacement character, so it is refused as malformed rather than ignored).
pub fn header(req: &Request) -> Option<String> {
    req.headers()
        .get(HEADER)
        .map(|value| value.to_str().unwrap_or("\u{fffd}").to_owned())
}
