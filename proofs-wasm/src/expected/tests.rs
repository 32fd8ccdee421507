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
