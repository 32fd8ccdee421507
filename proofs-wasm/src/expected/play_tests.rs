//! The `Play` a client signs and a verifier rebuilds from a receipt.

use super::tests::{MARKS, coinflip, receipt};
use super::*;

const DOMAIN: &str = r#"{"name": "Provably Fair Arcade", "version": "1", "chainId": 31337}"#;

/// The call a client fills in before playing: the commit answer's keys and the game body's.
fn call(game: &str, params: Value) -> Value {
    json!({
        "round_id": "r_1", "address": "0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826",
        "commitment": "AB".repeat(32), "game": game, "client_seed": "lucky ☘", "wager": 10,
        "params": params,
    })
}

#[test]
fn the_play_of_a_receipt() {
    let r = receipt(
        "coinflip",
        json!({"call": "heads"}),
        json!({"outcome": "tails"}),
    );
    let m = receipt_messages(&r, None).unwrap();
    assert_eq!(
        m["play"],
        json!({
            "round_id": "r_1", "player": "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826",
            "commitment": format!("0x{}", "ab".repeat(32)), "game": "coinflip",
            "client_seed": "lucky ☘", "call": "heads", "target": 0, "has_number": false,
            "number": 0, "wager": 10
        })
    );
    let play = crate::check::signed_type("Play").unwrap();
    assert_eq!(m["play"].as_object().unwrap().len(), play.len());
    assert!(play.iter().all(|f| m["play"].get(&f.name).is_some()));
    // With the marks, the same Play: it does not depend on the era.
    assert_eq!(
        receipt_messages(&coinflip(42), Some(MARKS)).unwrap()["play"]["call"],
        "heads"
    );
    // Before signing began, nothing is expected of anyone.
    let mut old = r;
    old["proofs"]["batch"] = Value::Null;
    assert_eq!(
        receipt_messages(&old, None).unwrap(),
        json!({"unsigned": true})
    );
}

#[test]
fn the_calls_of_each_game_in_a_play() {
    let of = |game: &str, params: Value| {
        let m = play_message(&call(game, params)).unwrap();
        (
            m["call"].clone(),
            m["target"].clone(),
            m["has_number"].clone(),
            m["number"].clone(),
        )
    };
    assert_eq!(
        of("dice", json!({"target": 5000, "direction": "over"})),
        (json!("over"), json!(5000), json!(false), json!(0))
    );
    assert_eq!(
        of("dice", json!({"target": 1})),
        (json!("under"), json!(1), json!(false), json!(0)),
        "the direction is under when not given"
    );
    assert_eq!(
        of("roulette", json!({"bet": "straight", "number": 0})),
        (json!("straight"), json!(0), json!(true), json!(0))
    );
    assert_eq!(
        of("roulette", json!({"bet": "straight", "number": 17})),
        (json!("straight"), json!(0), json!(true), json!(17))
    );
    for params in [json!({"bet": "red"}), json!({"bet": "red", "number": null})] {
        assert_eq!(
            of("roulette", params),
            (json!("red"), json!(0), json!(false), json!(0))
        );
    }
    for (game, params, words) in [
        ("craps", json!({}), "game is \"craps\""),
        (
            "dice",
            json!({"direction": "over"}),
            "params.target is missing",
        ),
        ("dice", json!({"target": -1}), "params.target is -1"),
        (
            "roulette",
            json!({"bet": "straight", "number": "7"}),
            "params.number",
        ),
        ("coinflip", json!({"call": 1}), "params.call is 1"),
    ] {
        let refused = play_message(&call(game, params)).unwrap_err();
        assert_eq!(refused.code, crate::error::Code::InvalidInput);
        assert!(refused.message.contains(words), "{}", refused.message);
    }
    let mut bad = call("coinflip", json!({"call": "heads"}));
    bad["address"] = json!("0x12…34");
    assert!(
        play_message(&bad)
            .unwrap_err()
            .message
            .contains("not a full address")
    );
    bad["address"] = json!("0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826");
    bad["wager"] = json!(1.5);
    assert!(
        play_message(&bad)
            .unwrap_err()
            .message
            .starts_with("wager is 1.5")
    );
}

#[test]
fn a_call_signs_exactly_what_its_receipt_rebuilds() {
    let domain: Value = serde_json::from_str(DOMAIN).unwrap();
    for (game, params, result) in [
        (
            "coinflip",
            json!({"call": "tails"}),
            json!({"outcome": "heads"}),
        ),
        (
            "dice",
            json!({"target": 5000}),
            json!({"roll_hundredths": 7311}),
        ),
        (
            "roulette",
            json!({"bet": "straight", "number": 7}),
            json!({"pocket": 7}),
        ),
        ("roulette", json!({"bet": "odd"}), json!({"pocket": 7})),
    ] {
        let typed = play_typed_data(&call(game, params.clone()), &domain).unwrap();
        assert_eq!(typed["primaryType"], "Play");
        assert_eq!(typed["domain"], domain);
        assert_eq!(
            typed["types"]["Play"],
            crate::check::signed_types_json()["Play"]
        );
        assert_eq!(
            typed["types"]["EIP712Domain"],
            json!([
                {"name": "name", "type": "string"},
                {"name": "version", "type": "string"},
                {"name": "chainId", "type": "uint256"}
            ])
        );
        // The receipt of that call, as the server sends it (direction filled in, number null).
        let mut played = receipt(game, params, result);
        played["client_seed"] = json!("lucky ☘");
        if game == "dice" {
            played["params"]["direction"] = json!("under");
        }
        if game == "roulette" && played["params"].get("number").is_none() {
            played["params"]["number"] = Value::Null;
        }
        assert_eq!(
            typed["message"],
            receipt_messages(&played, None).unwrap()["play"],
            "{game}"
        );
    }
}

#[test]
fn a_domain_a_wallet_cannot_sign_is_refused() {
    let play = call("coinflip", json!({"call": "heads"}));
    for (domain, words) in [
        (json!([1]), "the domain is not an object"),
        (
            json!({"name": "Provably Fair Arcade", "chain": 1}),
            "domain.chain is not a member",
        ),
        (
            json!({"name": "Provably Fair Arcade", "version": "1", "chainId": -1}),
            "the domain: ",
        ),
    ] {
        let refused = play_typed_data(&play, &domain).unwrap_err();
        assert_eq!(refused.code, crate::error::Code::InvalidInput);
        assert!(refused.message.starts_with(words), "{}", refused.message);
    }
}
