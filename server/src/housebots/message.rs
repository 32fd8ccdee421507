//! Answers to an inbound `AgentMessage`, as a house agent would: deterministic, useful (how to
//! play, the limits and odds, how to verify), and with `use_tools` the result of the read-only
//! tool the message asks for (games, house, recent, or the balance of an address).

use arcade_core::Game;
use salvo::oapi::ToSchema;
use serde::Serialize;
use serde_json::{Value, json};

use crate::address;
use crate::error::ApiError;
use crate::inputs::games::about;
use crate::inputs::messages::AgentMessage;
use crate::service::Arcade;

#[derive(Debug, Serialize, ToSchema)]
pub struct Reply {
    /// Who answers.
    pub from: String,
    /// The `from_id` this answers.
    pub to: String,
    pub reply: String,
    /// With `use_tools`: the read-only tool run and its result; `null` when none applied.
    #[salvo(schema(value_type = Option<Object>))]
    pub tool: Value,
}

enum Topic {
    HowToPlay,
    Odds,
    Verify,
    General,
}

fn topic(text: &str) -> Topic {
    let has = |words: &[&str]| words.iter().any(|w| text.contains(w));
    if has(&["verify", "fair", "proof", "provabl", "commit", "seed"]) {
        Topic::Verify
    } else if has(&[
        "odds",
        "limit",
        "payout",
        "multiplier",
        "max",
        "edge",
        "chance",
    ]) {
        Topic::Odds
    } else if has(&["how", "play", "start", "begin", "help"]) {
        Topic::HowToPlay
    } else {
        Topic::General
    }
}

/// The house's answer to `message`, from what the service shows anyone.
pub async fn answer(arcade: &Arcade, message: &AgentMessage) -> Result<Reply, ApiError> {
    let text = message.message.to_lowercase();
    let games = arcade.stats.games().await?;
    let limits = &games.limits;
    let how = games.how_to_play.join(" ");
    let odds = format!(
        "{} Wagers {}-{} chips, at most {} chips profit per round, at most {} chips net winnings a day; cashouts {}-{} chips after a purchase.",
        Game::ALL.map(about).join(" "),
        limits.min_wager_chips,
        limits.max_wager_chips,
        limits.max_payout_chips,
        limits.daily_win_cap_chips,
        limits.min_cashout_chips,
        limits.max_cashout_chips
    );
    let verify = "Every round is committed first: the house publishes sha256(server_seed) before seeing your client seed, and reveals the seed after. Check sha256(server_seed) == commitment and re-derive the roll from HMAC-SHA256(server_seed, client_seed:0:0), or GET /api/arcade/verify/{bet_id}, or open the verifier page at / (the same core, in wasm, in your browser).";
    let greeting = match &message.from_name {
        Some(name) => format!("Hello {name}. "),
        None => "Hello. ".to_owned(),
    };
    let body = match topic(&text) {
        Topic::HowToPlay => how,
        Topic::Odds => odds,
        Topic::Verify => verify.to_owned(),
        Topic::General => format!("I play this floor too. {how} {odds}"),
    };
    let tool = if message.use_tools.unwrap_or(false) {
        read_only_tool(arcade, &text).await?
    } else {
        Value::Null
    };
    Ok(Reply {
        from: "house".into(),
        to: message.from_id.clone(),
        reply: format!("{greeting}{body}"),
        tool,
    })
}

/// The read-only tool a message asks for: the balance of an address it names, recent
/// rounds, the house stats, or the games listing.
async fn read_only_tool(arcade: &Arcade, text: &str) -> Result<Value, ApiError> {
    let named = text
        .split(|c: char| !c.is_ascii_alphanumeric())
        .find_map(address::parse);
    if let Some(who) = named {
        return Ok(json!({ "name": "balance", "result": arcade.wallets.balance(&who).await? }));
    }
    if text.contains("recent") || text.contains("latest") {
        return Ok(json!({ "name": "recent", "result": arcade.receipts.recent(8).await? }));
    }
    if text.contains("house") || text.contains("stats") || text.contains("floor") {
        return Ok(json!({ "name": "house", "result": arcade.stats.house().await? }));
    }
    if text.contains("game") || text.contains("odds") || text.contains("limit") {
        return Ok(json!({ "name": "games", "result": arcade.stats.games().await? }));
    }
    Ok(Value::Null)
}
