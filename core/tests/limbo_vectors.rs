//! Limbo's golden vectors: the committed file equals a fresh regeneration, every round
//! verifies with its trace, tampered rounds fail the outcome check, and every draw agrees with
//! the addendum's formulas written out here from the specification.

#[path = "../examples/limbo_vectors/generate.rs"]
mod generate;

use arcade_core::wire::ReceiptInput;
use arcade_core::{Check, Receipt, hex, verify};
use serde_json::Value;

const VECTORS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/vectors/fairness-v1-limbo.json"
);

fn load() -> Value {
    serde_json::from_str(&std::fs::read_to_string(VECTORS).expect("vectors file")).expect("JSON")
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
        "tests/vectors/fairness-v1-limbo.json differs from a fresh regeneration; run: \
         cargo run -p arcade-core --example limbo_vectors -- tests/vectors/fairness-v1-limbo.json"
    );
}

#[test]
fn there_are_at_least_sixty_cases_and_they_cover_the_edges() {
    let doc = load();
    let (cases, draws) = (
        doc["cases"].as_array().unwrap(),
        doc["draws"].as_array().unwrap(),
    );
    assert!(
        cases.len() + draws.len() >= 60,
        "{} + {}",
        cases.len(),
        draws.len()
    );
    let targets = |list: &Vec<Value>, key: &str| -> Vec<u64> {
        list.iter()
            .filter_map(|c| c.pointer(key).and_then(Value::as_u64))
            .collect()
    };
    let round_targets = targets(cases, "/receipt/params/target_hundredths");
    for t in [101, 200, 100_000_000] {
        assert!(round_targets.contains(&t), "no round at target {t}");
    }
    let u0s = targets(draws, "/u0");
    assert!(u0s.contains(&0) && u0s.contains(&1), "u = 0 and u = 1");
    for t in [101, 200, 100_000_000] {
        let boundary = (99u64 << 32) / t;
        let at = |u: u64| {
            draws
                .iter()
                .any(|d| d["u0"] == u && d["target_hundredths"] == t)
        };
        assert!(
            at(boundary) && at(boundary + 1),
            "target {t}: boundary and one above"
        );
    }
}

#[test]
fn every_round_verifies_with_its_trace() {
    let limits = arcade_core::Limits::SPEC;
    for case in load()["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let r = receipt(&case["receipt"]);
        let v = verify(&r).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(v.verified(), "{name}: {:?}", v.mismatches);
        let e = &case["expect"];
        assert_eq!(v.message, e["hmac_message"].as_str().unwrap(), "{name}");
        assert_eq!(
            hex::encode(&v.settlement.draws.block0),
            e["block0"],
            "{name}"
        );
        assert_eq!(u64::from(v.settlement.draws.u0), e["u0"], "{name}");
        assert_eq!(u64::from(v.settlement.draws.u1), e["u1"], "{name}");
        let max = limits.max_wager(&r.call);
        assert_eq!(max, e["max_wager"], "{name}");
        assert!(
            r.wager <= max.max(1),
            "{name}: an allowed wager, or 1 chip where none is"
        );
    }
}

#[test]
fn tampered_rounds_fail_the_outcome_check() {
    for case in load()["cases"].as_array().unwrap() {
        let r = &case["receipt"];
        let h = r["result"]["result_hundredths"].as_u64().unwrap();
        for (key, value) in [
            (
                "result_hundredths",
                Value::from(if h == 100 { 101 } else { h - 1 }),
            ),
            ("crash_point", Value::from("3.14")),
        ] {
            let mut tampered = r.clone();
            tampered["result"][key] = value;
            let v = verify(&receipt(&tampered)).expect("still well-formed");
            let checks: Vec<Check> = v.mismatches.iter().map(|m| m.check).collect();
            assert_eq!(checks, [Check::Outcome], "{}: {key}", case["name"]);
        }
    }
}

/// The addendum's formulas, in u128 arithmetic, from the specification's text.
fn by_the_spec(u: u128, t: u128) -> (u128, bool, u128, [u128; 2]) {
    let scale = 99u128 << 32;
    // u = 0 draws the cap.
    let result = scale
        .checked_div(u)
        .map_or(100_000_000, |r| r.clamp(100, 100_000_000));
    let w = scale / t + 1;
    (result, result >= t, w, [scale, 100 * w])
}

#[test]
fn every_draw_follows_the_addendum() {
    for d in load()["draws"].as_array().unwrap() {
        let (u, t) = (
            d["u0"].as_u64().unwrap(),
            d["target_hundredths"].as_u64().unwrap(),
        );
        let (result, won, w, [a, b]) = by_the_spec(u.into(), t.into());
        let name = &d["name"];
        assert_eq!(
            d["result_hundredths"].as_u64().map(u128::from),
            Some(result),
            "{name}"
        );
        assert_eq!(d["won"].as_bool(), Some(won), "{name}");
        assert_eq!(
            won,
            u128::from(u) <= (99u128 << 32) / u128::from(t),
            "{name}"
        );
        assert_eq!(
            d["winning_count"].as_u64().map(u128::from),
            Some(w),
            "{name}"
        );
        assert_eq!(d["outcomes"].as_u64(), Some(1 << 32), "{name}");
        assert_eq!(
            d["exact_return_per_chip"],
            serde_json::json!([a.to_string(), b.to_string()])
        );
    }
}
