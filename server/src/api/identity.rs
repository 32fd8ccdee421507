//! `GET /api/arcade/auth-statement/{address}`.

use salvo::oapi::ToSchema;
use salvo::prelude::*;
use serde::Serialize;

use super::edge::{arcade, path_address};
use crate::address;
use crate::error::ApiError;

#[derive(Debug, Serialize, ToSchema)]
pub struct AuthStatement {
    pub address: String,
    /// The exact text to sign with `personal_sign`; stable for this address on this deployment.
    pub statement: String,
    /// Always `eip191`.
    pub scheme: String,
}

/// The statement to sign to prove control of an address.
#[endpoint(tags("identity"), parameters(("address" = String, Path, description = "0x + 40 hex, any case")))]
pub async fn auth_statement(
    req: &mut Request,
    depot: &mut Depot,
) -> Result<Json<AuthStatement>, ApiError> {
    let address = path_address(req)?;
    Ok(Json(AuthStatement {
        address: address::display(&address),
        statement: arcade(depot)?.identity.statement(&address),
        scheme: "eip191".into(),
    }))
}
