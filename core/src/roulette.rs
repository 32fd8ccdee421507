//! European roulette: 37 pockets, a single zero that loses every outside bet.

mod rules;

pub use rules::{Roulette, RouletteClaimed, RouletteParams, RouletteResult};

use crate::error::CallError;
use crate::payout::WinReturn;

/// Pockets 0 ..= 36.
pub const POCKETS: u32 = 37;
/// The red numbers; black is the other 18 of 1 ..= 36.
pub const RED: [u8; 18] = [
    1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36,
];

/// The 13 kinds of bet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum BetKind {
    /// One number (needs `number`); pays 36x.
    Straight,
    /// The 18 red numbers; pays 2x.
    Red,
    /// The 18 black numbers; pays 2x.
    Black,
    /// Odd numbers of 1 ..= 36; pays 2x.
    Odd,
    /// Even numbers of 1 ..= 36 (zero is not even here); pays 2x.
    Even,
    /// 1 ..= 18; pays 2x.
    Low,
    /// 19 ..= 36; pays 2x.
    High,
    /// 1 ..= 12; pays 3x.
    Dozen1,
    /// 13 ..= 24; pays 3x.
    Dozen2,
    /// 25 ..= 36; pays 3x.
    Dozen3,
    /// 1, 4, …, 34; pays 3x.
    Column1,
    /// 2, 5, …, 35; pays 3x.
    Column2,
    /// 3, 6, …, 36; pays 3x.
    Column3,
}

impl BetKind {
    /// Every kind, in the order the spec lists them.
    pub const ALL: [BetKind; 13] = [
        Self::Straight,
        Self::Red,
        Self::Black,
        Self::Odd,
        Self::Even,
        Self::Low,
        Self::High,
        Self::Dozen1,
        Self::Dozen2,
        Self::Dozen3,
        Self::Column1,
        Self::Column2,
        Self::Column3,
    ];

    /// The wire name, e.g. `"dozen2"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Straight => "straight",
            Self::Red => "red",
            Self::Black => "black",
            Self::Odd => "odd",
            Self::Even => "even",
            Self::Low => "low",
            Self::High => "high",
            Self::Dozen1 => "dozen1",
            Self::Dozen2 => "dozen2",
            Self::Dozen3 => "dozen3",
            Self::Column1 => "column1",
            Self::Column2 => "column2",
            Self::Column3 => "column3",
        }
    }

    /// Parses a wire name exactly.
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.as_str() == text)
    }

    /// The return multiple of the wager on a win: 36, 2 or 3.
    pub fn multiple(self) -> u32 {
        match self {
            Self::Straight => 36,
            Self::Red | Self::Black | Self::Odd | Self::Even | Self::Low | Self::High => 2,
            _ => 3,
        }
    }
}

/// A validated roulette bet: a kind, and the number for a straight bet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RouletteBet {
    kind: BetKind,
    number: Option<u8>,
}

impl RouletteBet {
    /// A straight bet takes `number` (0 ..= 36); every other kind takes none.
    pub fn new(kind: BetKind, number: Option<u32>) -> Result<Self, CallError> {
        let number = match (kind, number) {
            (BetKind::Straight, None) => return Err(CallError::RouletteNumberRequired),
            (BetKind::Straight, Some(n)) if n >= POCKETS => {
                return Err(CallError::RouletteNumberOutOfRange { number: n });
            }
            (BetKind::Straight, Some(n)) => u8::try_from(n).ok(),
            (_, Some(_)) => return Err(CallError::RouletteNumberNotAllowed),
            (_, None) => None,
        };
        Ok(Self { kind, number })
    }

    /// The kind of bet.
    pub fn kind(&self) -> BetKind {
        self.kind
    }

    /// The number of a straight bet.
    pub fn number(&self) -> Option<u8> {
        self.number
    }

