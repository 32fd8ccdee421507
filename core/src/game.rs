//! The seam between the arcade and one game: everything the arcade asks of a game, in one
//! trait that each game's module implements once. The enums that name the games ([`Game`],
//! [`Call`], [`Outcome`], [`GameResult`]) and the receipt inputs
//! ([`ParamsInput`](crate::wire::ParamsInput), [`ClaimedResult`]) are written out from the one
//! list of games in `lib.rs`, one variant or field per game, and dispatch to these functions.
//!
//! [`Game`]: crate::Game
//! [`Call`]: crate::Call
//! [`Outcome`]: crate::Outcome
//! [`GameResult`]: crate::GameResult
//! [`ClaimedResult`]: crate::ClaimedResult

use alloc::vec::Vec;
use core::fmt::Debug;
use core::hash::Hash;

use crate::description::Description;
use crate::error::ReceiptError;
use crate::mismatch::Mismatch;
use crate::payout::WinReturn;

/// One game of fairness v1: its call, how `u_0` maps to its outcome, which outcomes win, the
/// exact return of a win, its receipt's shapes and what its signed receipts carry.
pub trait GameRules {
    /// The game's name on the wire, in signed receipts and in routes: `"coinflip"`.
    const NAME: &'static str;
    /// `N`: how many equally likely outcomes the game has.
    const OUTCOMES: u64;
    /// Whether a receipt's `result` also shows the exact return of a win (`return_num /
    /// return_den` chips, the wager included, in lowest terms), as fairness v1 names it.
    const RECEIPT_SHOWS_RETURN: bool = false;
    /// The game described as data: its call, its receipt's fields and what is signed.
    const DESCRIPTION: Description;

    /// A validated call: what the player bets on.
    type Call: Copy + Eq + Hash + Debug;
    /// What `u_0` draws.
    type Outcome: Copy + Eq + Hash + Debug;
    /// A receipt's `result` object: the outcome and what is published with it.
    type Result: Copy + Eq + Debug + ToWire;
    /// A receipt's `params` object: written from a call, read back before it is checked.
    type Params: Clone + Default + PartialEq + Debug + ToWire + FromWire;
    /// A receipt's `result` object as the receipt claims it: every field optional.
    type Claimed: Clone + Default + PartialEq + Debug + FromWire;

    /// The number `u_0` maps to before the outcome is read from it (what the description's
    /// `mapping` calls `{drawn}`): coinflip `u0 >> 31`, dice `(u0 × 10001) >> 32`, roulette
    /// `(u0 × 37) >> 32`, limbo `floor(99 × 2^32 / u0)` (the cap for `u0 = 0`).
    fn drawn(u0: u32) -> u64;
    /// The result `u_0` draws for `call`.
    fn draw(call: &Self::Call, u0: u32) -> Self::Result;
    /// The bare outcome of a result.
    fn outcome(result: &Self::Result) -> Self::Outcome;
    /// Whether `outcome` wins `call`.
    fn wins(call: &Self::Call, outcome: Self::Outcome) -> bool;
    /// `W`: how many of the `N` outcomes win `call`.
    fn winning_count(call: &Self::Call) -> u64;
    /// The exact return of a win of `call` on `wager`.
    fn win_return(call: &Self::Call, wager: u64) -> WinReturn;

    /// The `params` a receipt of `call` shows.
    fn params(call: &Self::Call) -> Self::Params;
    /// The call a receipt's `params` make, checked as a call is.
    fn call_of(params: &Self::Params) -> Result<Self::Call, ReceiptError>;
    /// The result a receipt's `result` names for `call`: its outcome read from the claim (it is
    /// required, and must be one the game can draw), and what is published with it as `call`
    /// makes it. How a settled bet's stored result is read back as this game's.
    fn result_of(call: &Self::Call, claimed: &Self::Claimed) -> Result<Self::Result, ReceiptError>;
    /// Compares a claimed result with the derived one, pushing every differing field; `Err`
    /// when the claim lacks the outcome itself.
    fn compare(
        derived: &Self::Result,
        claimed: &Self::Claimed,
        out: &mut Vec<Mismatch>,
    ) -> Result<(), ReceiptError>;

