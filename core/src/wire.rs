//! The JSON shape of receipts and verification reports, one definition for the server's
//! responses, the verifiers' input and the golden vectors. The input types are plain data (the
//! wasm verifier fills them from JavaScript values); their `Deserialize` and the output views'
//! `Serialize` come with feature `serde`.
//!
//! Receipt fields (see the API documentation): `game`, `fairness_version`, `commitment`,
//! `server_seed`, `client_seed`, `nonce`, `wager`, `params`, `result`, `won`, `payout`, `profit`.
//! Unknown fields (`bet_id`, `address`, …) are ignored on input.

use alloc::string::String;
#[cfg(feature = "serde")]
use alloc::string::ToString;

#[cfg(feature = "serde")]
use serde::ser::SerializeStruct;
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize, Serializer};

use crate::call::{Call, Game};
use crate::error::ReceiptError;
use crate::game::GameRules;
#[cfg(feature = "serde")]
use crate::round::{GameResult, Settlement};
use crate::verify::{Claimed, ClaimedResult, Receipt};
#[cfg(feature = "serde")]
use crate::verify::{FAIRNESS_VERSION, Verification};

macro_rules! call_and_result_shapes {
    ($($(#[$doc:meta])* $module:ident :: $Rules:ident,)*) => {
        #[cfg(feature = "serde")]
        /// Each game's result object (see its module).
        impl Serialize for GameResult {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                match self {
                    $(Self::$Rules(result) => result.serialize(serializer),)*
                }
            }
        }

        #[cfg(feature = "serde")]
        impl Serialize for CallParams<'_> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                match self.0 {
                    $(Call::$Rules(call) => {
                        <crate::$module::$Rules as GameRules>::params(call).serialize(serializer)
                    })*
                }
            }
        }

        /// A receipt's `params` as JSON gives them, before they are checked against its game:
        /// every game's fields, each game's under its own names at the top of the object.
        #[derive(Debug, Clone, Default)]
        #[cfg_attr(feature = "serde", derive(Deserialize))]
        pub struct ParamsInput {
            $(
                #[doc = concat!(
                    "The fields of [`", stringify!($module), "`](crate::", stringify!($module), ")."
                )]
                #[cfg_attr(feature = "serde", serde(flatten))]
                pub $module: <crate::$module::$Rules as GameRules>::Params,
            )*
        }

        impl ParamsInput {
            /// The call these parameters make on `game`.
            pub fn to_call(&self, game: Game) -> Result<Call, ReceiptError> {
                Ok(match game {
                    $(Game::$Rules => {
                        Call::$Rules(<crate::$module::$Rules as GameRules>::call_of(&self.$module)?)
                    })*
                })
            }
        }
    };
}

for_each_game!(call_and_result_shapes);

#[cfg(feature = "serde")]
/// A game as its name.
impl Serialize for Game {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

#[cfg(feature = "serde")]
/// A game from its exact name.
impl<'de> Deserialize<'de> for Game {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Name;
        impl serde::de::Visitor<'_> for Name {
            type Value = Game;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str("a game's name")
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Game, E> {
                Game::parse(text).ok_or_else(|| E::unknown_variant(text, &Game::NAMES))
            }
        }
        deserializer.deserialize_str(Name)
    }
}

#[cfg(feature = "serde")]
/// A call's `params` object, as its game writes it: `{"call"}`, `{"target", "direction"}`,
/// `{"bet", "number"}`, ….
#[derive(Debug, Clone, Copy)]
pub struct CallParams<'a>(pub &'a Call);

#[cfg(feature = "serde")]
/// The fairness fields of a settled round's receipt, ready to be flattened into a response.
#[derive(Debug, Clone, Copy)]
pub struct ReceiptView<'a> {
    /// The commitment published before play.
    pub commitment: &'a str,
    /// The revealed server seed.
    pub server_seed: &'a str,
    /// The player's seed.
    pub client_seed: &'a str,
    /// The nonce (0 for arcade rounds).
    pub nonce: u64,
    /// The settled round.
    pub settlement: &'a Settlement,
}

#[cfg(feature = "serde")]
impl Serialize for ReceiptView<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let st = self.settlement;
        let mut s = serializer.serialize_struct("Receipt", 12)?;
        s.serialize_field("game", &st.call.game())?;
        s.serialize_field("fairness_version", &FAIRNESS_VERSION)?;
        s.serialize_field("commitment", self.commitment)?;
        s.serialize_field("server_seed", self.server_seed)?;
        s.serialize_field("client_seed", self.client_seed)?;
        s.serialize_field("nonce", &self.nonce)?;
        s.serialize_field("wager", &st.wager)?;
        s.serialize_field("params", &CallParams(&st.call))?;
        s.serialize_field("result", &st.result)?;
        s.serialize_field("won", &st.won)?;
        s.serialize_field("payout", &st.payout)?;
        s.serialize_field("profit", &st.profit)?;
        s.end()
    }
}

