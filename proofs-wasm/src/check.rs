//! `checkSigned`: a signed object (`{signature, typed_data}`) against what a verifier expects
//! (`{signer, domain, primaryType, message}`), with one readable problem per difference.

use serde_json::{Map, Value, json};

use crate::eip712::{
    Field, Int, TypedData, domain_fields, encode_one, from_hex, parse_fields, quote, show,
};
use crate::error::Error;
use crate::signature::{checksum, parse_address, recover};

/// The types the arcade signs, exactly as docs/proofs.md defines them: the one place a
/// verifier takes them from.
pub const SIGNED_TYPES: [&str; 3] = [
    "Commitment(string round_id,address player,bytes32 commitment,uint256 batch_id,uint256 index,uint256 fairness_version,uint256 created_at)",
    "Receipt(string round_id,uint256 bet_id,address player,string game,bytes32 commitment,bytes32 server_seed,string client_seed,uint256 nonce,string call,uint256 target,bool has_number,uint256 number,uint256 wager,uint256 outcome,bool won,uint256 payout,int256 balance_change,uint256 batch_id,uint256 index,uint256 fairness_version,uint256 settled_at)",
    "SeedBatch(uint256 batch_id,uint256 size,bytes32 merkle_root,uint256 created_at)",
];

/// The members of one of the signed types, or `None` for another name.
pub fn signed_type(name: &str) -> Option<Vec<Field>> {
    let text = SIGNED_TYPES.iter().find(|t| {
        t.strip_prefix(name)
            .is_some_and(|rest| rest.starts_with('('))
    })?;
    let inner = &text[name.len() + 1..text.len() - 1];
    Some(
        inner
            .split(',')
            .filter_map(|member| member.split_once(' '))
            .map(|(kind, name)| Field::new(name, kind))
            .collect(),
    )
}

/// `{Commitment: [{name, type}, …], Receipt: […], SeedBatch: […]}`.
pub fn signed_types_json() -> Value {
    let mut out = Map::new();
    for name in ["Commitment", "Receipt", "SeedBatch"] {
        let fields: Vec<Value> = signed_type(name)
            .unwrap_or_default()
            .iter()
            .map(|f| json!({"name": f.name, "type": f.kind}))
            .collect();
        out.insert(name.to_owned(), Value::Array(fields));
    }
    Value::Object(out)
}

/// A value normalised by its EIP-712 type, for comparing two renderings of it.
#[derive(PartialEq, Eq)]
enum Normal {
    Int(Int),
    Bytes(Vec<u8>),
    Bool(bool),
    Text(String),
}

fn normalize(kind: &str, value: &Value) -> Option<Normal> {
    match kind {
        "string" => value.as_str().map(|s| Normal::Text(s.to_owned())),
        "bool" => value.as_bool().map(Normal::Bool),
        "address" => value
            .as_str()
            .and_then(parse_address)
            .map(|a| Normal::Bytes(a.to_vec())),
        k if k.starts_with("bytes") => value
            .as_str()
            .and_then(|s| from_hex(s).ok())
            .map(Normal::Bytes),
        _ => Int::from_json(value).ok().map(Normal::Int),
    }
}

/// A message value for a problem: strings quoted for `string` members only (`1024`, not
/// `"1024"`, for an integer given as a decimal string; addresses and hex bare).
fn show_as(kind: &str, value: &Value) -> String {
    match value {
        Value::String(text) if kind != "string" && text.chars().count() <= 80 => text.clone(),
        other => show(other),
    }
}

/// The standard type of a domain member.
fn domain_kind(key: &str) -> Option<&'static str> {
    match key {
        "name" | "version" => Some("string"),
        "chainId" => Some("uint256"),
        "verifyingContract" => Some("address"),
        "salt" => Some("bytes32"),
        _ => None,
    }
}

/// Domain values are compared as their standard type says when they have one, else as JSON.
fn domain_equal(key: &str, signed: &Value, expected: &Value) -> bool {
    let Some(kind) = domain_kind(key) else {
        return signed == expected;
    };
    match (normalize(kind, signed), normalize(kind, expected)) {
        (Some(a), Some(b)) => a == b,
        _ => signed == expected,
    }
}

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
        let fields = signed_type(&primary_type).ok_or_else(|| {
            Error::input(format!(
                "expected.primaryType is {}, not Commitment, Receipt or SeedBatch",
                quote(&primary_type)
            ))
        })?;
        let message = value
            .get("message")
            .and_then(Value::as_object)
            .ok_or_else(|| Error::input("expected.message is not an object"))?
            .clone();
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