    /// Whether the ball landing in `pocket` wins this bet.
    pub fn covers(&self, pocket: u8) -> bool {
        if pocket == 0 {
            return self.number == Some(0);
        }
        match self.kind {
            BetKind::Straight => self.number == Some(pocket),
            BetKind::Red => color(pocket) == Color::Red,
            BetKind::Black => color(pocket) == Color::Black,
            BetKind::Odd => pocket % 2 == 1,
            BetKind::Even => pocket.is_multiple_of(2),
            BetKind::Low => pocket <= 18,
            BetKind::High => pocket >= 19,
            BetKind::Dozen1 => pocket <= 12,
            BetKind::Dozen2 => (13..=24).contains(&pocket),
            BetKind::Dozen3 => pocket >= 25,
            BetKind::Column1 => pocket % 3 == 1,
            BetKind::Column2 => pocket % 3 == 2,
            BetKind::Column3 => pocket.is_multiple_of(3),
        }
    }

    /// `W`: how many of the 37 pockets win (1, 18 or 12).
    pub fn winning_count(&self) -> u32 {
        match self.kind.multiple() {
            36 => 1,
            2 => 18,
            _ => 12,
        }
    }

    /// `wager * multiple`: exact, so no fractional chip.
    pub fn win_return(&self, wager: u64) -> WinReturn {
        WinReturn::new(u128::from(wager) * u128::from(self.kind.multiple()), 1)
    }
}

/// `pocket = (u_0 * 37) >> 32`, the same as `floor(float * 37)`.
pub fn spin(u0: u32) -> u8 {
    u8::try_from((u64::from(u0) * u64::from(POCKETS)) >> 32).unwrap_or(0)
}

/// The colour of a pocket.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Color {
    /// Pocket 0.
    Green,
    /// One of [`RED`].
    Red,
    /// The other numbers of 1 ..= 36.
    Black,
}

impl Color {
    /// Every colour.
    pub const ALL: [Color; 3] = [Self::Green, Self::Red, Self::Black];

    /// `"green"`, `"red"` or `"black"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Green => "green",
            Self::Red => "red",
            Self::Black => "black",
        }
    }

    /// Parses `"green"`, `"red"` or `"black"` exactly.
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.as_str() == text)
    }
}

/// The colour of `pocket`.
pub fn color(pocket: u8) -> Color {
    if pocket == 0 {
        Color::Green
    } else if RED.contains(&pocket) {
        Color::Red
    } else {
        Color::Black
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spin_edges() {
        assert_eq!(spin(0), 0);
        assert_eq!(spin(u32::MAX), 36);
    }

    #[test]
    fn every_kind_covers_its_winning_count_and_zero_loses_outside_bets() {
        for kind in BetKind::ALL {
            let numbers: &[Option<u32>] = if kind == BetKind::Straight {
                &[Some(0), Some(1), Some(17), Some(36)]
            } else {
                &[None]
            };
            for number in numbers {
                let bet = RouletteBet::new(kind, *number).unwrap();
                let covered = (0..37u8).filter(|p| bet.covers(*p)).count();
                assert_eq!(covered, bet.winning_count() as usize, "{kind:?}");
                if kind != BetKind::Straight {
                    assert!(!bet.covers(0), "{kind:?} must lose on zero");
                }
                // exact 1/37 edge: W * multiple = 36
                assert_eq!(bet.winning_count() * kind.multiple(), 36);
            }
        }
    }

    #[test]
    fn red_and_black_partition_one_to_36() {
        let red = (1..=36u8).filter(|p| color(*p) == Color::Red).count();
        let black = (1..=36u8).filter(|p| color(*p) == Color::Black).count();
        assert_eq!((red, black), (18, 18));
        assert_eq!(color(0), Color::Green);
    }

    #[test]
    fn number_rules() {
        assert_eq!(
            RouletteBet::new(BetKind::Straight, None),
            Err(CallError::RouletteNumberRequired)
        );
        assert_eq!(
            RouletteBet::new(BetKind::Straight, Some(37)),
            Err(CallError::RouletteNumberOutOfRange { number: 37 })
        );
        assert_eq!(
            RouletteBet::new(BetKind::Red, Some(3)),
            Err(CallError::RouletteNumberNotAllowed)
        );
        for kind in BetKind::ALL {
            assert_eq!(BetKind::parse(kind.as_str()), Some(kind));
        }
        assert_eq!(BetKind::parse("Red"), None);
    }
}
