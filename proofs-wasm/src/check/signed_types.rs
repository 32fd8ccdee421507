//! The member lists of the types the arcade signs (docs/proofs.md).

use serde_json::{Map, Value, json};

use crate::eip712::Field;

/// The name `signedTypes` gives the `Receipt` type of bets at or above the signed marks'
/// `house_agent_signed_from`: EIP-712 names it `Receipt` too, its last member `bool house_agent`.
pub const RECEIPT_WITH_HOUSE_AGENT: &str = "Receipt+house_agent";

/// The types the arcade signs, exactly as docs/proofs.md defines them, each under the name
/// `signedTypes` lists it by: the one place a verifier takes them from.
pub const SIGNED_TYPES: [(&str, &str); 6] = [
    (
        "Commitment",
        "Commitment(string round_id,address player,bytes32 commitment,uint256 batch_id,uint256 index,uint256 fairness_version,uint256 created_at)",
    ),
    (
        "Receipt",
        "Receipt(string round_id,uint256 bet_id,address player,string game,bytes32 commitment,bytes32 server_seed,string client_seed,uint256 nonce,string call,uint256 target,bool has_number,uint256 number,uint256 wager,uint256 outcome,bool won,uint256 payout,int256 balance_change,uint256 batch_id,uint256 index,uint256 fairness_version,uint256 settled_at)",
    ),
    (
        RECEIPT_WITH_HOUSE_AGENT,
        "Receipt(string round_id,uint256 bet_id,address player,string game,bytes32 commitment,bytes32 server_seed,string client_seed,uint256 nonce,string call,uint256 target,bool has_number,uint256 number,uint256 wager,uint256 outcome,bool won,uint256 payout,int256 balance_change,uint256 batch_id,uint256 index,uint256 fairness_version,uint256 settled_at,bool house_agent)",
    ),
    (
        "SeedBatch",
        "SeedBatch(uint256 batch_id,uint256 size,bytes32 merkle_root,uint256 created_at)",
    ),
    (
        "SignedMarks",
        "SignedMarks(uint256 signed_from,uint256 house_agent_signed_from)",
    ),
    // Signed by the player, not the house: the commitment they were shown and their call.
    (
        "Play",
        "Play(string round_id,address player,bytes32 commitment,string game,string client_seed,string call,uint256 target,bool has_number,uint256 number,uint256 wager)",
    ),
];

/// The members of the signed type listed as `name`, or `None` for another name.
pub fn signed_type(name: &str) -> Option<Vec<Field>> {
    let (_, text) = SIGNED_TYPES.iter().find(|(listed, _)| *listed == name)?;
    let inner = &text[text.find('(')? + 1..text.len() - 1];
    Some(
        inner
            .split(',')
            .filter_map(|member| member.split_once(' '))
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
    for (name, _) in SIGNED_TYPES {
        let fields: Vec<Value> = signed_type(name)
            .unwrap_or_default()
            .iter()
            .map(|f| json!({"name": f.name, "type": f.kind}))
            .collect();
        out.insert(name.to_owned(), Value::Array(fields));
    }
    Value::Object(out)
}
