//! The games' descriptions (`arcade_core::GAMES`) held to the games themselves: every call's
//! `params` and every drawn `result` show exactly the described fields, each holding what its
//! kind says; the described words are the games' own; and the signed members read from a
//! receipt by the description are what the core signs, over every call and every golden vector.

use std::collections::BTreeSet;

use arcade_core::description::{Description, Field, Kind, Source};
use arcade_core::wire::{CallParams, ParamsInput, ReceiptInput};
use arcade_core::{
    BetKind, Call, Color, DiceCall, Direction, GAMES, Game, GameResult, LimboCall, Receipt,
    RouletteBet, Side, limbo, verify,
};
use serde_json::{Value, json};

const VECTORS: [&str; 2] = [
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/vectors/fairness-v1.json"
    ),
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/vectors/fairness-v1-limbo.json"
    ),
];

/// Every call of every game, limbo's at its bounds and between.
fn every_call() -> Vec<Call> {
    let mut calls: Vec<Call> = Side::ALL.into_iter().map(Call::Coinflip).collect();
    for target in 1..=99 {
        for direction in Direction::ALL {
            calls.push(Call::Dice(DiceCall::new(target, direction).unwrap()));
        }
    }
    for kind in BetKind::ALL {
        let numbers: Vec<Option<u32>> = match kind {
            BetKind::Straight => (0..37).map(Some).collect(),
            _ => vec![None],
        };
        for number in numbers {
            calls.push(Call::Roulette(RouletteBet::new(kind, number).unwrap()));
        }
    }
    for target in [101, 150, 199, 200, 12_345, 100_000_000] {
        calls.push(Call::Limbo(LimboCall::new(target).unwrap()));
    }
    calls
}

fn described(game: Game) -> &'static Description {
    let description = game.description();
    assert_eq!(Description::of(game.as_str()), Some(description));
    description
}

/// `value` is what `field` holds; a required field is given.
fn holds(field: &Field, value: Option<&Value>) -> bool {
    let Some(value) = value.filter(|v| !v.is_null()) else {
        return !field.required;
    };
    match field.kind {
        Kind::Choice { words } => value.as_str().is_some_and(|w| words.contains(&w)),
        Kind::Integer { min, max } => value.as_u64().is_some_and(|n| (min..=max).contains(&n)),
        Kind::Text { .. } | Kind::Shown => value.is_string(),
        Kind::Number => value.is_number(),
    }
}

/// The object shows exactly `fields` (each holding its kind), and the keys it shows are added
/// to `seen`.
fn shows_exactly(fields: &[Field], object: &Value, seen: &mut BTreeSet<&'static str>) {
    let shown = object.as_object().unwrap();
    for key in shown.keys() {
        assert!(
            fields.iter().any(|f| f.name == key),
            "{key} is not described: {object}"
        );
    }
    for field in fields {
        assert!(
            holds(field, shown.get(field.name)),
            "{}: {object}",
            field.name
        );
        if let Some((other, word)) = field.required_with {
            let given = shown.get(field.name).is_some_and(|v| !v.is_null());
            assert_eq!(
                given,
                shown.get(other) == Some(&json!(word)),
                "{}: {object}",
                field.name
            );
        }
        if shown.get(field.name).is_some_and(|v| !v.is_null()) {
            seen.insert(field.name);
        }
    }
}

#[test]
fn the_descriptions_are_the_games_in_their_order() {
    let names: Vec<&str> = GAMES.iter().map(|d| d.name).collect();
    assert_eq!(names, Game::NAMES);
    for game in Game::ALL {
        assert_eq!(described(game).outcomes, game.outcomes(), "{game:?}");
        assert!(!described(game).summary.is_empty());
    }
}

#[test]
fn every_call_and_result_shows_exactly_the_described_fields() {
    let mut seen: Vec<BTreeSet<&str>> = vec![BTreeSet::new(); GAMES.len()];
    let mut seen_results = seen.clone();
    for call in every_call() {
        let game = call.game();
        let i = Game::ALL.iter().position(|g| *g == game).unwrap();
        let description = described(game);
        let params = serde_json::to_value(CallParams(&call)).unwrap();
        shows_exactly(description.params, &params, &mut seen[i]);
        for u0 in [0, 1, 1 << 31, 3_000_000_000, u32::MAX] {
            let result = serde_json::to_value(GameResult::draw(&call, u0)).unwrap();
            shows_exactly(description.result, &result, &mut seen_results[i]);
        }
    }
    // And no described field is one no call or result ever shows.
    for (i, description) in GAMES.iter().enumerate() {
        for field in description.params {
            assert!(
                seen[i].contains(field.name),
                "{}: params.{}",
                description.name,
                field.name
            );
        }
        for field in description.result {
            let name = field.name;
            assert!(
                seen_results[i].contains(name),
                "{}: result.{name}",
                description.name
            );
        }
    }
}

