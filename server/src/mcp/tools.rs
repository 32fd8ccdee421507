//! The arcade's MCP tools. Each is a thin call of the service function the REST route uses:
//! arguments go through the one parse (`crate::inputs`), results come back as structured
//! content (object roots) plus a one-line summary, and errors as tool errors carrying REST's
//! `detail` and `code`.

use std::sync::Arc;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock, Implementation, ServerCapabilities, ServerConfig};
use rmcp::{ServerHandler, tool, tool_handler, tool_router};
use serde::Serialize;
use serde_json::{Value, json};

use super::arguments::{Arguments, NoArguments};
use crate::error::ApiError;
use crate::inputs::games::{DiceInput, FlipInput, GameInput, RouletteInput};
use crate::inputs::queries::BetPath;
use crate::inputs::wallets::{AddressInput, AddressPath, CashoutInput};
use crate::service::Arcade;
use crate::service::play::Played;

const INSTRUCTIONS: &str = "A provably-fair arcade. Play: arcade_free (100 chips, once per address) \
or buy chips over x402 (POST /api/arcade/chips); arcade_balance gives your auth_statement: sign it \
with personal_sign (EIP-191); arcade_commit opens a round (the house commits to its seed); play it \
once with arcade_flip, arcade_dice or arcade_roulette and a fresh random client_seed of your own; \
check it with arcade_verify. arcade_cashout sends chips back as the token.";

#[derive(Clone)]
pub struct ArcadeTools {
    arcade: Arc<Arcade>,
}

#[tool_router]
impl ArcadeTools {
    pub fn new(arcade: Arc<Arcade>) -> Self {
        Self { arcade }
    }

    #[tool(
        name = "arcade_free",
        description = "Claim the 100 free chips, once per address. No payment; a signature is optional. Start here to play without buying.",
        annotations(idempotent_hint = true)
    )]
    async fn free(
        &self,
        Parameters(arguments): Parameters<Arguments<AddressInput>>,
    ) -> CallToolResult {
        let result = async {
            let input = arguments.parse()?;
            self.arcade
                .claim_free(&input.address.0, input.signature.as_deref())
                .await
        }
        .await;
        answer(result, |v| {
            format!(
                "{} got {} free chips; balance {}.",
                plain(&v["address"]),
                plain(&v["granted"]),
                plain(&v["balance"])
            )
        })
    }

    #[tool(
        name = "arcade_games",
        description = "The games, their parameters and odds, the limits, the buy-in tiers and how to play, step by step.",
        annotations(read_only_hint = true)
    )]
    async fn games(&self, Parameters(_): Parameters<NoArguments>) -> CallToolResult {
        answer(self.arcade.games().await, |v| {
            let names: Vec<&str> = v["games"]
                .as_array()
                .map(|games| games.iter().filter_map(|g| g["name"].as_str()).collect())
                .unwrap_or_default();
            format!(
                "Games: {}. Max wager {} chips, max payout {} chips per round.",
                names.join(", "),
                plain(&v["limits"]["max_wager_chips"]),
                plain(&v["limits"]["max_payout_chips"])
            )
        })
    }

    #[tool(
        name = "arcade_commit",
        description = "Open a round: the house commits to a secret server seed (you get its SHA-256, the commitment) before it sees your client seed. Requires your signature of the auth_statement from arcade_balance. Play the round once with arcade_flip, arcade_dice or arcade_roulette."
    )]
    async fn commit(
        &self,
        Parameters(arguments): Parameters<Arguments<AddressInput>>,
    ) -> CallToolResult {
        let result = async {
            let input = arguments.parse()?;
            self.arcade
                .commit(&input.address.0, input.signature.as_deref())
                .await
        }
        .await;
        answer(result, |v| {
            format!(
                "Round {} opened; commitment {}. Play it once with your own fresh client_seed.",
                plain(&v["round_id"]),
                plain(&v["commitment"])
            )
        })
    }

    #[tool(
        name = "arcade_flip",
        description = "Coinflip on a committed round: call heads or tails; a win returns 1.98x the wager. The receipt reveals the server seed so you can check it."
    )]
    async fn flip(
        &self,
        Parameters(arguments): Parameters<Arguments<FlipInput>>,
    ) -> CallToolResult {
        answer(self.play(arguments).await, played)
    }

    #[tool(
        name = "arcade_dice",
        description = "Dice on a committed round: a roll from 0.00 to 100.00, under or over your target (1-99); the payout follows the odds of your call (99% return). The receipt shows the schedule."
    )]
    async fn dice(
        &self,
        Parameters(arguments): Parameters<Arguments<DiceInput>>,
    ) -> CallToolResult {
        answer(self.play(arguments).await, played)
    }

    #[tool(
        name = "arcade_roulette",
        description = "European roulette (single zero) on a committed round: a straight number (36x) or red/black, odd/even, low/high (2x), a dozen or a column (3x)."
    )]
    async fn roulette(
        &self,
        Parameters(arguments): Parameters<Arguments<RouletteInput>>,
    ) -> CallToolResult {
        answer(self.play(arguments).await, played)
    }

    /// The three games' one path: parse, build the call, play.
    async fn play<G: GameInput>(&self, arguments: Arguments<G>) -> Result<Played, ApiError> {
        let input = arguments.parse()?;
        self.arcade.play(input.play()?).await
    }

    #[tool(
        name = "arcade_verify",
        description = "Re-derive a played round from its revealed server seed with the arcade's fairness core: checks the commitment, the outcome and the payout. Anyone can verify any bet.",
        annotations(read_only_hint = true)
    )]
    async fn verify(
        &self,
        Parameters(arguments): Parameters<Arguments<BetPath>>,
    ) -> CallToolResult {
        let result = async {
            let input = arguments.parse()?;
            self.arcade.verify_bet(input.bet_id).await
        }
        .await;
        answer(result, |v| {
            let verdict = if v["verified"] == true {
                "verified"
            } else {
                "FAILED verification"
            };
            format!(
                "Bet {} {verdict}: checks {}.",
                plain(&v["bet_id"]),
                plain(&v["checks"])
            )
        })
    }

    #[tool(
        name = "arcade_balance",
        description = "Chips held by an address, how many of them a cashout may take (cashable: the balance less the chips granted for free), whether it has bought in, and its auth_statement: the exact text to sign with personal_sign (EIP-191) for arcade_commit and arcade_cashout.",
        annotations(read_only_hint = true)
    )]
    async fn balance(
        &self,
        Parameters(arguments): Parameters<Arguments<AddressPath>>,
    ) -> CallToolResult {
        let result = async {
            let address = arguments.parse()?.address.0;
            let balance = self.arcade.balance(&address).await?;
            let mut value = json!(balance);
            value["auth_statement"] = json!(self.arcade.identity.statement(&address));
            Ok::<Value, ApiError>(value)
        }
        .await;
        answer(result, |v| {
            format!(
                "{} holds {} chips, {} of them cashable (bought in: {}).",
                plain(&v["address"]),
                plain(&v["chips"]),
                plain(&v["cashable"]),
                plain(&v["bought_in"])
            )
        })
    }

    #[tool(
        name = "arcade_cashout",
        description = "Redeem 100 to 250000 chips for the dollar token, sent on-chain to your address by the house (which pays the gas). Requires your auth-statement signature and a past purchase. Free chips are play money: at most the balance less the chips granted for free can be cashed out (`cashable` in arcade_balance), else cashout_exceeds_cashable.",
        annotations(destructive_hint = false)
    )]
    async fn cashout(
        &self,
        Parameters(arguments): Parameters<Arguments<CashoutInput>>,
    ) -> CallToolResult {
        let result = async {
            let input = arguments.parse()?;
            self.arcade
                .cash_out(&input.address.0, input.chips, input.signature.as_deref())
                .await
        }
        .await;
        answer(result, |v| {
            format!(
                "Cashout {}: {} chips ({} base units) to {}, status {}; balance {}.",
                plain(&v["cashout_id"]),
                plain(&v["chips"]),
                plain(&v["amount"]),
                plain(&v["address"]),
                plain(&v["status"]),
                plain(&v["balance"])
            )
        })
    }

    #[tool(
        name = "arcade_house",
        description = "Floor statistics: rounds, wagered, paid out and the house's net by game, split between the house's own agents and everyone else; cashout totals.",
        annotations(read_only_hint = true)
    )]
    async fn house(&self, Parameters(_): Parameters<NoArguments>) -> CallToolResult {
        answer(self.arcade.house().await, |v| {
            format!(
                "{} rounds on the floor: {} wagered, {} paid out, house net {}.",
                plain(&v["all"]["rounds"]),
                plain(&v["all"]["wagered"]),
                plain(&v["all"]["paid_out"]),
                plain(&v["all"]["house_net"])
            )
        })
    }
}

