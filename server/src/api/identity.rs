//! `GET /api/arcade/auth-statement/{address}`.

use salvo::prelude::*;

use super::checked::Checked;
use super::edge::arcade;
use crate::error::ApiError;
use crate::identity::AuthStatement;
use crate::inputs::wallets::AddressPath;

/// The statement to sign to prove control of an address.
#[endpoint(tags("identity"))]
pub async fn auth_statement(
    input: Checked<AddressPath>,
    depot: &mut Depot,
) -> Result<Json<AuthStatement>, ApiError> {
    Ok(Json(
        arcade(depot)?.identity.auth_statement(&input.0.address.0),
    ))
}
