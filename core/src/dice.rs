//! Dice: a roll of 0.00 ..= 100.00 (10001 outcomes), called under or over a target of 1 to 99.
//! The return is derived from the exact probability `W / 10001` with a 1% edge.

mod claimed;
mod rules;

pub use claimed::ClaimedRoll;
pub use rules::{Dice, DiceClaimed, DiceParams, DiceResult};

use crate::error::CallError;
use crate::payout::WinReturn;

/// Equally likely rolls: 0.00, 0.01, …, 100.00.
pub const OUTCOMES: u32 = 10_001;
/// Smallest target.
pub const MIN_TARGET: u32 = 1;
/// Largest target.
pub const MAX_TARGET: u32 = 99;

/// Which side of the target wins. A roll exactly on the target loses both ways.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Direction {
    /// Wins iff `roll < target` (the default).
    #[default]
    Under,
    /// Wins iff `roll > target`.
    Over,
}

impl Direction {
    /// Both directions, the default first.
    pub const ALL: [Direction; 2] = [Self::Under, Self::Over];

    /// `"under"` or `"over"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Under => "under",
            Self::Over => "over",
        }
    }

    /// Parses `"under"` or `"over"` exactly.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "under" => Some(Self::Under),
            "over" => Some(Self::Over),
            _ => None,
        }
    }
}

/// A validated dice call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DiceCall {
    target: u8,
    direction: Direction,
}

impl DiceCall {
    /// A call on `target` (1 to 99).
    pub fn new(target: u32, direction: Direction) -> Result<Self, CallError> {
        if !(MIN_TARGET..=MAX_TARGET).contains(&target) {
            return Err(CallError::DiceTargetOutOfRange { target });
        }
        let target =
            u8::try_from(target).map_err(|_| CallError::DiceTargetOutOfRange { target })?;
        Ok(Self { target, direction })
    }

    /// The target, 1 to 99.
    pub fn target(&self) -> u8 {
        self.target
    }

    /// Under or over.
    pub fn direction(&self) -> Direction {
        self.direction
    }

    /// `W`: how many of the 10001 rolls win.
    pub fn winning_count(&self) -> u32 {
        let at = 100 * u32::from(self.target);
        match self.direction {
            Direction::Under => at,
            Direction::Over => 10_000 - at,
        }
    }

    /// Whether `roll` (in hundredths) wins this call.
    pub fn wins(&self, roll: Roll) -> bool {
        let at = 100 * u16::from(self.target);
        match self.direction {
            Direction::Under => roll.hundredths < at,
            Direction::Over => roll.hundredths > at,
        }
    }

    /// `wager * 99 * 10001 / (100 * W)`.
    pub fn win_return(&self, wager: u64) -> WinReturn {
        WinReturn::new(
            u128::from(wager) * 99 * u128::from(OUTCOMES),
            100 * u128::from(self.winning_count()),
        )
    }

    /// The schedule published with the result.
    pub fn schedule(&self) -> Schedule {
        Schedule {
            winning_count: self.winning_count(),
        }
    }
}

/// A roll in hundredths: 0 ..= 10000 stands for 0.00 ..= 100.00.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Roll {
    hundredths: u16,
}

impl Roll {
    /// `roll_hundredths = (u_0 * 10001) >> 32`, the same as `floor(float * 10001)`.
    pub fn from_u32(u0: u32) -> Self {
        let hundredths = (u64::from(u0) * u64::from(OUTCOMES)) >> 32;
        Self {
            hundredths: u16::try_from(hundredths).unwrap_or(u16::MAX),
        }
    }

    /// A roll given in hundredths, if in 0 ..= 10000.
    pub fn from_hundredths(hundredths: u32) -> Option<Self> {
        u16::try_from(hundredths)
            .ok()
            .filter(|h| *h <= 10_000)
            .map(|hundredths| Self { hundredths })
    }

    /// 0 ..= 10000.
    pub fn hundredths(&self) -> u16 {
        self.hundredths
    }

    /// The roll as a JSON number with two decimals (display only; settlement uses hundredths).
    pub fn as_f64(&self) -> f64 {
        f64::from(self.hundredths) / 100.0
    }
}

impl core::fmt::Display for Roll {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&crate::stream::two_decimals(u32::from(self.hundredths)))
    }
}

/// The payout schedule of a dice call, as exact integers; the strings are for display only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Schedule {
    /// `W` of 10001.
    pub winning_count: u32,
}

impl Schedule {
    /// Win chance in percent, to 4 decimals, rounded half up: `"49.5000%"`.
    pub fn win_chance(&self) -> alloc::string::String {
        // percent * 10^4 = W * 10^6 / 10001
        let scaled = round_half_up(
            u64::from(self.winning_count) * 1_000_000,
            u64::from(OUTCOMES),
        );
        fixed4(scaled, "%")
    }

