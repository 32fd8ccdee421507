use super::*;
use crate::eip712::{keccak, to_hex, typed_data_hash};
use k256::ecdsa::SigningKey;

fn key(seed: &[u8]) -> SigningKey {
    SigningKey::from_slice(&keccak(seed)).unwrap()
}

fn domain() -> Value {
    json!({"name": "Provably Fair Arcade", "version": "1", "chainId": 31337})
}

fn batch_message() -> Value {
    json!({"batch_id": 3, "size": 1024, "merkle_root": format!("0x{}", "ab".repeat(32)), "created_at": 1_795_428_000})
}

fn typed(message: &Value) -> Value {
    json!({
        "domain": domain(),
        "types": {
            "EIP712Domain": [
                {"name": "name", "type": "string"},
                {"name": "version", "type": "string"},
                {"name": "chainId", "type": "uint256"}
            ],
            "SeedBatch": signed_types_json()["SeedBatch"],
        },
        "primaryType": "SeedBatch",
        "message": message,
    })
}

fn sign(key: &SigningKey, typed: &Value) -> Value {
    let hash = typed_data_hash(typed).unwrap();
    let (sig, recid) = key.sign_prehash_recoverable(&hash).unwrap();
    json!({
        "signature": format!("0x{}{:02x}", to_hex(&sig.to_bytes()), 27 + recid.to_byte()),
        "typed_data": typed,
    })
}

fn expected(signer: &SigningKey) -> Value {
    json!({
        "signer": checksum(&crate::signature::address_of(signer.verifying_key().as_affine())).to_lowercase(),
        "domain": domain(),
        "primaryType": "SeedBatch",
        "message": batch_message(),
    })
}

fn problems(report: &Value) -> Vec<String> {
    report["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn a_right_signature_is_valid() {
    let house = key(b"house");
    let report = check_signed(&sign(&house, &typed(&batch_message())), &expected(&house)).unwrap();
    assert_eq!(report["valid"], json!(true), "{report}");
    assert_eq!(
        report["recovered"],
        json!(checksum(&crate::signature::address_of(
            house.verifying_key().as_affine()
        )))
    );
}

#[test]
fn a_wrong_signer_is_named() {
    let house = key(b"house");
    let report = check_signed(
        &sign(&key(b"mallory"), &typed(&batch_message())),
        &expected(&house),
    )
    .unwrap();
    assert_eq!(report["valid"], json!(false));
    let problems = problems(&report);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].starts_with("signed by 0x"), "{problems:?}");
    assert!(
        problems[0].contains("not the manifest's signer"),
        "{problems:?}"
    );
}

#[test]
fn a_tampered_field_is_named_and_breaks_the_signature() {
    let house = key(b"house");
    let mut signed = sign(&house, &typed(&batch_message()));
    signed["typed_data"]["message"]["size"] = json!(2048);
    let report = check_signed(&signed, &expected(&house)).unwrap();
    let problems = problems(&report);
    assert!(
        problems.contains(&"message.size is 2048, expected 1024".to_owned()),
        "{problems:?}"
    );
    assert!(
        problems.iter().any(|p| p.starts_with("signed by")),
        "{problems:?}"
    );
}

#[test]
fn numbers_as_strings_and_address_case_compare_equal() {
    let house = key(b"house");
    let mut message = batch_message();
    message["batch_id"] = json!("3");
    message["merkle_root"] = json!(format!("0x{}", "AB".repeat(32)));
    let report = check_signed(&sign(&house, &typed(&message)), &expected(&house)).unwrap();
    assert_eq!(report["valid"], json!(true), "{report}");
}

#[test]
fn a_wrong_domain_and_type_are_named() {
    let house = key(b"house");
    let mut data = typed(&batch_message());
    data["domain"]["chainId"] = json!(1);
    data["types"]["SeedBatch"][1]["type"] = json!("uint64");
    let report = check_signed(&sign(&house, &data), &expected(&house)).unwrap();
    let problems = problems(&report);
    assert_eq!(
        problems,
        vec![
            "domain.chainId is 1, expected 31337".to_owned(),
            "types.SeedBatch.size is uint64, expected uint256".to_owned(),
        ]
    );
}

#[test]
fn unsigned_and_bad_expectations() {
    let house = key(b"house");
    let report = check_signed(&Value::Null, &expected(&house)).unwrap();
    assert_eq!(report["valid"], json!(false));
    assert_eq!(report["recovered"], Value::Null);
    let mut bad = expected(&house);
    bad["primaryType"] = json!("Mail");
    assert!(check_signed(&Value::Null, &bad).is_err());
    let mut bad = expected(&house);
    bad["message"].as_object_mut().unwrap().remove("size");
    assert!(check_signed(&Value::Null, &bad).is_err());
}

/// A signed object of `primary` (its members listed in `signedTypes` as `listed`) over
/// `message`, and the expectation of `message` as `primaryType` `primary`.
fn signed_as(house: &SigningKey, primary: &str, listed: &str, message: &Value) -> (Value, Value) {
    let mut data = typed(message);
    data["primaryType"] = json!(primary);
    let types = data["types"].as_object_mut().unwrap();
    types.remove("SeedBatch");
    types.insert(primary.to_owned(), signed_types_json()[listed].clone());
    let mut want = expected(house);
    want["primaryType"] = json!(primary);
    want["message"] = message.clone();
    (sign(house, &data), want)
}