    /// The fields of `call` that the signed `Receipt` and `Play` carry.
    fn signed_call(call: &Self::Call) -> SignedCall;
    /// The `outcome` field of the signed `Receipt`.
    fn signed_outcome(result: &Self::Result) -> u64;
}

/// The fields of a call that the house's signed `Receipt` and the player's signed `Play` carry
/// (EIP-712, see `docs/proofs.md`): `call`, `target`, `has_number` and `number`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SignedCall {
    /// coinflip's side, dice's direction, roulette's bet.
    pub call: &'static str,
    /// dice's target; 0 for a game without one.
    pub target: u64,
    /// roulette's number, when the bet names one.
    pub number: Option<u32>,
}

impl SignedCall {
    /// `has_number`: whether the call names a number.
    pub fn has_number(&self) -> bool {
        self.number.is_some()
    }

    /// `number` as signed: 0 when the call names none.
    pub fn number_or_zero(&self) -> u32 {
        self.number.unwrap_or(0)
    }
}

/// A shape a receipt shows: `serde::Serialize` with feature `serde`, anything without it.
#[cfg(feature = "serde")]
pub trait ToWire: serde::Serialize {}
#[cfg(feature = "serde")]
impl<T: serde::Serialize> ToWire for T {}
/// A shape a receipt shows: `serde::Serialize` with feature `serde`, anything without it.
#[cfg(not(feature = "serde"))]
pub trait ToWire {}
#[cfg(not(feature = "serde"))]
impl<T> ToWire for T {}

/// A shape read from a receipt: `serde::Deserialize` with feature `serde`, anything without it.
#[cfg(feature = "serde")]
pub trait FromWire: serde::de::DeserializeOwned {}
#[cfg(feature = "serde")]
impl<T: serde::de::DeserializeOwned> FromWire for T {}
/// A shape read from a receipt: `serde::Deserialize` with feature `serde`, anything without it.
#[cfg(not(feature = "serde"))]
pub trait FromWire {}
#[cfg(not(feature = "serde"))]
impl<T> FromWire for T {}

#[cfg(all(test, feature = "serde"))]
mod tests {
    use super::GameRules;
    use serde::de::{Deserializer, Error as _, Visitor, value::Error};

    /// The keys a derived `Deserialize` reads: serde hands them to `deserialize_struct`.
    fn keys<T: serde::de::DeserializeOwned>() -> &'static [&'static str] {
        struct Keys<'a>(&'a mut &'static [&'static str]);
        impl<'de> Deserializer<'de> for Keys<'_> {
            type Error = Error;
            fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Error> {
                Err(Error::custom("not a struct"))
            }
            fn deserialize_struct<V: Visitor<'de>>(
                self,
                _: &'static str,
                fields: &'static [&'static str],
                _: V,
            ) -> Result<V::Value, Error> {
                *self.0 = fields;
                Err(Error::custom("keys read"))
            }
            serde::forward_to_deserialize_any! {
                bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
                byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map enum
                identifier ignored_any
            }
        }
        let mut fields: &'static [&'static str] = &[];
        let _ = T::deserialize(Keys(&mut fields));
        fields
    }

    macro_rules! receipt_keys {
        ($($(#[$doc:meta])* $module:ident :: $Rules:ident,)*) => {
            [$((
                <crate::$module::$Rules as GameRules>::NAME,
                keys::<<crate::$module::$Rules as GameRules>::Params>(),
                keys::<<crate::$module::$Rules as GameRules>::Claimed>(),
            )),*]
        };
    }

    /// Every game's fields sit flattened at the top of a receipt's `params` and `result`, and
    /// serde gives a key to the first game that names it: a key two games read would reach
    /// only one of them.
    #[test]
    fn no_two_games_read_the_same_receipt_key() {
        let games = for_each_game!(receipt_keys);
        for (i, (game, params, claimed)) in games.iter().enumerate() {
            assert!(!params.is_empty() && !claimed.is_empty(), "{game}");
            for (other, other_params, other_claimed) in games.iter().skip(i + 1) {
                for key in *params {
                    assert!(
                        !other_params.contains(key),
                        "{game} and {other}: params.{key}"
                    );
                }
                for key in *claimed {
                    assert!(
                        !other_claimed.contains(key),
                        "{game} and {other}: result.{key}"
                    );
                }
            }
        }
    }
}
