//! One description per operation, for every edge. Each input is a struct whose fields and doc
//! comments generate one JSON Schema (`schema.rs`); the OpenAPI document publishes it as the
//! request body or the path and query parameters, the MCP tool as its input schema, and the
//! one parse (`check.rs`) checks every request against it before deserializing, reporting
//! every problem at once in the interface's FastAPI shape (`problems.rs`). The edges only
//! fetch the values: `api::checked` from the request, `mcp::arguments` from the tool call.
//!
//! | input | REST | MCP |
//! |---|---|---|
//! | `wallets::AddressInput` | POST /api/arcade/free, /commit | arcade_free, arcade_commit |
//! | `wallets::AddressPath` | GET /api/arcade/balance/{address}, /auth-statement/{address}, /siwx/{address} | arcade_balance, arcade_siwx_challenge |
//! | `wallets::CashoutInput`, `CashoutPath` | POST /api/arcade/cashout, GET /cashout/{cashout_id} | arcade_cashout |
//! | `games::FlipInput`, `DiceInput`, `RouletteInput` | POST /api/arcade/flip, /dice, /roulette | arcade_flip, arcade_dice, arcade_roulette |
//! | `queries::BetPath`, `RecentQuery` | GET /api/arcade/verify/{bet_id}, /recent | arcade_verify |
//! | `chips::TierPath`, `NoBody` | GET, POST /api/arcade/chips/{tier} | |
//! | `messages::AgentMessage` | POST /api/housebot/message | |

mod check;
pub mod chips;
pub mod fields;
pub mod game_wire;
pub mod games;
pub mod messages;
mod patterns;
mod problems;
pub mod queries;
pub mod schema;
pub mod wallets;

use std::any::Any;

use rmcp::schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

pub use check::Place;
pub use patterns::{BadPattern, compile as compile_patterns};
pub use problems::{FieldError, ValidationError, json_object};

/// An operation's input.
pub trait Input: DeserializeOwned + JsonSchema + Any + Send {
    /// Where REST carries it: a JSON body, or the path, or the query string.
    const PLACE: Place;
    /// A body that may be left out altogether (then it is `{}`).
    const OPTIONAL_BODY: bool = false;
}

/// The one parse: `object` checked against `T`'s schema, then deserialized.
pub fn parse<T: Input>(mut object: Map<String, Value>, place: Place) -> Result<T, ValidationError> {
    let schema = schema::of::<T>();
    let problems = check::object(&schema, &mut object, place);
    if !problems.is_empty() {
        return Err(ValidationError { detail: problems });
    }
    serde_json::from_value(Value::Object(object)).map_err(|error| {
        // The schema admits only what the struct reads, so this is not expected; say so
        // in the same shape all the same.
        ValidationError::one(FieldError::value_error(
            &[json!(place.as_str())],
            error,
            Value::Null,
        ))
    })
}

/// A JSON body parsed into `T`.
pub fn from_body<T: Input>(bytes: &[u8]) -> Result<T, ValidationError> {
    // Left out means no bytes at all: whitespace alone is not JSON.
    let object = if T::OPTIONAL_BODY && bytes.is_empty() {
        Map::new()
    } else {
        json_object(bytes)?
    };
    parse(object, Place::Body)
}
