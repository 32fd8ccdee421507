//! Limbo: a multiplier drawn from `u_0` (Stake's crash point, in integers), called by a target
//! from 1.01 to 1000000.00; a draw at or above the target wins. The return is derived from the
//! exact probability `W / 2^32` with a 1% edge, as dice's is.

use alloc::string::String;
use alloc::vec::Vec;

use crate::description::{Description, Field, Kind, Signed, Source};
use crate::error::{CallError, ReceiptError};
use crate::game::{GameRules, SignedCall};
use crate::mismatch::{Check, Mismatch, push_if_differs, push_if_text_differs};
use crate::payout::WinReturn;
pub use crate::stream::two_decimals;

/// Equally likely draws of `u_0`.
pub const OUTCOMES: u64 = 1 << 32;
/// The smallest target, in hundredths (1.01).
pub const MIN_TARGET: u32 = 101;
/// The largest target and the largest result, in hundredths (1000000.00).
pub const MAX_HUNDREDTHS: u32 = 100_000_000;
/// The smallest result, in hundredths (1.00).
pub const MIN_RESULT: u32 = 100;
/// `99 * 2^32`: the crash point's numerator, in hundredths.
const SCALE: u64 = 99 << 32;

/// What a limbo call's target must be.
const TARGET_RULE: &str = "must be a multiplier from 1.01 to 1000000.00 with at most two decimals";

/// [`LimboCall::parse`]'s language as a regular expression: a target from 1.01 to 1000000.00
/// written with at most two decimals and no leading zero. The inputs' schemas publish it, and
/// a test holds the two to each other.
pub const TARGET_PATTERN: &str =
    r"^(?:1\.(?:0[1-9]|[1-9][0-9]?)|(?:[2-9]|[1-9][0-9]{1,5})(?:\.[0-9]{1,2})?|1000000(?:\.00?)?)$";

/// A validated limbo call: the target multiplier, in hundredths.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LimboCall {
    target: u32,
}

impl LimboCall {
    /// A call on `hundredths` (101 ..= 100000000, i.e. 1.01 ..= 1000000.00).
    pub fn new(hundredths: u64) -> Result<Self, CallError> {
        match u32::try_from(hundredths) {
            Ok(target) if (MIN_TARGET..=MAX_HUNDREDTHS).contains(&target) => Ok(Self { target }),
            _ => Err(target_error()),
        }
    }

    /// A call on a target written as a decimal: digits without a leading zero, then optionally
    /// `.` and one or two digits (`"2"`, `"2.5"`, `"1000000.00"`).
    pub fn parse(text: &str) -> Result<Self, CallError> {
        let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
        let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if whole.is_empty() || whole.len() > 7 || whole.starts_with('0') || !digits(whole) {
            return Err(target_error());
        }
        if fraction.len() > 2 || !digits(fraction) || (text.ends_with('.')) {
            return Err(target_error());
        }
        let whole: u64 = whole.parse().map_err(|_| target_error())?;
        let mut cents: u64 = fraction.parse().unwrap_or(0);
        if fraction.len() == 1 {
            cents *= 10;
        }
        Self::new(whole * 100 + cents)
    }

    /// `T`: the target in hundredths.
    pub fn target_hundredths(&self) -> u32 {
        self.target
    }

    /// `W = floor(99 * 2^32 / T) + 1`: how many of the `2^32` draws win.
    pub fn winning_count(&self) -> u64 {
        SCALE / u64::from(self.target) + 1
    }

    /// Whether a draw of `result` hundredths wins: at or above the target.
    pub fn wins(&self, result: LimboResult) -> bool {
        result.hundredths >= self.target
    }

    /// `wager * 99 * 2^32 / (100 * W)`.
    pub fn win_return(&self, wager: u64) -> WinReturn {
        WinReturn::new(
            u128::from(wager) * u128::from(SCALE),
            100 * u128::from(self.winning_count()),
        )
    }
}

fn target_error() -> CallError {
    CallError::Invalid {
        field: "target",
        rule: TARGET_RULE,
    }
}

/// A drawn multiplier in hundredths: 100 ..= 100000000 stands for 1.00 ..= 1000000.00.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LimboResult {
    hundredths: u32,
}

impl LimboResult {
    /// `1000000.00` if `u_0 = 0`, else `floor(99 * 2^32 / u_0)` hundredths kept within
    /// `1.00 ..= 1000000.00`.
    pub fn from_u32(u0: u32) -> Self {
        let hundredths = match u64::from(u0) {
            0 => MAX_HUNDREDTHS,
            u => u32::try_from(SCALE / u)
                .unwrap_or(MAX_HUNDREDTHS)
                .clamp(MIN_RESULT, MAX_HUNDREDTHS),
        };
        Self { hundredths }
    }

