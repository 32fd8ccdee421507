//! The paying side of x402 `exact` on EIP-3009, as a client does it: read the offer, build the
//! authorization, sign it under the token's EIP-712 domain, encode the header. The arcade's own
//! agents buy chips with it like any player; tests and benchmarks use it as an independent
//! payer beside the official clients.

use alloy::primitives::{Address, B256, U256};
use alloy::signers::SignerSync;
use alloy::signers::local::PrivateKeySigner;
use alloy::sol_types::Eip712Domain;
use serde_json::json;

use super::X402_VERSION;
use super::wire::{PaymentRequired, PaymentRequirements, encode_header};
use crate::address;
use crate::chain::token::TransferWithAuthorization;

#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error("the offer is not payable here: {0}")]
    Offer(&'static str),
    #[error("signing: {0}")]
    Signing(String),
}

/// The domain an offer asks to sign under: `extra.name`/`extra.version`, the chain id of its
/// `eip155:<id>` network, the asset as verifying contract.
pub fn domain(offer: &PaymentRequirements) -> Result<Eip712Domain, ClientError> {
    let chain_id: u64 = offer
        .network
        .strip_prefix("eip155:")
        .and_then(|id| id.parse().ok())
        .ok_or(ClientError::Offer("network is not eip155:<chain id>"))?;
    let text = |key: &str| {
        offer
            .extra
            .get(key)
            .and_then(|v| v.as_str())
            .map(str::to_owned)
    };
    let name = text("name").ok_or(ClientError::Offer("extra.name is missing"))?;
    let version = text("version").ok_or(ClientError::Offer("extra.version is missing"))?;
    let asset =
        address::parse(&offer.asset).ok_or(ClientError::Offer("asset is not an address"))?;
    Ok(Eip712Domain::new(
        Some(name.into()),
        Some(version.into()),
        Some(U256::from(chain_id)),
        Some(asset),
        None,
    ))
}

/// What official clients sign for an offer: the exact amount to `payTo`, valid from 0 until
/// `now + maxTimeoutSeconds`, with a fresh random nonce.
pub fn authorization(
    offer: &PaymentRequirements,
    from: Address,
    now_seconds: u64,
) -> Result<TransferWithAuthorization, ClientError> {
    Ok(TransferWithAuthorization {
        from,
        to: address::parse(&offer.pay_to).ok_or(ClientError::Offer("payTo is not an address"))?,
        value: U256::from_str_radix(&offer.amount, 10)
            .map_err(|_| ClientError::Offer("amount is not a decimal integer"))?,
        validAfter: U256::ZERO,
        validBefore: U256::from(now_seconds + offer.max_timeout_seconds),
        nonce: B256::random(),
    })
}

/// Signs `authorization` for the challenge's first offer and encodes the `PAYMENT-SIGNATURE`
/// header (standard base64 of the v2 payload), echoing the challenge's `resource` and
/// `extensions` as the official clients do.
pub fn payment_header(
    required: &PaymentRequired,
    authorization: &TransferWithAuthorization,
    signer: &PrivateKeySigner,
) -> Result<String, ClientError> {
    let offer = required
        .accepts
        .first()
        .ok_or(ClientError::Offer("the challenge offers nothing"))?;
    let signature = signer
        .sign_typed_data_sync(authorization, &domain(offer)?)
        .map_err(|e| ClientError::Signing(e.to_string()))?;
    let mut payload = json!({
        "x402Version": X402_VERSION,
        "resource": required.resource,
        "accepted": offer,
        "payload": {
            "signature": alloy::hex::encode_prefixed(signature.as_bytes()),
            "authorization": {
                "from": authorization.from.to_checksum(None),
                "to": authorization.to.to_checksum(None),
                "value": authorization.value.to_string(),
                "validAfter": authorization.validAfter.to_string(),
                "validBefore": authorization.validBefore.to_string(),
                "nonce": authorization.nonce.to_string(),
            }
        }
    });
    if !required.extensions.is_empty() {
        payload["extensions"] = json!(required.extensions);
    }
    Ok(encode_header(&payload))
}

/// The whole client step: pay the challenge's first offer as `signer`.
pub fn pay(
    required: &PaymentRequired,
    signer: &PrivateKeySigner,
    now_seconds: u64,
) -> Result<String, ClientError> {
    let offer = required
        .accepts
        .first()
        .ok_or(ClientError::Offer("the challenge offers nothing"))?;
    let authorization = authorization(offer, signer.address(), now_seconds)?;
    payment_header(required, &authorization, signer)
}
