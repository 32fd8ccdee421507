//! The arcade's MCP tools. Each is a thin call of the service function the REST route uses:
//! arguments go through the one parse (`crate::inputs`), results come back as structured
//! content (object roots) plus a one-line summary, and errors as tool errors carrying REST's
//! `detail` and `code`.

use std::sync::Arc;

use http::request::Parts;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::Extension;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock, JsonObject};
use rmcp::{tool, tool_router};
use serde::Serialize;

use super::summaries::{BalanceAnswer, Summary};
use serde_json::json;

use super::arguments::{Arguments, NoArguments, Proven, Signed};
use super::output;
use crate::error::ApiError;
use crate::inputs::Input;
use crate::inputs::games::{GameInput, endpoint};
use crate::inputs::queries::{BetPath, RoundPath};
use crate::inputs::wallets::{AddressInput, AddressPath, CashoutInput, RotateInput};
use crate::rate_limits::{Caller, ClientKey};
use crate::service::Arcade;
use crate::service::auth::AddressProof;
use crate::service::auth::Rotated;
use crate::service::cashouts::CashoutReceipt;
use crate::service::cashouts::idempotency::sent_key;
use crate::service::plays::Played;
use crate::service::receipts::VerifiedBet;
use crate::service::rounds::{Committed, RoundView};
use crate::service::stats::{GamesListing, HouseStats};
use crate::service::wallets::FreeGrant;
use crate::siwx::Declaration;
use arcade_core::Game;

pub(super) const INSTRUCTIONS: &str = "A provably-fair arcade. Play: arcade_free (100 chips, once per address) \
or buy chips over x402 (arcade_buy_chips, or POST /api/arcade/chips); arcade_balance gives your auth_statement (a \
Sign-In with Ethereum message): sign it once with personal_sign (EIP-191); arcade_commit opens a \
round (the house commits to its seed); play it once with a game tool ({games}) and a fresh \
random client_seed of your own (repeating a call that got no answer \
returns its receipt; arcade_round shows any round); check it with arcade_verify. arcade_cashout \
sends chips back as the token. arcade_rotate revokes a leaked signature. In place of the \
signature, commit, the games, cashout and rotate take a sign-in-with-x proof (x402's CAIP-122 \
extension) in sign_in_with_x: the challenge of arcade_siwx_challenge signed with the official \
client, valid five minutes.";

/// The game tools' names: `arcade_flip, arcade_dice, …`.
pub(super) fn game_tools() -> String {
    let names: Vec<String> = Game::ALL
        .into_iter()
        .map(|game| format!("arcade_{}", endpoint(game)))
        .collect();
    names.join(", ")
}

#[derive(Clone)]
pub struct ArcadeTools {
    pub(super) arcade: Arc<Arcade>,
    pub(super) tools: ToolRouter<Self>,
}

impl ArcadeTools {
    pub fn new(arcade: Arc<Arcade>, tools: ToolRouter<Self>) -> Self {
        Self { arcade, tools }
    }

    /// The games' one path: parse, build the call, play.
    pub(super) async fn play<G: GameInput>(
        &self,
        arguments: JsonObject,
    ) -> Result<Played, ApiError> {
        let (input, siwx) = Proven::<G>::new(arguments).parse()?;
        let mut play = input.play()?;
        play.siwx = siwx;
        Ok(self.arcade.plays.play(play).await?)
    }
}

