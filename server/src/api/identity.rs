//! `GET /api/arcade/auth-statement/{address}`, `POST /api/arcade/auth/rotate`.

use salvo::prelude::*;

use super::checked::Checked;
use super::client::caller;
use super::edge::arcade;
use crate::error::ApiError;
use crate::identity::AuthStatement;
use crate::inputs::wallets::{AddressPath, RotateInput};
use crate::service::auth::Rotated;

/// The statement to sign to prove control of an address: an EIP-4361 (Sign-In with Ethereum)
/// message naming this deployment, signed with `personal_sign`. It stays the same until the
/// address rotates, so sign it once.
#[endpoint(tags("identity"))]
pub async fn auth_statement(
    input: Checked<AddressPath>,
    depot: &mut Depot,
) -> Result<Json<AuthStatement>, ApiError> {
    Ok(Json(
        arcade(depot)?.auth.statement(&input.0.address.0).await?,
    ))
}

/// Revoke every signature made so far: signed with the current statement, this starts a new
/// one (its `generation` one higher). Signatures of older statements are then refused on every
/// instance (401 `signature_revoked` for the two before the current one, 403
/// `signature_mismatch` for older ones), and the address's open rounds expire. Use it when a
/// signature may have leaked.
#[endpoint(tags("identity"))]
pub async fn rotate(
    input: Checked<RotateInput>,
    depot: &mut Depot,
) -> Result<Json<Rotated>, ApiError> {
    let Checked(input) = input;
    let rotated = arcade(depot)?
        .auth
        .rotate(&input.address.0, Some(&input.signature), caller(depot))
        .await?;
    Ok(Json(rotated))
}
