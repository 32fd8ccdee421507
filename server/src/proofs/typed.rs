//! The EIP-712 typed data the house signs, as full `{domain, types, primaryType, message}`
//! objects so any library verifies them without knowing these types. Their `types` come from
//! the `sol!` declarations of `arcade-signed-types`; the messages field by field as
//! `docs/proofs.md` lists them: no nulls, no floats, unix seconds, `int256` for the balance
//! change, `bytes32` as `0x` + hex.

use std::sync::LazyLock;

use alloy::sol_types::SolStruct;
use arcade_signed_types::{
    Commitment, Receipt, ReceiptWithHouseAgent, SeedBatch, SignedMarks, members,
};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Value, json};

/// Typed data as the house signs it: `{domain, message, primaryType, types}` (in the order a
/// JSON object of them prints its keys). A kind's types never change, so each kind's are
/// printed once, and copied into every answer as they are.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TypedData {
    pub domain: Value,
    pub message: Value,
    #[serde(rename = "primaryType")]
    pub primary_type: String,
    #[serde(deserialize_with = "printed")]
    pub types: Box<RawValue>,
}

/// Reads any JSON value and prints it: a raw value read straight would fail inside answers
/// that flatten their fields (serde reads those through a buffer of its own).
fn printed<'de, D: serde::Deserializer<'de>>(reader: D) -> Result<Box<RawValue>, D::Error> {
    let value = Value::deserialize(reader)?;
    RawValue::from_string(value.to_string()).map_err(serde::de::Error::custom)
}

impl TypedData {
    /// The same typed data as one JSON value.
    pub fn to_value(&self) -> Value {
        json!({
            "domain": self.domain,
            "message": self.message,
            "primaryType": self.primary_type,
            "types": serde_json::from_str::<Value>(self.types.get()).unwrap_or_default(),
        })
    }
}

/// The `EIP712Domain` fields of every signature.
fn domain_type() -> Value {
    json!([
        { "name": "name", "type": "string" },
        { "name": "version", "type": "string" },
        { "name": "chainId", "type": "uint256" },
    ])
}

/// A signed type's `types`: `EIP712Domain` and its members as `{name, type}`, in the order of
/// its `sol!` declaration.
pub(super) fn types_of<S: SolStruct>() -> Box<RawValue> {
    let encode_type = S::eip712_root_type();
    let fields: Value = members(&encode_type)
        .map(|(kind, name)| json!({ "name": name, "type": kind }))
        .collect();
    let mut types = serde_json::Map::new();
    types.insert("EIP712Domain".into(), domain_type());
    types.insert(S::NAME.into(), fields);
    RawValue::from_string(Value::Object(types).to_string()).unwrap_or_else(|_| unreachable!())
}

pub(super) fn typed(domain: &Value, primary: &str, types: &RawValue, message: Value) -> TypedData {
    TypedData {
        domain: domain.clone(),
        message,
        primary_type: primary.to_owned(),
        types: types.to_owned(),
    }
}

/// `0x` + the hex of a digest or seed.
pub fn bytes32(hex: &str) -> String {
    format!("0x{hex}")
}

/// What the house commits to before it sees the client seed.
#[derive(Debug, Clone)]
pub struct CommitmentMessage<'a> {
    pub round_id: &'a str,
    /// EIP-55.
    pub player: &'a str,
    /// 64 hex.
    pub commitment: &'a str,
    pub batch_id: i64,
    pub index: i64,
    pub fairness_version: u32,
    /// Unix seconds.
    pub created_at: i64,
}

pub fn commitment(domain: &Value, m: &CommitmentMessage<'_>) -> TypedData {
    static TYPES: LazyLock<Box<RawValue>> = LazyLock::new(types_of::<Commitment>);
    typed(
        domain,
        Commitment::NAME,
        &TYPES,
        json!({
            "round_id": m.round_id,
            "player": m.player,
            "commitment": bytes32(m.commitment),
            "batch_id": m.batch_id,
            "index": m.index,
            "fairness_version": m.fairness_version,
            "created_at": m.created_at,
        }),
    )
}

