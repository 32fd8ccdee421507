//! `GET|POST /api/arcade/chips` and `/api/arcade/chips/{tier}`: chips for an x402 payment.
//! Without a payment: 402 and the challenge. With one: settled on-chain, then 200 and
//! `PAYMENT-RESPONSE`. Errors (402 refusals included) render in `crate::error`.

use salvo::http::HeaderValue;
use salvo::prelude::*;
use serde_json::json;

use super::edge::{arcade, body, shared};
use crate::error::ApiError;
use crate::service::purchases::Purchase;
use crate::tiers::{DEFAULT_TIER, TIERS, Tier};
use crate::validation::{FieldError, ValidationError, json_object};
use crate::x402::wire::encode_header;
use crate::x402::{PAYMENT_HEADERS, PAYMENT_RESPONSE_HEADERS};

/// Buy 1000 chips for 0.10 USD (the `small` tier) over x402. Send no payment to get the 402
/// challenge (header `PAYMENT-REQUIRED`, also in the body); sign its `accepts[0]` as an EIP-3009
/// authorization and retry with `PAYMENT-SIGNATURE` (or `X-PAYMENT`). Chips go to the signer.
#[endpoint(
    tags("chips"),
    responses((status_code = 200, description = "Settled on-chain and credited; `PAYMENT-RESPONSE` carries the settlement"),
              (status_code = 402, description = "The x402 challenge, or why a payment was refused (`error`)"))
)]
pub async fn buy_default(
    req: &mut Request,
    depot: &mut Depot,
    res: &mut Response,
) -> Result<Json<Purchase>, ApiError> {
    buy(req, depot, res, &DEFAULT_TIER).await
}

/// Buy a tier's chips over x402: micro (100 chips, 0.01 USD), small (1000, 0.10) or medium
/// (10000, 1.00). Same flow as `/api/arcade/chips`.
#[endpoint(
    tags("chips"),
    parameters(("tier" = String, Path, description = "micro, small or medium")),
    responses((status_code = 200, description = "Settled on-chain and credited; `PAYMENT-RESPONSE` carries the settlement"),
              (status_code = 402, description = "The x402 challenge, or why a payment was refused (`error`)"))
)]
pub async fn buy_tier(
    req: &mut Request,
    depot: &mut Depot,
    res: &mut Response,
) -> Result<Json<Purchase>, ApiError> {
    let name: String = req.param("tier").unwrap_or_default();
    let tier = TIERS
        .iter()
        .find(|t| t.name == name)
        .ok_or(ApiError::UnknownTier(name))?;
    buy(req, depot, res, tier).await
}

async fn buy(
    req: &mut Request,
    depot: &mut Depot,
    res: &mut Response,
    tier: &Tier,
) -> Result<Json<Purchase>, ApiError> {
    check_empty_body(&body(req, depot).await?)?;
    let resource_url = format!("{}{}", shared(depot)?.base_url, req.uri().path());
    let header = PAYMENT_HEADERS
        .iter()
        .find_map(|name| req.headers().get(*name))
        .map(|value| value.to_str().unwrap_or("\u{fffd}").to_owned());
    let paid = arcade(depot)?
        .buy_chips(tier, &resource_url, header.as_deref())
        .await?;
    let encoded = encode_header(&paid.settlement);
    for name in PAYMENT_RESPONSE_HEADERS {
        if let Ok(value) = HeaderValue::from_str(&encoded) {
            res.headers_mut().insert(name, value);
        }
    }
    res.add_header("cache-control", "no-store, private", true)
        .ok();
    Ok(Json(paid.purchase))
}

/// A purchase takes no input: the body may be absent or `{}`; anything else is a 422.
fn check_empty_body(bytes: &[u8]) -> Result<(), ValidationError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(());
    }
    let object = json_object(bytes)?;
    let extra: Vec<FieldError> = object
        .iter()
        .map(|(key, value)| {
            FieldError::new(
                &[json!("body"), json!(key)],
                "extra_forbidden",
                "Extra inputs are not permitted",
                Some(value.clone()),
            )
        })
        .collect();
    if extra.is_empty() {
        Ok(())
    } else {
        Err(ValidationError { detail: extra })
    }
}
