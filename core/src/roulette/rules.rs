//! Roulette as a game of the arcade (see [`GameRules`]): the receipt's shapes, the comparison
//! of a claimed pocket and the fields a signed receipt carries.

use alloc::vec::Vec;

use super::{BetKind, Color, POCKETS, RouletteBet, color, spin};
use crate::description::{Description, Field, Kind, Signed, Source};
use crate::error::ReceiptError;
use crate::game::{GameRules, SignedCall};
use crate::mismatch::{Check, Mismatch, push_if_differs};
use crate::payout::WinReturn;

/// Roulette's rules (see [`GameRules`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Roulette;

/// A roulette receipt's `params`: `{"bet", "number"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct RouletteParams {
    /// The kind of bet (required).
    pub bet: Option<BetKind>,
    /// The number of a straight bet; null for every other kind.
    pub number: Option<u32>,
}

/// A roulette receipt's `result`: `{"pocket", "color"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct RouletteResult {
    /// The pocket drawn, 0 ..= 36.
    pub pocket: u8,
    /// Its colour.
    pub color: Color,
}

/// A roulette receipt's `result` as claimed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct RouletteClaimed {
    /// The pocket (required).
    pub pocket: Option<u64>,
    /// The pocket's colour.
    pub color: Option<Color>,
}

/// A roulette bet, as a call and a receipt's `params` give it.
const CALL: &[Field] = &[
    Field {
        name: "bet",
        kind: Kind::Choice {
            words: &[
                "straight", "red", "black", "odd", "even", "low", "high", "dozen1", "dozen2",
                "dozen3", "column1", "column2", "column3",
            ],
        },
        required: true,
        required_with: None,
        about: "One of the 13 bets: straight (needs number, pays 36x), red, black, odd, even, low, high (2x), dozen1, dozen2, dozen3, column1, column2, column3 (3x).",
    },
    Field {
        name: "number",
        kind: Kind::Integer {
            min: 0,
            max: POCKETS as u64 - 1,
        },
        required: false,
        required_with: Some(("bet", "straight")),
        about: "0 to 36, for a straight bet only.",
    },
];

impl GameRules for Roulette {
    const NAME: &'static str = "roulette";
    const OUTCOMES: u64 = POCKETS as u64;
    const DESCRIPTION: Description = Description {
        name: Self::NAME,
        summary: "European roulette: one of 13 bets on 37 pockets; pays 36x straight, 3x dozens and columns, 2x even-money bets.",
        outcomes: Self::OUTCOMES,
        mapping: "(u0 × 37) >> 32 = {drawn} → pocket {pocket}",
        call: CALL,
        params: CALL,
        result: &[
            Field {
                name: "pocket",
                kind: Kind::Integer {
                    min: 0,
                    max: POCKETS as u64 - 1,
                },
                required: true,
                required_with: None,
                about: "The pocket drawn, 0 to 36.",
            },
            Field {
                name: "color",
                kind: Kind::Choice {
                    words: &["green", "red", "black"],
                },
                required: false,
                required_with: None,
                about: "The pocket's colour.",
            },
        ],
        signed: Signed {
            call: Source::Param("bet"),
            target: Source::Absent,
            number: Source::Param("number"),
            outcome: "pocket",
            outcome_words: &[],
        },
    };
    type Call = RouletteBet;
    type Outcome = u8;
    type Result = RouletteResult;
    type Params = RouletteParams;
    type Claimed = RouletteClaimed;

    fn drawn(u0: u32) -> u64 {
        u64::from(spin(u0))
    }

    fn draw(_: &RouletteBet, u0: u32) -> RouletteResult {
        let pocket = spin(u0);
        RouletteResult {
            pocket,
            color: color(pocket),
        }
    }

    fn outcome(result: &RouletteResult) -> u8 {
        result.pocket
    }

    fn wins(call: &RouletteBet, outcome: u8) -> bool {
        call.covers(outcome)
    }

    fn winning_count(call: &RouletteBet) -> u64 {
        u64::from(call.winning_count())
    }

    fn win_return(call: &RouletteBet, wager: u64) -> WinReturn {
        call.win_return(wager)
    }

    fn params(call: &RouletteBet) -> RouletteParams {
        RouletteParams {
            bet: Some(call.kind()),
            number: call.number().map(u32::from),
        }
    }

    fn call_of(params: &RouletteParams) -> Result<RouletteBet, ReceiptError> {
        let bet = params.bet.ok_or(ReceiptError::MissingField {
            field: "params.bet",
        })?;
        Ok(RouletteBet::new(bet, params.number)?)
    }

    /// The pocket; its colour follows from it.
    fn result_of(
        _: &RouletteBet,
        claimed: &RouletteClaimed,
    ) -> Result<RouletteResult, ReceiptError> {
        const FIELD: &str = "result.pocket";
        let pocket = claimed
            .pocket
            .ok_or(ReceiptError::MissingField { field: FIELD })?;
        let pocket = u8::try_from(pocket)
            .ok()
            .filter(|p| u32::from(*p) < POCKETS)
            .ok_or(ReceiptError::OutcomeOutOfRange { field: FIELD })?;
        Ok(RouletteResult {
            pocket,
            color: color(pocket),
        })
    }

    fn compare(
        derived: &RouletteResult,
        claimed: &RouletteClaimed,
        out: &mut Vec<Mismatch>,
    ) -> Result<(), ReceiptError> {
        let claimed_pocket = claimed.pocket.ok_or(ReceiptError::MissingField {
            field: "result.pocket",
        })?;
        let pocket = u64::from(derived.pocket);
        push_if_differs(out, Check::Outcome, "result.pocket", pocket, claimed_pocket);
        if let Some(c) = claimed.color {
            let derived = derived.color.as_str();
            push_if_differs(out, Check::Outcome, "result.color", derived, c.as_str());
        }
        Ok(())
    }

    /// `call` is the kind of bet; no target; a straight bet's number.
    fn signed_call(call: &RouletteBet) -> SignedCall {
        SignedCall {
            call: call.kind().as_str(),
            target: 0,
            number: call.number().map(u32::from),
        }
    }

    /// The pocket.
    fn signed_outcome(result: &RouletteResult) -> u64 {
        u64::from(result.pocket)
    }
}