/// Every field that determines a settled round's outcome and payout.
#[derive(Debug, Clone)]
pub struct ReceiptMessage<'a> {
    pub round_id: &'a str,
    pub bet_id: i64,
    pub player: &'a str,
    pub game: &'a str,
    pub commitment: &'a str,
    pub server_seed: &'a str,
    pub client_seed: &'a str,
    pub nonce: i64,
    /// coinflip's call, dice's direction, roulette's bet.
    pub call: &'a str,
    /// dice's target; 0 otherwise.
    pub target: i64,
    /// roulette straight's number, if any.
    pub number: Option<i64>,
    pub wager: i64,
    /// coinflip 1 heads / 0 tails, dice roll in hundredths, roulette pocket.
    pub outcome: i64,
    pub won: bool,
    pub payout: i64,
    pub balance_change: i64,
    pub batch_id: i64,
    pub index: i64,
    pub fairness_version: u32,
    /// Unix seconds.
    pub settled_at: i64,
    /// Played by the house's own agents: signed (the last member) for bets at or above the
    /// signed marks' `house_agent_signed_from`, `None` below it (signed with the type before).
    pub house_agent: Option<bool>,
}

pub fn receipt(domain: &Value, m: &ReceiptMessage<'_>) -> TypedData {
    /// Bets below `house_agent_signed_from`.
    static BEFORE_HOUSE_AGENT: LazyLock<Box<RawValue>> = LazyLock::new(types_of::<Receipt>);
    static WITH_HOUSE_AGENT: LazyLock<Box<RawValue>> =
        LazyLock::new(types_of::<ReceiptWithHouseAgent>);
    let mut message = json!({
        "round_id": m.round_id,
        "bet_id": m.bet_id,
        "player": m.player,
        "game": m.game,
        "commitment": bytes32(m.commitment),
        "server_seed": bytes32(m.server_seed),
        "client_seed": m.client_seed,
        "nonce": m.nonce,
        "call": m.call,
        "target": m.target,
        "has_number": m.number.is_some(),
        "number": m.number.unwrap_or(0),
        "wager": m.wager,
        "outcome": m.outcome,
        "won": m.won,
        "payout": m.payout,
        "balance_change": m.balance_change,
        "batch_id": m.batch_id,
        "index": m.index,
        "fairness_version": m.fairness_version,
        "settled_at": m.settled_at,
    });
    let types: &RawValue = match m.house_agent {
        Some(house_agent) => {
            message["house_agent"] = json!(house_agent);
            &WITH_HOUSE_AGENT
        }
        None => &BEFORE_HOUSE_AGENT,
    };
    typed(domain, Receipt::NAME, types, message)
}

/// The house's signed marks (docs/proofs.md, "Signed marks"): from which bet on every receipt
/// carries its proofs, and from which on it signs `house_agent`.
pub fn signed_marks(domain: &Value, signed_from: i64, house_agent_signed_from: i64) -> TypedData {
    static TYPES: LazyLock<Box<RawValue>> = LazyLock::new(types_of::<SignedMarks>);
    typed(
        domain,
        SignedMarks::NAME,
        &TYPES,
        json!({
            "signed_from": signed_from,
            "house_agent_signed_from": house_agent_signed_from,
        }),
    )
}

/// A batch of seeds, fixed before its first seed is used.
pub fn seed_batch(
    domain: &Value,
    batch_id: i64,
    size: i64,
    merkle_root: &str,
    created_at: i64,
) -> TypedData {
    static TYPES: LazyLock<Box<RawValue>> = LazyLock::new(types_of::<SeedBatch>);
    typed(
        domain,
        SeedBatch::NAME,
        &TYPES,
        json!({
            "batch_id": batch_id,
            "size": size,
            "merkle_root": bytes32(merkle_root),
            "created_at": created_at,
        }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bytes every answer copies: `{name, type}` in declaration order, `EIP712Domain` first.
    #[test]
    fn types_print_as_wallets_read_them() {
        let domain = r#""EIP712Domain":[{"name":"name","type":"string"},{"name":"version","type":"string"},{"name":"chainId","type":"uint256"}]"#;
        assert_eq!(
            types_of::<SignedMarks>().get(),
            format!(
                r#"{{{domain},"SignedMarks":[{{"name":"signed_from","type":"uint256"}},{{"name":"house_agent_signed_from","type":"uint256"}}]}}"#
            )
        );
        let receipt: Value =
            serde_json::from_str(types_of::<ReceiptWithHouseAgent>().get()).unwrap();
        let last = receipt["Receipt"].as_array().unwrap().last().unwrap();
        assert_eq!(last, &json!({ "name": "house_agent", "type": "bool" }));
        assert_eq!(receipt["Receipt"].as_array().unwrap().len(), 22);
    }
}
