//! Comparing a signed object's parts (domain, primary type's members, message) with the
//! expectation, one readable problem per difference.

use serde_json::Value;

use super::Expected;
use crate::eip712::{Int, TypedData, domain_fields, encode_one, from_hex, parse_fields, show};
use crate::signature::parse_address;

/// A value normalised by its EIP-712 type, for comparing two renderings of it.
#[derive(PartialEq, Eq)]
pub(super) enum Normal {
    Int(Int),
    Bytes(Vec<u8>),
    Bool(bool),
    Text(String),
}

/// `value` read as a `kind`, or `None` when it is not one.
pub(super) fn normalize(kind: &str, value: &Value) -> Option<Normal> {
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

pub(super) fn compare_domain(data: &TypedData, expected: &Expected, problems: &mut Vec<String>) {
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

pub(super) fn compare_type(raw: &Value, expected: &Expected, problems: &mut Vec<String>) {
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

pub(super) fn compare_message(message: &Value, expected: &Expected, problems: &mut Vec<String>) {
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
