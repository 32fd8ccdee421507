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
    let accepted = &payment.accepted;
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
    let authorization = parse_authorization(&payment.payload.authorization)?;
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
    if authorization.validBefore < now + U256::from(VALID_BEFORE_MARGIN_SECONDS) {
        return Err(refused(
            "invalid_exact_evm_payload_authorization_valid_before",
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
            "invalid_exact_evm_payload_authorization_valid_before",
            format!(
                "the authorization is valid until {}, more than maxTimeoutSeconds ({}) ahead; sign one valid until at most {latest}",
                authorization.validBefore, offer.max_timeout_seconds
            ),
        ));
    }
    let signature = recover_checked(&payment.payload.signature, &authorization, domain)?;
    Ok(Verified {
        authorization,
        signature,
    })
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
mod tests {
    use super::*;
    use crate::x402::wire::ExactEvmPayload;
    use alloy::signers::SignerSync;
    use alloy::signers::local::PrivateKeySigner;
    use serde_json::json;

    const NOW: u64 = 1_800_000_000;

    fn offer(pay_to: Address, asset: Address) -> PaymentRequirements {
        PaymentRequirements {
            scheme: "exact".into(),
            network: "eip155:31337".into(),
            amount: "100000".into(),
            asset: asset.to_checksum(None),
            pay_to: pay_to.to_checksum(None),
            max_timeout_seconds: 300,
            extra: json!({"name": "Arcade Test Dollar", "version": "1"}),
        }
    }

    fn domain(asset: Address) -> Eip712Domain {
        alloy::sol_types::eip712_domain! {
            name: "Arcade Test Dollar",
            version: "1",
            chain_id: 31337,
            verifying_contract: asset,
        }
    }

    fn signed(
        payer: &PrivateKeySigner,
        offer: &PaymentRequirements,
        domain: &Eip712Domain,
        edit: impl FnOnce(&mut TransferWithAuthorization),
    ) -> PaymentPayload {
        let mut authorization = TransferWithAuthorization {
            from: payer.address(),
            to: address::parse(&offer.pay_to).unwrap(),
            value: U256::from(100_000u64),
            validAfter: U256::ZERO,
            validBefore: U256::from(NOW + 300),
            nonce: B256::repeat_byte(7),
        };
        edit(&mut authorization);
        let signature = payer.sign_typed_data_sync(&authorization, domain).unwrap();
        PaymentPayload {
            x402_version: 2,
            accepted: offer.clone(),
            payload: ExactEvmPayload {
                signature: format!("0x{}", alloy::hex::encode(signature.as_bytes())),
                authorization: AuthorizationText {
                    from: authorization.from.to_checksum(None),
                    to: authorization.to.to_checksum(None),
                    value: authorization.value.to_string(),
                    valid_after: authorization.validAfter.to_string(),
                    valid_before: authorization.validBefore.to_string(),
                    nonce: authorization.nonce.to_string(),
                },
            },
        }
    }

    fn reason(result: Result<Verified, Rejection>) -> &'static str {
        match result {
            Err(Rejection::Refused { reason, .. }) => reason,
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn a_payment_signed_for_the_offer_passes_and_each_deviation_is_named() {
        let payer = PrivateKeySigner::random();
        let (pay_to, asset) = (Address::repeat_byte(1), Address::repeat_byte(2));
        let offer = offer(pay_to, asset);
        let domain = domain(asset);
        let good = signed(&payer, &offer, &domain, |_| {});
        let verified = verify(&good, &offer, &domain, NOW).unwrap();
        assert_eq!(verified.authorization.from, payer.address());

        let check = |edit: fn(&mut TransferWithAuthorization)| {
            reason(verify(
                &signed(&payer, &offer, &domain, edit),
                &offer,
                &domain,
                NOW,
            ))
        };
        assert_eq!(
            check(|a| a.value = U256::from(99_999u64)),
            "invalid_exact_evm_payload_authorization_value_mismatch"
        );
        assert_eq!(
            check(|a| a.to = Address::repeat_byte(9)),
            "invalid_exact_evm_payload_recipient_mismatch"
        );
        assert_eq!(
            check(|a| a.validAfter = U256::from(NOW + 60)),
            "invalid_exact_evm_payload_authorization_valid_after"
        );
        assert_eq!(
            check(|a| a.validBefore = U256::from(NOW + 5)),
            "invalid_exact_evm_payload_authorization_valid_before"
        );
        // At most maxTimeoutSeconds (300) plus 60 s ahead: the last second passes, one more not.
        let last = U256::from(NOW + 300 + VALID_BEFORE_SLACK_SECONDS);
        let mut latest = signed(&payer, &offer, &domain, |a| a.validBefore = last);
        assert!(verify(&latest, &offer, &domain, NOW).is_ok());
        latest = signed(&payer, &offer, &domain, |a| {
            a.validBefore = last + U256::from(1)
        });
        assert_eq!(
            reason(verify(&latest, &offer, &domain, NOW)),
            "invalid_exact_evm_payload_authorization_valid_before"
        );
        assert_eq!(
            check(|a| a.validBefore = U256::MAX),
            "invalid_exact_evm_payload_authorization_valid_before"
        );

        let mut wrong_network = good.clone();
        wrong_network.accepted.network = "eip155:8453".into();
        assert_eq!(
            reason(verify(&wrong_network, &offer, &domain, NOW)),
            "invalid_network"
        );
        let mut cheaper = good.clone();
        cheaper.accepted.amount = "1".into();
        assert_eq!(
            reason(verify(&cheaper, &offer, &domain, NOW)),
            "invalid_payment_requirements"
        );
        let mut lowercase = good.clone();
        lowercase.accepted.asset = lowercase.accepted.asset.to_lowercase();
        assert!(verify(&lowercase, &offer, &domain, NOW).is_ok());
    }

    #[test]
    fn a_signature_over_another_domain_or_by_another_key_is_refused() {
        let payer = PrivateKeySigner::random();
        let asset = Address::repeat_byte(2);
        let offer = offer(Address::repeat_byte(1), asset);
        let usdc_named = alloy::sol_types::eip712_domain! {
            name: "USD Coin", version: "2", chain_id: 31337, verifying_contract: asset,
        };
        let wrong_domain = signed(&payer, &offer, &usdc_named, |_| {});
        assert_eq!(
            reason(verify(&wrong_domain, &offer, &domain(asset), NOW)),
            "invalid_exact_evm_payload_signature"
        );

        let mut forged = signed(&PrivateKeySigner::random(), &offer, &domain(asset), |_| {});
        forged.payload.authorization.from = payer.address().to_checksum(None);
        assert_eq!(
            reason(verify(&forged, &offer, &domain(asset), NOW)),
            "invalid_exact_evm_payload_signature"
        );
    }

    #[test]
    fn unreadable_fields_are_malformed() {
        let payer = PrivateKeySigner::random();
        let asset = Address::repeat_byte(2);
        let offer = offer(Address::repeat_byte(1), asset);
        let mut payment = signed(&payer, &offer, &domain(asset), |_| {});
        payment.payload.authorization.value = "1e5".into();
        assert!(matches!(
            verify(&payment, &offer, &domain(asset), NOW),
            Err(Rejection::Malformed(_))
        ));
    }
}
