//! The module's functions on Rust strings: the golden vectors verify with the core's report,
//! a tampered payout is a mismatch, a malformed receipt an error with the core's code, and the
//! Merkle root and inclusion proofs agree.

use arcade_verifier_abi::{commitment_of, merkle_root_of, verify_inclusion_of, verify_receipt_of};
use serde_json::{Value, json};

fn cases(file: &str) -> Vec<Value> {
    let path = format!("{}/../tests/vectors/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).expect("the golden vectors");
    let vectors: Value = serde_json::from_str(&text).expect("JSON");
    vectors["cases"].as_array().expect("cases").clone()
}

fn report(receipt: &Value) -> Value {
    serde_json::from_str(&verify_receipt_of(&receipt.to_string()).expect("a report")).unwrap()
}

#[test]
fn every_golden_vector_verifies_with_its_trace() {
    for file in ["fairness-v1.json", "fairness-v1-limbo.json"] {
        for case in cases(file) {
            let report = report(&case["receipt"]);
            assert_eq!(report["verified"], true, "{}", case["name"]);
            assert_eq!(
                report["trace"]["hmac_message"],
                case["expect"]["hmac_message"]
            );
            assert_eq!(report["trace"]["block0"], case["expect"]["block0"]);
            assert_eq!(report["derived"]["payout"], case["receipt"]["payout"]);
        }
    }
}

#[test]
fn a_tampered_payout_is_a_mismatch_not_an_error() {
    let mut receipt = cases("fairness-v1.json")[0]["receipt"].clone();
    receipt["payout"] = json!(receipt["payout"].as_u64().unwrap() + 1);
    let report = report(&receipt);
    assert_eq!(report["verified"], false);
    assert_eq!(report["checks"]["payout"], false);
    assert_eq!(report["mismatches"][0]["field"], "payout");
}

#[test]
fn a_malformed_receipt_fails_with_the_cores_code() {
    let mut receipt = cases("fairness-v1.json")[0]["receipt"].clone();
    receipt["server_seed"] = json!("zz");
    assert_eq!(
        verify_receipt_of(&receipt.to_string()).unwrap_err().code,
        "invalid_server_seed"
    );
    assert_eq!(verify_receipt_of("{").unwrap_err().code, "invalid_input");
}

#[test]
fn inclusion_proofs_hold_under_the_root_and_fail_elsewhere() {
    let seeds: Vec<String> = (0..3).map(|i| format!("{i:064x}")).collect();
    let commitments: Vec<Value> = seeds.iter().map(|s| commitment_of(s).unwrap()).collect();
    let root = merkle_root_of(&json!(commitments).to_string()).unwrap();
    let single = merkle_root_of(&json!([commitments[2]]).to_string()).unwrap();
    let pair = merkle_root_of(&json!([commitments[0], commitments[1]]).to_string()).unwrap();
    // RFC 9162: of three leaves, leaf 2's path is the root of the first two.
    let proof = |index: u64, path: &Value, root: &Value| {
        let c = &commitments[usize::try_from(index).unwrap()];
        json!({"commitment": c, "index": index, "size": 3, "audit_path": [path], "merkle_root": root}).to_string()
    };
    assert_eq!(
        verify_inclusion_of(&proof(2, &pair, &root)).unwrap(),
        json!(true)
    );
    assert_eq!(
        verify_inclusion_of(&proof(2, &single, &root)).unwrap(),
        json!(false)
    );
    assert_eq!(
        verify_inclusion_of(&proof(1, &pair, &root)).unwrap(),
        json!(false)
    );
}
