//! The checks a payment passes before the house spends gas on it, in the order the reference
//! facilitator applies them. Pure: the offer, the token's EIP-712 domain and the clock come in.

use alloy::primitives::{Address, B256, Signature, U256};
use alloy::sol_types::{Eip712Domain, SolStruct};
use serde_json::Value;

use super::wire::{AuthorizationText, PaymentPayload, PaymentRequirements};
use crate::address;
use crate::chain::token::TransferWithAuthorization;

/// `validBefore` must lie at least this many seconds ahead, so the settlement can be mined.
pub const VALID_BEFORE_MARGIN_SECONDS: u64 = 6;
/// ... and at most the offer's `maxTimeoutSeconds` plus this much (clock skew), so a payment
/// the house cannot settle is given up within minutes, not held open for years.
pub const VALID_BEFORE_SLACK_SECONDS: u64 = 60;

/// An authorization that passed every local check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    pub authorization: TransferWithAuthorization,
    pub signature: Signature,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rejection {
    /// Not readable as an exact EVM payment at all (400).
    Malformed(String),
    /// Readable, but not a payment this offer accepts (402 with `reason`).
    Refused {
        reason: &'static str,
        detail: String,
    },
}

fn refused(reason: &'static str, detail: impl Into<String>) -> Rejection {
    Rejection::Refused {
        reason,
        detail: detail.into(),
    }
}

pub fn verify(
    payment: &PaymentPayload,
    offer: &PaymentRequirements,
    domain: &Eip712Domain,
    now_seconds: u64,
) -> Result<Verified, Rejection> {
    check_offer(&payment.accepted, offer)?;
    let authorization = parse_authorization(&payment.payload.authorization)?;
    check_terms(&authorization, offer)?;
    check_window(&authorization, offer, now_seconds)?;
    let signature = recover_checked(&payment.payload.signature, &authorization, domain)?;
    Ok(Verified {
        authorization,
        signature,
    })
}

/// The requirements the payment says it accepted must be this resource's offer.
fn check_offer(
    accepted: &PaymentRequirements,
    offer: &PaymentRequirements,
) -> Result<(), Rejection> {
    if accepted.scheme != offer.scheme {
        return Err(refused(
            "unsupported_scheme",
            format!(
                "scheme {:?} is not offered; pay with \"exact\"",
                accepted.scheme
            ),
        ));
    }
    if accepted.network != offer.network {
        return Err(refused(
            "invalid_network",
            format!(
                "network {:?} is not offered; pay on {}",
                accepted.network, offer.network
            ),
        ));
    }
    if !matches_offer(accepted, offer) {
        return Err(refused(
            "invalid_payment_requirements",
            "the accepted requirements are not this resource's offer; pay what the 402 asks",
        ));
    }
    Ok(())
}

/// The authorization pays the pay-to address exactly the price.
fn check_terms(
    authorization: &TransferWithAuthorization,
    offer: &PaymentRequirements,
) -> Result<(), Rejection> {
    let pay_to = address::parse(&offer.pay_to).unwrap_or_default();
    if authorization.to != pay_to {
        return Err(refused(
            "invalid_exact_evm_payload_recipient_mismatch",
            format!("the authorization pays {}, not {pay_to}", authorization.to),
        ));
    }
    let amount = U256::from_str_radix(&offer.amount, 10).unwrap_or_default();
    if authorization.value != amount {
        return Err(refused(
            "invalid_exact_evm_payload_authorization_value_mismatch",
            format!(
                "the authorization is for {} base units; the price is exactly {amount}",
                authorization.value
            ),
        ));
    }
    Ok(())
}

/// Valid now, long enough to settle, and not for longer than the offer allows.
fn check_window(
    authorization: &TransferWithAuthorization,
    offer: &PaymentRequirements,
    now_seconds: u64,
) -> Result<(), Rejection> {
    let now = U256::from(now_seconds);
    if authorization.validAfter > now {
        return Err(refused(
            "invalid_exact_evm_payload_authorization_valid_after",
            format!(
                "the authorization is valid only after {}",
                authorization.validAfter
            ),
        ));
    }
    let valid_before = "invalid_exact_evm_payload_authorization_valid_before";
    if authorization.validBefore < now + U256::from(VALID_BEFORE_MARGIN_SECONDS) {
        return Err(refused(
            valid_before,
            format!(
                "the authorization expires at {}, too soon to settle",
                authorization.validBefore
            ),
        ));
    }
    let latest =
        now + U256::from(offer.max_timeout_seconds) + U256::from(VALID_BEFORE_SLACK_SECONDS);
    if authorization.validBefore > latest {
        return Err(refused(
            valid_before,
            format!(
                "the authorization is valid until {}, more than maxTimeoutSeconds ({}) ahead; sign one valid until at most {latest}",
                authorization.validBefore, offer.max_timeout_seconds
            ),
        ));
    }
    Ok(())
}

