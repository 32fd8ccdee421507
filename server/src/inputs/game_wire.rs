//! How the games listing names each game as this edge serves it: the route it is played at
//! and its call's parameters, read from its input schema (`games.rs`).

use std::collections::BTreeMap;

use arcade_core::Game;
use serde_json::Value;

use super::games::{endpoint, input_schema};
use crate::service::stats::GameWire;

/// How the games listing names each game: its route and its parameters.
pub const WIRE: GameWire = GameWire {
    route: endpoint,
    params,
};

/// A game's parameters as its input schema describes them: one source for the games listing,
/// the OpenAPI document and the MCP tool.
pub fn params(game: Game) -> BTreeMap<String, String> {
    input_schema(game)
        .get("properties")
        .and_then(Value::as_object)
        .map(|properties| {
            properties
                .iter()
                .map(|(name, property)| {
                    // Plain text: the schema's markdown code marks dropped.
                    let text = property["description"].as_str().unwrap_or_default();
                    (name.clone(), text.replace('`', ""))
                })
                .collect()
        })
        .unwrap_or_default()
}
