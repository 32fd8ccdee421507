//! Dice as a game of the arcade (see [`GameRules`]): the receipt's shapes, the comparison of a
//! claimed roll and the fields a signed receipt carries.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

#[cfg(feature = "serde")]
use serde::ser::{Serialize, SerializeStruct, Serializer};

use super::{ClaimedRoll, DiceCall, Direction, MAX_TARGET, MIN_TARGET, OUTCOMES, Roll, Schedule};
use crate::description::{Description, Field, Kind, Signed, Source};
use crate::error::ReceiptError;
use crate::game::{GameRules, SignedCall};
use crate::mismatch::{Check, Mismatch, push_if_differs, push_if_text_differs};
use crate::payout::WinReturn;

/// Dice's rules (see [`GameRules`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Dice;

/// A dice receipt's `params`: `{"target", "direction"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct DiceParams {
    /// The target, 1 to 99 (required).
    pub target: Option<u32>,
    /// Under (the default) or over.
    pub direction: Option<Direction>,
}

/// A dice receipt's `result`: `{"roll", "roll_hundredths", "win_chance", "multiplier"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DiceResult {
    /// The roll drawn.
    pub roll: Roll,
    /// The schedule of the call.
    pub schedule: Schedule,
}

#[cfg(feature = "serde")]
impl Serialize for DiceResult {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("DiceResult", 4)?;
        s.serialize_field("roll", &self.roll.as_f64())?;
        s.serialize_field("roll_hundredths", &self.roll.hundredths())?;
        s.serialize_field("win_chance", &self.schedule.win_chance())?;
        s.serialize_field("multiplier", &self.schedule.multiplier())?;
        s.end()
    }
}

/// A dice receipt's `result` as claimed: the roll in hundredths or as a number (one of them is
/// required), and the schedule's texts.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct DiceClaimed {
    /// The roll as a number (display form).
    pub roll: Option<ClaimedRoll>,
    /// The roll in hundredths.
    pub roll_hundredths: Option<u64>,
    /// The win chance text, e.g. `"49.5000%"`.
    pub win_chance: Option<String>,
    /// The multiplier text, e.g. `"1.9800"`.
    pub multiplier: Option<String>,
}

/// A dice call, as a call and a receipt's `params` give it.
const CALL: &[Field] = &[
    Field {
        name: "target",
        kind: Kind::Integer {
            min: MIN_TARGET as u64,
            max: MAX_TARGET as u64,
        },
        required: true,
        required_with: None,
        about: "1 to 99. The roll is 0.00 to 100.00; under wins below the target, over above it.",
    },
    Field {
        name: "direction",
        kind: Kind::Choice {
            words: &["under", "over"],
        },
        required: false,
        required_with: None,
        about: "under (the default) or over.",
    },
];

impl GameRules for Dice {
    const NAME: &'static str = "dice";
    const OUTCOMES: u64 = OUTCOMES as u64;
    const RECEIPT_SHOWS_RETURN: bool = true;
    const DESCRIPTION: Description = Description {
        name: Self::NAME,
        summary: "Dice: a roll from 0.00 to 100.00, under or over a target (1 to 99); pays 99% of the fair odds of the call, and the result carries its exact return.",
        outcomes: Self::OUTCOMES,
        mapping: "(u0 × 10001) >> 32 = {drawn} → roll {roll}",
        call: CALL,
        params: CALL,
        result: &[
            Field {
                name: "roll",
                kind: Kind::Number,
                required: false,
                required_with: None,
                about: "The roll, 0.00 to 100.00.",
            },
            Field {
                name: "roll_hundredths",
                kind: Kind::Integer {
                    min: 0,
                    max: 10_000,
                },
                required: true,
                required_with: None,
                about: "The roll in hundredths, 0 to 10000.",
            },
            Field {
                name: "win_chance",
                kind: Kind::Shown,
                required: false,
                required_with: None,
                about: "The call's chance of a win, with four decimals and a percent sign.",
            },
            Field {
                name: "multiplier",
                kind: Kind::Shown,
                required: false,
                required_with: None,
                about: "The return of a win per chip wagered, with four decimals.",
            },
        ],
        signed: Signed {
            call: Source::Param("direction"),
            target: Source::Param("target"),
            number: Source::Absent,
            outcome: "roll_hundredths",
            outcome_words: &[],
        },
    };
    type Call = DiceCall;
    type Outcome = Roll;
    type Result = DiceResult;
    type Params = DiceParams;
    type Claimed = DiceClaimed;

