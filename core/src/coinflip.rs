//! Coinflip: `heads` iff the top bit of `u_0` is set; exactly 1/2 each. Returns 1.98x on a win.

use alloc::vec::Vec;

use crate::description::{Description, Field, Kind, Signed, Source};
use crate::error::ReceiptError;
use crate::game::{GameRules, SignedCall};
use crate::mismatch::{Check, Mismatch, push_if_differs};
use crate::payout::WinReturn;

/// A side of the coin: both the call and the outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Side {
    /// Top bit of `u_0` set.
    Heads,
    /// Top bit of `u_0` clear.
    Tails,
}

impl Side {
    /// Both sides, in the order they are listed.
    pub const ALL: [Side; 2] = [Self::Heads, Self::Tails];

    /// `"heads"` or `"tails"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Heads => "heads",
            Self::Tails => "tails",
        }
    }

    /// Parses `"heads"` or `"tails"` exactly.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "heads" => Some(Self::Heads),
            "tails" => Some(Self::Tails),
            _ => None,
        }
    }
}

/// The outcome drawn from `u_0`.
pub fn flip(u0: u32) -> Side {
    if u0 >= 1 << 31 {
        Side::Heads
    } else {
        Side::Tails
    }
}

/// Winning outcomes `W` of `N = 2` for either call.
pub const WINNING: u32 = 1;
/// Equally likely outcomes.
pub const OUTCOMES: u32 = 2;

/// `wager * 198 / 100`: a 1% house edge.
pub fn win_return(wager: u64) -> WinReturn {
    WinReturn::new(u128::from(wager) * 198, 100)
}

/// Coinflip's rules (see [`GameRules`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Coinflip;

/// A coinflip receipt's `params`: `{"call"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct CoinflipParams {
    /// The side called.
    pub call: Option<Side>,
}

/// A coinflip receipt's `result`: `{"outcome": "heads"|"tails"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct CoinflipResult {
    /// The side drawn.
    pub outcome: Side,
}

/// A coinflip receipt's `result` as claimed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct CoinflipClaimed {
    /// The side the receipt says was drawn (required).
    pub outcome: Option<Side>,
}

/// The side called, as a call and a receipt's `params` give it.
const CALL: Field = Field {
    name: "call",
    kind: Kind::Choice {
        words: &["heads", "tails"],
    },
    required: true,
    required_with: None,
    about: "heads or tails. A win returns 1.98x the wager.",
};

impl GameRules for Coinflip {
    const NAME: &'static str = "coinflip";
    const OUTCOMES: u64 = OUTCOMES as u64;
    const DESCRIPTION: Description = Description {
        name: Self::NAME,
        summary: "Coinflip: call heads or tails. Pays 1.98x the wager.",
        outcomes: Self::OUTCOMES,
        mapping: "u0 >> 31 = {drawn} (u0 = {u0}: heads iff u0 ≥ 2^31 = 2147483648) → {outcome}",
        call: &[CALL],
        params: &[CALL],
        result: &[Field {
            name: "outcome",
            kind: Kind::Choice {
                words: &["heads", "tails"],
            },
            required: true,
            required_with: None,
            about: "The side drawn.",
        }],
        signed: Signed {
            call: Source::Param("call"),
            target: Source::Absent,
            number: Source::Absent,
            outcome: "outcome",
            outcome_words: &["tails", "heads"],
        },
    };
    type Call = Side;
    type Outcome = Side;
    type Result = CoinflipResult;
    type Params = CoinflipParams;
    type Claimed = CoinflipClaimed;

    fn drawn(u0: u32) -> u64 {
        u64::from(u0 >> 31)
    }

    fn draw(_: &Side, u0: u32) -> CoinflipResult {
        CoinflipResult { outcome: flip(u0) }
    }

    fn outcome(result: &CoinflipResult) -> Side {
        result.outcome
    }

    fn wins(call: &Side, outcome: Side) -> bool {
        *call == outcome
    }

    fn winning_count(_: &Side) -> u64 {
        u64::from(WINNING)
    }

    fn win_return(_: &Side, wager: u64) -> WinReturn {
        win_return(wager)
    }

    fn params(call: &Side) -> CoinflipParams {
        CoinflipParams { call: Some(*call) }
    }

    fn call_of(params: &CoinflipParams) -> Result<Side, ReceiptError> {
        params.call.ok_or(ReceiptError::MissingField {
            field: "params.call",
        })
    }

    fn result_of(_: &Side, claimed: &CoinflipClaimed) -> Result<CoinflipResult, ReceiptError> {
        let outcome = claimed.outcome.ok_or(ReceiptError::MissingField {
            field: "result.outcome",
        })?;
        Ok(CoinflipResult { outcome })
    }

    fn compare(
        derived: &CoinflipResult,
        claimed: &CoinflipClaimed,
        out: &mut Vec<Mismatch>,
    ) -> Result<(), ReceiptError> {
        let claimed_side = claimed.outcome.ok_or(ReceiptError::MissingField {
            field: "result.outcome",
        })?;
        push_if_differs(
            out,
            Check::Outcome,
            "result.outcome",
            derived.outcome.as_str(),
            claimed_side.as_str(),
        );
        Ok(())
    }

    /// `call` is the side; no target, no number.
    fn signed_call(call: &Side) -> SignedCall {
        SignedCall {
            call: call.as_str(),
            target: 0,
            number: None,
        }
    }

    /// 1 for heads, 0 for tails.
    fn signed_outcome(result: &CoinflipResult) -> u64 {
        u64::from(result.outcome == Side::Heads)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_bit_decides() {
        assert_eq!(flip(0), Side::Tails);
        assert_eq!(flip((1 << 31) - 1), Side::Tails);
        assert_eq!(flip(1 << 31), Side::Heads);
        assert_eq!(flip(u32::MAX), Side::Heads);
    }
}
