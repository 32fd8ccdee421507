//! Limits that depend on the math (fairness v1, "Limits"), as parameters.
//! [`Limits::SPEC`] holds the values of the interface specification, in this one place.

use crate::call::Call;
use crate::error::LimitError;

/// Wagers start at one chip.
pub const MIN_WAGER: u64 = 1;

/// The limits one deployment plays under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Limits {
    /// Largest wager, in chips.
    pub max_wager_chips: u64,
    /// Largest profit one win may pay (`ceil(R) - wager`), in chips.
    pub max_payout_chips: u64,
    /// Largest net winnings of one address in one UTC day, in chips.
    pub daily_win_cap_chips: u64,
    /// Smallest cashout, in chips.
    pub min_cashout_chips: u64,
    /// Largest cashout, in chips.
    pub max_cashout_chips: u64,
    /// Chips granted once per address without payment.
    pub free_chips: u64,
}

impl Limits {
    /// The values of the interface specification.
    pub const SPEC: Limits = Limits {
        max_wager_chips: 1_000,
        max_payout_chips: 500,
        daily_win_cap_chips: 2_000,
        min_cashout_chips: 100,
        max_cashout_chips: 250_000,
        free_chips: 100,
    };

    /// The largest wager accepted for `call`: the largest whose potential profit stays within
    /// the payout limit, clamped by the wager limit. 0 if no wager fits.
    pub fn max_wager(&self, call: &Call) -> u64 {
        // R(w) = w * a1 / b, so profit(w) = ceil(w * (a1 - b) / b) <= L  <=>  w <= L * b / (a1 - b).
        let per_chip = call.win_return(1);
        let profit_per_chip = per_chip.numerator() - per_chip.denominator();
        let by_payout =
            u128::from(self.max_payout_chips) * per_chip.denominator() / profit_per_chip;
        u64::try_from(by_payout)
            .unwrap_or(u64::MAX)
            .min(self.max_wager_chips)
    }

    /// Checks `wager` on `call` for an address whose net winnings today are `net_today`.
    /// Returns the potential profit of the wager when every limit holds.
    pub fn check_wager(&self, call: &Call, wager: u64, net_today: i64) -> Result<u64, LimitError> {
        if wager < MIN_WAGER {
            return Err(LimitError::WagerBelowMinimum { wager });
        }
        let max_wager = self.max_wager(call);
        if wager > self.max_wager_chips {
            return Err(LimitError::WagerAboveLimit { wager, max_wager });
        }
        let potential_profit = call.potential_profit(wager);
        if potential_profit > u128::from(self.max_payout_chips) {
            return Err(LimitError::PayoutAboveLimit {
                wager,
                potential_profit: u64::try_from(potential_profit).unwrap_or(u64::MAX),
                max_payout: self.max_payout_chips,
                max_wager,
            });
        }
        // Within the payout limit, so it fits in u64.
        let potential_profit = u64::try_from(potential_profit).unwrap_or(u64::MAX);
        self.check_daily_cap(net_today, potential_profit)?;
        Ok(potential_profit)
    }

    /// Refuses a round whose potential profit would take today's net winnings above the cap.
    pub fn check_daily_cap(&self, net_today: i64, potential_profit: u64) -> Result<(), LimitError> {
        let after = i128::from(net_today) + i128::from(potential_profit);
        if after > i128::from(self.daily_win_cap_chips) {
            return Err(LimitError::DailyWinCap {
                net_today,
                potential_profit,
                cap: self.daily_win_cap_chips,
            });
        }
        Ok(())
    }

    /// Whether a cashout of `chips` is within the cashout bounds.
    pub fn cashout_in_range(&self, chips: u64) -> bool {
        (self.min_cashout_chips..=self.max_cashout_chips).contains(&chips)
    }
}

impl Default for Limits {
    fn default() -> Self {
        Self::SPEC
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coinflip::Side;
    use crate::dice::{DiceCall, Direction};
    use crate::roulette::{BetKind, RouletteBet};

    fn dice(target: u32, direction: Direction) -> Call {
        Call::Dice(DiceCall::new(target, direction).unwrap())
    }

    #[test]
    fn spec_max_wagers() {
        let l = Limits::SPEC;
        // coinflip: profit ceil(0.98 w) <= 500  <=>  w <= 510
        assert_eq!(l.max_wager(&Call::Coinflip(Side::Heads)), 510);
        // straight: 35 w <= 500
        let straight = Call::Roulette(RouletteBet::new(BetKind::Straight, Some(0)).unwrap());
        assert_eq!(l.max_wager(&straight), 14);
        let red = Call::Roulette(RouletteBet::new(BetKind::Red, None).unwrap());
        assert_eq!(l.max_wager(&red), 500);
        let dozen = Call::Roulette(RouletteBet::new(BetKind::Dozen2, None).unwrap());
        assert_eq!(l.max_wager(&dozen), 250);
        // dice under 1: R = 99.0099 w, profit ceil(98.0099 w) <= 500  <=>  w <= 5
        assert_eq!(l.max_wager(&dice(1, Direction::Under)), 5);
        assert_eq!(l.max_wager(&dice(99, Direction::Over)), 5);
        // dice over 1: tiny profit, so the wager limit binds
        assert_eq!(l.max_wager(&dice(1, Direction::Over)), 1_000);
    }

    #[test]
    fn check_wager_refuses_and_names_the_max() {
        let l = Limits::SPEC;
        let straight = Call::Roulette(RouletteBet::new(BetKind::Straight, Some(7)).unwrap());
        assert_eq!(l.check_wager(&straight, 14, 0), Ok(490));
        let err = l.check_wager(&straight, 15, 0).unwrap_err();
        assert_eq!(err.code(), "payout_above_limit");
        assert_eq!(err.max_wager(), Some(14));
        let flip = Call::Coinflip(Side::Tails);
        assert_eq!(
            l.check_wager(&flip, 1_001, 0),
            Err(LimitError::WagerAboveLimit {
                wager: 1_001,
                max_wager: 510
            })
        );
        assert_eq!(
            l.check_wager(&flip, 0, 0),
            Err(LimitError::WagerBelowMinimum { wager: 0 })
        );
    }

    #[test]
    fn daily_cap_counts_the_potential_profit() {
        let l = Limits::SPEC;
        let red = Call::Roulette(RouletteBet::new(BetKind::Red, None).unwrap());
        assert_eq!(l.check_wager(&red, 500, 1_500), Ok(500));
        assert_eq!(
            l.check_wager(&red, 500, 1_501),
            Err(LimitError::DailyWinCap {
                net_today: 1_501,
                potential_profit: 500,
                cap: 2_000
            })
        );
        // A player who is down may win back more.
        assert_eq!(l.check_wager(&red, 500, -10_000), Ok(500));
    }
}
