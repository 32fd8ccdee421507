//! `POST /api/arcade/cashout`, `GET /api/arcade/cashout/{cashout_id}`.

use salvo::prelude::*;

use super::checked::Checked;
use super::client::caller;
use super::edge::arcade;
use super::sign_in;
use crate::error::ApiError;
use crate::inputs::wallets::{CashoutInput, CashoutPath};
use crate::service::auth::AddressProof;
use crate::service::cashouts::CashoutReceipt;

/// Redeem chips for the token, sent on-chain by the house (which pays the gas): 100 chips = 0.01
/// USD. Requires the signature of the address's auth statement (or a `SIGN-IN-WITH-X` header)
/// and a past purchase. The chips
/// are debited first; if the transfer cannot be sent they are refunded (502 `cashout_failed`,
/// 503 `chain_unavailable`, the body being the refunded cashout).
#[endpoint(tags("chips"))]
pub async fn cash_out(
    input: Checked<CashoutInput>,
    req: &mut Request,
    depot: &mut Depot,
) -> Result<Json<CashoutReceipt>, ApiError> {
    let Checked(input) = input;
    let siwx = sign_in::header(req);
    let proof = AddressProof {
        signature: input.signature.as_deref(),
        siwx: siwx.as_deref(),
    };
    let receipt = arcade(depot)?
        .cashouts
        .cash_out(&input.address.0, input.chips, proof, caller(depot))
        .await?;
    Ok(Json(receipt))
}

/// A cashout as it stands: `pending`, `sent`, `confirmed`, or `failed` (refunded).
#[endpoint(tags("chips"))]
pub async fn cashout_status(
    input: Checked<CashoutPath>,
    depot: &mut Depot,
) -> Result<Json<CashoutReceipt>, ApiError> {
    Ok(Json(
        arcade(depot)?
            .cashouts
            .cashout_receipt(input.0.cashout_id)
            .await?,
    ))
}
