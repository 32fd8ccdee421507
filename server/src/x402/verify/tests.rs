//! Each check of `verify`, one field spoiled at a time.

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
