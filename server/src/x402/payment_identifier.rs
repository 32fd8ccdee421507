//! The x402 `payment-identifier` extension: a client's idempotency key for a payment. The 402
//! declares it (`declaration`, optional); a payment carries it in
//! `extensions["payment-identifier"].info.id`, 16 to 128 characters of `[A-Za-z0-9_-]`.
//! The same key with the same payment gets the original answer; with another payment, a
//! conflict. A payment is told apart by its fingerprint: keccak-256 of the signed
//! authorization and its signature.

use alloy::primitives::keccak256;
use serde_json::{Value, json};

use super::wire::PaymentPayload;

/// The extension's key in `extensions`.
pub const PAYMENT_IDENTIFIER: &str = "payment-identifier";
pub const MIN_LENGTH: usize = 16;
pub const MAX_LENGTH: usize = 128;

/// The extension as the 402 declares it: `{info: {required: false}, schema}`, the schema the
/// official packages publish.
pub fn declaration() -> Value {
    json!({
        "info": { "required": false },
        "schema": {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {
                "required": { "type": "boolean" },
                "id": {
                    "type": "string",
                    "minLength": MIN_LENGTH,
                    "maxLength": MAX_LENGTH,
                    "pattern": "^[a-zA-Z0-9_-]+$"
                }
            },
            "required": ["required"]
        }
    })
}

/// The key a payment's JSON carries: `None` without one, an error naming what is wrong with a
/// malformed one (not a string, the wrong length, a character outside the set).
pub fn identifier(payment: &Value) -> Result<Option<String>, String> {
    let Some(extension) = payment
        .get("extensions")
        .and_then(|extensions| extensions.get(PAYMENT_IDENTIFIER))
    else {
        return Ok(None);
    };
    let Some(id) = extension.get("info").and_then(|info| info.get("id")) else {
        return Ok(None);
    };
    let Value::String(id) = id else {
        return Err(format!("the payment identifier must be a string, not {id}"));
    };
    if !(MIN_LENGTH..=MAX_LENGTH).contains(&id.len()) {
        return Err(format!(
            "the payment identifier has {} characters; it must have {MIN_LENGTH} to {MAX_LENGTH}",
            id.len()
        ));
    }
    if let Some(bad) = id
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '-' || *c == '_'))
    {
        return Err(format!(
            "the payment identifier holds {bad:?}; only letters, digits, '-' and '_' are allowed"
        ));
    }
    Ok(Some(id.clone()))
}

/// What tells one payment from another under the same key: the authorization's fields and
/// its signature, hashed (0x-hex).
pub fn fingerprint(payment: &PaymentPayload) -> String {
    let auth = &payment.payload.authorization;
    let signed = [
        auth.from.as_str(),
        auth.to.as_str(),
        auth.value.as_str(),
        auth.valid_after.as_str(),
        auth.valid_before.as_str(),
        auth.nonce.as_str(),
        payment.payload.signature.as_str(),
    ]
    .map(str::to_ascii_lowercase)
    .join("|");
    keccak256(signed.as_bytes()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_id(id: Value) -> Value {
        json!({"extensions": {PAYMENT_IDENTIFIER: {"info": {"required": false, "id": id}}}})
    }

    #[test]
    fn reads_a_well_formed_key_and_names_what_is_wrong_with_others() {
        let good = "pay_7d5d747be160e280504c099d984bcfe0";
        assert_eq!(identifier(&with_id(json!(good))), Ok(Some(good.into())));
        assert_eq!(identifier(&json!({"x402Version": 2})), Ok(None));
        assert_eq!(
            identifier(&with_id(json!("a".repeat(16)))),
            Ok(Some("a".repeat(16)))
        );
        assert_eq!(
            identifier(&with_id(json!("a".repeat(128))))
                .unwrap()
                .unwrap()
                .len(),
            128
        );
        for (bad, says) in [
            (json!("short_id"), "8 characters"),
            (json!("a".repeat(129)), "129 characters"),
            (json!("pay_abc!@#defghijklmnop"), "'!'"),
            (json!(12345678901234567_u64), "must be a string"),
        ] {
            let error = identifier(&with_id(bad)).unwrap_err();
            assert!(error.contains(says), "{error}");
        }
    }

    #[test]
    fn the_declaration_is_optional_and_bounds_the_id() {
        let declared = declaration();
        assert_eq!(declared["info"], json!({"required": false}));
        assert_eq!(declared["schema"]["properties"]["id"]["minLength"], 16);
        assert_eq!(declared["schema"]["properties"]["id"]["maxLength"], 128);
    }
}
