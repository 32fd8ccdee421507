//! The messages the house should have signed, built from the JSON answers a player already
//! holds (receipts, commit answers, seed batches), per the mapping tables of docs/proofs.md.

use serde_json::{Map, Value, json};

use crate::eip712::{quote, show};
use crate::error::Error;

fn field<'a>(object: &'a Value, path: &str) -> Result<&'a Value, Error> {
    let mut value = object;
    for key in path.split('.') {
        value = value
            .get(key)
            .filter(|v| !v.is_null())
            .ok_or_else(|| Error::input(format!("{path} is missing")))?;
    }
    Ok(value)
}

fn text<'a>(object: &'a Value, path: &str) -> Result<&'a str, Error> {
    let value = field(object, path)?;
    value
        .as_str()
        .ok_or_else(|| Error::input(format!("{path} is {}, not a string", show(value))))
}

fn unsigned(object: &Value, path: &str) -> Result<u64, Error> {
    let value = field(object, path)?;
    value.as_u64().ok_or_else(|| {
        Error::input(format!(
            "{path} is {}, not a non-negative integer",
            show(value)
        ))
    })
}

fn signed(object: &Value, path: &str) -> Result<i64, Error> {
    let value = field(object, path)?;
    value
        .as_i64()
        .ok_or_else(|| Error::input(format!("{path} is {}, not an integer", show(value))))
}

/// `0x` + the 64 lowercase hex digits of a hash or seed (given with or without `0x`).
fn bytes32(object: &Value, path: &str) -> Result<String, Error> {
    let raw = text(object, path)?;
    let digits = raw.strip_prefix("0x").unwrap_or(raw);
    if digits.len() != 64 || !digits.bytes().all(|c| c.is_ascii_hexdigit()) {
        return Err(Error::input(format!(
            "{path} is {}, not 64 hex digits",
            show(&Value::from(raw))
        )));
    }
    Ok(format!("0x{}", digits.to_ascii_lowercase()))
}

fn address(object: &Value, path: &str) -> Result<String, Error> {
    let raw = text(object, path)?;
    if crate::signature::parse_address(raw).is_none() {
        return Err(Error::input(format!(
            "{path} is {}, not a full address (0x + 40 hex)",
            show(&Value::from(raw))
        )));
    }
    Ok(raw.to_owned())
}

/// An RFC 3339 time (`2026-11-23T10:00:00.000Z`, `…+02:00`) in unix seconds, fractions dropped.
pub fn unix_seconds(time: &str) -> Option<u64> {
    let b = time.as_bytes();
    let num = |range: core::ops::Range<usize>| -> Option<i64> {
        let part = b.get(range)?;
        part.iter().all(u8::is_ascii_digit).then_some(())?;
        core::str::from_utf8(part).ok()?.parse().ok()
    };
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || b[13] != b':' || b[16] != b':' {
        return None;
    }
    if !matches!(b[10], b'T' | b't' | b' ') {
        return None;
    }
    let (year, month, day) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (hour, minute, second) = (num(11..13)?, num(14..16)?, num(17..19)?);
    let mut rest = 19;
    if b[rest] == b'.' {
        rest += 1;
        let start = rest;
        while b.get(rest).is_some_and(u8::is_ascii_digit) {
            rest += 1;
        }
        if rest == start {
            return None;
        }
    }
    let offset = match b.get(rest..)? {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), _, _, b':', _, _] => {
            let minutes = num(rest + 1..rest + 3)? * 60 + num(rest + 4..rest + 6)?;
            if *sign == b'+' {
                minutes * 60
            } else {
                -minutes * 60
            }
        }
        _ => return None,
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days_in_month = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    if !(1..=12).contains(&month)
        || day < 1
        || day > days_in_month[usize::try_from(month - 1).ok()?]
        || hour > 23
        || minute > 59
        || second > 60
    {
        return None;
    }
    // Days from the civil date (Howard Hinnant's algorithm).
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    u64::try_from(days * 86_400 + hour * 3600 + minute * 60 + second - offset).ok()
}

