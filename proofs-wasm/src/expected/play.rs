//! The `Play` the player signs (docs/proofs.md): the round, the commitment they were shown and
//! their call, before the outcome exists. Built from the same keys whether they come from the
//! call a client is about to send or from the receipt of the round played, so what a client
//! signs is exactly what a verifier rebuilds.

use serde_json::{Map, Value, json};

use super::calls::Call;
use super::read::{bytes32, text, unsigned};
use crate::eip712::{domain_fields, show, typed_data_hash};
use crate::error::Error;
use crate::signature::{checksum, parse_address};

/// The `Play` message of `{round_id, address, commitment, game, client_seed, wager, params}`:
/// a receipt, or the call a client fills in before playing. `player` in EIP-55.
pub fn play_message(answer: &Value) -> Result<Value, Error> {
    if !answer.is_object() {
        return Err(Error::input("the play is not an object"));
    }
    let raw = text(answer, "address")?;
    let player = parse_address(raw).ok_or_else(|| {
        Error::input(format!(
            "address is {}, not a full address (0x + 40 hex)",
            show(&Value::from(raw))
        ))
    })?;
    let game = text(answer, "game")?;
    let call = Call::of(answer, game)?;
    Ok(json!({
        "round_id": text(answer, "round_id")?,
        "player": checksum(&player),
        "commitment": bytes32(answer, "commitment")?,
        "game": game,
        "client_seed": text(answer, "client_seed")?,
        "call": call.call,
        "target": call.target,
        "has_number": call.number.is_some(),
        "number": call.number.unwrap_or(0),
        "wager": unsigned(answer, "wager")?,
    }))
}

/// The full typed data `{domain, types, primaryType: "Play", message}` the player signs for a
/// call, in the house's `domain` (the manifest's `signing_domain`).
pub fn play_typed_data(call: &Value, domain: &Value) -> Result<Value, Error> {
    let domain = domain.as_object().ok_or_else(|| {
        Error::input("the domain is not an object (the manifest's signing_domain)")
    })?;
    let standard = domain_fields(domain);
    if let Some(key) = domain
        .keys()
        .find(|k| !standard.iter().any(|f| &f.name == *k))
    {
        return Err(Error::input(format!(
            "domain.{key} is not a member of an EIP-712 domain"
        )));
    }
    let members = |fields: &[crate::eip712::Field]| -> Value {
        fields
            .iter()
            .map(|f| json!({"name": f.name, "type": f.kind}))
            .collect()
    };
    let play = crate::check::signed_type("Play").unwrap_or_default();
    let mut types = Map::new();
    types.insert("EIP712Domain".to_owned(), members(&standard));
    types.insert("Play".to_owned(), members(&play));
    let typed = json!({
        "domain": domain,
        "types": types,
        "primaryType": "Play",
        "message": play_message(call)?,
    });
    // Hashed once here, so a domain a wallet could not sign is refused before it is asked to.
    typed_data_hash(&typed).map_err(|e| Error::input(format!("the domain: {}", e.message)))?;
    Ok(typed)
}
