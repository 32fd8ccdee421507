//! The game calls (`POST /api/arcade/<endpoint>`; MCP `arcade_<endpoint>`): the fields every
//! round play has, each game's own, and the server's one list of games ([`for_each_game_input`]),
//! which the routes, the OpenAPI links, the MCP tools, the listings and the house agents read.
//! A new game is its input struct, its `GameInput` impl and its line in that list.

use arcade_core::limbo::two_decimals;
use arcade_core::wire::CallParams;
use arcade_core::{
    BetKind, Call, CallError, DiceCall, Direction, Game, LimboCall, RouletteBet, Side,
};
use rmcp::schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value};

use super::fields::{Choice, ClientSeedText, Named};
use super::{Input, Place, schema};
use crate::service::plays::Play;

/// The server's one list of games, in the core's order: each game's core variant, its REST
/// path segment (`POST /api/arcade/<endpoint>`, MCP `arcade_<endpoint>`), its input, its route
/// handler's name and its one-line description (the core's summary, which a doc attribute
/// needs as a literal: a test holds the two equal). `$then!` gets the list.
macro_rules! for_each_game_input {
    ($then:ident) => {
        $then! {
            Coinflip, "flip", $crate::inputs::games::FlipInput, flip,
                "Coinflip: call heads or tails. Pays 1.98x the wager.";
            Dice, "dice", $crate::inputs::games::DiceInput, dice,
                "Dice: a roll from 0.00 to 100.00, under or over a target (1 to 99); pays 99% of the fair odds of the call, and the result carries its exact return.";
            Roulette, "roulette", $crate::inputs::games::RouletteInput, roulette,
                "European roulette: one of 13 bets on 37 pockets; pays 36x straight, 3x dozens and columns, 2x even-money bets.";
            Limbo, "limbo", $crate::inputs::games::LimboInput, limbo,
                "Limbo: a multiplier from 1.00 to 1000000.00 is drawn; win if it reaches your target (1.01 to 1000000.00), paid 99% of the fair odds of the target.";
        }
    };
}
pub(crate) use for_each_game_input;

macro_rules! lookups {
    ($($Game:ident, $endpoint:literal, $Input:ty, $handler:ident, $about:literal;)*) => {
        /// The REST path segment of a game's call: `POST /api/arcade/<endpoint>`.
        pub fn endpoint(game: Game) -> &'static str {
            match game {
                $(Game::$Game => $endpoint,)*
            }
        }

        /// A game's input schema.
        pub fn input_schema(game: Game) -> schema::Shared {
            match game {
                $(Game::$Game => schema::of::<$Input>(),)*
            }
        }

        /// A game in one line: what the player calls and what a win pays.
        pub fn about(game: Game) -> &'static str {
            match game {
                $(Game::$Game => $about,)*
            }
        }

        /// A call as its game's REST body gives it, without the round's fields.
        pub fn call_body(call: &Call) -> Map<String, Value> {
            match call.game() {
                $(Game::$Game => <$Input as GameInput>::body(call),)*
            }
        }

        /// The calls the house agents play in `game`, in turn.
        pub fn house_calls(game: Game) -> Vec<Call> {
            match game {
                $(Game::$Game => <$Input as GameInput>::house_calls(),)*
            }
        }

        /// The game each input plays, in the list's order (held to the core's by a test).
        #[cfg(test)]
        const LISTED: &[Game] = &[$(<$Input as GameInput>::GAME),*];
    };
}
for_each_game_input!(lookups);

/// The fields of every game call.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct RoundFields {
    /// The `round_id` from `POST /api/arcade/commit` (MCP `arcade_commit`); each round is played
    /// once.
    #[schemars(length(max = 64), example = &"r_5b71c2d09e3f4a1b8c7d6e5f4a3b2c1d")]
    pub round_id: String,
    /// Your own seed, 1 to 256 characters, none of them a control character. Pick a fresh
    /// random one every round: the house committed to its seed before seeing yours, so it
    /// cannot choose your outcome.
    pub client_seed: ClientSeedText,
    /// Chips to wager: at least 1; at most 1000, and the round's potential profit at most 500
    /// (longer odds accept smaller wagers; above that the answer is 400 `wager_above_limit` or
    /// `payout_above_limit` with `max_wager`).
    #[schemars(range(min = 1, max = i64::MAX), example = 10)]
    pub wager: i64,
    /// Optional: your signature of the auth statement; when given it must be the round
    /// owner's.
    #[schemars(length(max = 256))]
    pub signature: Option<String>,
    /// Optional, and what makes the round provable: your EIP-712 signature (`0x` + 65 bytes)
    /// of `Play(round_id, player, commitment, game, client_seed, call, target, has_number,
    /// number, wager)` in the manifest's `signing_domain`, for the commitment of the commit
    /// answer and exactly this call (docs/proofs.md, "Play"). When given it must be the round
    /// owner's (else 403 `play_signature_mismatch`); the receipt then carries it in
    /// `proofs.play`, and verifiers call the round `pass`. Without it a round is only
    /// "consistent, not proven".
    #[schemars(length(max = 256))]
    pub play_signature: Option<String>,
    /// Optional: `true` to get your next round in the answer (`next_round`: its `round_id`,
    /// commitment and signed Commitment, as a commit answers them), opened with this round's
    /// settlement, before any seed of yours for it exists: one request per round from then on.
    /// Needs the owner's proof (`signature`, `SIGN-IN-WITH-X` or `play_signature`), else 401
    /// `signature_required`.
    pub next_round: Option<bool>,
}

