//! Exact returns and integer payouts (fairness v1, "Payouts").
//!
//! A win's exact return is a rational `R = a / b` chips, wager included. Chips are whole, so
//! the fractional part is paid as one extra chip with exactly that probability, drawn from
//! `u_1` of the committed stream:
//! ```text
//! payout = floor(a / b) + bonus,  bonus = 1 iff u_1 * b < (a mod b) * 2^32
//! ```
//! which keeps the expected return at `R` (to within 2^-32 chip) at every wager size.

/// The exact return `a / b` of a win, in chips (wager included).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WinReturn {
    num: u128,
    den: u128,
}

impl WinReturn {
    pub(crate) fn new(num: u128, den: u128) -> Self {
        debug_assert!(den > 0);
        Self { num, den }
    }

    /// `a`.
    pub fn numerator(&self) -> u128 {
        self.num
    }

    /// `b`.
    pub fn denominator(&self) -> u128 {
        self.den
    }

    /// `floor(a / b)`: the whole chips every win pays.
    pub fn floor(&self) -> u128 {
        self.num / self.den
    }

    /// `ceil(a / b)`: the most a win can pay.
    pub fn ceil(&self) -> u128 {
        self.num.div_ceil(self.den)
    }

    /// `a mod b`: the fractional chip, in units of `1/b`.
    pub fn remainder(&self) -> u128 {
        self.num % self.den
    }

    /// Whether the fractional chip is paid for the draw `u_1`.
    pub fn bonus(&self, u1: u32) -> bool {
        u128::from(u1) * self.den < self.remainder() << 32
    }

    /// The whole chips a win pays for the draw `u_1`.
    pub fn payout(&self, u1: u32) -> u128 {
        self.floor() + u128::from(self.bonus(u1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_chip_coinflip_pays_one_or_two_with_the_right_odds() {
        // 1 * 198 / 100 = 1.98: the bonus chip comes with probability 0.98.
        let r = WinReturn::new(198, 100);
        assert_eq!((r.floor(), r.ceil(), r.remainder()), (1, 2, 98));
        let threshold = u32::try_from((98u128 << 32).div_ceil(100)).unwrap();
        assert_eq!(r.payout(threshold - 1), 2);
        assert_eq!(r.payout(threshold), 1);
        assert_eq!(r.payout(0), 2);
        assert_eq!(r.payout(u32::MAX), 1);
    }

    #[test]
    fn exact_returns_never_pay_a_bonus() {
        let r = WinReturn::new(36 * 7, 1);
        assert_eq!(r.payout(0), 252);
        assert_eq!(r.payout(u32::MAX), 252);
    }
}
