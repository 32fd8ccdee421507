//! What each tool does to the world, as MCP's tool annotations say it: the hints a client shows
//! its user or plans by. A read-only tool changes nothing. Any other says whether it only adds
//! (`destructiveHint: false`) or may take away, whether repeating it with the same arguments
//! changes nothing more (`idempotentHint`), and whether it reaches outside the arcade
//! (`openWorldHint`: the chain). Every tool is in this table; a test holds the router to it.

use arcade_core::Game;
use rmcp::model::ToolAnnotations;

use crate::inputs::games::endpoint;

/// What a tool does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// Reads only.
    Reads,
    /// Writes in the arcade's own records: whether it may take away, and whether a repeat is
    /// a no-op.
    Writes { destructive: bool, idempotent: bool },
    /// Moves tokens on the chain (a cashout's transfer, a purchase's payment) and changes a
    /// balance; never a no-op when repeated with a new payment or amount.
    Sends,
}

/// The effect of the tool named `name`, if the arcade has that tool.
pub fn effect(name: &str) -> Option<Effect> {
    let writes = |destructive, idempotent| Effect::Writes {
        destructive,
        idempotent,
    };
    Some(match name {
        "arcade_games"
        | "arcade_balance"
        | "arcade_round"
        | "arcade_verify"
        | "arcade_house"
        | "arcade_siwx_challenge" => Effect::Reads,
        // Credits 100 chips once: a second claim is refused and changes nothing.
        "arcade_free" => writes(false, true),
        // Opens a new round every time.
        "arcade_commit" => writes(false, false),
        // Revokes every signature so far and expires the open rounds.
        "arcade_rotate" => writes(true, false),
        "arcade_cashout" => Effect::Sends,
        // Moves the payer's tokens on the chain and credits chips: never a no-op for a new
        // payment. A retry of the same payment (under its payment-identifier or not) credits
        // nothing more, but a call with a new payment buys again, so it is not idempotent.
        // The payer's tokens leave their wallet (not an additive update), so destructive.
        "arcade_buy_chips" => Effect::Sends,
        // A play spends its round and its wager; the same call again answers the original
        // receipt and changes nothing.
        game if is_game_tool(game) => writes(true, true),
        _ => return None,
    })
}

fn is_game_tool(name: &str) -> bool {
    Game::ALL
        .into_iter()
        .any(|game| name.strip_prefix("arcade_") == Some(endpoint(game)))
}

/// The annotations of `effect`, every hint stated.
pub fn annotations(effect: Effect) -> ToolAnnotations {
    let hints = ToolAnnotations::new().open_world(effect == Effect::Sends);
    match effect {
        Effect::Reads => hints.read_only(true),
        Effect::Writes {
            destructive,
            idempotent,
        } => hints
            .read_only(false)
            .destructive(destructive)
            .idempotent(idempotent),
        Effect::Sends => hints.read_only(false).destructive(true).idempotent(false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_states_every_hint_and_what_it_does() {
        let tools = crate::mcp::router::router().list_all();
        for tool in &tools {
            let hints = tool.annotations.as_ref().expect("annotated");
            let read_only = hints.read_only_hint.expect("readOnlyHint stated");
            assert!(hints.open_world_hint.is_some(), "{}", tool.name);
            if !read_only {
                assert!(hints.destructive_hint.is_some(), "{}", tool.name);
                assert!(hints.idempotent_hint.is_some(), "{}", tool.name);
            }
        }
        let hints = |name: &str| {
            let tool = tools.iter().find(|tool| tool.name == name).expect(name);
            let hints = tool.annotations.clone().unwrap();
            (
                hints.read_only_hint,
                hints.destructive_hint,
                hints.idempotent_hint,
                hints.open_world_hint,
            )
        };
        assert_eq!(
            hints("arcade_verify"),
            (Some(true), None, None, Some(false))
        );
        assert_eq!(
            hints("arcade_siwx_challenge"),
            (Some(true), None, None, Some(false))
        );
        assert_eq!(
            hints("arcade_free"),
            (Some(false), Some(false), Some(true), Some(false))
        );
        assert_eq!(
            hints("arcade_cashout"),
            (Some(false), Some(true), Some(false), Some(true))
        );
        for game in Game::ALL {
            assert_eq!(
                hints(&format!("arcade_{}", endpoint(game))),
                (Some(false), Some(true), Some(true), Some(false))
            );
        }
        assert_eq!(
            hints("arcade_buy_chips"),
            (Some(false), Some(true), Some(false), Some(true))
        );
        assert_eq!(effect("arcade_plinko"), None);
    }
}