/// A game call: its round fields and the call they play.
pub trait GameInput: Input {
    /// The game it plays.
    const GAME: Game;

    fn round(&self) -> &RoundFields;
    /// The call, checked by the core's rules (a straight bet names a number, only it does).
    fn call(&self) -> Result<Call, CallError>;
    /// The calls the house agents play in this game, in turn.
    fn house_calls() -> Vec<Call>;

    /// `call` as this game's body gives it: the receipt's params, unless the game says otherwise.
    fn body(call: &Call) -> Map<String, Value> {
        match serde_json::to_value(CallParams(call)) {
            Ok(Value::Object(fields)) => fields,
            _ => Map::new(),
        }
    }

    /// The service's command for this input.
    fn play(&self) -> Result<Play, CallError> {
        let round = self.round();
        Ok(Play {
            round_id: round.round_id.clone(),
            client_seed: round.client_seed.0.clone(),
            wager: u64::try_from(round.wager).unwrap_or(0),
            call: self.call()?,
            signature: round.signature.clone(),
            siwx: None,
            play_signature: round.play_signature.clone(),
            next_round: round.next_round.unwrap_or(false),
        })
    }
}

/// Coinflip: call heads or tails; a win returns 1.98x the wager.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct FlipInput {
    #[serde(flatten)]
    pub round: RoundFields,
    /// `heads` or `tails`. A win returns 1.98x the wager.
    pub call: Choice<Side>,
}

/// Dice: a roll from 0.00 to 100.00; win if it is under (or over) the target. The payout is 99%
/// of the fair odds of the call, and the exact return comes with the result.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct DiceInput {
    #[serde(flatten)]
    pub round: RoundFields,
    /// 1 to 99. The roll is 0.00 to 100.00; `under` wins below the target, `over` above it.
    #[schemars(range(min = 1, max = 99), example = 50)]
    pub target: i64,
    /// `under` (the default) or `over`.
    pub direction: Option<Choice<Direction>>,
}

/// European roulette (single zero, pockets 0 to 36): a straight number (36x), red, black, odd,
/// even, low or high (2x), a dozen or a column (3x).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[schemars(transform = straight_bets_name_a_number)]
pub struct RouletteInput {
    #[serde(flatten)]
    pub round: RoundFields,
    /// One of the 13 bets: straight (needs `number`, pays 36x), red, black, odd, even, low,
    /// high (2x), dozen1, dozen2, dozen3, column1, column2, column3 (3x).
    pub bet: Choice<BetKind>,
    /// 0 to 36, for a straight bet only.
    #[schemars(range(min = 0, max = 36))]
    pub number: Option<i64>,
}

/// The core's rule for a roulette call ([`RouletteBet::new`]), stated in the schema: a straight
/// bet needs `number`, and every other bet leaves it out (or null). The core enforces it; the
/// schema says it, so a request the document calls valid is never refused as malformed.
fn straight_bets_name_a_number(schema: &mut rmcp::schemars::Schema) {
    let straight = BetKind::Straight.name();
    schema.insert(
        "if".into(),
        serde_json::json!({ "properties": { "bet": { "const": straight } }, "required": ["bet"] }),
    );
    schema.insert(
        "then".into(),
        serde_json::json!({ "properties": { "number": { "type": "integer" } }, "required": ["number"] }),
    );
    schema.insert(
        "else".into(),
        serde_json::json!({ "properties": { "number": { "type": "null" } } }),
    );
}

