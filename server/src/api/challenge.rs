//! The 402 challenge of a paid resource: the one offer the deployment accepts for its tier,
//! with the resource's discovery metadata (`discovery`) as the route that answers presents it.

use serde_json::{Map, Value};

use super::discovery::{self, ChipsResource, Method};
use super::spend_controls::{self, SpendControls};
use crate::siwx::{self, Binding, Siwx};
use crate::x402::wire::PaymentRequired;
use crate::x402::{Terms, X402_VERSION};

/// The 402 challenge of `resource` as `method` reaches it (the discovery metadata says how
/// that method is called); `error` says why a payment was refused.
pub fn payment_required(
    terms: &Terms,
    resource: ChipsResource,
    method: Method,
    base_url: &str,
    error: Option<String>,
) -> PaymentRequired {
    PaymentRequired {
        x402_version: X402_VERSION,
        error,
        resource: discovery::resource_info(resource, base_url),
        accepts: vec![terms.requirements(resource.tier())],
        extensions: extensions(terms, resource, method, base_url),
    }
}

/// The challenge's `extensions` (the manifest lists the same per method): the discovery
/// metadata, and the lines that let the official clients pay in this token.
pub fn extensions(
    terms: &Terms,
    resource: ChipsResource,
    method: Method,
    base_url: &str,
) -> Map<String, Value> {
    let mut extensions = discovery::extensions(terms, resource, method, base_url);
    extensions.insert(
        spend_controls::EXTENSION.into(),
        SpendControls::extension(terms),
    );
    extensions
}

/// The challenge as the `PAYMENT-REQUIRED` header carries it: all of it but the `spend-controls`
/// lines, which the 402's body alone carries (clients read the offer from the header; a proxy's
/// buffer for response headers is often 4 KiB).
pub fn header_form(required: &PaymentRequired) -> PaymentRequired {
    let mut header = required.clone();
    header.extensions.remove(spend_controls::EXTENSION);
    header
}

/// `required` with the `sign-in-with-x` extension: an open challenge issued at `now_ms`, whose
/// proof stands in for the auth statement's signature on commit, the games, cashout and rotate
/// (a purchase itself is paid, never granted by it).
pub fn with_sign_in(mut required: PaymentRequired, siwx: &Siwx, now_ms: i64) -> PaymentRequired {
    let declaration = siwx.declaration(Binding::Open, now_ms, required.resource.url.clone());
    if let Ok(value) = serde_json::to_value(declaration) {
        required.extensions.insert(siwx::KEY.into(), value);
    }
    required
}

#[cfg(test)]
mod tests {
    use alloy::primitives::U256;
    use alloy::signers::local::PrivateKeySigner;

    use super::*;
    use crate::api::discovery::tests::terms;
    use crate::tiers::TIERS;
    use crate::x402::client::{domain, pay};
    use crate::x402::verify::verify;
    use crate::x402::wire::{decode_payment, encode_header};

    #[test]
    fn what_the_client_pays_is_what_the_server_accepts() {
        let required = payment_required(
            &terms(),
            ChipsResource::Tier(&TIERS[0]),
            Method::Post,
            "https://arcade.example",
            None,
        );
        let payer = PrivateKeySigner::random();
        let now = 1_800_000_000;
        let header = pay(&required, &payer, now).unwrap();
        let offer = &required.accepts[0];
        let verified = verify(
            &decode_payment(&header).unwrap(),
            offer,
            &domain(offer).unwrap(),
            now,
        )
        .expect("the server's checks pass");
        assert_eq!(verified.authorization.from, payer.address());
        assert_eq!(verified.authorization.value, U256::from(10_000u64));
        assert_eq!(verified.authorization.validBefore, U256::from(now + 300));
    }

    #[test]
    fn every_challenge_header_stays_small() {
        for resource in ChipsResource::all() {
            for method in Method::ALL {
                let required = payment_required(
                    &terms(),
                    resource,
                    method,
                    "https://arcade.example",
                    Some("invalid_exact_evm_payload_signature".into()),
                );
                let siwx = Siwx::new(
                    "arcade.example",
                    "https://arcade.example",
                    8453,
                    "Sign in.",
                    b"k",
                );
                let required = with_sign_in(required, &siwx, 1_800_000_000_000);
                assert!(required.extensions.contains_key(siwx::KEY));
                assert!(required.extensions.contains_key(spend_controls::EXTENSION));
                let size = encode_header(&header_form(&required)).len();
                assert!(size < 4096, "{resource:?} {method:?}: {size} bytes");
            }
        }
    }
}
