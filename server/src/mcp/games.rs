//! The game tools, one per game of the server's list (`arcade_flip`, `arcade_dice`, …): each
//! named after its REST route, described by the first sentence of its input's description,
//! typed by its input's own schema (with the `sign_in_with_x` proof REST reads from its
//! header), and played through the one game path.

use std::sync::Arc;

use rmcp::handler::server::router::tool::ToolRoute;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{CallToolResponse, Tool};
use serde_json::Value;

use super::arguments::with_proof;
use super::output;
use super::tools::{ArcadeTools, answer};
use crate::inputs::games::{GameInput, endpoint, for_each_game_input};
use crate::inputs::schema;
use crate::service::plays::Played;

pub fn routes() -> Vec<ToolRoute<ArcadeTools>> {
    macro_rules! routes {
        ($($Game:ident, $endpoint:literal, $Input:ty, $handler:ident, $about:literal;)*) => {
            vec![$(route::<$Input>()),*]
        };
    }
    for_each_game_input!(routes)
}

fn route<G: GameInput>() -> ToolRoute<ArcadeTools> {
    let mut input_schema = with_proof(&schema::of::<G>());
    let description = match input_schema.remove("description") {
        Some(Value::String(text)) => first_sentence(&text).to_owned(),
        _ => String::new(),
    };
    let tool = Tool::new(
        format!("arcade_{}", endpoint(G::GAME)),
        format!(
            "{description} Plays an arcade_commit round once; the receipt reveals the server seed."
        ),
        Arc::new(input_schema),
    )
    .with_raw_output_schema(output::of::<Played>());
    ToolRoute::new_dyn(tool, |context: ToolCallContext<'_, ArcadeTools>| {
        Box::pin(async move {
            let arguments = context.arguments.unwrap_or_default();
            let result = context.service.play::<G>(arguments).await;
            Ok(CallToolResponse::Complete(answer(result)))
        })
    })
}

/// The first sentence of `text` (the game's rule; the input's description goes on with the
/// odds, which `arcade_games` and `arcade://rules` give).
fn first_sentence(text: &str) -> &str {
    text.find(". ").map_or(text, |end| &text[..=end])
}
