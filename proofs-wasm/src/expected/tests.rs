use super::*;

pub(super) fn receipt(game: &str, params: Value, result: Value) -> Value {
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
    let m = receipt_messages(&r, None).unwrap();
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
    let m = &receipt_messages(&r, None).unwrap()["receipt"];
    assert_eq!(
        (m["call"].clone(), m["target"].clone(), m["outcome"].clone()),
        (json!("over"), json!(5000), json!(7311))
    );
    let r = receipt(
        "roulette",
        json!({"bet": "straight", "number": 0}),
        json!({"pocket": 0, "color": "green"}),
    );
    let m = &receipt_messages(&r, None).unwrap()["receipt"];
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
    let m = &receipt_messages(&r, None).unwrap()["receipt"];
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
    assert_eq!(
        receipt_messages(&r, None).unwrap(),
        json!({"unsigned": true})
    );
    let mut r = receipt(
        "coinflip",
        json!({"call": "heads"}),
        json!({"outcome": "heads"}),
    );
    r.as_object_mut().unwrap().remove("server_seed");
    assert_eq!(
        receipt_messages(&r, None).unwrap_err().message,
        "server_seed is missing"
    );
    let r = receipt("craps", json!({}), json!({}));
    assert!(receipt_messages(&r, None).is_err());
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

pub(super) const MARKS: Marks = Marks {
    signed_from: 10,
    house_agent_signed_from: 42,
};

pub(super) fn coinflip(bet_id: u64) -> Value {
    let mut r = receipt(
        "coinflip",
        json!({"call": "heads"}),
        json!({"outcome": "heads"}),
    );
    r["bet_id"] = json!(bet_id);
    r["house_agent"] = json!(true);
    r
}

#[test]
fn at_or_above_the_mark_the_receipt_signs_house_agent() {
    let at = receipt_messages(&coinflip(42), Some(MARKS)).unwrap();
    assert_eq!(at["receipt_type"], "Receipt+house_agent");
    assert_eq!(at["receipt"]["house_agent"], true);
    assert_eq!(at["receipt"].as_object().unwrap().len(), 22);
    let below = receipt_messages(&coinflip(41), Some(MARKS)).unwrap();
    assert_eq!(below["receipt_type"], "Receipt");
    assert_eq!(below["receipt"].get("house_agent"), None);
    assert_eq!(
        below["receipt"],
        receipt_messages(&coinflip(41), None).unwrap()["receipt"]
    );
    let mut unsaid = coinflip(50);
    unsaid.as_object_mut().unwrap().remove("house_agent");
    assert_eq!(
        receipt_messages(&unsaid, Some(MARKS)).unwrap_err().message,
        "house_agent is missing"
    );
    // Without marks: as before them, whatever the bet id.
    let before = receipt_messages(&coinflip(50), None).unwrap();
    assert_eq!(before.as_object().unwrap().len(), 3);
    assert_eq!(before["receipt"].get("house_agent"), None);
}

#[test]
fn from_the_signed_mark_on_a_receipt_without_proofs_is_refused() {
    let unsigned = |bet_id| {
        let mut r = coinflip(bet_id);
        r["proofs"] = json!({"batch": null, "commitment": null, "receipt": null});
        r
    };
    assert_eq!(
        receipt_messages(&unsigned(9), Some(MARKS)).unwrap(),
        json!({"unsigned": true})
    );
    let refused = receipt_messages(&unsigned(10), Some(MARKS)).unwrap_err();
    assert_eq!(refused.code, crate::error::Code::InvalidInput);
    assert!(
        refused.message.contains("bet 10 carries no proofs"),
        "{}",
        refused.message
    );
    let mut stripped = coinflip(11);
    stripped.as_object_mut().unwrap().remove("proofs");
    assert!(receipt_messages(&stripped, Some(MARKS)).is_err());
    assert_eq!(
        receipt_messages(&unsigned(10), None).unwrap(),
        json!({"unsigned": true})
    );
}

#[test]
fn the_signed_marks_message() {
    let marks = json!({"signed_from": 3, "house_agent_signed_from": 7, "signature": "0x", "typed_data": {}});
    let want = json!({"signed_from": 3, "house_agent_signed_from": 7});
    let manifest = json!({"signer": "0x", "signed_marks": marks});
    assert_eq!(signed_marks_message(&manifest).unwrap(), want);
    assert_eq!(signed_marks_message(&marks).unwrap(), want);
    assert_eq!(
        signed_marks_message(&json!({"signer": "0x"}))
            .unwrap_err()
            .message,
        "signed_marks is missing: the answer publishes no signed marks"
    );
    let bad = json!({"signed_marks": {"signed_from": -1, "house_agent_signed_from": 7}});
    assert!(signed_marks_message(&bad).is_err());
    assert!(Marks::from_json(&json!([1, 2])).is_err());
    for (signed_from, house_agent_signed_from) in [(0, 7), (8, 7)] {
        let marks =
            json!({"signed_from": signed_from, "house_agent_signed_from": house_agent_signed_from});
        assert!(
            Marks::from_json(&marks)
                .unwrap_err()
                .message
                .starts_with("the marks are out of order"),
            "{marks}"
        );
    }
    assert!(Marks::from_json(&json!({"signed_from": 7, "house_agent_signed_from": 7})).is_ok());
}
