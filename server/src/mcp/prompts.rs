//! The arcade's MCP prompts: `play_and_verify` (one round of a game, played and checked) and
//! `audit_address` (an address's recent rounds, each re-derived and matched to its seed batch).
//! Their text names the real tools and resources; the arguments go through the same parse as
//! the tools' (an address as REST reads one), and a bad one is an invalid-params error with
//! REST's body (`validation_error`).

use rmcp::ErrorData;
use rmcp::model::{
    GetPromptResult, JsonObject, ListPromptsResult, Prompt, PromptArgument, PromptMessage, Role,
};
use serde_json::{Map, Value};

use super::errors::protocol_error;
use crate::inputs::games::endpoint;
use crate::inputs::wallets::AddressPath;
use crate::inputs::{self, Place};
use arcade_core::Game;

pub const PLAY: &str = "play_and_verify";
pub const AUDIT: &str = "audit_address";

/// How many of an address's rounds an audit reads unless told.
const AUDIT_ROUNDS: u64 = 20;

pub fn list() -> ListPromptsResult {
    let games = game_names().join(", ");
    ListPromptsResult::with_all_items(vec![
        Prompt::new(
            PLAY,
            Some(
                "Play one round of a game with a fresh client seed, then verify its receipt and proofs.",
            ),
            Some(vec![
                argument("game", &format!("The game: one of {games}."), true),
                argument(
                    "wager",
                    "Chips to stake, a whole number (see the limits in arcade://rules).",
                    true,
                ),
                argument(
                    "address",
                    "The wallet address that plays (0x + 40 hex). Asked for if left out.",
                    false,
                ),
                argument(
                    "call",
                    "What to bet on, in the game's terms (e.g. heads, over 50, red, 2.00). Chosen from arcade_games if left out.",
                    false,
                ),
            ]),
        ),
        Prompt::new(
            AUDIT,
            Some(
                "Audit an address's recent rounds: re-derive each from its revealed seed and check its commitment, signatures and place in its seed batch.",
            ),
            Some(vec![
                argument(
                    "address",
                    "The wallet address to audit (0x + 40 hex).",
                    true,
                ),
                argument(
                    "rounds",
                    &format!(
                        "How many of its most recent rounds to check (default {AUDIT_ROUNDS})."
                    ),
                    false,
                ),
            ]),
        ),
    ])
}

fn argument(name: &str, description: &str, required: bool) -> PromptArgument {
    PromptArgument::new(name)
        .with_description(description)
        .with_required(required)
}

/// The game names, as the tools are named (`arcade_<name>`).
pub fn game_names() -> Vec<&'static str> {
    Game::ALL.into_iter().map(endpoint).collect()
}

/// The prompt's messages for these arguments.
pub fn get(name: &str, arguments: Option<JsonObject>) -> Result<GetPromptResult, ErrorData> {
    let arguments = arguments.unwrap_or_default();
    let text = match name {
        PLAY => play_text(&arguments)?,
        AUDIT => audit_text(&arguments)?,
        _ => {
            return Err(ErrorData::invalid_params(
                format!("prompt_not_found: no prompt {name}; see prompts/list"),
                Some(serde_json::json!({ "code": "prompt_not_found" })),
            ));
        }
    };
    Ok(GetPromptResult::new(vec![PromptMessage::new_text(
        Role::User,
        text,
    )]))
}

fn text_of<'a>(arguments: &'a JsonObject, name: &str) -> Option<&'a str> {
    arguments
        .get(name)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|v| !v.is_empty())
}

/// Missing or malformed: an invalid-params error naming the argument.
fn refused(name: &str, detail: &str) -> ErrorData {
    ErrorData::invalid_params(
        format!("validation_error: {name}: {detail}"),
        Some(serde_json::json!({ "code": "validation_error", "argument": name, "detail": detail })),
    )
}

/// An address as REST parses one (checksummed on display).
fn address(arguments: &JsonObject, name: &str) -> Result<Option<String>, ErrorData> {
    let Some(value) = text_of(arguments, name) else {
        return Ok(None);
    };
    let object = Map::from_iter([(name.to_owned(), Value::String(value.to_owned()))]);
    let parsed = inputs::parse::<AddressPath>(object, Place::Path).map_err(protocol_error)?;
    Ok(Some(crate::address::display(&parsed.address.0)))
}

