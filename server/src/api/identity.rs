//! `GET /api/arcade/auth-statement/{address}`, `POST /api/arcade/auth/rotate`.

use salvo::prelude::*;

use super::checked::Checked;
use super::client::caller;
use super::edge::arcade;
use super::sign_in;
use crate::error::ApiError;
use crate::identity::AuthStatement;
use crate::inputs::wallets::{AddressPath, RotateInput};
use crate::service::auth::{AddressProof, Rotated};

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

/// Revoke every signature and sign-in-with-x proof made so far: proven with the current
/// statement's signature or a `SIGN-IN-WITH-X` header, this starts a new
/// one (its `generation` one higher). Signatures of older statements are then refused on every
/// instance (401 `signature_revoked` for the two before the current one, 403
/// `signature_mismatch` for older ones), and the address's open rounds expire. Use it when a
/// signature may have leaked.
#[endpoint(tags("identity"))]
pub async fn rotate(
    input: Checked<RotateInput>,
    req: &mut Request,
    depot: &mut Depot,
) -> Result<Json<Rotated>, ApiError> {
    let Checked(input) = input;
    let siwx = sign_in::header(req);
    let proof = AddressProof {
        signature: input.signature.as_deref(),
        siwx: siwx.as_deref(),
    };
    let rotated = arcade(depot)?
        .auth
        .rotate(&input.address.0, proof, caller(depot))
        .await?;
    Ok(Json(rotated))
}