fn receipt_message(house_agent: Option<bool>) -> Value {
    let mut message = Map::new();
    for field in signed_type("Receipt").unwrap() {
        let value = match field.kind.as_str() {
            "string" => json!("x"),
            "bool" => json!(false),
            "address" => json!("0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826"),
            "bytes32" => json!(format!("0x{}", "ab".repeat(32))),
            _ => json!(7),
        };
        message.insert(field.name, value);
    }
    if let Some(house_agent) = house_agent {
        message.insert("house_agent".into(), json!(house_agent));
    }
    Value::Object(message)
}

#[test]
fn a_receipt_with_house_agent_expects_the_type_that_signs_it() {
    let house = key(b"house");
    let message = receipt_message(Some(true));
    let (signed, want) = signed_as(&house, "Receipt", RECEIPT_WITH_HOUSE_AGENT, &message);
    let report = check_signed(&signed, &want).unwrap();
    assert_eq!(report["valid"], json!(true), "{report}");

    // The house signs the type before house_agent after the mark: named, and invalid.
    let before = receipt_message(None);
    let (hidden, _) = signed_as(&house, "Receipt", "Receipt", &before);
    let report = check_signed(&hidden, &want).unwrap();
    assert_eq!(
        problems(&report),
        vec![
            "types.Receipt has no house_agent (bool)".to_owned(),
            "message.house_agent is missing, expected true".to_owned(),
        ]
    );
    // Signed true, expected false: the field is named, the signature breaks.
    let mut flipped = want.clone();
    flipped["message"]["house_agent"] = json!(false);
    assert_eq!(
        problems(&check_signed(&signed, &flipped).unwrap()),
        vec!["message.house_agent is true, expected false".to_owned()]
    );

    // Before the mark, the type before house_agent is expected, and the new one refused.
    let (old, old_want) = signed_as(&house, "Receipt", "Receipt", &before);
    assert_eq!(check_signed(&old, &old_want).unwrap()["valid"], json!(true));
    let report = check_signed(&signed, &old_want).unwrap();
    assert!(
        problems(&report)
            .contains(&"types.Receipt has an unexpected member house_agent (bool)".to_owned()),
        "{report}"
    );
}

#[test]
fn signed_marks_are_checked_like_any_signed_type() {
    let house = key(b"house");
    let message = json!({"signed_from": 1, "house_agent_signed_from": 12});
    let (signed, want) = signed_as(&house, "SignedMarks", "SignedMarks", &message);
    assert_eq!(check_signed(&signed, &want).unwrap()["valid"], json!(true));
    let mut later = want.clone();
    later["message"]["house_agent_signed_from"] = json!(13);
    assert_eq!(
        problems(&check_signed(&signed, &later).unwrap()),
        vec!["message.house_agent_signed_from is 12, expected 13".to_owned()]
    );
    let mut named = want;
    named["primaryType"] = json!(RECEIPT_WITH_HOUSE_AGENT);
    assert!(
        check_signed(&signed, &named).is_err(),
        "a list's name is not a primary type"
    );
}

#[test]
fn signed_types_parse() {
    assert_eq!(signed_type("Receipt").unwrap().len(), 21);
    assert_eq!(signed_type(RECEIPT_WITH_HOUSE_AGENT).unwrap().len(), 22);
    assert_eq!(
        signed_type(RECEIPT_WITH_HOUSE_AGENT).unwrap()[21],
        Field::new("house_agent", "bool")
    );
    assert_eq!(signed_type("SignedMarks").unwrap().len(), 2);
    assert_eq!(signed_type("Play").unwrap().len(), 10);
    assert_eq!(
        signed_type("Play").unwrap()[2],
        Field::new("commitment", "bytes32")
    );
    assert_eq!(signed_type("Commitment").unwrap().len(), 7);
    assert_eq!(
        signed_type("SeedBatch").unwrap()[2],
        Field::new("merkle_root", "bytes32")
    );
    assert!(signed_type("Seed").is_none());
}

fn player_of(key: &SigningKey) -> String {
    checksum(&crate::signature::address_of(
        key.verifying_key().as_affine(),
    ))
}

#[test]
fn a_play_is_checked_against_its_player_not_the_house() {
    let player = key(b"player");
    let call = json!({
        "round_id": "r_1", "address": player_of(&player).to_lowercase(),
        "commitment": "ab".repeat(32), "game": "dice", "client_seed": "c", "wager": 3,
        "params": {"target": 50, "direction": "under"},
    });
    let typed = crate::expected::play_typed_data(&call, &domain()).unwrap();
    let signed = sign(&player, &typed);
    let want = |signer: String, message: &Value| json!({"signer": signer, "domain": domain(), "primaryType": "Play", "message": message});
    let message = typed["message"].clone();
    let report = check_signed(&signed, &want(player_of(&player), &message)).unwrap();
    assert_eq!(report["valid"], json!(true), "{report}");
    assert_eq!(report["recovered"], json!(player_of(&player)));

    // Another commitment than the one the player was shown: named, and the signature no longer
    // names the player.
    let mut moved = message.clone();
    moved["commitment"] = json!(format!("0x{}", "cd".repeat(32)));
    assert_eq!(
        problems(&check_signed(&signed, &want(player_of(&player), &moved)).unwrap()),
        vec![format!(
            "message.commitment is 0x{}, expected 0x{}",
            "ab".repeat(32),
            "cd".repeat(32)
        )]
    );
    let mut rewritten = signed.clone();
    rewritten["typed_data"]["message"] = moved.clone();
    let report = check_signed(&rewritten, &want(player_of(&player), &moved)).unwrap();
    assert!(problems(&report)[0].starts_with("signed by 0x"), "{report}");
    // Signed by someone else, the house included.
    let house = key(b"house");
    let report = check_signed(&sign(&house, &typed), &want(player_of(&player), &message)).unwrap();
    assert_eq!(report["valid"], json!(false));
}
