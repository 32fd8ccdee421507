//! A settled bet's stored `result` read back as its game's result: every golden vector's
//! result reads back as exactly the one that settled it, and a claim of an outcome a game
//! cannot draw, or without one, is refused.

use arcade_core::wire::ReceiptInput;
use arcade_core::{Receipt, ReceiptError, verify};
use serde_json::{Value, json};

const VECTOR_FILES: [&str; 2] = [
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/vectors/fairness-v1.json"
    ),
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/vectors/fairness-v1-limbo.json"
    ),
];

fn cases() -> Vec<Value> {
    VECTOR_FILES
        .iter()
        .flat_map(|path| {
            let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
            doc["cases"].as_array().unwrap().clone()
        })
        .collect()
}

#[test]
fn every_vector_result_reads_back_as_the_result_that_settled_it() {
    let cases = cases();
    assert!(cases.len() >= 250, "only {} cases", cases.len());
    for case in cases {
        let input: ReceiptInput = serde_json::from_value(case["receipt"].clone()).unwrap();
        let claimed = input.result.clone();
        let receipt = Receipt::try_from(input).unwrap();
        let settled = verify(&receipt).unwrap().settlement.result;
        let read = claimed.result_for(&receipt.call).unwrap();
        assert_eq!(read, settled, "{}", case["name"]);
        assert_eq!(
            serde_json::to_value(read).unwrap(),
            case["receipt"]["result"],
            "{}: the result read back shows as the receipt does",
            case["name"]
        );
    }
}

fn read(game: &str, params: Value, result: Value) -> Result<arcade_core::GameResult, ReceiptError> {
    let input: ReceiptInput = serde_json::from_value(json!({
        "game": game, "fairness_version": 1, "commitment": "", "server_seed": "",
        "client_seed": "", "wager": 1, "params": params, "result": result,
        "won": false, "payout": 0, "profit": -1,
    }))
    .unwrap();
    let call = input.params.to_call(input.game).unwrap();
    input.result.result_for(&call)
}

#[test]
fn an_outcome_a_game_cannot_draw_is_refused() {
    let dice = json!({"target": 50, "direction": "under"});
    let refused = [
        (
            "dice",
            dice.clone(),
            json!({"roll_hundredths": 10001}),
            "result.roll_hundredths",
        ),
        (
            "roulette",
            json!({"bet": "red"}),
            json!({"pocket": 37}),
            "result.pocket",
        ),
        (
            "limbo",
            json!({"target_hundredths": 200}),
            json!({"result_hundredths": 99}),
            "result.result_hundredths",
        ),
        (
            "limbo",
            json!({"target_hundredths": 200}),
            json!({"result_hundredths": 100_000_001}),
            "result.result_hundredths",
        ),
    ];
    for (game, params, result, field) in refused {
        assert_eq!(
            read(game, params, result.clone()),
            Err(ReceiptError::OutcomeOutOfRange { field }),
            "{game} {result}"
        );
    }
    assert!(read("dice", dice, json!({"roll_hundredths": 10000})).is_ok());
    assert!(read("roulette", json!({"bet": "red"}), json!({"pocket": 36})).is_ok());
    assert!(
        read(
            "limbo",
            json!({"target_hundredths": 200}),
            json!({"result_hundredths": 100})
        )
        .is_ok()
    );
}

#[test]
fn a_result_without_its_outcome_is_refused() {
    let missing = [
        ("coinflip", json!({"call": "heads"}), "result.outcome"),
        ("dice", json!({"target": 50}), "result.roll_hundredths"),
        ("roulette", json!({"bet": "red"}), "result.pocket"),
        (
            "limbo",
            json!({"target_hundredths": 200}),
            "result.result_hundredths",
        ),
    ];
    for (game, params, field) in missing {
        assert_eq!(
            read(game, params, json!({})),
            Err(ReceiptError::MissingField { field }),
            "{game}"
        );
    }
    // The display roll alone does not name the roll: hundredths are what settle.
    let display_only = read("dice", json!({"target": 50}), json!({"roll": 12.34}));
    assert!(matches!(
        display_only,
        Err(ReceiptError::MissingField { .. })
    ));
}