#[tool_handler]
impl ServerHandler for ArcadeTools {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("arcade", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS.to_owned())
    }
}

/// A result as structured content plus a summary, or an error as REST renders it.
fn answer<T: Serialize>(
    result: Result<T, ApiError>,
    summary: impl FnOnce(&Value) -> String,
) -> CallToolResult {
    match result {
        Ok(value) => {
            let value = json!(value);
            let text = summary(&value);
            let mut result = CallToolResult::structured(value);
            result.content.insert(0, ContentBlock::text(text));
            result
        }
        Err(error) => {
            error.log_if_internal();
            let mut body = error.body();
            body["code"] = json!(error.code());
            let text = match &body["detail"] {
                Value::String(detail) => format!("{}: {detail}", error.code()),
                problems => format!("{}: the arguments are not valid: {problems}", error.code()),
            };
            let mut result = CallToolResult::structured_error(body);
            result.content.insert(0, ContentBlock::text(text));
            result
        }
    }
}

/// A JSON value as a sentence shows it: strings without their quotes.
fn plain(value: &Value) -> String {
    value
        .as_str()
        .map_or_else(|| value.to_string(), str::to_owned)
}

/// The summary of a played round.
fn played(v: &Value) -> String {
    let outcome = match v["game"].as_str() {
        Some("coinflip") => format!("outcome {}", plain(&v["result"]["outcome"])),
        Some("dice") => format!("roll {}", plain(&v["result"]["roll"])),
        _ => format!(
            "pocket {} {}",
            plain(&v["result"]["pocket"]),
            plain(&v["result"]["color"])
        ),
    };
    let verdict = if v["won"] == true { "won" } else { "lost" };
    format!(
        "Bet {} ({}): {outcome}, {verdict}; payout {}, profit {}, balance {}. Server seed revealed: check sha256(server_seed) == commitment, or call arcade_verify.",
        plain(&v["bet_id"]),
        plain(&v["game"]),
        plain(&v["payout"]),
        plain(&v["profit"]),
        plain(&v["balance"])
    )
}
