//! `POST /api/arcade/free`, `GET /api/arcade/balance/{address}`.

use salvo::prelude::*;

use super::checked::Checked;
use super::client::caller;
use super::edge::arcade;
use crate::error::ApiError;
use crate::inputs::wallets::{AddressInput, AddressPath};
use crate::service::wallets::{Balance, FreeGrant};

/// Claim the free chips, once per address. A signature is optional; when given it must be
/// the address's.
#[endpoint(tags("chips"))]
pub async fn free(
    input: Checked<AddressInput>,
    depot: &mut Depot,
) -> Result<Json<FreeGrant>, ApiError> {
    let Checked(input) = input;
    let granted = arcade(depot)?
        .wallets
        .claim_free(&input.address.0, input.signature.as_deref(), caller(depot))
        .await?;
    Ok(Json(granted))
}

/// Chips held by an address (0 for an address never seen), and how many a cashout may take.
#[endpoint(tags("chips"))]
pub async fn balance(
    input: Checked<AddressPath>,
    depot: &mut Depot,
) -> Result<Json<Balance>, ApiError> {
    Ok(Json(
        arcade(depot)?.wallets.balance(&input.0.address.0).await?,
    ))
}
