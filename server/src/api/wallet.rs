//! `POST /api/arcade/free`, `GET /api/arcade/balance/{address}`.

use salvo::prelude::*;

use super::bodies::AddressBody;
use super::edge::{arcade, body, path_address};
use crate::error::ApiError;
use crate::service::wallets::{Balance, FreeGrant};

/// Claim the free chips, once per address. A signature is optional; when given it must be
/// the address's.
#[endpoint(tags("chips"), request_body = AddressBody)]
pub async fn free(req: &mut Request, depot: &mut Depot) -> Result<Json<FreeGrant>, ApiError> {
    let body = AddressBody::parse(&body(req, depot).await?)?;
    let granted = arcade(depot)?
        .claim_free(&body.address, body.signature.as_deref())
        .await?;
    Ok(Json(granted))
}

/// Chips held by an address (0 for an address never seen).
#[endpoint(tags("chips"), parameters(("address" = String, Path, description = "0x + 40 hex, any case")))]
pub async fn balance(req: &mut Request, depot: &mut Depot) -> Result<Json<Balance>, ApiError> {
    let address = path_address(req)?;
    Ok(Json(arcade(depot)?.balance(&address).await?))
}
