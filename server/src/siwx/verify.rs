//! The checks of a sign-in-with-x payload, each refusal named, time passed in.

use alloy::primitives::{Address, Signature};
use chrono::DateTime;

use super::nonce::{Binding, NonceKey};
use super::wire::{Payload, message};
use super::{CLOCK_TOLERANCE_MS, LIFETIME_MS, Siwx};
use crate::address;
use crate::signatures::{Generation, OLDER_CHECKED, SignatureError, decode_signature};

/// The payload names `address` and this deployment: domain, URI, chain, version and type.
pub fn fields(siwx: &Siwx, payload: &Payload, acting: &Address) -> Result<(), SignatureError> {
    let named = address::parse(&payload.address).ok_or_else(|| {
        SignatureError::Invalid(format!(
            "SIGN-IN-WITH-X: {:?} is not an address",
            payload.address
        ))
    })?;
    if named != *acting {
        return Err(SignatureError::Mismatch {
            claimed: address::display(acting),
            recovered: address::display(&named),
        });
    }
    let foreign = |what: String| Err(SignatureError::Foreign(what));
    if payload.domain != siwx.domain {
        return foreign(format!(
            "domain {:?} is not {:?}",
            payload.domain, siwx.domain
        ));
    }
    if !is_under(&payload.uri, &siwx.uri) {
        return foreign(format!("uri {:?} is not under {:?}", payload.uri, siwx.uri));
    }
    let chain = format!("eip155:{}", siwx.chain_id);
    if payload.chain_id != chain {
        return foreign(format!("chainId {:?} is not {chain:?}", payload.chain_id));
    }
    if payload.version != "1" || payload.kind != "eip191" {
        return foreign("only version 1 and type eip191 are accepted".into());
    }
    if payload
        .signature_scheme
        .as_deref()
        .is_some_and(|s| s != "eip191")
    {
        return foreign("only eip191 (EOA) signatures are accepted".into());
    }
    Ok(())
}

/// `uri` is `base` or a URL below it (not merely a text that starts the same).
fn is_under(uri: &str, base: &str) -> bool {
    uri.strip_prefix(base)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(['/', '?', '#']))
}

/// `now_ms` is inside the payload's window; answers its `issuedAt` in milliseconds.
pub fn window(payload: &Payload, now_ms: i64) -> Result<i64, SignatureError> {
    let issued = millis("issuedAt", &payload.issued_at)?;
    let expires = match &payload.expiration_time {
        Some(text) => millis("expirationTime", text)?,
        None => issued + LIFETIME_MS,
    };
    let late = |why: String| Err(SignatureError::OutOfWindow(why));
    if issued > now_ms + CLOCK_TOLERANCE_MS {
        return late(format!("issuedAt {} is in the future", payload.issued_at));
    }
    if now_ms >= expires || now_ms - issued > LIFETIME_MS {
        return late(format!(
            "the proof issued at {} has expired",
            payload.issued_at
        ));
    }
    if let Some(text) = &payload.not_before
        && now_ms < millis("notBefore", text)?
    {
        return late(format!("notBefore {text} is in the future"));
    }
    Ok(issued)
}

fn millis(field: &str, text: &str) -> Result<i64, SignatureError> {
    DateTime::parse_from_rfc3339(text)
        .map(|time| time.timestamp_millis())
        .map_err(|_| {
            SignatureError::Invalid(format!("SIGN-IN-WITH-X: {field} {text:?} is not RFC 3339"))
        })
}

/// The nonce is this deployment's, for the address's current generation (or the open
/// challenge, issued after the current generation began).
pub fn nonce(
    key: &NonceKey,
    payload: &Payload,
    acting: &Address,
    current: &Generation,
    older: &[Generation],
) -> Result<(), SignatureError> {
    let (at, until) = (
        &payload.issued_at,
        payload.expiration_time.as_deref().unwrap_or(""),
    );
    let issued = |binding| key.issued(&payload.nonce, binding, at, until);
    if issued(Binding::Address(acting, current)) {
        return Ok(());
    }
    let revoked = SignatureError::Revoked(address::display(acting));
    if older
        .iter()
        .take(OLDER_CHECKED)
        .any(|old| issued(Binding::Address(acting, old)))
    {
        return Err(revoked);
    }
    // The open challenge names no address, so no rotation can be bound to it: it proves an
    // address only while that address has never rotated. After a rotation the address asks
    // for its own challenge (no clock compared between instances decides a revocation).
    if issued(Binding::Open) {
        return if current.number == 0 {
            Ok(())
        } else {
            Err(revoked)
        };
    }
    Err(SignatureError::Foreign(format!(
        "nonce {:?} was not issued by this deployment for this address and window",
        payload.nonce
    )))
}

/// The signature of the payload's message recovers to `acting`.
pub fn signature(payload: &Payload, acting: &Address, chain_id: u64) -> Result<(), SignatureError> {
    let bytes = decode_signature(&payload.signature)?;
    let parsed =
        Signature::from_raw_array(&bytes).map_err(|e| SignatureError::Invalid(e.to_string()))?;
    let text = message(payload, &address::display(acting), chain_id);
    let recovered = parsed
        .recover_address_from_msg(text.as_bytes())
        .map_err(|e| SignatureError::Invalid(e.to_string()))?;
    if recovered != *acting {
        return Err(SignatureError::Mismatch {
            claimed: address::display(acting),
            recovered: address::display(&recovered),
        });
    }
    Ok(())
}
