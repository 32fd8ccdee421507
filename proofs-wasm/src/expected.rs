//! The messages the house should have signed, and the `Play` the player should have, built
//! from the JSON answers a player already holds (receipts, commit answers, seed batches, the
//! signed marks), per the mapping tables of docs/proofs.md.

mod calls;
mod marks;
mod play;
mod read;
mod rfc3339;

use serde_json::{Map, Value, json};

use crate::check::RECEIPT_WITH_HOUSE_AGENT;
use crate::error::Error;
use calls::Call;
use read::{address, bytes32, field, seconds, signed, text, unsigned};

pub use marks::{Marks, signed_marks_message};
pub use play::{play_message, play_typed_data};
pub use rfc3339::unix_seconds;

/// `proofs.batch`, or `None` when the round was opened before signing began.
fn batch(answer: &Value) -> Option<&Value> {
    answer
        .get("proofs")
        .and_then(|p| p.get("batch"))
        .filter(|b| !b.is_null())
}

fn commitment_message(answer: &Value, batch: &Value, time_field: &str) -> Result<Value, Error> {
    Ok(json!({
        "round_id": text(answer, "round_id")?,
        "player": address(answer, "address")?,
        "commitment": bytes32(answer, "commitment")?,
        "batch_id": unsigned(batch, "batch_id").map_err(|e| e.at("proofs.batch"))?,
        "index": unsigned(batch, "index").map_err(|e| e.at("proofs.batch"))?,
        "fairness_version": unsigned(answer, "fairness_version")?,
        "created_at": seconds(answer, time_field)?,
    }))
}

/// `{commitment, receipt, play}` for a settled round's receipt (`play`: the `Play` its owner
/// signs, from the receipt's own fields), or `{unsigned: true}` when its `proofs.batch` is null
/// (opened before signing began). With the signed `marks`: a receipt at
/// or above `signed_from` without proofs is an error, not unsigned; at or above
/// `house_agent_signed_from` the `Receipt` message ends with `house_agent`; and the answer names
/// the member list it is signed with, `receipt_type` (`Receipt` or `Receipt+house_agent`, as
/// `signedTypes` lists them). Without marks, every receipt is read as before them.
pub fn receipt_messages(receipt: &Value, marks: Option<Marks>) -> Result<Value, Error> {
    if !receipt.is_object() {
        return Err(Error::input("the receipt is not an object"));
    }
    let Some(batch) = batch(receipt) else {
        if let Some(marks) = marks {
            let bet_id = unsigned(receipt, "bet_id")?;
            if bet_id >= marks.signed_from {
                return Err(Error::input(format!(
                    "bet {bet_id} carries no proofs, but every bet from {} on must (the signed marks' signed_from)",
                    marks.signed_from
                )));
            }
        }
        return Ok(json!({"unsigned": true}));
    };
    let commitment = commitment_message(receipt, batch, "committed_at")?;
    let game = text(receipt, "game")?;
    let bet = Bet::of(receipt, game)?;
    let mut message = receipt_message(receipt, &commitment, game, &bet)?;
    let play = play_message(receipt)?;
    let Some(marks) = marks else {
        return Ok(json!({"commitment": commitment, "receipt": message, "play": play}));
    };
    let receipt_type = if unsigned(receipt, "bet_id")? >= marks.house_agent_signed_from {
        let house_agent = field(receipt, "house_agent")?
            .as_bool()
            .ok_or_else(|| Error::input("house_agent is not true or false"))?;
        message.insert("house_agent".to_owned(), house_agent.into());
        RECEIPT_WITH_HOUSE_AGENT
    } else {
        "Receipt"
    };
    Ok(
        json!({"commitment": commitment, "receipt": message, "receipt_type": receipt_type, "play": play}),
    )
}

/// The game-specific members of a `Receipt`: the call and its outcome.
struct Bet<'a> {
    call: Call<'a>,
    outcome: u64,
}

impl<'a> Bet<'a> {
    fn of(receipt: &'a Value, game: &str) -> Result<Self, Error> {
        Ok(Self {
            call: Call::of(receipt, game)?,
            outcome: calls::outcome(receipt, game)?,
        })
    }
}

/// The `Receipt` message, its shared members taken from the `Commitment` one.
fn receipt_message(
    receipt: &Value,
    commitment: &Value,
    game: &str,
    bet: &Bet<'_>,
) -> Result<Map<String, Value>, Error> {
    let nonce = match field(receipt, "nonce") {
        Ok(_) => unsigned(receipt, "nonce")?,
        Err(_) => 0,
    };
    let won = field(receipt, "won")?
        .as_bool()
        .ok_or_else(|| Error::input("won is not true or false"))?;
    let mut message = Map::new();
    let mut put = |key: &str, value: Value| {
        message.insert(key.to_owned(), value);
    };
    put("round_id", commitment["round_id"].clone());
    put("bet_id", unsigned(receipt, "bet_id")?.into());
    put("player", commitment["player"].clone());
    put("game", game.into());
    put("commitment", commitment["commitment"].clone());
    put("server_seed", bytes32(receipt, "server_seed")?.into());
    put("client_seed", text(receipt, "client_seed")?.into());
    put("nonce", nonce.into());
    put("call", bet.call.call.into());
    put("target", bet.call.target.into());
    put("has_number", bet.call.number.is_some().into());
    put("number", bet.call.number.unwrap_or(0).into());
    put("wager", unsigned(receipt, "wager")?.into());
    put("outcome", bet.outcome.into());
    put("won", won.into());
    put("payout", unsigned(receipt, "payout")?.into());
    put("balance_change", signed(receipt, "profit")?.into());
    put("batch_id", commitment["batch_id"].clone());
    put("index", commitment["index"].clone());
    put("fairness_version", commitment["fairness_version"].clone());
    put("settled_at", seconds(receipt, "settled_at")?.into());
    Ok(message)
}

/// The `Commitment` message of a commit answer (`POST /api/arcade/commit`), or
/// `{unsigned: true}` when its `proofs.batch` is null.
pub fn commit_message(answer: &Value) -> Result<Value, Error> {
    if !answer.is_object() {
        return Err(Error::input("the commit answer is not an object"));
    }
    match batch(answer) {
        None => Ok(json!({"unsigned": true})),
        Some(batch) => commitment_message(answer, batch, "created_at"),
    }
}

/// The `SeedBatch` message of a published batch (`GET /api/arcade/seed-batches`).
pub fn seed_batch_message(batch: &Value) -> Result<Value, Error> {
    if !batch.is_object() {
        return Err(Error::input("the seed batch is not an object"));
    }
    Ok(json!({
        "batch_id": unsigned(batch, "batch_id")?,
        "size": unsigned(batch, "size")?,
        "merkle_root": bytes32(batch, "merkle_root")?,
        "created_at": seconds(batch, "created_at")?,
    }))
}

#[cfg(test)]
mod play_tests;
#[cfg(test)]
mod tests;
