//! The member lists of the types the arcade signs, from their `sol!` declarations
//! (`arcade-signed-types`, the ones the server signs with; docs/proofs.md states them).

use serde_json::{Map, Value, json};

use crate::eip712::Field;

pub use arcade_signed_types::RECEIPT_WITH_HOUSE_AGENT;

/// The members of the signed type listed as `name` (as `signedTypes` lists it), or `None` for
/// another name.
pub fn signed_type(name: &str) -> Option<Vec<Field>> {
    let (_, text) = arcade_signed_types::signed_types()
        .into_iter()
        .find(|(listed, _)| *listed == name)?;
    Some(
        arcade_signed_types::members(&text)
            .map(|(kind, name)| Field::new(name, kind))
            .collect(),
    )
}

/// The signed type an expectation of `primary_type` with `message` calls for: for `Receipt`,
/// the one with `house_agent` when the message has it (as `expectedReceiptMessages` gives it
/// at or above the marks), else the one before. `None` for a type the arcade does not sign.
pub fn expected_type(primary_type: &str, message: &Map<String, Value>) -> Option<Vec<Field>> {
    if primary_type == "Receipt" && message.contains_key("house_agent") {
        return signed_type(RECEIPT_WITH_HOUSE_AGENT);
    }
    (primary_type != RECEIPT_WITH_HOUSE_AGENT)
        .then(|| signed_type(primary_type))
        .flatten()
}

/// `{Commitment: [{name, type}, …], Receipt: […], "Receipt+house_agent": […], SeedBatch: […],
/// SignedMarks: […], Play: […]}`.
pub fn signed_types_json() -> Value {
    let mut out = Map::new();
    for (name, _) in arcade_signed_types::signed_types() {
        let fields: Vec<Value> = signed_type(name)
            .unwrap_or_default()
            .iter()
            .map(|f| json!({"name": f.name, "type": f.kind}))
            .collect();
        out.insert(name.to_owned(), Value::Array(fields));
    }
    Value::Object(out)
}
