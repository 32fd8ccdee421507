//! The game inputs held to the core's games: their order, the house agents' calls, and each
//! input's fields as the core describes them.

use super::*;
use arcade_core::description::{Field, Kind};

#[test]
fn each_game_is_described_as_the_core_describes_it() {
    for game in Game::ALL {
        let description = game.description();
        assert_eq!(about(game), description.summary, "{game:?}");
        let schema = input_schema(game);
        let properties = schema["properties"].as_object().unwrap();
        let round_fields = schema::of::<RoundFields>();
        let own: Vec<&String> = properties
            .keys()
            .filter(|key| {
                !round_fields["properties"]
                    .as_object()
                    .unwrap()
                    .contains_key(*key)
            })
            .collect();
        let mut own: Vec<&str> = own.into_iter().map(String::as_str).collect();
        own.sort_unstable();
        let mut described: Vec<&str> = description.call.iter().map(|f| f.name).collect();
        described.sort_unstable();
        assert_eq!(own, described, "{game:?}: the input's own fields");
        let required: Vec<&str> = schema["required"]
            .as_array()
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        for field in description.call {
            assert_eq!(
                required.contains(&field.name),
                field.required,
                "{game:?} {}",
                field.name
            );
            held_to(game, field, &properties[field.name]);
            // A field required only with another's word: the schema says so (if, then).
            if let Some((other, word)) = field.required_with {
                assert_eq!(schema["if"]["properties"][other]["const"], word, "{game:?}");
                let then = schema["then"]["required"].as_array().unwrap();
                assert!(
                    then.contains(&Value::from(field.name)),
                    "{game:?} {}",
                    field.name
                );
            }
        }
    }
}

/// An input schema's property says what the core's field holds: its words, its range, its
/// pattern.
fn held_to(game: Game, field: &Field, property: &Value) {
    let text = property.to_string();
    match field.kind {
        Kind::Choice { words } => {
            for word in words {
                assert!(
                    text.contains(&format!("\"{word}\"")),
                    "{game:?} {}: {word}",
                    field.name
                );
            }
        }
        Kind::Integer { min, max } => {
            assert_eq!(
                property["minimum"],
                serde_json::json!(min),
                "{game:?} {}",
                field.name
            );
            assert_eq!(
                property["maximum"],
                serde_json::json!(max),
                "{game:?} {}",
                field.name
            );
        }
        Kind::Text { pattern } => {
            assert!(
                text.contains(&serde_json::to_string(pattern).unwrap()),
                "{game:?} {}: {text}",
                field.name
            );
        }
        Kind::Shown | Kind::Number => {
            panic!("{game:?} {}: a call field is never shown", field.name)
        }
    }
}

#[test]
fn the_list_holds_the_cores_games_in_its_order() {
    assert_eq!(LISTED, Game::ALL.as_slice());
    for game in Game::ALL {
        let calls = house_calls(game);
        assert!(!calls.is_empty(), "{game:?}");
        assert!(calls.iter().all(|call| call.game() == game), "{game:?}");
    }
}

/// What the house agents send: every house call's body reads back as that very call.
#[test]
fn every_house_call_body_reads_back_as_its_call() {
    macro_rules! read_back {
        ($($Game:ident, $endpoint:literal, $Input:ty, $handler:ident, $about:literal;)*) => {
            $(for call in house_calls(Game::$Game) {
                let mut body = call_body(&call);
                body.insert("round_id".into(), "r".into());
                body.insert("client_seed".into(), "c".into());
                body.insert("wager".into(), 1.into());
                let input: $Input = serde_json::from_value(Value::Object(body.clone()))
                    .unwrap_or_else(|e| panic!("{body:?}: {e}"));
                assert_eq!(input.call(), Ok(call), "{body:?}");
            })*
        };
    }
    for_each_game_input!(read_back);
}