    fn drawn(u0: u32) -> u64 {
        u64::from(Roll::from_u32(u0).hundredths())
    }

    fn draw(call: &DiceCall, u0: u32) -> DiceResult {
        DiceResult {
            roll: Roll::from_u32(u0),
            schedule: call.schedule(),
        }
    }

    fn outcome(result: &DiceResult) -> Roll {
        result.roll
    }

    fn wins(call: &DiceCall, outcome: Roll) -> bool {
        call.wins(outcome)
    }

    fn winning_count(call: &DiceCall) -> u64 {
        u64::from(call.winning_count())
    }

    fn win_return(call: &DiceCall, wager: u64) -> WinReturn {
        call.win_return(wager)
    }

    fn params(call: &DiceCall) -> DiceParams {
        DiceParams {
            target: Some(u32::from(call.target())),
            direction: Some(call.direction()),
        }
    }

    fn call_of(params: &DiceParams) -> Result<DiceCall, ReceiptError> {
        let target = params.target.ok_or(ReceiptError::MissingField {
            field: "params.target",
        })?;
        Ok(DiceCall::new(target, params.direction.unwrap_or_default())?)
    }

    /// The roll from `roll_hundredths` (the display `roll` is not read).
    fn result_of(call: &DiceCall, claimed: &DiceClaimed) -> Result<DiceResult, ReceiptError> {
        const FIELD: &str = "result.roll_hundredths";
        let hundredths = claimed
            .roll_hundredths
            .ok_or(ReceiptError::MissingField { field: FIELD })?;
        let roll = u32::try_from(hundredths)
            .ok()
            .and_then(Roll::from_hundredths)
            .ok_or(ReceiptError::OutcomeOutOfRange { field: FIELD })?;
        Ok(DiceResult {
            roll,
            schedule: call.schedule(),
        })
    }

    fn compare(
        derived: &DiceResult,
        claimed: &DiceClaimed,
        out: &mut Vec<Mismatch>,
    ) -> Result<(), ReceiptError> {
        let DiceResult { roll, schedule } = *derived;
        if claimed.roll_hundredths.is_none() && claimed.roll.is_none() {
            return Err(ReceiptError::MissingField {
                field: "result.roll_hundredths",
            });
        }
        if let Some(h) = claimed.roll_hundredths {
            let derived = u64::from(roll.hundredths());
            push_if_differs(out, Check::Outcome, "result.roll_hundredths", derived, h);
        }
        if let Some(claimed_roll) = claimed.roll {
            // The display number must name the same hundredth.
            let (r, d) = (claimed_roll.value(), roll.as_f64());
            if !(r - d < 0.005 && d - r < 0.005) {
                out.push(Mismatch {
                    check: Check::Outcome,
                    field: "result.roll",
                    derived: roll.to_string(),
                    claimed: claimed_roll.to_string(),
                });
            }
        }
        if let Some(text) = &claimed.win_chance {
            push_if_text_differs(out, "result.win_chance", schedule.win_chance(), text);
        }
        if let Some(text) = &claimed.multiplier {
            push_if_text_differs(out, "result.multiplier", schedule.multiplier(), text);
        }
        Ok(())
    }

    /// `call` is the direction, `target` the target; no number.
    fn signed_call(call: &DiceCall) -> SignedCall {
        SignedCall {
            call: call.direction().as_str(),
            target: u64::from(call.target()),
            number: None,
        }
    }

    /// The roll in hundredths.
    fn signed_outcome(result: &DiceResult) -> u64 {
        u64::from(result.roll.hundredths())
    }
}
