use super::*;
use serde_json::json;

pub fn mail() -> Value {
    json!({
        "types": {
            "EIP712Domain": [
                {"name": "name", "type": "string"},
                {"name": "version", "type": "string"},
                {"name": "chainId", "type": "uint256"},
                {"name": "verifyingContract", "type": "address"}
            ],
            "Person": [
                {"name": "name", "type": "string"},
                {"name": "wallet", "type": "address"}
            ],
            "Mail": [
                {"name": "from", "type": "Person"},
                {"name": "to", "type": "Person"},
                {"name": "contents", "type": "string"}
            ]
        },
        "primaryType": "Mail",
        "domain": {
            "name": "Ether Mail",
            "version": "1",
            "chainId": 1,
            "verifyingContract": "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC"
        },
        "message": {
            "from": {"name": "Cow", "wallet": "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826"},
            "to": {"name": "Bob", "wallet": "0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB"},
            "contents": "Hello, Bob!"
        }
    })
}

#[test]
fn mail_vector_from_the_eip() {
    let data = TypedData::from_json(&mail()).unwrap();
    assert_eq!(
        encode_type(&data.types, "Mail").unwrap(),
        "Mail(Person from,Person to,string contents)Person(string name,address wallet)"
    );
    assert_eq!(
        to_hex(&keccak(
            encode_type(&data.types, "Mail").unwrap().as_bytes()
        )),
        "a0cedeb2dc280ba39b857546d74f5549c3a1d7bdc2dd96bf881f76108e23dac2"
    );
    assert_eq!(
        to_hex(&data.domain_separator().unwrap()),
        "f2cee375fa42b42143804025fc449deafd50cc031ca257e0b194a650a912090f"
    );
    assert_eq!(
        to_hex(&hash_struct(&data.types, "Mail", &data.message).unwrap()),
        "c52c0ee5d84264471806290a3f2c4cecfc5490626bf912d01f240d7a274b371e"
    );
    assert_eq!(
        to_hex(&data.signing_hash().unwrap()),
        "be609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2"
    );
}

#[test]
fn a_tampered_field_changes_the_hash() {
    let mut mail = mail();
    mail["message"]["contents"] = json!("Hello, Bob?");
    assert_ne!(
        to_hex(&typed_data_hash(&mail).unwrap()),
        "be609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2"
    );
}

#[test]
fn domain_type_is_derived_when_absent() {
    let mut mail = mail();
    mail["types"]
        .as_object_mut()
        .unwrap()
        .remove("EIP712Domain");
    assert_eq!(
        to_hex(&typed_data_hash(&mail).unwrap()),
        "be609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2"
    );
}

#[test]
fn integers_encode_in_range_only() {
    let word = |v: Value, signed, bits| Int::from_json(&v).and_then(|i| i.encode(signed, bits));
    assert_eq!(word(json!(-1), true, 256).unwrap(), [0xff; 32]);
    assert_eq!(word(json!("-1"), true, 8).unwrap(), [0xff; 32]);
    let mut min8 = [0xff; 32];
    min8[31] = 0x80;
    assert_eq!(word(json!(-128), true, 8).unwrap(), min8);
    assert!(word(json!(-129), true, 8).is_err());
    assert!(word(json!(128), true, 8).is_err());
    assert!(word(json!(255), false, 8).is_ok());
    assert!(word(json!(256), false, 8).is_err());
    assert!(word(json!(-1), false, 256).is_err());
    let max = "115792089237316195423570985008687907853269984665640564039457584007913129639935";
    assert_eq!(word(json!(max), false, 256).unwrap(), [0xff; 32]);
    assert!(
        word(
            json!("115792089237316195423570985008687907853269984665640564039457584007913129639936"),
            false,
            256
        )
        .is_err()
    );
    assert!(word(json!(max), true, 256).is_err());
    let min256 = "-57896044618658097711785492504343953926634992332820282019728792003956564819968";
    let mut min = [0u8; 32];
    min[0] = 0x80;
    assert_eq!(word(json!(min256), true, 256).unwrap(), min);
    assert_eq!(word(json!("0x0102"), false, 16).unwrap()[30..], [1, 2]);
    assert!(word(json!(1.5), false, 256).is_err());
    assert!(word(json!("12a"), false, 256).is_err());
    assert!(word(json!(""), false, 256).is_err());
    assert!(word(json!(true), false, 256).is_err());
    assert_eq!(word(json!("-0"), true, 256).unwrap(), [0; 32]);
}

#[test]
fn arrays_and_unknown_types() {
    let data = json!({
        "types": {"EIP712Domain": [], "A": [{"name": "xs", "type": "uint8[2]"}]},
        "primaryType": "A", "domain": {}, "message": {"xs": [1, 2]}
    });
    assert!(typed_data_hash(&data).is_ok());
    let mut short = data.clone();
    short["message"]["xs"] = json!([1]);
    assert!(typed_data_hash(&short).is_err());
    let mut unknown = data;
    unknown["types"]["A"][0]["type"] = json!("uint7");
    let err = typed_data_hash(&unknown).unwrap_err();
    assert!(err.message.contains("unknown type"), "{err}");
}