fn whole_number(arguments: &JsonObject, name: &str) -> Result<Option<u64>, ErrorData> {
    match text_of(arguments, name) {
        None => Ok(None),
        Some(value) => match value.parse::<u64>() {
            Ok(number) if number > 0 => Ok(Some(number)),
            _ => Err(refused(name, "a whole number of at least 1")),
        },
    }
}

fn play_text(arguments: &JsonObject) -> Result<String, ErrorData> {
    let names = game_names();
    let game = text_of(arguments, "game")
        .ok_or_else(|| refused("game", "required"))?
        .to_ascii_lowercase();
    if !names.contains(&game.as_str()) {
        return Err(refused("game", &format!("one of {}", names.join(", "))));
    }
    let wager = whole_number(arguments, "wager")?.ok_or_else(|| refused("wager", "required"))?;
    let who = address(arguments, "address")?
        .unwrap_or_else(|| "my wallet address (ask me for it)".to_owned());
    let call = text_of(arguments, "call").map_or_else(
        || "a call you choose from its params in arcade_games".to_owned(),
        |call| format!("this call: {call}"),
    );
    Ok(format!(
        "Play one round of {game} on the arcade for {wager} chips as {who}, then verify it.\n\n\
         1. Read arcade://rules (the fairness algorithm and this deployment's limits) and call \
         arcade_games for {game}'s parameters.\n\
         2. Call arcade_balance with the address. If it holds fewer than {wager} chips and has \
         never claimed them, call arcade_free. Have the wallet sign the returned auth_statement \
         with personal_sign (EIP-191).\n\
         3. Call arcade_commit with the address and that signature. Keep its round_id and its \
         commitment (the SHA-256 of the house's secret seed).\n\
         4. Call arcade_{game} with round_id, wager {wager}, {call}, and a fresh random \
         client_seed of your own (16 random bytes as hex). If the call gets no answer, repeat \
         it exactly or read arcade://rounds/<round_id>.\n\
         5. Read arcade://bets/<bet_id> (or call arcade_verify): `verdict` must be `pass` \
         (`consistent, not proven` means a proof is missing, `reason` says which) and \
         `mismatches` empty; its commitment must equal the one from step 3, and the SHA-256 of \
         the revealed server_seed (its 64 hex characters as ASCII) must equal it.\n\
         6. Read arcade://seed-batches/<proofs.batch.batch_id>/rows/<proofs.batch.index> \
         (the round's row with its batch's signed root, a few KB): the row must show the same \
         commitment, seed and bet_id.\n\n\
         Report the outcome, the payout, the new balance and whether every check held."
    ))
}

fn audit_text(arguments: &JsonObject) -> Result<String, ErrorData> {
    let who = address(arguments, "address")?.ok_or_else(|| refused("address", "required"))?;
    let rounds = whole_number(arguments, "rounds")?.unwrap_or(AUDIT_ROUNDS);
    Ok(format!(
        "Audit the last {rounds} settled rounds of {who} on the arcade.\n\n\
         1. Find its bets: page GET /api/arcade/receipts?after=<bet_id>&limit=1000 (every \
         settled receipt in bet order, full addresses, proofs included) until next_after is \
         null, and keep the last {rounds} whose address is {who} (compare case-insensitively).\n\
         2. For each bet_id, read arcade://bets/<bet_id> (or call arcade_verify): `verdict` \
         must be `pass` and `mismatches` empty, which re-derives the outcome and payout from the \
         revealed server_seed, the client_seed and the call with the algorithm in \
         arcade://rules.\n\
         3. Check the commitment yourself: the SHA-256 of the server_seed's 64 hex characters \
         as ASCII must equal `commitment`.\n\
         4. For each round, read \
         arcade://seed-batches/<proofs.batch.batch_id>/rows/<proofs.batch.index>: the row must \
         carry the same commitment and seed, and its audit path must lead to the batch's signed \
         merkle_root. The house's signatures in `proofs` (commitment, \
         receipt) must recover to the `signer` that arcade_games names.\n\
         5. Call arcade_balance for {who} and compare it with the sum of the profits found, \
         knowing that purchases, free chips and cashouts also move it.\n\n\
         Report each round that fails a check, with the check and the values, then a summary: \
         rounds checked, wagered, paid out, net."
    ))
}
