//! The verification rules, one field changed at a time, with the clock passed in.

use alloy::primitives::Address;
use alloy::signers::SignerSync;
use alloy::signers::local::PrivateKeySigner;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;

use super::wire::{Declaration, Payload, message};
use super::{Binding, CLOCK_TOLERANCE_MS, LIFETIME_MS, Siwx, Window};
use crate::address;
use crate::signatures::{Generation, SignatureError};

const NOW: i64 = 1_800_000_000_000;

/// One field changed, by name.
type Change = (&'static str, fn(&mut Payload));

fn siwx() -> Siwx {
    Siwx::new(
        "arcade.example",
        "https://arcade.example",
        8453,
        "Sign in.",
        b"secret",
    )
}

fn generation(number: i64) -> Generation {
    Generation {
        number,
        nonce: format!("{number:024x}"),
        issued_at: NOW - 1000 + number,
    }
}

/// The payload the official client builds from `declaration`, signed by `signer`.
fn signed(declaration: &Declaration, signer: &PrivateKeySigner) -> Payload {
    let info = &declaration.info;
    let mut payload = Payload {
        domain: info.domain.clone(),
        address: address::display(&signer.address()),
        statement: Some(info.statement.clone()),
        uri: info.uri.clone(),
        version: info.version.clone(),
        chain_id: declaration.supported_chains[0].chain_id.clone(),
        kind: "eip191".into(),
        nonce: info.nonce.clone(),
        issued_at: info.issued_at.clone(),
        expiration_time: Some(info.expiration_time.clone()),
        not_before: None,
        request_id: None,
        resources: (!info.resources.is_empty()).then(|| info.resources.clone()),
        signature_scheme: None,
        signature: String::new(),
    };
    sign(&mut payload, signer);
    payload
}

fn sign(payload: &mut Payload, signer: &PrivateKeySigner) {
    let text = message(payload, &payload.address, 8453);
    let signature = signer.sign_message_sync(text.as_bytes()).unwrap();
    payload.signature = format!("0x{}", alloy::hex::encode(signature.as_bytes()));
}

fn header(payload: &Payload) -> String {
    STANDARD.encode(serde_json::to_vec(payload).unwrap())
}

fn challenge(address: &Address, current: &Generation) -> Declaration {
    siwx().declaration(
        Binding::Address(address, current),
        NOW,
        "https://arcade.example".into(),
    )
}

fn verdict(
    payload: &Payload,
    address: &Address,
    current: &Generation,
    now: i64,
) -> Result<(), SignatureError> {
    siwx().verify(
        &header(payload),
        address,
        current,
        &[generation(0)],
        Window::At(now),
    )
}

#[test]
fn the_owners_signed_challenge_passes_within_its_window() {
    let player = PrivateKeySigner::random();
    let current = generation(1);
    let payload = signed(&challenge(&player.address(), &current), &player);
    assert_eq!(verdict(&payload, &player.address(), &current, NOW), Ok(()));
    assert_eq!(
        verdict(&payload, &player.address(), &current, NOW + LIFETIME_MS - 1),
        Ok(())
    );
    assert!(matches!(
        verdict(&payload, &player.address(), &current, NOW + LIFETIME_MS),
        Err(SignatureError::OutOfWindow(_))
    ));
    assert!(matches!(
        verdict(
            &payload,
            &player.address(),
            &current,
            NOW - CLOCK_TOLERANCE_MS - 1
        ),
        Err(SignatureError::OutOfWindow(_))
    ));
}

#[test]
fn another_address_or_signer_is_a_mismatch() {
    let player = PrivateKeySigner::random();
    let stranger = PrivateKeySigner::random();
    let current = generation(0);
    let payload = signed(&challenge(&player.address(), &current), &player);
    let on_other = verdict(&payload, &stranger.address(), &current, NOW);
    assert!(matches!(on_other, Err(SignatureError::Mismatch { .. })));
    let mut forged = payload.clone();
    sign(&mut forged, &stranger);
    let forged = verdict(&forged, &player.address(), &current, NOW);
    assert!(matches!(forged, Err(SignatureError::Mismatch { .. })));
}

#[test]
fn a_field_naming_another_deployment_is_foreign() {
    let player = PrivateKeySigner::random();
    let current = generation(0);
    let good = signed(&challenge(&player.address(), &current), &player);
    let changes: [Change; 6] = [
        ("domain", |p| p.domain = "evil.example".into()),
        ("uri", |p| p.uri = "https://arcade.example.evil".into()),
        ("chain", |p| p.chain_id = "eip155:1".into()),
        ("type", |p| p.kind = "ed25519".into()),
        ("scheme", |p| p.signature_scheme = Some("eip1271".into())),
        ("nonce", |p| p.nonce = "0".repeat(32)),
    ];
    for (what, change) in changes {
        let mut payload = good.clone();
        change(&mut payload);
        sign(&mut payload, &player);
        let refused = verdict(&payload, &player.address(), &current, NOW);
        assert!(
            matches!(refused, Err(SignatureError::Foreign(_))),
            "{what}: {refused:?}"
        );
    }
    let mut moved = good.clone();
    moved.issued_at = "2027-01-15T07:59:00.000Z".into();
    sign(&mut moved, &player);
    let refused = siwx().verify(
        &header(&moved),
        &player.address(),
        &current,
        &[],
        Window::At(NOW),
    );
    assert!(
        matches!(refused, Err(SignatureError::Foreign(_))),
        "a window the server did not issue"
    );
}

#[test]
fn rotating_revokes_the_address_challenge_and_earlier_open_ones() {
    let player = PrivateKeySigner::random();
    let (first, second) = (generation(0), generation(1));
    let before = signed(&challenge(&player.address(), &first), &player);
    let revoked = siwx().verify(
        &header(&before),
        &player.address(),
        &second,
        std::slice::from_ref(&first),
        Window::At(NOW),
    );
    assert_eq!(
        revoked,
        Err(SignatureError::Revoked(address::display(&player.address())))
    );
    let open_at = |at: i64| {
        signed(
            &siwx().declaration(
                Binding::Open,
                at,
                "https://arcade.example/api/arcade/chips".into(),
            ),
            &player,
        )
    };
    let issued_before = open_at(second.issued_at - 1);
    let refused = siwx().verify(
        &header(&issued_before),
        &player.address(),
        &second,
        std::slice::from_ref(&first),
        Window::At(NOW),
    );
    assert!(matches!(refused, Err(SignatureError::Revoked(_))));
    // Stamped after the rotation by a clock running ahead of the rotating instance's: still
    // refused, since the open challenge binds no rotation.
    let issued_after = open_at(second.issued_at + 20_000);
    assert!(matches!(
        siwx().verify(
            &header(&issued_after),
            &player.address(),
            &second,
            std::slice::from_ref(&first),
            Window::At(NOW)
        ),
        Err(SignatureError::Revoked(_))
    ));
    let before_any_rotation = siwx().verify(
        &header(&issued_after),
        &player.address(),
        &first,
        &[],
        Window::At(NOW),
    );
    assert_eq!(before_any_rotation, Ok(()), "an address that never rotated");
}

#[test]
fn a_malformed_header_or_signature_is_invalid() {
    let player = PrivateKeySigner::random();
    let current = generation(0);
    let mut payload = signed(&challenge(&player.address(), &current), &player);
    payload.signature = "0x1234".into();
    assert!(matches!(
        verdict(&payload, &player.address(), &current, NOW),
        Err(SignatureError::Invalid(_))
    ));
    payload.issued_at = "yesterday".into();
    assert!(matches!(
        verdict(&payload, &player.address(), &current, NOW),
        Err(SignatureError::Invalid(_))
    ));
    let refused = siwx().verify("e30=", &player.address(), &current, &[], Window::At(NOW));
    assert!(
        matches!(refused, Err(SignatureError::Invalid(_))),
        "{{}} lacks the fields"
    );
}

#[test]
fn a_lifted_window_still_checks_the_owner_and_the_generation() {
    let player = PrivateKeySigner::random();
    let stranger = PrivateKeySigner::random();
    let (first, second) = (generation(0), generation(1));
    let payload = signed(&challenge(&player.address(), &first), &player);
    let long_after = |current: &Generation, older: &[Generation], who: &PrivateKeySigner| {
        let siwx = siwx();
        let verdict = siwx.verify(
            &header(&payload),
            &who.address(),
            current,
            older,
            Window::Lifted,
        );
        (verdict, siwx.recoveries())
    };
    assert_eq!(long_after(&first, &[], &player), (Ok(()), 1));
    let (other, _) = long_after(&first, &[], &stranger);
    assert!(matches!(other, Err(SignatureError::Mismatch { .. })));
    let (rotated, recovered) = long_after(&second, std::slice::from_ref(&first), &player);
    assert!(matches!(rotated, Err(SignatureError::Revoked(_))));
    assert_eq!(recovered, 0, "refused before any recovery");
    let expired = siwx().verify(
        &header(&payload),
        &player.address(),
        &first,
        &[],
        Window::At(NOW + LIFETIME_MS),
    );
    assert!(matches!(expired, Err(SignatureError::OutOfWindow(_))));
}