/// Limbo: a multiplier from 1.00 to 1000000.00 is drawn (Stake's crash point, in integers);
/// win if it reaches your target. The payout is 99% of the fair odds of the target, exactly.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct LimboInput {
    #[serde(flatten)]
    pub round: RoundFields,
    /// The multiplier to reach: 1.01 to 1000000.00 as text with at most two decimals
    /// (`"2.50"`), or a whole number from 2 to 1000000 (`2`). A win returns a hair under
    /// `target` times the wager; the receipt shows it in hundredths (`params.target_hundredths`).
    pub target: LimboTarget,
}

/// A limbo target as sent: decimal text, or a whole JSON number (a JSON number is a binary
/// float, so hundredths go as text, where they are exact).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(
    untagged,
    expecting = "decimal text such as \"2.50\" or a whole number"
)]
pub enum LimboTarget {
    Text(
        #[schemars(regex(pattern = arcade_core::limbo::TARGET_PATTERN), example = &"2.50")] String,
    ),
    Number(#[schemars(with = "i64", range(min = 2, max = 1_000_000))] f64),
}

/// What a target given as a JSON number must be.
const WHOLE_TARGET: CallError = CallError::Invalid {
    field: "target",
    rule: "given as a number must be a whole multiplier from 2 to 1000000; send hundredths as text (\"2.50\")",
};

impl Input for LimboInput {
    const PLACE: Place = Place::Body;
}

impl GameInput for LimboInput {
    const GAME: Game = Game::Limbo;

    fn round(&self) -> &RoundFields {
        &self.round
    }

    fn call(&self) -> Result<Call, CallError> {
        let call = match &self.target {
            LimboTarget::Text(text) => LimboCall::parse(text),
            // A whole JSON number as its decimal: 2.0 is "2", 1e6 is "1000000".
            LimboTarget::Number(number) if number.fract() == 0.0 => {
                LimboCall::parse(&number.to_string()).map_err(|_| WHOLE_TARGET)
            }
            LimboTarget::Number(_) => Err(WHOLE_TARGET),
        };
        Ok(Call::Limbo(call?))
    }

    /// The body takes the target as text with two decimals; the receipt shows it in hundredths.
    fn body(call: &Call) -> Map<String, Value> {
        let mut fields = Map::new();
        if let Call::Limbo(limbo) = call {
            let target = two_decimals(limbo.target_hundredths());
            fields.insert("target".into(), Value::String(target));
        }
        fields
    }

    /// Targets from even money to long odds.
    fn house_calls() -> Vec<Call> {
        [150, 200, 300, 500, 1_000, 2_500]
            .into_iter()
            .filter_map(|target| LimboCall::new(target).ok().map(Call::Limbo))
            .collect()
    }
}

impl Input for FlipInput {
    const PLACE: Place = Place::Body;
}

impl Input for DiceInput {
    const PLACE: Place = Place::Body;
}

impl Input for RouletteInput {
    const PLACE: Place = Place::Body;
}

impl GameInput for FlipInput {
    const GAME: Game = Game::Coinflip;

    fn round(&self) -> &RoundFields {
        &self.round
    }

    fn call(&self) -> Result<Call, CallError> {
        Ok(Call::Coinflip(self.call.value()))
    }

    /// Heads and tails in turn.
    fn house_calls() -> Vec<Call> {
        Side::ALL.map(Call::Coinflip).to_vec()
    }
}

impl GameInput for DiceInput {
    const GAME: Game = Game::Dice;

    fn round(&self) -> &RoundFields {
        &self.round
    }

    fn call(&self) -> Result<Call, CallError> {
        let direction = self.direction.map_or(Direction::Under, Choice::value);
        let target = u32::try_from(self.target).unwrap_or(0);
        Ok(Call::Dice(DiceCall::new(target, direction)?))
    }

    /// Targets from long odds to safe bets, under, then over.
    fn house_calls() -> Vec<Call> {
        Direction::ALL
            .into_iter()
            .flat_map(|direction| {
                [10, 25, 50, 75, 90]
                    .into_iter()
                    .filter_map(move |target| DiceCall::new(target, direction).ok().map(Call::Dice))
            })
            .collect()
    }
}

impl GameInput for RouletteInput {
    const GAME: Game = Game::Roulette;

    fn round(&self) -> &RoundFields {
        &self.round
    }

    fn call(&self) -> Result<Call, CallError> {
        let number = self.number.and_then(|n| u32::try_from(n).ok());
        Ok(Call::Roulette(RouletteBet::new(self.bet.value(), number)?))
    }

    /// The outside bets: red, black, odd, even, low, high, dozens, columns.
    fn house_calls() -> Vec<Call> {
        BetKind::ALL
            .into_iter()
            .filter_map(|kind| RouletteBet::new(kind, None).ok().map(Call::Roulette))
            .collect()
    }
}

#[cfg(test)]
mod tests;