#[test]
fn the_described_words_are_the_games_own() {
    let words = |game: Game, field: &str, fields: fn(&Description) -> &[Field]| {
        let field = fields(described(game))
            .iter()
            .find(|f| f.name == field)
            .unwrap();
        match field.kind {
            Kind::Choice { words } => words.to_vec(),
            other => panic!("{game:?} {}: {other:?}", field.name),
        }
    };
    let params = |d: &Description| d.params;
    let result = |d: &Description| d.result;
    assert_eq!(
        words(Game::Coinflip, "call", params),
        Side::ALL.map(Side::as_str)
    );
    assert_eq!(
        words(Game::Coinflip, "outcome", result),
        Side::ALL.map(Side::as_str)
    );
    assert_eq!(
        words(Game::Dice, "direction", params),
        Direction::ALL.map(Direction::as_str)
    );
    assert_eq!(
        words(Game::Roulette, "bet", params),
        BetKind::ALL.map(BetKind::as_str)
    );
    assert_eq!(
        words(Game::Roulette, "color", result),
        Color::ALL.map(Color::as_str)
    );
    // A call's fields are its params' but for limbo, whose target is sent as decimal text.
    for description in GAMES {
        if description.name != "limbo" {
            assert_eq!(description.call, description.params, "{}", description.name);
        }
    }
    let target = described(Game::Limbo).call_field("target").unwrap();
    assert_eq!(
        target.kind,
        Kind::Text {
            pattern: limbo::TARGET_PATTERN
        }
    );
}

/// The signed members a verifier outside the core reads from a receipt's JSON by its game's
/// description: `(call, target, has_number, number, outcome)`.
fn by_the_description(receipt: &Value) -> (String, u64, bool, u64, u64) {
    let description = Description::of(receipt["game"].as_str().unwrap()).unwrap();
    let (params, result, signed) = (&receipt["params"], &receipt["result"], description.signed);
    let param = |name: &str| params.get(name).filter(|v| !v.is_null());
    let call = match signed.call {
        Source::Param(name) => match param(name) {
            Some(word) => word.as_str().unwrap().to_owned(),
            // An optional choice left out is its first word.
            None => match description
                .params
                .iter()
                .find(|f| f.name == name)
                .unwrap()
                .kind
            {
                Kind::Choice { words } => words[0].to_owned(),
                other => panic!("{name}: {other:?}"),
            },
        },
        Source::Word(word) => word.to_owned(),
        Source::Absent => panic!("{}: a Play always names a call", description.name),
    };
    let number_of = |source: Source| match source {
        Source::Param(name) => param(name).map(|v| v.as_u64().unwrap()),
        Source::Word(word) => panic!("{word} is not a number"),
        Source::Absent => None,
    };
    let target = number_of(signed.target).unwrap_or(0);
    let number = number_of(signed.number);
    let outcome = &result[signed.outcome];
    let outcome = match signed.outcome_words {
        [] => outcome.as_u64().unwrap(),
        words => words.iter().position(|w| outcome == *w).unwrap() as u64,
    };
    (call, target, number.is_some(), number.unwrap_or(0), outcome)
}

fn by_the_core(call: &Call, result: &GameResult) -> (String, u64, bool, u64, u64) {
    let signed = call.signed();
    let number = u64::from(signed.number_or_zero());
    (
        signed.call.to_owned(),
        signed.target,
        signed.has_number(),
        number,
        result.signed_outcome(),
    )
}

#[test]
fn the_described_signed_members_are_what_the_core_signs() {
    for call in every_call() {
        for u0 in [0, 1 << 31, u32::MAX] {
            let result = GameResult::draw(&call, u0);
            let receipt = json!({
                "game": call.game(),
                "params": CallParams(&call),
                "result": result,
            });
            assert_eq!(
                by_the_description(&receipt),
                by_the_core(&call, &result),
                "{receipt}"
            );
        }
    }
    // A dice receipt without a direction plays (and signs) under.
    let params: ParamsInput = serde_json::from_value(json!({ "target": 40 })).unwrap();
    let call = params.to_call(Game::Dice).unwrap();
    let result = GameResult::draw(&call, 7);
    let receipt = json!({ "game": "dice", "params": { "target": 40 }, "result": result });
    assert_eq!(by_the_description(&receipt), by_the_core(&call, &result));
}

