//! Coinflip: `heads` iff the top bit of `u_0` is set; exactly 1/2 each. Returns 1.98x on a win.

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
