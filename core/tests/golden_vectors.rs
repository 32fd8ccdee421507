//! The golden vectors: the committed file equals a fresh regeneration, every case verifies,
//! tampered cases fail the right check, and the mapping agrees with Stake's published results.

#[path = "../examples/fairness_vectors/generate.rs"]
mod generate;

use arcade_core::wire::ReceiptInput;
use arcade_core::{ByteStream, Check, Receipt, Roll, hex, roulette, verify};
use serde_json::Value;

const VECTORS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/vectors/fairness-v1.json"
);
const STAKE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/vectors/stake-crosscheck.json"
);

fn load(path: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("vectors file")).expect("JSON")
}

fn receipt(value: &Value) -> Receipt {
    let input: ReceiptInput = serde_json::from_value(value.clone()).expect("receipt shape");
    Receipt::try_from(input).expect("well-formed receipt")
}

#[test]
fn committed_vectors_equal_a_fresh_regeneration() {
    let committed = std::fs::read_to_string(VECTORS).expect("vectors file");
    assert!(
        committed == generate::generate(),
        "tests/vectors/fairness-v1.json differs from a fresh regeneration; if the change is \
         intended (it must not be for v1), run: \
         cargo run -p arcade-core --example fairness_vectors -- tests/vectors/fairness-v1.json"
    );
}

#[test]
fn every_case_verifies_with_its_trace() {
    let doc = load(VECTORS);
    let cases = doc["cases"].as_array().unwrap();
    assert!(cases.len() >= 200, "only {} cases", cases.len());
    let limits = arcade_core::Limits::SPEC;
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let r = receipt(&case["receipt"]);
        let v = verify(&r).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(v.verified(), "{name}: {:?}", v.mismatches);
        let e = &case["expect"];
        assert_eq!(v.message, e["hmac_message"].as_str().unwrap(), "{name}");
        assert_eq!(
            hex::encode(&v.settlement.draws.block0),
            e["block0"].as_str().unwrap(),
            "{name}"
        );
        assert_eq!(
            u64::from(v.settlement.draws.u0),
            e["u0"].as_u64().unwrap(),
            "{name}"
        );
        assert_eq!(
            u64::from(v.settlement.draws.u1),
            e["u1"].as_u64().unwrap(),
            "{name}"
        );
        assert_eq!(
            limits.max_wager(&r.call),
            e["max_wager"].as_u64().unwrap(),
            "{name}"
        );
        assert!(
            r.wager <= limits.max_wager(&r.call),
            "{name}: vectors hold allowed wagers only"
        );
    }
}

fn tampered(case: &Value, path: &[&str], value: Value) -> Vec<Check> {
    let mut receipt_json = case["receipt"].clone();
    let mut at = &mut receipt_json;
    for key in &path[..path.len() - 1] {
        at = &mut at[*key];
    }
    at[path[path.len() - 1]] = value;
    let v = verify(&receipt(&receipt_json)).expect("still well-formed");
    assert!(!v.verified());
    v.mismatches.iter().map(|m| m.check).collect()
}

#[test]
fn tampering_fails_the_matching_check() {
    let doc = load(VECTORS);
    for case in doc["cases"].as_array().unwrap() {
        let r = &case["receipt"];
        let payout = r["payout"].as_u64().unwrap();
        assert_eq!(
            tampered(case, &["payout"], (payout + 1).into()),
            [Check::Payout]
        );
        let won = r["won"].as_bool().unwrap();
        assert!(tampered(case, &["won"], (!won).into()).contains(&Check::Outcome));
        let other_seed = "f".repeat(64);
        assert_eq!(
            tampered(case, &["commitment"], hex::encode(&[7; 32]).into()),
            [Check::Commitment]
        );
        assert!(tampered(case, &["server_seed"], other_seed.into()).contains(&Check::Commitment));
        match r["game"].as_str().unwrap() {
            "coinflip" => {
                let flipped = if r["result"]["outcome"] == "heads" {
                    "tails"
                } else {
                    "heads"
                };
                assert_eq!(
                    tampered(case, &["result", "outcome"], flipped.into()),
                    [Check::Outcome]
                );
            }
            "dice" => {
                let h = r["result"]["roll_hundredths"].as_u64().unwrap();
                let other = if h == 0 { 1 } else { h - 1 };
                assert_eq!(
                    tampered(case, &["result", "roll_hundredths"], other.into()),
                    [Check::Outcome]
                );
                assert_eq!(
                    tampered(case, &["result", "roll"], (other as f64 / 100.0).into()),
                    [Check::Outcome]
                );
                assert_eq!(
                    tampered(case, &["result", "multiplier"], "9.9999".into()),
                    [Check::Outcome]
                );
            }
            _ => {
                let p = r["result"]["pocket"].as_u64().unwrap();
                assert_eq!(
                    tampered(case, &["result", "pocket"], ((p + 1) % 37).into()),
                    [Check::Outcome]
                );
                let color = if r["result"]["color"] == "red" {
                    "black"
                } else {
                    "red"
                };
                assert_eq!(
                    tampered(case, &["result", "color"], color.into()),
                    [Check::Outcome]
                );
            }
        }
    }
}

#[test]
fn malformed_receipts_are_typed_errors() {
    let doc = load(VECTORS);
    let case = &doc["cases"][0]["receipt"];
    let with = |key: &str, value: Value| {
        let mut r = case.clone();
        r[key] = value;
        verify(&receipt(&r)).unwrap_err().code()
    };
    assert_eq!(with("fairness_version", 2.into()), "unsupported_version");
    assert_eq!(with("server_seed", "abc".into()), "invalid_server_seed");
    assert_eq!(with("client_seed", "".into()), "invalid_client_seed");
    assert_eq!(with("wager", 0.into()), "invalid_receipt");
    let mut no_call = case.clone();
    no_call["params"] = serde_json::json!({});
    let input: ReceiptInput = serde_json::from_value(no_call).unwrap();
    assert_eq!(
        Receipt::try_from(input).unwrap_err().code(),
        "invalid_receipt"
    );
}

#[test]
fn stake_calculator_results_re_derive() {
    let doc = load(STAKE);
    for case in doc["dice"].as_array().unwrap() {
        let stream = ByteStream::new(
            case["server_seed"].as_str().unwrap().as_bytes(),
            case["client_seed"].as_str().unwrap(),
            case["nonce"].as_u64().unwrap(),
        );
        let roll = Roll::from_u32(stream.u32_at(0));
        assert_eq!(
            u64::from(roll.hundredths()),
            case["roll_hundredths"].as_u64().unwrap()
        );
    }
    for case in doc["roulette"].as_array().unwrap() {
        let stream = ByteStream::new(
            case["server_seed"].as_str().unwrap().as_bytes(),
            case["client_seed"].as_str().unwrap(),
            case["nonce"].as_u64().unwrap(),
        );
        assert_eq!(
            u64::from(roulette::spin(stream.u32_at(0))),
            case["pocket"].as_u64().unwrap()
        );
    }
}
