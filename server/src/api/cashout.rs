//! `POST /api/arcade/cashout`, `GET /api/arcade/cashout/{cashout_id}`.

use salvo::prelude::*;

use super::bodies::CashoutBody;
use super::edge::{arcade, body, path_integer};
use crate::error::ApiError;
use crate::service::cashouts::CashoutReceipt;

/// Redeem chips for the token, sent on-chain by the house (which pays the gas): 100 chips = 0.01
/// USD. Requires the signature of the address's auth statement and a past purchase. The chips
/// are debited first; if the transfer cannot be sent they are refunded (502 `cashout_failed`,
/// 503 `chain_unavailable`, the body being the refunded cashout).
#[endpoint(tags("chips"), request_body = CashoutBody)]
pub async fn cash_out(
    req: &mut Request,
    depot: &mut Depot,
) -> Result<Json<CashoutReceipt>, ApiError> {
    let body = CashoutBody::parse(&body(req, depot).await?)?;
    let receipt = arcade(depot)?
        .cash_out(&body.address, body.chips, body.signature.as_deref())
        .await?;
    Ok(Json(receipt))
}

/// A cashout as it stands: `pending`, `sent`, `confirmed`, or `failed` (refunded).
#[endpoint(tags("chips"), parameters(("cashout_id" = i64, Path, description = "From the cashout's answer")))]
pub async fn cashout_status(
    req: &mut Request,
    depot: &mut Depot,
) -> Result<Json<CashoutReceipt>, ApiError> {
    let id = path_integer(req, "cashout_id", 1, i64::MAX)?;
    Ok(Json(arcade(depot)?.cashout_receipt(id).await?))
}