#[test]
fn every_golden_vector_signs_what_its_description_says() {
    let mut games = Vec::new();
    for path in VECTORS {
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        for case in doc["cases"].as_array().unwrap() {
            let json = &case["receipt"];
            let input: ReceiptInput = serde_json::from_value(json.clone()).unwrap();
            let receipt = Receipt::try_from(input).unwrap();
            let settled = verify(&receipt).unwrap().settlement;
            let ours = by_the_core(&receipt.call, &settled.result);
            assert_eq!(ours, by_the_description(json), "{}", case["name"]);
            games.push(receipt.call.game());
        }
    }
    for game in Game::ALL {
        assert!(games.contains(&game), "no vector of {game:?}");
    }
}

include!("../examples/games/module.rs");

/// The descriptions the wasm package ships (`wasm/js/games.js`) are the core's, as the example
/// writes them: regenerate the file when a game changes.
#[test]
fn the_shipped_descriptions_are_the_cores() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../wasm/js/games.js");
    let shipped = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        shipped == games_module(),
        "wasm/js/games.js is not the core's descriptions: run \
         `cargo run -p arcade-core --features serde --example games > wasm/js/games.js`"
    );
}

/// A description's `mapping` with the round's numbers in it, as a verifier fills it.
fn filled(description: &Description, u0: u32, result: &Value) -> String {
    let mut text = description.mapping.to_owned();
    let game = Game::parse(description.name).unwrap();
    let mut values = vec![
        ("u0".to_owned(), u0.to_string()),
        ("drawn".to_owned(), game.drawn(u0).to_string()),
    ];
    for (key, value) in result.as_object().unwrap() {
        let shown = value
            .as_str()
            .map_or_else(|| value.to_string(), str::to_owned);
        values.push((key.clone(), shown));
    }
    for (key, value) in values {
        text = text.replace(&format!("{{{key}}}"), &value);
    }
    assert!(
        !text.contains('{'),
        "{}: a placeholder nothing fills: {text}",
        description.name
    );
    text
}

#[test]
fn each_mapping_shows_how_u0_becomes_the_outcome() {
    let cases = [
        (
            Call::Coinflip(Side::Heads),
            1 << 31,
            "u0 >> 31 = 1 (u0 = 2147483648: heads iff u0 ≥ 2^31 = 2147483648) → heads",
        ),
        (
            Call::Coinflip(Side::Heads),
            5,
            "u0 >> 31 = 0 (u0 = 5: heads iff u0 ≥ 2^31 = 2147483648) → tails",
        ),
        (
            Call::Dice(DiceCall::new(50, Direction::Under).unwrap()),
            3_000_000,
            "(u0 × 10001) >> 32 = 6 → roll 0.06",
        ),
        (
            Call::Roulette(RouletteBet::new(BetKind::Red, None).unwrap()),
            u32::MAX,
            "(u0 × 37) >> 32 = 36 → pocket 36",
        ),
        (
            Call::Limbo(LimboCall::new(101).unwrap()),
            4_248_896_143,
            "floor(99 × 2^32 / u0) = 100 (u0 = 0 draws the cap), kept within 100 ..= 100000000 → result 100 hundredths → 1.00x",
        ),
        (
            Call::Limbo(LimboCall::new(101).unwrap()),
            0,
            "floor(99 × 2^32 / u0) = 100000000 (u0 = 0 draws the cap), kept within 100 ..= 100000000 → result 100000000 hundredths → 1000000.00x",
        ),
    ];
    for (call, u0, text) in cases {
        let result = serde_json::to_value(GameResult::draw(&call, u0)).unwrap();
        assert_eq!(filled(call.game().description(), u0, &result), text);
    }
    // Every game's mapping is filled by every result it draws.
    for call in every_call().into_iter().step_by(7) {
        for u0 in [0, 1, 1 << 31, u32::MAX] {
            let result = serde_json::to_value(GameResult::draw(&call, u0)).unwrap();
            filled(call.game().description(), u0, &result);
        }
    }
}
