//! `checkSigned`: a signed object (`{signature, typed_data}`) against what a verifier expects
//! (`{signer, domain, primaryType, message}`), with one readable problem per difference. The
//! member list expected is the signed type's (`signed_types.rs`); for `Receipt`, the one with
//! `house_agent` when the expected message has that member.

mod compare;
mod signed_types;

use serde_json::{Map, Value, json};

use crate::eip712::{Field, TypedData, quote, show};
use crate::error::Error;
use crate::signature::{checksum, parse_address, recover};
use compare::{compare_domain, compare_message, compare_type, normalize};

pub use signed_types::{RECEIPT_WITH_HOUSE_AGENT, expected_type, signed_type, signed_types_json};

/// What the caller expects.
struct Expected {
    signer: [u8; 20],
    domain: Map<String, Value>,
    primary_type: String,
    fields: Vec<Field>,
    message: Map<String, Value>,
}

impl Expected {
    fn from_json(value: &Value) -> Result<Self, Error> {
        let signer = value
            .get("signer")
            .and_then(Value::as_str)
            .and_then(parse_address)
            .ok_or_else(|| Error::input("expected.signer is not an address"))?;
        let domain = value
            .get("domain")
            .and_then(Value::as_object)
            .ok_or_else(|| Error::input("expected.domain is not an object"))?
            .clone();
        let primary_type = value
            .get("primaryType")
            .and_then(Value::as_str)
            .ok_or_else(|| Error::input("expected.primaryType is not a string"))?
            .to_owned();
        let message = value
            .get("message")
            .and_then(Value::as_object)
            .ok_or_else(|| Error::input("expected.message is not an object"))?
            .clone();
        let fields = expected_type(&primary_type, &message).ok_or_else(|| {
            Error::input(format!(
                "expected.primaryType is {}, not Commitment, Receipt, SeedBatch, SignedMarks or Play",
                quote(&primary_type)
            ))
        })?;
        for field in &fields {
            let v = message
                .get(&field.name)
                .ok_or_else(|| Error::input(format!("expected.message has no {}", field.name)))?;
            if normalize(&field.kind, v).is_none() {
                return Err(Error::input(format!(
                    "expected.message.{} is {}, not a {}",
                    field.name,
                    show(v),
                    field.kind
                )));
            }
        }
        Ok(Self {
            signer,
            domain,
            primary_type,
            fields,
            message,
        })
    }
}

/// The report: `{valid, recovered, problems}`.
pub fn check_signed(signed: &Value, expected: &Value) -> Result<Value, Error> {
    let expected = Expected::from_json(expected)?;
    let mut problems: Vec<String> = Vec::new();
    let recovered = check_into(signed, &expected, &mut problems);
    Ok(json!({
        "valid": problems.is_empty(),
        "recovered": recovered,
        "problems": problems,
    }))
}

/// Every difference between `signed` and `expected` into `problems`; the signer recovered, if
/// any.
fn check_into(signed: &Value, expected: &Expected, problems: &mut Vec<String>) -> Option<String> {
    let (object, raw, data) = read_signed(signed, problems)?;
    compare_domain(&data, expected, problems);
    if data.primary_type != expected.primary_type {
        problems.push(format!(
            "primaryType is {}, expected {}",
            quote(&data.primary_type),
            quote(&expected.primary_type)
        ));
    }
    compare_type(raw, expected, problems);
    compare_message(&data.message, expected, problems);
    recover_signer(object, &data, expected, problems)
}

/// The signed object's members, its raw `typed_data` and that parsed; or the problem that
/// stops the check.
fn read_signed<'a>(
    signed: &'a Value,
    problems: &mut Vec<String>,
) -> Option<(&'a Map<String, Value>, &'a Value, TypedData)> {
    let Some(object) = signed.as_object() else {
        problems.push(format!(
            "not a signed object ({{signature, typed_data}}): {}",
            show(signed)
        ));
        return None;
    };
    let Some(raw) = object.get("typed_data") else {
        problems.push("typed_data is missing".to_owned());
        return None;
    };
    let data = match TypedData::from_json(raw) {
        Ok(data) => data,
        Err(e) => {
            problems.push(format!("typed_data: {}", e.message));
            return None;
        }
    };
    Some((object, raw, data))
}

/// Who signed the typed data (checksummed), with a problem when it is not the signer expected;
/// or the problem that stops the recovery.
fn recover_signer(
    object: &Map<String, Value>,
    data: &TypedData,
    expected: &Expected,
    problems: &mut Vec<String>,
) -> Option<String> {
    let hash = match data.signing_hash() {
        Ok(hash) => hash,
        Err(e) => {
            problems.push(format!("typed_data cannot be hashed: {}", e.message));
            return None;
        }
    };
    let Some(signature) = object.get("signature").and_then(Value::as_str) else {
        problems.push("signature is missing or not a string".to_owned());
        return None;
    };
    match recover(&hash, signature) {
        Ok(address) => {
            let recovered = checksum(&address);
            if address != expected.signer {
                // The player signs a Play; the house (the manifest's signer) everything else.
                let whose = if expected.primary_type == "Play" {
                    "the round's player"
                } else {
                    "the manifest's signer"
                };
                problems.push(format!(
                    "signed by {recovered}, not {whose} {}",
                    checksum(&expected.signer)
                ));
            }
            Some(recovered)
        }
        Err(e) => {
            problems.push(format!("signature: {}", e.message));
            None
        }
    }
}

#[cfg(test)]
mod tests;