fn check_into(signed: &Value, expected: &Expected, problems: &mut Vec<String>) -> Option<String> {
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
                problems.push(format!(
                    "signed by {recovered}, not the manifest's signer {}",
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

fn compare_domain(data: &TypedData, expected: &Expected, problems: &mut Vec<String>) {
    for (key, want) in &expected.domain {
        match data.domain.get(key) {
            None => problems.push(format!("domain.{key} is missing, expected {}", show(want))),
            Some(got) if !domain_equal(key, got, want) => {
                problems.push(format!(
                    "domain.{key} is {}, expected {}",
                    show(got),
                    show(want)
                ));
            }
            Some(_) => {}
        }
    }
    for (key, got) in &data.domain {
        if !expected.domain.contains_key(key) {
            problems.push(format!(
                "domain.{key} is {}, the expected domain has no {key}",
                show_as(domain_kind(key).unwrap_or("string"), got)
            ));
        }
    }
    // The domain is hashed with this type: a different member list (order included) signs a
    // different domain than the values shown.
    let standard = domain_fields(&expected.domain);
    let given = data
        .types
        .iter()
        .find(|(name, _)| name == "EIP712Domain")
        .map(|(_, fields)| fields.as_slice())
        .unwrap_or_default();
    if given != standard.as_slice() {
        problems.push(format!(
            "types.EIP712Domain is {}, expected {}",
            encode_one("EIP712Domain", given),
            encode_one("EIP712Domain", &standard)
        ));
    }
}

fn compare_type(raw: &Value, expected: &Expected, problems: &mut Vec<String>) {
    let name = &expected.primary_type;
    let place = format!("types.{name}");
    let Some(given) = raw.get("types").and_then(|t| t.get(name)) else {
        problems.push(format!("{place} is missing"));
        return;
    };
    let Ok(given) = parse_fields(given) else {
        problems.push(format!("{place} is not a list of {{name, type}}"));
        return;
    };
    if given == expected.fields {
        return;
    }
    let mut found_difference = false;
    for want in &expected.fields {
        match given.iter().find(|f| f.name == want.name) {
            None => {
                problems.push(format!("{place} has no {} ({})", want.name, want.kind));
                found_difference = true;
            }
            Some(got) if got.kind != want.kind => {
                problems.push(format!(
                    "{place}.{} is {}, expected {}",
                    want.name, got.kind, want.kind
                ));
                found_difference = true;
            }
            Some(_) => {}
        }
    }
    for got in &given {
        if !expected.fields.iter().any(|f| f.name == got.name) {
            problems.push(format!(
                "{place} has an unexpected member {} ({})",
                got.name, got.kind
            ));
            found_difference = true;
        }
    }
    if !found_difference {
        problems.push(format!(
            "{place} is {}, expected {} (members in another order or repeated)",
            encode_one(name, &given),
            encode_one(name, &expected.fields)
        ));
    }
}

fn compare_message(message: &Value, expected: &Expected, problems: &mut Vec<String>) {
    let Some(message) = message.as_object() else {
        problems.push(format!("message is {}, not an object", show(message)));
        return;
    };
    for field in &expected.fields {
        let want = &expected.message[&field.name];
        let Some(got) = message.get(&field.name) else {
            problems.push(format!(
                "message.{} is missing, expected {}",
                field.name,
                show_as(&field.kind, want)
            ));
            continue;
        };
        let same = match (normalize(&field.kind, got), normalize(&field.kind, want)) {
            (Some(a), Some(b)) => a == b,
            _ => false,
        };
        if !same {
            problems.push(format!(
                "message.{} is {}, expected {}",
                field.name,
                show_as(&field.kind, got),
                show_as(&field.kind, want)
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eip712::{keccak, to_hex, typed_data_hash};
    use k256::ecdsa::SigningKey;

    fn key(seed: &[u8]) -> SigningKey {
        SigningKey::from_slice(&keccak(seed)).unwrap()
    }

    fn domain() -> Value {
        json!({"name": "Provably Fair Arcade", "version": "1", "chainId": 31337})
    }

    fn batch_message() -> Value {
        json!({"batch_id": 3, "size": 1024, "merkle_root": format!("0x{}", "ab".repeat(32)), "created_at": 1_795_428_000})
    }

    fn typed(message: &Value) -> Value {
        json!({
            "domain": domain(),
            "types": {
                "EIP712Domain": [
                    {"name": "name", "type": "string"},
                    {"name": "version", "type": "string"},
                    {"name": "chainId", "type": "uint256"}
                ],
                "SeedBatch": signed_types_json()["SeedBatch"],
            },
            "primaryType": "SeedBatch",
            "message": message,
        })
    }

    fn sign(key: &SigningKey, typed: &Value) -> Value {
        let hash = typed_data_hash(typed).unwrap();
        let (sig, recid) = key.sign_prehash_recoverable(&hash).unwrap();
        json!({
            "signature": format!("0x{}{:02x}", to_hex(&sig.to_bytes()), 27 + recid.to_byte()),
            "typed_data": typed,
        })
    }

    fn expected(signer: &SigningKey) -> Value {
        json!({
            "signer": checksum(&crate::signature::address_of(signer.verifying_key().as_affine())).to_lowercase(),
            "domain": domain(),
            "primaryType": "SeedBatch",
            "message": batch_message(),
        })
    }

    fn problems(report: &Value) -> Vec<String> {
        report["problems"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap().to_owned())
            .collect()
    }

    #[test]
    fn a_right_signature_is_valid() {
        let house = key(b"house");
        let report =
            check_signed(&sign(&house, &typed(&batch_message())), &expected(&house)).unwrap();
        assert_eq!(report["valid"], json!(true), "{report}");
        assert_eq!(
            report["recovered"],
            json!(checksum(&crate::signature::address_of(
                house.verifying_key().as_affine()
            )))
        );
    }

    #[test]
    fn a_wrong_signer_is_named() {
        let house = key(b"house");
        let report = check_signed(
            &sign(&key(b"mallory"), &typed(&batch_message())),
            &expected(&house),
        )
        .unwrap();
        assert_eq!(report["valid"], json!(false));
        let problems = problems(&report);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].starts_with("signed by 0x"), "{problems:?}");
        assert!(
            problems[0].contains("not the manifest's signer"),
            "{problems:?}"
        );
    }

    #[test]
    fn a_tampered_field_is_named_and_breaks_the_signature() {
        let house = key(b"house");
        let mut signed = sign(&house, &typed(&batch_message()));
        signed["typed_data"]["message"]["size"] = json!(2048);
        let report = check_signed(&signed, &expected(&house)).unwrap();
        let problems = problems(&report);
        assert!(
            problems.contains(&"message.size is 2048, expected 1024".to_owned()),
            "{problems:?}"
        );
        assert!(
            problems.iter().any(|p| p.starts_with("signed by")),
            "{problems:?}"
        );
    }

    #[test]
    fn numbers_as_strings_and_address_case_compare_equal() {
        let house = key(b"house");
        let mut message = batch_message();
        message["batch_id"] = json!("3");
        message["merkle_root"] = json!(format!("0x{}", "AB".repeat(32)));
        let report = check_signed(&sign(&house, &typed(&message)), &expected(&house)).unwrap();
        assert_eq!(report["valid"], json!(true), "{report}");
    }

    #[test]
    fn a_wrong_domain_and_type_are_named() {
        let house = key(b"house");
        let mut data = typed(&batch_message());
        data["domain"]["chainId"] = json!(1);
        data["types"]["SeedBatch"][1]["type"] = json!("uint64");
        let report = check_signed(&sign(&house, &data), &expected(&house)).unwrap();
        let problems = problems(&report);
        assert_eq!(
            problems,
            vec![
                "domain.chainId is 1, expected 31337".to_owned(),
                "types.SeedBatch.size is uint64, expected uint256".to_owned(),
            ]
        );
    }

    #[test]
    fn unsigned_and_bad_expectations() {
        let house = key(b"house");
        let report = check_signed(&Value::Null, &expected(&house)).unwrap();
        assert_eq!(report["valid"], json!(false));
        assert_eq!(report["recovered"], Value::Null);
        let mut bad = expected(&house);
        bad["primaryType"] = json!("Mail");
        assert!(check_signed(&Value::Null, &bad).is_err());
        let mut bad = expected(&house);
        bad["message"].as_object_mut().unwrap().remove("size");
        assert!(check_signed(&Value::Null, &bad).is_err());
    }

    #[test]
    fn signed_types_parse() {
        assert_eq!(signed_type("Receipt").unwrap().len(), 21);
        assert_eq!(signed_type("Commitment").unwrap().len(), 7);
        assert_eq!(
            signed_type("SeedBatch").unwrap()[2],
            Field::new("merkle_root", "bytes32")
        );
        assert!(signed_type("Seed").is_none());
    }
}
