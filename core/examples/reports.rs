//! The verification report the native core writes for every golden vector and for tampered
//! and malformed copies of some, one JSON line each: `{"name", "receipt", "report"}`, or
//! `{"name", "receipt", "error": {"code", "message"}}` for a receipt that cannot be re-derived.
//! The report is `wire::VerificationView` through serde_json, as the server writes it. The wasm
//! verifier's Node suite (tests/wasm-node) runs this and holds its reports equal to these:
//!
//! ```sh
//! cargo run -p arcade-core --example reports > reports.jsonl
//! ```

use std::io::Write;

use arcade_core::wire::{ReceiptInput, VerificationView};
use arcade_core::{Receipt, verify};
use serde_json::{Value, json};

const VECTORS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/vectors/fairness-v1.json"
);

/// One line: the receipt and what the core makes of it.
fn line(name: &str, receipt: &Value) -> String {
    let input: ReceiptInput = serde_json::from_value(receipt.clone()).expect("receipt shape");
    let head = format!("{{\"name\":{},\"receipt\":{receipt}", json!(name));
    // The report is written straight from its Serialize impl, so its keys keep their order.
    let verified = Receipt::try_from(input).and_then(|r| verify(&r).map(|v| (r, v)));
    match verified {
        Ok((receipt, verification)) => {
            let report = serde_json::to_string(&VerificationView {
                verification: &verification,
                server_seed: &receipt.server_seed,
            })
            .expect("a report serializes");
            format!("{head},\"report\":{report}}}")
        }
        Err(error) => {
            let error = json!({ "code": error.code(), "message": error.to_string() });
            format!("{head},\"error\":{error}}}")
        }
    }
}

/// `receipt` with `path` set to `value` (`Value::Null` at the end of a path removes the key).
fn with(receipt: &Value, path: &[&str], value: Value) -> Value {
    let mut out = receipt.clone();
    let (last, parents) = path.split_last().expect("a path");
    let mut at = &mut out;
    for key in parents {
        at = &mut at[*key];
    }
    let object = at.as_object_mut().expect("an object");
    if value.is_null() {
        object.remove(*last);
    } else {
        object.insert((*last).to_owned(), value);
    }
    out
}

/// Tampered and malformed copies of `receipt` that every game has.
fn common(receipt: &Value) -> Vec<(String, Value)> {
    let r = receipt;
    let number = |key: &str| r[key].as_i64().expect("an integer field");
    let commitment = r["commitment"].as_str().expect("a commitment");
    vec![
        (
            "payout + 1".into(),
            with(r, &["payout"], json!(number("payout") + 1)),
        ),
        (
            "profit - 1".into(),
            with(r, &["profit"], json!(number("profit") - 1)),
        ),
        (
            "won flipped".into(),
            with(r, &["won"], json!(!r["won"].as_bool().expect("won"))),
        ),
        (
            "another commitment".into(),
            with(r, &["commitment"], json!("ab".repeat(32))),
        ),
        (
            "the commitment in capitals".into(),
            with(r, &["commitment"], json!(commitment.to_uppercase())),
        ),
        (
            "a short commitment".into(),
            with(r, &["commitment"], json!("dé\n\u{0}")),
        ),
        (
            "another server seed".into(),
            with(r, &["server_seed"], json!("0".repeat(64))),
        ),
        (
            "another client seed".into(),
            with(r, &["client_seed"], json!("somebody else's")),
        ),
        ("another nonce".into(), with(r, &["nonce"], json!(7))),
        ("everything claimed wrong".into(), {
            let r = with(r, &["payout"], json!(number("payout") + 3));
            let r = with(&r, &["profit"], json!(-5));
            with(&r, &["commitment"], json!("00".repeat(32)))
        }),
        (
            "fairness version 2".into(),
            with(r, &["fairness_version"], json!(2)),
        ),
        (
            "no fairness version".into(),
            with(r, &["fairness_version"], Value::Null),
        ),
        (
            "server seed of 2 characters".into(),
            with(r, &["server_seed"], json!("00")),
        ),
        (
            "server seed in capitals".into(),
            with(r, &["server_seed"], json!("AB".repeat(32))),
        ),
        (
            "empty client seed".into(),
            with(r, &["client_seed"], json!("")),
        ),
        (
            "client seed with a control character".into(),
            with(r, &["client_seed"], json!("a\u{7}b")),
        ),
        (
            "client seed of 257 characters".into(),
            with(r, &["client_seed"], json!("é".repeat(257))),
        ),
        ("wager 0".into(), with(r, &["wager"], json!(0))),
        (
            "the largest settleable wager".into(),
            with(r, &["wager"], json!(1u64 << 48)),
        ),
        (
            "wager past the settleable".into(),
            with(r, &["wager"], json!((1u64 << 48) + 1)),
        ),
    ]
}