/// Core fields equal (addresses in any case); the offer's `extra` contained in the accepted one.
fn matches_offer(accepted: &PaymentRequirements, offer: &PaymentRequirements) -> bool {
    let same_address =
        |a: &str, b: &str| address::parse(a).is_some() && address::parse(a) == address::parse(b);
    accepted.amount == offer.amount
        && accepted.max_timeout_seconds == offer.max_timeout_seconds
        && same_address(&accepted.asset, &offer.asset)
        && same_address(&accepted.pay_to, &offer.pay_to)
        && contains(&accepted.extra, &offer.extra)
}

fn contains(accepted: &Value, offered: &Value) -> bool {
    match (accepted, offered) {
        (Value::Object(accepted), Value::Object(offered)) => offered
            .iter()
            .all(|(key, value)| accepted.get(key) == Some(value)),
        _ => accepted == offered,
    }
}

fn parse_authorization(text: &AuthorizationText) -> Result<TransferWithAuthorization, Rejection> {
    let address = |field: &str, value: &str| {
        address::parse(value)
            .ok_or_else(|| Rejection::Malformed(format!("authorization.{field} is not an address")))
    };
    let integer = |field: &str, value: &str| -> Result<U256, Rejection> {
        let digits =
            !value.is_empty() && value.len() <= 78 && value.bytes().all(|b| b.is_ascii_digit());
        digits
            .then(|| U256::from_str_radix(value, 10).ok())
            .flatten()
            .ok_or_else(|| {
                Rejection::Malformed(format!("authorization.{field} is not a decimal uint256"))
            })
    };
    let nonce: B256 = (text.nonce.len() == 66)
        .then(|| text.nonce.parse().ok())
        .flatten()
        .ok_or_else(|| Rejection::Malformed("authorization.nonce is not 0x + 64 hex".into()))?;
    Ok(TransferWithAuthorization {
        from: address("from", &text.from)?,
        to: address("to", &text.to)?,
        value: integer("value", &text.value)?,
        validAfter: integer("validAfter", &text.valid_after)?,
        validBefore: integer("validBefore", &text.valid_before)?,
        nonce,
    })
}

/// The signature must be 65 bytes, low-s, and recover `from` under the token's domain.
fn recover_checked(
    hex: &str,
    authorization: &TransferWithAuthorization,
    domain: &Eip712Domain,
) -> Result<Signature, Rejection> {
    let invalid = |detail: &str| refused("invalid_exact_evm_payload_signature", detail);
    let bytes = hex
        .strip_prefix("0x")
        .and_then(|digits| alloy::hex::decode(digits).ok())
        .ok_or_else(|| invalid("the signature is not 0x-hex"))?;
    if bytes.len() != 65 {
        return Err(invalid(
            "the signature is not 65 bytes; smart-wallet signatures are not accepted",
        ));
    }
    let signature =
        Signature::from_raw(&bytes).map_err(|_| invalid("the signature is not r || s || v"))?;
    if signature.normalize_s().is_some() {
        return Err(invalid("the signature has a high s value"));
    }
    let hash = authorization.eip712_signing_hash(domain);
    match signature.recover_address_from_prehash(&hash) {
        Ok(signer) if signer == authorization.from => Ok(signature),
        Ok(signer) => Err(invalid(&format!(
            "the signature recovers {signer}, not {}; sign the token's EIP-712 domain (name and version from the 402's extra)",
            authorization.from
        ))),
        Err(_) => Err(invalid("the signature does not recover an address")),
    }
}

/// The payer, when the payload names a readable one (for failure responses).
pub fn payer_of(payment: &PaymentPayload) -> Option<Address> {
    address::parse(&payment.payload.authorization.from)
}

#[cfg(test)]
mod tests;
