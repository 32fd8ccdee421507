//! `GET|POST /api/arcade/chips` and `/api/arcade/chips/{tier}`: chips for an x402 payment.
//! Without a payment: 402 and the challenge. With one: settled on-chain, then 200 and
//! `PAYMENT-RESPONSE`. A purchase that is not paid is a 402 whatever the reason (rendered in
//! `crate::error`); only a chain that cannot be reached is a 503.

use salvo::http::HeaderValue;
use salvo::prelude::*;

use super::challenge::{payment_required, with_sign_in};
use super::checked::Checked;
use super::client::caller;
use super::discovery::{ChipsResource, Method};
use super::edge::{arcade, shared};
use crate::error::ApiError;
use crate::inputs::chips::{NoBody, TierPath};
use crate::service::now_ms;
use crate::service::purchases::Purchase;
use crate::x402::wire::{SettleResponse, encode_header};
use crate::x402::{PAYMENT_HEADERS, PAYMENT_RESPONSE_HEADERS};

/// Buy 1000 chips for 0.10 USD (the `small` tier) over x402. Send no payment to get the 402
/// challenge (header `PAYMENT-REQUIRED`, also in the body); sign its `accepts[0]` as an EIP-3009
/// authorization and retry with `PAYMENT-SIGNATURE` (or `X-PAYMENT`). Chips go to the signer.
/// The challenge also describes the resource for discovery: `resource.description`,
/// `mimeType`, `serviceName`, `tags`, and `extensions.bazaar` (how to call it, an example answer,
/// and the JSON Schema of both).
#[endpoint(
    tags("chips"),
    parameters(
        ("PAYMENT-SIGNATURE" = Option<String>, Header, description = "The x402 v2 payment: standard base64 of the JSON payload answering the 402's offer"),
        ("X-PAYMENT" = Option<String>, Header, description = "The same, under the interface's (and x402 v1's) name"),
    ),
    responses((status_code = 200, description = "Settled on-chain and credited; `PAYMENT-RESPONSE` carries the settlement"),
              (status_code = 402, description = "The x402 challenge, or why a payment was refused (`error`)"))
)]
pub async fn buy_default(
    _body: Checked<NoBody>,
    req: &mut Request,
    depot: &mut Depot,
    res: &mut Response,
) -> Result<Json<Purchase>, ApiError> {
    buy(req, depot, res, ChipsResource::Default).await
}

/// Buy a tier's chips over x402: micro (100 chips, 0.01 USD), small (1000, 0.10) or medium
/// (10000, 1.00). Same flow as `/api/arcade/chips`.
#[endpoint(
    tags("chips"),
    parameters(
        ("PAYMENT-SIGNATURE" = Option<String>, Header, description = "The x402 v2 payment: standard base64 of the JSON payload answering the 402's offer"),
        ("X-PAYMENT" = Option<String>, Header, description = "The same, under the interface's (and x402 v1's) name"),
    ),
    responses((status_code = 200, description = "Settled on-chain and credited; `PAYMENT-RESPONSE` carries the settlement"),
              (status_code = 402, description = "The x402 challenge, or why a payment was refused (`error`)"))
)]
pub async fn buy_tier(
    tier: Checked<TierPath>,
    _body: Checked<NoBody>,
    req: &mut Request,
    depot: &mut Depot,
    res: &mut Response,
) -> Result<Json<Purchase>, ApiError> {
    buy(req, depot, res, ChipsResource::Tier(tier.0.tier.value())).await
}

async fn buy(
    req: &mut Request,
    depot: &mut Depot,
    res: &mut Response,
    resource: ChipsResource,
) -> Result<Json<Purchase>, ApiError> {
    let base_url = shared(depot)?.base_url.clone();
    let method = Method::of(req.method());
    let header = PAYMENT_HEADERS
        .iter()
        .find_map(|name| req.headers().get(*name))
        .map(|value| value.to_str().unwrap_or("\u{fffd}").to_owned());
    let arcade = arcade(depot)?;
    let purchase = match arcade
        .purchases
        .buy_chips(resource.tier(), header.as_deref(), caller(depot))
        .await
    {
        Ok(purchase) => purchase,
        Err(error) => {
            let terms = &arcade.purchases.payments()?.terms;
            let required = payment_required(terms, resource, method, &base_url, None);
            let siwx = arcade.auth.identity().siwx();
            return Err(ApiError::purchase(
                error,
                with_sign_in(required, siwx, now_ms()),
            ));
        }
    };
    let settlement = SettleResponse {
        success: true,
        error_reason: None,
        error_message: None,
        payer: Some(purchase.address.clone()),
        transaction: purchase.tx_hash.clone(),
        network: purchase.network.clone(),
    };
    let encoded = encode_header(&settlement);
    for name in PAYMENT_RESPONSE_HEADERS {
        if let Ok(value) = HeaderValue::from_str(&encoded) {
            res.headers_mut().insert(name, value);
        }
    }
    res.add_header("cache-control", "no-store, private", true)
        .ok();
    Ok(Json(purchase))
}