    /// A result given in hundredths, if in 100 ..= 100000000.
    pub fn from_hundredths(hundredths: u64) -> Option<Self> {
        u32::try_from(hundredths)
            .ok()
            .filter(|h| (MIN_RESULT..=MAX_HUNDREDTHS).contains(h))
            .map(|hundredths| Self { hundredths })
    }

    /// 100 ..= 100000000.
    pub fn hundredths(&self) -> u32 {
        self.hundredths
    }
}

/// Limbo's rules (see [`GameRules`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Limbo;

/// A limbo receipt's `params`: `{"target_hundredths"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct LimboParams {
    /// The target in hundredths, 101 to 100000000 (required).
    pub target_hundredths: Option<u64>,
}

/// A limbo receipt's `result`: `{"result_hundredths", "crash_point"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LimboDrawn {
    /// The multiplier drawn.
    pub result: LimboResult,
}

#[cfg(feature = "serde")]
impl serde::Serialize for LimboDrawn {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("LimboDrawn", 2)?;
        s.serialize_field("result_hundredths", &self.result.hundredths)?;
        s.serialize_field("crash_point", &two_decimals(self.result.hundredths))?;
        s.end()
    }
}

/// A limbo receipt's `result` as claimed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct LimboClaimed {
    /// The multiplier drawn, in hundredths (required).
    pub result_hundredths: Option<u64>,
    /// The multiplier drawn, as text with two decimals.
    pub crash_point: Option<String>,
}

impl GameRules for Limbo {
    const NAME: &'static str = "limbo";
    const OUTCOMES: u64 = OUTCOMES;
    const DESCRIPTION: Description = Description {
        name: Self::NAME,
        summary: "Limbo: a multiplier from 1.00 to 1000000.00 is drawn; win if it reaches your target (1.01 to 1000000.00), paid 99% of the fair odds of the target.",
        outcomes: Self::OUTCOMES,
        mapping: "floor(99 × 2^32 / u0) = {drawn} (u0 = 0 draws the cap), kept within 100 ..= 100000000 → result {result_hundredths} hundredths → {crash_point}x",
        call: &[Field {
            name: "target",
            kind: Kind::Text {
                pattern: TARGET_PATTERN,
            },
            required: true,
            required_with: None,
            about: "The multiplier to reach: 1.01 to 1000000.00 as text with at most two decimals (\"2.50\").",
        }],
        params: &[Field {
            name: "target_hundredths",
            kind: Kind::Integer {
                min: MIN_TARGET as u64,
                max: MAX_HUNDREDTHS as u64,
            },
            required: true,
            required_with: None,
            about: "The target in hundredths, 101 to 100000000.",
        }],
        result: &[
            Field {
                name: "result_hundredths",
                kind: Kind::Integer {
                    min: MIN_RESULT as u64,
                    max: MAX_HUNDREDTHS as u64,
                },
                required: true,
                required_with: None,
                about: "The multiplier drawn, in hundredths.",
            },
            Field {
                name: "crash_point",
                kind: Kind::Shown,
                required: false,
                required_with: None,
                about: "The multiplier drawn, as text with two decimals.",
            },
        ],
        signed: Signed {
            call: Source::Word(Self::NAME),
            target: Source::Param("target_hundredths"),
            number: Source::Absent,
            outcome: "result_hundredths",
            outcome_words: &[],
        },
    };
    type Call = LimboCall;
    type Outcome = LimboResult;
    type Result = LimboDrawn;
    type Params = LimboParams;
    type Claimed = LimboClaimed;

    fn drawn(u0: u32) -> u64 {
        SCALE
            .checked_div(u64::from(u0))
            .unwrap_or(u64::from(MAX_HUNDREDTHS))
    }

    fn draw(_: &LimboCall, u0: u32) -> LimboDrawn {
        LimboDrawn {
            result: LimboResult::from_u32(u0),
        }
    }

    fn outcome(drawn: &LimboDrawn) -> LimboResult {
        drawn.result
    }

    fn wins(call: &LimboCall, outcome: LimboResult) -> bool {
        call.wins(outcome)
    }

    fn winning_count(call: &LimboCall) -> u64 {
        call.winning_count()
    }

    fn win_return(call: &LimboCall, wager: u64) -> WinReturn {
        call.win_return(wager)
    }

    fn params(call: &LimboCall) -> LimboParams {
        LimboParams {
            target_hundredths: Some(u64::from(call.target)),
        }
    }