    /// Multiplier (return per chip wagered), to 4 decimals, rounded half up: `"1.9800"`.
    pub fn multiplier(&self) -> alloc::string::String {
        // 99 * 10001 / (100 W) * 10^4 = 99 * 10001 * 100 / W
        let scaled = round_half_up(
            99 * u64::from(OUTCOMES) * 100,
            u64::from(self.winning_count),
        );
        fixed4(scaled, "")
    }
}

fn round_half_up(num: u64, den: u64) -> u64 {
    (2 * num + den) / (2 * den)
}

/// An integer scaled by 10^4, shown with four decimals, then `suffix`.
fn fixed4(scaled: u64, suffix: &str) -> alloc::string::String {
    let whole = crate::stream::Decimal::of(scaled / 10_000);
    // 1dddd: the four decimals with their zeros, after a leading 1.
    let fraction = crate::stream::Decimal::of(10_000 + scaled % 10_000);
    let fraction = fraction
        .as_str()
        .split_at_checked(1)
        .map_or("", |(_, digits)| digits);
    let mut text = alloc::string::String::with_capacity(whole.as_str().len() + 5 + suffix.len());
    for part in [whole.as_str(), ".", fraction, suffix] {
        text.push_str(part);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn roll_mapping_edges() {
        assert_eq!(Roll::from_u32(0).hundredths(), 0);
        assert_eq!(Roll::from_u32(u32::MAX).hundredths(), 10_000);
        // floor(float * 10001): the first u32 that reaches 100.00
        let first_top = u32::try_from((10_000u64 << 32).div_ceil(10_001)).unwrap();
        assert_eq!(Roll::from_u32(first_top).hundredths(), 10_000);
        assert_eq!(Roll::from_u32(first_top - 1).hundredths(), 9_999);
    }

    #[test]
    fn winning_counts_and_edges() {
        let under1 = DiceCall::new(1, Direction::Under).unwrap();
        assert_eq!(under1.winning_count(), 100);
        assert!(under1.wins(Roll::from_hundredths(99).unwrap()));
        assert!(!under1.wins(Roll::from_hundredths(100).unwrap()));
        let over99 = DiceCall::new(99, Direction::Over).unwrap();
        assert_eq!(over99.winning_count(), 100);
        assert!(!over99.wins(Roll::from_hundredths(9_900).unwrap()));
        assert!(over99.wins(Roll::from_hundredths(9_901).unwrap()));
        assert!(over99.wins(Roll::from_hundredths(10_000).unwrap()));
        assert_eq!(
            DiceCall::new(0, Direction::Under),
            Err(CallError::DiceTargetOutOfRange { target: 0 })
        );
        assert_eq!(
            DiceCall::new(100, Direction::Over),
            Err(CallError::DiceTargetOutOfRange { target: 100 })
        );
    }

    #[test]
    fn winning_count_matches_brute_force() {
        for target in MIN_TARGET..=MAX_TARGET {
            for direction in [Direction::Under, Direction::Over] {
                let call = DiceCall::new(target, direction).unwrap();
                let brute = (0..=10_000)
                    .filter(|h| call.wins(Roll::from_hundredths(*h).unwrap()))
                    .count();
                assert_eq!(
                    brute,
                    call.winning_count() as usize,
                    "{target} {direction:?}"
                );
            }
        }
    }

    #[test]
    fn schedule_display() {
        let s = DiceCall::new(50, Direction::Under).unwrap().schedule();
        assert_eq!(s.win_chance(), "49.9950%");
        assert_eq!(s.multiplier(), "1.9802");
        let s = DiceCall::new(1, Direction::Under).unwrap().schedule();
        assert_eq!(s.win_chance(), "0.9999%");
        assert_eq!(s.multiplier(), "99.0099");
        let s = DiceCall::new(1, Direction::Over).unwrap().schedule();
        assert_eq!(s.win_chance(), "98.9901%");
        assert_eq!(s.multiplier(), "1.0001");
        assert_eq!(Roll::from_hundredths(705).unwrap().to_string(), "7.05");
        assert_eq!(Roll::from_hundredths(10_000).unwrap().to_string(), "100.00");
    }

    #[test]
    fn fixed4_writes_four_decimals() {
        for scaled in (0..200_000).chain([990_099, 1_000_000, u64::MAX / 3]) {
            let expected = alloc::format!("{}.{:04}%", scaled / 10_000, scaled % 10_000);
            assert_eq!(fixed4(scaled, "%"), expected);
        }
    }
}