/// A receipt as JSON gives it, before its parameters are checked against its game.
#[derive(Debug, Clone)]
#[cfg_attr(feature = "serde", derive(Deserialize))]
pub struct ReceiptInput {
    /// The game, by name.
    pub game: Game,
    /// Must be 1.
    pub fairness_version: Option<u32>,
    /// The commitment.
    pub commitment: String,
    /// The revealed server seed.
    pub server_seed: String,
    /// The player's seed.
    pub client_seed: String,
    /// Defaults to 0.
    #[cfg_attr(feature = "serde", serde(default))]
    pub nonce: u64,
    /// Chips wagered.
    pub wager: u64,
    /// The call's parameters.
    pub params: ParamsInput,
    /// The claimed result object.
    pub result: ClaimedResult,
    /// Claimed win or loss.
    pub won: bool,
    /// Claimed payout.
    pub payout: u64,
    /// Claimed profit.
    pub profit: i64,
}

impl TryFrom<ReceiptInput> for Receipt {
    type Error = ReceiptError;

    fn try_from(input: ReceiptInput) -> Result<Self, ReceiptError> {
        Ok(Receipt {
            fairness_version: input.fairness_version.ok_or(ReceiptError::MissingField {
                field: "fairness_version",
            })?,
            call: input.params.to_call(input.game)?,
            commitment: input.commitment,
            server_seed: input.server_seed,
            client_seed: input.client_seed,
            nonce: input.nonce,
            wager: input.wager,
            claimed: Claimed {
                result: input.result,
                won: input.won,
                payout: input.payout,
                profit: input.profit,
            },
        })
    }
}

#[cfg(feature = "serde")]
/// The steps of a settlement a person can follow: the HMAC key and message, the digest, the
/// two draws, the exact return with its fractional chip, the call's winning outcomes `W` of the
/// game's `N`, and the number `u_0` maps to (decimal strings).
#[derive(Debug, Clone, Copy)]
pub struct TraceView<'a> {
    /// The server seed (the HMAC key).
    pub server_seed: &'a str,
    /// The HMAC message of block 0.
    pub message: &'a str,
    /// The settled round.
    pub settlement: &'a Settlement,
}

#[cfg(feature = "serde")]
impl Serialize for TraceView<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let st = self.settlement;
        let ret = st.win_return();
        let mut s = serializer.serialize_struct("Trace", 9)?;
        s.serialize_field("hmac_key", self.server_seed)?;
        s.serialize_field("hmac_message", self.message)?;
        s.serialize_field("block0", &crate::hex::encode(&st.draws.block0))?;
        s.serialize_field("u0", &st.draws.u0)?;
        s.serialize_field("u1", &st.draws.u1)?;
        s.serialize_field(
            "exact_return",
            &ExactReturn {
                numerator: ret.numerator().to_string(),
                denominator: ret.denominator().to_string(),
                floor: ret.floor().to_string(),
                remainder: ret.remainder().to_string(),
                bonus_chip: st.bonus_chip(),
            },
        )?;
        let game = st.call.game();
        s.serialize_field("winning_count", &st.call.winning_count().to_string())?;
        s.serialize_field("outcomes", &game.outcomes().to_string())?;
        s.serialize_field("drawn", &game.drawn(st.draws.u0).to_string())?;
        s.end()
    }
}

#[cfg(feature = "serde")]
/// `a / b` of the win return as decimal strings (they can exceed 2^53), and how it was paid.
#[derive(Debug, Clone, Serialize)]
struct ExactReturn {
    numerator: String,
    denominator: String,
    floor: String,
    remainder: String,
    bonus_chip: bool,
}

#[cfg(feature = "serde")]
#[derive(Debug, Clone, Serialize)]
struct Derived<'a> {
    commitment: &'a str,
    result: &'a GameResult,
    won: bool,
    payout: u64,
    profit: i64,
}

#[cfg(feature = "serde")]
/// A verification report as JSON: `verified`, `checks`, `derived`, `trace`, `mismatches`.
#[derive(Debug, Clone, Copy)]
pub struct VerificationView<'a> {
    /// The report.
    pub verification: &'a Verification,
    /// The server seed (the HMAC key) of the receipt.
    pub server_seed: &'a str,
}

#[cfg(feature = "serde")]
impl Serialize for VerificationView<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let v = self.verification;
        let st = &v.settlement;
        let mut s = serializer.serialize_struct("Verification", 5)?;
        s.serialize_field("verified", &v.verified())?;
        s.serialize_field("checks", &v.checks)?;
        s.serialize_field(
            "derived",
            &Derived {
                commitment: v.commitment.as_str(),
                result: &st.result,
                won: st.won,
                payout: st.payout,
                profit: st.profit,
            },
        )?;
        s.serialize_field(
            "trace",
            &TraceView {
                server_seed: self.server_seed,
                message: &v.message,
                settlement: st,
            },
        )?;
        s.serialize_field("mismatches", &v.mismatches)?;
        s.end()
    }
}