    fn call_of(params: &LimboParams) -> Result<LimboCall, ReceiptError> {
        let target = params.target_hundredths.ok_or(ReceiptError::MissingField {
            field: "params.target_hundredths",
        })?;
        Ok(LimboCall::new(target)?)
    }

    fn result_of(_: &LimboCall, claimed: &LimboClaimed) -> Result<LimboDrawn, ReceiptError> {
        const FIELD: &str = "result.result_hundredths";
        let hundredths = claimed
            .result_hundredths
            .ok_or(ReceiptError::MissingField { field: FIELD })?;
        let result = LimboResult::from_hundredths(hundredths)
            .ok_or(ReceiptError::OutcomeOutOfRange { field: FIELD })?;
        Ok(LimboDrawn { result })
    }

    fn compare(
        derived: &LimboDrawn,
        claimed: &LimboClaimed,
        out: &mut Vec<Mismatch>,
    ) -> Result<(), ReceiptError> {
        let hundredths = claimed
            .result_hundredths
            .ok_or(ReceiptError::MissingField {
                field: "result.result_hundredths",
            })?;
        let derived = derived.result.hundredths;
        push_if_differs(
            out,
            Check::Outcome,
            "result.result_hundredths",
            u64::from(derived),
            hundredths,
        );
        if let Some(text) = &claimed.crash_point {
            push_if_text_differs(out, "result.crash_point", two_decimals(derived), text);
        }
        Ok(())
    }

    /// `call` is `"limbo"`, `target` the target in hundredths; no number.
    fn signed_call(call: &LimboCall) -> SignedCall {
        SignedCall {
            call: Self::NAME,
            target: u64::from(call.target),
            number: None,
        }
    }

    /// The result in hundredths.
    fn signed_outcome(drawn: &LimboDrawn) -> u64 {
        u64::from(drawn.result.hundredths)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_mapping_edges() {
        assert_eq!(LimboResult::from_u32(0).hundredths(), MAX_HUNDREDTHS);
        // floor(99 * 2^32 / 1) is far above the cap.
        assert_eq!(LimboResult::from_u32(1).hundredths(), MAX_HUNDREDTHS);
        assert_eq!(LimboResult::from_u32(u32::MAX).hundredths(), 100);
        // u = 2^32 / 2 draws 1.98.
        assert_eq!(LimboResult::from_u32(1 << 31).hundredths(), 198);
        // The smallest u whose crash point falls below the cap.
        let first_below = u32::try_from(SCALE / u64::from(MAX_HUNDREDTHS) + 1).unwrap();
        assert!(LimboResult::from_u32(first_below).hundredths() < MAX_HUNDREDTHS);
        assert_eq!(
            LimboResult::from_u32(first_below - 1).hundredths(),
            MAX_HUNDREDTHS
        );
    }

    #[test]
    fn the_boundary_draw_wins_and_the_next_loses() {
        for target in [101, 150, 198, 200, 1000, 4_294_967, 100_000_000] {
            let call = LimboCall::new(target).unwrap();
            let boundary = u32::try_from(SCALE / target).unwrap();
            assert!(call.wins(LimboResult::from_u32(boundary)), "{target}");
            assert!(!call.wins(LimboResult::from_u32(boundary + 1)), "{target}");
            assert_eq!(call.winning_count(), u64::from(boundary) + 1);
        }
    }

    #[test]
    fn every_win_returns_more_than_the_wager() {
        for target in [101, 102, 200, 50_000, 100_000_000] {
            let r = LimboCall::new(target).unwrap().win_return(1);
            assert!(r.numerator() > r.denominator(), "{target}");
            assert!(r.floor() <= u128::from(target) / 100, "{target}");
        }
    }

    #[test]
    fn targets_parse_as_decimals_with_two_places_at_most() {
        let ok = |t: &str| LimboCall::parse(t).map(|c| c.target_hundredths());
        assert_eq!(ok("2"), Ok(200));
        assert_eq!(ok("2.5"), Ok(250));
        assert_eq!(ok("1.01"), Ok(101));
        assert_eq!(ok("1000000.00"), Ok(100_000_000));
        for bad in [
            "",
            "1",
            "1.00",
            "1.001",
            "2.",
            ".5",
            "-2",
            "+2",
            "2e3",
            " 2",
            "1000000.01",
            "99999999999",
            "2.5.0",
            "１２",
        ] {
            assert_eq!(LimboCall::parse(bad), Err(target_error()), "{bad:?}");
        }
    }

    #[test]
    fn two_decimals_writes_hundredths() {
        assert_eq!(two_decimals(100), "1.00");
        assert_eq!(two_decimals(198), "1.98");
        assert_eq!(two_decimals(205), "2.05");
        assert_eq!(two_decimals(100_000_000), "1000000.00");
    }
}