#[tool_router(vis = "pub(super)")]
impl ArcadeTools {
    #[tool(
        name = "arcade_free",
        output_schema = output::of::<FreeGrant>(),
        description = "Claim 100 free chips, once per address, without payment: play money, never cashed out."
    )]
    async fn free(
        &self,
        Parameters(input): Parameters<Arguments<AddressInput>>,
        Extension(request): Extension<Parts>,
    ) -> CallToolResult {
        answer(
            run(input, async |input| {
                let signature = input.signature.as_deref();
                let caller = caller(&request);
                self.arcade
                    .wallets
                    .claim_free(&input.address.0, signature, caller)
                    .await
            })
            .await,
        )
    }

    #[tool(
        name = "arcade_games",
        output_schema = output::of::<GamesListing>(),
        description = "The games, their parameters and odds, the limits, the buy-in tiers and how to play, step by step."
    )]
    async fn games(&self, Parameters(_): Parameters<NoArguments>) -> CallToolResult {
        answer(self.arcade.stats.games().await)
    }

    #[tool(
        name = "arcade_commit",
        output_schema = output::of::<Committed>(),
        description = "Open a round: the house commits to its server seed (its SHA-256) before it sees your client seed."
    )]
    async fn commit(
        &self,
        Parameters(input): Parameters<Proven<AddressInput>>,
        Extension(request): Extension<Parts>,
    ) -> CallToolResult {
        answer(
            run_proven(input, async |input, proof| {
                let caller = caller(&request);
                self.arcade
                    .rounds
                    .commit(&input.address.0, proof, caller)
                    .await
            })
            .await,
        )
    }

    #[tool(
        name = "arcade_round",
        output_schema = output::of::<RoundView>(),
        description = "A round as it stands: open, settled (with its receipt) or expired; look here if a game call got no answer."
    )]
    async fn round(
        &self,
        Parameters(input): Parameters<Arguments<RoundPath>>,
        Extension(request): Extension<Parts>,
    ) -> CallToolResult {
        answer(
            run(input, async |input| {
                let caller = caller(&request);
                self.arcade.rounds.round(caller, &input.round_id).await
            })
            .await,
        )
    }

    #[tool(
        name = "arcade_rotate",
        output_schema = output::of::<Rotated>(),
        description = "Revoke every signature and sign-in-with-x proof of your address so far and expire its open rounds."
    )]
    async fn rotate(
        &self,
        Parameters(input): Parameters<Proven<RotateInput>>,
        Extension(request): Extension<Parts>,
    ) -> CallToolResult {
        answer(
            run_proven(input, async |input, proof| {
                let caller = caller(&request);
                self.arcade
                    .auth
                    .rotate(&input.address.0, proof, caller)
                    .await
            })
            .await,
        )
    }

    #[tool(
        name = "arcade_verify",
        output_schema = output::of::<VerifiedBet>(),
        description = "Re-derive any played round from its revealed server seed: its commitment, outcome and payout."
    )]
    async fn verify(
        &self,
        Parameters(input): Parameters<Arguments<BetPath>>,
        Extension(request): Extension<Parts>,
    ) -> CallToolResult {
        answer(
            run(input, async |input| {
                let caller = caller(&request);
                self.arcade.receipts.verify_bet(caller, input.bet_id).await
            })
            .await,
        )
    }

    #[tool(
        name = "arcade_balance",
        output_schema = output::of::<BalanceAnswer>(),
        description = "An address's chips (cashable and free_chips) and its auth_statement, to sign with personal_sign (EIP-191)."
    )]
    async fn balance(
        &self,
        Parameters(input): Parameters<Arguments<AddressPath>>,
    ) -> CallToolResult {
        answer(
            run(input, async |input| {
                let address = input.address.0;
                let statement = self.arcade.auth.statement(&address).await?;
                Ok::<_, ApiError>(BalanceAnswer {
                    balance: self.arcade.wallets.balance(&address).await?,
                    auth_statement: statement.statement,
                    auth_generation: statement.generation,
                })
            })
            .await,
        )
    }

    #[tool(
        name = "arcade_cashout",
        output_schema = output::of::<CashoutReceipt>(),
        description = "Redeem paid chips for the dollar token, sent on-chain to your address; a retry with its idempotency_key never pays twice."
    )]
    async fn cashout(
        &self,
        Parameters(input): Parameters<Proven<CashoutInput>>,
        Extension(request): Extension<Parts>,
    ) -> CallToolResult {
        answer(
            run_proven(input, async |input, proof| {
                let caller = caller(&request);
                let key = sent_key(None, input.idempotency_key.as_deref())?;
                self.arcade
                    .cashouts
                    .cash_out(&input.address.0, input.chips, key.as_ref(), proof, caller)
                    .await
            })
            .await,
        )
    }

    #[tool(
        name = "arcade_siwx_challenge",
        output_schema = output::of::<Declaration>(),
        description = "A sign-in-with-x challenge (CAIP-122) for your address: sign it with @x402/extensions and pass it as sign_in_with_x."
    )]
    async fn siwx_challenge(
        &self,
        Parameters(input): Parameters<Arguments<AddressPath>>,
    ) -> CallToolResult {
        answer(
            run(input, async |input| {
                self.arcade.auth.siwx_challenge(&input.address.0).await
            })
            .await,
        )
    }

    #[tool(
        name = "arcade_house",
        output_schema = output::of::<HouseStats>(),
        description = "Floor statistics: rounds, wagered, paid out and the house's net by game; cashout totals."
    )]
    async fn house(&self, Parameters(_): Parameters<NoArguments>) -> CallToolResult {
        answer(self.arcade.stats.house().await)
    }
}

/// Who called, as the edge identified them for the rate limits (`api::client`).
pub(super) fn caller(request: &Parts) -> Caller {
    request
        .extensions
        .get::<Caller>()
        .copied()
        .unwrap_or(Caller::Client(ClientKey::Overflow))
}

/// Parses the arguments with the one parse, then runs the operation on the input.
async fn run<I: Input, T, E: Into<ApiError>>(
    arguments: Arguments<I>,
    operation: impl AsyncFnOnce(I) -> Result<T, E>,
) -> Result<T, ApiError> {
    operation(arguments.parse()?).await.map_err(Into::into)
}

/// Parses the arguments and the proof, then runs the operation on the input with the proof
/// (the body's `signature` and the `sign_in_with_x` argument, as REST's body and header).
async fn run_proven<I, T, E>(
    arguments: Proven<I>,
    operation: impl AsyncFnOnce(I, AddressProof<'_>) -> Result<T, E>,
) -> Result<T, ApiError>
where
    I: Input + Signed,
    E: Into<ApiError>,
{
    let (input, siwx) = arguments.parse()?;
    let signature = input.signature().map(str::to_owned);
    let proof = AddressProof {
        signature: signature.as_deref(),
        siwx: siwx.as_deref(),
    };
    operation(input, proof).await.map_err(Into::into)
}

/// A result as structured content plus its summary, or an error as REST renders it.
pub(super) fn answer<T: Serialize + Summary, E: Into<ApiError>>(
    result: Result<T, E>,
) -> CallToolResult {
    match result.map_err(Into::into) {
        Ok(value) => {
            let text = value.summary();
            let mut result = CallToolResult::structured(json!(value));
            result.content.insert(0, ContentBlock::text(text));
            result
        }
        Err(error) => {
            let (body, text) = super::errors::described(&error);
            let mut result = CallToolResult::structured_error(body);
            result.content.insert(0, ContentBlock::text(text));
            result
        }
    }
}