/// Tampered and malformed copies of a receipt of `game`.
fn per_game(receipt: &Value) -> Vec<(String, Value)> {
    let r = receipt;
    match r["game"].as_str().expect("a game") {
        "coinflip" => {
            let other = if r["result"]["outcome"] == "heads" {
                "tails"
            } else {
                "heads"
            };
            vec![
                (
                    "the other side".into(),
                    with(r, &["result", "outcome"], json!(other)),
                ),
                (
                    "no outcome".into(),
                    with(r, &["result", "outcome"], Value::Null),
                ),
                ("no call".into(), with(r, &["params", "call"], Value::Null)),
            ]
        }
        "dice" => {
            let h = r["result"]["roll_hundredths"].as_u64().expect("hundredths");
            let roll = |value: f64| with(r, &["result", "roll"], json!(value));
            let mut cases: Vec<(String, Value)> = vec![
                (
                    "another hundredth".into(),
                    with(r, &["result", "roll_hundredths"], json!((h + 1) % 10_001)),
                ),
                (
                    "another win chance".into(),
                    with(r, &["result", "win_chance"], json!("50.0000%")),
                ),
                (
                    "a win chance of any text".into(),
                    with(r, &["result", "win_chance"], json!("wïn\n\u{0}🎲")),
                ),
                (
                    "another multiplier".into(),
                    with(r, &["result", "multiplier"], json!("9.9999")),
                ),
                (
                    "target 100".into(),
                    with(r, &["params", "target"], json!(100)),
                ),
                ("target 0".into(), with(r, &["params", "target"], json!(0))),
                ("no roll".into(), {
                    let r = with(r, &["result", "roll"], Value::Null);
                    with(&r, &["result", "roll_hundredths"], Value::Null)
                }),
                (
                    "the roll alone".into(),
                    with(r, &["result", "roll_hundredths"], Value::Null),
                ),
                (
                    "no target".into(),
                    with(r, &["params", "target"], Value::Null),
                ),
                (
                    "no direction".into(),
                    with(r, &["params", "direction"], Value::Null),
                ),
            ];
            // The display number within half a hundredth passes; anything else is shown as
            // Rust shows the f64.
            let at = h as f64 / 100.0;
            for value in [
                at + 0.004,
                at - 0.004,
                at + 0.006,
                at + 1.0,
                -0.0,
                0.1 + 0.2,
                123.456,
                1e21,
                1.5e-7,
                5e-324,
                f64::MAX,
                -1e300,
            ] {
                cases.push((format!("roll {value:e}"), roll(value)));
            }
            cases
        }
        _ => {
            let pocket = r["result"]["pocket"].as_u64().expect("a pocket");
            let other = if r["result"]["color"] == "red" {
                "black"
            } else {
                "red"
            };
            vec![
                (
                    "another pocket".into(),
                    with(r, &["result", "pocket"], json!((pocket + 1) % 37)),
                ),
                (
                    "another colour".into(),
                    with(r, &["result", "color"], json!(other)),
                ),
                (
                    "no colour".into(),
                    with(r, &["result", "color"], Value::Null),
                ),
                (
                    "no pocket".into(),
                    with(r, &["result", "pocket"], Value::Null),
                ),
                (
                    "number 37".into(),
                    with(r, &["params", "number"], json!(37)),
                ),
                ("a straight bet without a number".into(), {
                    let r = with(r, &["params", "bet"], json!("straight"));
                    with(&r, &["params", "number"], Value::Null)
                }),
                ("an outside bet with a number".into(), {
                    let r = with(r, &["params", "bet"], json!("red"));
                    with(&r, &["params", "number"], json!(5))
                }),
            ]
        }
    }
}

fn main() -> std::io::Result<()> {
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(VECTORS)?)?;
    let cases = doc["cases"].as_array().expect("cases");
    let mut out = std::io::stdout().lock();
    for (i, case) in cases.iter().enumerate() {
        let name = case["name"].as_str().expect("a name");
        let receipt = &case["receipt"];
        writeln!(out, "{}", line(name, receipt))?;
        // Tampered copies of every fifth case: every game, call and wager size gets some.
        if i % 5 == 0 {
            for (how, tampered) in common(receipt).into_iter().chain(per_game(receipt)) {
                writeln!(out, "{}", line(&format!("{name}, {how}"), &tampered))?;
            }
        }
    }
    Ok(())
}
