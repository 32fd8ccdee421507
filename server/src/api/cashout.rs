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
use crate::service::cashouts::idempotency::sent_key;

/// The header that carries a cashout's idempotency key.
pub const IDEMPOTENCY_KEY: &str = "idempotency-key";

/// Redeem chips for the token, sent on-chain by the house (which pays the gas): 100 chips = 0.01
/// USD. Requires the signature of the address's auth statement (or a `SIGN-IN-WITH-X` header)
/// and a past purchase. The chips
/// are debited first; if the transfer cannot be sent they are refunded (502 `cashout_failed`,
/// 503 `chain_unavailable`, the body being the refunded cashout). An `Idempotency-Key` header
/// makes a retry after a lost answer the same cashout.
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
    let header = req.headers().get(IDEMPOTENCY_KEY).map(|value| {
        // A header that is not visible ASCII is refused by the key's own check.
        value.to_str().unwrap_or("\u{fffd}")
    });
    let key = sent_key(header, input.idempotency_key.as_deref())?;
    let receipt = arcade(depot)?
        .cashouts
        .cash_out(
            &input.address.0,
            input.chips,
            key.as_ref(),
            proof,
            caller(depot),
        )
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
