//! The member lists of the types the arcade signs (docs/proofs.md).

use serde_json::{Map, Value, json};

use crate::eip712::Field;

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