fn seconds(object: &Value, path: &str) -> Result<u64, Error> {
    let raw = text(object, path)?;
    unix_seconds(raw).ok_or_else(|| {
        Error::input(format!(
            "{path} is {}, not an RFC 3339 time after 1970",
            show(&Value::from(raw))
        ))
    })
}

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

/// `{commitment, receipt}` for a settled round's receipt, or `{unsigned: true}` when its
/// `proofs.batch` is null (opened before signing began).
pub fn receipt_messages(receipt: &Value) -> Result<Value, Error> {
    if !receipt.is_object() {
        return Err(Error::input("the receipt is not an object"));
    }
    let Some(batch) = batch(receipt) else {
        return Ok(json!({"unsigned": true}));
    };
    let commitment = commitment_message(receipt, batch, "committed_at")?;

    let game = text(receipt, "game")?;
    let (call, target, number, outcome) = match game {
        "coinflip" => {
            let outcome = match text(receipt, "result.outcome")? {
                "heads" => 1,
                "tails" => 0,
                other => {
                    return Err(Error::input(format!(
                        "result.outcome is {}, not heads or tails",
                        quote(other)
                    )));
                }
            };
            (text(receipt, "params.call")?, 0, None, outcome)
        }
        "dice" => {
            // The direction defaults to under, as in the fairness core.
            let direction = match field(receipt, "params.direction") {
                Ok(_) => text(receipt, "params.direction")?,
                Err(_) => "under",
            };
            (
                direction,
                unsigned(receipt, "params.target")?,
                None,
                unsigned(receipt, "result.roll_hundredths")?,
            )
        }
        "roulette" => {
            let bet = text(receipt, "params.bet")?;
            let number = if bet == "straight" {
                Some(unsigned(receipt, "params.number")?)
            } else {
                None
            };
            (bet, 0, number, unsigned(receipt, "result.pocket")?)
        }
        other => {
            return Err(Error::input(format!(
                "game is {}, not coinflip, dice or roulette",
                quote(other)
            )));
        }
    };
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
    put("call", call.into());
    put("target", target.into());
    put("has_number", number.is_some().into());
    put("number", number.unwrap_or(0).into());
    put("wager", unsigned(receipt, "wager")?.into());
    put("outcome", outcome.into());
    put("won", won.into());
    put("payout", unsigned(receipt, "payout")?.into());
    put("balance_change", signed(receipt, "profit")?.into());
    put("batch_id", commitment["batch_id"].clone());
    put("index", commitment["index"].clone());
    put("fairness_version", commitment["fairness_version"].clone());
    put("settled_at", seconds(receipt, "settled_at")?.into());
    Ok(json!({"commitment": commitment, "receipt": message}))
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
mod tests {
    use super::*;

    fn receipt(game: &str, params: Value, result: Value) -> Value {
        json!({
            "bet_id": 42, "round_id": "r_1", "address": "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826",
            "game": game, "fairness_version": 1,
            "commitment": "AB".repeat(32), "server_seed": "cd".repeat(32), "client_seed": "lucky ☘",
            "nonce": 0, "wager": 10, "params": params, "result": result,
            "won": false, "payout": 0, "profit": -10,
            "settled_at": "2026-11-23T10:00:01.999Z", "committed_at": "2026-11-23T10:00:00.000Z",
            "proofs": {"batch": {"batch_id": 3, "index": 17, "size": 1024, "audit_path": []}}
        })
    }

    #[test]
    fn times() {
        assert_eq!(unix_seconds("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(
            unix_seconds("2026-11-23T10:00:00.000Z"),
            Some(1_795_428_000)
        );
        assert_eq!(
            unix_seconds("2026-11-23T10:00:00.999Z"),
            Some(1_795_428_000)
        );
        assert_eq!(
            unix_seconds("2026-11-23T12:00:00+02:00"),
            Some(1_795_428_000)
        );
        assert_eq!(unix_seconds("2000-02-29T00:00:00Z"), Some(951_782_400));
        assert_eq!(unix_seconds("2001-02-29T00:00:00Z"), None);
        assert_eq!(unix_seconds("2026-11-23T10:00:00"), None);
        assert_eq!(unix_seconds("1969-12-31T23:59:59Z"), None);
        assert_eq!(unix_seconds("2026-11-23T10:00:00.Z"), None);
    }

    #[test]
    fn a_coinflip_receipt() {
        let r = receipt(
            "coinflip",
            json!({"call": "heads"}),
            json!({"outcome": "tails"}),
        );
        let m = receipt_messages(&r).unwrap();
        assert_eq!(
            m["commitment"],
            json!({
                "round_id": "r_1", "player": "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826",
                "commitment": format!("0x{}", "ab".repeat(32)), "batch_id": 3, "index": 17,
                "fairness_version": 1, "created_at": 1_795_428_000u64
            })
        );
        let receipt = &m["receipt"];
        assert_eq!(receipt["call"], json!("heads"));
        assert_eq!(receipt["outcome"], json!(0));
        assert_eq!(receipt["target"], json!(0));
        assert_eq!(receipt["has_number"], json!(false));
        assert_eq!(receipt["balance_change"], json!(-10));
        assert_eq!(receipt["settled_at"], json!(1_795_428_001u64));
        assert_eq!(
            receipt["server_seed"],
            json!(format!("0x{}", "cd".repeat(32)))
        );
        assert_eq!(receipt.as_object().unwrap().len(), 21);
    }

    #[test]
    fn dice_and_roulette_receipts() {
        let r = receipt(
            "dice",
            json!({"target": 5000, "direction": "over"}),
            json!({"roll_hundredths": 7311}),
        );
        let m = &receipt_messages(&r).unwrap()["receipt"];
        assert_eq!(
            (m["call"].clone(), m["target"].clone(), m["outcome"].clone()),
            (json!("over"), json!(5000), json!(7311))
        );
        let r = receipt(
            "roulette",
            json!({"bet": "straight", "number": 0}),
            json!({"pocket": 0, "color": "green"}),
        );
        let m = &receipt_messages(&r).unwrap()["receipt"];
        assert_eq!(
            (
                m["has_number"].clone(),
                m["number"].clone(),
                m["call"].clone()
            ),
            (json!(true), json!(0), json!("straight"))
        );
        let r = receipt(
            "roulette",
            json!({"bet": "red", "number": null}),
            json!({"pocket": 3, "color": "red"}),
        );
        let m = &receipt_messages(&r).unwrap()["receipt"];
        assert_eq!(
            (
                m["has_number"].clone(),
                m["number"].clone(),
                m["outcome"].clone()
            ),
            (json!(false), json!(0), json!(3))
        );
    }

    #[test]
    fn unsigned_and_bad_receipts() {
        let mut r = receipt(
            "coinflip",
            json!({"call": "heads"}),
            json!({"outcome": "heads"}),
        );
        r["proofs"]["batch"] = Value::Null;
        assert_eq!(receipt_messages(&r).unwrap(), json!({"unsigned": true}));
        let mut r = receipt(
            "coinflip",
            json!({"call": "heads"}),
            json!({"outcome": "heads"}),
        );
        r.as_object_mut().unwrap().remove("server_seed");
        assert_eq!(
            receipt_messages(&r).unwrap_err().message,
            "server_seed is missing"
        );
        let r = receipt("craps", json!({}), json!({}));
        assert!(receipt_messages(&r).is_err());
    }

    #[test]
    fn commit_and_batch() {
        let answer = json!({
            "round_id": "r_1", "address": "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826",
            "commitment": "ab".repeat(32), "fairness_version": 1,
            "created_at": "2026-11-23T10:00:00.000Z", "expires_at": "2026-11-23T10:10:00.000Z",
            "proofs": {"batch": {"batch_id": 3, "index": 17, "size": 1024, "audit_path": []}, "commitment": null}
        });
        assert_eq!(
            commit_message(&answer).unwrap()["created_at"],
            json!(1_795_428_000u64)
        );
        let batch = json!({"batch_id": 3, "size": 1024, "used": 5, "merkle_root": "ef".repeat(32), "created_at": "2026-11-23T09:00:00Z"});
        assert_eq!(
            seed_batch_message(&batch).unwrap(),
            json!({"batch_id": 3, "size": 1024, "merkle_root": format!("0x{}", "ef".repeat(32)), "created_at": 1_795_424_400u64})
        );
    }
}
